"""A battle round of a Big World 1942 game (a game created with that ruleset): the same
request as a Classic round (``POST .../rolls``, the roller's battle page) with Big World's
units, thrown and read by its rules (:mod:`adjudicator.bigworld.roll`). The entry is of kind
``roll`` like any battle round: its data says ``"ruleset": "big_world_1942"``, and its groups
have the shape the standalone verifier checks for every roll."""

from __future__ import annotations

from typing import Any

from wtforms import SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired

from adjudicator.bigworld.roll import (
    BIG_WORLD_ALLIANCES,
    BIG_WORLD_ROLL_OPTIONS,
    BigWorldListing,
    BigWorldRoll,
    BigWorldRollError,
    BigWorldRollHeader,
    big_world_country,
)
from adjudicator.bigworld.units import BigWorldUnit
from adjudicator.names import big_world_names
from dice_server.jsonbody import shown
from dice_server.kinds.battle import place_in
from dice_server.kinds.forms import HeaderForm, MultiCheckbox, count_field
from dice_server.requests import (
    MAX_COMMENT,
    MAX_COUNT,
    MAX_TEXT,
    ROLL_FIELDS,
    check_fields,
    field_error,
    option_names,
    positive_int,
    text,
)

COUNTRIES = tuple(BIG_WORLD_ALLIANCES)
"""Big World's six powers as a roll records them, in its turn order."""
ATTACKING = ("INF", "ART", "ARM", "FTR", "BMB", "TRN", "SUB", "DD", "CA", "AC", "BB")
"""The units that may attack, in chart order (a form's boxes)."""
DEFENDING = (*ATTACKING, "AA")
BOMBARDING = ("BB", "DD")
_UNITS = {unit.value: unit for unit in BigWorldUnit}


def _units(fields: dict[str, Any], field: str, allowed: tuple[str, ...]) -> BigWorldListing:
    """A list of ``{"unit", "count"}`` of Big World units, each once."""
    raw = fields.get(field, [])
    if not isinstance(raw, list):
        raise field_error(
            field, f'must be a list of {{"unit": ..., "count": ...}}, not {shown(raw)}'
        )
    out: list[tuple[BigWorldUnit, int]] = []
    for index, item in enumerate(raw):
        where = f"{field}[{index}]"
        if not isinstance(item, dict) or set(item) != {"unit", "count"}:
            raise field_error(where, 'must be {"unit": "INF", "count": 3}')
        name, count = item["unit"], item["count"]
        unit = name.strip().upper() if isinstance(name, str) else None
        if unit not in allowed:
            raise field_error(
                f"{where}.unit",
                f"no unit {shown(name)} {'may be listed here' if unit in _UNITS else 'in'} "
                f"Big World 1942; use one of {', '.join(allowed)}",
            )
        if type(count) is not int or not 1 <= count <= MAX_COUNT:
            raise field_error(
                f"{where}.count", f"must be from 1 to {MAX_COUNT}, not {shown(count)}"
            )
        if any(u.value == unit for u, _ in out):
            raise field_error(f"{where}.unit", f"{unit} is listed twice; give one total count")
        out.append((_UNITS[unit], count))
    return tuple(out)


def read_big_world(payload: Any) -> BigWorldRoll:
    """Check a Big World battle-roll request completely, before any lock is taken."""
    fields = check_fields(payload, ROLL_FIELDS, {"round", "turn", "country", "battle"})
    round_, turn = positive_int(fields, "round"), positive_int(fields, "turn")
    written = text(fields, "country", MAX_TEXT)
    country = big_world_country(written)
    if country is None:
        raise field_error(
            "country", f"unknown country {shown(written)}; use {', '.join(COUNTRIES)}"
        )
    battle = place_in(big_world_names(), text(fields, "battle", MAX_TEXT), "Eastern Germany, SZ 5")
    comment = text(fields, "comment", MAX_COMMENT, required=False)
    attacker = _units(fields, "attacker", ATTACKING)
    defender = _units(fields, "defender", DEFENDING)
    bombard = _units(fields, "bombard", BOMBARDING)
    options = option_names(fields, BIG_WORLD_ROLL_OPTIONS, "Big World's")
    try:
        return BigWorldRoll.of(
            BigWorldRollHeader(round_, turn, country, comment),
            battle,
            attacker,
            defender,
            bombard,
            sorted(options),
        )
    except BigWorldRollError as exc:
        raise field_error(exc.field, exc.problem) from None


class BigWorldBattleForm(HeaderForm):
    """The roller's battle form in a Big World game: Big World's units and options."""

    ATTACKING = ATTACKING
    DEFENDING = DEFENDING
    country = SelectField("Country", choices=[SelectChoice(c, c) for c in COUNTRIES])
    battle = StringField("Battle territory or sea zone", validators=[DataRequired()])
    options = MultiCheckbox(
        "Options", choices=[SelectChoice(k, f"{k}: {v}") for k, v in BIG_WORLD_ROLL_OPTIONS.items()]
    )
    bombard_BB = count_field("Bombarding BB")
    bombard_DD = count_field("Bombarding DD (Destroyer Bombard)")
    defender_AA = count_field("AA gun")

    def payload(self) -> dict[str, Any]:
        sides: dict[str, list[dict[str, int | str]]] = {"attacker": [], "defender": []}
        for side, units in (("attacker", ATTACKING), ("defender", DEFENDING)):
            for unit in units:
                field = getattr(self, f"{side}_{unit}", None)
                if field is not None and field.data:
                    sides[side].append({"unit": unit, "count": field.data})
        out = {**self.header(), "battle": self.battle.data, **sides, "options": self.options.data}
        bombard = [
            {"unit": unit, "count": getattr(self, f"bombard_{unit}").data}
            for unit in BOMBARDING
            if getattr(self, f"bombard_{unit}").data
        ]
        if bombard:
            out["bombard"] = bombard
        return out


for _unit in ATTACKING:
    setattr(BigWorldBattleForm, f"attacker_{_unit}", count_field(_unit))
    setattr(BigWorldBattleForm, f"defender_{_unit}", count_field(_unit))
