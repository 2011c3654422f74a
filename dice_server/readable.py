"""Ledger entries in words, for the mail players receive and the pages that list them (one
text for both): the dice of each labelled group in thrown order, the notes, and for a
battle roll the rules engine's reading of the round (:func:`adjudicator.rolls.read_roll`:
the aircraft the AA gun removed, the dice that makes void, the hits of each side).

A group's own count is of its dice at or under its number, as thrown; the reading below the
dice is what the round comes to, so a player never adds the groups up himself."""

from __future__ import annotations

from typing import Any

from adjudicator.rolls import read_roll

SIDE = {"attacker": "Attacker", "defender": "Defender"}


def _dice(values: list[int]) -> str:
    return " ".join(str(v) for v in values) if values else "(none)"


def group_line(group: dict[str, Any]) -> str:
    """One labelled group: who threw, with what, the dice left to right, what they did."""
    purpose = group.get("purpose")
    if purpose == "research":
        return (
            f"Research x{group['count']}: {_dice(group['dice'])} -> "
            f"{group['breakthroughs']} breakthrough(s)"
        )
    if purpose == "chart":
        return f"Chart: {_dice(group['dice'])} -> {group['technology']}"
    if purpose in ("damage", "rocket"):
        return (
            f"{group['unit']} x{group['count']} {purpose}: {_dice(group['dice'])} -> "
            f"{group['damage']} IPC"
        )
    if purpose == "aa":
        return (
            f"AA at {group['target']} x{group['count']} (hit on {group['hit_on']} or less): "
            f"{_dice(group['dice'])} -> {group['hits']} shot down"
        )
    if group.get("unit") == "AA" and "target" in group:
        # "target": the aircraft type the dice were thrown at, not the aircraft a hit removes.
        return (
            f"Defender AA at {group['target']} x{group['count']} (hit on {group['hit_on']} or "
            f"less): {_dice(group['dice'])} -> {group['hits']} hit(s) (thrown at the "
            f"{group['target']}; the attacker picks which aircraft a hit removes)"
        )
    label = f"{SIDE.get(group.get('side', ''), 'AA')} {group['unit']}"
    if group.get("fire") == "bombard":
        label += " support shot"
    return (
        f"{label} x{group['count']} (hit on {group['hit_on']} or less): "
        f"{_dice(group['dice'])} -> {group['hits']} hit(s) as thrown"
    )


def roll_reading(data: dict[str, Any]) -> list[str]:
    """The rules engine's reading of a battle roll, or why it cannot read one."""
    try:
        return read_roll(data).lines()
    except ValueError as exc:
        return [f"Not read by the rules as one battle: {exc}"]


def subject(number: int, seq: int, kind: str, data: dict[str, Any]) -> str:
    """``[Game 123] #41 UK: West Europe round 1`` and the like for every kind."""
    who = data.get("country", "")
    if kind == "roll":
        what = f"{who}: {data['battle']} round {data['round']}"
    elif kind == "tech-roll":
        what = f"{who}: weapons development, {data['rolled']} dice"
    elif kind == "bombing-roll":
        what = f"{who}: bombing {data['target']}"
    elif kind == "rocket-roll":
        what = f"{who}: rockets at {data['target']}"
    elif kind == "note":
        what = f"note ({data['topic']}) from {data['by']}"
    elif kind == "genesis":
        players = data["players"]
        what = f"game created: {players['axis']} (Axis) v {players['allies']} (Allies)"
    elif kind == "seed-reveal":
        what = f"game {data['status']}" + (
            f": {data['winner'].title()} win" if data.get("winner") else ""
        )
    elif kind == "commitment":
        what = "game reopened"
    else:
        what = kind
    return f"[Game {number}] #{seq} {what}"


def describe(kind: str, data: dict[str, Any]) -> list[str]:
    """The body of an entry in lines a player reads."""
    lines: list[str] = []
    if "by" in data:
        lines.append(f"By: {data['by']}")
    if kind == "roll":
        lines.append(
            f"{data['country']}, turn {data['turn']}: {data['battle']}, round {data['round']}"
        )
        for side in ("attacker", "defender"):
            units = ", ".join(f"{u['count']} {u['unit']}" for u in data.get(side, []))
            lines.append(f"{SIDE[side]}: {units or '(none listed)'}")
        if data.get("bombard"):
            ships = ", ".join(f"{u['count']} {u['unit']}" for u in data["bombard"])
            lines.append(f"Support shots: {ships}")
        if data.get("options"):
            lines.append(f"Options: {', '.join(data['options'])}")
    elif kind in ("tech-roll", "bombing-roll", "rocket-roll"):
        lines.append(f"{data['country']}, turn {data['turn']}, round {data['round']}")
        if kind == "tech-roll":
            lines.append(
                f"Dice declared {data['declared']}, rolled {data['rolled']} ({data['cost']} IPC)"
            )
        else:
            lines.append(
                f"Target: {data['target']}" + (f", from {data['from']}" if data.get("from") else "")
            )
    if kind in ("roll", "tech-roll", "bombing-roll", "rocket-roll"):
        lines.append("Dice in the order thrown:")
        lines += [f"  {group_line(group)}" for group in data.get("groups", [])]
        if kind == "roll":
            lines += roll_reading(data)
        if kind == "tech-roll":
            lines.append(f"Technologies: {', '.join(data['technologies']) or 'none'}")
        if "damage" in data:
            lines.append(f"Damage: {data['damage']} IPC")
    elif kind == "note":
        lines.append(f"Topic: {data['topic']}")
        if "ref_seq" in data:
            lines.append(f"Refers to entry #{data['ref_seq']}")
        lines += ["", data["text"]]
    elif kind == "genesis":
        players = data["players"]
        lines.append(f"Axis: {players['axis']}; Allies: {players['allies']}")
        if data.get("mentor"):
            lines.append(f"Mentor: {data['mentor']}")
        if data.get("variant"):
            lines.append(f"Variant: {data['variant']}")
        for agreement in data.get("agreements", []):
            lines.append(f"Gentlemen's agreement: {agreement}")
        lines.append(f"Dice seed commitment: {data['seed_commitment']}")
        lines.append(
            "The seed is revealed when the game ends; then anyone can recompute "
            "every die of the game."
        )
    elif kind == "seed-reveal":
        lines.append(
            f"Result: {data['status']}" + (f", {data['winner']} win" if data.get("winner") else "")
        )
        if data.get("reason"):
            lines.append(f"Reason: {data['reason']}")
        lines.append(f"Rated: {'yes' if data.get('rated') else 'no'}")
        lines.append(f"Seed: {data['seed']} (commitment of entry #{data['commitment_seq']})")
    elif kind == "commitment":
        lines.append(f"Reason: {data.get('reason', '')}")
        lines.append(f"New dice seed commitment: {data['seed_commitment']}")
    if data.get("comment"):
        lines += ["", f"Comment: {data['comment']}"]
    return lines
