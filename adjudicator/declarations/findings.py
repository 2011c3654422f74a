"""What a check against the board finds: diagnostics, some naming the battles they void.

Each finding is a :class:`~adjudicator.diagnostics.Diagnostic` like the notation parser's, so
the turn report lists both alike; its ``code`` is a :class:`Code`, and ``battles`` names the
declared battles it concerns: an error about a declaration voids each of them (IAAPA Error
Correction II: "If any of this information is incorrect, it is considered a CDE, and the
entire battle is null and void and no portion of the results may stand").
"""

from __future__ import annotations

import operator
from enum import StrEnum
from functools import partial

from adjudicator.diagnostics import Diagnostic, Rule, Severity


class Code(StrEnum):
    """The stable name of each finding (messages may be reworded; codes may not): a
    diagnostic's ``code``, compared as the member or as its text."""

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
    PLACE_NOT_CLEAR = "place-not-clear"
    """Error: a battle's place written so that it fits several places (the notation's
    ``could_be``), and not exactly one of them holds what the attack needs (enemy units its
    attackers can reach): the correct word is not readily decipherable (Section VI), so no
    place is declared for "the declared territory or sea zone is always assumed to be
    correct" to hold, it is not clear where the battle is to occur, and the battle is void
    (Section II)."""
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
    ORIGIN_READ = "origin-read"
    """Note: a move of aircraft naming no origin, read as from the one battle of the turn
    whose attackers hold them (:mod:`.returning`)."""
    MAP_OTHERS = "map-others"
    """Warning: the map update lists another power's units in a space ("Egypt 1 INF (2 US
    INF)") that the position does not have there; the map update lists the mover's own
    units, so the position keeps the other power's."""
    MAP_OMITS = "map-omits"
    """Warning: the map update leaves out spaces where the power's units or territories
    are; they are kept as they were."""
    IMPOSSIBLE_POSITION = "impossible-position"
    """Warning: the units the turn leaves break a rule of the board (cargo without
    transports, units on enemy land ...); the position is kept as the orders make it."""
    COUNT_MISMATCH = "count-mismatch"
    """Warning: the declared territory or IPC count is not the position's."""
    OVERSPENT = "overspent"
    """More IPCs spent on units and research than the power had in hand: an error in the
    pre-combat turn that buys them (IAAPA Income Collection and Spending; Error Correction
    IV for research dice), a warning when only the post-combat orders show it."""
    PURCHASE_TOTAL = "purchase-total"
    """Warning: a written purchase total, or IPCs left, that is not what the price list and
    the bank give; the message names the correct figure."""
    CAPITAL_LOST = "capital-lost"
    """Error: units bought while the power's capital is under enemy control (IAAPA Income
    Collection and Spending)."""

    SUPPORT_NOT_IN_TOTAL = "support-not-in-total"
    """Info: a land battle's Total line leaves out a battleship its origin lines declare for a
    support shot: no CDE, the declaration stands (the league's reading, README)."""
    AIR_ONLY = "air-only"
    """Info: a land battle won with only aircraft left takes nothing: the territory stays
    the defender's (the same code as the played-out turn's)."""

    # --- post-combat orders: non-combat moves (IAAPA Combat/Non-Combat Movement) ---------
    MOVED_AFTER_COMBAT = "moved-after-combat"
    """Error: a unit that took part in combat (a battleship's support shot included) moves
    in the non-combat move; only aircraft land then."""
    MOVE_TOO_FAR = "move-too-far"
    """Error: a non-combat move longer than the unit can go (aircraft: what the combat move
    left of their range), or one only a canal its side did not hold could make."""
    MOVE_THROUGH_ENEMY = "move-through-enemy"
    """Error: a non-combat move into or through an enemy-held territory, an enemy-occupied
    sea zone or a neutral (planes: over a neutral not taken this turn), or transports
    unloading into land not friendly."""
    LANDING_ILLEGAL = "landing-illegal"
    """Error: aircraft ending the turn where they may not land: land not held since the
    start of the turn, or a sea zone without a carrier with room."""
    TRANSPORT_MOVE = "transport-move"
    """Error: a non-combat move by or on transports the rules forbid: more cargo than room, a
    transport that unloaded (in combat, or earlier in the non-combat move) moving on, the
    cargo of loaded transports that retreated from a sea battle unloaded, cargo boarding or
    landing away from the transports' sea zones."""
    AA_OUT_OF_CAPTURED = "aa-out-of-captured"
    """Error: an AA gun moved out of a territory captured this turn (IAAPA AA Guns)."""

    # --- post-combat orders: retreats (IAAPA Rules Clarifications: Retreats) ---------------
    RETREAT_ILLEGAL = "retreat-illegal"
    """Warning: a retreat location that is not adjacent, not friendly at the time of the
    retreat, not a place an attacking unit came from or passed through, or a retreat the
    battle does not allow; later battles may be voided at the Minister's discretion."""

    # --- post-combat orders: placement (IAAPA Placement of New Units) ----------------------
    PLACEMENT_ILLEGAL = "placement-illegal"
    """Error: new units placed where the rules do not allow (no complex owned since the start
    of the turn, a fighter on a carrier, ships away from a complex or in an enemy zone)."""
    PRODUCTION_LIMIT = "production-limit"
    """Error: more units placed at a complex than it may build in a turn (a complex that is
    not an original one builds at most its territory's value)."""


def finding(
    severity: Severity,
    line: int,
    rule: Rule,
    message: str,
    suggestion: str,
    code: Code,
    battles: tuple[int, ...] = (),
    also: tuple[Rule, ...] = (),
) -> Diagnostic:
    """A finding about ``line`` of the email: an error voids each of ``battles``, a warning
    voids nothing."""
    return Diagnostic(
        severity, rule, message, suggestion, code, line=line, battles=battles, also=also
    )


BY_LINE = operator.attrgetter("line")
"""A finding's line: the order findings are listed in (``sorted(found, key=BY_LINE)``)."""

error_finding = partial(finding, Severity.ERROR)
warning_finding = partial(finding, Severity.WARNING)
info_finding = partial(finding, Severity.INFO)


def either(places: tuple[str, ...] | list[str], last: str = "or") -> str:
    """ "A or B", "A, B or C" (``last`` "and": "A, B and C"): the places a name could be."""
    if len(places) < 2:
        return places[0]
    return f" {last} ".join([", ".join(places[:-1]), places[-1]])


VOID_SUGGESTION = (
    "the battle is void if rolled as declared (Error Correction II): send an "
    "updated pre-combat turn before rolling any dice"
)
"""What to do about a combat declaration error found before any die is rolled."""
