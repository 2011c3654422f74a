"""A whole Triumph of the Will battle (10.4-10.8), and tank/panzer momentum combat (10.9).

The request gives the first round's Battle Board: the frontline boxes, left to right, each
with the attacking and defending units in it and whether the air-superior player's aircraft
supports it. 10.4: the player with fewer units puts "one unit per box"; the other matches
"box for box" and stacks the rest, so every box holds exactly one unit of the smaller force
(both forces, when equal) and at least one of the other.

Each round the boxes are fought left to right. In a box one die is thrown per match-up,
the attacker's die first, then the defender's: "High rolls win; the defender wins ties" and
the loser is eliminated. A box of one unit against a stack is "one match up at a time": the
lone unit meets the stacked units in the order listed until it is eliminated; the stacked
units it never meets do not roll that round. Losses count at the end of the round ("All
firing of both sides is considered to be taking place at the same time").

Die roll modifiers (10.7): an attacking tank/panzer army +1 ("tank attack"), the 6th SS
attacking +2 instead, the Kido Butai in a Japanese force +1, and +1 for every army of the
air-superior player in a box his aircraft supports. A box has at most one aircraft, so no
die ever gets more than one air modifier (10.8).

Between rounds the dice server re-arranges the survivors itself, by one fixed reading of
10.4 (the request gives only the first round, since nobody knows the survivors in advance):

* each force's survivors are taken in the order they were first listed (box by box);
* the player with fewer survivors (the defender when equal) puts one per box, boxes 1, 2, ...;
* the other player matches box for box in that order and deals the rest onto the boxes
  in turn from box 1 (the first left-over unit to box 1, the next to box 2, ...);
* "Airpower remains available throughout the overall battle": an aircraft stays with its
  box number while that box is manned; one whose box is gone moves to the lowest-numbered
  box without air. With fewer boxes than aircraft the rest wait (the rule book's example:
  "only two carry over into the next round of combat - one for each remaining Japanese
  unit").

The battle goes on "until all of one side's involved force is eliminated" (10.8). Every
match-up eliminates one unit, so a battle of ``n`` units throws at most ``2 (n - 1)`` dice.

Momentum combat (10.9) is a battle of its own, asked for with ``"momentum": 1``: the
attacker must be the air-superior player with at least one unused aircraft, and his force
tank/panzer armies only.

UN rebels (12.2) defend "as if it were an infantry army": a defending force of ``"rebel"``
units is the United Nations'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Self

from adjudicator.triumph_will.common import (
    WILL_HEADER_FIELDS,
    WILL_MAX_NAME,
    WILL_UNITED_NATIONS,
    WillDraw,
    WillRollError,
    will_check_fields,
    will_entry,
    will_flag,
    will_header,
    will_int,
    will_other_player,
    will_player,
    will_signed,
    will_text,
    will_throw,
)

WILL_BATTLE_KIND = "will-battle-roll"

WILL_MAX_UNITS_IN_BATTLE = 6
"""6.3: "During combat ... both sides may simultaneously have up to six units in an area."."""

WILL_MAX_AIRCRAFT = 12
"""5.5: the aircraft available are the difference of the air superiority totals, "(one
through 12)"."""


class WillUnit(StrEnum):
    """A unit that fights on the Battle Board (2.5, 2.7, 12.2)."""

    INFANTRY = "infantry"
    """An infantry army."""
    PANZER = "panzer"
    """A tank/panzer army ("tank" is read as the same): +1 when attacking."""
    SS6 = "6SS"
    """The German Sixth SS Panzer Army, the elite panzer army: +2 when attacking."""
    FLEET = "fleet"
    """A fleet."""
    KB = "KB"
    """The Japanese Kido Butai (1st Carrier Strike Fleet), the elite fleet: always +1."""
    REBEL = "rebel"
    """A United Nations revolt marker: defends as an infantry army (12.2)."""


_ALIASES = {"tank": WillUnit.PANZER}
_ARMIES = frozenset({WillUnit.INFANTRY, WillUnit.PANZER, WillUnit.SS6, WillUnit.REBEL})
_TANKS = frozenset({WillUnit.PANZER, WillUnit.SS6})
_UNIT_WORDS = {
    WillUnit.INFANTRY: "infantry army",
    WillUnit.PANZER: "tank/panzer army",
    WillUnit.SS6: "6th SS Panzer Army",
    WillUnit.FLEET: "fleet",
    WillUnit.KB: "Kido Butai",
    WillUnit.REBEL: "UN rebels",
}

_ATTACKER = "attacker"
_DEFENDER = "defender"
_ROLES = (_ATTACKER, _DEFENDER)


@dataclass(frozen=True)
class WillBattleUnit:
    """One army or fleet on the Battle Board: ``ident`` is ``A1``, ``A2``, ... for the
    attacker's units and ``D1``, ... for the defender's, in the order the request lists them."""

    ident: str
    unit: WillUnit
    name: str = ""

    def as_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.ident, "unit": self.unit.value}
        if self.name:
            data["name"] = self.name
        return data


@dataclass(frozen=True)
class WillBattleBox:
    """One frontline box of the first round: the units on each side and the air support."""

    attacker: tuple[WillBattleUnit, ...]
    defender: tuple[WillBattleUnit, ...]
    air: int


def _read_unit(raw: Any, path: str, ident: str) -> WillBattleUnit:
    if not isinstance(raw, dict):
        raise WillRollError(path, 'must be a unit such as {"unit": "infantry"}')
    will_check_fields(raw, frozenset({"unit", "name"}), path=path)
    kind = raw.get("unit")
    if not isinstance(kind, str):
        raise WillRollError(f"{path}.unit", "is missing: give the unit's type")
    unit = _ALIASES.get(kind)
    if unit is None:
        try:
            unit = WillUnit(kind)
        except ValueError:
            known = ", ".join(u.value for u in WillUnit)
            raise WillRollError(
                f"{path}.unit", f"the game has no unit {kind!r}; its units are {known}"
            ) from None
    name = will_text(raw, "name", WILL_MAX_NAME, path=f"{path}.name")
    return WillBattleUnit(ident, unit, name)


def _read_boxes(fields: Mapping[str, Any]) -> tuple[WillBattleBox, ...]:
    raw = fields.get("boxes")
    if not isinstance(raw, list) or not raw:
        raise WillRollError("boxes", "give the frontline boxes of the first round, in order")
    boxes = []
    counts = {_ATTACKER: 0, _DEFENDER: 0}
    for b, box in enumerate(raw):
        path = f"boxes[{b}]"
        if not isinstance(box, dict):
            raise WillRollError(path, 'must be a box: {"attacker": [...], "defender": [...]}')
        will_check_fields(box, frozenset({_ATTACKER, _DEFENDER, "air"}), path=path)
        sides: dict[str, list[WillBattleUnit]] = {}
        for role in _ROLES:
            units = box.get(role, [])
            if not isinstance(units, list):
                raise WillRollError(f"{path}.{role}", "must be a list of units")
            if not units:
                raise WillRollError(
                    f"{path}.{role}",
                    f"box {b + 1} faces nobody: every frontline box holds at least one unit "
                    "of each side (10.4)",
                )
            sides[role] = []
            for u, item in enumerate(units):
                counts[role] += 1
                ident = f"{role[0].upper()}{counts[role]}"
                sides[role].append(_read_unit(item, f"{path}.{role}[{u}]", ident))
        air = will_flag(box, "air", path=f"{path}.air")
        boxes.append(WillBattleBox(tuple(sides[_ATTACKER]), tuple(sides[_DEFENDER]), air))
    return tuple(boxes)


def _check_forces(
    boxes: Sequence[WillBattleBox], side: str, defender_player: str, momentum: int
) -> None:
    """The forces: their size, one kind of battle, whose elite units."""
    for role in _ROLES:
        units = [u for box in boxes for u in getattr(box, role)]
        if len(units) > WILL_MAX_UNITS_IN_BATTLE:
            raise WillRollError(
                "boxes",
                f"the {role} has {len(units)} units; at most six fight in an area (6.3)",
            )
    player_of = {_ATTACKER: side, _DEFENDER: defender_player}
    every = [
        (role, b, i, u)
        for b, box in enumerate(boxes)
        for role in _ROLES
        for i, u in enumerate(getattr(box, role))
    ]
    fleets = [u for *_, u in every if u.unit not in _ARMIES]
    if fleets and len(fleets) != len(every):
        role, b, i, _ = next(e for e in every if e[3].unit in _ARMIES)
        raise WillRollError(
            f"boxes[{b}].{role}[{i}].unit",
            "armies fight in land areas and fleets in ocean areas, never in the same battle "
            "(9.3, 10.1)",
        )
    for role, b, i, u in every:
        path = f"boxes[{b}].{role}[{i}].unit"
        if u.unit is WillUnit.REBEL and role == _ATTACKER:
            raise WillRollError(path, "UN rebels never move or attack (12.2)")
        if u.unit is WillUnit.REBEL and defender_player != WILL_UNITED_NATIONS:
            raise WillRollError(path, "a force is either all UN rebels or none (12.2)")
        if defender_player == WILL_UNITED_NATIONS and role == _DEFENDER:
            if u.unit is not WillUnit.REBEL:
                raise WillRollError(path, "a force is either all UN rebels or none (12.2)")
        if u.unit is WillUnit.SS6 and player_of[role] != "German":
            raise WillRollError(path, "the 6th SS is a German panzer army (8.5)")
        if u.unit is WillUnit.KB and player_of[role] != "Japanese":
            raise WillRollError(path, "the Kido Butai is a Japanese fleet (8.5)")
        if momentum and role == _ATTACKER and u.unit not in _TANKS:
            raise WillRollError(
                path,
                "momentum combat is fought by victorious tank/panzer armies only (10.9)",
            )


def _check_frontline(boxes: Sequence[WillBattleBox]) -> None:
    """10.4: the smaller force one unit per box, the larger matching box for box."""
    sizes = {role: sum(len(getattr(box, role)) for box in boxes) for role in _ROLES}
    fewer = min(sizes.values())
    if len(boxes) != fewer:
        raise WillRollError(
            "boxes",
            f"{len(boxes)} boxes for forces of {sizes[_ATTACKER]} and {sizes[_DEFENDER]}: "
            f"the player with fewer units puts them one unit per box, {fewer} boxes (10.4)",
        )
    for b, box in enumerate(boxes):
        for role in _ROLES:
            other = _DEFENDER if role == _ATTACKER else _ATTACKER
            if len(getattr(box, role)) > 1 and len(getattr(box, other)) > 1:
                raise WillRollError(
                    f"boxes[{b}].{role}",
                    "only the player with more units stacks; the other has one unit per box (10.4)",
                )


@dataclass(frozen=True)
class WillBattleRoll:
    """A whole battle, thrown round after round until one side's force is gone (10.8)."""

    turn: int
    side: str
    """The attacking player."""
    defender_player: str
    """The other player, or ``"United Nations"`` when the defenders are rebels."""
    boxes: tuple[WillBattleBox, ...]
    air_superiority: str
    """The player with air superiority this turn (5.5), or ``""`` if neither."""
    aircraft: int
    """His aircraft still unused before this battle."""
    momentum: int
    area: str

    FIELDS = WILL_HEADER_FIELDS | {
        "boxes",
        "air_superiority",
        "aircraft",
        "momentum",
        "area",
    }

    @classmethod
    def from_request(cls, fields: Mapping[str, Any]) -> Self:
        """The battle a player asked for, or :class:`WillRollError` naming the field."""
        will_check_fields(fields, cls.FIELDS)
        turn, side = will_header(fields)
        area = will_text(fields, "area", WILL_MAX_NAME)
        boxes = _read_boxes(fields)
        rebels = any(u.unit is WillUnit.REBEL for box in boxes for u in box.defender)
        defender_player = WILL_UNITED_NATIONS if rebels else will_other_player(side)
        superior = will_player(fields, "air_superiority", required=False)
        aircraft = 0
        if superior:
            aircraft = will_int(fields, "aircraft", 0, WILL_MAX_AIRCRAFT)
        elif "aircraft" in fields:
            raise WillRollError(
                "aircraft", "only the player with air superiority has aircraft (5.5)"
            )
        momentum = will_flag(fields, "momentum")
        _check_forces(boxes, side, defender_player, momentum)
        _check_frontline(boxes)
        supported = [b for b, box in enumerate(boxes) if box.air]
        if supported and not superior:
            raise WillRollError(
                f"boxes[{supported[0]}].air",
                "only the player with air superiority commits aircraft (10.5)",
            )
        if supported and superior not in (side, defender_player):
            raise WillRollError(
                f"boxes[{supported[0]}].air",
                f"the {superior} player has air superiority but is not in this battle",
            )
        if supported and boxes[0].attacker[0].unit not in _ARMIES:
            raise WillRollError(
                f"boxes[{supported[0]}].air",
                "aircraft support armies: air support boxes lie behind boxes with armies "
                "(10.5, 10.7)",
            )
        if len(supported) > aircraft:
            raise WillRollError(
                f"boxes[{supported[-1]}].air",
                f"{len(supported)} boxes with air support but only {aircraft} aircraft unused",
            )
        if momentum and superior != side:
            raise WillRollError(
                "momentum", "momentum combat needs air superiority that turn (10.9)"
            )
        if momentum and aircraft < 1:
            raise WillRollError(
                "momentum",
                "momentum combat needs one or more aircraft units still unused (10.9)",
            )
        return cls(turn, side, defender_player, boxes, superior, aircraft, momentum, area)

    def record(self, by: str, draw: WillDraw) -> dict[str, Any]:
        """The ledger entry: every match-up's two dice, modifiers and totals, round by round."""
        data = will_entry(WILL_BATTLE_KIND, by, self.turn, self.side)
        players = {_ATTACKER: self.side, _DEFENDER: self.defender_player}
        air_role = next((r for r in _ROLES if players[r] == self.air_superiority), "")
        committed = sum(box.air for box in self.boxes)
        data.update(
            {
                "attacker": self.side,
                "defender": self.defender_player,
                "area": self.area,
                "momentum": self.momentum,
                "air_superiority": self.air_superiority,
                "aircraft": self.aircraft,
                "aircraft_committed": committed,
                "units": {
                    role: [u.as_data() for box in self.boxes for u in getattr(box, role)]
                    for role in _ROLES
                },
            }
        )
        frontline = [(list(box.attacker), list(box.defender)) for box in self.boxes]
        air = {b + 1 for b, box in enumerate(self.boxes) if box.air}
        dice: list[int] = []
        groups: list[dict[str, Any]] = []
        rounds: list[dict[str, Any]] = []
        number = 0
        while True:
            number += 1
            rounds.append(
                {
                    "round": number,
                    "boxes": [
                        {
                            "box": b,
                            _ATTACKER: [u.ident for u in att],
                            _DEFENDER: [u.ident for u in dfn],
                            "air": int(b in air),
                        }
                        for b, (att, dfn) in enumerate(frontline, 1)
                    ],
                }
            )
            lost: set[str] = set()
            for b, (att, dfn) in enumerate(frontline, 1):
                support = air_role if b in air else ""
                for group in self._fight_box(number, b, att, dfn, support, draw):
                    dice += group["dice"]
                    lost.add(group["eliminated"])
                    groups.append(group)
            survivors = {
                _ATTACKER: [u for att, _ in frontline for u in att if u.ident not in lost],
                _DEFENDER: [u for _, dfn in frontline for u in dfn if u.ident not in lost],
            }
            if not survivors[_ATTACKER] or not survivors[_DEFENDER]:
                break
            frontline = _rearrange(survivors[_ATTACKER], survivors[_DEFENDER])
            air = _carry_air(air, committed, len(frontline))
        winner = _ATTACKER if survivors[_ATTACKER] else _DEFENDER
        data.update(
            {
                "dice": dice,
                "groups": groups,
                "rounds": rounds,
                "winner": players[winner],
                "survivors": [u.ident for u in survivors[winner]],
            }
        )
        return data

    def _fight_box(
        self,
        round_number: int,
        box: int,
        att: list[WillBattleUnit],
        dfn: list[WillBattleUnit],
        support: str,
        draw: WillDraw,
    ) -> list[dict[str, Any]]:
        """A box's match-ups, one at a time: the lone unit meets the stack in order."""
        groups = []
        lone_role = _ATTACKER if len(att) == 1 else _DEFENDER
        lone = att[0] if lone_role == _ATTACKER else dfn[0]
        stack = dfn if lone_role == _ATTACKER else att
        for other in stack:
            pair = {
                _ATTACKER: lone if lone_role == _ATTACKER else other,
                _DEFENDER: other if lone_role == _ATTACKER else lone,
            }
            thrown = will_throw(draw, 2)
            group: dict[str, Any] = {"round": round_number, "box": box, "dice": thrown}
            totals = {}
            for role, die in zip(_ROLES, thrown, strict=True):
                unit = pair[role]
                mods = self._modifiers(unit, role, air=support == role)
                totals[role] = die + sum(add for _, add in mods)
                group[role] = {
                    "unit": unit.ident,
                    "die": die,
                    "modifiers": [{"why": why, "add": add} for why, add in mods],
                    "total": totals[role],
                }
            won = _ATTACKER if totals[_ATTACKER] > totals[_DEFENDER] else _DEFENDER
            loser = pair[_DEFENDER if won == _ATTACKER else _ATTACKER]
            group["winner"] = won
            group["eliminated"] = loser.ident
            groups.append(group)
            if loser is lone:
                break
        return groups

    def _modifiers(self, unit: WillBattleUnit, role: str, *, air: bool) -> list[tuple[str, int]]:
        """10.7's die roll modifiers for one unit's die."""
        mods = []
        if role == _ATTACKER and unit.unit is WillUnit.PANZER:
            mods.append(("tank attack", 1))
        if role == _ATTACKER and unit.unit is WillUnit.SS6:
            mods.append(("tank attack + 6SS", 2))
        if unit.unit is WillUnit.KB:
            mods.append(("Kido Butai", 1))
        if air and unit.unit in _ARMIES:
            mods.append(("air", 1))
        return mods


def _rearrange(
    att: list[WillBattleUnit], dfn: list[WillBattleUnit]
) -> list[tuple[list[WillBattleUnit], list[WillBattleUnit]]]:
    """10.4 again, by the fixed rule of the module docstring."""
    fewer_is_attacker = len(att) < len(dfn)
    few, many = (att, dfn) if fewer_is_attacker else (dfn, att)
    k = len(few)
    placed: list[tuple[list[WillBattleUnit], list[WillBattleUnit]]] = [
        ([few[i]], [many[i]]) for i in range(k)
    ]
    for j, unit in enumerate(many[k:]):
        placed[j % k][1].append(unit)
    if fewer_is_attacker:
        return placed
    return [(stack, lone) for lone, stack in placed]


def _carry_air(previous: set[int], committed: int, boxes: int) -> set[int]:
    """Air support for the next round: kept by its box while manned, else moved left."""
    kept = {b for b in previous if b <= boxes}
    free = [b for b in range(1, boxes + 1) if b not in kept]
    return kept | set(free[: committed - len(kept)])


def _unit_words(units: Mapping[str, Mapping[str, Any]], ident: str) -> str:
    unit = units[ident]
    kind = str(unit["unit"])
    words = next((w for u, w in _UNIT_WORDS.items() if u.value == kind), kind)
    name = unit.get("name")
    return f"{ident} {name} ({words})" if name else f"{ident} {words}"


def _die_words(roll: Mapping[str, Any]) -> str:
    mods = "".join(f" {will_signed(m['add'])} {m['why']}" for m in roll["modifiers"])
    return f"{roll['die']}{mods} = {roll['total']}"


def describe_will_battle(data: Mapping[str, Any]) -> list[str]:
    """The battle in words, as the players read it in the mail."""
    units = {u["id"]: u for role in _ROLES for u in data["units"][role]}
    where = f" in {data['area']}" if data.get("area") else ""
    kind = "Tank/panzer momentum combat" if data.get("momentum") else "Battle"
    lines = [
        f"Turn {data['turn']}: {kind}{where}, {data['attacker']} attacking, "
        f"{data['defender']} defending."
    ]
    if data.get("air_superiority"):
        lines.append(
            f"The {data['air_superiority']} player has air superiority and commits "
            f"{data['aircraft_committed']} of his {data['aircraft']} unused aircraft."
        )
    for rnd in data["rounds"]:
        lines.append(f"Round {rnd['round']}:")
        for box in rnd["boxes"]:
            air = f", {data['air_superiority']} air support" if box["air"] else ""
            lines.append(
                f"  Box {box['box']}{air}: "
                + ", ".join(_unit_words(units, i) for i in box[_ATTACKER])
                + " against "
                + ", ".join(_unit_words(units, i) for i in box[_DEFENDER])
            )
            for g in data["groups"]:
                if g["round"] != rnd["round"] or g["box"] != box["box"]:
                    continue
                att, dfn = g[_ATTACKER], g[_DEFENDER]
                tie = "a tie, " if att["total"] == dfn["total"] else ""
                lines.append(
                    f"    {att['unit']} {_die_words(att)} against {dfn['unit']} "
                    f"{_die_words(dfn)}: {tie}the {data[g['winner']]} unit wins, "
                    f"{g['eliminated']} is eliminated."
                )
    survivors = ", ".join(_unit_words(units, i) for i in data["survivors"])
    lines.append(
        f"The {data['winner']} force wins: the other is eliminated; {survivors} survive "
        "and are disrupted in the area (10.8)."
    )
    if len(data["rounds"]) > 1:
        lines.append(
            "Between rounds the survivors were re-arranged by the dice server's rule: the "
            "smaller force one per box in the order first listed, the larger matching box "
            "for box and stacking the rest from box 1; aircraft stay with their box."
        )
    return lines
