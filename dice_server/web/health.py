"""``GET /healthz``: the process answers and the database is reachable."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify
from sqlalchemy import text

from dice_server import services
from dice_server.db import reading

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    try:
        with reading(services().sessions) as session:
            session.execute(text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy
        return jsonify({"status": "unavailable", "error": type(exc).__name__}), 503
    return jsonify({"status": "ok"}), 200
