"""`pbem ruling`: the Minister of Law's rulings on a game, from its exported ledger alone
(IAAPA Error Correction Procedures). Needs no instance, database or keys: the engine is pure,
and signatures are `pbem ledger verify`'s business."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import click

from dice_server.cli.turns import read_input


@click.group()
def ruling() -> None:
    """Rulings on a game's errors."""


def _refuse(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def ledger_bodies(exported: object, name: str) -> list[dict[str, Any]]:
    """The parsed bodies of an exported ledger (``{"entries": [{"body", "sig", "key"},
    ...]}``, as ``pbem ledger export`` and ``GET /api/v1/games/<n>/ledger`` write it);
    anything else ends the command with exit status 2."""
    shape = (
        f'{name} is not an exported ledger ({{"entries": [...]}} as `pbem ledger export` writes)'
    )
    if not isinstance(exported, dict) or not isinstance(exported.get("entries"), list):
        _refuse(shape)
    bodies = []
    for i, item in enumerate(exported["entries"], 1):
        body = item.get("body") if isinstance(item, dict) else None
        if not isinstance(body, str):
            _refuse(f"{shape}: entry {i} has no body")
        try:
            parsed = json.loads(body)
        except json.JSONDecodeError as exc:
            _refuse(f"{name}: the body of entry {i} is not JSON: {exc.msg}")
        if not isinstance(parsed, dict):
            _refuse(f"{name}: the body of entry {i} is not an object")
        bodies.append(parsed)
    return bodies


@ruling.command("check")
@click.argument("ledger")
@click.option("--json", "as_json", is_flag=True, help="Print the versioned JSON document.")
def ruling_check(ledger: str, as_json: bool) -> None:
    """Rule on every error an exported game ledger (LEDGER, - for stdin) shows: combat
    declaration errors, rolling errors (which dice stand, which are dropped, what to roll,
    from which round to re-roll), rolling through a pause, tech rolls, discrepancies and
    typographical errors, and the time limit on corrections. Dice are named by entry and
    position (from 0, left to right as the entry lists them). Exits 0; 2 when LEDGER is not
    an exported ledger."""
    from adjudicator.rulings import rulings_document
    from adjudicator.rulings.render import render_rulings

    text = read_input(ledger)
    try:
        exported = json.loads(text)
    except json.JSONDecodeError as exc:
        _refuse(f"{ledger} is not JSON: {exc.msg} at line {exc.lineno}")
    bodies = ledger_bodies(exported, ledger)
    try:
        doc = rulings_document(bodies)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        _refuse(f"cannot rule on {ledger}: {exc}")
    if as_json:
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        click.echo(render_rulings(doc))


@ruling.command("decide")
@click.argument("number", type=int)
@click.argument("refers_to", type=int)
@click.option("--minister", required=True, help="The address of the minister deciding.")
@click.option(
    "--verdict",
    required=True,
    type=click.Choice(["approve", "deny", "confirm", "amend", "override"]),
    help="approve/deny a forfeit request; confirm/amend/override a proposed ruling.",
)
@click.option("--reason", required=True, help="Why: every decision states its reason.")
@click.option("--conditions", help="A denied forfeit's conditions.")
@click.option("--deadline-days", type=int, help="A denied forfeit: days allowed to move.")
@click.option("--decision", help="An amended ruling, in one line.")
def ruling_decide(
    number: int,
    refers_to: int,
    minister: str,
    verdict: str,
    reason: str,
    conditions: str | None,
    deadline_days: int | None,
    decision: str | None,
) -> None:
    """Record the Minister of Law's decision on entry REFERS_TO of game NUMBER (the same
    service as POST /api/v1/games/<n>/rulings); prints the ruling entry's seq."""
    from dice_server.cli import _ctx, refusals
    from dice_server.services.members import member_id
    from dice_server.services.rulings import decide

    payload: dict[str, Any] = {"refers_to": refers_to, "verdict": verdict, "reason": reason}
    for name, value in (
        ("conditions", conditions),
        ("deadline_days", deadline_days),
        ("decision", decision),
    ):
        if value is not None:
            payload[name] = value

    @refusals
    def run() -> None:
        ctx = _ctx()
        entry = decide(ctx, member_id(ctx, minister, "minister"), number, payload)
        click.echo(f"ruling #{entry.seq} recorded in game {number}", err=True)
        click.echo(entry.seq)

    run()
