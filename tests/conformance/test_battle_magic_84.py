"""IAAPA Rules Clarifications: MAGIC 84 (the Axis economic victory)."""

from __future__ import annotations

import pytest

from adjudicator.magic84 import magic_84
from adjudicator.powers import Power

ROUND_END = {Power.USSR: 20, Power.GERMANY: 50, Power.UK: 20, Power.JAPAN: 34, Power.USA: 23}
"""Axis 50 + 34 = 84."""


class TestMagic84:
    """- The Magic 84 count is performed immediately after the United States' turn.
    - If after the United States' turn the total combined Axis IPC Count is 84 or higher the
    game is over."""

    def test_84_after_the_us_turn_ends_the_game(self) -> None:
        check = magic_84(Power.USA, ROUND_END)
        assert check.performed and check.axis_count == 84 and check.game_over

    def test_twin_83_after_the_us_turn_does_not(self) -> None:
        check = magic_84(Power.USA, {**ROUND_END, Power.JAPAN: 33})
        assert check.performed and check.axis_count == 83 and not check.game_over

    @pytest.mark.parametrize("power", [Power.USSR, Power.GERMANY, Power.UK, Power.JAPAN])
    def test_no_count_after_any_other_turn(self, power: Power) -> None:
        """ "performed immediately after the United States' turn": 90 after Japan's turn
        (or anyone else's) ends nothing."""
        check = magic_84(power, {**ROUND_END, Power.JAPAN: 40})
        assert not check.performed and not check.game_over and check.axis_count is None

    def test_allied_counts_do_not_add(self) -> None:
        """Only the Axis count: a large Allied count changes nothing."""
        check = magic_84(Power.USA, {**ROUND_END, Power.USA: 60, Power.JAPAN: 30})
        assert check.axis_count == 80 and not check.game_over

    def test_every_axis_power_must_be_counted(self) -> None:
        with pytest.raises(ValueError, match="JAPAN"):
            magic_84(Power.USA, {Power.GERMANY: 90})

    def test_negative_count_is_refused(self) -> None:
        with pytest.raises(ValueError, match="GERMANY"):
            magic_84(Power.USA, {Power.GERMANY: -1, Power.JAPAN: 90})
