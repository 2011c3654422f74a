"""The odds calculator page: a battle's exact chances before it is rolled, asked of the same
service as the JSON API (:func:`dice_server.services.odds.battle_odds`), with each side's
likeliest survivors and the battle's length drawn on the server (SVG, no script).

The form asks by either ruleset the engine knows: Classic (the league's, the default) or Big
World 1942 (TripleA's ``big_world_1942.xml``, :mod:`adjudicator.bigworld`), whose artillery,
destroyers and cruisers have boxes of their own. The engine refuses what a ruleset lacks (a
Classic battle with artillery, Low Luck with Big World), beside the box at fault.

``/odds?game=N&battle=K`` fills the form in from a battle declared in game N's current turn
(the game page links it beside each battle), for those who may read that game's battles: a
league game is Classic, so the form is filled in as a Classic battle."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, render_template, request
from flask_login import login_required
from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, RadioField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, NumberRange, Optional

from adjudicator.battle.reading import CLASSIC_RULESET, RULESET
from dice_server.errors import InvalidRequest, ServiceError
from dice_server.kinds.forms import count_field
from dice_server.services.odds import battle_odds, declared_battle_document
from dice_server.web.context import service_context
from dice_server.web.pages import Page, field_error, me

bp = Blueprint("odds", __name__)

UNITS = ("INF", "ARM", "FTR", "BMB", "SUB", "TRN", "AC", "BB")
"""The units either side may bring in either ruleset, in the roller's order; the defender
may add an AA gun."""
DEFENDER_UNITS = (*UNITS, "AA")
BIG_WORLD_UNITS = ("ART", "DD", "CA")
"""The units only Big World 1942 has (artillery, destroyers, cruisers): boxes of their own
on both sides."""
SIDES = ("attacker", "defender")
BIG_WORLD_NAME = "Big World 1942 (TripleA)"
NO_RETREAT, AT_MOST, AFTER_ROUND = "none", "at_most", "after_round"


class OddsForm(FlaskForm):
    """The battle whose odds are asked; :meth:`document` is the request the service reads."""

    ruleset = RadioField(
        "Rules",
        choices=[
            SelectChoice(CLASSIC_RULESET, "Classic"),
            SelectChoice(RULESET, BIG_WORLD_NAME),
        ],
        default=CLASSIC_RULESET,
    )
    kind = RadioField(
        "Battle", choices=[SelectChoice("land", "Land"), SelectChoice("sea", "Sea")], default="land"
    )
    amphibious = BooleanField(
        "Amphibious assault (no retreat; the attacker's BB give support shots, in Big World "
        "they bombard)"
    )
    attacker_order = StringField(
        "Attacker's order of loss", validators=[Optional(), Length(max=200)]
    )
    defender_order = StringField(
        "Defender's order of loss", validators=[Optional(), Length(max=200)]
    )
    retreat = RadioField(
        "The attacker",
        choices=[
            SelectChoice(NO_RETREAT, "fights to the end"),
            SelectChoice(AT_MOST, "retreats when he has N units or fewer left"),
            SelectChoice(AFTER_ROUND, "retreats after round K"),
        ],
        default=NO_RETREAT,
    )
    retreat_units = IntegerField("N (units left)", validators=[Optional(), NumberRange(0, 999)])
    retreat_round = IntegerField("K (rounds)", validators=[Optional(), NumberRange(1, 999)])
    low_luck = BooleanField("Low Luck (Classic only)")
    defender_AA = count_field("AA")

    @property
    def big_world(self) -> bool:
        """Whether the battle is asked by Big World 1942's rules."""
        return bool(self.ruleset.data == RULESET)

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        valid: bool = super().validate(extra_validators)
        needed = {AT_MOST: self.retreat_units, AFTER_ROUND: self.retreat_round}
        number = needed.get(self.retreat.data or NO_RETREAT)
        if number is not None and number.data is None:
            number.errors = [*number.errors, "give the number this retreat waits for"]
            return False
        return valid

    def document(self) -> dict[str, Any]:
        document: dict[str, Any] = {"version": 1}
        if self.big_world:
            document["ruleset"] = RULESET
        document["kind"] = self.kind.data
        document["amphibious"] = int(bool(self.amphibious.data))
        if self.low_luck.data:
            document["low_luck"] = 1
        for side, units in zip(SIDES, (UNITS, DEFENDER_UNITS), strict=True):
            counts = {unit: self[f"{side}_{unit}"].data for unit in (*units, *BIG_WORLD_UNITS)}
            document[side] = {unit: n for unit, n in counts.items() if n}
        orders = {side: _order(self[f"{side}_order"].data) for side in SIDES}
        if orders := {side: order for side, order in orders.items() if order}:
            document["order_of_loss"] = orders
        if self.retreat.data == AT_MOST:
            document["retreat"] = {"attackers_at_most": self.retreat_units.data}
        elif self.retreat.data == AFTER_ROUND:
            document["retreat"] = {"after_round": self.retreat_round.data}
        return document


for _unit in (*UNITS, *BIG_WORLD_UNITS):
    setattr(OddsForm, f"attacker_{_unit}", count_field(_unit))
    setattr(OddsForm, f"defender_{_unit}", count_field(_unit))


def _order(text: str | None) -> list[str]:
    """An order of loss as written on the form ("INF, ARM FTR"): its units, lost first
    first (the engine reads the names, its aliases and their case)."""
    return [name for name in re.split(r"[\s,;]+", text or "") if name]


def form_data(document: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """What the form shows for a Classic odds request (a declared battle's), and the units
    it has no box for."""
    data: dict[str, Any] = {
        "kind": document.get("kind", "land"),
        "amphibious": bool(document.get("amphibious")),
    }
    left_out = []
    for side, units in zip(SIDES, (UNITS, DEFENDER_UNITS), strict=True):
        for unit, count in document.get(side, {}).items():
            if unit in units:
                data[f"{side}_{unit}"] = count
            else:
                left_out.append(f"{count} {unit} ({side})")
    for side, order in document.get("order_of_loss", {}).items():
        data[f"{side}_order"] = ", ".join(order)
    return data, left_out


def form_field(field: str | None) -> str | None:
    """The form's box for a field of the odds request a refusal names (``attacker.INF``:
    ``attacker_INF``; ``order_of_loss.defender[2]``: ``defender_order``); None or a name
    the form lacks puts the message at the top of the form."""
    if not field:
        return None
    head, _, rest = field.partition(".")
    key = re.split(r"[.\[]", rest)[0]
    if head in SIDES and key:
        return f"{head}_{key.upper()}"
    if head == "order_of_loss" and key in SIDES:
        return f"{key}_order"
    if head == "retreat":
        return {"attackers_at_most": "retreat_units", "after_round": "retreat_round"}.get(
            key, "retreat"
        )
    return head


def box_refusal(form: OddsForm, exc: ServiceError) -> InvalidRequest:
    """The service's refusal ``exc`` for the form's box it names (:func:`form_field`): the
    engine's ``low_luck: ...`` reads ``...`` beside the box, which is labelled; a refusal
    without a box keeps the field it names, at the top of the form."""
    name = form_field(exc.field)
    message = exc.message
    prefix = f"{exc.field}: "
    if name and name in form and message.startswith(prefix):
        message = message.removeprefix(prefix)
    return InvalidRequest(message, name)


# --- the charts --------------------------------------------------------------------------------

CHART_WIDTH = 480
"""SVG user units across every chart (the page scales it to the screen)."""
TOP_SETS = 12
"""Survivor sets drawn one bar each; the rest share one bar."""
TOP_ROUNDS = 12
"""Rounds drawn one bar each at most; later rounds share one bar."""
ROUNDS_SHOWN = 0.999
"""Rounds get a bar each until this much of the battle has ended; later ones share one."""


@dataclass(frozen=True)
class Bar:
    """One bar in SVG user units, with its label, its chance as shown and its tooltip."""

    label: str
    value: str
    title: str
    x: float
    y: float
    width: float
    height: float
    label_x: float
    label_y: float
    value_y: float


@dataclass(frozen=True)
class BarChart:
    """A horizontal bar chart: ``css`` colours it (the side), ``title`` names it."""

    css: str
    title: str
    width: int
    height: int
    bars: list[Bar]
    label_anchor: str


def percent(p: float) -> str:
    """A chance as the page shows it: one decimal, never a misleading 0.0% or 100.0%."""
    if 0 < p < 0.0005:
        return "< 0.1%"
    if 0.9995 <= p < 1:
        return "> 99.9%"
    return f"{p * 100:.1f}%"


def bar_chart(
    css: str, title: str, items: Sequence[tuple[str, float, str]], label_width: int = 0
) -> BarChart:
    """Bars for ``(label, chance, tooltip)`` items, the longest for the likeliest.
    ``label_width`` 0 writes each label on a line of its own above its bar (long labels:
    sets of units), else in a column of that width left of the bars (short ones: rounds)."""
    row, bar_h, pad = (22, 14, 4) if label_width else (40, 14, 4)
    value_w = 64
    left = label_width + 6 if label_width else 0
    span = CHART_WIDTH - left - (value_w if label_width else 0)
    most = max((p for _, p, _ in items), default=0.0) or 1.0
    bars = []
    for i, (label, p, tooltip) in enumerate(items):
        top = pad + i * row
        bar_y = top + (row - bar_h) / 2 if label_width else top + row - bar_h - 4
        text_y = bar_y + bar_h - 3 if label_width else top + 14
        bars.append(
            Bar(
                label=label,
                value=percent(p),
                title=f"{tooltip}: {percent(p)}",
                x=left,
                y=round(bar_y, 1),
                width=round(max(span * p / most, 1.0), 1),
                height=bar_h,
                label_x=label_width if label_width else 0,
                label_y=round(text_y, 1),
                value_y=round(text_y, 1),
            )
        )
    height = 2 * pad + row * len(items)
    return BarChart(css, title, CHART_WIDTH, height, bars, "end" if label_width else "start")


def _units(units: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {unit}" for unit, n in units.items() if n) or "no units"


def survivor_chart(side: str, rows: Sequence[Mapping[str, Any]]) -> BarChart | None:
    """The likeliest sets of units ``side`` wins with (:data:`TOP_SETS` bars and one for
    the rest), or None when it never wins."""
    ranked = sorted(rows, key=lambda r: -float(r["p"]))
    if not ranked:
        return None
    who = side.title()
    items = [
        (_units(r["units"]), float(r["p"]), f"{who} wins with {_units(r['units'])} left")
        for r in ranked[:TOP_SETS]
    ]
    rest = ranked[TOP_SETS:]
    if rest:
        items.append(
            (
                f"other ({len(rest)} more sets)",
                sum(float(r["p"]) for r in rest),
                f"{who} wins with one of {len(rest)} other sets of survivors",
            )
        )
    return bar_chart(side, f"The {side}'s survivors when he wins", items)


def rounds_chart(rounds: Sequence[Mapping[str, Any]]) -> BarChart | None:
    """The chance the battle ends in each round, a bar each until :data:`ROUNDS_SHOWN` of
    it has ended or :data:`TOP_ROUNDS` bars are drawn, and one for the later rounds (a long
    battle's tail is thousands of rounds too unlikely to draw), or None when none is given."""
    ordered = sorted(rounds, key=lambda r: int(r["round"]))
    if not ordered:
        return None
    shown, ended = 0, 0.0
    while shown < min(TOP_ROUNDS, len(ordered)) and (shown == 0 or ended < ROUNDS_SHOWN):
        ended += float(ordered[shown]["p"])
        shown += 1
    if len(ordered) == shown + 1:
        shown += 1  # one more bar rather than a bar for "the last round and later"
    items = [
        (f"Round {r['round']}", float(r["p"]), f"Ends in round {r['round']}")
        for r in ordered[:shown]
    ]
    later = ordered[shown:]
    if later:
        first = int(later[0]["round"])
        items.append(
            (
                f"Round {first}+",
                sum(float(r["p"]) for r in later),
                f"Ends in round {first} or later",
            )
        )
    return bar_chart("rounds", "How many rounds the battle lasts", items, label_width=100)


@dataclass(frozen=True)
class Prefill:
    """The declared battle the form was filled in from."""

    game: int
    battle: int
    name: str
    left_out: list[str]


def _prefill() -> tuple[OddsForm, Prefill | None]:
    """The form, filled in from ``?game=N&battle=K`` when a GET names a declared battle."""
    if request.method != "GET" or not {"game", "battle"} & set(request.args):
        return OddsForm(), None
    number = request.args.get("game", type=int)
    battle = request.args.get("battle", type=int)
    if number is None or battle is None:
        raise InvalidRequest(
            "name the declared battle by its game and number: /odds?game=12&battle=1", "battle"
        )
    document = declared_battle_document(service_context(), number, battle, me())
    data, left_out = form_data(document)
    name = str(document.get("name") or f"#{battle}")
    return OddsForm(data=data), Prefill(number, battle, name, left_out)


@bp.route("/odds", methods=["GET", "POST"])
@login_required
def calculator() -> Page:
    form, prefill = _prefill()
    result: dict[str, Any] | None = None
    status = 200
    if request.method == "POST":
        if form.validate_on_submit():
            try:
                result = battle_odds(form.document())
            except ServiceError as exc:
                field_error(form, box_refusal(form, exc))
                status = exc.status
        else:
            status = 400
    charts = None
    if result is not None:
        survivors = result.get("survivors", {})
        charts = {
            "attacker": survivor_chart("attacker", survivors.get("attacker", [])),
            "defender": survivor_chart("defender", survivors.get("defender", [])),
            "rounds": rounds_chart(result.get("rounds", [])),
        }
    return render_template(
        "odds.html",
        form=form,
        prefill=prefill,
        result=result,
        charts=charts,
        units=UNITS,
        defender_units=DEFENDER_UNITS,
        big_world_units=BIG_WORLD_UNITS,
        big_world_name=BIG_WORLD_NAME,
        percent=percent,
    ), status
