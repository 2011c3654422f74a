"""Away notices (issue 22, point 3) under IAAPA Forfeits and Annulments, Forfeits: the rule
itself (adjudicator.rulings.away), on facts given as values."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from adjudicator.rulings.away import MAX_AWAY, AwayNotice, away_within, line_after, silent_for
from adjudicator.rulings.clock import FORFEIT_LINE, Sent, TurnClock, due_reminder
from adjudicator.rulings.forfeits import WAIT, Owing, forfeit_request

WITHIN_5_DAYS = (
    "If a player has not submitted his turn within 5 days and has not complied with the turn "
    "submission guidelines then you may initiate a forfeit."
)
START = datetime(2026, 11, 21, 12, tzinfo=UTC)
ABSENT = "allies@example.org"


def at(days: float) -> datetime:
    return START + timedelta(days=days)


def notice(first: str, last: str, given: datetime = START) -> AwayNotice:
    return AwayNotice(date.fromisoformat(first), date.fromisoformat(last), given)


class TestAwayNoticesPushTheForfeitLineBack:
    """If a player has not submitted his turn within 5 days and has not complied with the turn
    submission guidelines then you may initiate a forfeit.

    A player who gave an away notice through the roller complied: the 5 days are counted
    without the time his notices cover within the wait, at most 14 days a notice."""

    def test_the_rule_is_quoted(self, rules_text: str) -> None:
        assert WITHIN_5_DAYS in rules_text and "within 5 days" in WITHIN_5_DAYS

    def test_without_a_notice_the_line_is_5_days(self) -> None:
        assert WAIT == timedelta(days=5)
        assert line_after(START, WAIT, ()) == at(5)

    def test_a_notice_within_the_wait_pushes_the_line_by_its_length(self) -> None:
        away = [notice("2026-11-22", "2026-11-24")]  # 3 whole UTC days
        assert line_after(START, WAIT, away) == at(8)
        assert silent_for(START, at(8), away) == WAIT

    def test_only_the_part_overlapping_the_wait_counts(self) -> None:
        # Away from the 20th (before the wait began at noon on the 21st) to the 22nd.
        away = [notice("2026-11-20", "2026-11-22", given=at(-2))]
        assert away_within(START, at(9), away) == timedelta(days=1, hours=12)
        assert line_after(START, WAIT, away) == at(6.5)

    def test_a_notice_after_the_line_does_not_move_it(self) -> None:
        assert line_after(START, WAIT, [notice("2026-11-27", "2026-11-30")]) == at(5)

    def test_while_he_is_away_the_silence_does_not_grow(self) -> None:
        away = [notice("2026-11-22", "2026-11-24")]
        assert silent_for(START, at(1.5), away) == timedelta(hours=12)
        assert silent_for(START, at(3.5), away) == timedelta(hours=12)

    def test_overlapping_notices_count_their_common_days_once(self) -> None:
        away = [notice("2026-11-22", "2026-11-24"), notice("2026-11-23", "2026-11-25")]
        assert line_after(START, WAIT, away) == at(9)

    def test_a_notice_counts_at_most_14_days(self) -> None:
        long = notice("2026-11-22", "2026-12-11")  # 20 days, as no request could make it
        assert long.end - long.start == MAX_AWAY
        assert line_after(START, WAIT, [long]) == at(19)

    def test_a_notice_given_late_counts_from_the_day_it_was_given(self) -> None:
        """On day 6 the forfeit may be requested; a notice dated back over the silence
        already served does not take that away (it counts from its own day)."""
        late = notice("2026-11-21", "2026-11-28", given=at(6))
        assert late.start == datetime(2026, 11, 27, tzinfo=UTC)
        assert line_after(START, WAIT, [late]) == at(5)

    def test_a_request_inside_the_pushed_line_is_refused_then_allowed(self) -> None:
        due = Owing("allies", START)
        away = [notice("2026-11-22", "2026-11-24")]
        early = forfeit_request("axis", due, ABSENT, at(8) - timedelta(minutes=1), WAIT, away)
        assert not early.allowed
        assert "from 2026-11-29 12:00 UTC" in early.reason
        assert "away notices pushing the line back 3 days" in early.reason
        assert forfeit_request("axis", due, ABSENT, at(8), WAIT, away).allowed


class TestAwayNoticesPauseTheReminders:
    """The reminders before the forfeit line pause while the player is away (issue 22)."""

    clock = TurnClock()
    due = Owing("allies", START)
    away = (notice("2026-11-22", "2026-11-24"),)

    def test_the_first_reminder_comes_as_much_later(self) -> None:
        assert due_reminder(self.due, self.clock, [], at(3)) is not None  # without the notice
        assert (
            due_reminder(self.due, self.clock, [], at(6) - timedelta(seconds=1), self.away) is None
        )
        first = due_reminder(self.due, self.clock, [], at(6), self.away)
        assert first is not None and first.number == 1

    def test_the_forfeit_line_notice_comes_as_much_later(self) -> None:
        sent = [Sent("1", at(6)), Sent("2", at(7))]
        second = due_reminder(self.due, self.clock, sent, at(8) - timedelta(seconds=1), self.away)
        assert second is None
        line = due_reminder(self.due, self.clock, sent, at(8), self.away)
        assert line is not None and line.key == FORFEIT_LINE
