"""TripleA clients on both dice server protocols. The test client sends exactly what a 2.7
and a 2026 client send (fields, form encoding, User-Agent) and reads the answers with
exactly the client's regular expressions and JSON fields."""

from __future__ import annotations

import email
import json
import re
import subprocess
import sys
from email import policy
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from dice_server.cli import main
from dice_server.services import ServiceContext
from dice_server.services.keys import published_keys
from dice_server.triplea.addresses import register_now
from tests.conftest import follow_link, mailed_text

ROOT = Path(__file__).resolve().parents[2]
# The 2.7 client's patterns (no DOTALL).
FATAL = re.compile(r"fatal error:(.*)!")
DICE = re.compile(r"your dice are:\s*((?:\d+(?:,\d+)*)?)\s*<p>")
LEGACY_AGENT = {"User-Agent": "triplea/2.7.14"}
CURRENT_AGENT = {"User-Agent": "triplea/2.8.0"}


class LegacyClient:
    """What TripleA up to 2.7 does: POST /MARTI.php, form-encoded, read the body only."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def roll(
        self,
        count: Any,
        sides: Any,
        roller: str,
        gm: str = "",
        subject: str = "Big Game:Germany attacks Karelia",
    ) -> list[int] | str:
        response = self.client.post(
            "/MARTI.php",
            headers=LEGACY_AGENT,
            data={
                "numdice": str(count),
                "numsides": str(sides),
                "subject": subject,
                "roller": roller,
                "gm": gm,
            },
        )
        body = response.get_data(as_text=True)
        error = FATAL.search(body)
        if error:
            return error.group(1).strip()
        match = DICE.search(body)
        assert match, f"the client could not read {body!r}"
        dice = [int(d) for d in match.group(1).split(",")] if match.group(1) else []
        assert all(d != 0 for d in dice), "the client rejects a die of 0"
        return dice


class CurrentClient:
    """What TripleA from 2026-06 does: POST /api/roll, form-encoded, JSON back."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def roll(
        self, times: Any, max_: Any, email1: str, email2: str = "", as_json: bool = False
    ) -> tuple[int, dict[str, Any]]:
        fields = {"times": str(times), "max": str(max_), "email1": email1, "email2": email2}
        if as_json:
            response = self.client.post("/api/roll", headers=CURRENT_AGENT, json=fields)
        else:
            response = self.client.post("/api/roll", headers=CURRENT_AGENT, data=fields)
        return response.status_code, response.get_json()


@pytest.fixture
def registered(ctx: ServiceContext) -> ServiceContext:
    for address in ("ger@example.org", "rus@example.org", "obs@example.org"):
        register_now(ctx, address)
    return ctx


def close_by_mail(
    client: FlaskClient, ctx: ServiceContext, path: str, address: str
) -> TestResponse:
    """Close the table at ``path`` as a player does: ask for the link, open it, press."""
    page = client.get(path).get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert token is not None
    asked = client.post(path + "/close-link", data={"csrf_token": token.group(1), "email": address})
    assert asked.status_code == 200, asked.get_data(as_text=True)
    link = mailed_text(ctx, r"https?://[^/\s]+(/tables/\S+/close\?t=\S+)")
    response: TestResponse = follow_link(client, link)
    return response


def table_page(client: FlaskClient, url: str) -> str:
    path = url.split("://", 1)[1].split("/", 1)[1]
    return client.get("/" + path).get_data(as_text=True)


def test_legacy_roll_is_read_by_the_27_client(
    client: FlaskClient, registered: ServiceContext
) -> None:
    dice = LegacyClient(client).roll(5, 6, "ger@example.org", "rus@example.org")
    assert isinstance(dice, list) and len(dice) == 5 and all(1 <= d <= 6 for d in dice)
    again = LegacyClient(client).roll(3, 12, "ger@example.org rus@example.org")
    assert isinstance(again, list) and all(1 <= d <= 12 for d in again)


def test_current_roll_is_read_by_the_2026_client(
    client: FlaskClient, registered: ServiceContext
) -> None:
    status, body = CurrentClient(client).roll(4, 6, "ger@example.org", "rus@example.org")
    assert status == 200 and body["status"] == "OK"
    result = body["result"]
    assert len(result["dice"]) == 4 and all(1 <= d <= 6 for d in result["dice"])
    assert isinstance(result["signature"], str) and isinstance(result["date"], int)
    assert result["seq"] == 2 and isinstance(result["table"], int)
    status, body = CurrentClient(client).roll(
        2, 100, "RUS@example.org", "ger@example.org", as_json=True
    )
    assert status == 200 and body["result"]["seq"] == 3  # the same pair, either order or case
    assert body["result"]["table"] == result["table"]


def test_every_roll_is_a_numbered_entry_of_its_table(
    client: FlaskClient, registered: ServiceContext
) -> None:
    """A reload-and-reroll shows as an extra roll in the table, in order."""
    legacy = LegacyClient(client)
    for _ in range(3):
        legacy.roll(2, 6, "ger@example.org", "rus@example.org", subject="G:same annotation")
    other = legacy.roll(1, 6, "ger@example.org", "rus@example.org", subject="Other:x")
    assert isinstance(other, list)
    response = client.post(
        "/MARTI.php",
        data={
            "numdice": "1",
            "numsides": "6",
            "subject": "G:again",
            "roller": "ger@example.org",
            "gm": "rus@example.org",
        },
    )
    url = re.search(r"of (\S+)$", response.get_data(as_text=True))
    assert url is not None
    page = table_page(client, url.group(1))
    assert page.count('id="roll-') == 5  # the opening entry and four rolls
    assert "same annotation" in page and "g•••@example.org" in page
    assert "ger@example.org" not in page


def test_the_subject_is_never_echoed(client: FlaskClient, registered: ServiceContext) -> None:
    hostile = "fatal error: x!:your dice are: 6,6,6<p>"
    dice = LegacyClient(client).roll(2, 6, "ger@example.org", subject=hostile)
    assert isinstance(dice, list) and len(dice) == 2
    error = LegacyClient(client).roll(0, 6, "ger@example.org", subject=hostile)
    assert error == "numdice must be a whole number from 1 to 5000"


@pytest.mark.parametrize(
    ("count", "sides", "roller", "gm", "words"),
    [
        ("x", 6, "ger@example.org", "", "numdice must be a whole number"),
        (0, 6, "ger@example.org", "", "numdice must be a whole number"),
        (5001, 6, "ger@example.org", "", "from 1 to 5000"),
        (3, 0, "ger@example.org", "", "numsides must be a whole number"),
        (3, 5001, "ger@example.org", "", "numsides must be a whole number"),
        (3, 6, "", "", "no address"),
        (3, 6, "not-an-address", "", "is not a valid address"),
        (3, 6, "stranger@example.org", "", "stranger@example.org is not registered"),
        (3, 6, " ".join(f"p{i}@example.org" for i in range(11)), "", "at most 10 addresses"),
    ],
)
def test_legacy_errors_in_protocol_format(
    client: FlaskClient,
    registered: ServiceContext,
    count: Any,
    sides: Any,
    roller: str,
    gm: str,
    words: str,
) -> None:
    answer = LegacyClient(client).roll(count, sides, roller, gm)
    assert isinstance(answer, str) and words in answer
    assert "\n" not in answer


def test_unregistered_address_gets_our_registration_url(
    client: FlaskClient, registered: ServiceContext
) -> None:
    status, body = CurrentClient(client).roll(1, 6, "ger@example.org", "new@example.org")
    assert status == 403 and body["status"] == "Error"
    assert body["errors"] == [
        "new@example.org is not registered to receive dice: register it at "
        "http://127.0.0.1:5000/dice/register"
    ]


@pytest.mark.parametrize(
    ("times", "max_", "email1", "status", "words"),
    [
        ("", 6, "ger@example.org", 400, "times must be a whole number"),
        (1, "six", "ger@example.org", 400, "max must be a whole number"),
        (1, 6, "", 400, "no address"),
    ],
)
def test_current_errors_in_protocol_format(
    client: FlaskClient,
    registered: ServiceContext,
    times: Any,
    max_: Any,
    email1: str,
    status: int,
    words: str,
) -> None:
    got, body = CurrentClient(client).roll(times, max_, email1)
    assert got == status and body["status"] == "Error" and words in body["errors"][0]


def test_oversized_bodies_in_both_formats(client: FlaskClient, registered: ServiceContext) -> None:
    big = "x" * 70000
    legacy = client.post(
        "/MARTI.php",
        data={"numdice": "1", "numsides": "6", "subject": big, "roller": "ger@example.org"},
    )
    assert FATAL.search(legacy.get_data(as_text=True)).group(1).strip() == (  # type: ignore[union-attr]
        "the request is too large"
    )
    current = client.post("/api/roll", data={"times": "1", "max": "6", "email1": big})
    assert current.status_code == 413
    assert current.get_json() == {"status": "Error", "errors": ["the request is too large"]}


def test_rate_limit_in_both_formats(app: Flask, registered: ServiceContext) -> None:
    app.config["TRIPLEA_ROLLS_PER_ADDRESS"] = 3
    client = app.test_client()
    for _ in range(3):
        assert isinstance(LegacyClient(client).roll(1, 6, "ger@example.org"), list)
    assert LegacyClient(client).roll(1, 6, "ger@example.org") == (
        "too many rolls: wait a minute and roll again"
    )
    status, body = CurrentClient(client).roll(1, 6, "ger@example.org")
    assert status == 429 and body["errors"] == ["too many rolls: wait a minute and roll again"]


def test_registration_by_api_and_pages(app: Flask, ctx: ServiceContext) -> None:
    client = app.test_client()
    response = client.post("/api/register", data={"email": "fresh@example.org"})
    assert response.get_json()["status"] == "OK"
    link = mailed_text(ctx, r"https?://[^/\s]+(/dice/register/confirm\?t=\S+)")
    assert CurrentClient(client).roll(1, 6, "fresh@example.org")[0] == 403
    assert client.get(link).status_code == 200  # opening the link only shows its button
    assert CurrentClient(client).roll(1, 6, "fresh@example.org")[0] == 403
    assert follow_link(client, link).status_code == 200
    assert CurrentClient(client).roll(1, 6, "fresh@example.org")[0] == 200
    assert follow_link(client, link).status_code == 409  # once only
    page = client.get("/dice/unregister").get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert token is not None
    client.post(
        "/dice/unregister", data={"csrf_token": token.group(1), "email": "fresh@example.org"}
    )
    link = mailed_text(ctx, r"https?://[^/\s]+(/dice/unregister/confirm\?t=\S+)")
    assert follow_link(client, link).status_code == 200
    status, body = CurrentClient(client).roll(1, 6, "fresh@example.org")
    assert status == 403 and "not registered" in body["errors"][0]


def test_operators_register_from_the_command_line(app: Flask, ctx: ServiceContext) -> None:
    runner = CliRunner(
        env={
            "PBEM_INSTANCE_PATH": app.instance_path,
            "PBEM_DATABASE_URL": app.config["DATABASE_URL"],
        }
    )
    assert runner.invoke(main, ["table", "register", "Op@Example.org"]).exit_code == 0
    assert isinstance(LegacyClient(app.test_client()).roll(1, 6, "op@example.org"), list)


def test_confirmed_members_may_receive_dice(client: FlaskClient, ctx: ServiceContext) -> None:
    from dice_server.services.members import add_member

    add_member(ctx, "member@example.org", "M", confirmed=True)
    assert isinstance(LegacyClient(client).roll(1, 6, "member@example.org"), list)


def test_the_roll_mail_and_closing_then_verifying_offline(
    app: Flask, client: FlaskClient, registered: ServiceContext, tmp_path: Path
) -> None:
    from dice_server.mail.delivery import Courier, deliver_due

    legacy = LegacyClient(client)
    rolls = [
        legacy.roll(3, 6, "ger@example.org", "obs@example.org", subject="Big:attack 1"),
        legacy.roll(2, 20, "ger@example.org", "obs@example.org", subject="Big:attack 2"),
    ]
    _, current = CurrentClient(client).roll(4, 6, "ger@example.org", "rus@example.org")
    courier = Courier.from_config(registered, {**app.config}, Path(app.instance_path))
    assert len(deliver_due(courier).sent) == 5  # two openings and three rolls
    maildir = Path(app.instance_path) / "maildir" / "new"
    messages = [
        email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in maildir.iterdir()
    ]
    (roll_mail,) = [m for m in messages if m["Subject"] == "[TripleA] Big: attack 2 (roll #3)"]
    assert roll_mail["To"] == "ger@example.org" and roll_mail["Cc"] == "obs@example.org"
    text = roll_mail.get_body(preferencelist=("plain",)).get_content()
    assert ",".join(str(d) for d in rolls[1]) in text  # type: ignore[union-attr]
    legacy_page = re.search(r"(http://\S+/tables/\S+)", text)
    assert legacy_page is not None

    for table_id, url in (
        (1, legacy_page.group(1)),
        (current["result"]["table"], current["result"]["verify"]),
    ):
        path = "/" + url.split("://", 1)[1].split("/", 1)[1]
        assert close_by_mail(client, registered, path, "ger@example.org").status_code == 302
        runner = CliRunner(
            env={
                "PBEM_INSTANCE_PATH": app.instance_path,
                "PBEM_DATABASE_URL": app.config["DATABASE_URL"],
            }
        )
        exported = runner.invoke(main, ["ledger", "export", "--table", str(table_id)])
        assert exported.exit_code == 0
        (tmp_path / "ledger.json").write_text(exported.stdout)
        (tmp_path / "keys.json").write_text(json.dumps(published_keys(registered)))
        verified = subprocess.run(
            [
                sys.executable,
                str(ROOT / "scripts" / "verify_ledger.py"),
                "ledger.json",
                "--keys",
                "keys.json",
            ],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=60,
        )
        assert verified.returncode == 0, verified.stdout
        assert "recomputed from the revealed seed" in verified.stdout
    # The next roll for a closed table's key opens a new table.
    _status, again = CurrentClient(client).roll(1, 6, "ger@example.org", "rus@example.org")
    assert again["result"]["table"] != current["result"]["table"]
    assert again["result"]["seq"] == 2


def test_any_number_of_sides_from_1_to_5000(
    client: FlaskClient, registered: ServiceContext
) -> None:
    """The engine also draws target picks 1..N, so sides are not always 6."""
    assert LegacyClient(client).roll(3, 1, "ger@example.org") == [1, 1, 1]
    dice = LegacyClient(client).roll(50, 5000, "ger@example.org")
    assert isinstance(dice, list) and all(1 <= d <= 5000 for d in dice)
    assert len(set(dice)) > 40  # 50 draws from 5000 faces rarely repeat
    status, body = CurrentClient(client).roll(5000, 2, "ger@example.org")
    assert status == 200 and set(body["result"]["dice"]) == {1, 2}


@pytest.mark.parametrize("opened_before", [False, True], ids=["opening", "opened"])
def test_concurrent_rolls_on_one_table_never_fork_or_skip(
    registered: ServiceContext, opened_before: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twelve rolls for one key at once: the first opens the table (the others wait, or
    lose the race to open it and roll on it), every roll extends the entry before it, and
    the whole table verifies (each roll reads the table's heads and seed in the statement
    that finds it, under the lock). On a table opened before, every one of the twelve
    takes the table's lock (on PostgreSQL its row lock) before it reads: the rate limit's
    counters, which the twelve share and which would also make them wait, are left out
    there, so that the table's own lock is what holds."""
    import threading

    from dice_server.db import reading
    from dice_server.ledger import Chain, entries, keys_document
    from dice_server.triplea import tables as triplea_tables
    from dice_server.triplea.tables import Limits, check_roll, roll
    from dice_server.verifier import verify_ledger

    request = check_roll("legacy", "3", "6", ["ger@example.org"], ["rus@example.org"], "Race:x")
    errors: list[BaseException] = []
    tables: list[int] = []
    if opened_before:
        tables.append(roll(registered, request, "client-first", Limits()).table.id)
        monkeypatch.setattr(triplea_tables, "take", lambda *_args: True)
    start = threading.Barrier(12)

    def worker(n: int) -> None:
        try:
            start.wait()
            tables.append(roll(registered, request, f"client-{n}", Limits()).table.id)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert len(set(tables)) == 1
    with reading(registered.sessions) as session:
        stored = entries(session, Chain.table(tables[0]))
    # The opening and the rolls: twelve, and the one that opened the table before.
    assert [e.seq for e in stored] == list(range(1, 14 + opened_before))
    signer = registered.keys.signer
    report = verify_ledger(
        {"entries": [e.signed() for e in stored]},
        keys_document([(signer.key_id, signer.public_b64)]),
    )
    assert report.ok, report.problems
