"""One combat round of one Triumph & Tragedy battle (the summary's "Combat" section).

"Land battles: only one combat round per battle per turn"; "Sea battles: fought to
conclusion", but between two rounds of a sea battle the players choose retreats, rebasing,
escapes and the next Battlegroup ("only one group can join the battle *each* combat round"),
so each round is asked for on its own, with its ``"round"`` number.

The request lists each side's units with their CV as the round starts and, for each unit that
fires, its target class: "each firing unit must announce its target class". A unit without a
target does not fire this round: it retreats, or it is a ground unit that invaded this turn
("they absorb hits normally but take no action this combat round"), or it is a Convoy. Such
a unit stays in the battle for the whole round and absorbs hits like any other: the dice
server does not know when (or whether) it leaves. A Carrier asked to ``"scoot"`` ("Carriers
can fire at N1 *and* immediately Retreat/ReBase") fires at N with firepower 1 and then is
gone: later fire of the round cannot reach it.

The round, as the dice server throws it:

* "units act in the order given by Unit Table" (:data:`TT_UNIT_TABLE`: Fortress, Air Force,
  Carrier, Submarine, Fleet, Tank, Infantry);
* "for each unit type, defending units act before attackers (unless attackers have
  FirstFire and defenders do not)"; within one side and type, units act in the order listed;
* "roll # dice = CV of firing unit", its CV as it stands when it acts: a unit reduced earlier
  in the round rolls fewer dice, one eliminated before it acts does not act;
* "hit scored if result" <= "firepower" against its announced class (the summary writes
  the sign in TeX);
* each hit, one at a time and at once (before the next unit acts): "reduce *strongest* unit
  of the target class by 1CV", "Carriers and Convoys lose 2CV per hit", "any excess hits are
  ignored", "eliminate unit if CV = 0". The strongest is the enemy unit of that class with
  the highest CV at that moment; between equally strong units the one listed first is
  reduced. That tie-break is the service's convention: the owner's choice is not known to
  the dice server.

First Fire: ``"first_fire"`` lists each side's unit types with a First Fire technology;
``"declarer_first_fire": 1`` is the Declaration of War: "units of the Declarer have temporary
First Fire capability for this Turn (negated by the Enemy having same capability)", so every
unit type the attacker fields in the battle has First Fire this round. The effective lists are
recorded; a type acts attacker first only when the attacker has First Fire for it and the
defender has not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Self

from adjudicator.triumph_tragedy.units import (
    TT_CARRIER_SCOOT_FIREPOWER,
    TT_CLASS_WORDS,
    TT_CLASSES,
    TT_FACTIONS,
    TT_MAX_CV,
    TT_MAX_NAME,
    TT_MIN_CV,
    TT_SEASONS,
    TT_TWO_CV_PER_HIT,
    TT_UNIT_TABLE,
    TT_UNITS,
    TTDraw,
    TTRollError,
    TTUnitType,
    tt_check_fields,
    tt_choice,
    tt_comment,
    tt_entry,
    tt_flag,
    tt_int,
    tt_target_class,
    tt_text,
    tt_throw,
    tt_unit_type,
    tt_year,
)

TT_COMBAT_KIND = "tt-combat-round"

TT_BATTLES = ("land", "sea")
"""A land battle or a sea battle."""

TT_MAX_ROUND = 99
TT_MAX_UNITS_A_SIDE = 20
"""A generous bound on one side's units in one battle."""

_ATTACKER = "attacker"
_DEFENDER = "defender"
_SIDES = (_ATTACKER, _DEFENDER)
_NEUTRAL = "Neutral"
_FORTRESS = "Fortress"
_CARRIER = "Carrier"
_CONVOY = "Convoy"

_ELIMINATED_BEFORE = "eliminated before it acted"
_DOES_NOT_FIRE = "does not fire"


@dataclass(frozen=True)
class TTCombatUnit:
    """One unit of the round: ``ident`` is ``A1``, ``A2``, ... for the attacker's units and
    ``D1``, ... for the defender's, in the order the request lists them; ``target`` is the
    class it fires at (``""``: it does not fire); ``scoot`` a Carrier firing at N1 and
    leaving."""

    ident: str
    unit: str
    cv: int
    target: str = ""
    scoot: int = 0

    @property
    def row(self) -> TTUnitType:
        return TT_UNITS[self.unit]

    def as_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.ident,
            "unit": self.unit,
            "class": self.row.unit_class,
            "cv": self.cv,
        }
        if self.target:
            data["target"] = self.target
        if self.scoot:
            data["scoot"] = 1
        return data


def _unit_names() -> str:
    return ", ".join(u.name for u in TT_UNIT_TABLE)


def _read_unit(raw: Any, path: str, ident: str, battle: str, side_faction: str) -> TTCombatUnit:
    """One unit of a side, checked on its own (its target against the enemy comes later)."""
    if not isinstance(raw, dict):
        raise TTRollError(path, 'must be a unit such as {"unit": "Fleet", "cv": 3}')
    tt_check_fields(raw, frozenset({"unit", "cv", "class", "target", "scoot"}), path=path)
    name = raw.get("unit")
    if not isinstance(name, str):
        raise TTRollError(f"{path}.unit", f"is missing: give the unit's type ({_unit_names()})")
    row = tt_unit_type(name)
    if row is None:
        raise TTRollError(
            f"{path}.unit", f"the Unit Table has no unit {name!r}; its units are {_unit_names()}"
        )
    if battle == "sea" and row.name == _FORTRESS:
        raise TTRollError(f"{path}.unit", "a Fortress never moves and never fights at sea")
    if side_faction == _NEUTRAL and row.name != _FORTRESS:
        raise TTRollError(
            f"{path}.unit",
            "an armed Neutral fights with its Fortresses only (its muster: neutral Fortresses "
            "in Cities and Towns)",
        )
    cv = tt_int(raw, "cv", TT_MIN_CV, TT_MAX_CV, path=f"{path}.cv")
    if "class" in raw:
        given = raw["class"]
        letter = tt_target_class(given) if isinstance(given, str) else None
        if letter != row.unit_class:
            raise TTRollError(
                f"{path}.class",
                f"a {row.name} is of class {row.unit_class} "
                f"({TT_CLASS_WORDS[row.unit_class]}), not {given!r}",
            )
    target = ""
    if "target" in raw:
        given = raw["target"]
        letter = tt_target_class(given) if isinstance(given, str) else None
        if letter is None:
            raise TTRollError(
                f"{path}.target",
                f'must be a target class, "A", "N", "G" or "S" (air, naval, ground, sub), '
                f"not {given!r}",
            )
        if not row.fires:
            raise TTRollError(
                f"{path}.target", "Convoys get no combat action: a Convoy never fires"
            )
        if row.firepower_against(letter) == 0:
            raise TTRollError(
                f"{path}.target",
                f"a {row.name} cannot fire at class {letter}: it fires at "
                f"{', '.join(row.targets())} only",
            )
        target = letter
    scoot = tt_flag(raw, "scoot", path=f"{path}.scoot")
    if scoot and (row.name != _CARRIER or target != "N"):
        raise TTRollError(
            f"{path}.scoot",
            'only a Carrier firing at "N" can fire at N1 and immediately Retreat/ReBase',
        )
    return TTCombatUnit(ident, row.name, cv, target, scoot)


def _read_units(
    fields: Mapping[str, Any], battle: str, factions: Mapping[str, str]
) -> dict[str, tuple[TTCombatUnit, ...]]:
    raw = fields.get("units")
    if not isinstance(raw, dict):
        raise TTRollError(
            "units", 'give each side\'s units: {"attacker": [...], "defender": [...]}'
        )
    tt_check_fields(raw, frozenset(_SIDES), path="units")
    sides = {}
    for side in _SIDES:
        path = f"units.{side}"
        listed = raw.get(side)
        if not isinstance(listed, list) or not listed:
            raise TTRollError(path, f"give the {side}'s units, a list of one or more")
        if len(listed) > TT_MAX_UNITS_A_SIDE:
            raise TTRollError(
                path, f"{len(listed)} units; at most {TT_MAX_UNITS_A_SIDE} units a side"
            )
        prefix = side[0].upper()
        sides[side] = tuple(
            _read_unit(item, f"{path}[{i}]", f"{prefix}{i + 1}", battle, factions[side])
            for i, item in enumerate(listed)
        )
    return sides


def _check_targets(units: Mapping[str, Sequence[TTCombatUnit]], defender: str) -> None:
    """Each announced class has enemy units in it as the round starts; "neutral Fortresses
    target Ground units first"."""
    for side in _SIDES:
        enemy = units[_DEFENDER if side == _ATTACKER else _ATTACKER]
        classes = {u.row.unit_class for u in enemy}
        for i, u in enumerate(units[side]):
            if not u.target:
                continue
            path = f"units.{side}[{i}].target"
            if u.target not in classes:
                raise TTRollError(
                    path,
                    f"the {_other(side)} has no unit of class {u.target} "
                    f"({TT_CLASS_WORDS[u.target]}); its classes here are "
                    f"{', '.join(c for c in TT_CLASSES if c in classes)}",
                )
            neutral_fort = side == _DEFENDER and defender == _NEUTRAL and u.unit == _FORTRESS
            if neutral_fort and u.target != "G" and "G" in classes:
                raise TTRollError(
                    path,
                    "neutral Fortresses target Ground units first: the attacker has ground "
                    'units, so the target is "G"',
                )


def _read_first_fire(fields: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    raw = fields.get("first_fire", {})
    if not isinstance(raw, dict):
        raise TTRollError(
            "first_fire", 'give each side\'s unit types with First Fire: {"attacker": ["Tank"]}'
        )
    tt_check_fields(raw, frozenset(_SIDES), path="first_fire")
    sides = {}
    for side in _SIDES:
        listed = raw.get(side, [])
        path = f"first_fire.{side}"
        if not isinstance(listed, list):
            raise TTRollError(path, "must be a list of unit types")
        names = set()
        for i, name in enumerate(listed):
            row = tt_unit_type(name) if isinstance(name, str) else None
            if row is None:
                raise TTRollError(
                    f"{path}[{i}]",
                    f"the Unit Table has no unit {name!r}; its units are {_unit_names()}",
                )
            if not row.fires:
                raise TTRollError(f"{path}[{i}]", "Convoys get no combat action")
            names.add(row.name)
        sides[side] = tuple(u.name for u in TT_UNIT_TABLE if u.name in names)
    return sides


def _other(side: str) -> str:
    return _DEFENDER if side == _ATTACKER else _ATTACKER


@dataclass(frozen=True)
class TTCombatRound:
    """One combat round of one battle, thrown as the module docstring says."""

    year: int
    season: str
    area: str
    battle: str
    round: int
    attacker: str
    defender: str
    units: Mapping[str, tuple[TTCombatUnit, ...]]
    """Each side's units (``"attacker"``, ``"defender"``) as the round starts."""
    first_fire: Mapping[str, tuple[str, ...]]
    """Each side's unit types with a First Fire technology, as asked."""
    declarer_first_fire: int

    FIELDS = frozenset(
        {
            "year",
            "season",
            "area",
            "battle",
            "round",
            "comment",
            "attacker",
            "defender",
            "units",
            "first_fire",
            "declarer_first_fire",
        }
    )

    @classmethod
    def from_request(cls, fields: Mapping[str, Any]) -> Self:
        """The combat round a player asked for, or :class:`TTRollError` naming the field."""
        tt_check_fields(fields, cls.FIELDS)
        year = tt_year(fields)
        season = tt_choice(fields, "season", TT_SEASONS)
        area = tt_text(fields, "area", TT_MAX_NAME)
        if not area:
            raise TTRollError("area", "give the area where the battle is fought")
        battle = tt_choice(fields, "battle", TT_BATTLES)
        number = tt_int(fields, "round", 1, TT_MAX_ROUND, default=1)
        if battle == "land" and number != 1:
            raise TTRollError("round", "Land battles: only one combat round per battle per turn")
        tt_comment(fields)
        attacker = tt_choice(fields, "attacker", TT_FACTIONS)
        if attacker == _NEUTRAL:
            raise TTRollError(
                "attacker", "a Neutral never attacks: the attacker is Axis, West or USSR"
            )
        if season == "Winter" and attacker != "USSR":
            raise TTRollError(
                "attacker",
                "only the USSR fights in Winter (Seasons, Winter: USSR only), and then "
                "Battles within the USSR only",
            )
        defender = tt_choice(fields, "defender", TT_FACTIONS)
        if defender == attacker:
            raise TTRollError("defender", f"{attacker} cannot fight itself")
        units = _read_units(fields, battle, {_ATTACKER: attacker, _DEFENDER: defender})
        first_fire = _read_first_fire(fields)
        declarer = tt_flag(fields, "declarer_first_fire")
        _check_targets(units, defender)
        return cls(
            year,
            season,
            area,
            battle,
            number,
            attacker,
            defender,
            MappingProxyType(units),
            MappingProxyType(first_fire),
            declarer,
        )

    def effective_first_fire(self) -> dict[str, tuple[str, ...]]:
        """Each side's unit types with First Fire this round: the technologies, and for the
        attacker every type it fields when it declared war this turn."""
        attacker = set(self.first_fire[_ATTACKER])
        if self.declarer_first_fire:
            attacker |= {u.unit for u in self.units[_ATTACKER] if u.row.fires}
        return {
            _ATTACKER: tuple(u.name for u in TT_UNIT_TABLE if u.name in attacker),
            _DEFENDER: self.first_fire[_DEFENDER],
        }

    def acting_order(self) -> list[tuple[str, TTCombatUnit]]:
        """Every unit as (side, unit), in the order they act: the Unit Table's order, the
        defender first within a type unless only the attacker has First Fire for it, and
        within one side and type as listed (Convoys, which never act, last)."""
        first_fire = self.effective_first_fire()
        order = []
        for row in TT_UNIT_TABLE:
            ahead = row.name in first_fire[_ATTACKER] and row.name not in first_fire[_DEFENDER]
            sides = (_ATTACKER, _DEFENDER) if ahead else (_DEFENDER, _ATTACKER)
            for side in sides:
                order += [(side, u) for u in self.units[side] if u.unit == row.name]
        return order

    def record(self, by: str, draw: TTDraw) -> dict[str, Any]:
        """The ledger entry: each firing unit's dice and the reductions its hits made, in
        the order the units acted (``"groups"``); each unit that did not fire, with why
        (``"not_acting"``: ``"eliminated before it acted"`` or ``"does not fire"``; a Convoy,
        which has no combat action, always ``"does not fire"``); every unit's CV after the
        round (0: eliminated) and the units eliminated, in the order they fell."""
        data = tt_entry(TT_COMBAT_KIND, by)
        first_fire = self.effective_first_fire()
        data.update(
            {
                "year": self.year,
                "season": self.season,
                "area": self.area,
                "battle": self.battle,
                "round": self.round,
                _ATTACKER: self.attacker,
                _DEFENDER: self.defender,
                "first_fire": {side: list(first_fire[side]) for side in _SIDES},
                "units": {side: [u.as_data() for u in self.units[side]] for side in _SIDES},
            }
        )
        cv = {u.ident: u.cv for side in _SIDES for u in self.units[side]}
        present = set(cv)  # the units still in the battle: a scooting Carrier leaves
        dice: list[int] = []
        groups: list[dict[str, Any]] = []
        not_acting: list[dict[str, Any]] = []
        eliminated: list[str] = []
        for side, unit in self.acting_order():
            if cv[unit.ident] == 0 and unit.row.fires:
                not_acting.append({"side": side, "id": unit.ident, "why": _ELIMINATED_BEFORE})
                continue
            if not unit.target:
                not_acting.append({"side": side, "id": unit.ident, "why": _DOES_NOT_FIRE})
                continue
            hit_on = (
                TT_CARRIER_SCOOT_FIREPOWER
                if unit.scoot
                else unit.row.firepower_against(unit.target)
            )
            strength = cv[unit.ident]
            thrown = tt_throw(draw, strength)
            hits = sum(1 for d in thrown if d <= hit_on)
            enemy = self.units[_other(side)]
            reductions = []
            for _ in range(hits):
                struck = _strongest(enemy, unit.target, cv, present)
                if struck is None:
                    break
                loss = 2 if struck.unit in TT_TWO_CV_PER_HIT else 1
                before = cv[struck.ident]
                cv[struck.ident] = max(0, before - loss)
                reductions.append(
                    {
                        "id": struck.ident,
                        "unit": struck.unit,
                        "from": before,
                        "to": cv[struck.ident],
                    }
                )
                if cv[struck.ident] == 0:
                    eliminated.append(struck.ident)
            group: dict[str, Any] = {
                "side": side,
                "id": unit.ident,
                "unit": unit.unit,
                "cv": strength,
                "target": unit.target,
                "hit_on": hit_on,
                "first_fire": int(
                    unit.unit in first_fire[side] and unit.unit not in first_fire[_other(side)]
                ),
                "dice": thrown,
                "hits": hits,
                "reductions": reductions,
                "excess": hits - len(reductions),
            }
            if unit.scoot:
                group["scoot"] = 1
                present.discard(unit.ident)
            dice += thrown
            groups.append(group)
        data.update(
            {
                "groups": groups,
                "not_acting": not_acting,
                "dice": dice,
                "after": {
                    side: [{"id": u.ident, "cv": cv[u.ident]} for u in self.units[side]]
                    for side in _SIDES
                },
                "eliminated": eliminated,
            }
        )
        return data


def _strongest(
    enemy: Sequence[TTCombatUnit], target: str, cv: Mapping[str, int], present: set[str]
) -> TTCombatUnit | None:
    """The enemy unit of the target class with the highest CV now (the first listed of
    equals), or ``None`` when that class has no unit left: the hit is ignored."""
    best = None
    for u in enemy:
        if u.row.unit_class != target or u.ident not in present or cv[u.ident] == 0:
            continue
        if best is None or cv[u.ident] > cv[best.ident]:
            best = u
    return best


def describe_tt_combat(data: Mapping[str, Any]) -> list[str]:
    """The combat round in words, as the players read it in the mail."""
    faction = {side: data[side] for side in _SIDES}
    units = {u["id"]: (side, u) for side in _SIDES for u in data["units"][side]}

    def named(ident: str) -> str:
        side, u = units[ident]
        return f"{faction[side]} {u['unit']} {ident}"

    lines = [
        f"{data['year']} {data['season']}, {data['battle']} battle in {data['area']}, "
        f"round {data['round']}: {data['attacker']} attacks {data['defender']}."
    ]
    for side in _SIDES:
        if data["first_fire"][side]:
            lines.append(
                f"{faction[side]} has First Fire for: {', '.join(data['first_fire'][side])}."
            )
    for g in data["groups"]:
        rolled = " ".join(str(d) for d in g["dice"])
        first = " (First Fire)" if g["first_fire"] else ""
        text = (
            f"{named(g['id'])} (CV {g['cv']}){first} fires at {g['target']}, hit on "
            f"{g['hit_on']} or less: {rolled} -> {g['hits']} hit(s)"
        )
        done = [f"{named(r['id'])} {r['from']} -> {r['to']}" for r in g["reductions"]]
        if done:
            text += ": " + ", ".join(done)
        if g["excess"]:
            text += f"; {g['excess']} excess hit(s) ignored"
        text += "."
        if g.get("scoot"):
            text += " The Carrier fired at N1 and immediately retreats/rebases."
        lines.append(text)
    for n in data["not_acting"]:
        if n["why"] == _ELIMINATED_BEFORE:
            lines.append(f"{named(n['id'])} was eliminated before it acted.")
        else:
            lines.append(f"{named(n['id'])} does not fire.")
    after = []
    for side in _SIDES:
        states = [
            f"{u['id']} {units[u['id']][1]['unit']} "
            + (f"CV {u['cv']}" if u["cv"] else "eliminated")
            for u in data["after"][side]
        ]
        after.append(f"{faction[side]} {', '.join(states)}")
    lines.append(f"After the round: {'; '.join(after)}.")
    return lines
