"""Battles read from the dice server's ledger: the engine's reading of what was thrown.

A battle roll entry records the units as the attacker entered them and every die in the
order thrown (:mod:`adjudicator.rolls.battle`). :func:`battle_document` turns the roll
entries of one battle into the document :func:`adjudicator.battle.resolve_json` reads, so
:func:`replay` says exactly what ``pbem battle resolve --json`` says of that document; and
:func:`read_roll` is one entry read on its own, the reading the roll's mail and page show.

How entries become rounds (the ledger's order is the order rolled: "the time stamped on the
battle round by the IAAPA Dice Server is the order in which the rounds are considered to
have been rolled", so the round numbers entered are not used):

- the first entry's units are the battle's forces (its ``bombard`` battleships make it an
  amphibious assault); the battle is at sea when a ship is listed on either side;
- a ``subs-first`` entry opens a round with the attacking subs' first strike; the next
  entry, if not ``subs-first`` too, is that round's main roll; any other entry is a round;
- AA dice go to the round's ``aa`` (the attacker's order of loss picks the aircraft they
  remove, :func:`adjudicator.battle.casualties.aa_casualties`), support shots to
  ``bombard``, every other group to its side's dice for its unit;
- a Big World game's entries (``"ruleset": "big_world_1942"``) are read by its rules
  (:func:`adjudicator.bigworld.roll.big_world_battle_document`), each entry a round;
- technologies come from every entry's options; orders of loss are the IAAPA defaults (no
  special orders are read from the ledger yet), and nobody named casualties, withdrew or
  retreated: a battle still going on after the last entry ``continues``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.battle import BattleInputError, RoundResult, read_battle, resolve, resolve_json
from adjudicator.battle.reading import CLASSIC_RULESET, RULESET, VERSION
from adjudicator.bigworld.resolve import resolve_big_world
from adjudicator.bigworld.roll import big_world_battle_document
from adjudicator.names import technology_label
from adjudicator.rolls.battle import ATTACKER_TECH, DEFENDER_TECH
from adjudicator.rolls.lowluck import stopped_by_aa
from adjudicator.units import NO_UNITS, OrderOfLoss, Side, Units, UnitType

DICE_ROLL, LOW_LUCK_ROLL = "roll", "low-luck-roll"
BATTLE_ROLL_KINDS = frozenset({DICE_ROLL, LOW_LUCK_ROLL})
"""The entry kinds of a battle round: thrown by dice, or by Low Luck in a game with that
option (:mod:`adjudicator.rolls.lowluck`)."""

SHIPS = frozenset({"TRN", "SUB", "AC", "BB"})
"""Units that put a battle at sea when listed on either side (support battleships are
listed apart, as ``bombard``)."""

Entry = Mapping[str, Any]
"""A ledger entry's body as an object: ``{"seq", "kind", "data", ...}`` (DESIGN.md)."""


class EntryError(ValueError):
    """Ledger entries that cannot be read as one battle; ``seq`` names the entry at fault
    (``None`` for the selection as a whole)."""

    def __init__(self, seq: int | None, problem: str) -> None:
        super().__init__(f"entry #{seq}: {problem}" if seq is not None else problem)
        self.seq = seq
        self.problem = problem


def _seq(entry: object) -> int:
    if not isinstance(entry, Mapping):
        raise EntryError(None, f"a ledger entry is an object, not {type(entry).__name__}")
    seq = entry.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise EntryError(None, f"a ledger entry without a seq: {sorted(entry)!r}")
    return seq


def _data(entry: Entry) -> Mapping[str, Any]:
    seq = entry["seq"]
    if entry.get("kind") not in BATTLE_ROLL_KINDS:
        raise EntryError(seq, f"a {entry.get('kind')!r} entry, not a battle roll")
    data = entry.get("data")
    if not isinstance(data, Mapping) or not isinstance(data.get("groups"), list):
        raise EntryError(seq, "a roll entry without its groups of dice")
    if entry["kind"] == LOW_LUCK_ROLL and not isinstance(data.get("volleys"), list):
        raise EntryError(seq, "a Low Luck roll without its volleys")
    return data


def _shots(data: Mapping[str, Any], seq: int, *, first_strike: bool) -> list[dict[str, Any]]:
    """A Low Luck entry's volleys as a battle document's round reads them (its subs' volley
    is a first strike when the attacker rolled them first)."""
    shots = []
    for volley in data["volleys"]:
        if not isinstance(volley, Mapping) or not all(
            k in volley for k in ("side", "fire", "power", "hits")
        ):
            raise EntryError(seq, f"a volley without its side, fire, power and hits: {volley!r}")
        fire = volley["fire"]
        if first_strike and fire == "subs" and volley["side"] == "attacker":
            fire = "first-strike"
        shots.append(
            {"side": volley["side"], "fire": fire, "power": volley["power"], "hits": volley["hits"]}
        )
    return shots


def _opens_round(kind: str, data: Mapping[str, Any], options: list[str]) -> bool:
    """Whether an entry opens a round the next entry completes: the attacking subs rolled
    first, or (by Low Luck) the AA gun's shots alone, thrown apart because a hit changes the
    power the attacker's units fire with."""
    return "subs-first" in options or (kind == LOW_LUCK_ROLL and stopped_by_aa(data))


def _battle_name(data: Mapping[str, Any]) -> str:
    name = data.get("battle", "")
    return " ".join(name.casefold().split()) if isinstance(name, str) else ""


def _units(data: Mapping[str, Any], key: str, seq: int) -> dict[str, int]:
    out: dict[str, int] = {}
    listed = data.get(key, [])
    if not isinstance(listed, list):
        raise EntryError(seq, f"its {key} is not a list of units")
    for item in listed:
        if not (
            isinstance(item, Mapping)
            and isinstance(item.get("unit"), str)
            and type(item.get("count")) is int
        ):
            raise EntryError(seq, f"its {key} lists {item!r}, not a unit and count")
        out[item["unit"]] = out.get(item["unit"], 0) + item["count"]
    return out


def _options(data: Mapping[str, Any]) -> list[str]:
    options = data.get("options", [])
    return [o for o in options if isinstance(o, str)] if isinstance(options, list) else []


def _round_dice(rnd: dict[str, Any], groups: list[Any], seq: int) -> None:
    """Put an entry's groups into ``rnd``, a battle document's round."""
    for group in groups:
        if not isinstance(group, Mapping) or not isinstance(group.get("dice"), list):
            raise EntryError(seq, f"a group without dice: {group!r}")
        side, unit, dice = group.get("side"), group.get("unit"), list(group["dice"])
        if unit == "AA":
            rnd.setdefault("aa", []).extend(dice)
        elif group.get("fire") == "bombard":
            rnd.setdefault("bombard", []).extend(dice)
        elif side in ("attacker", "defender") and isinstance(unit, str):
            rnd.setdefault(side, {}).setdefault(unit, []).extend(dice)
        else:
            raise EntryError(seq, f"a group of no side: {group!r}")


def battle_document(entries: Sequence[Entry]) -> dict[str, Any]:
    """The battle document (version 1) of these roll entries of one battle, in seq order.

    Raises :class:`EntryError` for an entry that is not a battle roll, a seq given twice,
    or entries of different battles (by name; the turn and country entered are not
    compared: "If you enter the wrong Turn Number, simply ignore it").
    """
    if not entries:
        raise EntryError(None, "no entries: give the seq of at least one battle roll")
    ordered = sorted(entries, key=_seq)
    seqs = [entry["seq"] for entry in ordered]
    twice = sorted({s for s in seqs if seqs.count(s) > 1})
    if twice:
        raise EntryError(twice[0], "given twice")
    first = _data(ordered[0])
    name = _battle_name(first)
    for entry in ordered[1:]:
        if _battle_name(_data(entry)) != name:
            raise EntryError(
                entry["seq"],
                (
                    f"the battle {_data(entry).get('battle')!r}, not {first.get('battle')!r} "
                    f"of entry #{seqs[0]}: replay the entries of one battle"
                ),
            )
    rulesets = {_data(entry).get("ruleset", CLASSIC_RULESET) for entry in ordered}
    if len(rulesets) > 1:
        raise EntryError(None, "rounds thrown by Classic and Big World rules cannot be one battle")
    if first.get("ruleset") == RULESET:
        return big_world_battle_document([_data(entry) for entry in ordered])
    start = seqs[0]
    attacker = _units(first, "attacker", start)
    defender = _units(first, "defender", start)
    bombard = _units(first, "bombard", start).get("BB", 0)
    sea = any(unit.upper() in SHIPS for unit in (*attacker, *defender))
    kinds = {entry["kind"] for entry in ordered}
    if len(kinds) > 1:
        raise EntryError(None, "rounds thrown by dice and by Low Luck cannot be one battle")
    rounds: list[dict[str, Any]] = []
    awaiting_main = False
    options: set[str] = set()
    for entry in ordered:
        data = _data(entry)
        chosen = _options(data)
        options.update(chosen)
        opens = _opens_round(entry["kind"], data, chosen)
        if opens or not awaiting_main:
            rounds.append({})
        if entry["kind"] == LOW_LUCK_ROLL:
            shots = _shots(data, entry["seq"], first_strike="subs-first" in chosen)
            rounds[-1].setdefault("low_luck", []).extend(shots)
        elif "subs-first" in chosen:
            for group in data["groups"]:
                if isinstance(group, Mapping) and isinstance(group.get("dice"), list):
                    rounds[-1].setdefault("subs", []).extend(group["dice"])
        else:
            _round_dice(rounds[-1], data["groups"], entry["seq"])
        awaiting_main = opens
    doc: dict[str, Any] = {
        "version": VERSION,
        "name": str(first.get("battle", "")),
        "kind": "sea" if sea else "land",
        "amphibious": int(bool(bombard)),
        "attacker": {**attacker, **({"BB": bombard} if bombard else {})},
        "defender": defender,
        "technologies": {
            "attacker": [technology_label(t) for n, t in ATTACKER_TECH.items() if n in options],
            "defender": [technology_label(t) for n, t in DEFENDER_TECH.items() if n in options],
        },
        "rounds": rounds,
    }
    return doc


def replay(entries: Sequence[Entry]) -> dict[str, object]:
    """The battle these roll entries record, resolved: exactly what ``pbem battle resolve
    --json`` prints for their :func:`battle_document`.

    Raises :class:`EntryError` or a :class:`~adjudicator.battle.BattleInputError` (both
    ``ValueError``) when the entries cannot be read as one battle.
    """
    doc = battle_document(entries)
    if doc.get("ruleset") == RULESET:
        # Thrown for every unit listed before any was lost: the dice of units lost before
        # they fire are void (:mod:`adjudicator.bigworld.roll`).
        return resolve_big_world(doc, void=True)
    return resolve_json(doc)


@dataclass(frozen=True)
class RollReading:
    """One roll entry read on its own as one round: what the AA gun removed, which battle
    dice that makes void, and the hits each side scored."""

    round: RoundResult | None
    """The round as the engine plays it (``None``: nothing left to fight before it)."""
    attacker_order: OrderOfLoss
    """The attacker's order of loss the AA hits were taken by."""
    aa_dice: int
    """How many AA dice the entry holds."""

    @property
    def aa_casualties(self) -> Units:
        """The aircraft the AA hits removed."""
        return self.round.aa_casualties if self.round else NO_UNITS

    @property
    def void(self) -> tuple[tuple[UnitType, tuple[int, ...]], ...]:
        """Battle dice thrown for aircraft the AA gun downed, per type: they do not count."""
        return self.round.void if self.round else ()

    def lines(self) -> list[str]:
        """The reading in a player's words, for the roll's mail and page."""
        order = ", ".join(unit.value for unit in self.attacker_order.units)
        out = [
            "Read by the rules (the default orders of loss; special orders are not applied here):"
        ]
        r = self.round
        if self.aa_dice:
            lost = self.aa_casualties
            if lost:
                out.append(
                    f"  AA gun: {_hits(lost.total)}: the attacker loses {lost.label()}, "
                    f"chosen by his order of loss ({order}), whichever die hit"
                )
            else:
                out.append("  AA gun: no hit")
        for unit, dice in self.void:
            out.append(
                f"  Void: {unit.value} {' '.join(map(str, dice))} (the last {unit.value} "
                f"{'die' if len(dice) == 1 else 'dice'}: an aircraft the AA gun downed "
                "does not fire)"
            )
        if r is None:
            out.append("  Nothing defends that can be hit: these dice decide nothing")
            return out
        attack = _parts(("support shots", r.bombard_hits), ("first strike", r.first_strike_hits))
        defence = _parts(("AA gun", r.aa_hits))
        out.append(
            f"  Hits: attacker {r.attacker_hits}{attack}, defender {r.defender_hits}{defence}"
        )
        return out


def _parts(*parts: tuple[str, int]) -> str:
    named = [f"{n} by the {label}" for label, n in parts if n]
    return f" ({', '.join(named)})" if named else ""


def _hits(n: int) -> str:
    return f"{n} hit{'s' * (n != 1)}"


def read_roll(data: Mapping[str, Any]) -> RollReading:
    """One battle roll's data read on its own, as the first round of a battle of the units
    it lists, with the default orders of loss.

    Raises :class:`EntryError` or :class:`~adjudicator.battle.BattleInputError` when the
    entry's units cannot fight one battle (a ship against infantry).
    """
    doc = battle_document([{"seq": 0, "kind": "roll", "data": data}])
    read = read_battle(doc)
    result = resolve(read.setup, read.rounds)
    aa_dice = sum(len(r.aa) for r in read.rounds)
    played = result.rounds[0] if result.rounds else None
    return RollReading(played, read.setup.order(Side.ATTACKER), aa_dice)


__all__ = [
    "BattleInputError",
    "Entry",
    "EntryError",
    "RollReading",
    "battle_document",
    "read_roll",
    "replay",
]
