"""The registry of entry kinds (dice_server.kinds) is what every channel reads, and the
standalone verifier's own frozen list of kinds agrees with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from dice_server import verifier
from dice_server.app import create_app
from dice_server.kinds import BY_API_PATH, REGISTRY, ROLL_KINDS, WRITTEN, describe, subject, turn

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_the_verifier_keeps_the_same_kinds() -> None:
    """The verifier is standalone (players run it without the server), so it keeps its own
    list; a kind the server writes and the verifier does not know would fail every ledger
    holding one."""
    assert verifier.ROLL_KINDS == ROLL_KINDS
    assert set(REGISTRY) <= verifier.KINDS
    assert verifier.SEED_KINDS <= set(REGISTRY)


def test_every_kind_a_member_writes_has_a_reader_a_page_and_a_template() -> None:
    assert {k.name for k in WRITTEN} == {
        "roll",
        "tech-roll",
        "bombing-roll",
        "rocket-roll",
        "note",
        "tt-combat-round",
        "tt-turn-order",
        "will-battle-roll",
        "will-air-roll",
        "will-rebel-roll",
        "will-atomic-roll",
    }
    for kind in WRITTEN:
        assert kind.read is not None and kind.form is not None, kind.name
        assert BY_API_PATH[kind.api_path] is kind
        template = kind.template or f"roller_{kind.page}.html"
        assert (TEMPLATES / template).is_file(), kind.name
    pages = [kind.page for kind in WRITTEN]
    assert len(set(pages)) == len(pages)
    endpoints = [kind.endpoint for kind in WRITTEN]
    assert len(set(endpoints)) == len(endpoints)


def test_every_kind_fits_the_ledger_column() -> None:
    """The stored ``kind`` column is 16 characters: PostgreSQL refuses a longer name (SQLite
    would not notice)."""
    from dice_server.models import LedgerEntry

    width = LedgerEntry.__table__.c.kind.type.length
    assert width == 16
    assert [name for name in REGISTRY if len(name) > width] == []


def test_each_game_system_has_its_own_roll_kinds() -> None:
    """Only a game's own system's kinds are thrown in it: each roll kind belongs to one."""
    from dice_server.kinds import system_rolls
    from dice_server.kinds.systems import GAME_SYSTEMS

    owned = [k.name for system in GAME_SYSTEMS for k in system_rolls(system)]
    assert sorted(owned) == sorted(k.name for k in WRITTEN if k.rolls)
    assert {k.name for k in system_rolls("aa-classic")} == {
        "roll",
        "tech-roll",
        "bombing-roll",
        "rocket-roll",
    }


def test_the_api_and_the_roller_route_every_written_kind(instance: Path, database_url: str) -> None:
    app = create_app({"INSTANCE_PATH": str(instance), "DATABASE_URL": database_url})
    routes = app.url_map.bind("localhost")
    for kind in WRITTEN:
        endpoint, values = routes.match(f"/api/v1/games/7/{kind.api_path}", method="POST")
        assert (endpoint, values) == ("api.post_entry", {"number": 7, "what": kind.api_path})
        endpoint, values = routes.match(f"/games/7/{kind.page}", method="GET")
        assert endpoint == f"roller.{kind.endpoint}" and values == {"number": 7}


@pytest.mark.parametrize(
    ("kind", "data", "headline"),
    [
        (
            "note",
            {"topic": "retreat", "by": "a@b", "text": "to Karelia"},
            "note (retreat) from a@b",
        ),
        ("commitment", {"seed_commitment": "ab", "reason": "x"}, "game reopened"),
        ("ruling", {"status": "proposed", "refers_to": 7}, "ruling proposed (entry #7)"),
        ("appeal", {}, "appeal"),  # a kind this server does not know reads as its name
    ],
)
def test_subjects_come_from_the_kind(kind: str, data: dict[str, str], headline: str) -> None:
    assert subject(12, 3, kind, data) == f"[Game 12] #3 {headline}"


def test_a_description_has_the_writer_the_kind_and_the_comment() -> None:
    lines = describe(
        "rocket-roll",
        {
            "by": "monty@example.org",
            "country": "UK",
            "turn": 3,
            "round": 2,
            "target": "Germany",
            "from": "UK",
            "groups": [{"unit": "AA", "purpose": "rocket", "count": 1, "dice": [4], "damage": 4}],
            "damage": 4,
            "comment": "for Coventry",
        },
    )
    assert lines == [
        "By: monty@example.org",
        "UK, turn 3, round 2",
        "Target: Germany, from UK",
        "Dice in the order thrown:",
        "  AA x1 rocket: 4 -> 4 IPC",
        "Damage: 4 IPC",
        "",
        "Comment: for Coventry",
    ]


def test_a_turn_shows_what_the_dice_found_once() -> None:
    """A finding of the turn played out from the dice that the email's own check made on
    the same line (the map against the orders, a space left out) is not said twice; one the
    check could not make (a result the dice contradict) is."""
    data = {
        "power": "Japan",
        "round": 1,
        "phase": "post-combat",
        "position_sha256": "0" * 64,
        "text": "...",
        "findings": [
            {
                "line": 20,
                "code": "map-overruled",
                "severity": "warning",
                "message": "m",
                "rule": "r",
            },
            {"line": 18, "code": "map-omits", "severity": "warning", "message": "o", "rule": "r"},
        ],
        "played_out": [
            {
                "line": 6,
                "code": "result-differs",
                "severity": "warning",
                "message": "d",
                "rule": "r",
            },
            {
                "line": 20,
                "code": "map-disagrees",
                "severity": "warning",
                "message": "x",
                "rule": "r",
            },
            {
                "line": 18,
                "code": "map-leaves-out",
                "severity": "warning",
                "message": "y",
                "rule": "r",
            },
            {
                "line": 21,
                "code": "map-disagrees",
                "severity": "warning",
                "message": "z",
                "rule": "r",
            },
        ],
    }
    assert [f["message"] for f in turn.against_the_dice(data)] == ["d", "z"]
    lines = turn.describe(data)
    assert "Played out from the dice (the position follows them): 2 more" in lines
