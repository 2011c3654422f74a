"""Issue 13, point 6: mail bodies are templates under ``templates/mail/`` and every link in
them comes from ``url_for(..., _external=True)`` under the public ``BASE_URL`` (scheme,
host, port and path prefix), whether the mail is rendered in a web request, the command
line or the scheduler's delivery run; never under a request's Host or ``SERVER_NAME``."""

from __future__ import annotations

import ast
import email
import re
from collections.abc import Iterator
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from itertools import pairwise
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import UndefinedError
from sqlalchemy import select

from dice_server.app import create_app
from dice_server.config import TEMPLATES_DIR
from dice_server.db import reading
from dice_server.mail.delivery import Courier, deliver_due, render
from dice_server.mail.templates import FlaskMailTemplates
from dice_server.mail.transport import parsed_message
from dice_server.models import DiceTable, Member, OutboxMessage
from dice_server.services import NoMailTemplates, ServiceContext, accounts
from dice_server.services.games import create_game
from dice_server.services.members import add_member
from dice_server.services.outbox import claim
from dice_server.triplea import addresses, closing
from dice_server.triplea.tables import Limits, check_roll, roll
from tests.conftest import follow_link

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = "https://league.example.org:8443/pbem"
PREFIX = "/pbem"
ELSEWHERE = "attacker.example:6666"
URL = re.compile(r"https?://[^\s()<>\"]+")


def make_app(instance: Path, database_url: str, **config: Any) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(instance),
            "DATABASE_URL": database_url,
            "BASE_URL": PUBLIC,
            **config,
        }
    )


@pytest.fixture
def public(instance: Path, database_url: str) -> Iterator[Flask]:
    """The app behind a proxy at another host and port, under a path prefix."""
    app = make_app(instance, database_url)
    yield app
    app.extensions["pbem"].sessions.kw["bind"].dispose()


def context(app: Flask) -> ServiceContext:
    ctx: ServiceContext = app.extensions["pbem"]
    return ctx


def links(text: str) -> list[str]:
    """Every URL in a mail's text, without the punctuation of the sentence around it."""
    return [url.rstrip(".,;:") for url in URL.findall(text)]


def route(app: Flask, link: str) -> tuple[str, dict[str, Any], dict[str, list[str]]]:
    """The endpoint and arguments a mailed link reaches, once the proxy has stripped the
    prefix, and its query; the link must be under ``BASE_URL``."""
    assert link.startswith(f"{PUBLIC}/"), link
    parts = urlsplit(link)
    path = parts.path.removeprefix(PREFIX)
    endpoint, args = app.url_map.bind("league.example.org:8443", url_scheme="https").match(
        path, method="GET"
    )
    return str(endpoint), dict(args), parse_qs(parts.query)


def routes(app: Flask, text: str) -> list[tuple[str, dict[str, Any], dict[str, list[str]]]]:
    found = links(text)
    assert found, text
    return [route(app, link) for link in found]


def body(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def queued(ctx: ServiceContext) -> list[tuple[str, EmailMessage]]:
    """Every queued mail that is no entry's: (subject, message), oldest first."""
    with reading(ctx.sessions) as session:
        raws = session.execute(
            select(OutboxMessage.raw)
            .where(OutboxMessage.raw.is_not(None))
            .order_by(OutboxMessage.id)
        ).scalars()
        found = []
        for raw in raws:
            assert raw is not None
            msg = email.message_from_bytes(raw, policy=policy.default)
            assert isinstance(msg, EmailMessage)
            found.append((str(msg["Subject"]), msg))
    return found


def latest(ctx: ServiceContext, subject: str) -> str:
    """The text of the latest queued mail whose subject holds ``subject``."""
    texts = [body(msg) for title, msg in queued(ctx) if subject in title]
    assert texts, f"no mail about {subject!r}"
    return texts[-1]


def delivered(app: Flask) -> list[EmailMessage]:
    """Deliver the outbox as the scheduler does (no request anywhere) into the maildir."""
    report = deliver_due(Courier.from_config(context(app), app.config, Path(app.instance_path)))
    assert not report.failed, report.failed
    maildir = Path(app.instance_path) / "maildir" / "new"
    found = []
    for path in sorted(maildir.iterdir()):
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        assert isinstance(msg, EmailMessage)
        found.append(msg)
    return found


def token_of(query: dict[str, list[str]]) -> str:
    (token,) = query["t"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{20,}", token), token
    return token


def test_account_mail_links_are_under_base_url_and_reach_their_pages(public: Flask) -> None:
    ctx = context(public)
    accounts.register(ctx, "Ann@example.org", "Ann <&> O'Hara", "a long password", "c1")
    text = latest(ctx, "Confirm your address")
    assert text.startswith("Hello Ann <&> O'Hara,\n")  # plain text: nothing escaped
    ((endpoint, args, query),) = routes(public, text)
    assert (endpoint, args) == ("auth.confirm", {})
    token = token_of(query)
    # The link, its prefix stripped by the proxy, confirms the address.
    client = public.test_client()
    assert follow_link(client, f"/confirm?t={token}").status_code in (200, 302)
    with reading(ctx.sessions) as session:
        member = session.execute(select(Member).where(Member.email_key == "ann@example.org"))
        assert member.scalar_one().confirmed

    accounts.register(ctx, "ann@example.org", "Someone", "another long password", "c2")
    text = latest(ctx, "Someone tried to register")
    assert [(e, a) for e, a, _ in routes(public, text)] == [
        ("auth.register", {}),
        ("auth.login", {}),
        ("auth.reset_request", {}),
    ]

    accounts.request_reset(ctx, "ann@example.org")
    ((endpoint, args, query),) = routes(public, latest(ctx, "Reset your password"))
    assert (endpoint, args) == ("auth.reset", {})
    token_of(query)


def test_address_and_close_links_are_under_base_url(public: Flask) -> None:
    ctx = context(public)
    addresses.request_link(ctx, "fresh@example.org", "register", "c1")
    ((endpoint, args, query),) = routes(public, latest(ctx, "to receive TripleA dice"))
    assert (endpoint, args) == ("tables.use_link", {"purpose": "register"})
    token_of(query)

    addresses.register_now(ctx, "gone@example.org")
    addresses.request_link(ctx, "gone@example.org", "unregister", "c1")
    ((endpoint, args, query),) = routes(public, latest(ctx, "to stop receiving dice"))
    assert (endpoint, args) == ("tables.use_link", {"purpose": "unregister"})

    for address in ("ger@example.org", "rus@example.org"):
        addresses.register_now(ctx, address)
    request = check_roll("legacy", "3", "6", ["ger@example.org"], ["rus@example.org"], "Big:a")
    table = roll(ctx, request, "c1", Limits(per_address=100, per_client=100)).table
    closing.request_close(ctx, table.public_id, "ger@example.org")
    ((endpoint, args, query),) = routes(public, latest(ctx, "close TripleA table"))
    assert (endpoint, args) == ("tables.confirm_close", {"public_id": table.public_id})
    token_of(query)


def test_entry_and_table_mail_delivered_without_a_request(public: Flask) -> None:
    """The scheduler's run renders mail with no request at all: the links are still the
    public ones, and each reaches its page."""
    ctx = context(public)
    for who in ("axis", "allies"):
        add_member(ctx, f"{who}@example.org", who.title(), confirmed=True)
    number = create_game(ctx, axis="axis@example.org", allies="allies@example.org").game_number
    for address in ("ger@example.org", "rus@example.org"):
        addresses.register_now(ctx, address)
    request = check_roll("legacy", "2", "6", ["ger@example.org"], ["rus@example.org"], "Big:a")
    table = roll(ctx, request, "c1", Limits(per_address=100, per_client=100)).table

    messages = delivered(public)
    copies = [m for m in messages if str(m["Subject"]).startswith(f"[Game {number}]")]
    assert len(copies) == 2  # each player's own copy (no mentor)
    genesis = copies[0]
    assert [(e, a) for e, a, _ in routes(public, body(genesis))] == [
        ("verify.verify", {}),
        ("public.download_verifier", {}),
        ("api.get_keys", {}),
        ("api.get_ledger", {"number": number}),
    ]
    table_mails = [m for m in messages if str(m["Subject"]).startswith("[TripleA]")]
    assert len(table_mails) == 2  # the table's opening and its roll
    for msg in table_mails:
        assert [(e, a) for e, a, _ in routes(public, body(msg))] == [
            ("tables.table", {"public_id": table.public_id})
        ]
    client = public.test_client()
    assert client.get(f"/tables/{table.public_id}").status_code == 200


def test_the_courier_renders_under_its_own_base_url(public: Flask) -> None:
    """``pbem outbox deliver`` and the scheduler take BASE_URL from the configuration they
    are given; the message comes from stored data only, so a resend is byte-identical."""
    ctx = context(public)
    for who in ("axis", "allies"):
        add_member(ctx, f"{who}@example.org", who.title(), confirmed=True)
    number = create_game(ctx, axis="axis@example.org", allies="allies@example.org").game_number
    config = {**public.config, "BASE_URL": "http://other.example/"}
    with reading(ctx.sessions) as session:
        message = session.execute(
            select(OutboxMessage.id).where(OutboxMessage.game_number == number)
        ).scalar_one()
    claimed = claim(ctx, message, ctx.clock(), timedelta(seconds=0))
    assert claimed is not None
    instance = Path(public.instance_path)
    first = render(claimed, Courier.from_config(ctx, config, instance).letterhead)
    again = render(claimed, Courier.from_config(ctx, config, instance).letterhead)
    assert first.as_bytes() == again.as_bytes()
    found = links(body(parsed_message(first.as_bytes())))
    assert len(found) == 4
    assert all(link.startswith("http://other.example/") for link in found), found


def csrf(client: FlaskClient, path: str, **kwargs: Any) -> str:
    page = client.get(path, **kwargs).get_data(as_text=True)
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert match, "no CSRF token on the page"
    return match.group(1)


def test_links_mailed_in_a_request_ignore_its_host(public: Flask) -> None:
    """A request that names another Host (a proxy passing it on, or a forged one) changes
    no link: they are made under BASE_URL."""
    ctx = context(public)
    client = public.test_client()
    host = {"headers": {"Host": ELSEWHERE}}
    page = client.post(
        "/register",
        data={
            "csrf_token": csrf(client, "/register", **host),
            "name": "Bea",
            "email": "bea@example.org",
            "password": "a long password",
            "again": "a long password",
        },
        **host,
    )
    assert page.status_code == 200
    ((endpoint, _, _),) = routes(public, latest(ctx, "Confirm your address"))
    assert endpoint == "auth.confirm"

    add_member(ctx, "cid@example.org", "Cid", confirmed=True)
    response = client.post(
        "/reset",
        data={"csrf_token": csrf(client, "/reset", **host), "email": "cid@example.org"},
        **host,
    )
    assert response.status_code in (200, 302)
    ((endpoint, _, _),) = routes(public, latest(ctx, "Reset your password"))
    assert endpoint == "auth.reset"

    answer = client.post("/api/register", data={"email": "dee@example.org"}, **host)
    assert answer.get_json()["status"] == "OK"
    ((endpoint, _, _),) = routes(public, latest(ctx, "to receive TripleA dice"))
    assert endpoint == "tables.use_link"

    for address in ("ger@example.org", "rus@example.org"):
        addresses.register_now(ctx, address)
    rolled = client.post(
        "/api/roll", data={"times": "1", "max": "6", "email1": "ger@example.org"}, **host
    ).get_json()
    legacy = client.post(
        "/MARTI.php",
        data={"numdice": "1", "numsides": "6", "subject": "G:a", "roller": "ger@example.org"},
        **host,
    ).get_data(as_text=True)
    with reading(ctx.sessions) as session:
        tables = session.execute(select(DiceTable.public_id).order_by(DiceTable.id)).scalars()
        current_table, legacy_table = tables.all()
    assert route(public, rolled["result"]["verify"])[:2] == (
        "tables.table",
        {"public_id": current_table},
    )
    (url,) = links(legacy)
    assert route(public, url)[:2] == ("tables.table", {"public_id": legacy_table})
    refused = client.post(
        "/api/roll", data={"times": "1", "max": "6", "email1": "nobody@example.org"}, **host
    ).get_json()
    (message,) = refused["errors"]
    (url,) = links(message)
    assert route(public, url)[:2] == ("tables.register", {})
    for _, msg in queued(ctx):
        assert ELSEWHERE not in msg.as_string()


def test_links_ignore_server_name(instance: Path, database_url: str) -> None:
    """Outside a request Flask would build links from SERVER_NAME: mail never does."""
    app = make_app(instance, database_url, SERVER_NAME="internal.example:5000")
    try:
        ctx = context(app)
        add_member(ctx, "cid@example.org", "Cid", confirmed=True)
        accounts.request_reset(ctx, "cid@example.org")
        ((endpoint, _, _),) = routes(app, latest(ctx, "Reset your password"))
        assert endpoint == "auth.reset"
    finally:
        app.extensions["pbem"].sessions.kw["bind"].dispose()


def test_mail_templates_are_plain_text(public: Flask) -> None:
    """``.txt`` is not autoescaped by the app's pages either; the mail's own environment
    escapes nothing and refuses a value the template names but was not given."""
    assert public.select_jinja_autoescape("mail/confirm.txt") is False
    mail = context(public).mail
    assert isinstance(mail, FlaskMailTemplates)
    assert mail.env.autoescape is False
    with pytest.raises(UndefinedError, match="token"):
        mail.render("confirm.txt", name="x")
    with pytest.raises(RuntimeError):
        NoMailTemplates().render("confirm.txt")


def test_a_base_url_that_is_no_http_url_is_refused(public: Flask) -> None:
    with pytest.raises(ValueError, match="BASE_URL"):
        FlaskMailTemplates(public, "league.example.org/pbem")


# --- the sources ---------------------------------------------------------------------------


def _python_sources() -> list[Path]:
    return sorted((ROOT / "dice_server").rglob("*.py"))


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _base_url_names(tree: ast.AST) -> re.Pattern[str]:
    """``base_url`` (any case) and every name a module assigns from it (``base =
    head.base_url.rstrip("/")``), as one pattern."""
    names = {"base_url"}
    while True:
        pattern = re.compile(rf"\b({'|'.join(sorted(names))})\b", re.IGNORECASE)
        more = {
            target.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and pattern.search(ast.unparse(node.value))
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        if more <= names:
            return pattern
        names |= more


def _joins(tree: ast.AST) -> list[ast.expr]:
    """The expressions that could put text after a base URL: f-strings, ``+``, ``%``,
    ``format``, ``join`` and ``urljoin``."""
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) or (
            isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod)
        ):
            found.append(node)
        elif isinstance(node, ast.Call) and (
            (isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "join"))
            or (isinstance(node.func, ast.Name) and node.func.id == "urljoin")
        ):
            found.append(node)
    return found


def _after_base(node: ast.expr, base: re.Pattern[str]) -> bool:
    """Whether ``node`` puts a path or a query after a base URL: a string holding ``/`` or
    ``?`` anywhere in a ``+``, ``%`` or call, or, in an f-string, anything right after it."""
    if isinstance(node, ast.JoinedStr):
        parts = node.values
        return any(
            isinstance(part, ast.FormattedValue)
            and base.search(ast.unparse(part.value))
            and (
                isinstance(after, ast.FormattedValue)
                or (isinstance(after, ast.Constant) and str(after.value).startswith(("/", "?")))
            )
            for part, after in pairwise(parts)
        )
    return any(
        isinstance(part, ast.Constant) and isinstance(part.value, str) and "/" in part.value
        for part in ast.walk(node)
    )


def linked_by_hand(source: str) -> list[str]:
    """Where ``source`` joins a base URL with a path."""
    tree = ast.parse(source)
    base = _base_url_names(tree)
    return [
        f"{node.lineno}: {ast.unparse(node)}"
        for node in _joins(tree)
        if base.search(ast.unparse(node)) and _after_base(node, base)
    ]


def test_the_scan_finds_a_link_joined_by_hand() -> None:
    assert linked_by_hand('url = f"{ctx.base_url}/tables/{public_id}"\n')
    assert linked_by_hand('base = head.base_url.rstrip("/")\nx = f"see {base}/verify"\n')
    assert linked_by_hand('x = config["BASE_URL"] + "/register"\n')
    assert linked_by_hand('x = "{}/login".format(base_url)\n')
    assert linked_by_hand('x = urljoin(base_url, "/reset")\n')
    assert linked_by_hand('x = f"{ctx.base_url}{LINK_PATHS[purpose]}?t={token}"\n')
    assert linked_by_hand('x = f"at {BASE_URL}{path}"\n')
    assert not linked_by_hand('x = f"BASE_URL must be a URL, not {base_url!r}"\n')


def test_no_link_is_built_by_joining_base_url_with_a_path() -> None:
    """Links come from the routes (url_for), never from ``BASE_URL`` and a path typed in
    the code; and no string in the code carries a link's token (``?t=``)."""
    joined, tokens = [], []
    for path in _python_sources():
        source = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        joined += [f"{where}:{found}" for found in linked_by_hand(source)]
        tree = ast.parse(source)
        docstrings = _docstrings(tree)
        tokens += [
            f"{where}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and "?t=" in node.value
            and id(node) not in docstrings
        ]
    assert joined == []
    assert tokens == []


def test_every_mail_template_is_used_and_every_used_one_exists() -> None:
    on_disk = {p.name for p in (TEMPLATES_DIR / "mail").iterdir() if p.is_file()}
    rendered = set()
    for path in _python_sources():
        rendered |= set(re.findall(r"""["']([\w-]+\.txt)["']""", path.read_text(encoding="utf-8")))
    assert on_disk, "templates/mail/ is empty"
    assert on_disk == rendered


def test_no_mail_template_holds_a_link_of_its_own() -> None:
    """Every link in a template is a ``url_for(..., _external=True)``."""
    for path in sorted((TEMPLATES_DIR / "mail").iterdir()):
        text = path.read_text(encoding="utf-8")
        assert "://" not in text, path.name
        calls = re.findall(r"url_for\(([^)]*)\)", text)
        assert all("_external=True" in call for call in calls), path.name
        assert not re.search(r"(?<![\w\"])/[a-z]", re.sub(r"\{\{.*?\}\}", "", text)), path.name


def test_a_table_mail_without_its_page_is_never_sent(public: Flask) -> None:
    """Rendering refuses a template that names a value it was not given (StrictUndefined):
    a table's mail always carries its page."""
    with pytest.raises(UndefinedError, match="public_id"):
        context(public).mail.render(
            "triplea_entry.txt",
            kind="closed",
            data={"seed": "00"},
            game_name="g",
            table_id=1,
            seq=2,
            at="t",
            addresses=[],
        )
    text = context(public).mail.render(
        "triplea_entry.txt",
        kind="closed",
        data={"seed": "00"},
        game_name="g",
        table_id=1,
        public_id="abc",
        seq=2,
        at="t",
        addresses=[],
    )
    assert text == (
        "The table is closed; its seed is revealed: 00.\n\n"
        f"Every roll of this table, in order, and its verification: {PUBLIC}/tables/abc\n"
    )
