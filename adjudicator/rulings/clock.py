"""The turn clock: which reminder a silent player is owed now (IAAPA Forfeits and
Annulments, Forfeits).

"If a player has not submitted his turn within 5 days and has not complied with the turn
submission guidelines then you may initiate a forfeit." Games die of silence long before
anybody asks for a forfeit, so the player who owes the move (:func:`adjudicator.rulings
.forfeits.owing` says who, and since when) is reminded after ``after`` of silence and then
every ``every``; when the rule's line (``forfeit_after``) passes, both players are told once
that a forfeit may now be requested.

Reminders are numbered 1, 2, ... within one wait (one ``silent_since``); the forfeit-line
notice is keyed :data:`FORFEIT_LINE`. A key is sent at most once a wait: the service records
each with a unique key, so the number is what makes two schedulers agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from adjudicator.rulings.away import AwayNotice, silent_for
from adjudicator.rulings.forfeits import WAIT, Owing

FORFEIT_LINE = "forfeit-line"
"""The key of the notice that the forfeit line has passed (sent once a wait)."""


@dataclass(frozen=True)
class TurnClock:
    """How long a player may be silent before he is reminded (``after``), how often he is
    reminded after that (``every``), and the rule's forfeit line (``forfeit_after``:
    "within 5 days")."""

    after: timedelta = timedelta(days=3)
    every: timedelta = timedelta(days=1)
    forfeit_after: timedelta = WAIT

    def __post_init__(self) -> None:
        for name in ("after", "every", "forfeit_after"):
            if getattr(self, name) <= timedelta(0):
                raise ValueError(f"turn clock: {name} must be a positive duration")


@dataclass(frozen=True)
class Sent:
    """A reminder already sent in the current wait: its key (``"1"``, ``"2"``, ... or
    :data:`FORFEIT_LINE`) and when."""

    key: str
    at: datetime


@dataclass(frozen=True)
class Reminder:
    """A reminder due now: the ``number``-th reminder of the wait, or (``number`` None) the
    notice that the forfeit line has passed."""

    number: int | None

    @property
    def key(self) -> str:
        """The key that makes it once a wait."""
        return FORFEIT_LINE if self.number is None else str(self.number)

    @property
    def forfeit_line(self) -> bool:
        return self.number is None


def reminders_sent(sent: Sequence[Sent]) -> int:
    """How many numbered reminders (not the forfeit-line notice) were sent in the wait."""
    return sum(1 for s in sent if s.key != FORFEIT_LINE)


def due_reminder(
    due: Owing,
    clock: TurnClock,
    sent: Sequence[Sent],
    now: datetime,
    away: Sequence[AwayNotice] = (),
) -> Reminder | None:
    """The reminder owed to the silent player at ``now``, if any, given those already
    ``sent`` in this wait (since ``due.silent_since``). His ``away`` notices pause the
    silence counted (:mod:`adjudicator.rulings.away`): no reminder while he is away, and the
    forfeit line comes as much later.

    The forfeit-line notice comes first, once, when ``forfeit_after`` of silence has passed.
    Reminder n is due after ``after + (n - 1) * every`` of silence, never sooner than
    ``after`` after he was last heard from (a note of his, :attr:`Owing.heard_since`), and
    never sooner than ``every`` after the last mail of the wait (a scheduler that was down,
    or the forfeit-line notice, does not make two mails in a row)."""
    silent = silent_for(due.silent_since, now, away)
    keys = {s.key for s in sent}
    if silent >= clock.forfeit_after and FORFEIT_LINE not in keys:
        return Reminder(None)
    number = reminders_sent(sent) + 1
    if silent < clock.after + (number - 1) * clock.every:
        return None
    if silent_for(due.heard_since, now, away) < clock.after:
        return None  # he wrote in this wait (a note): as much silence again before a reminder
    if sent and now < max(s.at for s in sent) + clock.every:
        return None
    return Reminder(number)


__all__ = ["FORFEIT_LINE", "Reminder", "Sent", "TurnClock", "due_reminder", "reminders_sent"]
