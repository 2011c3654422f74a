"""A game's ledger as the game page reads it: entries grouped by the game turn they name,
each battle's rounds together under their battle, and the dice of every roll as faces.

The words are the registry's (:func:`dice_server.kinds.describe`), the same lines the mail
carries; only what a page shows better than text is taken out of them: the groups of dice
(shown as faces, each die at or under its group's number marked as a hit as thrown) and a
turn email's text (shown folded, a click away). The rules engine's reading of a round stays
below its dice, as in the mail.

A game turn is what a roll names (``turn`` and ``country``) or a submission (``round`` and
``power``): the number is the one the player typed, so a roll for the wrong turn stands
apart, as it was recorded. Entries that name no turn (notes, the game's own entries) stand
alone by time, unless they fall between two entries of one turn, which keeps them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.names import NameResolutionError, classic_names
from adjudicator.rolls.replay import BATTLE_ROLL_KINDS
from dice_server.kinds import REGISTRY, describe
from dice_server.kinds.base import AA_SYSTEM, dice_text, group_line, thrown
from dice_server.ledger import SignedEntry

ROLL_TURN = ("turn", "country")
"""What a roll names of its game turn: the turn (the game round) and the power."""
SUBMISSION_TURN = ("round", "power")
"""What a submission names of its game turn."""


@dataclass(frozen=True)
class Die:
    value: int
    hit: bool
    """At or under its group's number: a hit as thrown (the engine's reading below may make
    a die void, as when the AA gun downed the aircraft it was thrown for)."""


@dataclass(frozen=True)
class DiceGroup:
    """One labelled group of a roll: what threw, the dice left to right, what they did."""

    label: str
    dice: tuple[Die, ...]
    result: str


@dataclass(frozen=True)
class TimelineEntry:
    seq: int
    at: str
    kind: str
    by: str
    title: str
    headline: str
    """What the entry is, without the game and seq (``UK: West Europe round 1``)."""
    lines: list[str]
    """The registry's lines, whole (the entry page's text and the mail's)."""
    groups: list[dict[str, Any]]
    turn: int | None
    signed: dict[str, str]
    mail: str
    before: list[str] = field(default_factory=list)
    """The lines shown above the dice (all of them for an entry without dice)."""
    dice: list[DiceGroup] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    """The lines below the dice: the rules engine's reading of the round."""
    text: list[str] = field(default_factory=list)
    """A turn email's text as sent, shown folded."""
    note: list[str] = field(default_factory=list)
    """A note's text, line by line as written (the rules engine's reading of special
    orders, which names its lines, follows it in ``after``)."""
    findings: list[dict[str, Any]] = field(default_factory=list)
    """What the service found in a roll when it recorded it (its declared battle)."""
    void_claims: tuple[int, ...] = ()
    """The void-claim notes naming this roll (IAAPA: a roll made in the wrong game)."""
    ref_seq: int | None = None
    """The entry a note refers to."""
    in_force: bool = True
    game_turn: tuple[int, str] | None = None
    """The game turn the entry names (round and power), if any."""
    battle: tuple[Any, ...] | None = None
    """The battle a battle roll is a round of (see :func:`_battle_of`)."""


@dataclass(frozen=True)
class BattleRolls:
    """A battle's rounds within one game turn, newest first."""

    label: str
    entries: list[TimelineEntry]

    @property
    def newest(self) -> int:
        return self.entries[0].seq


@dataclass(frozen=True)
class TurnBlock:
    """The entries of one game turn, newest first; ``power`` None: entries that name no
    turn, each standing alone."""

    round: int | None
    power: str | None
    items: list[TimelineEntry | BattleRolls]

    @property
    def heading(self) -> str:
        return f"Round {self.round} · {self.power}" if self.power is not None else ""


def _dice(group: Mapping[str, Any]) -> DiceGroup:
    values = [int(v) for v in group.get("dice", [])]
    hit_on = group.get("hit_on")
    faces = tuple(Die(v, isinstance(hit_on, int) and v <= hit_on) for v in values)
    try:
        line = group_line(group)
    except (KeyError, TypeError):
        return DiceGroup(str(group.get("unit") or group.get("purpose") or "dice"), faces, "")
    label, found, result = line.partition(f": {dice_text(values)} -> ")
    if not found:
        return DiceGroup(line, faces, "")
    return DiceGroup(label, faces, result)


def _without(lines: list[str], part: list[str]) -> tuple[list[str], list[str]] | None:
    """``lines`` split around the run ``part``: (before, after), or None when absent."""
    size = len(part)
    for start in range(len(lines) - size + 1):
        if lines[start : start + size] == part:
            return lines[:start], lines[start + size :]
    return None


def _trimmed(lines: list[str]) -> list[str]:
    """``lines`` without the empty lines at either end."""
    start, end = 0, len(lines)
    while start < end and not lines[start]:
        start += 1
    while end > start and not lines[end - 1]:
        end -= 1
    return lines[start:end]


def timeline_entry(
    number: int,
    entry: SignedEntry,
    mail: str,
    claims: Mapping[int, tuple[int, ...]] | None = None,
) -> TimelineEntry:
    """One entry as the pages show it; ``claims``: the void-claim notes by the roll they
    name (:func:`void_claims`)."""
    data = json.loads(entry.body)["data"]
    lines = describe(entry.kind, data)
    kind = REGISTRY.get(entry.kind)
    headline = kind.headline(data) if kind is not None else entry.kind
    before, after, text = lines, list[str](), list[str]()
    dice: list[DiceGroup] = []
    groups = data.get("groups")
    if (
        kind is not None
        and kind.rolls
        and kind.system == AA_SYSTEM  # another system's entry says its dice in its lines
        and groups
        and all("dice" in g for g in groups)
    ):
        # dice drawn as faces; a Low Luck round's groups throw no dice (its volleys do)
        split = _without(lines, thrown(data))
        if split is not None:
            before, after = split
            dice = [_dice(g) for g in data["groups"]]
    if entry.kind == "submission":
        sent = str(data.get("text", "")).splitlines()
        split = _without(lines, ["", "The turn as sent:", "", *sent])
        if split is not None:
            before, text = split[0], sent
    note: list[str] = []
    if entry.kind == "note" and (written := data.get("text")) in lines:
        split = _without(lines, [written])
        if split is not None:
            before, after = (_trimmed(part) for part in split)
            note = str(written).splitlines()
    return TimelineEntry(
        seq=entry.seq,
        at=entry.at,
        kind=entry.kind,
        by=data.get("by", "dice server"),
        title=f"[Game {number}] #{entry.seq} {headline}",
        headline=headline,
        lines=lines,
        groups=data.get("groups", []),
        turn=data.get("turn") if isinstance(data.get("turn"), int) else None,
        signed=entry.signed(),
        mail=mail,
        before=before,
        dice=dice,
        after=after,
        text=text,
        note=note,
        findings=list(data.get("findings", [])) if entry.kind != "submission" else [],
        void_claims=(claims or {}).get(entry.seq, ()),
        ref_seq=data.get("ref_seq") if isinstance(data.get("ref_seq"), int) else None,
        in_force=bool(data.get("in_force", 1)),
        game_turn=_turn_of(entry.kind, data),
        battle=_battle_of(entry.kind, data),
    )


def void_claims(notes: Iterable[tuple[int, bytes]]) -> dict[int, tuple[int, ...]]:
    """The void-claim notes among ``notes`` (seq and body), by the seq of the roll each
    names."""
    claims: dict[int, list[int]] = {}
    for seq, body in notes:
        data = json.loads(body)["data"]
        ref = data.get("ref_seq")
        if data.get("topic") == "void-claim" and isinstance(ref, int):
            claims.setdefault(ref, []).append(seq)
    return {ref: tuple(seqs) for ref, seqs in claims.items()}


# --- grouping --------------------------------------------------------------------------------


def _turn_of(kind: str, data: Mapping[str, Any]) -> tuple[int, str] | None:
    known = REGISTRY.get(kind)
    names = SUBMISSION_TURN if kind == "submission" else ROLL_TURN
    if kind != "submission" and (known is None or not known.rolls):
        return None
    number, power = data.get(names[0]), data.get(names[1])
    if not isinstance(number, int) or not isinstance(power, str):
        return None
    return number, power


def _place(name: str) -> str:
    try:
        return classic_names().place(name).label
    except NameResolutionError:
        return " ".join(name.split())


def _battle_of(kind: str, data: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """Which battle a battle roll is a round of: its declared battle when the service
    linked it, else the place it names."""
    if kind not in BATTLE_ROLL_KINDS or not isinstance(data.get("battle"), str):
        return None
    declared = data.get("declared")
    place = _place(data["battle"])
    if isinstance(declared, dict) and "number" in declared:
        return ("declared", declared.get("submission"), declared["number"], place)
    return ("place", place)


def _label(key: tuple[Any, ...]) -> str:
    if key[0] == "declared":
        return f"Battle #{key[2]}: {key[3]}"
    return str(key[1])


def group_turns(entries: Sequence[TimelineEntry]) -> list[TurnBlock]:
    """A page's entries (newest first) as game turns, newest first; in a turn, each battle's
    rounds under their battle, placed at its newest round."""
    runs: list[tuple[tuple[int, str] | None, list[TimelineEntry]]] = []
    waiting: list[TimelineEntry] = []
    for entry in reversed(entries):  # oldest first
        turn = entry.game_turn
        if turn is None:
            waiting.append(entry)
            continue
        if runs and runs[-1][0] == turn:
            runs[-1][1].extend([*waiting, entry])
        else:
            if waiting:
                runs.append((None, waiting))
            runs.append((turn, [entry]))
        waiting = []
    if waiting:
        runs.append((None, waiting))
    blocks = []
    for turn, members in reversed(runs):
        newest_first = members[::-1]
        if turn is None:
            blocks.append(TurnBlock(None, None, list(newest_first)))
        else:
            blocks.append(TurnBlock(turn[0], turn[1], _items(newest_first)))
    return blocks


def _items(entries: list[TimelineEntry]) -> list[TimelineEntry | BattleRolls]:
    battles: dict[tuple[Any, ...], list[TimelineEntry]] = {}
    items: list[TimelineEntry | BattleRolls] = []
    for entry in entries:
        if entry.battle is None:
            items.append(entry)
        elif entry.battle in battles:
            battles[entry.battle].append(entry)
        else:
            battles[entry.battle] = [entry]
            items.append(BattleRolls(_label(entry.battle), battles[entry.battle]))
    return items
