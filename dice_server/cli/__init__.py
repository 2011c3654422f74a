"""``pbem``: the operator's command line. Each command prints only its result on stdout;
messages go to stderr, and a refusal exits non-zero with the reason."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import click
from flask import Flask

from dice_server.cli.challenges import bid, challenge
from dice_server.cli.mail import mail, smtpd
from dice_server.cli.rulings import ruling
from dice_server.cli.turns import battle, battle_odds, position, turn
from dice_server.config import instance_path
from dice_server.errors import ServiceError
from dice_server.keys import MissingKeys, init_instance
from dice_server.services import ServiceContext

P = ParamSpec("P")
R = TypeVar("R")


def _app() -> Flask:
    from dice_server.app import create_app

    return create_app()


def _ctx() -> ServiceContext:
    ctx: ServiceContext = _app().extensions["pbem"]
    return ctx


def refusals(func: Callable[P, R]) -> Callable[P, R]:
    """Turn a service's refusal into a message on stderr and exit status 1."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except (ServiceError, MissingKeys) as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)

    return wrapper


def position_document(path: Path) -> Any:
    """A position file's JSON, checked as a position; anything else ends the command with
    exit status 2 before anything is written."""
    from dice_server.jsonbody import read_json
    from dice_server.services.positions import read_position

    try:
        doc = read_json(path.read_bytes(), f"the position file {path}")
        read_position(doc, f"the position file {path}")
    except OSError as exc:
        click.echo(f"error: cannot read the position file {path}: {exc.strerror}", err=True)
        sys.exit(2)
    except ServiceError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    return doc


def emit(obj: Any) -> None:
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))


@click.group()
def main() -> None:
    """PBEM league service: dice server and adjudicator."""


@main.command()
def init() -> None:
    """Create the instance's keys once (idempotent)."""
    path = instance_path()
    made = init_instance(path)
    for file in made:
        click.echo(f"created {file}", err=True)
    if not made:
        click.echo(f"keys already present in {path}", err=True)


@main.group()
def db() -> None:
    """The database schema."""


@db.command("upgrade")
@refusals
def db_upgrade() -> None:
    """Apply the migrations (alembic upgrade head)."""
    from dice_server.migrate import upgrade

    ctx = _ctx()
    engine = ctx.sessions.kw["bind"]
    upgrade(engine)
    click.echo("database at the latest revision", err=True)


@main.group()
def member() -> None:
    """League members."""


@member.command("add")
@click.argument("email")
@click.option("--name", required=True, help="The member's name as the league knows it.")
@click.option("--confirmed", is_flag=True, help="The address is already confirmed.")
@click.option("--role", type=click.Choice(["player", "minister"]), default="player")
@refusals
def member_add(email: str, name: str, confirmed: bool, role: str) -> None:
    """Add a member; prints the API token (shown only this once)."""
    from dice_server.services.members import add_member

    made = add_member(_ctx(), email, name, role=role, confirmed=confirmed)
    click.echo(f"added {made.email} as {role}", err=True)
    click.echo(made.token)


@member.command("list")
@refusals
def member_list() -> None:
    """List the members: address, name, role, and whether the address is confirmed."""
    from dice_server.services.members import all_members

    for made in all_members(_ctx()):
        state = "confirmed" if made.confirmed else "unconfirmed"
        click.echo(f"{made.email}\t{made.name}\t{made.role}\t{state}")


@member.command("password")
@click.argument("email")
@refusals
def member_password(email: str) -> None:
    """Set a member's password for the pages (read from standard input, never an argument)."""
    from dice_server.services.accounts import set_password

    if sys.stdin.isatty():
        password = click.prompt("New password", hide_input=True, confirmation_prompt=True)
    else:
        password = sys.stdin.readline().rstrip("\n")
    member = set_password(_ctx(), email, password)
    click.echo(f"password set for {member.email}", err=True)


@main.group()
def game() -> None:
    """League games."""


@game.command("create")
@click.option(
    "--axis",
    required=True,
    help="Address of the member playing the Axis (in Triumph of the Will, the German "
    "player; in Triumph & Tragedy, the Axis).",
)
@click.option(
    "--allies",
    required=True,
    help="Address of the member playing the Allies (in Triumph of the Will, the Japanese "
    "player; in Triumph & Tragedy, the West and the USSR).",
)
@click.option("--number", type=int, help="The league's game number (default: next free).")
@click.option("--mentor", help="Address of the game's mentor.")
@click.option("--variant", help="The variant played (variant games are not rated).")
@click.option("--agreement", "agreements", multiple=True, help="A gentlemen's agreement.")
@click.option(
    "--position",
    "position_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The position it starts from (JSON as `pbem position initial` prints; default: "
    "the Classic initial position).",
)
@click.option(
    "--low-luck",
    is_flag=True,
    help="Throw the game's battle rounds by Low Luck: the sure hits, and one die for the rest.",
)
@click.option(
    "--ruleset",
    type=click.Choice(["classic", "big_world_1942"]),
    default="classic",
    show_default=True,
    help="The rules its battle rounds are thrown and read by: Classic (A&A 2nd edition) or "
    "TripleA's Big World 1942 (rolls only: the service keeps no Big World position).",
)
@click.option(
    "--system",
    type=click.Choice(["aa-classic", "triumph-and-tragedy", "triumph-of-the-will"]),
    default="aa-classic",
    show_default=True,
    help="The game system: Axis & Allies, or another system whose rolls alone the dice "
    "server throws (only that system's roll kinds are accepted in the game).",
)
@refusals
def game_create(
    axis: str,
    allies: str,
    number: int | None,
    mentor: str | None,
    variant: str | None,
    agreements: tuple[str, ...],
    position_file: Path | None,
    low_luck: bool,
    ruleset: str,
    system: str,
) -> None:
    """Create a game and its genesis entry; prints the game number."""
    from dice_server.services.games import create_game

    position = None if position_file is None else position_document(position_file)
    entry = create_game(
        _ctx(),
        axis=axis,
        allies=allies,
        number=number,
        mentor=mentor,
        variant=variant,
        agreements=agreements,
        position=position,
        low_luck=low_luck,
        ruleset=ruleset,
        system=system,
    )
    click.echo(f"game {entry.game_number} created; genesis at {entry.at}", err=True)
    click.echo(str(entry.game_number))


@game.command("position")
@click.argument("number", type=int)
@click.option("--at", "at", type=int, help="As the ledger alone rebuilds it after entry AT.")
@refusals
def game_position(number: int, at: int | None) -> None:
    """Print the game's position and whose turn it is (as GET /api/v1/games/N/position)."""
    from dice_server.services.turns import game_position as position_of

    emit(position_of(_ctx(), number, None, at=at))


@game.command("list")
@refusals
def game_list() -> None:
    """List the games: number, status, players, round and power to move."""
    from dice_server.services.views import all_games

    for line in all_games(_ctx()):
        click.echo(line)


@game.command("end")
@click.argument("number", type=int)
@click.option("--status", required=True, type=click.Choice(["finished", "forfeited", "annulled"]))
@click.option("--winner", type=click.Choice(["axis", "allies"]))
@click.option("--reason", help="Why the game ended (forfeit, annulment...).")
@refusals
def game_end(number: int, status: str, winner: str | None, reason: str | None) -> None:
    """Record the result and reveal the game's dice seed; prints the entry."""
    from dice_server.services.games import end_game

    entry = end_game(_ctx(), number, status=status, winner=winner, reason=reason)
    emit(entry.signed())


@game.command("reopen")
@click.argument("number", type=int)
@click.option("--reason", required=True, help="Why the game is reopened.")
@refusals
def game_reopen(number: int, reason: str) -> None:
    """Reopen an ended game under a new committed seed; prints the entry."""
    from dice_server.services.games import reopen_game

    emit(reopen_game(_ctx(), number, reason=reason).signed())


@main.group()
def ledger() -> None:
    """Export, verify and check ledgers."""


@ledger.command("export")
@click.argument("number", type=int, required=False)
@click.option("--table", "table", type=int, help="Export TripleA table ID instead of a game.")
@refusals
def ledger_export(number: int | None, table: int | None) -> None:
    """Print game NUMBER's ledger (or a table's) as JSON, as GET /api/v1/games/N/ledger."""
    from dice_server.services.games import export_ledger
    from dice_server.triplea.tables import export

    if (number is None) == (table is None):
        click.echo("error: give a game NUMBER or --table ID", err=True)
        sys.exit(2)
    emit(export(_ctx(), table) if table is not None else export_ledger(_ctx(), number or 0, None))


@ledger.command("verify")
@click.argument(
    "file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--keys", "keys_file", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--mail",
    "mail_path",
    type=click.Path(exists=True, path_type=Path),
    help="Verify every game in a player's mail: a maildir, mbox, zip or folder.",
)
@click.option("--allow-missing", is_flag=True, help="With --mail: missing entries only warn.")
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Show how far it has got, on stderr (default: when stderr is a terminal).",
)
def ledger_verify(
    file: Path | None,
    keys_file: Path | None,
    mail_path: Path | None,
    allow_missing: bool,
    progress: bool | None,
) -> None:
    """Check an exported ledger (FILE --keys KEYS) or a player's own mail (--mail PATH)
    offline, exactly as the standalone verifier does; exit 0 only when everything holds."""
    from dice_server.verifier import main as verify_main

    args = [str(file)] if file is not None else []
    args += ["--keys", str(keys_file)] if keys_file is not None else []
    args += ["--mail", str(mail_path)] if mail_path is not None else []
    args += ["--allow-missing"] if allow_missing else []
    args += [] if progress is None else ["--progress" if progress else "--no-progress"]
    sys.exit(verify_main(args))


@ledger.command("check")
@click.argument("number", type=int, required=False)
@click.option("--table", "table", type=int, help="Check TripleA table ID.")
@refusals
def ledger_check(number: int | None, table: int | None) -> None:
    """Verify the stored ledgers in place: game NUMBER and/or table ID, or (given neither)
    every game and every table. One line per ledger; exit 1 with the first problem found."""
    from dice_server.services.integrity import check_ledgers

    first = None
    for checked in check_ledgers(_ctx(), game=number, table=table):
        click.echo(checked.line())
        if first is None and checked.problem is not None:
            first = checked
    if first is not None:
        click.echo(
            f"error: {first.name}, {first.problem} (restore it from the players' mailed copies "
            "of its entries)",
            err=True,
        )
        sys.exit(1)


@main.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--overwrite", is_flag=True, help="Replace FILE if it exists.")
@refusals
def backup_command(file: Path, overwrite: bool) -> None:
    """Write a backup of the whole database to FILE while the service runs (SQLite's online
    backup; pg_dump on PostgreSQL). Back the instance folder's keys up beside it."""
    from dice_server.services.backup import backup

    click.echo(backup(_ctx(), file, overwrite=overwrite).line())


@main.command("restore")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--replace", is_flag=True, help="Replace a database that holds ledger entries.")
@refusals
def restore_command(file: Path, replace: bool) -> None:
    """Replace the whole database by the backup FILE (stop the service first), then check
    every chain in it: one line per chain; exit 1 if any is wrong."""
    from dice_server.services.backup import restore

    checks = restore(_ctx(), file, replace=replace)
    for checked in checks:
        click.echo(checked.line())
    wrong = [c for c in checks if c.problem is not None]
    entries = sum(c.entries for c in checks)
    click.echo(
        f"restored {len(checks)} chains, {entries} entries; {len(wrong)} with a problem", err=True
    )
    if wrong:
        sys.exit(1)


def service_app() -> Flask:
    """The app of a long-running process (the scheduler, the SMTP receiver): its log on
    stderr; without the instance's keys, exit status 1 with the reason."""
    import logging

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    try:
        return _app()
    except MissingKeys as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)


@main.command()
def scheduler() -> None:
    """Run the one scheduler process (outbox delivery) until Ctrl-C."""
    from dice_server.scheduler import run

    app = service_app()
    click.echo(f"scheduler: outbox every {app.config['OUTBOX_INTERVAL_SECONDS']} s", err=True)
    run(app)


@main.group()
def outbox() -> None:
    """The mail queue."""


@outbox.command("list")
@click.option("--failed", is_flag=True, help="Only messages that failed or are failing.")
@refusals
def outbox_list(failed: bool) -> None:
    """One line per message: id, status, attempts, Message-ID, recipients, last error."""
    from dice_server.services.outbox import list_messages

    for row in list_messages(_ctx(), failed_only=failed):
        to = ", ".join(json.loads(row.to_addrs) + json.loads(row.cc_addrs or "[]"))
        line = f"{row.id}\t{row.status}\t{row.attempts}\t{row.message_id}\t{to}"
        if row.last_error:
            line += f"\t{row.last_error}"
        click.echo(line)


@outbox.command("retry")
@click.argument("message", type=int)
@refusals
def outbox_retry(message: int) -> None:
    """Queue message ID again now, with a fresh round of attempts."""
    from dice_server.services.outbox import retry_message

    ctx = _ctx()
    row = retry_message(ctx, message, ctx.clock())
    click.echo(f"outbox message {row.id} queued again", err=True)


@outbox.command("deliver")
@refusals
def outbox_deliver() -> None:
    """Deliver what is due now, once (what the scheduler does every few seconds)."""
    from dice_server.mail.delivery import Courier, deliver_due

    app = _app()
    report = deliver_due(
        Courier.from_config(app.extensions["pbem"], app.config, Path(app.instance_path))
    )
    click.echo(f"{len(report.sent)} sent, {len(report.failed)} failed", err=True)
    for message, error in report.failed.items():
        click.echo(f"{message}\t{error}")


@main.group("table")
def table_group() -> None:
    """TripleA tables and the addresses that receive their dice."""


@table_group.command("register")
@click.argument("email")
@refusals
def table_register(email: str) -> None:
    """Register EMAIL to receive TripleA rolls, confirmed at once (for operators)."""
    from dice_server.triplea.addresses import register_now

    address = register_now(_ctx(), email)
    click.echo(f"{address} may receive TripleA dice", err=True)


@main.group()
def keys() -> None:
    """The signing keys."""


@keys.command("show")
@refusals
def keys_show() -> None:
    """Print the published keys (the format of GET /api/v1/keys)."""
    from dice_server.services.keys import published_keys

    emit(published_keys(_ctx()))


@keys.command("rotate")
@refusals
def keys_rotate() -> None:
    """Make a new signing key; prints its id. Old keys stay published."""
    from dice_server.services.keys import rotate_key

    ctx = _ctx()
    old = ctx.keys.signer.key_id
    new = rotate_key(ctx, instance_path())
    click.echo(f"signing key {old} retired; {new.key_id} signs from now on", err=True)
    click.echo(new.key_id)


@game.command("address")
@click.argument("number", type=int)
@click.argument("email")
@refusals
def game_address(number: int, email: str) -> None:
    """Print the personal address EMAIL writes to game NUMBER at (made on first use)."""
    from dice_server.services.game_addresses import address_of

    click.echo(address_of(_ctx(), number, email))


for _group in (turn, position, battle, mail, smtpd, ruling, bid, challenge):
    main.add_command(_group)
main.add_command(battle_odds, name="odds")  # `pbem odds`, also `pbem battle odds`
