"""A battle round (IAAPA "Using the Dice Server"): the units of both sides, thrown in the
order the rules engine lays out (:class:`adjudicator.rolls.BattleRoll`), and the engine's
reading of the round below the dice (:func:`adjudicator.rolls.read_roll`: the aircraft the
AA gun removed, the dice that makes void, the hits of each side). A group's own count is of
its dice at or under its number, as thrown; the reading is what the round comes to, so a
player never adds the groups up himself."""

from __future__ import annotations

from typing import Any

from wtforms import StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired

from adjudicator.battle.reading import RULESET
from adjudicator.bigworld.roll import read_big_world_roll
from adjudicator.names import NameResolutionError, Names, classic_names
from adjudicator.rolls import (
    BATTLE_UNITS,
    COMBAT_VALUES,
    OPTIONS,
    BattleRoll,
    RollHeader,
    RollRuleError,
    read_roll,
)
from adjudicator.rolls.lowluck import volley_lines
from dice_server.kinds.base import SIDE, Data, EntryKind, thrown
from dice_server.kinds.forms import HeaderForm, MultiCheckbox, count_field
from dice_server.kinds.turn import finding_line
from dice_server.requests import (
    MAX_COMMENT,
    MAX_TEXT,
    ROLL_FIELDS,
    check_fields,
    country,
    field_error,
    option_names,
    positive_int,
    refused,
    text,
    unit_list,
)

UNIT_NAMES = frozenset(unit.value for unit in BATTLE_UNITS)
FORM_UNITS = list(COMBAT_VALUES)


def read(payload: Any) -> BattleRoll:
    """Check a battle-roll request completely, before any lock is taken or seq consumed."""
    fields = check_fields(payload, ROLL_FIELDS, {"round", "turn", "country", "battle"})
    round_, turn = positive_int(fields, "round"), positive_int(fields, "turn")
    power, battle = country(fields), text(fields, "battle", MAX_TEXT)
    comment = text(fields, "comment", MAX_COMMENT, required=False)
    attacker = unit_list(fields, "attacker", UNIT_NAMES)
    defender = unit_list(fields, "defender", UNIT_NAMES | {"AA"})
    bombard = unit_list(fields, "bombard", frozenset({"BB"}))
    options = option_names(fields, OPTIONS)
    place(battle)
    if not attacker and "defenders-only" not in options:
        raise field_error(
            "attacker",
            "list the attacking units (only a defenders-only roll may leave them out)",
        )
    try:
        return BattleRoll.of(
            RollHeader(round_, turn, power, comment),
            battle,
            attacker,
            defender,
            bombard,
            sorted(options),
        )
    except RollRuleError as exc:
        raise refused(exc) from None


def place(battle: str) -> str:
    """The board's name of the territory or sea zone a roll's ``battle`` names, read with
    the typo rule (IAAPA Error Correction VI: a misspelling stands corrected when the correct
    word is readily decipherable); a name that is none is refused."""
    return place_in(classic_names(), battle, "West Europe, Baltic Sea Zone")


def place_in(names: Names, battle: str, examples: str) -> str:
    """:func:`place` on the board of ``names`` (``examples``: two of its names, for the
    refusal)."""
    try:
        return names.place(battle).label
    except NameResolutionError as exc:
        raise field_error(
            "battle",
            f"{exc}: name the battle's territory or sea zone as the board does ({examples})",
        ) from None


def reading(data: Data) -> list[str]:
    """The rules engine's reading of a battle roll, or why it cannot read one (a Big World
    game's round by Big World's rules)."""
    if data.get("ruleset") == RULESET:
        return read_big_world_roll(data)
    try:
        return read_roll(dict(data)).lines()
    except ValueError as exc:
        return [f"Not read by the rules as one battle: {exc}"]


def headline(data: Data) -> str:
    return f"{data['country']}: {data['battle']} round {data['round']}"


def listed(data: Data) -> list[str]:
    """A battle round's header and units as entered, whichever way it was thrown."""
    lines = [f"{data['country']}, turn {data['turn']}: {data['battle']}, round {data['round']}"]
    for side in ("attacker", "defender"):
        units = ", ".join(f"{u['count']} {u['unit']}" for u in data.get(side, []))
        lines.append(f"{SIDE[side]}: {units or '(none listed)'}")
    if data.get("bombard"):
        ships = ", ".join(f"{u['count']} {u['unit']}" for u in data["bombard"])
        lines.append(f"Support shots: {ships}")
    if data.get("options"):
        lines.append(f"Options: {', '.join(data['options'])}")
    return lines


def describe(data: Data) -> list[str]:
    return [*listed(data), *thrown(data), *reading(data), *weighed(data)]


def weighed(data: Data) -> list[str]:
    """The declared battle a roll was weighed against when recorded, and what was found:
    a void battle, units other than should be rolling (IAAPA Error Correction II, III)."""
    declared = data.get("declared")
    findings = data.get("findings", [])
    if not declared and not findings:
        return []
    head = (
        f"Weighed against battle #{declared['number']} of entry #{declared['submission']}"
        if declared
        else "Weighed against the pre-combat turn in force"
    )
    if not findings:
        return [f"{head}: the units are those that should be rolling."]
    return [f"{head}:", *map(finding_line, findings)]


class BattleForm(HeaderForm):
    ATTACKING = tuple(FORM_UNITS)
    """The unit boxes of each side, in the order drawn."""
    DEFENDING = (*FORM_UNITS, "AA")
    battle = StringField("Battle territory or sea zone", validators=[DataRequired()])
    options = MultiCheckbox(
        "Options", choices=[SelectChoice(k, f"{k}: {v}") for k, v in OPTIONS.items()]
    )
    bombard_BB = count_field("Bombarding BB")
    defender_AA = count_field("AA gun")

    def payload(self) -> dict[str, Any]:
        sides: dict[str, list[dict[str, int | str]]] = {"attacker": [], "defender": []}
        for side in sides:
            for unit in [*FORM_UNITS, "AA"]:
                field = getattr(self, f"{side}_{unit}", None)
                if field is not None and field.data:
                    sides[side].append({"unit": unit, "count": field.data})
        out = {**self.header(), "battle": self.battle.data, **sides, "options": self.options.data}
        if self.bombard_BB.data:
            out["bombard"] = [{"unit": "BB", "count": self.bombard_BB.data}]
        return out


for _unit in FORM_UNITS:
    setattr(BattleForm, f"attacker_{_unit}", count_field(_unit))
    setattr(BattleForm, f"defender_{_unit}", count_field(_unit))


def describe_low_luck(data: Data) -> list[str]:
    """A Low Luck round: the units, then each volley's power, sure hits and remainder die."""
    hits = data.get("hits", {})
    return [
        *listed(data),
        "Low Luck: each side's power added up, 6 a sure hit, one die for the rest.",
        *volley_lines(data),
        f"Hits: attacker {hits.get('attacker')}, defender {hits.get('defender')}",
        *weighed(data),
    ]


LOW_LUCK = EntryKind(
    name="low-luck-roll",
    headline=headline,
    describe=describe_low_luck,
    rolls=True,
)
"""A battle round of a Low Luck game: written by the same request as a dice round
(``POST .../rolls``, the roller's battle page), thrown by Low Luck."""


KIND = EntryKind(
    name="roll",
    headline=headline,
    describe=describe,
    rolls=True,
    read=read,
    title="Battle round",
    api_path="rolls",
    page="roll",
    endpoint="battle",
    form=BattleForm,
)
