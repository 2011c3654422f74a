"""Long ledgers, fast: many signed entries appended in one write transaction by the same
code a roll takes (the game's lock, its open seed, the entry's message queued with it),
for the tests and measurements of pages over games of thousands of entries."""

from __future__ import annotations

from typing import Any

from adjudicator.rolls import BattleRoll
from dice_server import dice, ledger
from dice_server.db import writing
from dice_server.kinds.battle import read as parse_battle_roll
from dice_server.ledger import Chain
from dice_server.services import ServiceContext
from dice_server.services.entries import thrower
from dice_server.services.outbox import Envelope, publish
from dice_server.triplea.tables import Limits, check_roll, roll

PLACES = ("Ukraine S.S.R.", "West Europe", "Karelia S.S.R.", "East Europe", "China", "India")


def battle_payload(turn: int, index: int) -> dict[str, Any]:
    return {
        "round": 1 + index % 3,
        "turn": turn,
        "country": ("Russia", "Germany", "UK", "Japan", "USA")[index % 5],
        "battle": PLACES[index % len(PLACES)],
        "attacker": [{"unit": "INF", "count": 3}, {"unit": "ARM", "count": 2}],
        "defender": [{"unit": "INF", "count": 4}, {"unit": "AA", "count": 1}],
        "comment": f"battle {index}",
    }


def append_battles(
    ctx: ServiceContext, number: int, count: int, by: str, per_turn: int = 10
) -> None:
    """Append ``count`` battle rolls to game ``number`` in one transaction, ``per_turn``
    to a turn, each with its queued message."""
    with writing(ctx.sessions) as session:
        chain = Chain.game(number)
        game = ledger.lock_game(session, number)
        seed = dice.open_seed(session, chain)
        assert game is not None and seed is not None
        for index in range(count):
            request = parse_battle_roll(battle_payload(1 + index // per_turn, index))

            def build(seq: int, request: BattleRoll = request) -> dict[str, Any]:
                return request.record(by, thrower(ctx, seq, seed))

            publish(
                session,
                ctx,
                ctx.clock(),
                chain,
                "roll",
                build,
                Envelope.each_once((game.axis_email, game.allies_email), (game.mentor_email,)),
            )


def table_rolls(ctx: ServiceContext, to: str, cc: str, count: int) -> str:
    """Throw ``count`` TripleA rolls on the table of ``to`` and ``cc``; its public id."""
    limits = Limits(per_address=10**9, per_client=10**9)
    public_id = ""
    for index in range(count):
        request = check_roll("legacy", "3", "6", [to], [cc], f"Big Game:attack {index}")
        public_id = roll(ctx, request, "bulk", limits).table.public_id
    return public_id
