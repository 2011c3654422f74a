"""League ratings: Elo over sanctioned games, in the order they ended.

The league rates sanctioned 2nd edition games only: variants and annulled games are not
rated (IAAPA Annulments: "Annulled games are not 'draws' and have no affect on Association
ranking or rating points"), and a forfeit is a win for the player who did not forfeit. A game
between A and B that A wins moves both ratings by

    K * (1 - E),   E = 1 / (1 + 10 ** ((R_B - R_A) / 400))

up for A and down for B, with every member starting at :data:`START` and K
(:data:`K_FACTOR`) the same for everyone. Elo rather than Glicko-2: one published number a
member can recompute by hand from the list of results, and no rating-period bookkeeping for
a league whose games last months. Ratings are kept unrounded while computing and shown
rounded to whole points.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

START = 1500.0
"""Every member's rating before his first rated game."""
K_FACTOR = 32.0
"""Points at stake in one game: the most a rating moves (a win against a far stronger
player); an even game moves each side K/2."""
SCALE = 400.0
"""A difference of this many points makes the stronger player ten times as likely to win."""

P = TypeVar("P", bound=Hashable)


def expected(rating: float, opponent: float) -> float:
    """The share of games a player rated ``rating`` is expected to win against
    ``opponent``."""
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / SCALE)))


@dataclass
class Rating(Generic[P]):
    """One member's rating and how many rated games it rests on."""

    member: P
    rating: float = START
    games: int = 0

    @property
    def points(self) -> int:
        """The rating as shown: whole points, halves rounded up."""
        return int(self.rating + 0.5)


def rate(results: Iterable[tuple[P, P]]) -> list[Rating[P]]:
    """The ratings after ``results``, each (winner, loser) in the order the games ended,
    ranked: highest rating first, then more games, then in the order members first played."""
    table: dict[P, Rating[P]] = {}
    for winner, loser in results:
        if winner == loser:
            raise ValueError(f"{winner!r} cannot beat himself")
        w = table.setdefault(winner, Rating(winner))
        lo = table.setdefault(loser, Rating(loser))
        change = K_FACTOR * (1.0 - expected(w.rating, lo.rating))
        w.rating += change
        lo.rating -= change
        w.games += 1
        lo.games += 1
    order = {member: i for i, member in enumerate(table)}
    return sorted(table.values(), key=lambda r: (-r.rating, -r.games, order[r.member]))
