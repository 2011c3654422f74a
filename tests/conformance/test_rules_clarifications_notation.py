"""IAAPA Rules Clarifications as turn notation: orders of loss, sub withdrawal, retreats and
the abbreviations players write in their orders."""

from __future__ import annotations

import pytest

from adjudicator.notation import BattleKind, LossEntry, Units, report
from adjudicator.units import UnitType
from tests.conformance.cases import NotationCase, Read

U = UnitType


class TestOrdersOfLoss(NotationCase):
    """ORDERS OF LOSS

    - A player may designate any order of loss that he desires for his casualties.
    - If a defender does not send in any special orders of loss prior to the attacker rolling
      the battle then the Association defaults will be used.
    """

    def test_any_order_of_loss_he_desires(self, read: Read) -> None:
        """A player may designate any order of loss that he desires for his casualties."""
        turn = read("Karelia OOL: FTR, 2 INF, ARM")
        (ool,) = turn.orders_of_loss
        assert ool.territory == "Karelia S.S.R." and ool.number is None
        assert ool.order == (LossEntry(U.FTR), LossEntry(U.INF, 2), LossEntry(U.ARM))

    def test_an_order_of_loss_for_every_battle(self, read: Read) -> None:
        """... special orders of loss prior to the attacker rolling the battle: one order may
        cover all battles."""
        (ool,) = read("Order of loss: INF, ARM, BMB, FTR").orders_of_loss
        assert (ool.number, ool.territory) == (None, None)
        assert [e.unit for e in ool.order] == [U.INF, U.ARM, U.BMB, U.FTR]

    def test_an_order_of_loss_with_an_unknown_unit_is_an_error(self, read: Read) -> None:
        """The order must be readable to be used; otherwise the defaults apply."""
        turn = read("OOL: INF, XYZQ, ARM")
        assert turn.orders_of_loss == ()
        assert [(d.line, d.severity.value) for d in turn.diagnostics] == [(1, "error")]


class TestSubWithdrawal(NotationCase):
    """SUB WITHDRAWAL / ORDERS OF LOSS exceptions

    If the defending SUB survives then the defender will indicate the sea zone to which it
    will withdraw.
    """

    @pytest.mark.parametrize(
        "written",
        [
            "Battle #2 (Baltic SZ): sub withdraws to Karelia SZ",
            "Sub withdrawal for battle #2 (Baltic SZ): Karelia SZ",
            "If my sub in the Baltic survives in battle #2, it withdraws to the Karelia SZ.",
        ],
    )
    def test_the_defender_indicates_the_sea_zone(self, read: Read, written: str) -> None:
        """... the defender will indicate the sea zone to which it will withdraw"""
        (sub,) = read(written).withdrawals
        assert (sub.number, sub.territory, sub.to) == (2, "Baltic Sea Zone", "Karelia Sea Zone")

    def test_a_withdrawal_without_a_zone_is_an_error(self, read: Read) -> None:
        turn = read("Battle #2: my sub withdraws")
        assert turn.withdrawals == ()
        assert turn.errors[0].citation == "IAAPA Rules Clarifications: Sub Withdrawal"


class TestRetreats(NotationCase):
    """RETREATS

    - Land and naval units retreat during combat; therefore, if you wish to retreat these
      units you must declare the retreat location before you roll the next battle. This can
      be done by adding a note in the comments section of the dice roller.
    """

    def test_a_retreat_location_in_a_note(self, read: Read) -> None:
        """... you must declare the retreat location before you roll the next battle. This can
        be done by adding a note in the comments section of the dice roller."""
        (back,) = read("Battle #1 W Europe: retreat to UK SZ after round 2").retreats
        assert (back.number, back.territory, back.to) == (1, "West Europe", "North Sea Zone")

    def test_a_past_tense_retreat_is_a_result_not_a_declaration(self, read: Read) -> None:
        """A post-combat "retreated to" reports what happened."""
        turn = read("Attack #1 - W Europe: retreated to UK SZ with 2 FTR")
        assert turn.retreats == ()
        assert turn.results[0].retreat_to == "North Sea Zone"
        assert turn.results[0].survivors == Units.of({U.FTR: 2})


class TestAbbreviationsInOrders(NotationCase):
    """ABBREVIATIONS

    - A player may use any abbreviation as long as its meaning is clear.
    - WI (Walk In) - The attacker simply "walks in" to an empty enemy or neutral territory.
      No combat rolls are required, but it happens during the combat phase of the turn.
    - ARM or TNK (Armor), CV or AC (Aircraft Carrier), HBMB (Heavy Bomber), JFTR (Jet
      Fighter), MT (Empty), SS or SUB (Submarine)
    """

    def test_wi_walk_in_happens_in_the_combat_phase(self, read: Read) -> None:
        """WI (Walk In) ... No combat rolls are required, but it happens during the combat
        phase of the turn."""
        turn = read("Combat moves:\nAttack #1 - Finland (WI)\nKar 1 INF\nUkr 1 ARM WI Caucasus")
        assert [(b.number, b.territory, b.kind) for b in turn.battles] == [
            (1, "Finland Norway", BattleKind.WALK_IN),
            (2, "Caucasus", BattleKind.WALK_IN),
        ]
        assert [b.defender for b in turn.battles] == [Units(), Units()]

    def test_mt_empty(self, read: Read) -> None:
        """MT (Empty)"""
        turn = read("Attack #1 - Sweden (MT)\nFin/Nor 1 INF")
        assert (turn.battles[0].kind, turn.battles[0].defender) == (BattleKind.WALK_IN, Units())

    def test_every_unit_abbreviation_becomes_the_canonical_one(self) -> None:
        """ARM or TNK, CV or AC, SS or SUB, HBMB, JFTR: the report always writes the
        canonical abbreviation."""
        got = report(
            "Attack #1 - Hawaii SZ (1 CV, 1 SS)\n"
            "Carolines SZ 2 TNK, 1 AC, 1 CV, 1 SS, 1 SUB, 2 JFTR, 1 HBMB"
        )
        assert got["battles"][0]["attacker"] == {"ARM": 2, "AC": 2, "SUB": 2, "FTR": 2, "BMB": 1}
        assert got["battles"][0]["defender"] == {"SUB": 1, "AC": 1}
