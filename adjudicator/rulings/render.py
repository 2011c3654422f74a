"""A rulings document (:func:`adjudicator.rulings.rulings_document`) in a player's words: one
block per ruling, what ``pbem ruling check LEDGER`` prints."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any


def _dice(listed: Sequence[Sequence[int]]) -> str:
    """``#3: dice 0 1 2; #5: die 4`` (positions from 0 in each entry's dice)."""
    by_seq: dict[int, list[int]] = {}
    for seq, index in listed:
        by_seq.setdefault(seq, []).append(index)
    parts = []
    for seq, indices in sorted(by_seq.items()):
        word = "die" if len(indices) == 1 else "dice"
        parts.append(f"#{seq}: {word} {' '.join(str(i) for i in sorted(indices))}")
    return "; ".join(parts)


def render_ruling(number: int, ruling: Mapping[str, Any]) -> list[str]:
    """One ruling's block of lines."""
    about = ", ".join(f"#{s}" for s in ruling["about"])
    lines = [f"Ruling {number}: {ruling['rule']}", f"  About entries: {about}"]
    lines.append(f"  {ruling['decision']}")
    dice = ruling["dice"]
    if dice["kept"]:
        lines.append(f"  Dice that stand: {_dice(dice['kept'])}")
    if dice["dropped"]:
        lines.append(f"  Dice dropped: {_dice(dice['dropped'])}")
    for body in ruling["to_roll"]:
        lines.append(f"  Roll now: {json.dumps(body, ensure_ascii=False)}")
    if ruling["reroll_from_round"] is not None:
        lines.append(f"  Re-roll the battle from round {ruling['reroll_from_round']}")
    if ruling["void_battles"]:
        lines.append(f"  Void: {'; '.join(ruling['void_battles'])}")
    if ruling["options"]:
        lines.append("  Options:")
        lines += [f"    {i}. {option}" for i, option in enumerate(ruling["options"], 1)]
    return lines


def render_rulings(doc: Mapping[str, Any]) -> str:
    """The whole document: a block per ruling, a blank line between blocks (dice positions
    count from 0, left to right, in each entry's dice as listed)."""
    rulings = doc.get("rulings", [])
    if not rulings:
        return "No rulings: the ledger shows no error the rules name."
    blocks = ["\n".join(render_ruling(i, r)) for i, r in enumerate(rulings, 1)]
    return "\n\n".join(blocks)
