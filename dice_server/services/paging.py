"""Long ledgers a page at a time (issue 12, point 9: a game's page rendered 35,000 entries,
21 MB in 4.7 s).

A page shows ``size`` entries newest first, down from the entry its link names
(``?from=2500``: entries #2500 to #2401); without one it shows the newest entries. The
ledger is append-only, so a link always shows the same entries; a page is read with one
range query on the (ledger, seq) index; the newest page is always full.

Pages hold a fixed number of entries rather than one game turn each: the turn is a number
the player types (notes have none) and is not indexed, so a page per turn would need a
scan of the ledger; each page says which turns its rolls name instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy.orm import Session

from dice_server import ledger
from dice_server.errors import InvalidRequest
from dice_server.ledger import Chain, SignedEntry

#: Entries per page: a few game turns, about 70 KB of page.
PAGE_ENTRIES = 100

_ENTRY_NUMBER = re.compile(r"[0-9]{1,12}")


@dataclass(frozen=True)
class Pager:
    """The entries ``first_seq`` to ``last_seq`` of a ledger of ``total`` entries."""

    last_seq: int
    size: int
    total: int

    @property
    def first_seq(self) -> int:
        return max(1, self.last_seq - self.size + 1)

    @property
    def is_newest(self) -> bool:
        return self.last_seq >= self.total

    @property
    def newer(self) -> int | None:
        """Where the next newer page starts; None when that is the newest page."""
        top = self.last_seq + self.size
        return top if top < self.total else None

    @property
    def older(self) -> int | None:
        """Where the next older page starts; None on the page of entry #1."""
        return self.first_seq - 1 if self.first_seq > 1 else None

    @property
    def oldest(self) -> int:
        """Where the page of the first entries starts."""
        return min(self.size, self.total)

    @property
    def several(self) -> bool:
        return self.total > self.size


def entry_number(raw: str | None) -> int | None:
    """The entry a page link (``?from=``) starts from; None (or empty) for the newest."""
    if raw is None or not raw.strip():
        return None
    if not _ENTRY_NUMBER.fullmatch(raw.strip()):
        raise InvalidRequest(
            "from must be an entry number, a whole number: the page shows that entry and "
            "the ones before it; leave it out for the newest",
            "from",
        )
    return int(raw)


def pager(total: int, start: int | None, size: int = PAGE_ENTRIES) -> Pager:
    """The page down from entry ``start``, kept within the ledger (the newest when none)."""
    top = total if start is None else min(max(start, 1), total)
    return Pager(last_seq=max(top, 0), size=size, total=total)


@dataclass(frozen=True)
class LedgerPage:
    """A page of a ledger: where it lies, and its entries, newest first."""

    pages: Pager
    entries: list[SignedEntry]


def read_page(session: Session, chain: Chain, start: int | None) -> LedgerPage:
    """The page of ``chain`` down from entry ``start`` (else the newest), read with one
    range query."""
    head = ledger.head(session, chain)
    pages = pager(head.seq if head else 0, start)
    seqs = range(pages.first_seq, pages.last_seq + 1)
    return LedgerPage(pages, ledger.entries(session, chain, seqs, newest_first=True))
