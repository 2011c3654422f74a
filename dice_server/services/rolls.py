"""Battle rolls (IAAPA "Using the Dice Server"): checked, thrown and signed in one append."""

from __future__ import annotations

from typing import Any

from dice_server import dice, ledger
from dice_server.db import writing
from dice_server.errors import Conflict, Forbidden
from dice_server.models import LedgerEntry, Member
from dice_server.rollspec import parse_battle_roll
from dice_server.services import ServiceContext
from dice_server.services.games import check_participant, locked_game


def roll_battle(ctx: ServiceContext, roller_id: int, number: int, payload: Any) -> LedgerEntry:
    """Throw one battle round for game ``number``.

    The whole request is checked before the lock is taken; inside the transaction the
    roller's right to roll and the game's state are checked, then the dice are drawn in
    the append itself. Any refusal rolls back: nothing written, no seq consumed.
    """
    request = parse_battle_roll(payload)
    with writing(ctx.sessions) as session:
        game = locked_game(session, number)
        roller = session.get(Member, roller_id)
        if roller is None:
            raise Forbidden("your membership no longer exists")
        if not roller.confirmed:
            raise Forbidden("confirm your address before rolling")
        check_participant(game, roller)
        if game.status != "active":
            raise Conflict(f"game {number} is {game.status}: no more rolls are accepted")
        seed_row = dice.open_seed(session, number)
        if seed_row is None:
            raise Conflict(f"game {number} has no open seed commitment: no roll is accepted")
        box = ctx.keys.seed_box

        def throw(seq: int) -> dict[str, Any]:
            return request.record(roller.email, lambda n: dice.roll(box, seed_row, seq, n))

        return ledger.append(session, ctx.keys.signer, ctx.clock(), number, "roll", throw)
