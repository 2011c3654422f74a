#!/usr/bin/env python3
"""Regenerate adjudicator/boards/data/classic.json from TripleA's classic.xml (run by hand).

    .venv/bin/python scripts/gen_classic_board.py [path/to/classic.xml]

The default source is ../shared/data/triplea/classic.xml beside the project. The product only
ever reads the generated JSON; tests/unit/adjudicator checks it equals a fresh generation.
"""

from __future__ import annotations

import sys
from pathlib import Path

from adjudicator.boards.serialize import dumps_board
from adjudicator.boards.triplea import load_triplea_xml

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "triplea" / "classic.xml"
TARGET = ROOT / "adjudicator" / "boards" / "data" / "classic.json"


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    board = load_triplea_xml(source)
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(dumps_board(board), encoding="utf-8")
    print(
        f"wrote {TARGET}: {len(board.land)} land, {len(board.sea)} sea, "
        f"{len(board.connections())} connections"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
