"""The turn clock read from a game's ledger folded as it grows (issue 20, the roll path): who
owes the move, since when, and when he was last heard from are the same as the forfeit rule
says of the whole ledger read afresh, after every kind of entry; a roll of another game
system is a turn like a Classic roll."""

from __future__ import annotations

import json

from sqlalchemy import select

from adjudicator.rulings.forfeits import owing
from dice_server.db import reading
from dice_server.models import Game, LedgerEntry
from dice_server.services import ServiceContext
from dice_server.services.forfeits import _FOLDS, due, players, written
from dice_server.services.games import create_game
from dice_server.services.notes import send_note
from dice_server.services.rolls import roll_battle, write
from tests.conftest import League, battle
from tests.integration.test_ledger import member_id


def fresh_owing(ctx: ServiceContext, number: int) -> tuple[object, object]:
    """The clock as the service reads it (folded) and as the rule says of the whole ledger."""
    with reading(ctx.sessions) as session:
        game = session.get_one(Game, number)
        bodies = session.execute(
            select(LedgerEntry.body)
            .where(LedgerEntry.game_number == number)
            .order_by(LedgerEntry.seq)
        ).scalars()
        whole = owing([written(json.loads(b)) for b in bodies], players(session, game), None)
        return due(session, game).owing, whole


def test_the_folded_clock_is_the_whole_ledgers_after_every_entry(league: League) -> None:
    axis, allies = member_id(league, "axis"), member_id(league, "allies")
    steps = [
        lambda: roll_battle(league.ctx, axis, league.game, battle()),
        lambda: send_note(league.ctx, allies, league.game, {"topic": "general", "text": "hm"}),
        lambda: roll_battle(league.ctx, allies, league.game, battle(country="Germany")),
        lambda: send_note(league.ctx, axis, league.game, {"topic": "general", "text": "ok"}),
        lambda: roll_battle(league.ctx, axis, league.game, battle()),
    ]
    seen = set()
    for step in steps:
        step()
        folded, whole = fresh_owing(league.ctx, league.game)
        assert folded == whole
        seen.add(folded.side)  # type: ignore[attr-defined]
    assert seen == {"axis", "allies"}  # the move changed hands, and the fold followed


def test_a_fold_of_another_database_is_not_trusted(league: League) -> None:
    roll_battle(league.ctx, member_id(league, "axis"), league.game, battle())
    fresh_owing(league.ctx, league.game)
    poisoned = 0
    for key, kept in list(_FOLDS.items()):
        if key == (id(league.ctx.sessions.kw["bind"]), league.game):  # as if the database
            # had been replaced under the fold
            wrong = kept.fold.copy()
            wrong.turns = {"allies@example.org": max(kept.fold.turns.values())}
            _FOLDS[key] = type(kept)(kept.seq, "0" * 64, wrong, {})
            poisoned += 1
    assert poisoned == 1  # trusted, the poisoned fold would say the Axis owes the move
    folded, whole = fresh_owing(league.ctx, league.game)
    assert folded == whole and folded.side == "allies"  # type: ignore[attr-defined]


def test_another_systems_roll_is_a_turn(ctx: ServiceContext, league: League) -> None:
    number = create_game(
        ctx, axis="axis@example.org", allies="allies@example.org", system="triumph-of-the-will"
    ).game_number
    write(
        ctx,
        "roll",
        member_id(league, "allies"),
        number,
        {"kind": "will-air-roll", "turn": 1, "side": "Japanese", "german_hq": 1, "japanese_hq": 1},
    )
    folded, whole = fresh_owing(ctx, number)
    assert folded == whole
    assert folded.side == "axis"  # type: ignore[attr-defined]  # the Japanese player rolled
