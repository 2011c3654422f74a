"""Every email of the notation corpus can be played out: findings, never an exception.

The corpus (``tests/data/turns``) is emails as players write them, each read on its own: played
against the Classic opening with nobody's dice, most of them disagree with the board, and that
must come out as findings on a position, as the service would show them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.notation import parse
from adjudicator.position import Position, dump_json, initial, load_json
from adjudicator.turns import advance

CORPUS = sorted((Path(__file__).resolve().parents[2] / "data" / "turns").glob("*.txt"))


def _start_for(power: object) -> Position:
    start = initial()
    while power is not None and start.to_move is not power:
        start = start.next_turn()
    return start


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_every_email_plays_out(path: Path) -> None:
    turn = parse(path.read_text(encoding="utf-8"))
    start = _start_for(turn.power)
    played = advance(start, None, turn, {})
    after = played.position
    assert after.to_move is not start.to_move
    assert all(ipcs >= 0 for ipcs in after.bank.values())
    assert load_json(dump_json(after), checked=False) == after
    assert all(f.code for f in played.findings)


def test_the_corpus_is_there() -> None:
    assert len(CORPUS) >= 40
