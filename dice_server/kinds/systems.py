"""The game systems the dice server throws dice for, and what their roll kinds share.

A game is created for one game system (``pbem game create --system``): ``aa-classic``, the
league's Axis & Allies (with its rulesets Classic and Big World 1942), or another system
whose dice the league's members asked for: ``triumph-and-tragedy`` and
``triumph-of-the-will``. A game's ``ruleset`` column holds the ruleset of an Axis & Allies
game or the name of the other system; its genesis records ``"system"`` for another system
(a Classic genesis is unchanged). Only the game's own system's roll kinds are thrown in it.

The other systems' rolls are the rules engine's (:mod:`adjudicator.triumph_will`,
:mod:`adjudicator.triumph_tragedy`): each is read from its JSON request by its
``from_request`` (refusing with the JSON path of the field at fault) and recorded by its
``record(by, draw)``. Their roller pages take the same JSON request in one box, filled in
with an example to edit.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from flask_wtf import FlaskForm
from wtforms import HiddenField, TextAreaField
from wtforms.validators import DataRequired, ValidationError

from adjudicator.battle.reading import CLASSIC_RULESET
from adjudicator.request_fields import RequestFieldError
from adjudicator.triumph_tragedy import TT_SYSTEM
from adjudicator.triumph_will import WILL_SYSTEM
from dice_server.errors import InvalidRequest
from dice_server.jsonbody import read_json
from dice_server.kinds.base import AA_SYSTEM as AA_SYSTEM
from dice_server.kinds.base import Data, EntryKind
from dice_server.requests import field_error, plain_fields

GAME_SYSTEMS = (AA_SYSTEM, TT_SYSTEM, WILL_SYSTEM)
"""Every game system a game may be created for, the default first."""

SYSTEM_NAMES = {
    AA_SYSTEM: "Axis & Allies",
    TT_SYSTEM: "Triumph & Tragedy",
    WILL_SYSTEM: "Triumph of the Will",
}

RULES_NAMES = {
    "classic": "Classic",
    "big_world_1942": "Big World 1942",
    TT_SYSTEM: SYSTEM_NAMES[TT_SYSTEM],
    WILL_SYSTEM: SYSTEM_NAMES[WILL_SYSTEM],
}
"""A game's rules (its ``ruleset`` column) as the pages name them."""


def system_of(ruleset: str) -> str:
    """The game system of a game's ``ruleset`` column."""
    return ruleset if ruleset in (TT_SYSTEM, WILL_SYSTEM) else AA_SYSTEM


def keeps_turns(ruleset: str) -> bool:
    """Whether the service keeps the turns (and the board) of a game of ``ruleset``: a
    Classic game's; in a game of other rules the players keep the board."""
    return ruleset == CLASSIC_RULESET


class SystemRequest(Protocol):
    """A roll of another game system, read from its request."""

    def record(self, by: str, draw: Callable[[int], list[int]]) -> dict[str, Any]: ...


@dataclass(frozen=True)
class SystemRoll:
    """A roll of another game system with the player's comment, which the entry records
    like every roll's (``"comment"``)."""

    request: SystemRequest
    comment: str

    def record(self, by: str, draw: Callable[[int], list[int]]) -> dict[str, Any]:
        data = self.request.record(by, draw)
        if self.comment.strip():
            data["comment"] = self.comment
        return data


def system_reader(
    kind: str, from_request: Callable[[Mapping[str, Any]], SystemRequest]
) -> Callable[[Any], SystemRoll]:
    """The ``read`` of a roll kind of another system: the request must be a JSON object of
    whole numbers, text, lists and objects (its ``"kind"``, when sent to ``.../rolls``, must
    be this one), checked whole by the rules engine, whose refusal names the field."""

    def read(payload: Any) -> SystemRoll:
        fields = dict(plain_fields(payload))
        named = fields.pop("kind", kind)
        if named != kind:
            raise field_error("kind", f"this is a {kind}, not {named!r}")
        try:
            request = from_request(fields)
        except RequestFieldError as exc:
            raise field_error(exc.field, exc.problem) from None
        comment = fields.get("comment", "")
        return SystemRoll(request, comment if isinstance(comment, str) else "")

    return read


def _json_object(_form: FlaskForm, field: TextAreaField) -> None:
    """The box holds one JSON object, read as the API reads a body (its limits on numbers,
    nesting and repeated keys, and its words for what is wrong)."""
    try:
        value = read_json(field.data or "", "the request")
    except InvalidRequest as exc:
        raise ValidationError(exc.message) from None
    if not isinstance(value, dict):
        raise ValidationError("must be one JSON object, {...}")


class SystemRollForm(FlaskForm):
    """A roll of another game system: its JSON request, as the API takes it (the field
    ``request`` is each kind's, filled in with its example: :func:`system_form`)."""

    nonce = HiddenField()
    request: TextAreaField
    #: The kind's example request (the box's text; the API's documented example).
    example: ClassVar[dict[str, Any]] = {}

    def payload(self) -> dict[str, Any]:
        value: dict[str, Any] = read_json(self.request.data, "the request")
        return value


def system_form(example: Mapping[str, Any]) -> type[SystemRollForm]:
    """The roller's form for one kind, its box filled in with ``example``."""
    text = json.dumps(example, indent=2, ensure_ascii=False)

    class Form(SystemRollForm):
        request = TextAreaField(
            "Request (JSON)", default=text, validators=[DataRequired(), _json_object]
        )

    Form.example = dict(example)

    return Form


def system_kind(
    *,
    name: str,
    system: str,
    title: str,
    page: str,
    from_request: Callable[[Mapping[str, Any]], SystemRequest],
    headline: Callable[[Data], str],
    describe: Callable[[Data], list[str]],
    example: Mapping[str, Any],
) -> EntryKind:
    """The registry's entry for a roll kind of another game system."""
    return EntryKind(
        name=name,
        headline=headline,
        describe=describe,
        rolls=True,
        read=system_reader(name, from_request),
        title=title,
        api_path=f"{name}s",
        page=page,
        endpoint=page.replace("-", "_"),
        form=system_form(example),
        system=system,
        template="roller_system.html",
    )
