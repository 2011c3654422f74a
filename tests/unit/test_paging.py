"""dice_server.services.paging: pages of a ledger, newest first, each named by the entry
it starts from."""

from __future__ import annotations

import pytest

from dice_server.errors import InvalidRequest
from dice_server.services.paging import entry_number, pager


def test_the_newest_page_is_full_and_older_pages_follow_without_overlap() -> None:
    newest = pager(250, None, size=100)
    assert (newest.last_seq, newest.first_seq, newest.is_newest) == (250, 151, True)
    assert (newest.newer, newest.older, newest.oldest) == (None, 150, 100)
    older = pager(250, newest.older, size=100)
    assert (older.last_seq, older.first_seq, older.older) == (150, 51, 50)
    first = pager(250, older.older, size=100)
    assert (first.last_seq, first.first_seq, first.older) == (50, 1, None)
    assert first.newer == 150 and older.newer is None  # the newest page needs no number


def test_a_start_out_of_range_is_kept_within_the_ledger() -> None:
    assert pager(250, 0, size=100).last_seq == 1
    assert pager(250, 10**9, size=100).is_newest
    assert not pager(100, None, size=100).several and pager(101, None, size=100).several
    empty = pager(0, None, size=100)
    assert (empty.last_seq, empty.newer, empty.older) == (0, None, None)


@pytest.mark.parametrize("raw", ["x", "-1", "1.5", "1e3", "\u0663", "9" * 13, "0x10"])
def test_a_start_is_a_whole_number(raw: str) -> None:
    with pytest.raises(InvalidRequest, match="from must be an entry number"):
        entry_number(raw)


def test_no_start_means_the_newest() -> None:
    assert entry_number(None) is None and entry_number("") is None and entry_number(" ") is None
    assert entry_number(" 7 ") == 7 and entry_number("0") == 0
