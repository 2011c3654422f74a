"""IAAPA Declaration and Battle Resolution Procedures: Default Orders of Loss (OOL)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from adjudicator.units import (
    Battlefield,
    OrderOfLoss,
    Side,
    UnitType,
    default_order_of_loss,
)

U = UnitType


def _listed(line: str) -> tuple[UnitType, ...]:
    return tuple(UnitType(code.strip()) for code in line.split(","))


class TestDefaultOrdersOfLoss:
    """Default Orders of Loss (OOL)

    A player may designate any order of loss that he desires for his casualties. If a
    defender does not send in any special orders of loss prior to the attacker rolling the
    battle then the Association defaults will be used. Default orders of loss are as follows:
    Land Territories - Attacking: INF, ARM, FTR, BMB - Defending: INF, ARM, BMB, FTR
    Sea Zones - Attacking-- TRN, SUB, FTR, BMB, AC, BB - Defending -- TRN, SUB, FTR, AC, BB
    Note: In a no retreat situation involving only attacking air units, defending subs are
    lost before other defending units.
    """

    @pytest.fixture
    def printed(self, rule_section: Callable[[str, str], str]) -> dict[str, tuple[UnitType, ...]]:
        text = rule_section("Default Orders of Loss (OOL)", "Note:")
        found = re.findall(r"(Attacking|Defending)[-: ]+([A-Z, ]+[A-Z])", text)
        keys = ["land attack", "land defence", "sea attack", "sea defence"]
        assert len(found) == 4
        return {k: _listed(units) for k, (_, units) in zip(keys, found, strict=True)}

    def test_land_attacking(self, printed: dict[str, tuple[UnitType, ...]]) -> None:
        """Land Territories - Attacking: INF, ARM, FTR, BMB"""
        assert (
            default_order_of_loss(Side.ATTACKER, Battlefield.LAND).units == printed["land attack"]
        )

    def test_land_defending(self, printed: dict[str, tuple[UnitType, ...]]) -> None:
        """Land Territories - Defending: INF, ARM, BMB, FTR"""
        assert (
            default_order_of_loss(Side.DEFENDER, Battlefield.LAND).units == printed["land defence"]
        )

    def test_sea_attacking(self, printed: dict[str, tuple[UnitType, ...]]) -> None:
        """Sea Zones - Attacking-- TRN, SUB, FTR, BMB, AC, BB"""
        assert default_order_of_loss(Side.ATTACKER, Battlefield.SEA).units == printed["sea attack"]

    def test_sea_defending(self, printed: dict[str, tuple[UnitType, ...]]) -> None:
        """Sea Zones - Defending -- TRN, SUB, FTR, AC, BB"""
        assert default_order_of_loss(Side.DEFENDER, Battlefield.SEA).units == printed["sea defence"]

    def test_defaults_pick_the_casualties(self) -> None:
        """...then the Association defaults will be used: two hits on a defending stack of
        1 BB, 1 AC, 1 FTR and 1 TRN sink the TRN and then the FTR."""
        order = default_order_of_loss(Side.DEFENDER, Battlefield.SEA)
        present = {U.BB: 1, U.AC: 1, U.FTR: 1, U.TRN: 1}
        assert order.casualties(present, 2) == (U.TRN, U.FTR)

    def test_note_air_only_attack_with_no_retreat(self) -> None:
        """Note: In a no retreat situation involving only attacking air units, defending subs
        are lost before other defending units."""
        order = default_order_of_loss(
            Side.DEFENDER, Battlefield.SEA, attackers_only_air_no_retreat=True
        )
        present = {U.TRN: 2, U.SUB: 1, U.BB: 1}
        assert order.casualties(present, 1) == (U.SUB,)
        assert order.casualties(present, 2) == (U.SUB, U.TRN)

    def test_any_order_the_player_desires(self) -> None:
        """A player may designate any order of loss that he desires for his casualties."""
        mine = OrderOfLoss(Side.DEFENDER, Battlefield.LAND, (U.FTR, U.INF, U.ARM, U.BMB))
        present = {U.INF: 3, U.FTR: 1}
        assert mine.casualties(present, 2) == (U.FTR, U.INF)
        default = default_order_of_loss(Side.DEFENDER, Battlefield.LAND)
        assert default.casualties(present, 2) == (U.INF, U.INF)
