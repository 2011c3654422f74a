"""The unit table, technologies and orders of loss, checked against classic.xml."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.boards import load_triplea_units
from adjudicator.boards.triplea import TripleaUnits
from adjudicator.units import (
    DEFAULT_ORDERS_OF_LOSS,
    TECH_EFFECTS,
    UNIT_STATS,
    Battlefield,
    Domain,
    OrderOfLoss,
    Side,
    Technology,
    UnitType,
    default_order_of_loss,
    rocket_range,
    unit_profile,
)


@pytest.fixture(scope="module")
def xml_units(classic_xml: Path) -> TripleaUnits:
    return load_triplea_units(classic_xml)


def _opt(xml_units: TripleaUnits, unit: UnitType, option: str) -> str | None:
    return xml_units.options[unit.triplea_name].get(option)


@pytest.mark.parametrize("unit", list(UnitType))
def test_cost_matches_the_xml_production_rule(xml_units: TripleaUnits, unit: UnitType) -> None:
    assert unit.stats.cost == xml_units.cost(unit.triplea_name)


@pytest.mark.parametrize("unit", list(UnitType))
def test_industrial_technology_cost_matches_the_xml(
    xml_units: TripleaUnits,
    unit: UnitType,
) -> None:
    cheaper = unit_profile(unit, [Technology.INDUSTRIAL_TECHNOLOGY]).cost
    assert cheaper == xml_units.cost(unit.triplea_name, "productionIndustrialTechnology")


@pytest.mark.parametrize("unit", list(UnitType))
def test_combat_values_and_movement_match_the_xml(xml_units: TripleaUnits, unit: UnitType) -> None:
    stats = unit.stats
    attack, defence = _opt(xml_units, unit, "attack"), _opt(xml_units, unit, "defense")
    assert stats.attack == (None if attack is None else int(attack))
    assert stats.defence == (None if defence is None else int(defence))
    assert stats.movement == int(_opt(xml_units, unit, "movement") or 0)


@pytest.mark.parametrize("unit", list(UnitType))
def test_domain_matches_the_xml_flags(xml_units: TripleaUnits, unit: UnitType) -> None:
    is_air = _opt(xml_units, unit, "isAir") == "true"
    is_sea = _opt(xml_units, unit, "isSea") == "true"
    assert (unit.stats.is_air, unit.stats.is_sea, unit.stats.is_land) == (
        is_air,
        is_sea,
        not (is_air or is_sea),
    )


@pytest.mark.parametrize("unit", list(UnitType))
def test_transport_and_carrier_numbers_match_the_xml(
    xml_units: TripleaUnits,
    unit: UnitType,
) -> None:
    def num(option: str) -> int | None:
        value = _opt(xml_units, unit, option)
        return None if value is None else int(value)

    stats = unit.stats
    assert stats.transport_cost == num("transportCost")
    assert stats.transport_capacity == (num("transportCapacity") or 0)
    assert stats.carrier_cost == num("carrierCost")
    assert stats.carrier_capacity == (num("carrierCapacity") or 0)


def test_the_ten_classic_units_are_the_xml_units_bought_in_classic(
    xml_units: TripleaUnits,
) -> None:
    sold = {xml_units.rules[r].unit for r in xml_units.frontiers["production"]}
    assert sold == {u.triplea_name for u in UnitType}


def test_triplea_names_round_trip() -> None:
    for unit in UnitType:
        assert UnitType.from_triplea(unit.triplea_name) is unit
    with pytest.raises(ValueError, match="destroyer"):
        UnitType.from_triplea("destroyer")


def test_transport_loads() -> None:
    """Capacity is one of: 1 or 2 INF, or 1 ARM, or 1 AA gun; no INF+ARM mix [W12; XML]."""
    slots = UnitType.TRN.stats.transport_capacity

    def fits(*units: UnitType) -> bool:
        return sum(u.stats.transport_cost or 99 for u in units) <= slots

    assert fits(UnitType.INF, UnitType.INF)
    assert fits(UnitType.ARM)
    assert fits(UnitType.AA)
    assert not fits(UnitType.INF, UnitType.ARM)
    assert not fits(UnitType.INF, UnitType.INF, UnitType.INF)
    assert not fits(UnitType.FTR)
    assert not fits(UnitType.IC)


def test_carrier_holds_two_fighters_and_no_bomber() -> None:
    assert UnitType.AC.stats.carrier_capacity // (UnitType.FTR.stats.carrier_cost or 99) == 2
    assert UnitType.BMB.stats.carrier_cost is None


def test_units_that_never_roll() -> None:
    rolling = {u for u in UnitType if u.stats.rolls_in_battle}
    assert UnitType.TRN not in rolling and UnitType.AA not in rolling
    assert UnitType.IC not in rolling and UnitType.INF in rolling


def test_every_unit_has_stats_with_its_own_type() -> None:
    assert set(UNIT_STATS) == set(UnitType)
    assert all(UNIT_STATS[u].unit is u for u in UnitType)
    assert {u.stats.domain for u in UnitType} == set(Domain)


def test_tech_chart_numbers_follow_the_facts_file() -> None:
    order = [Technology.from_chart(n) for n in range(1, 7)]
    assert [t.name for t in order] == [
        "JET_POWER",
        "ROCKETS",
        "SUPER_SUBS",
        "LONG_RANGE_AIRCRAFT",
        "INDUSTRIAL_TECHNOLOGY",
        "HEAVY_BOMBERS",
    ]
    with pytest.raises(ValueError):
        Technology.from_chart(7)


def test_jet_fighters_defend_at_five_and_still_attack_at_three() -> None:
    jet = unit_profile(UnitType.FTR, [Technology.JET_POWER])
    assert (jet.attack, jet.defence) == (3, 5)


def test_super_subs_attack_at_three_and_still_defend_at_two() -> None:
    sub = unit_profile(UnitType.SUB, [Technology.SUPER_SUBS])
    assert (sub.attack, sub.defence) == (3, 2)


def test_long_range_aircraft_add_two_to_air_only() -> None:
    techs = [Technology.LONG_RANGE_AIRCRAFT]
    assert unit_profile(UnitType.FTR, techs).movement == 6
    assert unit_profile(UnitType.BMB, techs).movement == 8
    assert unit_profile(UnitType.TRN, techs).movement == UnitType.TRN.stats.movement


def test_heavy_bombers_roll_three_dice_attacking_and_raiding() -> None:
    heavy = unit_profile(UnitType.BMB, [Technology.HEAVY_BOMBERS])
    assert (heavy.attack_dice, heavy.raid_dice, heavy.attack) == (3, 3, 4)
    assert (UnitType.BMB.stats.attack_dice, UnitType.BMB.stats.raid_dice) == (1, 1)


def test_rockets_leave_the_aa_gun_silent_in_battle_but_give_it_range_three() -> None:
    gun = unit_profile(UnitType.AA, [Technology.ROCKETS])
    assert gun.attack is None and gun.defence is None
    assert rocket_range([Technology.ROCKETS]) == 3
    assert rocket_range([Technology.JET_POWER]) is None


def test_technologies_stack_and_ignore_other_units() -> None:
    everything = list(Technology)
    ftr = unit_profile(UnitType.FTR, everything)
    assert (ftr.attack, ftr.defence, ftr.movement, ftr.cost) == (3, 5, 6, 11)
    inf = unit_profile(UnitType.INF, everything)
    assert (inf.attack, inf.defence, inf.movement, inf.cost) == (1, 2, 1, 2)
    assert unit_profile(UnitType.FTR, [Technology.JET_POWER, Technology.JET_POWER]).defence == 5


def test_every_technology_has_one_effect() -> None:
    assert set(TECH_EFFECTS) == set(Technology)
    assert all(TECH_EFFECTS[t].technology is t for t in Technology)


def test_every_side_and_battlefield_has_a_default_order() -> None:
    assert set(DEFAULT_ORDERS_OF_LOSS) == {(s, b) for s in Side for b in Battlefield}
    for (side, field), order in DEFAULT_ORDERS_OF_LOSS.items():
        assert (order.side, order.battlefield) == (side, field)


def test_orders_list_only_units_that_can_fight_there() -> None:
    for (side, field), order in DEFAULT_ORDERS_OF_LOSS.items():
        for unit in order.units:
            stats = unit.stats
            assert stats.rolls_in_battle or unit is UnitType.TRN
            if field is Battlefield.LAND:
                assert not stats.is_sea
            if side is Side.DEFENDER and field is Battlefield.SEA:
                assert stats.is_sea or unit is UnitType.FTR


def test_casualties_follow_the_order_and_stop_at_the_hits() -> None:
    order = default_order_of_loss(Side.DEFENDER, Battlefield.LAND)
    present = {UnitType.FTR: 1, UnitType.BMB: 1, UnitType.INF: 2, UnitType.AA: 1}
    assert order.casualties(present, 3) == (UnitType.INF, UnitType.INF, UnitType.BMB)
    assert order.casualties(present, 0) == ()
    assert order.casualties(present, 9) == (UnitType.INF, UnitType.INF, UnitType.BMB, UnitType.FTR)
    with pytest.raises(ValueError):
        order.casualties(present, -1)


def test_rank_and_unknown_units() -> None:
    order = default_order_of_loss(Side.ATTACKER, Battlefield.SEA)
    assert order.rank(UnitType.TRN) == 0
    assert order.rank(UnitType.BB) == len(order.units) - 1
    with pytest.raises(ValueError, match="AA is not in the attacker order"):
        order.rank(UnitType.AA)


def test_an_order_may_not_list_a_unit_twice() -> None:
    with pytest.raises(ValueError, match="twice"):
        OrderOfLoss(Side.ATTACKER, Battlefield.LAND, (UnitType.INF, UnitType.INF))


def test_the_air_only_note_changes_only_the_defence_at_sea() -> None:
    for side in Side:
        for field in Battlefield:
            noted = default_order_of_loss(side, field, attackers_only_air_no_retreat=True)
            plain = default_order_of_loss(side, field)
            if (side, field) == (Side.DEFENDER, Battlefield.SEA):
                assert noted.units[0] is UnitType.SUB
                assert sorted(noted.units, key=str) == sorted(plain.units, key=str)
            else:
                assert noted == plain
