"""What a ruling says, and the rule names it cites.

A :class:`Ruling` is the Minister of Law's answer to one error a game's ledger shows: which
entries it is about, the rule, a one-line decision, and, for dice, exactly which of them
stand and which are dropped (by entry seq and die position), what must be rolled now and
from which round the battle is re-rolled. Everything in it is an integer, a string or a
tuple of them, so :meth:`Ruling.json` is the ledger's kind of JSON (no floats, no booleans,
no nulls but ``reroll_from_round``).

Citations follow the form the conformance tests cite: ``"Error Correction III, Too many
units"`` (the part, then the heading or case of the rule book), several joined with ``"; "``
when one ruling applies several cases to the same dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Die = tuple[int, int]
"""A die of the ledger: (the entry's seq, its position from 0 in the entry's ``dice``)."""

# --- the rule book's cases, as the rulings cite them -------------------------------------------

CDE = "Error Correction II"
CDE_UNDECLARED = f"{CDE}, Combat must be declared"
""""A player must declare all combat prior to rolling any dice.\""""
CDE_ATTACKERS = f"{CDE}, Attacking units"
"""The exact number, type and origin of the attacking units."""
CDE_TRANSPORTS = f"{CDE}, Not enough transports"
CDE_UNLOADING = f"{CDE}, Unloading sea zone"
CDE_OVER_COMMITTED = f"{CDE}, Over-commitment"
CDE_DEFENDERS = f"{CDE}, Defending units"
CDE_INTENT = f"{CDE}, Intent is clear"
CDE_TERRITORY = f"{CDE}, Declared territory"
CDE_TERRITORY_ONLY = f"{CDE}, Only the defending territory listed"
CDE_NO_ADDED_UNITS = f"{CDE}, No units may be added"
""""He may not add additional attacking units to the battle" (a battle re-fought)."""

ROLLING = "Error Correction III"
AA_GUNS = f"{ROLLING}, AA Guns"
BB_SUPPORT = f"{ROLLING}, BB Support Shots"
TOO_FEW = f"{ROLLING}, Too few units"
TOO_MANY = f"{ROLLING}, Too many units"
WRONG_UNITS = f"{ROLLING}, Wrong Units"

PAUSE = "Default Orders of Loss, failure to pause"
"""IAAPA Default Orders of Loss: "If the attacker rolls both attacker AND defender in these
cases without pausing ..."."""

TECH = "Error Correction IV, Tech Rolls"
DISCREPANCIES = "Error Correction V, Discrepancies Between Maps and Orders"
TYPOS = "Error Correction VI, Typographical Errors"
TIME_LIMIT = "Error Correction VII, Time Limit for Error Corrections"


@dataclass(frozen=True)
class Permission:
    """Whether the rules allow what a player asks (a forfeit request, a finish posted), and
    why: a refusal's reason says what was wrong and from when it is allowed."""

    allowed: bool
    reason: str

    @classmethod
    def granted(cls, reason: str) -> Permission:
        return cls(True, reason)

    @classmethod
    def refused(cls, reason: str) -> Permission:
        return cls(False, reason)


@dataclass(frozen=True)
class Ruling:
    """One ruling on one error of a game (or on one round's dice, when several cases of
    Error Correction III apply to them together).

    ``about`` are the seqs of the entries the ruling is about: the erroneous roll or
    submission, the entries whose dice it drops, and any entries proving the timing
    (an ``error-recognition`` note, the first roll of the next turn). ``kept`` and
    ``dropped`` name dice as ``(seq, position)``: for a battle round, every die of the
    entries named is in one or the other, except the defending dice of a roll that skipped
    a pause, which wait on the defender's choice (``options``). ``to_roll`` are roll
    request bodies as the API takes them (``POST /api/v1/games/<n>/rolls`` for a battle;
    ``/tech-rolls`` for research dice, told apart by their ``dice`` key).
    """

    about: tuple[int, ...]
    rule: str
    decision: str
    kept: tuple[Die, ...] = ()
    dropped: tuple[Die, ...] = ()
    to_roll: tuple[dict[str, Any], ...] = ()
    reroll_from_round: int | None = None
    void_battles: tuple[str, ...] = ()
    options: tuple[str, ...] = ()

    def json(self) -> dict[str, Any]:
        """The ruling as the rulings document holds it."""
        return {
            "about": list(self.about),
            "rule": self.rule,
            "decision": self.decision,
            "dice": {
                "kept": [[seq, index] for seq, index in self.kept],
                "dropped": [[seq, index] for seq, index in self.dropped],
            },
            "to_roll": [dict(body) for body in self.to_roll],
            "reroll_from_round": self.reroll_from_round,
            "void_battles": list(self.void_battles),
            "options": list(self.options),
        }


def join_rules(rules: list[str]) -> str:
    """Several cases cited by one ruling, each once, in the order met."""
    return "; ".join(dict.fromkeys(rules))
