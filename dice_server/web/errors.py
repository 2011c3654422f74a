"""Every error a client can cause becomes a clear 4xx answer, never a 500 page."""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from dice_server.errors import ServiceError
from dice_server.kinds import BY_API_PATH

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    app.before_request(json_only_to_the_api)
    app.register_error_handler(ServiceError, service_error)
    app.register_error_handler(CSRFError, csrf_error)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, unexpected_error)


def wants_json() -> bool:
    """The API and machine endpoints (the JSON downloads among them) answer JSON; pages
    answer a page."""
    path = request.path
    return (
        path.startswith(("/api/", "/healthz")) or path.endswith(".json") or path == "/verifier.py"
    )


def json_only_to_the_api() -> tuple[Response, int] | None:
    """A page's form is a form: a JSON body POSTed to a page (which Flask-WTF would read as
    the form's fields, and fail on anything but an object) is refused before any view."""
    if request.method == "POST" and request.is_json and not wants_json():
        if request.path != "/MARTI.php":
            return page(
                "Unsupported request",
                "This page takes a form, not JSON: the JSON API is under /api/v1.",
                415,
            )
    return None


def page(title: str, message: str, status: int) -> tuple[Response, int]:
    html = render_template("message.html", title=title, message=message)
    return Response(html, status=status, mimetype="text/html"), status


def service_error(exc: ServiceError) -> tuple[Response, int]:
    if wants_json():
        response = jsonify(exc.to_json())
    else:
        response, _ = page("That cannot be done", exc.message, exc.status)
    retry_after = getattr(exc, "retry_after", None)
    if retry_after is not None:
        response.headers["Retry-After"] = str(max(1, int(retry_after)))
    return response, exc.status


def csrf_error(exc: CSRFError) -> tuple[Response, int]:
    return page(
        "The form has expired",
        f"{exc.description} Go back, reload the page and send the form again: nothing was written.",
        400,
    )


def http_error(exc: HTTPException) -> tuple[Response, int]:
    messages = {
        404: (
            "no such address: the API has /api/v1/keys and /api/v1/games/<number>/ followed "
            f"by {', '.join(BY_API_PATH)} or ledger"
        ),
        405: f"method not allowed here; allowed: {', '.join(sorted(exc.valid_methods or []))}"
        if hasattr(exc, "valid_methods")
        else "method not allowed here",
        413: "the request body is too large",
    }
    code = exc.code or 500
    if not wants_json():
        return page(exc.name, exc.description or exc.name, code)
    return jsonify({"error": messages.get(code, exc.description or exc.name)}), code


def unexpected_error(exc: Exception) -> tuple[Response, int]:
    log.exception("unexpected error", exc_info=exc)
    message = "internal error: nothing was written; please report it"
    if not wants_json():
        return page("Internal error", message, 500)
    return jsonify({"error": message}), 500
