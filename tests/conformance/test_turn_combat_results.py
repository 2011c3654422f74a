"""The results of combat moving the board: IAAPA Amphibious Assaults, Retreats, Combat
Resolution and Order of Battles, walk-ins (Abbreviations), and the Classic game's capture,
sea battle and strategic bombing rules (the facts sheet)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from adjudicator.notation import Turn, parse
from adjudicator.position import Position, arranged, initial
from adjudicator.powers import Power
from adjudicator.turns import Advance, Finding, advance, outcome_from_json, raid_outcome
from adjudicator.units import Units
from adjudicator.units import UnitType as U
from tests.conformance.cases import battle, misses

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA
Board = Mapping[str, Mapping[Power, Mapping[U, int]]]


def read(text: str) -> Turn:
    turn = parse(text)
    assert turn.errors == (), "the email itself must read cleanly"
    return turn


def units(**counts: int) -> Units:
    return Units.of({U[name]: n for name, n in counts.items()})


def codes(turn: Advance) -> list[str]:
    return [f.code for f in turn.findings]


class TestAmphibiousAssaults:
    """AMPHIBIOUS ASSAULTS: A land battle is considered 'amphibious' ONLY if a transport
    delivers infantry or arm to the battle site.

    UK 3 lands 4 INF from the UK SZ transports in West Europe with the battleship's support
    shot and two fighters: the survivors take West Europe, its AA gun changes hands, the
    transports and battleship stay in the zone they unloaded from and fired from, and the
    fighters land in the UK as written."""

    START: ClassVar[Board] = {
        "United Kingdom": {UK: {U.INF: 4, U.FTR: 2, U.AA: 1, U.IC: 1}},
        "North Sea Zone": {UK: {U.TRN: 2, U.BB: 1}},
        "West Europe": {G: {U.INF: 2, U.AA: 1}},
    }
    PRE = (
        "UK 3 pre-combat\n\nPurchases: 3 INF\n\nCombat moves:\n"
        "Attack #1 - W Europe (2 INF, AA)\nUK 4 INF on UK SZ 2 TRN\nUK SZ 1 BB\n"
        "UK 2 FTR (land UK)\nTotal UK v. Germany --- 4 INF, 2 FTR, 1 BB v. 2 INF, AA\n"
    )
    POST = (
        "UK 3 post-combat\n\nResults:\n#1 W Europe: taken with 3 INF, 2 FTR\n\n"
        "Non-combat moves:\nW Europe 2 FTR to UK\n\nPlacement:\nUK 3 INF\n"
    )
    DICE = battle(
        "land",
        {"INF": 4, "FTR": 2, "BB": 1},
        {"INF": 2, "AA": 1},
        {
            "aa": [3, 4],
            "bombard": [2],
            "attacker": {"INF": [6, 6, 6, 6], "FTR": [1, 6]},
            "defender": {"INF": [2, 5]},
        },
        amphibious=1,
    )

    def turn(self) -> Advance:
        start: Position = arranged(self.START, to_move=UK, round=3, bank={UK: 10})
        return advance(start, read(self.PRE), read(self.POST), {1: outcome_from_json(self.DICE)})

    def test_the_beach_is_taken(self) -> None:
        after = self.turn().position
        assert after.owner("West Europe") is UK
        assert after.units_at("West Europe") == {UK: units(INF=3, AA=1)}

    def test_ships_stay_where_they_unloaded_and_fired(self) -> None:
        after = self.turn().position
        assert after.units_at("North Sea Zone") == {UK: units(TRN=2, BB=1)}
        assert after.units_of("United Kingdom", UK) == units(INF=3, FTR=2, AA=1, IC=1)

    def test_the_income_counts_the_beach(self) -> None:
        turn = self.turn()
        assert turn.income == 30 + 6 and turn.position.bank[UK] == 10 - 9 + 36
        assert turn.findings == ()


class TestSeaBattles:
    """Sea battles never change ownership of anything.

    UK 1 from the Classic opening: the battleship and two fighters clear the Baltic; the zone
    is the UK's battleship's, the fighters fly home, and nobody's land changes hands."""

    PRE = (
        "UK 1 pre-combat\n\nPurchases: 1 AC, 1 INF ($21)\n\nCombat moves:\n"
        "Attack #1 - Baltic SZ (1 TRN, 1 SUB)\nUK SZ 1 BB\nUK 2 FTR (land UK)\n"
    )
    POST = (
        "UK 1 post-combat\n\nResults:\n#1 Baltic SZ: won, 1 BB, 2 FTR left\n\n"
        "Non-combat moves:\nBaltic SZ 2 FTR to UK\n\nPlacement:\nUK SZ 1 AC\nUK 1 INF\n"
        "\nUK 17/$30\n"
    )
    DICE = battle(
        "sea",
        {"BB": 1, "FTR": 2},
        {"TRN": 1, "SUB": 1},
        {"attacker": {"BB": [6], "FTR": [1, 2]}, "defender": {"SUB": [6]}},
    )

    def test_the_zone_is_cleared_and_nothing_changes_hands(self) -> None:
        start = initial().next_turn().next_turn()
        turn = advance(start, read(self.PRE), read(self.POST), {1: outcome_from_json(self.DICE)})
        after = turn.position
        assert after.units_at("Baltic Sea Zone") == {UK: units(BB=1)}
        assert after.units_of("North Sea Zone", UK) == units(TRN=1, AC=1)
        assert after.owners == start.owners and turn.captured == ()
        assert turn.findings == () and after.bank[UK] == 30 - 21 + 30


USSR_PRE = (
    "USSR 1 pre-combat\n\nPurchases: 8 INF ($24)\n\nCombat moves:\n"
    "Attack #1 - Ukraine (3 INF, 2 ARM, 1 FTR)\nKar 3 INF, 1 ARM\nCauc 3 INF\n"
    "Russia 1 ARM, 1 FTR (land Caucasus)\n"
)
ONE_ROUND = {
    "attacker": {"INF": [1, 6, 6, 6, 6, 6], "ARM": [6, 6], "FTR": [6]},
    "defender": {"INF": [1, 1, 6], "ARM": [6, 6], "FTR": [1]},
}
"""One hit for the USSR, three for Germany: 3 INF, 2 ARM, 1 FTR attack on."""
FORCES = ({"INF": 6, "ARM": 2, "FTR": 1}, {"INF": 3, "ARM": 2, "FTR": 1})


class TestFailedAttack:
    """If both die, or only planes survive, the defender keeps the territory.

    The USSR's attack on the Ukraine from the Classic opening fails: its attackers are gone,
    Germany keeps the Ukraine and what survived there, and the USSR's income is unchanged."""

    def test_the_defender_keeps_it(self) -> None:
        dice = battle(
            "land",
            *FORCES,
            {**ONE_ROUND, "defender": {"INF": [1, 1, 1], "ARM": [1, 1], "FTR": [1]}},
            {"attacker": misses(INF=3, ARM=2, FTR=1), "defender": {"INF": [1, 1, 1], "FTR": [1]}},
        )
        post = "Results:\n#1 Ukraine: lost\n\nPlacement:\nRussia 8 INF\n\nUSSR 8/$24\n"
        turn = advance(initial(), read(USSR_PRE), read(post), {1: outcome_from_json(dice)})
        after = turn.position
        assert after.owner("Ukraine S.S.R.") is G
        assert after.units_at("Ukraine S.S.R.") == {G: units(INF=2, ARM=2, FTR=1)}
        assert after.units_of("Caucasus", R) == units(INF=2)
        assert turn.income == 24 and turn.findings == ()


class TestRetreats:
    """Any adjacent friendly land territory or sea zone will qualify as a legal retreat
    location as long as an attacking unit originates from or passes through the territory or
    sea zone.

    After one round the USSR retreats from the Ukraine to the Caucasus, where three of its
    infantry came from: every survivor goes there, and the fighter lands there as written."""

    POST = (
        "USSR 1 post-combat\n\nResults:\nAttack #1 - Ukraine: retreated to Caucasus\n\n"
        "Placement:\nRussia 8 INF\n\nUSSR 8/$24\n"
    )

    def test_the_survivors_retreat(self) -> None:
        dice = battle("land", *FORCES, {**ONE_ROUND, "retreat": 1})
        turn = advance(initial(), read(USSR_PRE), read(self.POST), {1: outcome_from_json(dice)})
        after = turn.position
        assert after.owner("Ukraine S.S.R.") is G
        assert after.units_of("Caucasus", R) == units(INF=5, ARM=2, FTR=1)
        assert after.units_of("Karelia S.S.R.", R) == units(FTR=1, AA=1, IC=1)
        assert turn.findings == ()

    def test_a_retreat_into_the_sea_is_refused(self) -> None:
        """A land battle's survivors written as retreating to a sea zone go where they came
        from instead (the first place named in the combat moves), with a warning."""
        dice = battle("land", *FORCES, {**ONE_ROUND, "retreat": 1})
        post = self.POST.replace("retreated to Caucasus", "retreated to Black Sea")
        turn = advance(initial(), read(USSR_PRE), read(post), {1: outcome_from_json(dice)})
        (refused,) = [f for f in turn.findings if f.code is Finding.RETREAT_REFUSED]
        assert "Black Sea Zone" in refused.message and refused.battles == (1,)
        assert turn.position.units_of("Black Sea Zone", R) == units()
        karelia = turn.position.units_of("Karelia S.S.R.", R)
        assert (karelia.count(U.INF), karelia.count(U.ARM)) == (3, 2)  # 3 INF survived


class TestCombatResolution:
    """Once the next battle begins it is assumed that the previous battle has finished and
    any surviving attacking units are retreating.

    The dice server's record ends after round 1 with both sides standing (the battle
    "continues"): the attackers retreated, to the location the post-combat email names."""

    def test_a_battle_left_standing_is_a_retreat(self) -> None:
        dice = battle("land", *FORCES, ONE_ROUND)
        assert dice["outcome"] == "continues"
        turn = advance(
            initial(), read(USSR_PRE), read(TestRetreats.POST), {1: outcome_from_json(dice)}
        )
        assert turn.position.units_of("Caucasus", R) == units(INF=5, ARM=2, FTR=1)

    def test_with_no_location_named_and_two_to_choose(self) -> None:
        dice = battle("land", *FORCES, ONE_ROUND)
        post = TestRetreats.POST.replace("retreated to Caucasus", "retreated")
        turn = advance(initial(), read(USSR_PRE), read(post), {1: outcome_from_json(dice)})
        assert Finding.RETREAT_UNKNOWN in codes(turn)


class TestWalkIn:
    """WI (Walk In) - The attacker simply "walks in" to an empty enemy or neutral territory.
    No combat rolls are required, but it happens during the combat phase of the turn.

    Germany walks into an empty Caucasus: it is Germany's, with its income."""

    def test_taken_without_dice(self) -> None:
        start: Position = arranged(
            {"Ukraine S.S.R.": {G: {U.INF: 2}}}, owners={"Caucasus": R}, to_move=G
        )
        pre = "Combat moves:\nAttack #1 - Caucasus (WI)\nUkr 1 INF\n"
        turn = advance(start, read(pre), read("Results:\n#1 Caucasus: walked in\n"), {})
        assert turn.position.owner("Caucasus") is G and turn.captured == ("Caucasus",)
        assert turn.income == 32 + 3 and turn.findings == ()


class TestStrategicBombing:
    """The dice are summed and the owner of the IC pays that many IPCs from hand, capped at
    what they hold.

    The UK's bomber raids Germany for 4: Germany's bank loses 4; for 5 with 3 in hand, it
    loses 3. The bomber flies home as written."""

    PRE = "UK 1 pre-combat\n\nCombat moves:\nAttack #1 - Germany (SBR)\nUK 1 BMB (land UK)\n"
    POST = "UK 1 post-combat\n\nResults:\n#1 Germany (SBR): {} IPC damage\n"

    def turn(self, damage: int, german_bank: int = 32) -> Advance:
        start = initial().next_turn().next_turn().with_bank(G, german_bank)
        post = read(self.POST.format(damage))
        return advance(start, read(self.PRE), post, {1: raid_outcome(1, 0, damage)})

    def test_the_owner_pays(self) -> None:
        turn = self.turn(4)
        assert turn.position.bank[G] == 28
        assert turn.position.units_of("United Kingdom", UK).count(U.BMB) == 1

    def test_capped_at_what_is_held(self) -> None:
        turn = self.turn(5, german_bank=3)
        assert turn.position.bank[G] == 0
        assert Finding.RAID_CAPPED in codes(turn)

    def test_a_bomber_shot_down(self) -> None:
        start = initial().next_turn().next_turn()
        post = read(self.POST.format(0))
        turn = advance(start, read(self.PRE), post, {1: raid_outcome(1, 1, 0)})
        assert turn.position.units_of("United Kingdom", UK).count(U.BMB) == 0
        assert turn.position.bank[G] == 32
