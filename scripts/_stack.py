"""What scripts/loadtest and scripts/crashtest share (not a script of its own).

A :class:`Stack` is `scripts/serve` (gunicorn, the supervised `pbem scheduler` and `pbem
smtpd`) over a fresh instance folder in a temporary directory, on loopback ports held for
the whole run (so a restart after a crash binds the same ports and nothing else takes
them). :class:`Roller` threads roll on one game over persistent HTTP connections, each
request under its own Idempotency-Key, retried with the same key while the server does not
answer. :func:`audit` then reads what the run left behind (the ledger as `pbem ledger
export` prints it, the outbox, the maildir), runs the standalone verifier over the ledger
and over the players' mail, and counts every way an entry or its mail can be lost,
forked, half-written or duplicated.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import policy
from email.parser import BytesHeaderParser
from email.utils import parseaddr
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SERVE = ROOT / "scripts" / "serve"
VERIFIER = ROOT / "dice_server" / "verifier.py"
BIN = Path(sys.executable).parent
AXIS, ALLIES = "axis@example.org", "allies@example.org"
ZERO_HASH = "0" * 64
MESSAGE_ID = re.compile(r"<([0-9a-f]{24})\.game-(\d+)\.entry-(\d+)@[^>]+>")
"""An entry's Message-ID (dice_server.services.outbox.entry_message_id): the first 24 hex
digits of the entry's body hash, its chain and its seq."""


class Deadline(Exception):
    """The run's hard time limit passed (``--deadline``)."""


def hard_deadline(seconds: float) -> None:
    """Raise :class:`Deadline` in the main thread after ``seconds``, and turn SIGTERM into
    KeyboardInterrupt, so that every way out of a run passes its cleanup."""

    def expired(_signum: int, _frame: FrameType | None) -> None:
        raise Deadline(f"the run took more than {seconds:.0f} s")

    def terminated(_signum: int, _frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGALRM, expired)
    signal.signal(signal.SIGTERM, terminated)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even where started ignoring it
    signal.setitimer(signal.ITIMER_REAL, seconds)


def held_port(holders: list[socket.socket]) -> int:
    """A loopback port bound here (SO_REUSEPORT, never listening) until the run ends: the
    kernel gives it to nobody else, while gunicorn --reuse-port and the SMTP receiver bind
    it beside the holder, again after every restart (as tests/conftest.py reserves)."""
    sock = socket.socket()
    holders.append(sock)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("127.0.0.1", 0))
    return int(sock.getsockname()[1])


def processes_of(instance: Path) -> list[int]:
    """Processes still running with this (unique, temporary) instance folder in their
    environment: the stack's, whatever their parent."""
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


@dataclass(frozen=True)
class Game:
    """The game the clients roll on: its number, and each player's API token and personal
    game address (the Reply-To of his copy of each message)."""

    number: int
    tokens: dict[str, str]
    reply_to: dict[str, str]


@dataclass
class Stack:
    """`scripts/serve` over a fresh instance, started and stopped (or killed) at will."""

    tmp: Path
    env: dict[str, str]
    port: int
    keep: bool = False
    holders: list[socket.socket] = field(default_factory=list)
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def instance(self) -> Path:
        return self.tmp / "instance"

    @property
    def maildir(self) -> Path:
        return self.instance / "maildir"

    @property
    def log_path(self) -> Path:
        return self.tmp / "serve.log"

    @classmethod
    @contextlib.contextmanager
    def fresh(
        cls, settings: dict[str, str], *, database_url: str = "", keep: bool = False
    ) -> Iterator[Stack]:
        """A stack in a new temporary directory; on the way out (an exception and Ctrl-C
        included) every process of it is ended and the directory removed unless ``keep``."""
        if not (BIN / "pbem").exists():
            raise SystemExit(
                f"no pbem beside {sys.executable}: run this from the project's venv "
                "(source .venv/bin/activate)"
            )
        tmp = Path(tempfile.mkdtemp(prefix="pbem-stack-"))
        holders: list[socket.socket] = []
        port, smtpd_port = held_port(holders), held_port(holders)
        env = {
            **os.environ,
            "PBEM_INSTANCE_PATH": str(tmp / "instance"),
            "PBEM_PORT": str(port),
            "PBEM_SMTPD_PORT": str(smtpd_port),
            "PBEM_SMTPD_REUSE_PORT": "true",
            "GUNICORN_CMD_ARGS": "--reuse-port",
            "PBEM_BASE_URL": f"http://127.0.0.1:{port}",
            **settings,
        }
        env.pop("PBEM_DATABASE_URL", None)
        if database_url:
            env["PBEM_DATABASE_URL"] = database_url
        stack = cls(tmp=tmp, env=env, port=port, keep=keep, holders=holders)
        try:
            yield stack
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)  # the cleanup is bounded on its own
            stack.stop()
            for sock in holders:
                sock.close()
            if keep:
                print(f"kept {tmp} (serve.log, instance/, ledger.json)", file=sys.stderr)
            else:
                shutil.rmtree(tmp, ignore_errors=True)

    def pbem(self, *args: str) -> str:
        done = subprocess.run(
            [str(BIN / "pbem"), *args],
            env=self.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"pbem {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout.strip()

    def create_game(self) -> Game:
        """Keys, schema, two confirmed members and a game between them, before any server
        runs (scripts/serve's own `pbem init` and `db upgrade` then find them done)."""
        self.pbem("init")
        self.pbem("db", "upgrade")
        with ThreadPoolExecutor(2) as pool:  # each command starts the application: seconds
            added = {
                email: pool.submit(self.pbem, "member", "add", email, "--name", name, "--confirmed")
                for email, name in ((AXIS, "Axis"), (ALLIES, "Allies"))
            }
            tokens = {email: future.result() for email, future in added.items()}
            number = int(self.pbem("game", "create", "--axis", AXIS, "--allies", ALLIES))
            made = {
                email: pool.submit(self.pbem, "game", "address", str(number), email)
                for email in tokens
            }
            reply_to = {email: future.result() for email, future in made.items()}
        return Game(number, tokens, reply_to)

    def start(self, timeout: float = 120) -> None:
        """Run scripts/serve in a session of its own; wait until /healthz answers and the
        scheduler has taken the scheduler lock (it logs `scheduler: leading`), so that
        the mail is flowing before anything is measured or killed."""
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts + 1} ---\n".encode())
            log.flush()
            since = log.tell()
            self.process = subprocess.Popen(
                [str(SERVE)],
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        self.starts += 1
        give_up = time.monotonic() + timeout
        while not (self.healthy() and self.scheduler_leading(since)):
            if self.process.poll() is not None or time.monotonic() > give_up:
                tail = self.log_path.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"scripts/serve did not come up:\n{tail}")
            time.sleep(0.2)

    def scheduler_leading(self, since: int) -> bool:
        with self.log_path.open("rb") as log:
            log.seek(since)
            return b"scheduler: leading" in log.read()

    def healthy(self) -> bool:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
            conn.request("GET", "/healthz")
            ok = conn.getresponse().status == 200
            conn.close()
            return ok
        except (OSError, http.client.HTTPException):
            return False

    def stop(self, timeout: float = 30) -> None:
        """Ctrl-C, as a terminal sends it to the whole group: scripts/serve stops the web,
        the scheduler and the receiver; whatever is left after ``timeout`` is killed."""
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                print("scripts/serve did not stop in time: killing it", file=sys.stderr)
        self._reap(timeout)

    def kill(self) -> int:
        """SIGKILL every process of the stack at one instant (the gunicorn master and its
        workers mid-request, the scheduler mid-delivery, the receiver, the shells that
        supervise them), as a power cut would, but with the disk intact. Returns how many
        processes were killed."""
        victims = processes_of(self.instance)
        self._reap(10)
        return len(victims)

    def _reap(self, timeout: float) -> None:
        """Wait for every process of the stack to be gone, killing stragglers by pid (its
        group is signalled only while scripts/serve, its leader, is alive and unreaped)."""
        if self.process is not None:
            if self.process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        give_up = time.monotonic() + timeout
        while left := processes_of(self.instance):
            if time.monotonic() > give_up:
                for pid in left:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
            time.sleep(0.1)


# --- The clients ------------------------------------------------------------------------


def battle(player: str, number: int) -> dict[str, Any]:
    """A valid battle round: the Axis player's Germans attack Karelia, the Allies' British
    West Europe, each client's rounds numbered on."""
    if player == AXIS:
        return {
            "round": number,
            "turn": 1,
            "country": "Germany",
            "battle": "Karelia S.S.R.",
            "attacker": [{"unit": "INF", "count": 6}, {"unit": "ARM", "count": 3}],
            "defender": [{"unit": "INF", "count": 5}, {"unit": "AA", "count": 1}],
        }
    return {
        "round": number,
        "turn": 1,
        "country": "UK",
        "battle": "West Europe",
        "attacker": [{"unit": "INF", "count": 8}, {"unit": "FTR", "count": 2}],
        "defender": [{"unit": "INF", "count": 10}, {"unit": "AA", "count": 1}],
    }


@dataclass(frozen=True)
class Answer:
    """One roll request as its client saw it: the status of the answer it finally got (0:
    none before the client gave up), the time from first send to that answer, how many
    times it was sent, when it was first sent (Unix time), and, when acknowledged (2xx),
    the signed entry returned."""

    status: int
    seconds: float
    sends: int
    sent_at: float
    entry: dict[str, str] | None = None


@dataclass(eq=False)
class Roller:
    """A client rolling as one player until told to stop. A request that gets no answer (the
    connection refused or cut: the server is down or died) is sent again with the same
    Idempotency-Key until it is answered or ``patience`` seconds have passed: a retry after
    a crash returns the entry the first send wrote, if it was written."""

    port: int
    game: int
    player: str
    token: str
    name: str
    patience: float = 60.0
    stopping: threading.Event = field(default_factory=threading.Event)
    answers: list[Answer] = field(default_factory=list)
    thread: threading.Thread = field(init=False)

    def __post_init__(self) -> None:
        self.thread = threading.Thread(target=self.run, name=self.name, daemon=True)

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        path = f"/api/v1/games/{self.game}/rolls"
        number = 0
        while not self.stopping.is_set():
            number += 1
            body = json.dumps(battle(self.player, number)).encode()
            headers = {
                "Authorization": f"Bearer {self.token}",
                "Content-Type": "application/json",
                "Idempotency-Key": f"{self.name}-{number}",
            }
            self.answers.append(self._send(conn, path, body, headers))
        conn.close()

    def _send(
        self, conn: http.client.HTTPConnection, path: str, body: bytes, headers: dict[str, str]
    ) -> Answer:
        start, sent_at = time.perf_counter(), time.time()
        give_up = time.monotonic() + self.patience
        sends = 0
        while True:
            sends += 1
            try:
                conn.request("POST", path, body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
            except (OSError, http.client.HTTPException):
                conn.close()  # the next request opens a new connection
                if time.monotonic() > give_up:
                    return Answer(0, time.perf_counter() - start, sends, sent_at)
                time.sleep(0.2)
                continue
            seconds = time.perf_counter() - start
            entry = json.loads(data) if 200 <= response.status < 300 else None
            return Answer(response.status, seconds, sends, sent_at, entry)


def start_rollers(stack: Stack, game: Game, clients: int, run: str) -> list[Roller]:
    """``clients`` threads, the players taking every other one, all on one game."""
    players = [AXIS, ALLIES]
    rollers = [
        Roller(
            port=stack.port,
            game=game.number,
            player=players[i % 2],
            token=game.tokens[players[i % 2]],
            name=f"{run}-client{i}",
        )
        for i in range(clients)
    ]
    for roller in rollers:
        roller.thread.start()
    return rollers


def stop_rollers(rollers: list[Roller], timeout: float = 90) -> list[Answer]:
    """Let each client finish the request it has in hand (retries included); the answers."""
    for roller in rollers:
        roller.stopping.set()
    give_up = time.monotonic() + timeout
    for roller in rollers:
        roller.thread.join(max(0.1, give_up - time.monotonic()))
    if any(roller.thread.is_alive() for roller in rollers):
        raise RuntimeError("a client did not finish its last request in time")
    return [answer for roller in rollers for answer in roller.answers]


def latency_line(answers: list[Answer], elapsed: float) -> str:
    answered = [a.seconds for a in answers if a.status]
    if len(answered) < 2:
        return f"{len(answers)} requests in {elapsed:.1f} s"
    qs = statistics.quantiles(answered, n=100)
    return (
        f"{len(answers) / elapsed:.1f} req/s over {elapsed:.1f} s; latency p50 "
        f"{qs[49] * 1000:.1f} ms, p90 {qs[89] * 1000:.1f} ms, p99 {qs[98] * 1000:.1f} ms, "
        f"max {max(answered) * 1000:.1f} ms"
    )


def percentile_ms(answers: list[Answer], pct: int) -> float:
    answered = [a.seconds for a in answers if a.status]
    if len(answered) < 2:
        return answered[0] * 1000 if answered else 0.0
    return statistics.quantiles(answered, n=100)[pct - 1] * 1000


# --- Reading what the run left ----------------------------------------------------------


def written_at(entry: dict[str, str]) -> float:
    """The Unix time of an entry's ``at`` (UTC, microseconds)."""
    at = json.loads(entry["body"])["at"]
    return datetime.strptime(at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()


def body_hash(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Copy:
    """One file of the maildir: one recipient's copy of a message."""

    message_id: str
    reply_to: str
    raw: bytes


def read_maildir(maildir: Path) -> list[Copy]:
    parser = BytesHeaderParser(policy=policy.default)
    copies = []
    for path in sorted((maildir / "new").glob("*")) if (maildir / "new").is_dir() else []:
        raw = path.read_bytes()
        headers = parser.parsebytes(raw)
        copies.append(
            Copy(
                str(headers.get("Message-ID", "")).strip(),
                parseaddr(str(headers.get("Reply-To", "")))[1],
                raw,
            )
        )
    return copies


def entry_ids(entries: list[dict[str, str]], game: int) -> dict[str, int]:
    """The Message-ID stem (before the domain) of each entry's message, to its seq."""
    return {
        f"<{body_hash(e['body'])[:24]}.game-{game}.entry-{json.loads(e['body'])['seq']}": (
            json.loads(e["body"])["seq"]
        )
        for e in entries
    }


def stem(message_id: str) -> str:
    return message_id.split("@", 1)[0]


@dataclass(frozen=True)
class Drain:
    """How the wait for the mail ended: whether every copy came, the seconds waited, and
    how many copies (files) the maildir held at the end."""

    complete: bool
    seconds: float
    copies: int


def wait_for_mail(stack: Stack, game: Game, entries: list[dict[str, str]], quiet: float) -> Drain:
    """Wait until every entry's message has reached the maildir in each player's copy, or
    until no new copy has come for ``quiet`` seconds (the outbox is stuck, not slow: the
    scheduler delivers fewer messages a second than a loaded server writes entries, so a
    long run leaves a backlog that takes a while to clear; the run's deadline bounds it)."""
    expected = {
        (s, addr) for s in entry_ids(entries, game.number) for addr in game.reply_to.values()
    }
    parser = BytesHeaderParser(policy=policy.default)
    start = last_new = time.monotonic()
    seen: set[tuple[str, str]] = set()
    read: set[str] = set()
    new = stack.maildir / "new"
    while not expected <= seen and time.monotonic() - last_new < quiet:
        time.sleep(0.25)
        for path in new.glob("*") if new.is_dir() else []:
            if path.name in read:
                continue
            read.add(path.name)
            last_new = time.monotonic()
            headers = parser.parsebytes(path.read_bytes())
            message_id = stem(str(headers.get("Message-ID", "")).strip())
            seen.add((message_id, parseaddr(str(headers.get("Reply-To", "")))[1]))
    return Drain(expected <= seen, time.monotonic() - start, len(read))


def live_ledger(stack: Stack, game: Game) -> list[dict[str, str]]:
    """The game's ledger as GET /api/v1/games/N/ledger serves it to a player."""
    conn = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=60)
    token = game.tokens[AXIS]
    conn.request("GET", f"/api/v1/games/{game.number}/ledger", headers=bearer(token))
    response = conn.getresponse()
    data = response.read()
    conn.close()
    if response.status != 200:
        raise RuntimeError(f"GET the ledger: {response.status} {data[:200]!r}")
    entries: list[dict[str, str]] = json.loads(data)["entries"]
    return entries


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass(frozen=True)
class Stored:
    """What the database holds after the run, as the operator's commands print it: the
    ledger (`pbem ledger export`), the published keys (`pbem keys show`), the outbox
    (`pbem outbox list`) and the in-place check of the stored chain (`pbem ledger check`:
    its line, and whether it found a problem). The ledger and the keys are written beside
    the instance for the standalone verifier."""

    entries: list[dict[str, str]]
    outbox: list[list[str]]
    check_line: str
    check_failed: bool


def read_stored(stack: Stack, game: Game) -> Stored:
    """Run the four commands at once (each starts the application: seconds apiece)."""
    number = str(game.number)

    def check() -> tuple[str, bool]:
        try:
            return stack.pbem("ledger", "check", number), False
        except RuntimeError as exc:
            return str(exc), True

    with ThreadPoolExecutor(4) as pool:
        ledger = pool.submit(stack.pbem, "ledger", "export", number)
        keys = pool.submit(stack.pbem, "keys", "show")
        outbox = pool.submit(stack.pbem, "outbox", "list")
        checked = pool.submit(check)
    (stack.tmp / "ledger.json").write_text(ledger.result())
    (stack.tmp / "keys.json").write_text(keys.result())
    check_line, check_failed = checked.result()
    return Stored(
        entries=json.loads(ledger.result())["entries"],
        outbox=[line.split("\t") for line in outbox.result().splitlines() if line],
        check_line=check_line,
        check_failed=check_failed,
    )


def verifier(*args: str) -> tuple[bool, str]:
    """Run the standalone verifier as a player would (its own program, no server): whether
    it failed, and its RESULT line."""
    done = subprocess.run(
        [sys.executable, str(VERIFIER), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    return done.returncode != 0, lines[-1] if lines else done.stderr.strip()


@dataclass
class Audit:
    """Every figure the two scripts print, read after the run."""

    entries: int = 0
    rolls: int = 0
    gaps: int = 0
    forks: int = 0
    broken_links: int = 0
    verifier_failed: bool = False
    verifier_line: str = ""
    mail_verifier_failed: bool = False
    mail_verifier_line: str = ""
    store_check_failed: bool = False
    store_check_line: str = ""
    acknowledged: int = 0
    missing: int = 0
    contradicted: int = 0
    outbox_missing: int = 0
    outbox_unsent: int = 0
    outbox_resent: int = 0
    orphan_mail: int = 0
    mail_missing: int = 0
    copies_missing: int = 0
    mail_duplicate: int = 0
    copies_extra: int = 0
    resends_differing: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def checkers_failed(self) -> int:
        """How many of the three independent checks failed: the standalone verifier over
        the exported ledger, the same over the maildir, and `pbem ledger check` (each counts
        once, however many problems it names: one deleted row fails every later link)."""
        return self.verifier_failed + self.mail_verifier_failed + self.store_check_failed

    def lines(self) -> list[str]:
        return [
            f"ledger: {self.entries} entries ({self.rolls} rolls); seq gaps {self.gaps}, "
            f"seqs with two entries {self.forks}, broken prev links {self.broken_links}",
            f"verifier.py LEDGER: {self.verifier_line}",
            f"verifier.py --mail maildir: {self.mail_verifier_line}",
            f"pbem ledger check: {self.store_check_line}",
            f"acknowledged {self.acknowledged}: not in the ledger {self.missing}, "
            f"contradicted by it (same seq, other body) {self.contradicted}",
            f"outbox: entries without a message {self.outbox_missing}, not sent "
            f"{self.outbox_unsent}, sent more than once {self.outbox_resent}",
            f"maildir: entries lacking a player's copy {self.mail_missing} "
            f"({self.copies_missing} copies), messages delivered more than once "
            f"{self.mail_duplicate} "
            f"({self.copies_extra} extra copies, {self.resends_differing} not byte-identical), "
            f"mail of entries not in the ledger {self.orphan_mail}",
            *self.notes,
        ]


def audit(stack: Stack, game: Game, stored: Stored, answers: list[Answer]) -> Audit:
    """Count what was lost, forked, half-written or duplicated, in what the stopped stack
    left (``stored``) and what its clients were answered."""
    entries = stored.entries
    found = Audit(entries=len(entries))
    bodies = [json.loads(e["body"]) for e in entries]
    found.rolls = sum(1 for b in bodies if b["kind"].endswith("roll"))

    # The chain as stored: every seq from 1 once, each entry linked to the one before.
    by_seq: dict[int, set[str]] = defaultdict(set)
    for entry, body in zip(entries, bodies, strict=True):
        by_seq[body["seq"]].add(body_hash(entry["body"]))
    acked = {body_hash(a.entry["body"]): a.entry for a in answers if a.entry is not None}
    found.acknowledged = len(acked)
    in_ledger = {body_hash(e["body"]) for e in entries}
    for digest, entry in acked.items():
        seq = json.loads(entry["body"])["seq"]
        if digest not in in_ledger:
            found.missing += 1
            if seq in by_seq:
                found.contradicted += 1
    top = max([*by_seq, *(json.loads(e["body"])["seq"] for e in acked.values())], default=0)
    found.gaps = sum(1 for seq in range(1, top + 1) if seq not in by_seq)
    found.forks = sum(1 for hashes in by_seq.values() if len(hashes) > 1)
    prev = ZERO_HASH
    for entry, body in zip(entries, bodies, strict=True):
        if body["prev"] != prev:
            found.broken_links += 1
        prev = body_hash(entry["body"])

    # The standalone verifier, over the exported ledger and over the players' mail.
    found.verifier_failed, found.verifier_line = verifier(
        str(stack.tmp / "ledger.json"), "--keys", str(stack.tmp / "keys.json")
    )
    found.mail_verifier_failed, found.mail_verifier_line = verifier(
        "--mail", str(stack.maildir), "--allow-missing"
    )
    found.store_check_failed, found.store_check_line = stored.check_failed, stored.check_line

    # The outbox: one message per entry, in the entry's transaction; all sent by now.
    ids = entry_ids(entries, game.number)
    queued = {stem(row[3]): row for row in stored.outbox if MESSAGE_ID.fullmatch(row[3])}
    found.outbox_missing = sum(1 for s in ids if s not in queued)
    found.outbox_unsent = sum(1 for s in ids if s in queued and queued[s][1] != "sent")
    found.outbox_resent = sum(1 for s in ids if s in queued and int(queued[s][2]) > 1)

    # The maildir: each player's copy of each entry's message, once.
    copies: dict[tuple[str, str], list[bytes]] = defaultdict(list)
    for copy in read_maildir(stack.maildir):
        if MESSAGE_ID.fullmatch(copy.message_id):
            copies[(stem(copy.message_id), copy.reply_to)].append(copy.raw)
    players = set(game.reply_to.values())
    for s in ids:
        lacking = sum(1 for player in players if (s, player) not in copies)
        found.copies_missing += lacking
        found.mail_missing += bool(lacking)
    twice: Counter[str] = Counter()
    for (s, _player), raws in copies.items():
        if len(raws) > 1:
            twice[s] += 1
            found.copies_extra += len(raws) - 1
            found.resends_differing += len(set(raws)) > 1
    found.mail_duplicate = len(twice)
    found.orphan_mail = len({s for s, _player in copies if s not in ids})
    strangers = {player for _s, player in copies} - players
    if strangers:
        found.notes.append(f"copies with an unknown Reply-To: {sorted(strangers)}")
    return found
