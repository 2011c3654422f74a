"""Origins read when the plan is built (adjudicator.declarations.readings, plan.build)."""

from __future__ import annotations

from adjudicator.declarations.geometry import Movement, movement_of
from adjudicator.declarations.plan import build
from adjudicator.declarations.readings import Claim, Clue, read_origins
from adjudicator.declarations.sites import locate
from adjudicator.notation import parse
from adjudicator.notation.model import Origin
from adjudicator.position import arranged
from adjudicator.powers import Power
from adjudicator.units import Units
from adjudicator.units import UnitType as U

G, UK = Power.GERMANY, Power.UK
BOARD = {
    "Germany": {G: {U.INF: 2, U.FTR: 1}},
    "East Europe": {G: {U.INF: 3}},
    "Karelia S.S.R.": {Power.USSR: {U.INF: 1}},
    "West Spain Sea Zone": {G: {U.SUB: 1}},
    "East Canada Sea Zone": {UK: {U.TRN: 1}},
}
KARELIA = "Karelia S.S.R."


def _movement() -> Movement:
    return movement_of(arranged(BOARD, to_move=G), G)


def _claim(space: str, place: str | None, units: dict[U, int], *could_be: str) -> Claim:
    listed = Units.of(units)
    return Claim(space, Origin(2, place, listed, could_be=could_be), listed)


def test_an_origin_holding_its_units_stays_as_written() -> None:
    claim = _claim(KARELIA, "East Europe", {U.INF: 2})
    assert read_origins([claim], _movement()) == [[(claim.origin, None)]]


def test_a_name_fitting_several_is_the_one_holding_every_type() -> None:
    claim = _claim(
        "East Canada Sea Zone", None, {U.SUB: 1}, "West Spain Sea Zone", "North Sea Zone"
    )
    ((origin, reading),) = read_origins([claim], _movement())[0]
    assert origin.place == "West Spain Sea Zone" and origin.units == claim.origin.units
    assert reading is not None and reading.clue is Clue.NAME and reading.written is claim.origin


def test_a_type_found_in_one_place_only_leaves_the_line_for_its_own_origin() -> None:
    """No origin for "3 INF, 1 FTR": the only fighter is in Germany (it is read), the infantry
    are in two places (they are not: the origin check calls the CDE)."""
    claim = _claim(KARELIA, None, {U.INF: 3, U.FTR: 1})
    parts = read_origins([claim], _movement())[0]
    assert [(o.place, o.units, r and r.clue) for o, r in parts] == [
        (None, Units.of({U.INF: 3}), None),
        ("Germany", Units.of({U.FTR: 1}), Clue.BOARD),
    ]


def test_units_another_line_names_are_not_spare() -> None:
    """Germany's infantry are all listed by the first line, so the second line's, with no
    origin, can only be East Europe's."""
    first = _claim(KARELIA, "Germany", {U.INF: 2})
    second = _claim(KARELIA, None, {U.INF: 3})
    parts = read_origins([first, second], _movement())
    assert [o.place for o, _ in parts[1]] == ["East Europe"]


def test_the_plan_gives_every_check_the_origin_read() -> None:
    movement = _movement()
    turn = parse("Attack #1 - Can SZ (1 TRN)\nCan SZ 1 SUB\n")
    sites, _ = locate(turn, movement)
    (sortie,) = build(sites, movement).sorties
    assert (sortie.site.space, sortie.place) == ("East Canada Sea Zone", "West Spain Sea Zone")
    assert sortie.reading is not None and sortie.reading.clue is Clue.BOARD
    assert sortie.reading.written.could_be  # the line as written: a name of three zones
