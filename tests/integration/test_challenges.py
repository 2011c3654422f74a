"""Challenges and bids through the JSON API (issue 17), on a clock the test controls: issue,
accept (the game created with the winning bid applied), decline, cancel, the 14-day expiry,
equal bids drawn by a die the verifier recomputes, simultaneous accepts, and bad input that
creates nothing. The league's rules themselves are cases in
tests/conformance/test_challenges_and_bids.py."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from dice_server.cli import main as cli
from dice_server.db import reading
from dice_server.errors import ServiceError
from dice_server.kinds import describe
from dice_server.models import BidCommitment, Challenge, Game, OutboxMessage
from dice_server.services import ServiceContext
from dice_server.services.challenges import accept_challenge, expire_challenges
from dice_server.services.entries import ApiToken
from dice_server.services.games import end_game
from dice_server.services.keys import published_keys
from dice_server.services.members import add_member
from dice_server.verifier import draw_dice, verify_ledger
from tests.conformance.league_api import on_clock
from tests.conftest import SteppingClock


class Members:
    def __init__(self, ctx: ServiceContext) -> None:
        self.tokens: dict[str, str] = {}
        for who, confirmed in [
            ("anna", True),
            ("boris", True),
            ("carl", True),
            ("unconfirmed", False),
        ]:
            made = add_member(ctx, f"{who}@example.org", who.title(), confirmed=confirmed)
            self.tokens[who] = made.token

    def auth(self, who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[who]}", "Content-Type": "application/json"}


@pytest.fixture
def ctx(app: Flask, clock: SteppingClock) -> ServiceContext:
    return on_clock(app, clock)


@pytest.fixture
def members(ctx: ServiceContext) -> Members:
    return Members(ctx)


def post(client: FlaskClient, members: Members, who: str, path: str, body: Any) -> Any:
    return client.post(f"/api/v1/{path}", data=json.dumps(body), headers=members.auth(who))


def challenge(total: int = 7, details: str = "2 G INF Germany, 1 J IPC", **extra: Any) -> Any:
    return {
        "opponent": "boris@example.org",
        "method": "pbem",
        "agreements": ["no tech"],
        "message": "Good luck!",
        "bid": {"total": total, "details": details},
        **extra,
    }


def issued(client: FlaskClient, members: Members, **extra: Any) -> int:
    got = post(client, members, "anna", "challenges", challenge(**extra))
    assert got.status_code == 201, got.get_json()
    number: int = got.get_json()["id"]
    return number


def accept(
    client: FlaskClient, members: Members, number: int, total: int, details: str = ""
) -> Any:
    body = {"bid": {"total": total, "details": details}, "message": "accepted"}
    return post(client, members, "boris", f"challenges/{number}/accept", body)


def mail_to(ctx: ServiceContext, address: str) -> list[str]:
    """The plain text of every queued non-entry message to ``address``."""
    import email
    from email import policy

    with reading(ctx.sessions) as session:
        rows = session.execute(select(OutboxMessage).order_by(OutboxMessage.id)).scalars().all()
        found = []
        for row in rows:
            if address in json.loads(row.to_addrs) and row.raw is not None:
                msg = email.message_from_bytes(row.raw, policy=policy.default)
                body = msg.get_body(preferencelist=("plain",))  # type: ignore[attr-defined]
                found.append(f"{msg['Subject']}\n{body.get_content()}")
        return found


def count(ctx: ServiceContext, model: Any) -> int:
    with reading(ctx.sessions) as session:
        return int(session.execute(select(func.count()).select_from(model)).scalar_one())


def test_a_challenge_is_issued_and_both_players_are_mailed_the_bid_sealed_from_the_opponent(
    client: FlaskClient, members: Members, ctx: ServiceContext
) -> None:
    got = post(client, members, "anna", "challenges", challenge(variant="Armour attacks at 5"))
    assert got.status_code == 201
    doc = got.get_json()
    assert doc["status"] == "open" and doc["opponent"] == "boris@example.org"
    assert doc["bid"]["total"] == 7 and doc["bid"]["details"] == "2 G INF Germany, 1 J IPC"
    assert doc["bid"]["value"] == 7 and doc["bid"]["findings"] == []
    assert doc["expires_at"] == "2026-12-05 12:00 UTC"  # 14 days after 2026-11-21 12:00
    to_anna, to_boris = mail_to(ctx, "anna@example.org"), mail_to(ctx, "boris@example.org")
    assert len(to_anna) == 1 and len(to_boris) == 1
    assert "2 G INF Germany" in to_anna[0] and "commits you to play" in to_anna[0]
    assert "2 G INF Germany" not in to_boris[0] and "sealed" in to_boris[0]
    assert "not binding" in to_boris[0] and "no tech" in to_boris[0]
    seen = client.get(f"/api/v1/challenges/{doc['id']}", headers=members.auth("boris"))
    assert seen.get_json()["bid"] == "sealed until the challenge is accepted"
    assert (
        client.get(f"/api/v1/challenges/{doc['id']}", headers=members.auth("carl")).status_code
        == 403
    )
    assert count(ctx, BidCommitment) == 1


def test_acceptance_creates_the_game_with_the_lower_bid_applied_before_the_first_ussr_turn(
    client: FlaskClient, members: Members, ctx: ServiceContext
) -> None:
    number = issued(client, members)
    got = accept(client, members, number, 12, "4 J INF Japan")
    assert got.status_code == 201, got.get_json()
    result = got.get_json()
    assert result["axis"] == "anna@example.org" and result["allies"] == "boris@example.org"
    assert result["bid"]["total"] == 7 and result["bid"]["ipcs"] == {"Japan": 1}
    assert result["bid"]["placements"] == {"Germany": {"Germany": {"INF": 2}}}
    assert "draw" not in result
    game = result["game"]
    position = client.get(f"/api/v1/games/{game}/position", headers=members.auth("anna"))
    doc = position.get_json()
    assert doc["turn"] == {"round": 1, "power": "USSR", "phase": "pre-combat"}
    opening = json.loads(CliRunner().invoke(cli, ["position", "initial"]).output)
    assert doc["position"]["banks"]["Japan"] == opening["banks"]["Japan"] + 1
    assert _infantry(doc["position"], "Germany") == _infantry(opening, "Germany") + 2
    assert count(ctx, BidCommitment) == 2
    with reading(ctx.sessions) as session:
        row = session.get_one(Challenge, number)
        assert (row.status, row.game_number) == ("accepted", game)
    genesis = json.loads(result["genesis"]["body"])["data"]
    assert genesis["bids"]["allies"] == {
        "member": "boris@example.org",
        "total": 12,
        "details": "4 J INF Japan",
    }
    told = describe("genesis", genesis)  # the genesis mail's lines, to both players
    assert "Challenge 1: bids anna@example.org 7 IPCs, boris@example.org 12 IPCs" in told
    assert (
        "anna@example.org plays the Axis with the bid of 7 IPCs: 2 INF for Germany in "
        "Germany, 1 IPCs for Japan (placed before the first USSR turn)"
    ) in told
    again = accept(client, members, number, 12, "4 J INF Japan")
    assert again.status_code == 409 and "already accepted" in again.get_json()["error"]


def _infantry(position: dict[str, Any], space: str) -> int:
    found: int = position["units"][space]["Germany"].get("INF", 0)
    return found


def test_equal_bids_are_drawn_by_a_die_both_players_verify_after_the_reveal(
    client: FlaskClient, members: Members, ctx: ServiceContext
) -> None:
    number = issued(client, members, total=3, details="1 G INF Germany")
    got = accept(client, members, number, 3, "1 J INF Japan")
    assert got.status_code == 201
    result = got.get_json()
    die = result["draw"]["dice"][0]
    expected_axis = "anna@example.org" if die <= 3 else "boris@example.org"
    assert result["axis"] == expected_axis
    assert result["bid"]["member"] == expected_axis
    game = result["game"]
    end_game(ctx, game, status="annulled", reason="test")
    ledger = client.get(f"/api/v1/games/{game}/ledger", headers=members.auth("anna")).get_json()
    report = verify_ledger(ledger, published_keys(ctx))
    assert report.ok, report.problems
    assert any("1 of 1 rolls" in line for line in report.checked)
    seed = bytes.fromhex(json.loads(ledger["entries"][-1]["body"])["data"]["seed"])
    assert draw_dice(seed, game, 1, 1) == [die]


def test_the_challenger_cancels_and_the_opponent_declines_and_both_are_told(
    client: FlaskClient, members: Members, ctx: ServiceContext
) -> None:
    first, second = issued(client, members), issued(client, members)
    refused = post(client, members, "boris", f"challenges/{first}/cancel", {})
    assert refused.status_code == 403
    cancelled = post(client, members, "anna", f"challenges/{first}/cancel", {})
    assert cancelled.status_code == 200 and cancelled.get_json()["status"] == "cancelled"
    declined = post(client, members, "boris", f"challenges/{second}/decline", {"message": "busy"})
    assert declined.get_json()["status"] == "declined"
    assert accept(client, members, first, 9).status_code == 409
    assert accept(client, members, second, 9).status_code == 409
    anna = mail_to(ctx, "anna@example.org")
    assert any("cancelled by anna@example.org" in text for text in anna)
    assert any("declined by boris@example.org" in text and "busy" in text for text in anna)
    listing = client.get("/api/v1/challenges", headers=members.auth("anna")).get_json()
    assert [c["status"] for c in listing["sent"]] == ["declined", "cancelled"]
    assert listing["open"] == []


def test_a_challenge_expires_14_days_after_issue(
    client: FlaskClient, members: Members, ctx: ServiceContext, clock: SteppingClock
) -> None:
    number = issued(client, members)
    clock.advance(days=13, hours=23)
    assert expire_challenges(ctx) == []
    clock.advance(hours=1)
    late = accept(client, members, number, 9)
    assert late.status_code == 409 and "expired" in late.get_json()["error"]
    assert expire_challenges(ctx) == [number]
    assert expire_challenges(ctx) == []
    assert any("expired" in text for text in mail_to(ctx, "boris@example.org")[1:])
    assert count(ctx, Game) == 0


def test_two_simultaneous_accepts_create_one_game(
    members: Members, ctx: ServiceContext, client: FlaskClient
) -> None:
    number = issued(client, members)
    outcomes: list[Any] = []
    start = threading.Barrier(2)

    def accept_now() -> None:
        start.wait()
        try:
            body = {"bid": {"total": 9, "details": "3 J INF Japan"}}
            outcomes.append(accept_challenge(ctx, ApiToken(members.tokens["boris"]), number, body))
        except ServiceError as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=accept_now) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    games = [o for o in outcomes if isinstance(o, dict)]
    refusals = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(games) == 1 and len(refusals) == 1 and refusals[0].status == 409
    assert count(ctx, Game) == 1


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        (challenge(opponent="anna@example.org"), "opponent", "yourself"),
        (challenge(opponent="unconfirmed@example.org"), "opponent", "confirmed"),
        (challenge(opponent="nobody@example.org"), "opponent", "nobody@example.org"),
        (challenge(method="gm"), "method", "no longer supported"),
        (challenge(mentor="boris@example.org"), "mentor", "own game"),
        (challenge(total=-3, details="-1 G INF Germany, 1 J IPC"), "bid", "Negative"),
        (challenge(details="2 G DESTROYER Germany"), "bid", "DESTROYER"),
        (challenge(details="2 G INF Karelia"), "bid", "Karelia"),
        (challenge(total=1.5), None, "whole number"),
        (challenge(total=1000), "bid.total", "from -999 to 999"),
        ({"opponent": "boris@example.org"}, "bid", "required"),
    ],
)
def test_bad_challenges_are_refused_naming_the_problem_and_nothing_is_created(
    client: FlaskClient,
    members: Members,
    ctx: ServiceContext,
    body: Any,
    field: str | None,
    words: str,
) -> None:
    got = post(client, members, "anna", "challenges", body)
    assert got.status_code in (400, 404), got.get_json()
    doc = got.get_json()
    assert doc.get("field") == field and words.lower() in doc["error"].lower(), doc
    assert count(ctx, Challenge) == 0 and count(ctx, OutboxMessage) == 0
    assert count(ctx, BidCommitment) == 0


def test_a_refused_bid_lists_each_finding_with_its_rule(
    client: FlaskClient, members: Members
) -> None:
    got = post(client, members, "anna", "challenges", challenge(details="2 G INF Karelia"))
    findings = got.get_json()["bid"]["findings"]
    assert any(f["rule"].startswith("IAAPA Bidding") and f["severity"] == "error" for f in findings)


def test_an_unconfirmed_member_cannot_issue_and_only_the_opponent_accepts(
    client: FlaskClient, members: Members
) -> None:
    refused = post(client, members, "unconfirmed", "challenges", challenge())
    assert refused.status_code == 403
    number = issued(client, members)
    body = {"bid": {"total": 9, "details": ""}}
    assert post(client, members, "carl", f"challenges/{number}/accept", body).status_code == 403
    assert post(client, members, "anna", f"challenges/{number}/accept", body).status_code == 403
    missing = post(client, members, "boris", "challenges/999/accept", body)
    assert missing.status_code == 404


def test_the_bid_check_endpoint_and_the_cli_report_the_same_findings(
    client: FlaskClient, members: Members
) -> None:
    body = {"total": 14, "details": "2 J INF for Manchuria, 1 G TRN in S. Med. SZ"}
    assert client.post("/api/v1/bids/check", data=json.dumps(body)).status_code == 401
    got = client.post("/api/v1/bids/check", data=json.dumps(body), headers=members.auth("anna"))
    assert got.status_code == 200
    doc = got.get_json()
    assert doc["total"] == 14 and doc["value"] == 14
    assert any("S. Med. SZ" in f["message"] for f in doc["findings"])
    ran = CliRunner().invoke(cli, ["bid", "check", body["details"], "--total", "14", "--json"])
    assert ran.exit_code == 1  # an unknown place is an error
    assert json.loads(ran.output) == doc
    plain = CliRunner().invoke(cli, ["bid", "check", "3 G INF Germany", "--total", "9"])
    assert plain.exit_code == 0 and "worth 9" in plain.output


def test_the_same_challenge_sent_twice_with_one_idempotency_key_issues_one(
    client: FlaskClient, members: Members, ctx: ServiceContext
) -> None:
    headers = {**members.auth("anna"), "Idempotency-Key": "challenge-boris-1"}
    body = json.dumps(challenge())
    first = client.post("/api/v1/challenges", data=body, headers=headers)
    again = client.post("/api/v1/challenges", data=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.get_json()["id"] == again.get_json()["id"]
    assert count(ctx, Challenge) == 1 and count(ctx, BidCommitment) == 1
    other = json.dumps(challenge(total=9, details="3 G INF Germany"))
    reused = client.post("/api/v1/challenges", data=other, headers=headers)
    assert reused.status_code == 409 and reused.get_json()["field"] == "Idempotency-Key"
