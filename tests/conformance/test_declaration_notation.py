"""IAAPA Declaration and Battle Resolution Procedures: the turn emails, as the parser reads them.

Precombat, Post Combat Orders and Amendments and Special Orders, each rule quoted in its
class's docstring; the ``names`` fixture gives the board's names, so a variant re-runs a
class by subclassing it and overriding the fixture.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adjudicator.notation import BattleKind, Severity, TurnKind, Units, report
from adjudicator.powers import Power
from adjudicator.units import UnitType
from tests.conformance.cases import NotationCase, Read

U = UnitType


class TestPrecombat(NotationCase):
    """Precombat

    The attacker will send a pre-combat turn indicating any successful weapons development,
    the remainder of his purchases, and all combat moves. Combat moves must list the attacking
    units, specifying the territory of origin for each unit. Defending units should also be
    listed, but are not absolutely required. For example:

        Combat Moves:
        Attack #1 - W Europe (10 INF, AA)
        UK 8 INF on UK SZ 4 TRN
        E Can 1 ARM on E Can SZ 1 TRN to UK SZ
        Kar 2 FTR (land Karelia)
        Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA
    """

    @pytest.fixture
    def example(self, rule_section: Callable[[str, str], str]) -> str:
        """The example exactly as the rule text prints it."""
        return rule_section("Combat Moves:", "The attacker will then go to")

    def test_the_example_parses_to_exactly_the_units_it_lists(
        self, read: Read, example: str
    ) -> None:
        """Attack #1 - W Europe (10 INF, AA) ... Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR
        v. 10 INF, AA"""
        turn = read(example)
        assert turn.diagnostics == ()
        (battle,) = turn.battles
        assert (battle.number, battle.territory, battle.kind) == (
            1,
            "West Europe",
            BattleKind.BATTLE,
        )
        assert battle.attacker == Units.of({U.INF: 8, U.ARM: 1, U.FTR: 2})
        assert battle.defender == Units.of({U.INF: 10, U.AA: 1})
        assert battle.total is not None
        assert battle.total.attacker == battle.attacker
        assert battle.total.defender == battle.defender
        assert (battle.total.attacking_power, battle.total.defending_power) == (
            Power.UK,
            Power.GERMANY,
        )

    def test_each_unit_has_its_territory_of_origin(self, read: Read, example: str) -> None:
        """Combat moves must list the attacking units, specifying the territory of origin for
        each unit."""
        origins = read(example).battles[0].origins
        assert [(o.place, o.units) for o in origins] == [
            ("United Kingdom", Units.of({U.INF: 8})),
            ("East Canada", Units.of({U.ARM: 1})),
            ("Karelia S.S.R.", Units.of({U.FTR: 2})),
        ]

    def test_transports_carry_but_are_not_land_attackers(self, read: Read, example: str) -> None:
        """UK 8 INF on UK SZ 4 TRN / E Can 1 ARM on E Can SZ 1 TRN to UK SZ: the Total line
        counts 8 INF, 1 ARM, 2 FTR, no transports."""
        uk, ecan, kar = read(example).battles[0].origins
        assert (uk.transports, uk.via) == (Units.of({U.TRN: 4}), ("North Sea Zone",))
        assert (ecan.transports, ecan.via) == (
            Units.of({U.TRN: 1}),
            ("East Canada Sea Zone", "North Sea Zone"),
        )
        assert (kar.lands, kar.transports) == ("Karelia S.S.R.", Units())
        assert U.TRN not in dict(read(example).battles[0].attacker.counts)

    def test_defending_units_are_not_absolutely_required(self, read: Read) -> None:
        """Defending units should also be listed, but are not absolutely required."""
        turn = read("Attack #1 - W Europe\nUK 2 FTR (land UK)")
        assert turn.battles[0].defender is None
        assert turn.diagnostics == ()
        assert "defender" not in report("Attack #1 - W Europe\nUK 2 FTR (land UK)")["battles"][0]

    def test_weapons_development_and_purchases_are_read(self, read: Read) -> None:
        """... indicating any successful weapons development, the remainder of his
        purchases, and all combat moves."""
        turn = read(
            "Tech: 2 dice, Jet Power\nPurchases: 3 INF, 1 TRN\n"
            "Attack #1 - Ukraine (3 INF)\nKar 3 INF"
        )
        assert turn.kind is TurnKind.PRE_COMBAT
        assert (turn.tech[0].dice, [t.name for t in turn.tech[0].technologies]) == (
            2,
            ["JET_POWER"],
        )
        assert turn.purchases[0].units == Units.of({U.INF: 3, U.TRN: 1})


class TestPostCombatOrders(NotationCase):
    """Post Combat Orders

    The attacker will then send a final e-mail indicating the results of combat, his
    non-combat moves, a map update (This is a list that contains all territories that said
    country has units in and/or possesses), and give a territory and IPC count.
    Please use units to distinguish between territory count and IPC count, i.e. UK 30/$32
    """

    def test_uk_30_dollar_32(self, read: Read) -> None:
        """Please use units to distinguish between territory count and IPC count, i.e. UK
        30/$32"""
        turn = read("UK 30/$32")
        (count,) = turn.counts
        assert (count.power, count.territories, count.ipcs, count.units_written) == (
            Power.UK,
            30,
            32,
            True,
        )
        assert turn.diagnostics == ()

    def test_the_units_decide_which_number_is_which(self, read: Read) -> None:
        """The $ marks the IPCs wherever it is written."""
        count = read("UK $32/30").counts[0]
        assert (count.territories, count.ipcs) == (30, 32)
        count = read("Count: 30 terr / 32 IPC").counts[0]
        assert (count.territories, count.ipcs) == (30, 32)

    def test_a_count_without_units_is_read_but_warned(self, read: Read) -> None:
        """Please use units to distinguish ...: "UK 30/32" does not."""
        turn = read("UK 30/32")
        assert (turn.counts[0].territories, turn.counts[0].ipcs) == (30, 32)
        (warning,) = turn.diagnostics
        assert (warning.severity, warning.code, warning.line) == (
            Severity.WARNING,
            "count-units",
            1,
        )
        assert "UK 30/$32" in warning.suggestion

    def test_the_ipcs_alone_are_half_a_count(self, read: Read) -> None:
        """and give a territory and IPC count: tried as a new player, "IPC: 35" at the end
        of a map update was an unknown territory "IPC", and "Income: 35" was "could not read
        '35'". Either is one number where the count is two, and the error says so."""
        turn = read("Germany 1 post-combat\nMap update:\nGermany 9 INF\nIPC: 35\nIncome: $35\n")
        assert turn.counts == ()
        assert [(d.line, d.severity, d.code) for d in turn.diagnostics] == [
            (4, Severity.ERROR, "count-units"),
            (5, Severity.ERROR, "count-units"),
        ]
        assert "gives one number, but the count is two" in turn.diagnostics[0].message
        assert "UK 30/$32" in turn.diagnostics[0].suggestion

    def test_the_map_update_lists_territories_with_units_or_possessed(self, read: Read) -> None:
        """a map update (This is a list that contains all territories that said country has
        units in and/or possesses)"""
        turn = read("Map update:\nGermany: 6 INF, 2 ARM, AA, IC\nFinland Norway\nUkraine (MT)")
        assert [(e.place, e.units) for e in turn.map] == [
            ("Germany", Units.of({U.INF: 6, U.ARM: 2, U.AA: 1, U.IC: 1})),
            ("Finland Norway", Units()),
            ("Ukraine S.S.R.", Units()),
        ]

    def test_results_and_non_combat_moves(self, read: Read) -> None:
        """... indicating the results of combat, his non-combat moves ..."""
        turn = read(
            "Results:\n#1 W Europe: won, 6 INF 1 ARM left\n"
            "Non-combat moves:\nKar 2 FTR to Russia\nUK 30/$32"
        )
        assert turn.kind is TurnKind.POST_COMBAT
        assert turn.results[0].survivors == Units.of({U.INF: 6, U.ARM: 1})
        assert [(m.origin, m.destination) for m in turn.moves] == [("Karelia S.S.R.", "Russia")]


class TestAmendmentsAndSpecialOrders(NotationCase):
    """Amendments and Special Orders

    The attacker may modify his combat moves provided that he sends an updated pre-combat
    turn before rolling any dice. ... Players may send special instructions at any time
    provided that they are received prior to the applicable battle being rolled.
    """

    def test_a_quoted_earlier_turn_is_not_the_updated_one(self, read: Read) -> None:
        """... provided that he sends an updated pre-combat turn: the reply's own orders
        count, never the turn it quotes."""
        text = (
            "Updated pre-combat:\nAttack #1 - Karelia (3 INF)\nE Eur 4 INF\n\n"
            "On Sun, 15 Mar 2009 at 10:00, Hans <h@example.de> wrote:\n"
            "> Attack #1 - Karelia (3 INF)\n> E Eur 2 INF\n> Attack #2 - Caucasus (WI)\n"
        )
        turn = read(text)
        assert [b.number for b in turn.battles] == [1]
        assert turn.battles[0].attacker == Units.of({U.INF: 4})
        assert [(d.line, d.code) for d in turn.diagnostics] == [(5, "quoted")]

    def test_special_instructions_name_their_battle(self, read: Read) -> None:
        """Players may send special instructions at any time provided that they are received
        prior to the applicable battle being rolled."""
        turn = read(
            "OOL for battle #2 (Baltic SZ): TRN, SUB, FTR\nBattle #2: sub withdraws to Karelia SZ"
        )
        assert turn.kind is TurnKind.SPECIAL_ORDERS
        assert (turn.orders_of_loss[0].number, turn.orders_of_loss[0].territory) == (
            2,
            "Baltic Sea Zone",
        )
        assert (turn.withdrawals[0].number, turn.withdrawals[0].to) == (2, "Karelia Sea Zone")

    def test_greetings_and_signatures_are_not_orders(self, read: Read) -> None:
        """Only the instructions count: the salutation, sign-off and signature are not."""
        turn = read(
            "Hi Hans,\n\nOOL: INF, ARM\n\nCheers,\nNigel\n-- \nNigel, IAAPA #2231, "
            "Attack #9 - Germany (1 INF)"
        )
        assert turn.battles == () and len(turn.orders_of_loss) == 1
        assert turn.diagnostics == ()
