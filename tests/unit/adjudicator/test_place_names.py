"""Territory and sea-zone names as players write them, on Classic and on any board."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.boards import Board, BoardError, classic, load_triplea_xml
from adjudicator.names import AmbiguousName, Match, Names, UnknownName, classic_names, names_for
from adjudicator.names.classic_aliases import CLASSIC_ALIASES
from adjudicator.names.places import place_entries, word_variants


@pytest.fixture(scope="module")
def names() -> Names:
    return classic_names()


def test_every_canonical_name_resolves_to_itself(names: Names) -> None:
    for name in classic().territories:
        r = names.place(name)
        assert (r.value, r.match) == (name, Match.EXACT)


def test_every_hand_written_alias_names_a_real_space_and_resolves_to_it(names: Names) -> None:
    for canonical, aliases in CLASSIC_ALIASES.items():
        assert canonical in classic().territories
        for alias in aliases:
            assert names.place(alias).value == canonical, alias


def test_no_classic_alias_is_ambiguous(names: Names) -> None:
    shared = {k: v for k, v in names.places.aliases().items() if len(v) > 1}
    assert shared == {}


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("W Europe", "West Europe"),
        ("W. Europe", "West Europe"),
        ("Western Europe", "West Europe"),
        ("Kar", "Karelia S.S.R."),
        ("Karelia", "Karelia S.S.R."),
        ("Karelia SSR", "Karelia S.S.R."),
        ("Cauc", "Caucasus"),
        ("Rus", "Russia"),
        ("Moscow", "Russia"),
        ("E Can", "East Canada"),
        ("E. Canada", "East Canada"),
        ("Eastern Canada", "East Canada"),
        ("E.US", "East US"),
        ("W.US", "West US"),
        ("E USA", "East US"),
        ("Western United States", "West US"),
        ("Ukraine", "Ukraine S.S.R."),
        ("Novo", "Novosibirsk"),
        ("SFE", "Soviet Far East"),
        ("FIC", "French Indo China"),
        ("Solomon Is", "Solomon Islands"),
        ("S Africa", "South Africa"),
        ("Fr W Africa", "French West Africa"),
        ("Italian E Africa", "Italian East Africa"),
    ],
)
def test_land_aliases(names: Names, written: str, canonical: str) -> None:
    r = names.place(written)
    assert (r.value, r.match) == (canonical, Match.EXACT)


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("UK SZ", "North Sea Zone"),  # the one zone washing the UK
        ("Eire SZ", "North Sea Zone"),
        ("Baltic SZ", "Baltic Sea Zone"),
        ("Baltic", "Baltic Sea Zone"),
        ("Baltic Sea", "Baltic Sea Zone"),
        ("E Can SZ", "East Canada Sea Zone"),
        ("E.US SZ", "East US Sea Zone"),
        ("W US SZ", "West US Sea Zone"),
        ("Kar SZ", "Karelia Sea Zone"),
        ("Japan SZ", "Japan Sea Zone"),
        ("Hawaii SZ", "Hawaii Sea Zone"),
        ("Haw SZ", "Hawaii Sea Zone"),
        ("C Med", "Central Mediteranean Sea Zone"),
        ("E Med SZ", "East Mediteranean Sea Zone"),
        ("W Mediterranean", "West Mediteranean Sea Zone"),
        ("N Atl SZ", "North Atlantic Sea Zone"),
        ("S.E. Madagascar SZ", "South East Madagascar Sea Zone"),
        ("Red Sea", "Red Sea Zone"),
        ("Caspian", "Caspian Sea Zone"),
        ("Black Sea", "Black Sea Zone"),
        ("West Indies", "Carribean Sea Zone"),
        ("East Panama SZ", "Carribean Sea Zone"),
        ("Caribbean", "Carribean Sea Zone"),
        ("Gulf of Mexico", "Gulf of Mexico Sea Zone"),
        ("W Panama SZ", "West Panama Sea Zone"),
        ("Antarctic", "Antartic Sea Zone"),
    ],
)
def test_sea_zone_aliases(names: Names, written: str, canonical: str) -> None:
    assert names.place(written).value == canonical


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("Japan", "Japan"),
        ("Mexico", "Mexico"),
        ("Karelia", "Karelia S.S.R."),
        ("East Indies", "East Indies"),
        ("Hawaii", "Hawaiian Islands"),
    ],
)
def test_a_bare_name_is_the_land_not_its_sea_zone(
    names: Names, written: str, canonical: str
) -> None:
    assert names.place(written).value == canonical


@pytest.mark.parametrize("written", ["North", "N", "Red", "South", "Med"])
def test_no_bare_compass_word_or_stub_names_a_sea_zone(names: Names, written: str) -> None:
    with pytest.raises((UnknownName, AmbiguousName)):
        names.place(written)


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("Moscoq", "Russia"),
        ("Ukrain", "Ukraine S.S.R."),
        ("Germny", "Germany"),
        ("Karelai", "Karelia S.S.R."),
        ("Weurpoe", "West Europe"),
        ("Caucasas", "Caucasus"),
        ("Manchuira", "Manchuria"),
        ("Kwangtun", "Kwangtung"),
        ("Phillipines", "Philippines"),
        ("Carribbean Sea Zone", "Carribean Sea Zone"),
        ("Baltik SZ", "Baltic Sea Zone"),
    ],
)
def test_misspellings_are_corrected(names: Names, written: str, canonical: str) -> None:
    r = names.place(written)
    assert (r.value, r.match) == (canonical, Match.CORRECTED)


@pytest.mark.parametrize("written", ["X.US", "Kat", "Med", "F.US"])
def test_ambiguous_abbreviations_are_errors(names: Names, written: str) -> None:
    with pytest.raises(AmbiguousName) as caught:
        names.place(written)
    assert len(caught.value.candidates) >= 2


@pytest.mark.parametrize("written", ["Xanadu", "Berlin Wall", "azo sz", ""])
def test_unknown_places(names: Names, written: str) -> None:
    with pytest.raises(UnknownName):
        names.place(written)


def test_canals_are_refused_as_places(names: Names) -> None:
    for canal in ("Panama Canal", "Suez Canal", "panama canal zone"):
        with pytest.raises(UnknownName, match="not a sea zone") as caught:
            names.place(canal)
        assert "GEOGRAPHY" in str(caught.value)
    with pytest.raises(UnknownName, match="Carribean Sea Zone or West Panama Sea Zone"):
        names.place("Panama Canal")
    assert names.place("Panama").value == "Panama"


def test_word_variants() -> None:
    assert word_variants("East US") >= {"E US", "Eastern USA", "East United States"}
    assert "Karelia" in word_variants("Karelia S.S.R.")
    assert word_variants("Persia") == {"Persia"}


def test_aliases_for_an_unknown_territory_are_refused() -> None:
    with pytest.raises(BoardError, match="Atlantis"):
        place_entries(classic(), {"Atlantis": ("Atl",)})


def test_any_board_gets_generated_names(big_world_xml: Path) -> None:
    board: Board = load_triplea_xml(big_world_xml)
    names = names_for(board)
    assert names.place("SZ 1").value == "SZ 1 Hudson Bay"
    assert names.place("sz1 hudson bay").value == "SZ 1 Hudson Bay"
    with pytest.raises(UnknownName, match="never a typographical error"):
        names.place("SZ 1 Hudson Bey")
    assert names.place("E Germany").value == "Eastern Germany"
    assert names.place("Caribbean Sea").value == "SZ 37 Caribbean Sea"
    with pytest.raises(AmbiguousName, match="SZ 9 North Atlantic"):
        names.place("North Atlantic")
