"""``pbem bid check`` (a bid read and checked, as the API's ``/bids/check``), ``pbem
challenge issue`` and ``accept`` for a member (the services ``POST /api/v1/challenges`` and
``.../accept`` run), and ``pbem challenge expire`` (the scheduler's expiry job run once)."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from dice_server.errors import ServiceError


@click.group()
def bid() -> None:
    """Bids (IAAPA Bidding)."""


@bid.command("check")
@click.argument("details")
@click.option("--total", type=int, required=True, help="The bid's stated IPC total.")
@click.option("--json", "as_json", is_flag=True, help="Print the check as JSON.")
def bid_check_command(details: str, total: int, as_json: bool) -> None:
    """Read and check a bid as players write it ("3 G INF Ukraine, 1 J IPC") against the
    Classic opening. Exit 1 if it cannot stand, 2 if the request itself is wrong."""
    from dice_server.services.challenges import bid_check

    try:
        result = bid_check({"total": total, "details": details})
    except ServiceError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    errors = [f for f in result["findings"] if f["severity"] == "error"]
    if as_json:
        click.echo(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        click.echo(f"total {result['total']} IPCs; the details are worth {result['value']}")
        for finding in result["findings"]:
            click.echo(f"{finding['severity']}: {finding['message']} [{finding['rule']}]")
        for place, powers in result["placements"].items():
            for power, units in powers.items():
                listed = ", ".join(f"{n} {unit}" for unit, n in units.items())
                click.echo(f"{power}: {listed} in {place}")
        for power, ipcs in result["ipcs"].items():
            click.echo(f"{power}: {ipcs:+d} IPCs")
    sys.exit(1 if errors else 0)


@click.group()
def challenge() -> None:
    """Game challenges (IAAPA How to Start a Game)."""


@challenge.command("expire")
def challenge_expire() -> None:
    """Expire every challenge left unanswered 14 days (what ``pbem scheduler`` does every
    ten minutes); prints the challenges expired."""
    from dice_server.cli import _ctx
    from dice_server.services.challenges import expire_challenges

    for number in expire_challenges(_ctx()):
        click.echo(number)


@challenge.command("issue")
@click.option("--from", "challenger", required=True, help="The challenger's address.")
@click.option("--opponent", required=True, help="The address of the member challenged.")
@click.option("--bid", "total", type=int, required=True, help="The bid's IPC total.")
@click.option("--details", default="", help='The bid as written ("3 G INF Ukraine, 1 J IPC").')
@click.option("--method", default="pbem", help="pbem (the default) or face-to-face.")
@click.option("--variant", default="", help="The variant proposed (variant games are not rated).")
@click.option("--agreement", "agreements", multiple=True, help="A gentlemen's agreement.")
@click.option("--mentor", default="", help="The address of the game's mentor.")
@click.option("--instructions", default="", help="Special instructions and order of loss.")
@click.option("--message", default="", help="A personal message to the opponent.")
@click.option(
    "--low-luck",
    is_flag=True,
    help="Propose Low Luck: the game's battle rounds thrown as sure hits and one die for the rest.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the challenge as JSON.")
def challenge_issue(
    challenger: str,
    opponent: str,
    total: int,
    details: str,
    method: str,
    variant: str,
    agreements: tuple[str, ...],
    mentor: str,
    instructions: str,
    message: str,
    low_luck: bool,
    as_json: bool,
) -> None:
    """Issue a challenge for the member at --from, with his bid (IAAPA How to Start a Game);
    both players are mailed. Prints the challenge's number."""
    from dice_server.cli import _ctx, emit, refusals
    from dice_server.services.challenges import issue_challenge
    from dice_server.services.members import member_id

    payload: dict[str, Any] = {
        "opponent": opponent,
        "method": method,
        "variant": variant,
        "agreements": list(agreements),
        "mentor": mentor,
        "instructions": instructions,
        "message": message,
        "bid": {"total": total, "details": details},
        "low_luck": int(low_luck),
    }

    @refusals
    def run() -> None:
        ctx = _ctx()
        doc = issue_challenge(ctx, member_id(ctx, challenger, "from"), payload)
        terms = " with Low Luck battle rounds" if doc["low_luck"] else ""
        click.echo(f"challenge {doc['id']} issued to {doc['opponent']}{terms}", err=True)
        if as_json:
            emit(doc)
        else:
            click.echo(doc["id"])

    run()


@challenge.command("accept")
@click.argument("challenge_id", type=int)
@click.option("--as", "opponent", required=True, help="The address of the member challenged.")
@click.option("--bid", "total", type=int, required=True, help="His bid's IPC total.")
@click.option("--details", default="", help="His bid as written.")
@click.option("--message", default="", help="A personal message to the challenger.")
def challenge_accept(
    challenge_id: int, opponent: str, total: int, details: str, message: str
) -> None:
    """Accept challenge CHALLENGE_ID for the member challenged, with his bid: the game starts
    on the challenge's terms (Low Luck among them). Prints the game's number."""
    from dice_server.cli import _ctx, refusals
    from dice_server.services.challenges import accept_challenge
    from dice_server.services.members import member_id

    payload = {"bid": {"total": total, "details": details}, "message": message}

    @refusals
    def run() -> None:
        ctx = _ctx()
        game = accept_challenge(ctx, member_id(ctx, opponent, "as"), challenge_id, payload)
        click.echo(
            f"challenge {challenge_id} accepted: game {game['game']}; {game['axis']} plays the "
            "Axis",
            err=True,
        )
        click.echo(game["game"])

    run()
