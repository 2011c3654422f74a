#!/usr/bin/env python3
"""Regenerate adjudicator/bigworld/data/big_world_1942.json (the unit rules) and
adjudicator/boards/data/big_world_1942.json (the board: places and connections) from
TripleA's big_world_1942.xml (run by hand).

    .venv/bin/python scripts/gen_big_world.py [path/to/big_world_1942.xml]

The default source is ../shared/data/triplea/big_world_1942.xml beside the project. The
product only ever reads the generated JSON; tests/unit/adjudicator checks it equals a fresh
reading.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.bigworld.extract import big_world_rules_document  # noqa: E402
from adjudicator.boards.serialize import dumps_board  # noqa: E402
from adjudicator.boards.triplea import load_triplea_xml  # noqa: E402

DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "triplea" / "big_world_1942.xml"
TARGET = ROOT / "adjudicator" / "bigworld" / "data" / "big_world_1942.json"
BOARD_TARGET = ROOT / "adjudicator" / "boards" / "data" / "big_world_1942.json"


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    document = big_world_rules_document(source)
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {TARGET}: {len(document['units'])} unit types")
    board = load_triplea_xml(source)
    BOARD_TARGET.write_text(dumps_board(board), encoding="utf-8")
    print(f"wrote {BOARD_TARGET}: {len(board.land)} land, {len(board.sea)} sea")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
