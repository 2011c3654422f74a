"""Pure rules engine for IAAPA Axis & Allies 2nd edition: no web, no database, no clock, no dice.

One vocabulary runs through it. Units are counted as :class:`adjudicator.units.Units`, listed
in the chart's order (:data:`adjudicator.units.CHART_ORDER`). Reading a turn
(:mod:`adjudicator.notation`), checking its declarations (:mod:`adjudicator.declarations`) and
resolving a battle (:mod:`adjudicator.battle`) all report
:class:`adjudicator.diagnostics.Diagnostic` values citing one registry of rules,
:class:`adjudicator.diagnostics.Rule`. Positions (:mod:`adjudicator.position`) know the board
and the units, never the turn notation.
"""
