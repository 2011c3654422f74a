"""Input that cannot be read as a battle: precise ``ValueError`` subclasses naming the field.

A battle document with a wrong shape (a missing key, a count that is not a number, a unit
Classic does not have) cannot be adjudicated at all, so it raises. Dice that merely do not fit
the forces are a different matter: the league has rules for those (IAAPA Error Correction III)
and the engine reports them as diagnostics instead (:mod:`adjudicator.battle.findings`).
"""

from __future__ import annotations


class BattleInputError(ValueError):
    """A battle document (or setup) that cannot be read; ``field`` is where, as a JSON path.

    The path uses the document's own keys and 0-based list indices, for example
    ``rounds[1].attacker.FTR[0]`` (the first fighter die of the second round).
    """

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        """Where the problem is, as a JSON path into the document."""
        self.problem = problem
        """What is wrong there and, where it helps, what to write instead."""


class UnsupportedVersion(BattleInputError):
    """The document's ``version`` is not one this engine reads (only 1 is)."""


class MissingField(BattleInputError):
    """A required key is absent."""


class UnknownField(BattleInputError):
    """A key the format does not define (often a misspelling, which would be lost silently)."""


class WrongType(BattleInputError):
    """A value of the wrong JSON type: a string where a number belongs, a list for a map."""


class InvalidValue(BattleInputError):
    """A value of the right type that the format forbids: a negative count, a flag of 2."""


class UnknownUnit(BattleInputError):
    """A unit name that is not a Classic unit abbreviation (INF, ARM, FTR, BMB, ...)."""


class UnknownTechnology(BattleInputError):
    """A technology name that is not one of the six weapons developments."""


class ImpossibleForces(BattleInputError):
    """Forces no battle can have: a submarine in a land battle, an attacking AA gun, a
    transport carrying more than it holds, a declared order of loss that loses an AA gun."""
