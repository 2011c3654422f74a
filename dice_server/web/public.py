"""Public pages and downloads: the league's rankings, the standalone verifier players run on
their own machines, the pages' stylesheet, and each member's calendar feed (opened by its
secret link, not by a login: calendar programs cannot log in)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, render_template

from dice_server import verifier
from dice_server.config import TEMPLATES_DIR

bp = Blueprint("public", __name__)


@bp.get("/ratings")
def ratings() -> str:
    """The rankings, with the formula that makes them (public: names only)."""
    from dice_server.services.ratings import FORMULA, rankings
    from dice_server.web.context import service_context

    return render_template("ratings.html", ranked=rankings(service_context()), formula=FORMULA)


@bp.get("/verifier.py")
def download_verifier() -> Response:
    """The very file the server's own ledger code imports its encoding and dice from."""
    source = Path(verifier.__file__).read_bytes()
    return Response(
        source,
        mimetype="text/x-python",
        headers={"Content-Disposition": 'attachment; filename="verifier.py"'},
    )


@bp.get("/calendar/<token>.ics")
def calendar(token: str) -> Response:
    """The forfeit lines of the member's active games as an iCalendar feed."""
    from dice_server.services.calendar import member_calendar
    from dice_server.web.context import service_context

    return Response(
        member_calendar(service_context(), token),
        mimetype="text/calendar",
        headers={
            "Content-Disposition": 'inline; filename="pbem-games.ics"',
            "Cache-Control": "private, max-age=300",
        },
    )


@bp.get("/site.css")
def stylesheet() -> Response:
    """The pages' stylesheet, a file of its own so the Content-Security-Policy needs no
    inline style."""
    return Response(
        (TEMPLATES_DIR / "site.css").read_bytes(),
        mimetype="text/css",
        headers={"Cache-Control": "public, max-age=3600"},
    )
