"""The GEOGRAPHY overlay: each entry enforces its clarification on a board that breaks it."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.boards import (
    IAAPA_GEOGRAPHY,
    Board,
    OverlayError,
    Territory,
    apply_overlay,
    classic,
    classic_unclarified,
    load_triplea_xml,
)
from adjudicator.boards.iaapa_overlay import (
    BOTTOM_EDGE,
    GULF_OF_MEXICO,
    TOP_EDGE,
    WEST_INDIES,
    WEST_PANAMA,
    Adjacent,
    AirFollowsCanal,
    CanalIsNotASpace,
    Clarification,
    ExactNeighbours,
    NoWrapBetween,
    ShipPlacementZone,
)


def entry(key: str) -> Clarification:
    (found,) = [c for c in IAAPA_GEOGRAPHY if c.key == key]
    return found


@pytest.fixture
def raw() -> Board:
    return classic_unclarified()


def test_one_entry_per_geography_item_each_quoting_the_rule_text(rules_text: str) -> None:
    rules = rules_text
    section = rules[rules.index("GEOGRAPHY") : rules.index("AA GUNS")]
    items = [line[2:] for line in section.splitlines() if line.startswith("- ")]
    assert [c.quote for c in IAAPA_GEOGRAPHY] == items
    assert [c.key for c in IAAPA_GEOGRAPHY] == [f"GEOGRAPHY {n}" for n in range(1, 7)]


def test_classic_xml_already_agrees_with_every_clarification(raw: Board) -> None:
    """The overlay changes no connection of TripleA's Classic map; it records the rulings."""
    assert classic().connections() == raw.connections()
    assert classic().territories == raw.territories


def test_exact_neighbours_removes_extras_and_adds_missing(raw: Board) -> None:
    broken = raw.with_connections(
        add=[(GULF_OF_MEXICO, "Panama")], remove=[(GULF_OF_MEXICO, "Mexico")]
    )
    fixed = entry("GEOGRAPHY 1").apply(broken)
    assert fixed.neighbours(GULF_OF_MEXICO) == {
        "Mexico",
        "West US",
        "East US Sea Zone",
        WEST_INDIES,
    }
    assert fixed.clarifications == ("GEOGRAPHY 1",)


def test_exact_neighbours_needs_a_sea_zone(raw: Board) -> None:
    with pytest.raises(OverlayError, match="should be a sea zone"):
        ExactNeighbours("T", "q", "Mexico", frozenset({"West US"})).apply(raw)


def test_ship_placement_zone_makes_the_zone_touch_the_factory(raw: Board) -> None:
    broken = raw.with_connections(remove=[(GULF_OF_MEXICO, "West US")])
    assert GULF_OF_MEXICO not in broken.sea_zones_next_to("West US")
    fixed = entry("GEOGRAPHY 2").apply(broken)
    assert GULF_OF_MEXICO in fixed.sea_zones_next_to("West US")


def test_ship_placement_zone_needs_an_original_factory(raw: Board) -> None:
    with pytest.raises(OverlayError, match="no original IC"):
        ShipPlacementZone("T", "q", GULF_OF_MEXICO, "Mexico").apply(raw)


def test_no_wrap_removes_top_to_bottom_connections(raw: Board) -> None:
    broken = raw.with_connections(
        add=[("Karelia Sea Zone", "Antartic Sea Zone"), ("Alaska", "South Pacific Sea Zone")]
    )
    fixed = entry("GEOGRAPHY 3").apply(broken)
    assert not fixed.are_adjacent("Karelia Sea Zone", "Antartic Sea Zone")
    assert not fixed.are_adjacent("Alaska", "South Pacific Sea Zone")
    assert len(fixed.connections()) == len(raw.connections())


def test_the_edges_are_far_apart(raw: Board) -> None:
    assert not TOP_EDGE & BOTTOM_EDGE
    assert {raw.territory(n).is_sea for n in BOTTOM_EDGE} == {True}
    for north in TOP_EDGE:
        assert not raw.neighbours(north) & BOTTOM_EDGE


def test_canal_is_not_a_space_refuses_a_canal_territory(raw: Board) -> None:
    with_space = Board.build(
        name=raw.name,
        players=raw.players,
        territories=[*raw.territories.values(), Territory("Panama Canal", True)],
        connections=raw.connections(),
        canals=raw.canals,
    )
    with pytest.raises(OverlayError, match="makes the Panama Canal a territory"):
        entry("GEOGRAPHY 4").apply(with_space)
    with pytest.raises(OverlayError, match="no canal 'Kiel Canal'"):
        CanalIsNotASpace("T", "q", "Kiel Canal").apply(raw)


def test_air_follows_canal_joins_the_canal_zones(raw: Board) -> None:
    broken = raw.with_connections(remove=[(WEST_PANAMA, WEST_INDIES)])
    assert not broken.are_adjacent(WEST_PANAMA, WEST_INDIES)
    fixed = entry("GEOGRAPHY 5").apply(broken)
    assert fixed.are_adjacent(WEST_PANAMA, WEST_INDIES)
    with pytest.raises(OverlayError, match="no canal"):
        AirFollowsCanal("T", "q", "Kiel Canal").apply(raw)


def test_adjacent_adds_the_connection(raw: Board) -> None:
    broken = raw.with_connections(remove=[(WEST_PANAMA, WEST_INDIES)])
    fixed = entry("GEOGRAPHY 6").apply(broken)
    assert fixed.are_adjacent(WEST_INDIES, WEST_PANAMA)
    with pytest.raises(OverlayError, match="no territory 'Atlantis'"):
        Adjacent("T", "q", "Atlantis", WEST_PANAMA).apply(raw)


def test_the_whole_overlay_repairs_a_broken_board(raw: Board) -> None:
    broken = raw.with_connections(
        add=[(GULF_OF_MEXICO, "Cuba"), ("Yakut S.S.R.", "South Compass Sea Zone")],
        remove=[(WEST_PANAMA, WEST_INDIES), (GULF_OF_MEXICO, "West US")],
    )
    assert apply_overlay(broken).connections() == raw.connections()


def test_the_overlay_is_for_classic_names(big_world_xml: Path) -> None:
    with pytest.raises(OverlayError, match="GEOGRAPHY 1"):
        apply_overlay(load_triplea_xml(big_world_xml))


def test_the_overlay_is_idempotent_on_connections() -> None:
    twice = apply_overlay(classic())
    assert twice.connections() == classic().connections()


def test_no_wrap_checks_its_names(raw: Board) -> None:
    with pytest.raises(OverlayError, match="Atlantis"):
        NoWrapBetween("T", "q", frozenset({"Atlantis"}), frozenset()).apply(raw)
