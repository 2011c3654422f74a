"""What playing out a turn finds: each finding a :class:`~adjudicator.diagnostics.Diagnostic`
whose ``code`` is a :class:`Finding`, placed on the line of the post-combat email where there
is one (0: the turn as a whole; a pre-combat line is named in the message)."""

from __future__ import annotations

from enum import StrEnum

from adjudicator.diagnostics import Diagnostic, Rule, Severity


class Finding(StrEnum):
    """The stable name of each finding about a turn played out (messages may be reworded;
    codes may not)."""

    WRONG_POWER = "turn-wrong-power"
    """Warning: the email names a power other than the one the position has to move."""
    NOT_THERE = "units-not-there"
    """Warning: an order moves more units from a place than the power has there; what is
    there moves."""
    VERDICT_UNDECLARED = "verdict-undeclared"
    """Warning: dice for a battle number the combat moves do not declare: they change
    nothing."""
    AIR_ONLY = "air-only"
    """Info: a land battle won with only aircraft left: planes never capture, the territory
    stays the defender's."""
    MAGIC_84 = "magic-84"
    """Info: the Axis IPC count after the USA's turn is 84 or more: the game is over."""
    NO_VERDICT = "no-verdict"
    """Warning: a declared battle with no verdict from the dice: not fought, its units stay
    (IAAPA Error Correction II: "he may move the previously assigned units during
    non-combat")."""
    WALKED_IN = "walked-in"
    """Info: a battle declared on land with no enemy unit that fights: taken as a walk-in."""
    NOT_A_WALK_IN = "not-a-walk-in"
    """Warning: a walk-in into a place holding enemy units that fight: not made."""
    VERDICT_UNITS = "verdict-units"
    """Warning: a verdict's survivors are not among the units that fought; the board keeps
    what was there."""
    RESULT_DIFFERS = "result-differs"
    """Warning: the written result of a battle is not what the dice give (Error Correction
    V: the position follows the dice and orders)."""
    RESULT_UNDECLARED = "result-undeclared"
    """Warning: a written result for a battle that was not declared."""
    RETREAT_UNKNOWN = "retreat-unknown"
    """Warning: attackers leave a battle and no retreat location is named or clear."""
    RETREAT_REFUSED = "retreat-refused"
    """Warning: the retreat location written is not an adjacent friendly place of the
    battle's kind; the survivors go where they came from (or stay)."""
    WITHDRAWAL_UNKNOWN = "withdrawal-unknown"
    """Warning: defending subs withdrew and no zone is named; they stay until one is
    (IAAPA Sub Withdrawal: "determined before the next turn")."""
    RAID_CAPPED = "raid-capped"
    """Info: a bombing raid's damage is more than its target's owner holds: it pays all it
    holds."""
    CARGO_LOST = "cargo-lost"
    """Info: land units aboard sunk transports went down with them."""
    SPLIT_LOSSES = "split-losses"
    """Info: losses of one type shared by several allied defenders were taken in turn order."""
    ORIGIN_READ = "origin-read"
    """Note: a move of aircraft naming no origin, read as from the one battle of the turn
    whose attackers hold them (adjudicator.declarations.returning; the same code as the
    check's note, so a turn's mail gives it once)."""
    PLANES_LANDED = "planes-landed"
    """Info: aircraft with no written landing in the non-combat moves landed as the combat
    move said, or at their origin, or at the nearest place they could."""
    PLANES_LOST = "planes-lost"
    """Warning: aircraft with no place to land within their range are lost."""
    PLANES_STRANDED = "planes-stranded"
    """Warning: aircraft the orders leave where they cannot end the turn."""
    NOT_PURCHASED = "not-purchased"
    """Warning: units placed that were not bought; not placed."""
    NOT_PLACED = "not-placed"
    """Warning: units bought and not placed: lost ("Units that can't be placed are lost")."""
    PLACEMENT_ILLEGAL = "placement-illegal"
    """Warning: units placed where the placement rules do not allow; placed as written."""
    PURCHASE_WITHOUT_CAPITAL = "purchase-without-capital"
    """Warning: purchases while the power's capital is under enemy control."""
    OVERSPENT = "turn-overspent"
    """Warning: purchases, research and neutrals cost more than the IPCs in hand."""
    MONEY_DIFFERS = "money-differs"
    """Warning: a written purchase total or IPCs left is not what the orders cost."""
    MAP_DISAGREES = "map-disagrees"
    """Warning: a line of the map update is not what the dice and orders leave there."""
    MAP_LEAVES_OUT = "map-leaves-out"
    """Warning: the map update leaves out places where the power has units or land."""
    ILLEGAL_POSITION = "illegal-position"
    """Warning: the position the orders leave breaks a rule of the board; kept unchecked."""
    CAPITAL_TAKEN = "capital-taken"
    """Info: an enemy capital was captured and its owner's IPCs in hand pass to the captor."""
    NEXT_TURN_ORDERS = "next-turn-orders"
    """Info: pre-combat orders after the post-combat sections belong to the next turn."""


def turn_finding(
    severity: Severity,
    rule: Rule,
    code: Finding,
    message: str,
    suggestion: str = "",
    *,
    line: int = 0,
    battles: tuple[int, ...] = (),
    also: tuple[Rule, ...] = (),
) -> Diagnostic:
    """A finding about a turn played out (``battles``: the declared battles it concerns)."""
    return Diagnostic(
        severity, rule, message, suggestion, code, line=line, battles=battles, also=also
    )
