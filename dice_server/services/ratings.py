"""The league's ratings and rankings (adjudicator.ratings: Elo), from the games' results in
the order they ended: sanctioned games only (no variant, not annulled), a forfeit counting
as a win for the player who did not forfeit."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from adjudicator.battle.reading import CLASSIC_RULESET
from adjudicator.ratings import K_FACTOR, SCALE, START, rate
from dice_server.db import reading
from dice_server.models import Game, LedgerEntry, Member
from dice_server.services import ServiceContext

RATED_STATUSES = ("finished", "forfeited")

ENDED = (
    select(LedgerEntry.game_number, func.max(LedgerEntry.at).label("at"))
    .where(LedgerEntry.kind == "seed-reveal")
    .group_by(LedgerEntry.game_number)
    .subquery()
)
RATED_GAMES = (
    select(Game.number, Game.axis_id, Game.allies_id, Game.winner, ENDED.c.at)
    .join(ENDED, ENDED.c.game_number == Game.number)
    .where(
        Game.status.in_(RATED_STATUSES),
        Game.variant.is_(None),
        Game.low_luck.is_(False),  # Low Luck is not the MB 2nd edition's dice: a variant
        Game.ruleset == CLASSIC_RULESET,  # nor are Big World 1942's rules
        Game.winner.in_(("axis", "allies")),
    )
    .order_by(ENDED.c.at, Game.number)
)


@dataclass(frozen=True)
class Ranked:
    """A member's place in the rankings."""

    place: int
    member: str
    rating: int
    games: int


FORMULA = {"system": "Elo", "start": START, "k": K_FACTOR, "scale": SCALE}
"""The published constants (the rankings page explains them)."""


def rankings(ctx: ServiceContext) -> list[Ranked]:
    """Every member with a rated game, ranked (names only: the rankings are public)."""
    with reading(ctx.sessions) as session:
        results = [
            (row.axis_id, row.allies_id) if row.winner == "axis" else (row.allies_id, row.axis_id)
            for row in session.execute(RATED_GAMES)
        ]
        table = rate(results)
        members = select(Member.id, Member.name).where(Member.id.in_([r.member for r in table]))
        names = {row.id: row.name for row in session.execute(members)}
    return [
        Ranked(place, names[r.member], r.points, r.games) for place, r in enumerate(table, start=1)
    ]


def ratings_document(ctx: ServiceContext) -> dict[str, object]:
    """``GET /api/v1/ratings``: the ranked ratings and the formula's constants."""
    return {
        "ratings": [
            {"member": r.member, "rating": r.rating, "games": r.games} for r in rankings(ctx)
        ],
        "formula": FORMULA,
    }
