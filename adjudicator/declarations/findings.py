"""What a check against the board finds: a diagnostic, plus the battles it voids.

A :class:`Finding` has the shape of the notation's
:class:`~adjudicator.notation.model.Diagnostic` (line, severity, rule, message, suggestion,
code) so the turn report lists both alike, and names the ``battles`` it concerns: an error
about a declaration voids each of them (IAAPA Error Correction II: "If any of this information
is incorrect, it is considered a CDE, and the entire battle is null and void and no portion of
the results may stand").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from adjudicator.notation.errors import POST_COMBAT, PRECOMBAT
from adjudicator.notation.model import Diagnostic, Severity

CDE = "IAAPA Error Correction II"
PRECOMBAT_RULE = PRECOMBAT
DISCREPANCIES = "IAAPA Error Correction V"
FIGHTERS = "IAAPA Rules Clarifications, Fighters"
TRANSPORT_UNLOADING = "IAAPA Rules Clarifications, Transport Unloading"
AMPHIBIOUS = "IAAPA Rules Clarifications, Amphibious Assaults"
CANALS = "IAAPA Rules Clarifications, Canals"
COUNTS = POST_COMBAT
"""The territory and IPC count: IAAPA Declaration and Battle Resolution Procedures, Post
Combat Orders ("give a territory and IPC count ... i.e. UK 30/$32")."""


class Code(Enum):
    """The stable name of each finding (messages may be reworded; codes may not)."""

    NOT_AT_ORIGIN = "not-at-origin"
    """Error: the attacker has fewer units of a type at the stated origin than listed."""
    ORIGIN_NOT_LISTED = "origin-not-listed"
    """Error: attacking units with no territory or sea zone of origin (Section II)."""
    OVER_COMMITTED = "over-committed"
    """Error: more units sent from one origin into several battles than it holds; every
    battle using them is void (Section II)."""
    INTENT_CLEAR = "intent-clear"
    """Warning: a wrong origin or place, but only one reading is possible (Section II's
    submarine example): no CDE."""
    CANNOT_ATTACK = "cannot-attack"
    """Error: a unit type that cannot fight this battle (an AA gun, a ship on land ...)."""
    UNREACHABLE = "unreachable"
    """Error: units that cannot reach the battle from their origin this turn."""
    NOT_ENOUGH_TRANSPORTS = "not-enough-transports"
    """Error: fewer transports at the stated zone than listed, or none for units that need
    them (Section II: "not enough transports")."""
    TRANSPORT_CAPACITY = "transport-capacity"
    """Error: cargo that does not fit the transports listed (1 ARM, 1 AA or 2 INF each)."""
    TRANSPORT_TWO_ASSAULTS = "transport-two-assaults"
    """Error: the same transports unloading into two amphibious assaults."""
    TRANSPORTS_NOT_IN_SEA_BATTLE = "transports-not-in-sea-battle"
    """Error: transports unloading from an enemy-held zone are not in its sea battle."""
    UNLOADING_ZONE_UNDISCLOSED = "unloading-zone-undisclosed"
    """Error: more than one sea zone the transports could unload from, none named."""
    NO_LANDING_PLACE = "no-landing-place"
    """Error: aircraft with no potential landing place (a kamikaze attack)."""
    LANDING_NOT_POSSIBLE = "landing-not-possible"
    """Warning: the stated landing place cannot be reached or used, but another can."""
    DEFENDERS_WRONG = "defenders-wrong"
    """Error: defenders listed, and not exactly those in the place (Section II.3)."""
    NOTHING_TO_ATTACK = "nothing-to-attack"
    """Warning: a battle declared where the attacker has no enemy to fight."""
    NO_COMPLEX = "no-complex"
    """Error: a bombing raid on a territory with no enemy industrial complex."""
    WRONG_POWER = "wrong-power"
    """Warning: the email's power is not the one the position has to move."""
    MAP_OVERRULED = "map-overruled"
    """Warning: the map update disagrees with a listed non-combat move, which wins
    (Section V)."""
    MAP_DIFFERS = "map-differs"
    """Warning: the map update lists fewer units than the orders leave, where no non-combat
    move is listed; the map update stands."""
    MAP_EXCESS = "map-excess"
    """Warning: the map update lists more units than the orders can leave, where no
    non-combat move is listed; the position keeps what the orders leave."""
    MAP_OMITS = "map-omits"
    """Warning: the map update leaves out spaces where the power's units or territories
    are; they are kept as they were."""
    IMPOSSIBLE_POSITION = "impossible-position"
    """Warning: the units the turn leaves break a rule of the board (cargo without
    transports, units on enemy land ...); the position is kept as the orders make it."""
    COUNT_MISMATCH = "count-mismatch"
    """Warning: the declared territory or IPC count is not the position's."""
    OVERSPENT = "overspent"
    """Warning: more IPCs spent than the power had."""


@dataclass(frozen=True)
class Finding:
    """One finding about one line of the email, and the battles it concerns."""

    line: int
    severity: Severity
    rule: str
    message: str
    suggestion: str
    code: Code
    battles: tuple[int, ...] = ()

    def diagnostic(self) -> Diagnostic:
        """The finding as a notation diagnostic (the battles are in the message)."""
        return Diagnostic(self.line, self.severity, self.rule, self.message, self.suggestion,
                          self.code.value)

    def as_report(self) -> dict[str, Any]:
        """The report form: the diagnostic's keys, plus ``battles`` when it names any."""
        obj: dict[str, Any] = {
            "line": self.line, "severity": self.severity.value, "rule": self.rule,
            "message": self.message, "suggestion": self.suggestion, "code": self.code.value}
        if self.battles:
            obj["battles"] = list(self.battles)
        return obj


def error(line: int, rule: str, message: str, suggestion: str, code: Code,
          battles: tuple[int, ...] = ()) -> Finding:
    """An error finding."""
    return Finding(line, Severity.ERROR, rule, message, suggestion, code, battles)


def warning(line: int, rule: str, message: str, suggestion: str, code: Code,
            battles: tuple[int, ...] = ()) -> Finding:
    """A warning finding."""
    return Finding(line, Severity.WARNING, rule, message, suggestion, code, battles)


VOID_SUGGESTION = ("the battle is void if rolled as declared (Error Correction II): send an "
                   "updated pre-combat turn before rolling any dice")
"""What to do about a combat declaration error found before any die is rolled."""
