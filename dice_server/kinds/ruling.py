"""A ruling (``ruling``): what the league's rules decide about an error, a forfeit request
or a missed deadline, and who decided it. The service writes a ``proposed`` ruling from the
rules engine's findings; the Minister of Law confirms, amends or overrides it, or approves
or denies a forfeit request, each with his reason; the players may instead agree their own
correction (IAAPA Error Correction I: "any solution is acceptable as long as there is mutual
agreement between the players"). Every step is an entry of its own, signed and timestamped,
naming the entry it refers to (``refers_to``)."""

from __future__ import annotations

from dice_server.kinds.base import Data, EntryKind

STATUSES = {
    "proposed": "proposed by the rules engine",
    "confirmed": "confirmed by the Minister of Law",
    "amended": "amended by the Minister of Law",
    "overridden": "overridden by the Minister of Law",
    "agreement": "a correction one player agrees to",
    "agreed": "a correction both players agreed: it stands",
    "forfeit-approved": "forfeit approved by the Minister of Law",
    "forfeit-denied": "forfeit denied by the Minister of Law, with conditions",
    "deadline-missed": "a deadline the Minister of Law set has passed unmet",
    "annulment-agreement": "a player agrees to annul the game",
}

TEXTS = (
    ("rule", "Rule"),
    ("decision", "Decision"),
    ("reason", "Reason"),
    ("correction", "Correction"),
    ("conditions", "Conditions"),
    ("deadline", "Deadline"),
)
"""The ruling's text fields, in the order an entry page shows them, each with its label."""


def headline(data: Data) -> str:
    status = str(data["status"])
    about = f" (entry #{data['refers_to']})" if "refers_to" in data else ""
    return f"ruling {status}{about}"


def describe(data: Data) -> list[str]:
    lines = [f"Status: {STATUSES.get(str(data['status']), data['status'])}"]
    if "refers_to" in data:
        lines.append(f"Refers to entry #{data['refers_to']}")
    lines += [f"{label}: {data[name]}" for name, label in TEXTS if data.get(name)]
    dice = data.get("dice") or {}
    for which in ("kept", "dropped"):
        if dice.get(which):
            listed = ", ".join(f"#{seq} die {i + 1}" for seq, i in dice[which])
            lines.append(f"Dice {which}: {listed}")
    if data.get("void_battles"):
        lines.append(f"Void battles: {', '.join(data['void_battles'])}")
    if data.get("reroll_from_round"):
        lines.append(f"Re-roll from round {data['reroll_from_round']}")
    lines += [f"To roll: {roll.get('battle', roll)}" for roll in data.get("to_roll", [])]
    lines += [f"Option: {option}" for option in data.get("options", [])]
    return lines


KIND = EntryKind(name="ruling", headline=headline, describe=describe, while_ended=True)
