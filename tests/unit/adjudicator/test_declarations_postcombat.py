"""A post-combat turn applied to the position: captures, liberation, money, the turn order."""

from __future__ import annotations

from adjudicator.declarations import Code, PostCombat, apply_post_combat
from adjudicator.notation import Units, parse
from adjudicator.position import Position, arranged
from adjudicator.powers import Power
from adjudicator.units import Technology
from adjudicator.units import UnitType as U

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA


def apply(position: Position, email: str, pre: str | None = None) -> PostCombat:
    turn = parse(email)
    assert turn.errors == ()
    return apply_post_combat(position, turn, precombat=parse(pre) if pre else None)


def test_income_is_collected_and_purchases_paid() -> None:
    """IAAPA Income Collection and Spending; INF cost 3 [XML]. Without the pre-combat
    email the placements say what was bought."""
    start = arranged({"Russia": {R: {U.INF: 2, U.IC: 1}}})
    after = apply(start, "Placement:\nRussia 3 INF\n").position
    assert after.bank[R] == 24 - 9 + 24
    assert after.units_of("Russia", R) == Units.of({U.INF: 5, U.IC: 1})


def test_the_pre_combat_purchases_and_research_are_what_is_paid() -> None:
    start = arranged({"Russia": {R: {U.INF: 2, U.IC: 1}}})
    pre = "Tech: 2 dice, Jet Power\nPurchases: 1 ARM\n"
    after = apply(start, "Placement:\nRussia 1 ARM\n", pre).position
    assert after.bank[R] == 24 - 10 - 5 + 24
    assert after.technologies_of(R) == frozenset({Technology.JET_POWER})


def test_industrial_technology_lowers_the_price() -> None:
    """Industrial Technology: every unit costs 1 IPC less [XML]."""
    start = arranged(
        {"Russia": {R: {U.IC: 1}}}, technologies={R: frozenset({Technology.INDUSTRIAL_TECHNOLOGY})}
    )
    after = apply(start, "Placement:\nRussia 3 INF\n").position
    assert after.bank[R] == 24 - 6 + 24


def test_spending_more_than_the_bank_is_noted() -> None:
    start = arranged({"Russia": {R: {U.IC: 1}}}, bank={R: 5})
    applied = apply(start, "Placement:\nRussia 3 INF\n")
    assert [f.code for f in applied.findings] == [Code.OVERSPENT]
    assert applied.position.bank[R] == 24


def test_no_income_without_the_capital() -> None:
    start = arranged({"Germany": {UK: {U.INF: 1}}}, owners={"Germany": UK}, to_move=G)
    applied = apply(start, "Germany 1 post-combat\nGermany 7/$22\n")
    assert applied.position.ipc_count(G) == 32 - 10  # Germany is worth 10
    assert applied.position.bank[G] == 32


def test_taking_a_capital_takes_its_bank() -> None:
    """Capturing an enemy capital takes all the IPCs the loser holds [SPEC p.20]."""
    start = arranged(
        {"Karelia S.S.R.": {R: {U.INF: 3}}, "Finland Norway": {G: {U.INF: 1}}}, bank={G: 40}
    )
    applied = apply(start, "Results:\n#1 Germany: won, 2 INF left\n\nMap update:\nGermany: 2 INF\n")
    after = applied.position
    assert after.owner("Germany") is R
    assert after.bank[G] == 0
    assert after.bank[R] == 24 + 40 + after.ipc_count(R)


def test_an_allys_territory_is_liberated_to_it() -> None:
    """An ally's original territory returns to it if its capital is free [SPEC p.14,20]; IAAPA
    AA Guns: an AA gun in a liberated territory belongs to the original owner."""
    start = arranged(
        {"Anglo Sudan Egypt": {G: {U.INF: 1, U.AA: 1}}, "Syria Jordan": {US: {U.INF: 2}}},
        owners={"Anglo Sudan Egypt": G, "Syria Jordan": US},
        to_move=US,
    )
    after = apply(
        start, "Results:\n#1 Egypt: won, 2 INF left\n\nMap update:\nEgypt: 2 INF\n"
    ).position
    assert after.owner("Anglo Sudan Egypt") is UK
    assert after.units_of("Anglo Sudan Egypt", US) == Units.of({U.INF: 2})
    assert after.units_of("Anglo Sudan Egypt", UK) == Units.of({U.AA: 1})
    assert after.units_of("Anglo Sudan Egypt", G) == Units()


def test_the_liberator_keeps_it_while_the_allys_capital_is_held() -> None:
    start = arranged(
        {"Anglo Sudan Egypt": {G: {U.INF: 1, U.AA: 1}}, "Syria Jordan": {US: {U.INF: 2}}},
        owners={"Anglo Sudan Egypt": G, "Syria Jordan": US, "United Kingdom": G},
        to_move=US,
    )
    after = apply(
        start, "Results:\n#1 Egypt: won, 2 INF left\n\nMap update:\nEgypt: 2 INF\n"
    ).position
    assert after.owner("Anglo Sudan Egypt") is US
    assert after.units_of("Anglo Sudan Egypt", US) == Units.of({U.INF: 2, U.AA: 1})


def test_entering_a_neutral_costs_three() -> None:
    """Neutrals: the first power to enter one pays 3 IPCs [SPEC; XML neutralCharge=3]."""
    start = arranged({"Finland Norway": {G: {U.INF: 2}}}, to_move=G)
    pre = "Combat moves:\nFin 1 INF WI Sweden\n"
    after = apply(start, "Map update:\nFinland: 1 INF\nSweden: 1 INF\n", pre).position
    assert after.owner("Sweden") is G
    assert after.bank[G] == 32 - 3 + after.ipc_count(G)


def test_a_sea_battle_won_clears_the_zone() -> None:
    start = arranged(
        {"North Sea Zone": {UK: {U.BB: 1}}, "Baltic Sea Zone": {G: {U.SUB: 1}}}, to_move=UK
    )
    pre = "Combat moves:\nAttack #1 - Baltic SZ (1 SUB)\nUK SZ 1 BB\n"
    after = apply(start, "Results:\n#1 Baltic SZ: won, 1 BB left\n", pre).position
    assert after.units_of("Baltic Sea Zone", G) == Units()
    assert after.units_of("Baltic Sea Zone", UK) == Units.of({U.BB: 1})
    assert after.units_of("North Sea Zone", UK) == Units()


def test_a_bombing_raid_costs_the_victim() -> None:
    start = arranged({"United Kingdom": {UK: {U.BMB: 1}}}, to_move=UK)
    pre = "Combat moves:\nAttack #1 - Germany (SBR)\nUK 1 BMB (land UK)\n"
    after = apply(start, "Results:\n#1 Germany (SBR): 9 IPC damage\n", pre).position
    assert after.bank[G] == 32 - 9


def test_without_the_combat_moves_losses_are_not_disputed() -> None:
    """A post-combat email alone does not say which units attacked: a map with fewer units
    than the start is no discrepancy once combat was fought."""
    start = arranged({"Karelia S.S.R.": {R: {U.INF: 3}}, "Finland Norway": {G: {U.INF: 1}}})
    applied = apply(
        start,
        "Results:\n#1 Finland: won, 1 INF left\n\nMap update:\nKarelia: 1 INF\nFinland: 1 INF\n",
    )
    assert applied.findings == ()
    assert applied.position.owner("Finland Norway") is R


def test_the_turn_passes_to_the_next_power() -> None:
    start = arranged({}, to_move=Power.USA, round=3)
    after = apply(start, "USA 3 post-combat\nUSA 11/$36\n").position
    assert (after.to_move, after.round) == (R, 4)


def test_an_impossible_result_is_kept_and_reported() -> None:
    start = arranged(
        {"North Sea Zone": {UK: {U.TRN: 1}}, "United Kingdom": {UK: {U.INF: 3}}}, to_move=UK
    )
    applied = apply(start, "Non-combat moves:\nUK 3 INF to UK SZ\n")
    assert [f.code for f in applied.findings] == [Code.IMPOSSIBLE_POSITION]
    assert applied.position.units_of("North Sea Zone", UK) == Units.of({U.INF: 3, U.TRN: 1})


def test_planes_land_where_the_combat_move_said() -> None:
    """ "Kar 1 FTR (land Karelia)" with no non-combat move for it: the fighter is back in
    Karelia, and a map update saying so agrees with the orders."""
    start = arranged(
        {"Karelia S.S.R.": {R: {U.INF: 3, U.FTR: 1}}, "Finland Norway": {G: {U.INF: 1}}}
    )
    email = (
        "Combat moves:\nAttack #1 - Finland (1 INF)\nKar 3 INF, 1 FTR (land Kar)\n\n"
        "Results:\n#1 Finland: won, 2 INF, 1 FTR left\n\nMap update:\nFinland: 2 INF\n"
        "Karelia: 1 FTR\n"
    )
    turn = parse(email)
    applied = apply_post_combat(start, turn, precombat=turn)
    assert applied.findings == ()
    assert applied.position.units_of("Karelia S.S.R.", R) == Units.of({U.FTR: 1})
    assert applied.position.units_of("Finland Norway", R) == Units.of({U.INF: 2})
