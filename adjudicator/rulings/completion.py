"""Who may post a game's finish, and when (IAAPA Game Completion), and when an annulment is
agreed (IAAPA Forfeits and Annulments, Annulments).

"Game finishes are to be entered by the victor. If, after 7 days have elapsed since the game
officially ended and the game finish has not been posted, the loser may enter the game
finish." The game officially ended with its last entry (the last turn played): the victor
may post at once, the loser 7 days after it.

"By mutual agreement a game may be annulled.": one player's agreement is not mutual; the
other player's makes it so.

The facts come in as values (the sides, the time the game ended, the time now).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from adjudicator.rulings.model import Permission

LOSER_WAITS = timedelta(days=7)
"""How long after the game's end the loser waits before he may post the finish."""


def finish_posting(poster: str, winner: str, ended: datetime, now: datetime) -> Permission:
    """Whether the player of side ``poster`` may post a finish naming ``winner`` at ``now``,
    the game having ended at ``ended``."""
    if poster == winner:
        return Permission.granted("game finishes are to be entered by the victor")
    allowed = ended + LOSER_WAITS
    if now < allowed:
        return Permission.refused(
            "game finishes are to be entered by the victor; the loser may enter it "
            f"7 days after the game ended, from {allowed:%Y-%m-%d %H:%M} UTC "
            "(IAAPA Game Completion)"
        )
    return Permission.granted(
        f"7 days have elapsed since the game ended ({ended:%Y-%m-%d %H:%M} UTC): the loser "
        "may enter the finish (IAAPA Game Completion)"
    )


def annulment_agreed(players_agreed: Sequence[str], players: Sequence[str]) -> bool:
    """Whether the agreements so far (the address of each player who agreed) are mutual:
    every player of the game has agreed (case-insensitive addresses)."""
    agreed = {address.casefold() for address in players_agreed}
    return all(address.casefold() in agreed for address in players)


__all__ = ["LOSER_WAITS", "annulment_agreed", "finish_posting"]
