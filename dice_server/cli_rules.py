"""`pbem` commands for the rules engine: read a turn, write a position, replay a battle.
They need no instance, database or keys: the adjudicator is pure."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click


def emit(obj: object) -> None:
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))


@click.group()
def turn() -> None:
    """Emailed turns."""


def read_input(file: str) -> str:
    if file == "-":
        return sys.stdin.read()
    try:
        return Path(file).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        click.echo(f"error: cannot read {file}: {exc.strerror}", err=True)
        sys.exit(2)


@turn.command("check")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print the versioned JSON report.")
@click.option("--initial", is_flag=True, help="Check the declarations against the setup.")
@click.option("--position", "position_file", help="Check them against this position file.")
@click.option(
    "--precombat",
    "precombat_file",
    help="The turn's pre-combat email, for a "
    "post-combat email checked against its combat moves too.",
)
def turn_check(
    file: str,
    as_json: bool,
    initial: bool,
    position_file: str | None,
    precombat_file: str | None,
) -> None:
    """Read an emailed turn (FILE, or - for stdin): the orders and every diagnostic; with a
    position, the combat declarations are checked against the board before any die.
    Exits 1 when part of the turn could not be read or a declaration is in error."""
    from adjudicator.notation import render_text, report

    text = read_input(file)
    if initial and position_file:
        click.echo("error: give --initial or --position, not both", err=True)
        sys.exit(2)
    if initial or position_file:
        from adjudicator.declarations import check_report
        from adjudicator.position import initial_json, load_json

        try:
            doc = initial_json() if initial else json.loads(read_input(position_file or ""))
            position = load_json(doc)
        except ValueError as exc:
            click.echo(f"error: the position {position_file}: {exc}", err=True)
            sys.exit(2)
        precombat = read_input(precombat_file) if precombat_file else None
        result = check_report(text, position, precombat=precombat)
    else:
        result = report(text)
    if as_json:
        click.echo(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        click.echo(render_text(result))
    sys.exit(1 if result["summary"]["errors"] else 0)


@click.group()
def position() -> None:
    """Board positions."""


@position.command("initial")
def position_initial() -> None:
    """Print the Classic initial position as versioned JSON."""
    from adjudicator.position import initial_json

    emit(initial_json())


@click.group()
def battle() -> None:
    """Replay battles from the recorded dice."""


@battle.command("resolve")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print the versioned JSON result.")
def battle_resolve(file: str, as_json: bool) -> None:
    """Resolve a battle (or a turn's battles) from FILE (- for stdin), round by round by the
    orders of loss, with the pauses the rules require. Exits 1 on malformed input."""
    from adjudicator.battle import render_text as render_battle
    from adjudicator.battle import resolve_json

    try:
        result = resolve_json(json.loads(read_input(file)))
    except json.JSONDecodeError as exc:
        click.echo(f"error: {file} is not JSON: {exc.msg} at line {exc.lineno}", err=True)
        sys.exit(1)
    except ValueError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    click.echo(json.dumps(result, indent=2) if as_json else render_battle(result))
