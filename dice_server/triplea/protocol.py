"""TripleA clients' dice server protocols. Both answer at the server root, because a
client keeps only the scheme, host and port of its Dice Server URI.

Legacy (clients up to 2.7): ``POST /MARTI.php``, form fields ``numdice``, ``numsides``,
``subject`` ("<game>:<annotation>"), ``roller`` (To) and ``gm`` (Cc), several addresses
separated by spaces. The client ignores the status and reads the body with
``fatal error:(.*)!`` (one line) and ``your dice are:\\s*((?:\\d+(?:,\\d+)*)?)\\s*<p>``.

Current (clients from 2026-06): ``POST /api/roll``, form or JSON fields ``times``, ``max``,
``email1`` (To), ``email2`` (Cc). ``{"status": "OK", "result": {"dice", "signature",
"date"}}`` (with ``seq``, ``table`` and ``verify``, which the client ignores) or
``{"status": "Error", "errors": [...]}`` for every failure.

Messages never echo the subject: a game named ``fatal error: x!`` cannot turn a success
into an error. This module only translates; rolling is ``services.tables``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, timedelta
from functools import wraps
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from dice_server.errors import InvalidRequest, ServiceError
from dice_server.jsonbody import read_json, shown
from dice_server.triplea import addresses, tables
from dice_server.verifier import parse_time
from dice_server.web.context import service_context

bp = Blueprint("triplea", __name__)
#: The fields of ``/api/roll`` and ``/api/register``; a JSON body's other fields are ignored.
CURRENT_FIELDS = ("times", "max", "email1", "email2", "email")


def limits() -> tables.Limits:
    config = current_app.config
    return tables.Limits(
        per_address=int(config["TRIPLEA_ROLLS_PER_ADDRESS"]),
        per_client=int(config["TRIPLEA_ROLLS_PER_CLIENT"]),
        window=timedelta(seconds=float(config["TRIPLEA_WINDOW_SECONDS"])),
    )


def one_line(message: str) -> str:
    """Safe inside ``fatal error: ...!``: one line, no ``!`` before the final one."""
    return " ".join(message.replace("!", ".").split())


def _failure(exc: Exception) -> tuple[str, int]:
    if isinstance(exc, ServiceError):
        return exc.message, exc.status
    if isinstance(exc, HTTPException):
        reasons = {413: "the request is too large", 405: "use POST"}
        return reasons.get(exc.code or 500, exc.name), exc.code or 500
    current_app.logger.exception("TripleA roll failed", exc_info=exc)
    return "internal error: nothing was rolled; try again", 500


def legacy_answers(view: Callable[[], str]) -> Callable[[], Response]:
    @wraps(view)
    def wrapper() -> Response:
        try:
            text = view()
        except Exception as exc:  # every failure is answered in the protocol
            message, _ = _failure(exc)
            text = f"fatal error: {one_line(message)}!"
        return Response(text, status=200, mimetype="text/html")

    return wrapper


def current_answers(view: Callable[[], dict[str, Any]]) -> Callable[[], tuple[Response, int]]:
    @wraps(view)
    def wrapper() -> tuple[Response, int]:
        try:
            return jsonify({"status": "OK", "result": view()}), 200
        except Exception as exc:  # every failure is answered in the protocol
            message, status = _failure(exc)
            return jsonify({"status": "Error", "errors": [message]}), status

    return wrapper


def _split(value: str) -> list[str]:
    return [part for part in value.split() if part]


@bp.post("/MARTI.php")
@legacy_answers
def marti() -> str:
    form = request.form
    request_ = tables.check_roll(
        "legacy",
        form.get("numdice", ""),
        form.get("numsides", ""),
        _split(form.get("roller", "")),
        _split(form.get("gm", "")),
        form.get("subject", ""),
    )
    rolled = tables.roll(service_context(), request_, request.remote_addr or "?", limits())
    dice = ",".join(str(d) for d in rolled.dice)
    url = service_context().mail.link("tables.table", public_id=rolled.table.public_id)
    return f"your dice are: {dice}<p><p>roll #{rolled.entry.seq} of {url}"


def _fields() -> dict[str, str]:
    """The current protocol's fields, from a form or a JSON object. A JSON field may be a
    string or a whole number; null counts as absent (a client without a Cc sends one)."""
    if not request.is_json:
        return dict(request.form)
    body = read_json(request.get_data(cache=False))
    if not isinstance(body, dict):
        raise InvalidRequest(f"the request body must be a JSON object, not {shown(body)}")
    fields = {}
    for name in CURRENT_FIELDS:
        value = body.get(name)
        if type(value) is int or type(value) is str:
            fields[name] = str(value)
        elif value is not None:
            raise InvalidRequest(f"{name} must be text or a whole number, not {shown(value)}", name)
    return fields


@bp.post("/api/roll")
@current_answers
def api_roll() -> dict[str, Any]:
    fields = _fields()
    cc = [fields["email2"]] if fields.get("email2", "").strip() else []
    to = [fields["email1"]] if fields.get("email1", "").strip() else []
    request_ = tables.check_roll(
        "current", fields.get("times", ""), fields.get("max", ""), to, cc, ""
    )
    rolled = tables.roll(service_context(), request_, request.remote_addr or "?", limits())
    at = parse_time(rolled.entry.at).replace(tzinfo=UTC)
    return {
        "dice": rolled.dice,
        "signature": rolled.entry.sig,
        "date": int(at.timestamp() * 1000),
        "seq": rolled.entry.seq,
        "table": rolled.table.id,
        "verify": service_context().mail.link("tables.table", public_id=rolled.table.public_id),
    }


@bp.post("/api/register")
@current_answers
def api_register() -> dict[str, Any]:
    email = _fields().get("email", "")
    addresses.request_link(service_context(), email, "register", request.remote_addr or "unknown")
    return {"message": "a confirmation link was mailed: open it to receive dice"}
