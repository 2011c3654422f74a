"""Properties of every battle, for random forces and dice (hypothesis).

- Units are conserved: for each side, survivors + casualties + withdrawn = the start.
- A battle ends only when a side is gone or the attacker retreats: no round is played
  after that, and "continues" means both sides still have units.
- Dice thrown exactly as the forces require raise no error diagnostic: the engine and a
  player counting dice by the rules agree.
"""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.battle import BattleResult, BattleSetup, Outcome, RoundInput, Units, resolve
from adjudicator.units import NEVER_CASUALTIES, Battlefield, Side, Technology, UnitType

U = UnitType
LAND_ATTACK = (U.INF, U.ARM, U.FTR, U.BMB)
LAND_DEFENCE = (U.INF, U.ARM, U.FTR, U.BMB, U.AA, U.IC)
SEA_ATTACK = (U.TRN, U.SUB, U.AC, U.BB, U.FTR, U.BMB)
SEA_DEFENCE = (U.TRN, U.SUB, U.AC, U.BB, U.FTR)
BATTLE_TECH = (Technology.HEAVY_BOMBERS, Technology.SUPER_SUBS, Technology.JET_POWER)


def forces(units: tuple[UnitType, ...], most: int = 3) -> st.SearchStrategy[Units]:
    return st.dictionaries(st.sampled_from(units), st.integers(0, most), max_size=len(units)).map(
        Units.of
    )


@st.composite
def setups(draw: st.DrawFn) -> BattleSetup:
    land = draw(st.booleans())
    attack = draw(forces(LAND_ATTACK if land else SEA_ATTACK).filter(bool))
    defence = draw(forces(LAND_DEFENCE if land else SEA_DEFENCE))
    amphibious = land and draw(st.booleans())
    if amphibious:
        attack = attack.plus(Units.of({U.BB: draw(st.integers(0, 2))}))
    return BattleSetup(
        Battlefield.LAND if land else Battlefield.SEA,
        attack,
        defence,
        amphibious=amphibious,
        transport_cargo=draw(st.integers(0, 2 * defence.count(U.TRN))),
        attacker_technologies=frozenset(draw(st.sets(st.sampled_from(BATTLE_TECH)))),
        defender_technologies=frozenset(draw(st.sets(st.sampled_from(BATTLE_TECH)))),
        no_retreat=draw(st.booleans()),
    )


def remaining(start: Units, result: BattleResult, attacker: bool, upto: int) -> Units:
    left = start
    for r in result.rounds[:upto]:
        left = left.minus(r.attacker_casualties if attacker else r.defender_casualties)
        left = left.minus(r.attacker_withdrawn if attacker else r.defender_withdrawn)
    return left


def check_invariants(s: BattleSetup, result: BattleResult) -> None:
    start_a, start_d = s.attacking, s.defender.combatants()
    for attacker, start, survivors in (
        (True, start_a, result.attacker),
        (False, start_d, result.defender),
    ):
        assert survivors.plus(result.casualties(attacker)).plus(result.withdrawn(attacker)) == start
    for k in range(1, len(result.rounds)):
        assert remaining(start_a, result, True, k) and remaining(start_d, result, False, k), (
            f"round {k + 1} was played after a side was gone"
        )
    a, d = result.attacker, result.defender
    # an AA gun alone still fires at attacking aircraft before round 1
    aa_to_fire = s.is_land and s.defender.count(U.AA) > 0 and s.attacking.aircraft > 0
    expected = {
        Outcome.CONTINUES: bool(a) and (bool(d) or (not result.rounds and aa_to_fire)),
        Outcome.ATTACKER_WINS: bool(a) and not d,
        Outcome.DEFENDER_WINS: not a and bool(d),
        Outcome.BOTH_DESTROYED: not a and not d,
        Outcome.ATTACKER_RETREATS: s.retreat_possible or not a,
    }
    assert expected[result.outcome], (result.outcome, a, d)
    if result.retreat_allowed:
        assert result.outcome is Outcome.CONTINUES and s.retreat_possible


dice = st.lists(st.integers(0, 7), max_size=7).map(tuple)
dice_maps = st.dictionaries(st.sampled_from(list(UnitType)), dice, max_size=4)
rounds = st.lists(
    st.builds(
        RoundInput,
        aa=dice,
        bombard=dice,
        subs=st.one_of(st.just(()), dice),
        attacker=dice_maps,
        defender=dice_maps,
        withdraw_attacker=st.integers(0, 1),
        withdraw_defender=st.integers(0, 1),
        retreat=st.booleans(),
    ),
    max_size=5,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), rounds)
def test_any_dice_keep_the_invariants(s: BattleSetup, thrown: list[RoundInput]) -> None:
    """Dice of any count and face, even nonsense: nothing raises, nothing is lost."""
    check_invariants(s, resolve(s, thrown))


def _exact(
    s: BattleSetup, side: Side, units: Units, data: st.DataObject, other: Units
) -> Mapping[UnitType, tuple[int, ...]]:
    thrown = {}
    for unit, count in units:
        stats = s.profile(side, unit)
        value = stats.attack if side is Side.ATTACKER else stats.defence
        if not value:
            continue
        if unit is U.SUB and not other.surface and data.draw(st.booleans()):
            continue
        per_unit = stats.attack_dice if side is Side.ATTACKER else 1
        thrown[unit] = tuple(
            data.draw(
                st.lists(st.integers(1, 6), min_size=count * per_unit, max_size=count * per_unit)
            )
        )
    return thrown


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.data())
def test_exact_dice_play_out_without_errors(s: BattleSetup, data: st.DataObject) -> None:
    """Each round's dice thrown for the units left, as the rules count them (AA and support
    shots in round 1): the battle plays out with no error, and keeps the invariants."""
    thrown: list[RoundInput] = []
    result = resolve(s, thrown)
    while result.outcome is Outcome.CONTINUES and len(thrown) < 12:
        first = not thrown
        planes = result.attacker.aircraft
        aa = (
            data.draw(st.lists(st.integers(1, 6), min_size=planes, max_size=planes))
            if first and s.is_land and s.defender.count(U.AA)
            else []
        )
        bombard = (
            data.draw(st.lists(st.integers(1, 6), min_size=s.bombarding, max_size=s.bombarding))
            if first
            else []
        )
        hit = sum(1 for d in aa if d == 1)
        attackers = result.attacker if not hit else None
        if attackers is None:
            # roll the AA first, then the round for the aircraft it left
            probe = resolve(s, [RoundInput(aa=tuple(aa))])
            attackers = result.attacker.minus(probe.rounds[0].attacker_casualties)
        thrown.append(
            RoundInput(
                aa=tuple(aa),
                bombard=tuple(bombard),
                attacker=_exact(s, Side.ATTACKER, attackers, data, result.defender),
                defender=_exact(s, Side.DEFENDER, result.defender, data, attackers),
            )
        )
        result = resolve(s, thrown)
    errors = [d for d in result.diagnostics if d.severity.value == "error"]
    assert errors == [], errors
    check_invariants(s, result)
    assert result.final
    assert not (set(result.defender.as_dict()) & NEVER_CASUALTIES)
