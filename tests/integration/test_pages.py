"""The pages through the Flask test client: membership, the roller, the timeline, the
verify page, and every refusal of issue 5 as a clear page with nothing written."""

from __future__ import annotations

import dataclasses
import json
import re
import threading
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from dice_server.db import reading
from dice_server.models import LedgerEntry, Member
from dice_server.services import ServiceContext
from dice_server.services.games import create_game
from dice_server.services.members import add_member
from tests.conftest import SteppingClock, follow_link, mailed_text

PASSWORD = "desert-fox-1942"


def csrf(html: str) -> str:
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert match, "no CSRF token on the page"
    return match.group(1)


def hidden(html: str, name: str) -> str:
    match = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html)
    assert match, f"no hidden {name} on the page"
    return match.group(1)


def alerts(html: str) -> list[str]:
    return re.findall(r'role="alert">([^<]+)<', html)


def mailed_link(ctx: ServiceContext, path: str) -> str:
    return mailed_text(ctx, rf"https?://[^/\s]+(/{path}\?t=\S+)")


def entries(ctx: ServiceContext) -> int:
    with reading(ctx.sessions) as session:
        return int(session.execute(select(func.count(LedgerEntry.id))).scalar_one())


def register(
    client: FlaskClient, email: str = "rommel@example.org", password: str = PASSWORD
) -> Any:
    page = client.get("/register").get_data(as_text=True)
    return client.post(
        "/register",
        data={
            "csrf_token": csrf(page),
            "name": "Erwin",
            "email": email,
            "password": password,
            "again": password,
        },
    )


def login(client: FlaskClient, email: str, password: str = PASSWORD) -> Any:
    page = client.get("/login").get_data(as_text=True)
    return client.post(
        "/login", data={"csrf_token": csrf(page), "email": email, "password": password}
    )


@dataclasses.dataclass
class Table:
    client: FlaskClient
    ctx: ServiceContext
    game: int


@pytest.fixture
def table(app: Flask, ctx: ServiceContext) -> Table:
    """Rommel registered and confirmed through the pages, in a game against Monty."""
    client = app.test_client()
    assert register(client).status_code == 200
    assert follow_link(client, mailed_link(ctx, "confirm")).status_code == 302
    add_member(ctx, "monty@example.org", "Monty", confirmed=True)
    game = create_game(ctx, axis="rommel@example.org", allies="monty@example.org")
    return Table(client, ctx, game.game_number)


def roll_form(table: Table, **fields: str) -> dict[str, str]:
    page = table.client.get(f"/games/{table.game}/roll").get_data(as_text=True)
    data = {
        "csrf_token": csrf(page),
        "nonce": hidden(page, "nonce"),
        "round": "1",
        "turn": "1",
        "country": "Germany",
        "battle": "Karelia S.S.R.",
        "attacker_INF": "3",
        "attacker_FTR": "2",
        "defender_INF": "4",
        "defender_AA": "1",
    }
    data.update(fields)
    return data


def test_register_confirm_roll_and_read_the_timeline(table: Table) -> None:
    client = table.client
    page = client.get(f"/games/{table.game}/roll").get_data(as_text=True)
    # IAAPA: "When you choose the Game Number, both your and your opponent's addresses
    # are displayed."
    assert "rommel@example.org" in page and "monty@example.org" in page
    response = client.post(f"/games/{table.game}/roll", data=roll_form(table, comment="G1"))
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{table.game}/entries/2"
    entry_page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Dice in the order thrown:" in entry_page
    assert "Defender AA at FTR x2 (hit on 1 or less)" in entry_page
    timeline = client.get(f"/games/{table.game}").get_data(as_text=True)
    assert 'id="entry-1"' in timeline and 'id="entry-2"' in timeline
    assert "Germany: Karelia S.S.R. round 1" in timeline
    assert "pending" in timeline  # the state of each entry's mail
    signed = client.get(f"/games/{table.game}/entries/2.json").get_json()
    verify_page = client.get("/verify").get_data(as_text=True)
    result = client.post(
        "/verify", data={"csrf_token": csrf(verify_page), "pasted": json.dumps(signed)}
    )
    text = result.get_data(as_text=True)
    assert result.status_code == 200 and "Ed25519 signature with key" in text
    assert "Everything checked holds" in text


def test_each_roll_form_writes_its_kind(table: Table) -> None:
    client = table.client
    for what, fields, kind in [
        ("tech", {"dice": "3"}, "tech-roll"),
        ("bombing", {"target": "United Kingdom", "bombers": "2", "aa": "y"}, "bombing-roll"),
        ("rocket", {"target": "United Kingdom", "launcher": "West Europe"}, "rocket-roll"),
        ("note", {"topic": "special-orders", "text": "OOL: INF, ARM"}, "note"),
    ]:
        page = client.get(f"/games/{table.game}/{what}").get_data(as_text=True)
        data = {
            "csrf_token": csrf(page),
            "nonce": hidden(page, "nonce"),
            "round": "1",
            "turn": "1",
            "country": "Germany",
            **fields,
        }
        response = client.post(f"/games/{table.game}/{what}", data=data)
        assert response.status_code == 302, alerts(response.get_data(as_text=True))
        seq = int(response.headers["Location"].rsplit("/", 1)[1])
        signed = client.get(f"/games/{table.game}/entries/{seq}.json").get_json()
        assert json.loads(signed["body"])["kind"] == kind


def test_a_special_orders_note_shows_as_written_then_as_read(table: Table) -> None:
    """A note's text is shown line by line as written (it was one run of words, though the
    reading below it names lines), then the rules engine's reading of it."""
    client = table.client
    form = client.get(f"/games/{table.game}/note").get_data(as_text=True)
    text = "Monty,\n\nKarelia: 2 inf, arm\nSea battles: SUB, TRN\n"
    sent = client.post(
        f"/games/{table.game}/note",
        data={
            "csrf_token": csrf(form),
            "nonce": hidden(form, "nonce"),
            "topic": "special-orders",
            "text": text,
        },
    )
    assert sent.status_code == 302, alerts(sent.get_data(as_text=True))
    page = client.get(f"/games/{table.game}").get_data(as_text=True)
    note = re.search(r'<pre class="note">(.*?)</pre>\s*<p class="reading">(.*?)</p>', page, re.S)
    assert note is not None
    assert note.group(1) == "Monty,\n\nKarelia: 2 inf, arm\nSea battles: SUB, TRN"
    reading = note.group(2).split("<br>")
    assert reading[:2] == [
        "Read by the rules engine as (the battles apply it so):",
        "Orders of loss:",
    ]
    assert "  line 3: Karelia S.S.R.: 2 INF, ARM" in reading


def test_a_replayed_post_shows_the_first_result(table: Table) -> None:
    data = roll_form(table)
    first = table.client.post(f"/games/{table.game}/roll", data=data)
    second = table.client.post(f"/games/{table.game}/roll", data=data)
    assert first.headers["Location"] == second.headers["Location"]
    assert entries(table.ctx) == 2


def test_two_concurrent_posts_of_one_form_roll_once(app: Flask, table: Table) -> None:
    data = roll_form(table)
    cookie = table.client.get_cookie("session")
    assert cookie is not None
    results: list[str] = []
    start = threading.Barrier(2)

    def post() -> None:
        client = app.test_client()
        client.set_cookie("session", cookie.value)
        start.wait()
        response = client.post(f"/games/{table.game}/roll", data=data)
        results.append(response.headers.get("Location", str(response.status_code)))

    threads = [threading.Thread(target=post) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results == [f"/games/{table.game}/entries/2"] * 2
    assert entries(table.ctx) == 2


@pytest.mark.parametrize("nonce", ["", "forged.0123456789abcdef0123456789abcdef"])
def test_a_post_without_a_valid_nonce_is_refused(table: Table, nonce: str) -> None:
    response = table.client.post(f"/games/{table.game}/roll", data=roll_form(table, nonce=nonce))
    assert response.status_code == 400
    assert any("reload the page" in a for a in alerts(response.get_data(as_text=True)))
    assert entries(table.ctx) == 1


def test_a_nonce_reused_for_another_roll_is_refused(table: Table) -> None:
    data = roll_form(table)
    assert table.client.post(f"/games/{table.game}/roll", data=data).status_code == 302
    other = {**data, "attacker_INF": "5"}
    response = table.client.post(f"/games/{table.game}/roll", data=other)
    assert response.status_code == 409
    assert entries(table.ctx) == 2


def test_csrf_is_required_on_every_form(table: Table) -> None:
    data = roll_form(table)
    data["csrf_token"] = "not-the-token"
    response = table.client.post(f"/games/{table.game}/roll", data=data)
    assert response.status_code == 400
    assert "The form has expired" in response.get_data(as_text=True)
    assert entries(table.ctx) == 1
    assert table.client.post("/logout", data={}).status_code == 400


def test_form_errors_name_the_field(table: Table) -> None:
    response = table.client.post(
        f"/games/{table.game}/roll",
        data=roll_form(
            table, attacker_INF="0", attacker_FTR="0", defender_INF="0", defender_AA="0"
        ),
    )
    assert response.status_code == 400
    assert "list the attacking units" in response.get_data(as_text=True)
    response = table.client.post(f"/games/{table.game}/roll", data=roll_form(table, battle=""))
    assert any("Battle territory or sea zone" in a for a in alerts(response.get_data(as_text=True)))
    assert entries(table.ctx) == 1


def test_registration_answers_the_same_for_a_members_address(app: Flask, table: Table) -> None:
    """Registration must not tell a stranger who plays here (issue 12, point 8): a known
    address, in any letter case, gets the very page a new one gets; its owner is mailed."""
    known = register(app.test_client(), email="ROMMEL@Example.ORG")
    new = register(app.test_client(), email="guderian@example.org")
    assert known.status_code == new.status_code == 200

    def strip(response: Any) -> str:
        text: str = response.get_data(as_text=True)
        return text.replace("ROMMEL@example.org", "X").replace("guderian@example.org", "X")

    assert strip(known) == strip(new)
    assert "set-cookie" not in {k.lower() for k in known.headers.keys()} - {
        k.lower() for k in new.headers.keys()
    }
    assert "already a member" in mailed_text(table.ctx, r"(You are already a member)")
    with reading(table.ctx.sessions) as session:
        count = session.execute(
            select(func.count(Member.id)).where(Member.email_key == "rommel@example.org")
        )
        assert count.scalar_one() == 1


def test_an_unconfirmed_member_cannot_roll(app: Flask, ctx: ServiceContext) -> None:
    client = app.test_client()
    register(client, email="kesselring@example.org")
    assert login(client, "kesselring@example.org").status_code == 302
    add_member(ctx, "alex@example.org", "Alex", confirmed=True)
    game = create_game(ctx, axis="kesselring@example.org", allies="alex@example.org")
    page = client.get(f"/games/{game.game_number}/roll").get_data(as_text=True)
    data = {
        "csrf_token": csrf(page),
        "nonce": hidden(page, "nonce"),
        "round": "1",
        "turn": "1",
        "country": "Germany",
        "battle": "Libya",
        "attacker_INF": "1",
    }
    response = client.post(f"/games/{game.game_number}/roll", data=data)
    assert response.status_code == 403
    assert "confirm your address" in response.get_data(as_text=True)
    assert entries(ctx) == 1


def test_confirmation_links_expire_and_work_once(
    app: Flask, ctx: ServiceContext, clock: SteppingClock
) -> None:
    app.extensions["pbem"] = dataclasses.replace(ctx, clock=clock)
    register(app.test_client(), email="model@example.org")
    link = mailed_link(ctx, "confirm")
    clock.advance(hours=49)
    response = follow_link(app.test_client(), link)
    assert response.status_code == 409 and "expired" in response.get_data(as_text=True)
    assert follow_link(app.test_client(), "/confirm?t=not-a-token").status_code == 404
    with reading(ctx.sessions) as session:
        member = session.execute(select(Member).where(Member.email == "model@example.org"))
        assert member.scalar_one().confirmed is False


def test_a_wrong_password_is_rate_limited(app: Flask, table: Table) -> None:
    client = app.test_client()
    for _ in range(5):
        response = login(client, "rommel@example.org", "wrong-password-1")
        assert response.status_code == 401
        assert "wrong address or password" in response.get_data(as_text=True)
    response = login(client, "rommel@example.org")  # even the right one, for a while
    assert response.status_code == 429 and "wait" in response.get_data(as_text=True)


def test_password_reset_by_mail(app: Flask, table: Table) -> None:
    client = app.test_client()
    page = client.get("/reset").get_data(as_text=True)
    client.post("/reset", data={"csrf_token": csrf(page), "email": "rommel@example.org"})
    link = mailed_link(table.ctx, "reset/password")
    response = follow_link(client, link, password="a-new-password", again="a-new-password")
    assert response.status_code == 302
    assert login(client, "rommel@example.org", "a-new-password").status_code == 302
    # the form shows, but the link is spent:
    again = follow_link(client, link, password="third-password", again="third-password")
    assert again.status_code == 409


def test_a_game_the_member_does_not_play(app: Flask, table: Table) -> None:
    add_member(table.ctx, "a@example.org", "A", confirmed=True)
    add_member(table.ctx, "b@example.org", "B", confirmed=True)
    other = create_game(table.ctx, axis="a@example.org", allies="b@example.org").game_number
    for path in (f"/games/{other}", f"/games/{other}/roll", f"/games/{other}/note"):
        response = table.client.get(path)
        assert response.status_code == 403
        assert "you do not play in game" in response.get_data(as_text=True)


def test_api_token_and_minister_grant(app: Flask, table: Table) -> None:
    page = table.client.get("/account").get_data(as_text=True)
    response = table.client.post("/account", data={"csrf_token": csrf(page), "action": "token"})
    token = re.search(r'<code id="token">([^<]+)</code>', response.get_data(as_text=True))
    assert token is not None
    api = app.test_client().get(
        f"/api/v1/games/{table.game}/ledger", headers={"Authorization": f"Bearer {token.group(1)}"}
    )
    assert api.status_code == 200
    page = table.client.get("/account").get_data(as_text=True)
    refused = table.client.post(
        "/account", data={"csrf_token": csrf(page), "action": "grant", "email": "monty@example.org"}
    )
    assert "Grant the Minister" not in page  # the form is shown to ministers only
    assert refused.status_code == 403
    assert "only a Minister of Law" in refused.get_data(as_text=True)
    with reading(table.ctx.sessions) as session:
        monty = session.execute(select(Member).where(Member.email == "monty@example.org"))
        assert monty.scalar_one().role == "player"


def test_a_minister_sees_every_game(app: Flask, table: Table) -> None:
    from werkzeug.security import generate_password_hash

    from dice_server.db import writing

    add_member(table.ctx, "law@example.org", "Law", role="minister", confirmed=True)
    with writing(table.ctx.sessions) as session:
        law = session.execute(select(Member).where(Member.email == "law@example.org")).scalar_one()
        law.password_hash = generate_password_hash(PASSWORD, method="scrypt")
    client = app.test_client()
    assert login(client, "law@example.org").status_code == 302
    page = client.get("/").get_data(as_text=True)
    assert "Every game" in page and f'href="/games/{table.game}"' in page
    assert client.get(f"/games/{table.game}").status_code == 200


def test_pages_need_a_login(app: Flask) -> None:
    response = app.test_client().get("/games/1")
    assert response.status_code == 302 and "/login" in response.headers["Location"]
    assert app.test_client().get("/").status_code == 200


def test_throttle_window_resets(ctx: ServiceContext) -> None:
    from dice_server.db import writing
    from dice_server.services.throttle import take

    now = ctx.clock()
    with writing(ctx.sessions) as session:
        assert [take(session, "k", 2, timedelta(minutes=1), now) for _ in range(3)] == [
            True,
            True,
            False,
        ]
        assert take(session, "k", 2, timedelta(minutes=1), now + timedelta(minutes=2))


def test_a_confirmation_link_works_once(app: Flask, ctx: ServiceContext) -> None:
    register(app.test_client(), email="model@example.org")
    link = mailed_link(ctx, "confirm")
    assert app.test_client().get(link).status_code == 200  # opening it changes nothing
    assert follow_link(app.test_client(), link).status_code == 302
    again = follow_link(app.test_client(), link)
    assert again.status_code == 409 and "already used" in again.get_data(as_text=True)


def test_verify_an_uploaded_ledger_and_a_tampered_one(app: Flask, table: Table) -> None:
    import io

    from dice_server.services.games import export_ledger

    table.client.post(f"/games/{table.game}/roll", data=roll_form(table))
    ledger = export_ledger(table.ctx, table.game, None)
    client = app.test_client()  # anyone may verify, logged in or not
    page = client.get("/verify").get_data(as_text=True)
    upload = (io.BytesIO(json.dumps(ledger).encode()), "ledger.json")
    result = client.post(
        "/verify",
        data={"csrf_token": csrf(page), "upload": upload},
        content_type="multipart/form-data",
    )
    text = result.get_data(as_text=True)
    assert "Everything checked holds" in text and "2 entries: signatures" in text
    ledger["entries"][1]["body"] = ledger["entries"][1]["body"].replace('"round":1', '"round":2')
    result = client.post("/verify", data={"csrf_token": csrf(page), "pasted": json.dumps(ledger)})
    text = result.get_data(as_text=True)
    assert "Problems found" in text and "entry 2: signature does not verify" in text
    # A check that failed for one entry is never ticked beside its problem (issue 13, 8).
    ticked = re.findall(r"<li>✔ ([^<]*)</li>", text)
    assert ticked and not any("signatures" in line for line in ticked), ticked
    assert any("prev chain" in line for line in ticked)
    result = client.post("/verify", data={"csrf_token": csrf(page), "pasted": "{not json"})
    assert result.status_code == 400 and "that is not JSON" in result.get_data(as_text=True)
