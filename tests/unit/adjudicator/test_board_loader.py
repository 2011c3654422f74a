"""Reading TripleA game files: classic.xml against the facts file, Big World, bad files."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from defusedxml import DTDForbidden, EntitiesForbidden

from adjudicator.boards import NEUTRAL, Board, BoardError, load_triplea_xml
from adjudicator.powers import Alliance, Power

# The facts file's names (classic-2nd-edition-facts.md §8) and classic.xml's.
FACTS_ORIGINAL_ICS = {
    "E US": "East US",
    "W US": "West US",
    "UK": "United Kingdom",
    "Germany": "Germany",
    "S Europe": "South Europe",
    "Japan": "Japan",
    "Russia": "Russia",
    "Karelia": "Karelia S.S.R.",
}
FACTS_CAPITALS = {  # "Capturing an enemy capital (E US, UK, Russia, Germany, Japan)"
    Power.USA: "East US",
    Power.UK: "United Kingdom",
    Power.USSR: "Russia",
    Power.GERMANY: "Germany",
    Power.JAPAN: "Japan",
}
FACTS_STARTING_IPCS = {
    Power.USSR: 24,
    Power.GERMANY: 32,
    Power.UK: 30,
    Power.JAPAN: 25,
    Power.USA: 36,
}


def test_classic_has_70_land_and_58_sea_territories(xml_board: Board) -> None:
    assert (len(xml_board.land), len(xml_board.sea)) == (70, 58)


def test_classic_land_count_includes_14_neutrals_and_no_impassable_land(
    xml_board: Board,
) -> None:
    """The 70 land territories are 56 owned at the start plus 14 unowned neutrals."""
    owned = [t for t in xml_board.land if t.original_owner is not None]
    assert (len(owned), len(xml_board.neutrals)) == (56, 14)
    assert not any(t.impassable for t in xml_board.territories.values())
    assert all(t.ipc == 0 for t in xml_board.neutrals)
    assert {"Spain", "Sweden", "Switzerland", "Turkey", "Eire"} <= {
        t.name for t in xml_board.neutrals
    }


@pytest.mark.parametrize("power", list(Power))
def test_starting_ipcs_match_the_facts_file(xml_board: Board, power: Power) -> None:
    assert xml_board.starting_ipcs(power.triplea_name) == FACTS_STARTING_IPCS[power]


@pytest.mark.parametrize("power", list(Power))
def test_starting_ipcs_equal_the_income_of_the_territories_held(
    xml_board: Board,
    power: Power,
) -> None:
    income = sum(t.ipc for t in xml_board.land if t.original_owner == power.triplea_name)
    assert income == xml_board.starting_ipcs(power.triplea_name)


def test_map_income_totals_147(xml_board: Board) -> None:
    assert sum(t.ipc for t in xml_board.land) == 147


@pytest.mark.parametrize("power", list(Power))
def test_capitals(xml_board: Board, power: Power) -> None:
    capital = xml_board.capital_of(power.triplea_name)
    assert capital.name == FACTS_CAPITALS[power]
    assert capital.original_owner == power.triplea_name
    assert capital.original_factory


def test_original_ics_are_the_facts_files_eight(xml_board: Board) -> None:
    with_flag = {t.name for t in xml_board.territories.values() if t.original_factory}
    assert with_flag == set(FACTS_ORIGINAL_ICS.values())


def test_every_original_ic_starts_with_a_factory_of_its_owner(xml_board: Board) -> None:
    for name in FACTS_ORIGINAL_ICS.values():
        owner = xml_board.territory(name).original_owner
        assert owner is not None
        assert xml_board.units_of(owner)[name].get("factory") == 1, name


def test_turn_order_and_alliances(xml_board: Board) -> None:
    assert [Power.from_triplea(p.name) for p in xml_board.players] == sorted(
        Power, key=lambda p: p.value
    )
    for player in xml_board.players:
        assert player.alliance == Power.from_triplea(player.name).alliance.value
    assert {a.value for a in Alliance} == {p.alliance for p in xml_board.players}


def test_adjacency_is_symmetric_and_has_no_loops(xml_board: Board) -> None:
    for name, neighbours in xml_board.adjacency.items():
        assert name not in neighbours
        for n in neighbours:
            assert name in xml_board.adjacency[n]


def test_the_duplicated_congo_connection_is_counted_once(classic_xml: Path) -> None:
    """classic.xml lists South Brazil - Congo Sea Zone twice (once each way)."""
    text = classic_xml.read_text(encoding="utf-8")
    assert text.count("<connection ") == 310
    assert len(load_triplea_xml(classic_xml).connections()) == 309


def test_every_territory_is_connected(xml_board: Board) -> None:
    assert all(xml_board.adjacency[name] for name in xml_board.territories)


def test_canals(xml_board: Board) -> None:
    suez = xml_board.canal_between("East Mediteranean Sea Zone", "Red Sea Zone")
    assert suez is not None and suez.land_territories == {"Anglo Sudan Egypt", "Syria Jordan"}
    panama = xml_board.canal_between("West Panama Sea Zone", "Carribean Sea Zone")
    assert panama is not None and panama.land_territories == {"Panama"}
    assert xml_board.canal_between("North Sea Zone", "Baltic Sea Zone") is None


def test_initial_units_add_up(xml_board: Board, classic_xml: Path) -> None:
    text = classic_xml.read_text(encoding="utf-8")
    placements = text.count("<unitPlacement ")
    cells = sum(len(c) for per in xml_board.initial_units.values() for c in per.values())
    assert cells == placements
    germans = Counter[str]()
    for counts in xml_board.units_of("Germans").values():
        germans.update(counts)
    assert germans["factory"] == 2 and germans["battleship"] == 1
    assert dict(xml_board.units_of("Russians")["Russia"]) == {
        "aaGun": 1,
        "armour": 2,
        "factory": 1,
        "fighter": 1,
        "infantry": 4,
    }
    assert NEUTRAL not in xml_board.initial_units


def test_big_world_1942_loads(big_world_xml: Path) -> None:
    board = load_triplea_xml(big_world_xml)
    assert board.name == "Big World : 1942"
    assert len(board.territories) == 264
    assert len(board.sea) == 108
    assert {"Sahara", "Himalaya-Tibet"} <= {t.name for t in board.land if t.impassable}
    assert {c.name for c in board.canals} == {"Dardanelles", "Panama Canal", "Suez Canal"}
    assert board.starting_ipcs("Chinese") == 10
    assert board.units_of(NEUTRAL)["Switzerland"]["infantry"] == 9
    assert len(board.players) == 6


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "game.xml"
    path.write_text(body, encoding="utf-8")
    return path


MINI = """<?xml version="1.0"?>
<game><info name="Mini"/>
<map><territory name="A"/><territory name="B" water="TRUE"/>{extra}</map>
<playerList><player name="P"/></playerList>
</game>"""


def test_a_minimal_game_file(tmp_path: Path) -> None:
    board = load_triplea_xml(_write(tmp_path, MINI.format(extra='<connection t1="A" t2="B"/>')))
    assert board.territory("B").is_sea and board.territory("A").is_land
    assert board.are_adjacent("B", "A")
    assert board.starting_ipcs("P") == 0


def test_a_connection_to_an_unknown_territory_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, MINI.format(extra='<connection t1="A" t2="Atlantis"/>'))
    with pytest.raises(BoardError, match="Atlantis"):
        load_triplea_xml(path)


def test_a_file_that_is_not_a_game_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match="not a TripleA game"):
        load_triplea_xml(_write(tmp_path, "<html><body/></html>"))


def test_entity_expansion_is_refused(tmp_path: Path) -> None:
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE game [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><game><info name="&b;"/></game>'
    )
    with pytest.raises((EntitiesForbidden, DTDForbidden)):
        load_triplea_xml(_write(tmp_path, bomb))


def test_a_bad_quantity_names_the_placement(tmp_path: Path) -> None:
    body = MINI.replace(
        "</game>",
        '<initialize><unitInitialize><unitPlacement unitType="inf" '
        'territory="A" quantity="many" owner="P"/></unitInitialize>'
        "</initialize></game>",
    ).format(extra="")
    with pytest.raises(BoardError, match="inf in A"):
        load_triplea_xml(_write(tmp_path, body))


def test_classic_xml_agrees_with_the_clarification_sheets_map_notes(xml_board: Board) -> None:
    """Facts file §11: "the CLAR map notes (e.g. Kwangtung is not adjacent to the
    Japan/Manchuria zone; Hudson Bay is adjacent to W Canada) should be checked against the
    XML connections". classic.xml's Hudson Bay is part of "East Canada Sea Zone" (the one
    connection the file marks "optional")."""
    assert not xml_board.are_adjacent("Kwangtung", "Japan Sea Zone")
    assert xml_board.sea_zones_next_to("Kwangtung") == {"Kwangtung Sea Zone"}
    assert xml_board.are_adjacent("West Canada", "East Canada Sea Zone")
