"""Public downloads: the standalone verifier players run on their own machines."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response

from dice_server import verifier

bp = Blueprint("public", __name__)


@bp.get("/verifier.py")
def download_verifier() -> Response:
    """The very file the server's own ledger code imports its encoding and dice from."""
    source = Path(verifier.__file__).read_bytes()
    return Response(
        source,
        mimetype="text/x-python",
        headers={"Content-Disposition": 'attachment; filename="verifier.py"'},
    )
