"""``GET /healthz``: the process answers and the database is reachable."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify
from sqlalchemy import text

from dice_server.db import reading
from dice_server.web.context import service_context

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    try:
        with reading(service_context().sessions) as session:
            session.execute(text("SELECT 1"))
    except Exception as exc:
        return jsonify({"status": "unavailable", "error": type(exc).__name__}), 503
    return jsonify({"status": "ok"}), 200
