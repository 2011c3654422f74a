"""Helpers the page blueprints share."""

from __future__ import annotations

import re
from typing import Any, cast

from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import Field, HiddenField

from dice_server.errors import ServiceError
from dice_server.models import Member

#: What a page view returns: a page, a page with its status, or a redirect.
Page = str | tuple[str, int] | Response


class LinkForm(FlaskForm):
    """The button behind a mailed one-time link: its token rides in the form's body."""

    t = HiddenField()


_INDEXED = re.compile(r"^(attacker|defender|bombard)\[(\d+)\]")


def me() -> Member:
    """The logged-in member (views that call this are behind login_required)."""
    return cast(Member, current_user._get_current_object())


def field_error(form: FlaskForm, exc: ServiceError, payload: dict[str, Any] | None = None) -> None:
    """Show a service's refusal at the field it names, else at the top of the form.

    A unit list's position (``attacker[2].count``) is turned back into the form's field
    for that side and unit, so the message lands beside the box the member filled in.
    Beside its field the message drops the request's name for it (``battle: ...``): the
    page names the field by its label.
    """
    name = exc.field or ""
    match = _INDEXED.match(name)
    if match and payload is not None:
        side, index = match.group(1), int(match.group(2))
        units = payload.get(side, [])
        if index < len(units):
            name = f"{side}_{units[index]['unit']}"
    target = getattr(form, name.split("[")[0].split(".")[0], None) if name else None
    if isinstance(target, Field) and not isinstance(target, HiddenField):
        target.errors = [*target.errors, exc.message.removeprefix(f"{exc.field}: ")]
    else:
        form.form_errors.append(exc.message)
