"""The battle engine's findings: :class:`adjudicator.diagnostics.Diagnostic` values placed by
the battle round they concern.

The battle engine reports in the engine's one vocabulary (:mod:`adjudicator.diagnostics`),
so a player reads the same severities and the same rule citations whether a problem was found
in the turn's email or in its dice. A battle finding gives its ``round`` (``None``: the battle
as a whole) and never an email ``line`` (that stays 0): the dice of a battle are not lines of
an email. These builders only fill in the severity and the round.

A finding never changes silently what the dice say: dice that do not fit the units are set
aside and reported, with the league's remedy (IAAPA Error Correction III: "Valid dice rolls
will be preserved as much as possible ... In all cases, unaffected rolls will stand").
"""

from __future__ import annotations

from adjudicator.diagnostics import Diagnostic, Rule, Severity


def error(round_: int | None, rule: Rule, message: str) -> Diagnostic:
    """A finding of severity ERROR: the battle's result is provisional until the message's
    remedy (what to roll or re-roll) is applied."""
    return Diagnostic(Severity.ERROR, rule, message, round=round_)


def warning(round_: int | None, rule: Rule, message: str) -> Diagnostic:
    """A finding of severity WARNING: the result stands, but a player's right or the Minister
    of Law's discretion is involved."""
    return Diagnostic(Severity.WARNING, rule, message, round=round_)


def info(round_: int | None, rule: Rule, message: str) -> Diagnostic:
    """A finding of severity INFO: worth knowing, changes nothing."""
    return Diagnostic(Severity.INFO, rule, message, round=round_)
