"""The positions a game's row keeps, read once and kept by their SHA-256
(dice_server.services.positions.kept_position)."""

from __future__ import annotations

import pytest

from adjudicator.position import initial
from dice_server.services import positions
from dice_server.services.positions import digest, kept_position, position_text


def test_a_kept_position_is_read_once_and_is_the_position_written() -> None:
    text = position_text(initial())
    first = kept_position(text, digest(text))
    assert kept_position(text) is first  # the digest is worked out when not given
    assert position_text(first) == text


def test_each_position_is_kept_by_its_own_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(positions, "_KEPT", type(positions._KEPT)())
    monkeypatch.setattr(positions, "_KEPT_LIMIT", 2)
    start = initial()
    texts = [position_text(start.with_bank(start.to_move, ipcs)) for ipcs in (1, 2, 3)]
    read = [kept_position(text) for text in texts]
    assert [position_text(p) for p in read] == texts
    assert kept_position(texts[2]) is read[2]
    assert kept_position(texts[0]) is not read[0]  # the oldest was let go, and read again
    assert len(positions._KEPT) == 2
