"""Big World 1942, TripleA's second game, as a ruleset of its own: its units
(:mod:`~adjudicator.bigworld.units`, read from ``big_world_1942.xml`` by
:mod:`~adjudicator.bigworld.extract`), its battle round (:mod:`~adjudicator.bigworld.combat`),
battles resolved from their dice (:mod:`~adjudicator.bigworld.resolve`, documents read by
:mod:`~adjudicator.bigworld.reading`), their exact odds (:mod:`~adjudicator.bigworld.odds`)
and the Monte Carlo those are held to (:mod:`~adjudicator.bigworld.simulate`).

A battle document says ``"ruleset": "big_world_1942"`` to be read by these rules;
:func:`adjudicator.battle.resolve_json` and :func:`adjudicator.odds.odds_json` pass it here.
"""
