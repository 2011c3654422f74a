"""A turn email through the service (``submission``): the text as the player wrote it, what
the rules engine found in it against the game's position, and whether it is in force (IAAPA
Amendments and Special Orders: a late amendment is recorded but changes nothing)."""

from __future__ import annotations

from dice_server.kinds.base import Data, EntryKind


def headline(data: Data) -> str:
    amended = " (amendment)" if "amends" in data else ""
    late = ", NOT IN FORCE" if not data.get("in_force", 1) else ""
    return f"{data['power']}: round {data['round']} {data['phase']} turn{amended}{late}"


def finding_line(finding: Data) -> str:
    where = f"line {finding['line']}: " if finding.get("line") else ""
    return f"  {where}{finding['severity']}: {finding['message']} ({finding['rule']})"


SAME_FINDING = {
    "map-leaves-out": frozenset({"map-omits"}),
    "map-disagrees": frozenset({"map-overruled", "map-differs", "map-excess"}),
}
"""Findings of the turn played out from the dice (by code) that say what a finding of the
check against the position (by one of these codes) on the same line already says."""


def against_the_dice(data: Data) -> list[Data]:
    """The findings of playing the turn out from the dice (``played_out``: where what the
    email writes differs from what the dice decided, and the position follows the dice),
    less those the check of the email already made on the same line."""
    said = {(f.get("line"), f.get("code")) for f in data.get("findings", [])}

    def new(found: Data) -> bool:
        code = str(found.get("code"))
        same = SAME_FINDING.get(code, frozenset({code}))
        return not any((found.get("line"), c) in said for c in same)

    return [f for f in data.get("played_out", []) if new(f)]


def describe(data: Data) -> list[str]:
    lines = [f"{data['power']}, round {data['round']}, {data['phase']} turn"]
    if "amends" in data:
        lines.append(f"Amends entry #{data['amends']}")
    if not data.get("in_force", 1):
        lines.append(f"Not in force: {data.get('late', 'sent too late')}")
    findings = data.get("findings", [])
    errors = sum(1 for f in findings if f.get("severity") == "error")
    lines.append(
        f"Checked against the position {data['position_sha256'][:16]}…: "
        f"{errors} error(s), {len(findings) - errors} other finding(s)"
    )
    lines += [finding_line(f) for f in findings]
    dice = against_the_dice(data)
    if dice:
        lines.append(f"Played out from the dice (the position follows them): {len(dice)} more")
        lines += [finding_line(f) for f in dice]
    if "magic_84" in data:
        magic = data["magic_84"]
        verdict = (
            "84 or higher: the game is over (IAAPA MAGIC 84); the Minister of Law or the "
            "players end it"
            if magic["game_over"]
            else "under 84: the game goes on"
        )
        lines.append(
            f"Magic 84: the Axis IPC count after the US turn is {magic['axis_count']}, {verdict}"
        )
    if "new_position_sha256" in data:
        lines.append(f"The position after it: {data['new_position_sha256'][:16]}…")
    return [*lines, "", "The turn as sent:", "", *str(data["text"]).splitlines()]


KIND = EntryKind(name="submission", headline=headline, describe=describe)
