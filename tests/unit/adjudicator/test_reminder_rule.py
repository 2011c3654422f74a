"""The turn clock (adjudicator.rulings.clock) under IAAPA Forfeits and Annulments, Forfeits:
which reminder a silent player is owed, on facts given as values."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from adjudicator.rulings.clock import (
    FORFEIT_LINE,
    Reminder,
    Sent,
    TurnClock,
    due_reminder,
    reminders_sent,
)
from adjudicator.rulings.forfeits import WAIT, Owing

WITHIN_5_DAYS = (
    "If a player has not submitted his turn within 5 days and has not complied with the turn "
    "submission guidelines then you may initiate a forfeit."
)
START = datetime(2026, 11, 21, 12, tzinfo=UTC)
SILENT = Owing("allies", START)
CLOCK = TurnClock()


def at(days: float) -> datetime:
    return START + timedelta(days=days)


class TestForfeitsWithin5Days:
    """If a player has not submitted his turn within 5 days and has not complied with the turn
    submission guidelines then you may initiate a forfeit.

    The player who owes the move is reminded after 3 days of silence and then daily; when
    the 5 days pass, both players are told once."""

    def test_the_rule_is_quoted(self, rules_text: str) -> None:
        assert WITHIN_5_DAYS in rules_text

    def test_the_default_forfeit_line_is_the_rules_5_days(self) -> None:
        assert CLOCK.forfeit_after == WAIT == timedelta(days=5)
        assert (CLOCK.after, CLOCK.every) == (timedelta(days=3), timedelta(days=1))

    def test_no_reminder_before_3_days(self) -> None:
        assert due_reminder(SILENT, CLOCK, [], at(3) - timedelta(seconds=1)) is None

    def test_the_first_reminder_after_3_days(self) -> None:
        assert due_reminder(SILENT, CLOCK, [], at(3)) == Reminder(1)

    def test_one_reminder_a_period(self) -> None:
        sent = [Sent("1", at(3))]
        assert due_reminder(SILENT, CLOCK, sent, at(3.5)) is None
        assert due_reminder(SILENT, CLOCK, sent, at(4)) == Reminder(2)

    def test_a_late_reminder_delays_the_next_by_a_whole_period(self) -> None:
        sent = [Sent("1", at(3.9))]  # the scheduler was down
        assert due_reminder(SILENT, CLOCK, sent, at(4)) is None
        assert due_reminder(SILENT, CLOCK, sent, at(4.9)) == Reminder(2)

    def test_the_forfeit_line_once_at_5_days(self) -> None:
        sent = [Sent("1", at(3)), Sent("2", at(4))]
        assert due_reminder(SILENT, CLOCK, sent, at(5) - timedelta(seconds=1)) is None
        line = due_reminder(SILENT, CLOCK, sent, at(5))
        assert line == Reminder(None) and line.forfeit_line and line.key == FORFEIT_LINE
        sent.append(Sent(FORFEIT_LINE, at(5)))
        assert due_reminder(SILENT, CLOCK, sent, at(5.5)) is None
        assert due_reminder(SILENT, CLOCK, sent, at(6)) == Reminder(3)
        assert reminders_sent(sent) == 2

    def test_a_line_shorter_than_the_first_reminder(self) -> None:
        short = TurnClock(after=timedelta(days=3), forfeit_after=timedelta(days=2))
        assert due_reminder(SILENT, short, [], at(2)) == Reminder(None)
        assert due_reminder(SILENT, short, [Sent(FORFEIT_LINE, at(2))], at(3)) == Reminder(1)

    def test_settings_must_be_positive(self) -> None:
        with pytest.raises(ValueError, match="every must be a positive duration"):
            TurnClock(every=timedelta(0))


class TestANoteIsHeardButIsNotATurn:
    """A note of the player who owes the move (he writes that he is ill, or asks a question)
    shows he is there: he is reminded only after as much silence again. It is not his turn:
    "If a player has not submitted his turn within 5 days ..." still counts from the wait's
    start, so the forfeit line does not move (an away notice is what pauses it)."""

    def test_a_note_of_his_is_heard_and_a_note_of_his_opponent_is_not(self) -> None:
        from adjudicator.rulings.forfeits import Written, owing

        players = {"axis": "axis@example.org", "allies": "allies@example.org"}
        made = Written("genesis", "", START)
        his = Written("note", "allies@example.org", at(2))
        theirs = Written("note", "axis@example.org", at(2.5))
        due = owing([made, his, theirs], players, None)
        assert due.silent_since == START and due.heard_since == at(2)
        assert owing([made, theirs], players, None).heard_since == START
        away = Written("note", "allies@example.org", at(2), topic="away")
        assert owing([made, away], players, None).heard_since == START  # paused, not heard

    def test_his_note_puts_the_next_reminder_off_by_a_whole_wait(self) -> None:
        heard = Owing("allies", START, at(2))
        assert due_reminder(heard, CLOCK, [], at(3)) is None
        assert due_reminder(heard, CLOCK, [], at(5) - timedelta(seconds=1)) is None
        assert due_reminder(heard, CLOCK, [], at(5)) == Reminder(None)  # the line still holds
        assert due_reminder(heard, CLOCK, [Sent(FORFEIT_LINE, at(5))], at(6)) == Reminder(1)
