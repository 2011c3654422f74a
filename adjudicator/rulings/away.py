"""Away notices: a player who said through the roller that he would be away is not counted
silent while he is (IAAPA Forfeits and Annulments, Forfeits; issue 22).

"If a player has not submitted his turn within 5 days and has not complied with the turn
submission guidelines then you may initiate a forfeit." A player who posts an away notice
has told his opponent, in a way whose timing can be verified, when he cannot move: the
forfeit line, and the reminders before it, are pushed back by the time of his notices that
overlaps the wait, at most :data:`MAX_AWAY` a notice. Notices that overlap each other count
their common days once.

A notice covers whole UTC days, ``first`` to ``last`` inclusive, but counts only from the UTC
day it was given: a notice posted late cannot reach back over a silence already served (a
player six days silent may not undo his opponent's right to request a forfeit with a notice
dated last week); he may still explain his absence to the Minister of Law.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from adjudicator.notation.messages import subject_words

MAX_AWAY = timedelta(days=14)
"""The longest an away notice may be (issue 22: "at most 14 days a notice")."""


def midnight(day: date) -> datetime:
    """The start of a UTC day."""
    return datetime.combine(day, time(), tzinfo=UTC)


@dataclass(frozen=True)
class AwayNotice:
    """An away notice: the UTC days ``first`` to ``last`` (inclusive) its player is away,
    and when he ``given`` it (the note's ledger time, aware)."""

    first: date
    last: date
    given: datetime

    @property
    def start(self) -> datetime:
        """When the notice starts to count: its first day, or the day it was given if later."""
        return max(midnight(self.first), midnight(self.given.astimezone(UTC).date()))

    @property
    def end(self) -> datetime:
        """When it stops counting: the end of its last day, at most 14 days from its first."""
        return min(midnight(self.last) + timedelta(days=1), midnight(self.first) + MAX_AWAY)


def _periods(notices: Iterable[AwayNotice], since: datetime) -> list[tuple[datetime, datetime]]:
    """The times the notices cover from ``since`` on, merged where they overlap, in order."""
    spans = sorted(
        (max(notice.start, since), notice.end) for notice in notices if notice.end > since
    )
    merged: list[tuple[datetime, datetime]] = []
    for start, end in spans:
        if start >= end:
            continue
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def away_within(since: datetime, now: datetime, notices: Iterable[AwayNotice]) -> timedelta:
    """How much of the wait from ``since`` to ``now`` the notices cover."""
    covered = timedelta(0)
    for start, end in _periods(notices, since):
        if start >= now:
            break
        covered += min(end, now) - start
    return covered


def silent_for(since: datetime, now: datetime, notices: Iterable[AwayNotice]) -> timedelta:
    """How long the player has been silent at ``now``, his time away not counted."""
    return now - since - away_within(since, now, notices)


def line_after(since: datetime, wait: timedelta, notices: Iterable[AwayNotice]) -> datetime:
    """When a player silent since ``since`` has been silent ``wait`` (the forfeit line, or a
    reminder's time), his time away not counted: ``since + wait`` pushed back by each notice
    that starts before the line it has pushed so far."""
    at, left = since, wait
    for start, end in _periods(notices, since):
        if start - at >= left:
            break
        left -= start - at
        at = end
    return at + left


_AWAY = re.compile(r"away\b", re.IGNORECASE)
_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
AWAY_SUBJECT = "Away 2026-12-01 to 2026-12-10, or Away until 2026-12-10"
"""How a player writes an away notice in a mail's subject (UTC days, inclusive)."""


class UnreadAway(ValueError):
    """A subject that starts with "Away" but whose days cannot be read."""


def away_subject(subject: str, today: date) -> tuple[date, date] | None:
    """The days of the away notice a mail's subject gives (its first word, after any
    ``Re:`` and ``[Game n]``, is "Away"): two ``YYYY-MM-DD`` days, from and until, or one,
    until, counted from ``today``. None when the subject is not an away notice; raises
    :class:`UnreadAway`, saying how to write it, when its days cannot be read. Whether
    they are allowed (14 days at most, not past) is the note's own check."""
    words = subject_words(subject)
    if not _AWAY.match(words):
        return None
    found = _DAY.findall(words)
    try:
        days = [date(int(y), int(m), int(d)) for y, m, d in found]
    except ValueError as exc:
        raise UnreadAway(f"{exc} in the subject {subject!r}: write {AWAY_SUBJECT}") from None
    if len(days) == 1:
        return today, days[0]
    if len(days) == 2:
        return days[0], days[1]
    raise UnreadAway(
        f"an away notice needs its days (UTC, YYYY-MM-DD) in the subject: write {AWAY_SUBJECT}"
        f" (the subject {subject!r} has {len(days)})"
    )


__all__ = [
    "AWAY_SUBJECT",
    "MAX_AWAY",
    "AwayNotice",
    "UnreadAway",
    "away_subject",
    "away_within",
    "line_after",
    "midnight",
    "silent_for",
]
