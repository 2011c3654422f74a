"""``pbem bid check`` (a bid read and checked, as the API's ``/bids/check``) and ``pbem
challenge expire`` (the scheduler's expiry job run once)."""

from __future__ import annotations

import json
import sys

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
