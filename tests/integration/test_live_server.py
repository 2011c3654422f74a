"""The whole flow through a live server that `scripts/serve` starts (gunicorn, SQLite in a
fresh instance folder), driven over real HTTP, then verified offline by the standalone
verifier run as its own program."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import smtplib
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import battle

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def processes_of(instance: str) -> list[int]:
    """Processes still running with this instance folder in their environment."""
    marker = f"PBEM_INSTANCE_PATH={instance}".encode()
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if marker in (proc / "environ").read_bytes().split(b"\0"):
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def wait_for_mail(maildir: Path, words: str, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for path in (maildir / "new").glob("*") if (maildir / "new").exists() else []:
            text = path.read_text(errors="replace")
            if words in text:
                return text
        time.sleep(0.2)
    raise AssertionError(f"no message with {words!r} in {maildir}/new")


@dataclass
class Live:
    base: str
    env: dict[str, str]
    log_path: Path

    def log(self) -> str:
        """What scripts/serve printed so far (its access log included)."""
        return self.log_path.read_text()

    def pbem(self, *args: str) -> str:
        done = subprocess.run(
            [str(Path(sys.executable).parent / "pbem"), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    def game(self) -> tuple[str, str, str]:
        """Two confirmed members and a game between them: (axis token, allies token, game)."""
        axis = self.pbem("member", "add", "axis@example.org", "--name", "Axis", "--confirmed")
        allies = self.pbem("member", "add", "allies@example.org", "--name", "Allies", "--confirmed")
        game = self.pbem(
            "game", "create", "--axis", "axis@example.org", "--allies", "allies@example.org"
        )
        return axis.strip(), allies.strip(), game.strip()

    def call(
        self, method: str, path: str, body: Any = None, token: str = "", key: str = ""
    ) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if key:
            request.add_header("Idempotency-Key", key)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


@pytest.fixture
def live(
    tmp_path: Path, reserve_port: Callable[[], int], request: pytest.FixtureRequest
) -> Iterator[Live]:
    """`scripts/serve` in a fresh instance; a test may set more PBEM_* variables through
    indirect parametrization (``request.param``)."""
    port = reserve_port()
    env = {
        **os.environ,
        "PBEM_INSTANCE_PATH": str(tmp_path / "instance"),
        "PBEM_PORT": str(port),
        "GUNICORN_CMD_ARGS": "--reuse-port",  # binds the reserved port beside its holder
        "PBEM_WORKERS": "2",
        "PBEM_OUTBOX_INTERVAL_SECONDS": "0.5",
        "PBEM_SMTPD_PORT": str(reserve_port()),
        "PBEM_SMTPD_REUSE_PORT": "true",
    }
    env.update(getattr(request, "param", {}))
    env.pop("PBEM_DATABASE_URL", None)
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen(
        [str(ROOT / "scripts" / "serve")],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError((tmp_path / "serve.log").read_text())
            time.sleep(0.2)
        yield Live(base=base, env=env, log_path=tmp_path / "serve.log")
    finally:
        # Ctrl-C: the terminal sends SIGINT to the whole foreground group.
        os.killpg(server.pid, signal.SIGINT)
        server.wait(30)
        deadline = time.monotonic() + 30
        while processes_of(env["PBEM_INSTANCE_PATH"]) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert processes_of(env["PBEM_INSTANCE_PATH"]) == []
        log.close()


def test_whole_flow_through_a_live_server(live: Live, tmp_path: Path) -> None:
    assert (Path(live.env["PBEM_INSTANCE_PATH"]) / "pbem.sqlite3").exists()
    axis, allies, game = live.game()

    status, entry = live.call("POST", f"/api/v1/games/{game}/rolls", battle(), allies)
    assert status == 201 and json.loads(entry["body"])["seq"] == 2
    status, error = live.call(
        "POST", f"/api/v1/games/{game}/rolls", battle(attacker=[{"unit": "AA", "count": 1}]), allies
    )
    assert status == 400 and "AA" in error["error"]
    status, _ = live.call("POST", f"/api/v1/games/{game}/rolls", battle(round=2), axis)
    assert status == 201
    status, error = live.call("POST", f"/api/v1/games/{game}/rolls", battle(), "forged")
    assert status == 401

    status, ledger = live.call("GET", f"/api/v1/games/{game}/ledger", token=axis)
    assert status == 200 and [json.loads(e["body"])["seq"] for e in ledger["entries"]] == [1, 2, 3]
    assert ledger["entries"][1] == entry

    header = {"round": 1, "turn": 1, "country": "Germany"}
    for what, body in [
        ("tech-rolls", {**header, "dice": 4}),
        ("bombing-rolls", {**header, "target": "United Kingdom", "bombers": 3, "aa": 1}),
        ("rocket-rolls", {**header, "target": "United Kingdom", "from": "West Europe"}),
        ("notes", {"topic": "retreat", "text": "retreat from Karelia to West Russia"}),
    ]:
        first = live.call("POST", f"/api/v1/games/{game}/{what}", body, axis, key=what)
        retried = live.call("POST", f"/api/v1/games/{game}/{what}", body, axis, key=what)
        assert first[0] == 201 and retried == first
    live.pbem("keys", "rotate")
    status, _ = live.call("POST", f"/api/v1/games/{game}/rolls", battle(round=3), axis)
    assert status == 201

    # The scheduler that scripts/serve started delivers into the maildir by default.
    maildir = Path(live.env["PBEM_INSTANCE_PATH"]) / "maildir"
    mail = wait_for_mail(maildir, f"Subject: [Game {game}] #2 UK: West Europe round 1")
    assert "To: axis@example.org, allies@example.org" in mail
    assert "entry-2.json" in mail

    live.pbem("game", "end", game, "--status", "finished", "--winner", "allies")
    status, ledger = live.call("GET", f"/api/v1/games/{game}/ledger", token=allies)
    assert len({e["key"] for e in ledger["entries"]}) == 2  # signed before and after rotation
    status, keys = live.call("GET", "/api/v1/keys")
    with urllib.request.urlopen(live.base + "/verifier.py", timeout=30) as response:
        (tmp_path / "verifier.py").write_bytes(response.read())
    (tmp_path / "ledger.json").write_text(json.dumps(ledger))
    (tmp_path / "keys.json").write_text(json.dumps(keys))
    verifier = subprocess.run(
        [sys.executable, "verifier.py", "ledger.json", "--keys", "keys.json"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert verifier.returncode == 0, verifier.stdout
    assert "6 of 6 rolls under the commitment of entry 1 recomputed" in verifier.stdout

    status, error = live.call("POST", f"/api/v1/games/{game}/rolls", battle(), axis)
    assert status == 409 and "finished" in error["error"]


class Browser:
    """Pages over real HTTP with a cookie jar: what a member's browser does without
    JavaScript (forms posted as they are rendered)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def get(self, path: str) -> tuple[int, str, str]:
        try:
            with self.opener.open(self.base + path, timeout=30) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.url, exc.read().decode()

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str, str]:
        data = urllib.parse.urlencode(fields).encode()
        try:
            with self.opener.open(self.base + path, data=data, timeout=30) as response:
                return response.status, response.geturl(), response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.url, exc.read().decode()


def hidden(html: str, name: str) -> str:
    match = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html)
    assert match, f"no {name} on the page"
    return match.group(1)


def test_a_triplea_27_client_over_real_http(live: Live) -> None:
    live.pbem("table", "register", "ger@example.org")
    data = urllib.parse.urlencode(
        {
            "numdice": "4",
            "numsides": "6",
            "subject": "Live game:Germany attacks Karelia",
            "roller": "ger@example.org",
            "gm": "",
        }
    ).encode()
    request = urllib.request.Request(
        live.base + "/MARTI.php", data=data, headers={"User-Agent": "triplea/2.7.14"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read().decode()
    assert re.search(r"fatal error:(.*)!", body) is None
    match = re.search(r"your dice are:\s*((?:\d+(?:,\d+)*)?)\s*<p>", body)
    assert match is not None and len(match.group(1).split(",")) == 4
    maildir = Path(live.env["PBEM_INSTANCE_PATH"]) / "maildir"
    wait_for_mail(maildir, "Subject: [TripleA] Live game: Germany attacks Karelia (roll #2)")


def test_a_member_in_the_browser(live: Live) -> None:
    """Register, confirm from the mail in the sink, log in, roll from the form, see the
    timeline, verify: issue 5's whole flow, over real HTTP."""
    browser = Browser(live.base)
    _, _, page = browser.get("/register")
    status, url, page = browser.post(
        "/register",
        {
            "csrf_token": hidden(page, "csrf_token"),
            "name": "Erwin",
            "email": "rommel@example.org",
            "password": "desert-fox-1942",
            "again": "desert-fox-1942",
        },
    )
    assert status == 200 and "Check your mail" in page
    maildir = Path(live.env["PBEM_INSTANCE_PATH"]) / "maildir"
    mail = wait_for_mail(maildir, "Subject: Confirm your address")
    link = re.search(r"(/confirm\?t=(\S+))", mail)
    assert link is not None
    status, _, page = browser.get(link.group(1))  # opening the link only shows a button
    assert status == 200 and "Confirm my address" in page
    status, url, page = browser.post(
        "/confirm", {"csrf_token": hidden(page, "csrf_token"), "t": hidden(page, "t")}
    )
    assert status == 200 and url.endswith("/") and "is confirmed" in page
    # The token never reaches the access log: it records paths, never query strings.
    assert link.group(2) not in live.log()
    browser.post("/logout", {"csrf_token": hidden(page, "csrf_token")})
    _, _, page = browser.get("/login")
    status, _, page = browser.post(
        "/login",
        {
            "csrf_token": hidden(page, "csrf_token"),
            "email": "rommel@example.org",
            "password": "desert-fox-1942",
        },
    )
    assert status == 200 and "My games" in page

    live.pbem("member", "add", "monty@example.org", "--name", "Monty", "--confirmed")
    game = live.pbem(
        "game", "create", "--axis", "rommel@example.org", "--allies", "monty@example.org"
    ).strip()
    _, _, page = browser.get(f"/games/{game}/roll")
    assert "monty@example.org" in page and "rommel@example.org" in page
    form = {
        "csrf_token": hidden(page, "csrf_token"),
        "nonce": hidden(page, "nonce"),
        "round": "1",
        "turn": "1",
        "country": "Germany",
        "battle": "Karelia S.S.R.",
        "attacker_INF": "6",
        "attacker_ARM": "3",
        "defender_INF": "4",
        "defender_AA": "1",
        "attacker_FTR": "2",
        "comment": "G1 attack #1",
    }
    status, url, page = browser.post(f"/games/{game}/roll", form)
    assert status == 200 and url.endswith(f"/games/{game}/entries/2")
    assert "Dice in the order thrown" in page
    status, url, _ = browser.post(f"/games/{game}/roll", form)  # the double click
    assert url.endswith(f"/games/{game}/entries/2")

    _, _, timeline = browser.get(f"/games/{game}")
    assert 'id="entry-2"' in timeline and "Germany: Karelia S.S.R. round 1" in timeline
    assert 'id="entry-3"' not in timeline
    _, _, signed = browser.get(f"/games/{game}/entries/2.json")
    _, _, page = browser.get("/verify")
    status, _, page = browser.post(
        "/verify", {"csrf_token": hidden(page, "csrf_token"), "pasted": signed}
    )
    assert status == 200 and "Everything checked holds" in page
    wait_for_mail(maildir, f"Subject: [Game {game}] #2 Germany: Karelia S.S.R. round 1")


def scheduler_pids(instance: str) -> list[int]:
    return [
        pid
        for pid in processes_of(instance)
        if b"scheduler" in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    ]


def test_a_dead_scheduler_is_started_again_and_the_web_stays_up(live: Live) -> None:
    """Issue 12, point 1: scripts/serve once stopped gunicorn when the scheduler ended.
    Now the scheduler is restarted and the web never notices."""
    instance = live.env["PBEM_INSTANCE_PATH"]
    first = scheduler_pids(instance)
    assert len(first) == 1, first
    os.kill(first[0], signal.SIGKILL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        status, health = live.call("GET", "/healthz")
        assert status == 200 and health == {"status": "ok"}
        again = scheduler_pids(instance)
        if again and again != first:
            break
        time.sleep(0.2)
    else:
        raise AssertionError(f"no new scheduler: {live.log()}")
    assert "scheduler exited" in live.log()
    _, allies, game = live.game()
    status, _ = live.call("POST", f"/api/v1/games/{game}/rolls", battle(), allies)
    assert status == 201
    maildir = Path(instance) / "maildir"
    wait_for_mail(maildir, f"Subject: [Game {game}] #2 UK: West Europe round 1")


def test_a_turn_by_mail_to_the_receiver_scripts_serve_started(live: Live) -> None:
    """Issue 15: `scripts/serve` starts `pbem smtpd` beside the web and the scheduler; a
    player's turn mailed to his personal address is recorded and his receipt delivered."""
    _, _, game = live.game()
    to = live.pbem("game", "address", game, "allies@example.org").strip()
    assert to.startswith(f"game-{game}.") and to.endswith("@pbem.localhost")
    turn = (ROOT / "tests" / "data" / "turns" / "02-ussr-r1-precombat.txt").read_text()
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "allies@example.org", to, f"[Game {game}] USSR 1"
    msg["Message-ID"] = "<live-turn@players.example>"
    msg.set_content(turn)
    deadline = time.monotonic() + 60
    while True:  # the receiver may still be starting
        try:
            with smtplib.SMTP("127.0.0.1", int(live.env["PBEM_SMTPD_PORT"]), timeout=30) as smtp:
                assert smtp.send_message(msg) == {}
            break
        except (ConnectionRefusedError, smtplib.SMTPServerDisconnected):
            assert time.monotonic() < deadline, live.log()
            time.sleep(0.3)
    maildir = Path(live.env["PBEM_INSTANCE_PATH"]) / "maildir"
    receipt = wait_for_mail(maildir, "In-Reply-To: <live-turn@players.example>")
    assert f"Subject: Re: [Game {game}] USSR 1" in receipt
    assert "ledger entry #2 (submission)" in receipt.replace("=\n", "")


SECONDS_FOR_DAYS = {
    "PBEM_TURN_REMINDER_AFTER": "2",
    "PBEM_TURN_REMINDER_EVERY": "2",
    "PBEM_FORFEIT_AFTER": "5",
    "PBEM_REMINDERS_INTERVAL_SECONDS": "0.5",
}
"""The turn clock of issue 22 with seconds for days: a reminder after 2 s, the line at 5 s."""


@pytest.mark.parametrize("live", [SECONDS_FOR_DAYS], indirect=True)
def test_the_turn_clock_on_a_live_server_with_seconds_for_days(live: Live) -> None:
    """Issue 22: the scheduler that `scripts/serve` started mails the reminder and then the
    forfeit line to both players; the forfeit request is refused before the line and taken
    after it; the calendar link opens the line as an event, over real HTTP."""
    axis, allies, game = live.game()
    started = time.monotonic()
    status, early = live.call(
        "POST", f"/api/v1/games/{game}/notes", {"topic": "forfeit-request", "text": "?"}, axis
    )
    assert status == 409 and "silent only since" in early["error"]
    maildir = Path(live.env["PBEM_INSTANCE_PATH"]) / "maildir"
    reminder = wait_for_mail(maildir, f"Subject: [Game {game}] Reminder: USSR to move")
    assert "To: allies@example.org" in reminder
    line = wait_for_mail(maildir, f"Subject: [Game {game}] Forfeit may be requested: USSR")
    assert "To: axis@example.org, allies@example.org" in line
    assert time.monotonic() - started >= 4  # not before the line (5 s after the game began)
    status, note = live.call(
        "POST", f"/api/v1/games/{game}/notes", {"topic": "forfeit-request", "text": "gone"}, axis
    )
    assert status == 201, note
    status, clock = live.call("GET", f"/api/v1/games/{game}/position", token=axis)
    assert status == 200 and clock["clock"]["waiting_for"] == "allies@example.org"
    assert clock["clock"]["reminded"] >= 1

    status, link = live.call("POST", "/api/v1/members/me/calendar", {}, allies)
    assert status == 200 and link["url"].startswith(live.base + "/calendar/")
    with urllib.request.urlopen(link["url"], timeout=30) as response:
        assert response.headers.get_content_type() == "text/calendar"
        feed = response.read().decode()
    assert feed.startswith("BEGIN:VCALENDAR\r\n") and feed.count("BEGIN:VEVENT") == 1
    line_at = clock["clock"]["forfeit_line"].replace("-", "").replace(":", "")
    assert f"DTSTART:{line_at}" in feed
    assert f"Game {game}: your turn (USSR)\\, forfeit line" in feed
