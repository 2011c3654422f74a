"""Territory and sea-zone names as players write them, on Classic and on any board."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from adjudicator.boards import Board, BoardError, classic, load_triplea_xml
from adjudicator.boards.shipped import classic_map
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


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("Caro SZ", "Caroline Islands Sea Zone"),
        ("CaroSZ", "Caroline Islands Sea Zone"),
        ("Balt SZ", "Baltic Sea Zone"),
        ("Balt", "Baltic Sea Zone"),
        ("Ind Ocean", "Indian Ocean Sea Zone"),
        ("Madagascar SZ", "South East Madagascar Sea Zone"),
        ("Lab", "East Canada Sea Zone"),
        ("Azo", "West Spain Sea Zone"),
    ],
)
def test_an_abbreviation_of_one_place_is_that_place(
    names: Names, written: str, canonical: str
) -> None:
    r = names.place(written)
    assert (r.value, r.match) == (canonical, Match.ABBREVIATED)
    notice = r.warning()
    assert notice is not None and "IAAPA Abbreviations" in notice


@pytest.mark.parametrize(
    ("written", "labels"),
    [
        ("Car SZ", ("Caroline Islands Sea Zone", "Carribean Sea Zone")),
        ("CarSZ", ("Caroline Islands Sea Zone", "Carribean Sea Zone")),
        ("Car Sea", ("Caroline Islands Sea Zone", "Carribean Sea Zone")),
        ("Car", ("Caroline Islands", "Carribean Sea Zone")),
        ("Can SZ", ("East Canada Sea Zone", "West Africa Sea Zone", "West Canada Sea Zone")),
        ("Indies", ("Carribean Sea Zone", "East Indies")),
        (
            "Aus SZ",
            ("North Australia Sea Zone", "South Australia Sea Zone", "West Australia Sea Zone"),
        ),
        ("Brazil SZ", ("North Brazil Sea Zone", "South Brazil Sea Zone")),
    ],
)
def test_an_abbreviation_of_several_places_is_ambiguous(
    names: Names, written: str, labels: tuple[str, ...]
) -> None:
    """Never corrected to a third place a letter away ("Car SZ" is not "Kar SZ")."""
    with pytest.raises(AmbiguousName) as caught:
        names.place(written)
    assert caught.value.labels == labels


@pytest.mark.parametrize(
    ("written", "near"), [("Kor SZ", "Kar SZ"), ("Lia SZ", "Lib SZ"), ("KirSZ", "Kar SZ")]
)
def test_a_short_stem_is_never_corrected(names: Names, written: str, near: str) -> None:
    with pytest.raises(UnknownName, match=f"too short to be read as a misspelling of '{near}'"):
        names.place(written)


def test_a_letter_short_of_one_name_is_still_a_typo(names: Names) -> None:
    """ "Ukrain" abbreviates Ukraine and is a letter from it: the misspelling it always was."""
    assert names.place("Ukrain").match is Match.CORRECTED
    assert names.place("Kwangtun").match is Match.CORRECTED


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("lab sz", "East Canada Sea Zone"),
        ("Labrador", "East Canada Sea Zone"),
        ("Labrador Sea", "East Canada Sea Zone"),
        ("Labrador Sea Zone", "East Canada Sea Zone"),
        ("azo sz", "West Spain Sea Zone"),
        ("Azores", "West Spain Sea Zone"),
        ("Azores SZ", "West Spain Sea Zone"),
        ("Canaries", "West Africa Sea Zone"),
        ("Canary SZ", "West Africa Sea Zone"),
        ("Canary Islands", "West Africa Sea Zone"),
    ],
)
def test_the_rule_books_waters(names: Names, written: str, canonical: str) -> None:
    """Error Correction II's example names "azo sz" and "lab sz" (see classic_aliases)."""
    r = names.place(written)
    assert (r.value, r.match) == (canonical, Match.EXACT)


def _affine(
    landmarks: list[tuple[float, float, tuple[int, int]]],
) -> Callable[[float, float], tuple[float, float]]:
    """The least-squares affine map (longitude, latitude) -> map pixel through ``landmarks``."""
    rows = [(lon, lat, 1.0) for lon, lat, _ in landmarks]

    def solve(targets: list[float]) -> list[float]:
        m = [
            [sum(r[i] * r[j] for r in rows) for j in range(3)]
            + [sum(r[i] * t for r, t in zip(rows, targets, strict=True))]
            for i in range(3)
        ]
        for i in range(3):
            for k in range(3):
                if k != i:
                    f = m[k][i] / m[i][i]
                    m[k] = [a - f * b for a, b in zip(m[k], m[i], strict=True)]
        return [m[i][3] / m[i][i] for i in range(3)]

    ax = solve([float(p[0]) for *_, p in landmarks])
    ay = solve([float(p[1]) for *_, p in landmarks])
    return lambda lon, lat: (
        ax[0] * lon + ax[1] * lat + ax[2],
        ay[0] * lon + ay[1] * lat + ay[2],
    )


def _inside(point: tuple[float, float], ring: tuple[tuple[int, int], ...]) -> bool:
    x, y = point
    odd = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            odd = not odd
    return odd


def test_the_rule_books_waters_lie_in_their_zones_on_the_map() -> None:
    """How the hand aliases above were decided: the islands' latitude and longitude put on
    the Classic map through its own coast landmarks, then point-in-polygon."""
    board_map = classic_map()

    def points(name: str) -> list[tuple[int, int]]:
        return [p for ring in board_map.shape(name).polygons for p in ring]

    def zones(point: tuple[float, float]) -> list[str]:
        return [
            name
            for name, shape in board_map.spaces.items()
            if any(_inside(point, ring) for ring in shape.polygons)
        ]

    to_map = _affine(
        [
            (-9.5, 38.8, min(points("Spain"))),  # Cabo da Roca, westmost
            (-7.7, 43.8, min(points("Spain"), key=lambda p: p[1])),  # Estaca de Bares
            (-5.6, 36.0, max(points("Gibraltar"), key=lambda p: p[1])),
            (-52.6, 47.5, max(points("East Canada"))),  # Cape Spear, Newfoundland
            (-13.0, 27.7, min(points("Rio del Oro"), key=lambda p: p[1])),
            (-17.05, 20.8, max(points("Rio del Oro"), key=lambda p: p[1])),  # Cape Blanc
        ]
    )
    azores = [(-31.2, 39.45), (-27.2, 38.7), (-25.5, 37.8), (-25.1, 36.97)]
    for lon, lat in azores:
        assert zones(to_map(lon, lat)) == ["West Spain Sea Zone"], (lon, lat)
    for lon, lat in [(-55.0, 57.5), (-53.0, 53.0)]:  # the Labrador Sea
        assert zones(to_map(lon, lat)) == ["East Canada Sea Zone"], (lon, lat)
    canaries = [(-13.6, 29.0), (-15.6, 27.95), (-16.6, 28.3), (-18.0, 27.7)]
    for lon, lat in canaries:  # on the coast at this scale: the first sea to their west
        x, y = to_map(lon, lat)
        west = next(z for dx in range(0, 60, 5) for z in zones((x - dx, y)) if "Sea" in z)
        assert west == "West Africa Sea Zone", (lon, lat)


@pytest.mark.parametrize(
    ("written", "canonical", "match"),
    [
        ("Norway/Finland", "Finland Norway", Match.EXACT),
        ("Nor/Fin", "Finland Norway", Match.EXACT),
        ("Jordan / Syria", "Syria Jordan", Match.EXACT),
        ("Celebes/Borneo", "Borneo Celebes", Match.EXACT),
        ("Rhodesia-Kenya", "Kenya-Rhodesia", Match.EXACT),
        ("Chile & Argentina", "Argentina-Chile", Match.EXACT),
        ("Sudan/Egypt", "Anglo Sudan Egypt", Match.EXACT),
    ],
)
def test_a_name_written_part_by_part_in_another_order_is_that_place(
    names: Names, written: str, canonical: str, match: Match
) -> None:
    """Tried as a new player: "Attack #1 Norway/Finland (3 inf)" named no place. Each part
    names Finland Norway alone, so the whole is readily decipherable (IAAPA Error Correction
    VI: "In all cases, the correct word must be readily decipherable")."""
    r = names.place(written)
    assert (r.value, r.match) == (canonical, match)


@pytest.mark.parametrize(
    ("written", "land"),
    [
        ("Norway SZ", "Finland Norway"),
        ("Egypt SZ", "Anglo Sudan Egypt"),
        ("France SZ", "West Europe"),
        ("Turkey SZ", "Turkey"),
    ],
)
def test_a_sea_zone_named_after_land_is_never_the_land(
    names: Names, written: str, land: str
) -> None:
    """Tried as a new player: "UK SZ 1 BB to Norway SZ" moved the battleship onto Finland
    Norway, with a warning that "Norway SZ" was a simple misspelling of "Norway". The
    ending says a sea zone; which one is not decipherable (IAAPA Error Correction VI), so
    the name is refused and the land named beside it."""
    with pytest.raises(UnknownName, match=land):
        names.place(written)
    assert names.place("Baltik SZ").value == "Baltic Sea Zone"  # a misspelt sea zone still is


@pytest.mark.parametrize("written", ["Norway/Sweden", "Ukraine/Russia", "Norway/Finlnd/"])
def test_parts_naming_different_places_name_none(names: Names, written: str) -> None:
    """Two places joined are no place: which one was meant is not decipherable."""
    with pytest.raises(UnknownName):
        names.place(written)


@pytest.mark.parametrize(
    ("written", "was_read_as"),
    [
        ("take", "Wake Island"),
        ("home", "South Europe"),
        ("some", "South Europe"),
        ("base", "Anglo Sudan Egypt"),
        ("while", "Argentina-Chile"),
        ("plan", "Panama"),
        ("turn", "Turkey"),
        ("was", "East US"),
    ],
)
def test_a_word_of_english_is_never_a_misspelt_place(
    names: Names, written: str, was_read_as: str
) -> None:
    """IAAPA Error Correction VI: "In all cases, the correct word must be readily
    decipherable". Tried by new players: "Please take my infantry first" was an order of
    loss for Wake Island, "bmb back home" flew to South Europe (Rome), "to base" to Anglo
    Sudan Egypt, each with only a warning: a player writing a word of English means it."""
    with pytest.raises(UnknownName, match="a word of English"):
        names.place(written)
    assert was_read_as in {names.place(n).value for n in names.places.aliases() if n}


def test_a_word_of_english_is_never_a_misspelt_unit(names: Names) -> None:
    """ "for" was a fighter in "Please send your OOL for both battles", "thanks" tanks."""
    for written in ("for", "thanks", "than", "yet"):
        with pytest.raises(UnknownName, match="a word of English"):
            names.unit(written)
    assert names.unit("tanks").value.unit is not None  # the words themselves stay names


@pytest.mark.parametrize("written", ["Xanadu", "Berlin Wall", ""])
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


def test_the_alias_table_is_the_same_under_every_string_hash_seed() -> None:
    """Aliases come from sets of word variants; when two spellings normalise alike the first
    added is the one a typo warning quotes, so the order must not follow Python's string hash
    (PYTHONHASHSEED), or the same email draws different warnings from run to run."""
    import subprocess
    import sys

    program = (
        "from adjudicator.boards import classic\n"
        "from adjudicator.names.classic_aliases import CLASSIC_ALIASES\n"
        "from adjudicator.names.places import place_entries\n"
        "print(repr(place_entries(classic(), CLASSIC_ALIASES)))\n"
    )
    root = Path(__file__).resolve().parents[3]
    tables = {
        subprocess.run(
            [sys.executable, "-c", program],
            cwd=root,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3", "4")
    }
    assert len(tables) == 1
    [table] = tables
    assert "Caroline Islands" in table
