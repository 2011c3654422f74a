"""Every error a client can cause becomes a clear 4xx answer, never a 500 page."""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from dice_server.errors import ServiceError

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    app.register_error_handler(ServiceError, service_error)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, unexpected_error)


def service_error(exc: ServiceError) -> tuple[Response, int]:
    return jsonify(exc.to_json()), exc.status


def http_error(exc: HTTPException) -> tuple[Response, int]:
    messages = {
        404: (
            "no such address: the API has /api/v1/keys and /api/v1/games/<number>/ followed "
            "by rolls, tech-rolls, bombing-rolls, rocket-rolls, notes or ledger"
        ),
        405: f"method not allowed here; allowed: {', '.join(sorted(exc.valid_methods or []))}"
        if hasattr(exc, "valid_methods")
        else "method not allowed here",
        413: "the request body is too large",
    }
    code = exc.code or 500
    return jsonify({"error": messages.get(code, exc.description or exc.name)}), code


def unexpected_error(exc: Exception) -> tuple[Response, int]:
    log.exception("unexpected error", exc_info=exc)
    return jsonify({"error": "internal error: nothing was written; please report it"}), 500
