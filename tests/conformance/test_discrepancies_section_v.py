"""IAAPA Error Correction, Section V (Discrepancies Between Maps and Orders) and the Post
Combat Orders' territory and IPC count, each case against a position built for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from adjudicator.declarations import Code, PostCombat, apply_post_combat, check_counts
from adjudicator.notation import Units, parse
from adjudicator.position import Position, arranged
from adjudicator.powers import Power
from adjudicator.units import UnitType as U

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA
Board = Mapping[str, Mapping[Power, Mapping[U, int]]]

START: Board = {
    "Karelia S.S.R.": {R: {U.INF: 3, U.FTR: 1}},
    "Russia": {R: {U.INF: 2}},
    "Caucasus": {R: {U.INF: 2}},
}


class Case:
    """A rule case: a position built for it and the post-combat email applied to it."""

    def position(self, units: Board = START, **kw: Any) -> Position:
        return arranged(units, to_move=R, **kw)

    def apply(self, email: str, units: Board = START, **kw: Any) -> PostCombat:
        turn = parse(email)
        assert turn.errors == (), "the email itself must read cleanly"
        return apply_post_combat(self.position(units, **kw), turn)


def lines(applied: PostCombat, code: Code) -> list[int]:
    return [f.line for f in applied.findings if f.code is code]


class TestNonCombatMovesTakePrecedence(Case):
    """Section V: "If there is a dispute between listed non-combat moves and the map update
    the listed non-combat moves will take precedence." Post Combat Orders: "In the event of a
    discrepancy between the non-combat moves and the map update, the non-combat moves take
    precedence.\""""

    EMAIL = (
        "USSR 1 post-combat\n\nNon-combat moves:\nKar 1 FTR to Russia\n\n"
        "Map update:\nKarelia: 3 INF, 1 FTR\nRussia: 2 INF\nCaucasus: 2 INF\n"
    )

    def test_the_move_wins_and_the_finding_says_which_line(self) -> None:
        applied = self.apply(self.EMAIL)
        assert lines(applied, Code.MAP_OVERRULED) == [7, 8]
        karelia, russia = (f for f in applied.findings if f.code is Code.MAP_OVERRULED)
        assert "line 4 (non-combat move)" in karelia.message
        assert "over line 7 (map update)" in karelia.message
        assert "over line 8 (map update)" in russia.message
        assert all(f.citation == "IAAPA Error Correction V" for f in applied.findings)

    def test_the_position_follows_the_move(self) -> None:
        after = self.apply(self.EMAIL).position
        assert after.units_of("Karelia S.S.R.", R) == Units.of({U.INF: 3})
        assert after.units_of("Russia", R) == Units.of({U.INF: 2, U.FTR: 1})

    def test_a_map_that_agrees_raises_nothing(self) -> None:
        email = self.EMAIL.replace("Karelia: 3 INF, 1 FTR", "Karelia: 3 INF").replace(
            "Russia: 2 INF", "Russia: 2 INF, 1 FTR"
        )
        applied = self.apply(email)
        assert applied.findings == ()
        assert applied.position.units_of("Russia", R) == Units.of({U.INF: 2, U.FTR: 1})

    def test_a_map_leaving_out_the_destination(self) -> None:
        email = "Non-combat moves:\nCauc 2 INF to Russia\n\nMap update:\nKarelia: 3 INF, 1 FTR\n"
        applied = self.apply(email)
        overruled = [f for f in applied.findings if f.code is Code.MAP_OVERRULED]
        assert [f.line for f in overruled] == [2]
        assert "leaves Russia out" in overruled[0].message
        assert applied.position.units_of("Russia", R) == Units.of({U.INF: 4})
        assert applied.position.units_of("Caucasus", R) == Units()

    def test_a_move_out_of_a_space_the_map_still_fills(self) -> None:
        email = (
            "Non-combat moves:\nCauc 2 INF to Russia\n\nMap update:\nKarelia: 3 INF, "
            "1 FTR\nRussia: 4 INF\nCaucasus: 2 INF\n"
        )
        applied = self.apply(email)
        assert lines(applied, Code.MAP_OVERRULED) == [7]
        assert applied.position.units_of("Caucasus", R) == Units()


class TestTheMapWhereNoMoveDisputesIt(Case):
    """Section V decides only between listed non-combat moves and the map update: where no
    non-combat move is involved, a map update listing fewer units than the orders leave
    stands (losses the position may not know of; Error Correction I: "It is the
    responsibility of both players to ensure that all moves and map positions are correct"),
    with a warning so the opponent can check it."""

    def test_the_map_stands(self) -> None:
        email = "Map update:\nKarelia: 3 INF, 1 FTR\nRussia: 2 INF\nCaucasus: 1 INF\n"
        applied = self.apply(email)
        assert lines(applied, Code.MAP_DIFFERS) == [4]
        assert applied.position.units_of("Caucasus", R) == Units.of({U.INF: 1})

    def test_a_map_update_cannot_make_units(self) -> None:
        """More units than any order can put there: the position keeps what the orders
        leave (judgement: the rules are silent; a map update is a summary of the orders)."""
        email = "Map update:\nKarelia: 3 INF, 1 FTR\nRussia: 5 INF\nCaucasus: 2 INF\n"
        applied = self.apply(email)
        assert lines(applied, Code.MAP_EXCESS) == [3]
        assert "keeps 2 INF" in applied.findings[0].message
        assert applied.position.units_of("Russia", R) == Units.of({U.INF: 2})

    def test_spaces_left_out_keep_their_units(self) -> None:
        """Post Combat Orders: the map update "is a list that contains all territories that
        said country has units in and/or possesses"; leaving one out moves nothing."""
        applied = self.apply("Map update:\nKarelia: 3 INF, 1 FTR\n")
        assert lines(applied, Code.MAP_OMITS) == [2]
        assert "Caucasus (2 INF)" in applied.findings[0].message
        assert applied.position.units_of("Caucasus", R) == Units.of({U.INF: 2})


class TestCombatResultsAndTheMap(Case):
    """Post Combat Orders: "The attacker will then send a final e-mail indicating the results
    of combat, his non-combat moves, a map update ... and give a territory and IPC count." With
    the combat moves in the same email, the survivors of a battle won are where it was."""

    EMAIL = (
        "Combat moves:\nAttack #1 - Finland (1 INF)\nKar 3 INF\n\nResults:\n"
        "#1 Finland: won, 2 INF left\n\nMap update:\nFinland: 2 INF\nKarelia: 1 FTR\n"
        "Russia: 2 INF\nCaucasus: 2 INF\n\nUSSR 9/$26\n"
    )
    BOARD: ClassVar[Board] = {**START, "Finland Norway": {G: {U.INF: 1, U.AA: 1}}}

    def test_the_battle_won_takes_the_territory(self) -> None:
        turn = parse(self.EMAIL)
        applied = apply_post_combat(self.position(self.BOARD), turn, precombat=turn)
        after = applied.position
        assert applied.findings == ()
        assert after.owner("Finland Norway") is R
        assert after.units_of("Finland Norway", R) == Units.of({U.INF: 2, U.AA: 1})
        assert after.units_of("Finland Norway", G) == Units()
        assert (after.territory_count(R), after.ipc_count(R)) == (9, 26)
        assert check_counts(after, R, turn.counts) == []

    def test_survivors_unknown_bound_the_map(self) -> None:
        """Without survivors written, anything from none to every attacker may be left; a
        map listing more than attacked is outside the orders."""
        email = self.EMAIL.replace("won, 2 INF left", "won").replace(
            "Finland: 2 INF", "Finland: 4 INF"
        )
        turn = parse(email)
        applied = apply_post_combat(self.position(self.BOARD), turn, precombat=turn)
        assert lines(applied, Code.MAP_EXCESS) == [9]
        assert applied.position.units_of("Finland Norway", R) == Units.of({U.INF: 3, U.AA: 1})


class TestABattleLostLeavesNoPlaneOverEnemyLand(Case):
    """Post Combat Orders: the map update lists the board as the turn leaves it, and only
    surviving land units capture a territory ("Planes alone never do", facts sheet section
    8). A battle lost with the map leaving the attacked territory out: the fighter that
    attacked is not kept over land the enemy still holds (tried as a new player: "lost, all
    my units died" was answered that the map left out 1 FTR in Ukraine, and that the
    position was not a legal one)."""

    EMAIL = (
        "Combat moves:\nAttack #1 - Ukraine (2 INF)\nCaucasus 2 INF\nKar 1 FTR\n\n"
        "Results:\n#1 Ukraine: lost, all my units died\n\nMap update:\nKarelia: 3 INF\n"
        "Russia: 2 INF\n"
    )
    BOARD: ClassVar[Board] = {**START, "Ukraine S.S.R.": {G: {U.INF: 2}}}

    def test_no_finding_and_no_soviet_plane_in_ukraine(self) -> None:
        turn = parse(self.EMAIL)
        applied = apply_post_combat(self.position(self.BOARD), turn, precombat=turn)
        assert applied.findings == ()
        assert applied.position.units_of("Ukraine S.S.R.", R) == Units()
        assert applied.position.units_of("Karelia S.S.R.", R) == Units.of({U.INF: 3})

    def test_a_plane_over_land_taken_is_still_left_out_of_the_map(self) -> None:
        """Won, survivors unwritten, the territory left out of the map: the plane may be
        there (land taken is the mover's), so the omission is still reported."""
        email = self.EMAIL.replace("lost, all my units died", "won")
        turn = parse(email)
        applied = apply_post_combat(self.position(self.BOARD), turn, precombat=turn)
        assert [f.code for f in applied.findings] == [Code.MAP_OMITS]
        assert "Ukraine S.S.R. (2 INF, 1 FTR)" in applied.findings[0].message


class TestCapturedGunsAndComplexesInTheMap(Case):
    """Facts sheet, section 8: "Only surviving land units capture a territory. Planes alone
    never do. Captured AA guns and ICs change owner." The map update of a territory taken
    may list its AA gun and complex among the captor's units, or leave them out; either way
    the position has them his (tried as a new player: "Karelia: 5 inf, 4 arm, AA, IC" was
    answered that no order puts an IC there)."""

    EMAIL = (
        "Combat moves:\nAttack #1 - Karelia (1 INF, AA)\nFinland 3 INF\n\nResults:\n"
        "#1 Karelia: won, 2 INF left\n\nMap update:\nKarelia: {karelia}\n"
    )
    BOARD: ClassVar[Board] = {
        "Karelia S.S.R.": {R: {U.INF: 1, U.AA: 1, U.IC: 1}},
        "Finland Norway": {G: {U.INF: 3}},
    }

    def applied(self, karelia: str) -> PostCombat:
        turn = parse(self.EMAIL.format(karelia=karelia))
        board = arranged(self.BOARD, to_move=G)
        return apply_post_combat(board, turn, precombat=turn)

    def test_listed_or_left_out_they_are_the_captors(self) -> None:
        for karelia in ("2 INF, AA, IC", "2 INF"):
            applied = self.applied(karelia)
            assert applied.findings == (), karelia
            assert applied.position.owner("Karelia S.S.R.") is G
            assert applied.position.units_of("Karelia S.S.R.", G) == Units.of(
                {U.INF: 2, U.AA: 1, U.IC: 1}
            )

    def test_more_guns_than_were_taken_are_still_excess(self) -> None:
        applied = self.applied("2 INF, 2 AA, IC")
        assert [f.code for f in applied.findings] == [Code.MAP_EXCESS]
        assert "lists 2 AA" in applied.findings[0].message
        assert applied.position.units_of("Karelia S.S.R.", G).count(U.AA) == 1


class TestTerritoryAndIpcCount(Case):
    """Post Combat Orders: "give a territory and IPC count. Please use units to distinguish
    between territory count and IPC count, i.e. UK 30/$32". The IPC count is the income value
    of the territories held (what Magic 84 adds up), not the IPCs in hand."""

    def test_the_opening_count_of_the_uk(self) -> None:
        p = arranged({})
        assert check_counts(p, UK, parse("UK 17/$30").counts) == []

    def test_the_rule_books_example_count_is_not_the_opening(self) -> None:
        p = arranged({})
        found = check_counts(p, UK, parse("UK 30/$32").counts)
        assert [(f.line, f.code) for f in found] == [(1, Code.COUNT_MISMATCH)]
        assert "30 territories declared, 17 held" in found[0].message
        assert "$32 declared, $30 of income held" in found[0].message

    def test_a_count_naming_no_power_is_the_movers(self) -> None:
        p = arranged({})
        turn = parse("Count: 8 territories, 24 IPCs")
        assert turn.counts[0].power is None
        assert check_counts(p, R, turn.counts) == []
        assert [f.code for f in check_counts(p, G, turn.counts)] == [Code.COUNT_MISMATCH]

    def test_the_count_is_of_the_position_the_turn_leaves(self) -> None:
        applied = self.apply(
            "Results:\n#1 Finland: won, 2 INF left\n\nUSSR 8/$24\n",
            {**START, "Finland Norway": {G: {U.INF: 1}}},
        )
        found = check_counts(applied.position, R, parse("USSR 8/$24").counts)
        assert [f.code for f in found] == [Code.COUNT_MISMATCH]
        assert "9/$26" in found[0].message


class TestAnotherPowersUnitsInTheMapUpdate(Case):
    """Post Combat Orders: the map update "is a list that contains all territories that said
    country has units in and/or possesses": the mover's own. Players often write an ally's
    units beside their own in brackets ("Karelia: 3 INF (2 US INF)"); those are read as that
    power's, compared with the position, and never taken as the mover's."""

    ALLIED: ClassVar[Board] = {**START, "Karelia S.S.R.": {R: {U.INF: 3, U.FTR: 1}, US: {U.INF: 2}}}

    def email(self, karelia: str) -> str:
        return f"USSR 1 post-combat\n\nMap update:\n{karelia}\nRussia: 2 INF\nCaucasus: 2 INF\n"

    def test_an_allys_units_that_are_there_are_no_finding(self) -> None:
        for written in (
            "Karelia: 3 INF, 1 FTR (2 US INF)",
            "Karelia: 3 INF, 1 FTR [US: 2 INF]",
            "Karelia 3 INF, 1 FTR (2 American INF)",
            "Karelia: 3 INF, 1 FTR (USA 1 INF + 1 INF)",
        ):
            applied = self.apply(self.email(written), self.ALLIED)
            assert applied.findings == (), written
            after = applied.position
            assert after.units_of("Karelia S.S.R.", R) == Units.of({U.INF: 3, U.FTR: 1})
            assert after.units_of("Karelia S.S.R.", US) == Units.of({U.INF: 2})

    def test_an_allys_units_the_position_lacks_are_a_warning_and_change_nothing(self) -> None:
        applied = self.apply(self.email("Karelia: 3 INF, 1 FTR (2 US INF, 1 UK ARM)"))
        found = [f for f in applied.findings if f.code is Code.MAP_OTHERS]
        assert [f.line for f in found] == [4, 4]
        usa, uk = sorted(found, key=lambda f: "UK" in f.message)
        assert "lists USA's 2 INF there" in usa.message
        assert "the position has none of USA's" in usa.message
        assert "lists USSR's own units" in usa.message
        assert "UK's 1 ARM" in uk.message
        assert usa.citation == "IAAPA Error Correction V"
        after = applied.position
        assert after.units_of("Karelia S.S.R.", US) == Units()
        assert after.units_of("Karelia S.S.R.", UK) == Units()
        assert after.units_of("Karelia S.S.R.", R) == Units.of({U.INF: 3, U.FTR: 1})

    def test_the_movers_own_power_named_in_the_bracket_is_its_units(self) -> None:
        applied = self.apply(self.email("Karelia (USSR 3 INF, 1 FTR; US 2 INF)"), self.ALLIED)
        assert applied.findings == ()
        assert applied.position.units_of("Karelia S.S.R.", R) == Units.of({U.INF: 3, U.FTR: 1})

    def test_a_bracket_naming_no_power_is_read_as_before(self) -> None:
        applied = self.apply(
            "USSR 1 post-combat\n\nMap update:\nKarelia: 3 INF, 1 FTR\nRussia: 2 INF\n"
            "Caucasus (2 INF)\n"
        )
        assert applied.findings == ()
        assert applied.position.units_of("Caucasus", R) == Units.of({U.INF: 2})

    def test_units_listed_by_power_after_the_places_colon(self) -> None:
        for written in (
            "Karelia: USSR 3 INF, 1 FTR; US 2 INF",
            "Karelia: 3 INF, 1 FTR, US 2 INF",
            "Karelia: Russia 3 INF, 1 FTR + American 2 INF",
        ):
            applied = self.apply(self.email(written), self.ALLIED)
            assert applied.findings == (), written
            assert applied.position.units_of("Karelia S.S.R.", R) == Units.of({U.INF: 3, U.FTR: 1})

    def test_uk_after_a_comma_is_still_the_territory(self) -> None:
        turn = parse("Map update:\nKarelia 3 INF, UK 2 INF\n")
        assert [(e.place, e.units, e.others) for e in turn.map] == [
            ("Karelia S.S.R.", Units.of({U.INF: 3}), ()),
            ("United Kingdom", Units.of({U.INF: 2}), ()),
        ]

    def test_an_allys_units_with_no_place_are_an_error(self) -> None:
        turn = parse("Map update:\n(2 US INF)\n")
        assert [(d.line, d.code) for d in turn.errors] == [(2, "no-place")]
        assert turn.map == ()
