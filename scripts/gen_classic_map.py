#!/usr/bin/env python3
"""Regenerate adjudicator/boards/data/classic_map.json from TripleA's map files (by hand).

    .venv/bin/python scripts/gen_classic_map.py [path/to/world_war_ii_classic]

The default source is ../shared/data/triplea/world_war_ii_classic/ beside the project
(polygons.txt, centers.txt, place.txt, map.properties). The product only ever reads the
generated JSON; tests/unit/adjudicator/test_board_drawing.py checks it equals a fresh
generation. Space names are checked against the shipped Classic board.
"""

from __future__ import annotations

import sys
from pathlib import Path

from adjudicator.boards import classic_unclarified
from adjudicator.boards.geometry import dumps_map
from adjudicator.boards.triplea_map import TOLERANCE, read_triplea_map

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "triplea" / "world_war_ii_classic"
TARGET = ROOT / "adjudicator" / "boards" / "data" / "classic_map.json"
SOURCE_NOTE = (
    "TripleA map world_war_ii_classic (polygons.txt, centers.txt, place.txt, map.properties); "
    f"outlines simplified to {TOLERANCE} px"
)


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    board_map = read_triplea_map(source, classic_unclarified(), source=SOURCE_NOTE)
    text = dumps_map(board_map)
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(text, encoding="utf-8")
    points = sum(len(ring) for s in board_map.spaces.values() for ring in s.polygons)
    print(
        f"wrote {TARGET}: {len(board_map.spaces)} spaces, {points} outline points, "
        f"{len(text.encode('utf-8'))} bytes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
