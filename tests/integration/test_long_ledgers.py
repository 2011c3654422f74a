"""Issue 12, point 9: a game's page rendered its whole ledger (21 MB and 4.7 s at 35,000
entries). Now a game's page and a TripleA table's page show one page of the ledger, newest
entry first, with links to the earlier and later pages; only that page's entries are read
from the database; a bad page number is a clear 400, never a 500."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from dice_server.models import LedgerEntry, TableEntry
from dice_server.services import ServiceContext
from dice_server.services.keys import published_keys
from dice_server.services.paging import PAGE_ENTRIES
from dice_server.triplea.addresses import register_now
from dice_server.verifier import verify_ledger
from tests.bulk import append_battles, table_rolls
from tests.conftest import League, logged_in

ENTRIES = 10 * PAGE_ENTRIES + 50  # the genesis and 1,049 battle rolls: 11 pages
NEWEST = list(range(ENTRIES, ENTRIES - PAGE_ENTRIES, -1))
#: A page of a hundred battle rolls is about 70 KB; the whole ledger would be 700 KB.
PAGE_BYTES = 120_000


@pytest.fixture
def long_game(league: League) -> League:
    append_battles(league.ctx, league.game, ENTRIES - 1, "axis@example.org")
    return league


@contextmanager
def loaded(model: type[LedgerEntry] | type[TableEntry]) -> Iterator[list[int]]:
    """The seq of every entry of ``model`` read from the database inside the block."""
    seen: list[int] = []

    def count(target: LedgerEntry | TableEntry, _context: object) -> None:
        seen.append(target.seq)

    event.listen(model, "load", count)
    try:
        yield seen
    finally:
        event.remove(model, "load", count)


def shown(html: str, prefix: str) -> list[int]:
    return [int(seq) for seq in re.findall(rf'id="{prefix}-(\d+)"', html)]


def link(html: str, rel: str) -> str | None:
    found = re.search(rf'<a href="([^"]+)" rel="{rel}">', html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_the_game_page_opens_on_the_newest_entries(app: Flask, long_game: League) -> None:
    client = logged_in(app, long_game.ctx, "axis@example.org")
    with loaded(LedgerEntry) as read:
        response = client.get(f"/games/{long_game.game}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and len(response.data) < PAGE_BYTES
    assert shown(html, "entry") == NEWEST  # a full page, newest first
    assert sorted(read, reverse=True) == NEWEST  # and only its entries were read
    assert "Entries #1050 to #951 of 1050" in html
    assert "Ledger: turns 95 to 105" in html  # the turns its rolls name
    assert link(html, "prev") is None  # nothing newer


def test_older_links_reach_the_first_entry_and_newer_links_come_back(
    app: Flask, long_game: League
) -> None:
    client = logged_in(app, long_game.ctx, "mentor@example.org")
    url: str | None = f"/games/{long_game.game}"
    seen: list[int] = []
    pages: list[str] = []
    while url is not None:
        response = client.get(url)
        assert response.status_code == 200 and len(response.data) < PAGE_BYTES
        html = response.get_data(as_text=True)
        on_page = shown(html, "entry")
        assert on_page == sorted(on_page, reverse=True) and len(on_page) <= PAGE_ENTRIES
        seen += on_page
        pages.append(url)
        url = link(html, "next")
    assert seen == list(range(ENTRIES, 0, -1))  # every entry once, newest to oldest
    assert "game created" in html  # the oldest page ends with the genesis entry
    assert pages[-1].endswith("?from=50") and len(pages) == 11
    newer = link(html, "prev")
    assert newer is not None and newer.endswith("?from=150")
    assert shown(client.get(newer).get_data(as_text=True), "entry") == list(range(150, 50, -1))
    # A link names the entry its page starts from: it shows the same entries for ever.
    append_battles(long_game.ctx, long_game.game, 7, "axis@example.org")
    assert shown(client.get(newer).get_data(as_text=True), "entry") == list(range(150, 50, -1))


#: (entry a page starts from, status, first entry shown)
PAGE_CASES = [
    ("300", 200, 300),
    ("0", 200, 1),  # kept within the ledger
    ("999999", 200, ENTRIES),
    ("", 200, ENTRIES),
    (" 200 ", 200, 200),
    ("abc", 400, None),
    ("-1", 400, None),
    ("1.5", 400, None),
    ("9" * 5000, 400, None),  # too long for int() since Python 3.11: must not be a 500
    ("\u0663", 400, None),  # an Arabic-Indic digit: int() takes it, a page number not
]


def test_a_bad_page_number_is_a_clear_400(app: Flask, long_game: League) -> None:
    client = logged_in(app, long_game.ctx, "axis@example.org")
    for page, status, first in PAGE_CASES:
        response = client.get(f"/games/{long_game.game}", query_string={"from": page})
        html = response.get_data(as_text=True)
        assert response.status_code == status, page
        if first is None:
            assert "from must be an entry number" in html
        else:
            assert shown(html, "entry")[0] == first, page


def test_an_entry_page_reads_one_entry_and_links_back_to_its_page(
    app: Flask, long_game: League
) -> None:
    client = logged_in(app, long_game.ctx, "allies@example.org")
    with loaded(LedgerEntry) as read:
        html = client.get(f"/games/{long_game.game}/entries/150").get_data(as_text=True)
        signed = client.get(f"/games/{long_game.game}/entries/150.json").get_json()
    assert read == [150, 150]
    assert f'href="/games/{long_game.game}?from=150#entry-150"' in html
    newest = client.get(f"/games/{long_game.game}/entries/1000").get_data(as_text=True)
    assert f'href="/games/{long_game.game}#entry-1000"' in newest
    assert '"seq":150' in signed["body"]
    assert client.get(f"/games/{long_game.game}/entries/{ENTRIES + 1}").status_code == 404


def test_a_short_game_has_one_page_and_no_links(app: Flask, league: League) -> None:
    client = logged_in(app, league.ctx, "axis@example.org")
    html = client.get(f"/games/{league.game}").get_data(as_text=True)
    assert shown(html, "entry") == [1] and "Entries #" not in html
    assert 'rel="next"' not in html and 'name="from"' not in html


def test_a_strangers_page_is_refused_before_anything_is_read(app: Flask, long_game: League) -> None:
    client = logged_in(app, long_game.ctx, "stranger@example.org")
    with loaded(LedgerEntry) as read:
        assert client.get(f"/games/{long_game.game}?from=200").status_code == 403
    assert read == []


def test_the_table_page_shows_a_page_of_rolls_and_offers_the_whole_ledger(
    client: FlaskClient, ctx: ServiceContext
) -> None:
    register_now(ctx, "ger@example.org")
    register_now(ctx, "rus@example.org")
    rolls = PAGE_ENTRIES + 30
    path = f"/tables/{table_rolls(ctx, 'ger@example.org', 'rus@example.org', rolls)}"
    with loaded(TableEntry) as read:
        html = client.get(path).get_data(as_text=True)
    newest = list(range(rolls + 1, rolls + 1 - PAGE_ENTRIES, -1))
    assert shown(html, "roll") == newest and sorted(read, reverse=True) == newest
    assert "attack 129" in html and "ger@example.org" not in html
    older = link(html, "next")
    assert older is not None and older.endswith(f"?from={rolls + 1 - PAGE_ENTRIES}")
    first = client.get(older).get_data(as_text=True)
    assert shown(first, "roll") == list(range(rolls - PAGE_ENTRIES + 1, 0, -1))
    assert "table opened" in first
    assert client.get(f"{path}?from=x").status_code == 400
    # The whole signed ledger is a download, and it verifies.
    download = client.get(f"{path}/ledger.json")
    assert download.headers["Content-Disposition"] == 'attachment; filename="LEDGER.json"'
    ledger = download.get_json()
    assert len(ledger["entries"]) == rolls + 1
    assert verify_ledger(ledger, published_keys(ctx)).ok
