"""Issue 12, points 2 to 5 and 8: where a page may send a member next, the cookie's flags,
what every response carries, the per-member limit on entries, and the abuse of mail and
accounts (links kept out of logs and the outbox, one link spending all, log-in limits
that never lock the owner out, a limit on link mail per client)."""

from __future__ import annotations

import re
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from dice_server.app import create_app
from dice_server.db import reading
from dice_server.errors import TooManyRequests
from dice_server.mail.delivery import Courier, deliver_due
from dice_server.models import LedgerEntry, OutboxMessage
from dice_server.services import ServiceContext, accounts
from dice_server.services.members import add_member
from dice_server.services.rolls import roll_battle
from dice_server.web.security import safe_next
from tests.conftest import League, battle, follow_link, mailed_text

PASSWORD = "desert-fox-1942"


def csrf(html: str) -> str:
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert match
    return match.group(1)


def login(client: FlaskClient, email: str, password: str = PASSWORD, path: str = "/login") -> Any:
    page = client.get("/login").get_data(as_text=True)
    return client.post(path, data={"csrf_token": csrf(page), "email": email, "password": password})


def from_client(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


@pytest.fixture
def member(ctx: ServiceContext) -> str:
    made = add_member(ctx, "rommel@example.org", "Rommel", confirmed=True)
    accounts.set_password(ctx, "rommel@example.org", PASSWORD)
    return made.email


# Point 2: open redirect.


@pytest.mark.parametrize(
    "target",
    [
        "/%09/evil.example",
        "//evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "https://evil.example/",
        "javascript:alert(1)",
        "/%0d%0aSet-Cookie:x=1",
        "evil.example",
        "/%E2%80%AE/evil.example",
    ],
)
def test_login_never_sends_a_member_off_the_site(app: Flask, member: str, target: str) -> None:
    response = login(app.test_client(), member, path=f"/login?next={target}")
    assert response.status_code == 302
    assert response.headers["Location"] == "/", response.headers["Location"]


def test_login_keeps_a_path_on_this_site(app: Flask, member: str) -> None:
    response = login(app.test_client(), member, path="/login?next=/games/1%3Fpage%3D2")
    assert response.headers["Location"] == "/games/1?page=2"
    assert safe_next("/account") == "/account"
    assert safe_next("/%09/evil.example") == "/%09/evil.example"  # encoded: a path here
    assert safe_next("/\t/evil.example") is None


# Point 4: the session cookie.


def test_the_session_cookie_is_lax_and_http_only(app: Flask, member: str) -> None:
    cookie = login(app.test_client(), member).headers["Set-Cookie"]
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie
    assert "Secure" not in cookie  # BASE_URL is http: the app's own loopback port


def test_the_session_cookie_is_secure_behind_https(instance: Path, database_url: str) -> None:
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(instance),
            "DATABASE_URL": database_url,
            "BASE_URL": "https://dice.league.example",
        }
    )
    ctx: ServiceContext = app.extensions["pbem"]
    add_member(ctx, "rommel@example.org", "Rommel", confirmed=True)
    accounts.set_password(ctx, "rommel@example.org", PASSWORD)
    response = login(app.test_client(), "rommel@example.org")
    assert response.status_code == 302  # served over plain HTTP: no redirect to https
    cookie = response.headers["Set-Cookie"]
    assert "Secure" in cookie and "SameSite=Lax" in cookie
    app.extensions["pbem"].sessions.kw["bind"].dispose()


# Point 5: headers.


@pytest.mark.parametrize(
    "path", ["/login", "/register", "/verify", "/healthz", "/api/v1/keys", "/no-such-page"]
)
def test_every_response_carries_the_security_headers(client: FlaskClient, path: str) -> None:
    headers = client.get(path).headers
    policy = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'none'" in policy
    assert "unsafe-inline" not in policy and "script-src" not in policy  # no script at all
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"


def test_pages_hold_no_inline_style_or_script(client: FlaskClient) -> None:
    for path in ("/login", "/register", "/verify", "/reset", "/dice/register"):
        html = client.get(path).get_data(as_text=True)
        assert "<style" not in html and "<script" not in html and " style=" not in html
    css = client.get("/site.css")
    assert css.status_code == 200 and css.mimetype == "text/css" and b"--accent" in css.data


def test_pages_with_a_secret_are_never_stored(app: Flask, member: str, ctx: ServiceContext) -> None:
    client = app.test_client()
    assert login(client, member).status_code == 302
    assert client.get("/account").headers["Cache-Control"] == "no-store"
    accounts.request_reset(ctx, member)
    link = mailed_text(ctx, r"https?://[^/\s]+(/reset/password\?t=\S+)")
    assert app.test_client().get(link).headers["Cache-Control"] == "no-store"
    assert "no-store" not in client.get("/login").headers.get("Cache-Control", "")


# Point 3: one member cannot flood the outbox.


@pytest.fixture
def tight(app: Flask, ctx: ServiceContext) -> ServiceContext:
    from dataclasses import replace
    from datetime import timedelta

    from dice_server.services import EntryLimit

    limited = replace(ctx, entry_limit=EntryLimit(entries=3, window=timedelta(seconds=60)))
    app.extensions["pbem"] = limited
    return limited


def entries(ctx: ServiceContext) -> int:
    with reading(ctx.sessions) as session:
        return int(session.execute(select(func.count(LedgerEntry.id))).scalar_one())


def test_rolls_per_member_and_game_are_limited(
    tight: ServiceContext, league: League, client: FlaskClient
) -> None:
    path = f"/api/v1/games/{league.game}/rolls"
    for _ in range(3):
        assert client.post(path, json=battle(), headers=league.auth("allies")).status_code == 201
    before = entries(tight)
    refused = client.post(path, json=battle(), headers=league.auth("allies"))
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "wait" in refused.get_json()["error"]
    assert entries(tight) == before  # nothing written
    # The other player of the same game is not held up by his opponent's flood.
    assert client.post(path, json=battle(), headers=league.auth("axis")).status_code == 201


def test_the_limit_is_a_setting(instance: Path, database_url: str) -> None:
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(instance),
            "DATABASE_URL": database_url,
            "ENTRIES_PER_MEMBER_GAME": 7,
            "ENTRIES_WINDOW_SECONDS": 30,
        }
    )
    limit = app.extensions["pbem"].entry_limit
    assert limit.entries == 7 and limit.window.total_seconds() == 30
    app.extensions["pbem"].sessions.kw["bind"].dispose()


# Point 3: account mail first, games in turn, the due queue emptied each run.


class Recorder:
    """A transport that records the order of the messages it is given (a game's entry
    comes as a copy for each player: counted once)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.ids: set[str] = set()

    def send(self, copies: list[Any]) -> str:
        for copy in copies:
            msg = BytesParser(policy=policy.default).parsebytes(copy.raw)
            if str(msg["Message-ID"]) not in self.ids:
                self.ids.add(str(msg["Message-ID"]))
                self.sent.append(str(msg["Subject"]))
        return ""


def test_the_outbox_is_fair_and_emptied_each_run(app: Flask, league: League) -> None:
    from dataclasses import replace

    from dice_server.services.games import create_game

    ctx = league.ctx
    second = create_game(ctx, axis="stranger@example.org", allies="mentor@example.org")
    for _ in range(30):
        roll_battle(ctx, 2, league.game, battle())  # a busy game: 31 messages with its opening
    roll_battle(ctx, 5, second.game_number, battle(battle="Karelia S.S.R."))
    accounts.request_reset(ctx, "axis@example.org")  # a member waiting at a page
    recorder = Recorder()
    courier = replace(
        Courier.from_config(ctx, app.config, Path(app.instance_path)),
        transport=recorder,  # type: ignore[arg-type]
        batch=5,
    )
    report = deliver_due(courier)
    assert len(report.sent) == 34 and len(recorder.sent) == 34  # all of it, in one run
    assert recorder.sent[0].startswith("Reset your password")
    second_game = [i for i, s in enumerate(recorder.sent) if f"[Game {second.game_number}]" in s]
    assert second_game == [2, 4], recorder.sent[:6]  # its turn comes after one of the busy game
    assert deliver_due(courier).sent == []


def test_sent_account_mail_keeps_no_link(app: Flask, league: League) -> None:
    from dataclasses import replace

    ctx = league.ctx
    accounts.request_reset(ctx, "axis@example.org")
    token = mailed_text(ctx, r"/reset/password\?t=(\S+)")
    recorder = Recorder()
    courier = replace(
        Courier.from_config(ctx, app.config, Path(app.instance_path)),
        transport=recorder,  # type: ignore[arg-type]
    )
    assert deliver_due(courier).sent
    with reading(ctx.sessions) as session:
        rows = session.execute(select(OutboxMessage)).scalars().all()
    assert all(row.status == "sent" for row in rows)
    assert not any(row.raw and token.encode() in row.raw for row in rows)
    assert all(row.raw is None for row in rows if row.game_number is None)


# Point 8: one-time links, log-in limits, link mail per client.


def test_using_one_reset_link_spends_the_older_ones(app: Flask, member: str) -> None:
    ctx: ServiceContext = app.extensions["pbem"]
    accounts.request_reset(ctx, member)
    older = mailed_text(ctx, r"https?://[^/\s]+(/reset/password\?t=\S+)")
    accounts.request_reset(ctx, member)
    newer = mailed_text(ctx, r"https?://[^/\s]+(/reset/password\?t=\S+)")
    assert older != newer
    client = app.test_client()
    used = follow_link(client, newer, password="a-new-password", again="a-new-password")
    assert used.status_code == 302
    stale = follow_link(client, older, password="mallory-was-here", again="mallory-was-here")
    assert stale.status_code == 409 and "already used" in stale.get_data(as_text=True)
    assert login(app.test_client(), member, "a-new-password").status_code == 302


def test_a_link_is_spent_only_by_its_form_never_by_opening_it(app: Flask, member: str) -> None:
    ctx: ServiceContext = app.extensions["pbem"]
    accounts.request_reset(ctx, member)
    link = mailed_text(ctx, r"https?://[^/\s]+(/reset/password\?t=\S+)")
    for _ in range(3):  # a mail scanner fetching the link
        assert app.test_client().get(link).status_code == 200
    response = follow_link(
        app.test_client(), link, password="a-new-password", again="a-new-password"
    )
    assert response.status_code == 302


def test_wrong_passwords_from_a_stranger_never_lock_the_owner_out(app: Flask, member: str) -> None:
    attacker = from_client(app, "203.0.113.9")
    for _ in range(5):
        assert login(attacker, member, "wrong-password-1").status_code == 401
    refused = login(attacker, member)  # even the right password, from that client
    assert refused.status_code == 429 and "wait" in refused.get_data(as_text=True)
    assert int(refused.headers["Retry-After"]) > 0
    owner = from_client(app, "198.51.100.7")
    assert login(owner, member).status_code == 302


def test_wrong_passwords_are_limited_per_client_over_all_addresses(
    app: Flask, ctx: ServiceContext
) -> None:
    attacker = from_client(app, "203.0.113.9")
    for n in range(accounts.LOGIN_FAILURES_PER_CLIENT):
        assert login(attacker, f"guess{n}@example.org", "wrong-password-1").status_code == 401
    assert login(attacker, "another@example.org", "wrong-password-1").status_code == 429


def test_link_mail_is_limited_per_client(app: Flask, ctx: ServiceContext) -> None:
    from dice_server.triplea.addresses import LINKS_PER_CLIENT

    client = from_client(app, "203.0.113.9")

    def outbox() -> int:
        with reading(ctx.sessions) as session:
            return int(session.execute(select(func.count(OutboxMessage.id))).scalar_one())

    for n in range(LINKS_PER_CLIENT):
        answer = client.post("/api/register", data={"email": f"stranger{n}@example.org"})
        assert answer.status_code == 200, answer.get_json()
    before = outbox()
    refused = client.post("/api/register", data={"email": "one-more@example.org"})
    assert refused.status_code == 429 and refused.get_json()["status"] == "Error"
    assert outbox() == before
    other = from_client(app, "198.51.100.7")
    assert other.post("/api/register", data={"email": "mine@example.org"}).status_code == 200


def test_registrations_are_limited_per_client(app: Flask, ctx: ServiceContext) -> None:
    """Each registration costs a scrypt hash: one client may not keep the processors busy."""
    for n in range(accounts.REGISTRATIONS_PER_CLIENT):
        accounts.register(ctx, f"new{n}@example.org", "New", "a-long-password", "203.0.113.9")
    with pytest.raises(TooManyRequests) as refused:
        accounts.register(ctx, "one-more@example.org", "New", "a-long-password", "203.0.113.9")
    assert refused.value.retry_after and "wait" in refused.value.message
    accounts.register(ctx, "other@example.org", "New", "a-long-password", "198.51.100.7")
    client = from_client(app, "203.0.113.9")
    page = client.get("/register").get_data(as_text=True)
    answer = client.post(
        "/register",
        data={
            "csrf_token": csrf(page),
            "name": "N",
            "email": "web@example.org",
            "password": PASSWORD,
            "again": PASSWORD,
        },
    )
    assert answer.status_code == 429 and "too many registrations" in answer.get_data(as_text=True)
