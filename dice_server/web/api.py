"""The JSON API (bearer tokens, exempt from CSRF). Each view only translates."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from flask_login import current_user

from dice_server.db import reading
from dice_server.errors import Unauthorized
from dice_server.jsonbody import read_json
from dice_server.kinds import BY_API_PATH
from dice_server.ledger import SignedEntry
from dice_server.models import Member
from dice_server.services.battles import current_battles
from dice_server.services.calendar import calendar_token, read_renew
from dice_server.services.challenge_views import challenge_view, my_challenges, open_challenges
from dice_server.services.challenges import (
    accept_challenge,
    bid_check,
    cancel_challenge,
    decline_challenge,
    issue_challenge,
)
from dice_server.services.completion import agree_to_annul, finish
from dice_server.services.entries import ApiToken, Retry
from dice_server.services.games import export_ledger
from dice_server.services.keys import published_keys
from dice_server.services.luck import game_luck, member_luck
from dice_server.services.members import member_by_token
from dice_server.services.odds import battle_odds
from dice_server.services.ratings import ratings_document
from dice_server.services.rolls import write
from dice_server.services.rulings import decide
from dice_server.services.turns import game_position, submit_turn
from dice_server.web.context import service_context
from dice_server.web.openapi import document

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def json_body() -> Any:
    return read_json(request.get_data(cache=False))


def bearer_token() -> ApiToken:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send Authorization: Bearer <your API token>")
    return ApiToken(token.strip())


def authenticated() -> Member:
    """The member a GET is for: the bearer token's, or, without one, the member logged in
    to the pages (so the ledger link on a game page and in every mail opens in a browser)."""
    if not request.headers.get("Authorization") and current_user.is_authenticated:
        member: Member = current_user._get_current_object()
        return member
    token = bearer_token()
    with reading(service_context().sessions) as session:
        return member_by_token(session, token.token)


def created(entry: SignedEntry) -> tuple[Response, int]:
    return jsonify(entry.signed()), 201


def posted() -> tuple[ApiToken, Any, Retry | None]:
    """The bearer token (checked with the write, under the lock), the parsed body and the
    retry key of a POST."""
    token = bearer_token()
    payload = json_body()
    retry = Retry.of(request.headers.get("Idempotency-Key"), "POST", request.path, payload)
    return token, payload, retry


ENTRY_PATHS = ", ".join(f"'{path}'" for path in BY_API_PATH)


@bp.post(f"/games/<int:number>/<any({ENTRY_PATHS}):what>")
def post_entry(number: int, what: str) -> tuple[Response, int]:
    """A roll or a note: the entry kind whose API path is ``what`` (dice_server.kinds)."""
    token, payload, retry = posted()
    return created(write(service_context(), BY_API_PATH[what].name, token, number, payload, retry))


@bp.post("/games/<int:number>/turns")
def post_turn(number: int) -> tuple[Response, int]:
    """A turn email: recorded as a submission, with the engine's report on it."""
    token, payload, retry = posted()
    entry, report = submit_turn(service_context(), token, number, payload, retry)
    return jsonify({"entry": entry.signed(), "report": report}), 201


@bp.post("/games/<int:number>/rulings")
def post_ruling(number: int) -> tuple[Response, int]:
    """A minister's decision on a request (a forfeit request: approve or deny)."""
    token, payload, _retry = posted()
    return created(decide(service_context(), token, number, payload))


@bp.post("/games/<int:number>/finish")
def post_finish(number: int) -> tuple[Response, int]:
    """The finish posted by the victor (by the loser 7 days after the game ended)."""
    token, payload, _retry = posted()
    return created(finish(service_context(), token, number, payload))


@bp.post("/games/<int:number>/annulment")
def post_annulment(number: int) -> tuple[Response, int]:
    """A player's agreement to annul the game; the second one annuls it."""
    token, payload, _retry = posted()
    return created(agree_to_annul(service_context(), token, number, payload))


@bp.get("/games/<int:number>/position")
def get_position(number: int) -> Response:
    return jsonify(game_position(service_context(), number, authenticated()))


@bp.get("/games/<int:number>/battles")
def get_battles(number: int) -> Response:
    return jsonify(current_battles(service_context(), number, authenticated()))


@bp.post("/odds")
def post_odds() -> Response:
    """The exact odds of a battle before it is rolled, for anyone logged in: the body is
    the battle document of `pbem battle odds`, bounded (dice_server.services.odds)."""
    authenticated()
    return jsonify(battle_odds(json_body()))


@bp.get("/games/<int:number>/ledger")
def get_ledger(number: int) -> Response:
    member = authenticated()
    return jsonify(export_ledger(service_context(), number, member))


@bp.get("/games/<int:number>/luck")
def get_luck(number: int) -> Response:
    """Each player's battle dice against the odds (the game's players, mentor, minister)."""
    return jsonify(game_luck(service_context(), number, authenticated()))


@bp.get("/members/me/luck")
def get_my_luck() -> Response:
    """My battle dice against the odds over every game I played."""
    return jsonify(member_luck(service_context(), authenticated()))


@bp.post("/members/me/calendar")
def post_my_calendar() -> Response:
    """My calendar link (the forfeit lines of my games), made on first use; with
    ``{"renew": true}`` a new one, the old link closed."""
    token, payload, _retry = posted()
    renew = read_renew(payload)
    ctx = service_context()
    with reading(ctx.sessions) as session:
        member = member_by_token(session, token.token)
    secret = calendar_token(ctx, member.id, renew=renew)
    return jsonify({"url": url_for("public.calendar", token=secret, _external=True)})


@bp.post("/challenges")
def post_challenge() -> tuple[Response, int]:
    """Issue a challenge with the challenger's bid (IAAPA How to Start a Game)."""
    token, payload, retry = posted()
    return jsonify(issue_challenge(service_context(), token, payload, retry)), 201


@bp.get("/challenges")
def get_challenges() -> Response:
    """My challenges (sent and received) and the league's open challenges board."""
    ctx = service_context()
    return jsonify({**my_challenges(ctx, authenticated()), "open": open_challenges(ctx)})


@bp.get("/challenges/<int:challenge_id>")
def get_challenge(challenge_id: int) -> Response:
    return jsonify(challenge_view(service_context(), challenge_id, authenticated()))


@bp.post("/challenges/<int:challenge_id>/accept")
def post_accept(challenge_id: int) -> tuple[Response, int]:
    """Accept with one's own bid: the game is created with the winning bid applied."""
    token, payload, _retry = posted()
    return jsonify(accept_challenge(service_context(), token, challenge_id, payload)), 201


@bp.post("/challenges/<int:challenge_id>/decline")
def post_decline(challenge_id: int) -> Response:
    token, payload, _retry = posted()
    return jsonify(decline_challenge(service_context(), token, challenge_id, payload))


@bp.post("/challenges/<int:challenge_id>/cancel")
def post_cancel(challenge_id: int) -> Response:
    token, payload, _retry = posted()
    return jsonify(cancel_challenge(service_context(), token, challenge_id, payload))


@bp.post("/bids/check")
def post_bid_check() -> Response:
    """A bid read and checked on the Classic opening (records nothing; members only)."""
    authenticated()
    return jsonify(bid_check(json_body()))


@bp.get("/ratings")
def get_ratings() -> Response:
    """The league's rankings: sanctioned games only, Elo (public, names only)."""
    return jsonify(ratings_document(service_context()))


@bp.get("/keys")
def get_keys() -> Response:
    return jsonify(published_keys(service_context()))


@bp.get("/openapi.json")
def get_openapi() -> Response:
    """The OpenAPI description of every JSON endpoint (dice_server.web.openapi)."""
    return jsonify(document())
