"""The whole flow through a live server that `scripts/serve` starts (gunicorn, SQLite in a
fresh instance folder), driven over real HTTP, then verified offline by the standalone
verifier run as its own program."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import battle

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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
def live(tmp_path: Path) -> Iterator[Live]:
    port = free_port()
    env = {
        **os.environ,
        "PBEM_INSTANCE_PATH": str(tmp_path / "instance"),
        "PBEM_PORT": str(port),
        "PBEM_WORKERS": "2",
        "PBEM_OUTBOX_INTERVAL_SECONDS": "0.5",
    }
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
        yield Live(base=base, env=env)
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
    axis = live.pbem("member", "add", "axis@example.org", "--name", "Axis", "--confirmed").strip()
    allies = live.pbem(
        "member", "add", "allies@example.org", "--name", "Allies", "--confirmed"
    ).strip()
    game = live.pbem(
        "game", "create", "--axis", "axis@example.org", "--allies", "allies@example.org"
    ).strip()

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
