"""Resolving a battle from the dice actually thrown, round by round.

The sequence of a round (facts sheet sections 1 and 5; IAAPA Using the Dice Server):

1. AA guns fire before round 1, one die at each attacking aircraft; each hit removes an
   aircraft of the attacker's choosing (his order of loss) before it fires
   (:func:`~adjudicator.battle.firing.fire_aa`).
2. In round 1 of an amphibious assault, battleships fire support shots (4 or less); their
   casualties fire back.
3. Attacking subs the attacker chose to roll first strike; their casualties are removed at
   once and do not fire back. Sub hits never take aircraft.
4. The attacker's and defender's main rolls; both sides' casualties are removed, chosen by
   the declared order of loss, the IAAPA default, or a choice named for the round.
5. The pause owed to the defender, if any (:mod:`~adjudicator.battle.pauses`).
6. Submarines may withdraw; the attacker may retreat, unless a transport unloaded into the
   battle (IAAPA Amphibious Assaults) or it cannot retreat.

Rounds after one with a rolling error that IAAPA Error Correction III remedies by
re-rolling "the remainder of the battle beginning with the next round" are reported and not
used, as are rounds rolled after the battle ended.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from adjudicator.battle import lowluck as lucky
from adjudicator.battle.casualties import allocation_fits, casualties_by_order, forced_losses
from adjudicator.battle.findings import error, info, warning
from adjudicator.battle.firing import (
    Volley,
    drop_shot,
    fire_aa,
    fire_first_strike,
    fire_main,
    fire_support,
    unused,
)
from adjudicator.battle.pauses import detect_pause
from adjudicator.battle.result import BattleResult, Outcome, RoundResult, captures
from adjudicator.battle.setup import BattleSetup, RoundInput
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.units import OrderOfLoss, Side, Units, UnitType

U = UnitType
REROLL_RULES = frozenset(
    {Rule.TOO_MANY_UNITS, Rule.TOO_FEW_UNITS, Rule.DICE_FACES, Rule.AA_GUNS, Rule.BB_SUPPORT}
)
"""Rules whose remedy re-rolls the battle from the next round."""


@dataclass(frozen=True)
class BattleState:
    """The battle between rounds: who is left, what is loaded, and whether it goes on."""

    attacker: Units
    defender: Units
    carrier_fighters: int
    loaded_transports: int
    """Defending transports with cargo; lost after the empty ones (a defender keeps cargo)."""
    outcome: Outcome = Outcome.CONTINUES


@dataclass(frozen=True)
class RoundPlay:
    """One round played: the new state, what happened, and whether later rounds are void."""

    state: BattleState
    result: RoundResult
    diagnostics: tuple[Diagnostic, ...]
    reroll: Rule | None
    """The rule that voids the later rounds, if one does."""


def start(setup: BattleSetup) -> BattleState:
    """The state before round 1 (a defence with nothing that fights, and no AA gun to fire
    at aircraft, is taken without a roll)."""
    aa_shots = setup.is_land and setup.defender.count(U.AA) and setup.attacking.aircraft
    over = not setup.defending and not aa_shots
    return BattleState(
        setup.attacking,
        setup.defending,
        setup.initial_carrier_fighters(),
        min(setup.transport_cargo, setup.defender.count(U.TRN)),
        Outcome.ATTACKER_WINS if over else Outcome.CONTINUES,
    )


def settle(attacker: Units, defender: Units) -> Outcome:
    """Where a battle stands once casualties are removed."""
    if not attacker and not defender:
        return Outcome.BOTH_DESTROYED
    if not attacker:
        return Outcome.DEFENDER_WINS
    if not defender:
        return Outcome.ATTACKER_WINS
    return Outcome.CONTINUES


def choose(
    number: int,
    who: str,
    pool: Units,
    volley: Volley,
    order: OrderOfLoss,
    chosen: Units | None,
) -> tuple[Units, tuple[Diagnostic, ...]]:
    """The casualties of ``volley`` on ``pool``: a lawful named choice, else the order."""
    r, u = volley.restricted, volley.unrestricted
    notes: list[Diagnostic] = []
    if chosen is not None:
        if allocation_fits(chosen, pool, r, u):
            return chosen, ()
        need = forced_losses(pool, r, u)
        notes.append(
            error(
                number,
                Rule.DEFAULT_OOL,
                (
                    f"{who} casualties named ({chosen.label()}) do not fit {r + u} hits on "
                    f"{pool.label()}: exactly {need} must be lost, from the units present, at most "
                    f"{u} of them aircraft; the order of loss was applied instead"
                ),
            )
        )
    lost = casualties_by_order(pool, order, r, u)
    wasted = r + u - lost.total
    if wasted and lost.total < pool.total:
        notes.append(
            info(
                number,
                Rule.SUBS_HIT_SHIPS,
                (
                    f"{wasted} submarine hit{'s' * (wasted != 1)} on the {who} found no unit "
                    "to take (subs never hit aircraft)"
                ),
            )
        )
    return lost, tuple(notes)


def play_round(
    setup: BattleSetup,
    state: BattleState,
    number: int,
    rnd: RoundInput,
) -> RoundPlay:
    """Play round ``number`` from ``state`` with the dice of ``rnd``."""
    notes: list[Diagnostic] = []
    a0, d0 = state.attacker, state.defender
    shots = rnd.low_luck
    aa = (
        fire_aa(number, setup, a0, rnd.aa)
        if shots is None
        else lucky.low_luck_aa(number, setup, a0, shots)
    )
    notes.extend(aa.diagnostics)
    a1 = a0.minus(aa.lost)
    if shots is None:
        support = fire_support(number, setup, rnd.bombard)
        first = fire_first_strike(number, setup, a1, rnd.subs)
    else:
        support = lucky.low_luck_support(number, setup, shots)
        first = lucky.low_luck_first_strike(number, setup, a1, shots)
    notes += [*support.diagnostics, *first.diagnostics]
    d_order = setup.order(Side.DEFENDER, attackers_only_air=a1.surface == 0)
    a_order = setup.order(Side.ATTACKER)
    struck, found = choose(
        number, "defender (first strike)", d0, first, d_order, rnd.chosen.first_strike
    )
    notes.extend(found)
    d1 = d0.minus(struck)
    main_a, main_d = Volley(), Volley()
    attacker_dice, void = drop_shot(setup, a1, aa.lost, rnd.attacker)
    if a1 and d1 and shots is not None:
        struck_first = (
            not setup.is_land
            and a1.count(U.SUB) > 0
            and lucky.shot(shots, Side.ATTACKER, "first-strike") is not None
        )
        main_a = lucky.low_luck_main(
            number,
            setup,
            Side.ATTACKER,
            a1,
            shots,
            skip_subs=struck_first,
            subs_optional=d1.surface == 0,
        )
        main_d = lucky.low_luck_main(
            number, setup, Side.DEFENDER, d1, shots, subs_optional=a1.surface == 0
        )
        notes += [*main_a.diagnostics, *main_d.diagnostics]
    elif a1 and d1:
        struck_first = bool(rnd.subs) and not setup.is_land and a1.count(U.SUB) > 0
        main_a = fire_main(
            number,
            setup,
            Side.ATTACKER,
            a1,
            attacker_dice,
            shot=aa.lost,
            skip=frozenset({U.SUB}) if struck_first else frozenset(),
            optional=frozenset({U.SUB}) if d1.surface == 0 else frozenset(),
        )
        main_d = fire_main(
            number,
            setup,
            Side.DEFENDER,
            d1,
            rnd.defender,
            optional=frozenset({U.SUB}) if a1.surface == 0 else frozenset(),
        )
        notes += [*main_a.diagnostics, *main_d.diagnostics]
    elif shots is None:
        notes += [
            *unused(number, "attacker", attacker_dice),
            *unused(number, "defender", rnd.defender),
        ]
    on_defender = Volley(main_a.unrestricted + support.unrestricted, main_a.restricted)
    d_lost, found = choose(number, "defender", d1, on_defender, d_order, rnd.chosen.defender)
    notes.extend(found)
    a_lost, found = choose(number, "attacker", a1, main_d, a_order, rnd.chosen.attacker)
    notes.extend(found)
    a2, d2 = a1.minus(a_lost), d1.minus(d_lost)
    outcome = settle(a2, d2)
    pause = detect_pause(
        d0,
        land=setup.is_land,
        carrier_fighters=state.carrier_fighters,
        loaded_transports=state.loaded_transports,
        restricted=first.restricted + main_a.restricted,
        unrestricted=on_defender.unrestricted,
        attackers_left=outcome is Outcome.CONTINUES,
        answered=rnd.chosen.defender_named,
    )
    gone_a, gone_d, outcome, found = _withdraw(number, rnd, a2, d2, outcome)
    notes.extend(found)
    a3, d3 = a2.minus(gone_a), d2.minus(gone_d)
    outcome, found = _retreat(setup, number, rnd, outcome)
    notes.extend(found)
    result = RoundResult(
        number=number,
        attacker_hits=first.hits + support.hits + main_a.hits,
        defender_hits=aa.lost.total + main_d.hits,
        attacker_casualties=aa.lost.plus(a_lost),
        defender_casualties=struck.plus(d_lost),
        aa_hits=aa.lost.total,
        bombard_hits=support.hits,
        first_strike_hits=first.hits,
        attacker_withdrawn=gone_a,
        defender_withdrawn=gone_d,
        pause=pause,
        aa_casualties=aa.lost,
        void=void,
    )
    new_state = BattleState(
        a3,
        d3,
        min(state.carrier_fighters, d3.count(U.FTR), 2 * d3.count(U.AC)),
        min(state.loaded_transports, d3.count(U.TRN)),
        outcome,
    )
    reroll = aa.reroll or support.reroll or first.reroll or main_a.reroll or main_d.reroll
    cause = next(
        (d.rule for d in notes if d.severity is Severity.ERROR and d.rule in REROLL_RULES),
        Rule.TOO_FEW_UNITS,
    )
    return RoundPlay(new_state, result, tuple(notes), cause if reroll else None)


def _withdraw(
    number: int,
    rnd: RoundInput,
    attacker: Units,
    defender: Units,
    outcome: Outcome,
) -> tuple[Units, Units, Outcome, tuple[Diagnostic, ...]]:
    """Submarines withdrawing after the round (IAAPA Sub Withdrawal; facts sheet 2)."""
    asked = {
        "attacker": (rnd.withdraw_attacker, attacker),
        "defender": (rnd.withdraw_defender, defender),
    }
    if not (rnd.withdraw_attacker or rnd.withdraw_defender):
        return Units(), Units(), outcome, ()
    notes: list[Diagnostic] = []
    gone: dict[str, Units] = {"attacker": Units(), "defender": Units()}
    for side, (count, forces) in asked.items():
        if not count:
            continue
        if outcome is not Outcome.CONTINUES:
            notes.append(
                warning(
                    number,
                    Rule.SUB_WITHDRAWAL,
                    (f"{side} withdrawal of {count} SUB ignored: the battle ended this round"),
                )
            )
        elif count > forces.count(U.SUB):
            notes.append(
                error(
                    number,
                    Rule.SUB_WITHDRAWAL,
                    (
                        f"{side} withdrawal of {count} SUB ignored: {forces.count(U.SUB)} SUB "
                        "survive the round"
                    ),
                )
            )
        else:
            gone[side] = Units.of({U.SUB: count})
    attacker, defender = attacker.minus(gone["attacker"]), defender.minus(gone["defender"])
    if outcome is Outcome.CONTINUES and not attacker:
        outcome = Outcome.ATTACKER_RETREATS
    elif outcome is Outcome.CONTINUES and not defender:
        outcome = Outcome.ATTACKER_WINS
    return gone["attacker"], gone["defender"], outcome, tuple(notes)


def _retreat(
    setup: BattleSetup,
    number: int,
    rnd: RoundInput,
    outcome: Outcome,
) -> tuple[Outcome, tuple[Diagnostic, ...]]:
    """The attacker's retreat after the round, if it asked for one and may."""
    if not rnd.retreat:
        return outcome, ()
    if outcome is not Outcome.CONTINUES:
        return outcome, (
            warning(
                number,
                Rule.RETREATS,
                (f"retreat after round {number} ignored: the battle is over ({outcome.value})"),
            ),
        )
    if not setup.retreat_possible:
        rule = Rule.AMPHIBIOUS if setup.is_land and setup.amphibious else Rule.RETREATS
        why = (
            "units unloaded from a transport: a fight to the death"
            if rule is Rule.AMPHIBIOUS
            else "this attack is marked no-retreat"
        )
        return outcome, (
            error(
                number,
                rule,
                (f"retreat after round {number} is not allowed ({why}): the battle goes on"),
            ),
        )
    return Outcome.ATTACKER_RETREATS, ()


def setup_notes(setup: BattleSetup) -> tuple[Diagnostic, ...]:
    """Findings about the battle as declared, before any die."""
    notes: list[Diagnostic] = []
    if setup.is_land and setup.amphibious and not setup.attacking.only(U.INF, U.ARM):
        notes.append(
            warning(
                None,
                Rule.AMPHIBIOUS,
                (
                    'amphibious is set but no INF or ARM attacks: "A land battle is considered '
                    "'amphibious' ONLY if a transport delivers infantry or arm to the battle site\""
                ),
            )
        )
    for side, order, forces in (
        ("attacker", setup.attacker_order, setup.attacking),
        ("defender", setup.defender_order, setup.defending),
    ):
        if order is None:
            continue
        left_out = [u.value for u, _ in forces if u not in order.units]
        if left_out:
            notes.append(
                info(
                    None,
                    Rule.DEFAULT_OOL,
                    (
                        f"the {side}'s order of loss leaves out {', '.join(left_out)}: those are "
                        "lost after the listed units, in the default order"
                    ),
                )
            )
    return tuple(notes)


def resolve(setup: BattleSetup, rounds: Sequence[RoundInput]) -> BattleResult:
    """Resolve ``setup`` with the dice of ``rounds`` (in the order rolled)."""
    notes = list(setup_notes(setup))
    state = start(setup)
    played: list[RoundResult] = []
    reroll_from: tuple[int, Rule] | None = None
    owed: int | None = None
    for number, rnd in enumerate(rounds, start=1):
        span = f"round {number}" if number == len(rounds) else (f"rounds {number}-{len(rounds)}")
        if state.outcome is not Outcome.CONTINUES:
            notes.append(
                error(
                    number,
                    Rule.BATTLE_OVER,
                    (f"{span} rolled after the battle ended ({state.outcome.value}): not used"),
                )
            )
            break
        if reroll_from is not None:
            notes.append(
                error(
                    number,
                    reroll_from[1],
                    (
                        f"{span} must be re-rolled after the rolling error in round "
                        f"{reroll_from[0]}: not used"
                    ),
                )
            )
            break
        if owed is not None:
            notes.append(
                warning(
                    number,
                    Rule.PAUSE,
                    (
                        f"round {number} was rolled without the pause owed after round {owed}: the "
                        "attacking rolls stand; if following the order of loss correctly may have "
                        "changed the outcome, the defender may accept the defending rolls as is, "
                        "apply them to the corrected units, or re-roll the affected defending "
                        "rolls (and then every later roll)"
                    ),
                )
            )
        play = play_round(setup, state, number, rnd)
        state = play.state
        played.append(play.result)
        notes.extend(play.diagnostics)
        reroll_from = (number, play.reroll) if play.reroll else None
        pause = play.result.pause
        owed = number if pause is not None and not pause.answered else None
    outcome = state.outcome
    return BattleResult(
        setup=setup,
        rounds=tuple(played),
        attacker=state.attacker,
        defender=state.defender,
        outcome=outcome,
        retreat_allowed=outcome is Outcome.CONTINUES and bool(played) and setup.retreat_possible,
        captured=captures(setup, outcome, state.attacker),
        diagnostics=tuple(notes),
    )


def with_outcome(result: BattleResult, outcome: Outcome) -> BattleResult:
    """``result`` closed with ``outcome`` (a retreat forced by the next battle)."""
    return replace(result, outcome=outcome, retreat_allowed=False)
