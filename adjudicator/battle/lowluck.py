"""The shots of a round thrown by Low Luck: each volley's recorded power checked against the
units present, and its recorded hits taken.

TripleA rule book, "Low Luck vs. Dice": "all of the attacker's units have their attack powers
added together. The total is then divided by the dice sides (6), and if there is any
remainder it is rolled for. The defender does the same with the defense powers of all their
units." A unit's power is what its dice would hit on (at most 6), once per die it throws.

The volleys are split as the dice server throws them (:mod:`adjudicator.rolls.lowluck`) and
as the exact calculator counts them (:mod:`adjudicator.odds`): the AA gun's shots (power 1
each: "a 1 hits"), the support shots, the attacking subs rolled first, and each side's subs
(their hits take no aircraft) and other units. These functions answer what
:mod:`adjudicator.battle.firing` answers for dice, so the engine plays both alike.

A volley whose power is not that of the units present was thrown for the wrong units: more
power is IAAPA Error Correction III's Too many units, less its Too few units, and either way
the round is re-rolled ("re-roll the remainder of the battle"). A volley's hits are its sure
hits, plus one if its remainder die came up at or under the remainder: any other number
cannot have come from the dice server.
"""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.battle.casualties import aa_casualties
from adjudicator.battle.dice import FACES, next_round
from adjudicator.battle.findings import error
from adjudicator.battle.firing import SUPPORT_SHOT_HITS_ON, AaFire, Volley
from adjudicator.battle.setup import BattleSetup, LowLuckShot
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.units import Side, Units, UnitType

U = UnitType
_SIDES = len(FACES)


def power(setup: BattleSetup, side: Side, units: Units) -> int:
    """The Low Luck power of ``units`` fighting on ``side``: each die they throw counts the
    number it hits on, at most 6 (an attacking heavy bomber throws more than one die)."""
    total = 0
    for unit, count in units:
        value = setup.hits_on(side, unit)
        total += count * setup.dice_each(side, unit) * max(0, min(value, _SIDES))
    return total


def split(power: int) -> tuple[int, int]:
    """A Low Luck volley's sure hits and remainder: its power divided by the dice sides ("The
    total is then divided by the dice sides (6), and if there is any remainder it is rolled
    for")."""
    return divmod(max(0, power), _SIDES)


def shot(shots: Sequence[LowLuckShot], side: Side, fire: str) -> LowLuckShot | None:
    """The round's volley of ``fire`` for ``side``, if one was thrown."""
    return next((s for s in shots if s.side is side and s.fire == fire), None)


def _volley(
    number: int,
    what: str,
    thrown: LowLuckShot | None,
    expected: int,
    *,
    restricted: bool = False,
) -> Volley:
    """The hits of one volley, and what is wrong with it when its power is not ``expected``."""
    if thrown is None:
        if not expected:
            return Volley()
        return Volley(
            diagnostics=(
                error(
                    number,
                    Rule.TOO_FEW_UNITS,
                    f"no Low Luck volley for the {what} (power {expected}): roll it, then "
                    f"re-roll the remainder of the battle; {next_round(number)}",
                ),
            ),
            reroll=True,
        )
    notes: list[Diagnostic] = []
    reroll = False
    if thrown.power != expected:
        rule = Rule.TOO_MANY_UNITS if thrown.power > expected else Rule.TOO_FEW_UNITS
        notes.append(
            error(
                number,
                rule,
                f"Low Luck {what}: power {thrown.power} thrown, but the units present have "
                f"power {expected}: the round is re-rolled; {next_round(number)}",
            )
        )
        reroll = True
    sure, remainder = split(thrown.power)
    hits = thrown.hits
    if hits not in (sure, sure + (remainder > 0)):
        notes.append(
            error(
                number,
                Rule.LOW_LUCK,
                f"Low Luck {what}: {hits} hits from power {thrown.power} (sure hits {sure}"
                f"{f', and one more on a die at {remainder} or less' if remainder else ''}): "
                "impossible, not used",
            )
        )
        hits, reroll = 0, True
    if restricted:
        return Volley(restricted=hits, diagnostics=tuple(notes), reroll=reroll)
    return Volley(unrestricted=hits, diagnostics=tuple(notes), reroll=reroll)


def low_luck_aa(
    number: int, setup: BattleSetup, attackers: Units, shots: Sequence[LowLuckShot]
) -> AaFire:
    """The AA gun's shots before round 1: power 1 for each attacking aircraft; each hit
    removes an aircraft by the attacker's order of loss."""
    gun = setup.is_land and setup.defender.count(U.AA) > 0 and number == 1
    expected = attackers.aircraft if gun else 0
    volley = _volley(number, "AA gun", shot(shots, Side.DEFENDER, "aa"), expected)
    lost = aa_casualties(attackers, min(volley.hits, expected), setup.order(Side.ATTACKER))
    return AaFire(lost, volley.diagnostics, volley.reroll)


def low_luck_support(number: int, setup: BattleSetup, shots: Sequence[LowLuckShot]) -> Volley:
    """The battleships' support shots: round 1 of an amphibious assault, power 4 each."""
    expected = setup.bombarding * SUPPORT_SHOT_HITS_ON if number == 1 else 0
    return _volley(number, "support shots", shot(shots, Side.ATTACKER, "bombard"), expected)


def low_luck_first_strike(
    number: int, setup: BattleSetup, attackers: Units, shots: Sequence[LowLuckShot]
) -> Volley:
    """The attacking subs rolled first: their power, hits that take no aircraft."""
    thrown = shot(shots, Side.ATTACKER, "first-strike")
    if thrown is None:
        return Volley()
    subs = attackers.only(U.SUB) if not setup.is_land else Units()
    expected = power(setup, Side.ATTACKER, subs)
    return _volley(number, "subs rolled first", thrown, expected, restricted=True)


def low_luck_main(
    number: int,
    setup: BattleSetup,
    side: Side,
    forces: Units,
    shots: Sequence[LowLuckShot],
    *,
    skip_subs: bool = False,
    subs_optional: bool = False,
) -> Volley:
    """One side's main roll: its subs' power and its other units' power, a volley each.

    ``skip_subs``: the subs struck first. ``subs_optional``: the subs have nothing they could
    hit (only aircraft face them), so they may fire or not."""
    thrown_subs = shot(shots, side, "subs")
    skip_subs = skip_subs or (subs_optional and thrown_subs is None)
    subs = Units() if skip_subs else forces.only(U.SUB)
    others = forces.without(U.SUB)
    name = side.value
    sub_volley = _volley(
        number, f"{name} subs", thrown_subs, power(setup, side, subs), restricted=True
    )
    unit_volley = _volley(
        number, f"{name} units", shot(shots, side, "units"), power(setup, side, others)
    )
    return Volley(
        unit_volley.unrestricted,
        sub_volley.restricted,
        sub_volley.diagnostics + unit_volley.diagnostics,
        sub_volley.reroll or unit_volley.reroll,
    )


__all__ = [
    "low_luck_aa",
    "low_luck_first_strike",
    "low_luck_main",
    "low_luck_support",
    "power",
    "shot",
    "split",
]
