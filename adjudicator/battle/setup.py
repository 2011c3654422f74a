"""What a battle is (forces, terrain, orders of loss, cargo, technologies) and what each round
rolled: the engine's input, independent of any file format.

Validation here is about forces no battle can have (IAAPA and the Classic unit chart); the
fit of the dice to the forces is the engine's business and is reported, not raised.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from adjudicator.battle.errors import ImpossibleForces
from adjudicator.units import (
    NEVER_CASUALTIES,
    Battlefield,
    OrderOfLoss,
    Side,
    Technology,
    Units,
    UnitStats,
    UnitType,
    default_order_of_loss,
    unit_profile,
)

U = UnitType
LAND_FIGHTERS = frozenset({U.INF, U.ARM, U.FTR, U.BMB})
"""Units that fight in a land battle (attacking or defending)."""
SEA_FIGHTERS = frozenset({U.TRN, U.SUB, U.AC, U.BB, U.FTR, U.BMB})
"""Units that fight in a sea battle (a defending bomber cannot be at sea, see below)."""

EMPTY_DICE: Mapping[UnitType, tuple[int, ...]] = MappingProxyType({})


@dataclass(frozen=True)
class BattleSetup:
    """One declared battle: "Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA".

    ``attacker_order``/``defender_order`` are the players' special orders of loss, ``None``
    for the Association default ("If a defender does not send in any special orders of loss
    prior to the attacker rolling the battle then the Association defaults will be used").
    In an amphibious land battle the attacker's BB are the battleships giving support shots:
    they never fight in the land battle and cannot be hit (facts sheet section 5).
    ``transport_cargo`` counts land units aboard the *defender's* transports and
    ``carrier_fighters`` the defender's fighters aboard its carriers (``None``: every
    defending fighter at sea is aboard, as far as two per carrier allows); they decide the
    pause for "an AC loaded with aircraft" and "loaded TRNs". ``no_retreat`` marks an attack
    whose units cannot retreat for a reason outside the battle (fighters that spent their
    whole move, IAAPA Fighters): it also triggers the default order's air-only note.
    """

    battlefield: Battlefield
    attacker: Units
    defender: Units
    amphibious: bool = False
    attacker_order: OrderOfLoss | None = None
    defender_order: OrderOfLoss | None = None
    transport_cargo: int = 0
    carrier_fighters: int | None = None
    attacker_technologies: frozenset[Technology] = frozenset()
    defender_technologies: frozenset[Technology] = frozenset()
    no_retreat: bool = False

    def __post_init__(self) -> None:
        check_forces(self)

    @property
    def is_land(self) -> bool:
        """True for a battle in a land territory."""
        return self.battlefield is Battlefield.LAND

    @property
    def bombarding(self) -> int:
        """Battleships giving support shots: an amphibious land battle's attacking BB."""
        return self.attacker.count(U.BB) if self.is_land and self.amphibious else 0

    @property
    def attacking(self) -> Units:
        """The attacking units that fight in the battle (support battleships excluded)."""
        return self.attacker.without(U.BB) if self.is_land else self.attacker

    @property
    def defending(self) -> Units:
        """The defending units that can be casualties (AA guns and complexes excluded)."""
        return self.defender.combatants()

    @property
    def retreat_possible(self) -> bool:
        """Whether the attacker may retreat at all after a round.

        IAAPA Amphibious Assaults: "If units are unloaded from a transport then the attacker
        may not retreat any ground units. It is a fight to the death"; and planes may not
        retreat either (a Gentlemen's Agreement "allowing fighters to retreat from an
        amphibious assault" is not allowed).
        """
        return not (self.no_retreat or (self.is_land and self.amphibious))

    def order(self, side: Side, *, attackers_only_air: bool = False) -> OrderOfLoss:
        """The order of loss in force for ``side``: its special order, else the default.

        The default's note ("In a no retreat situation involving only attacking air units,
        defending subs are lost before other defending units") applies when the attackers
        are all aircraft and cannot retreat.
        """
        declared = self.attacker_order if side is Side.ATTACKER else self.defender_order
        if declared is not None:
            return declared
        return default_order_of_loss(
            side,
            self.battlefield,
            attackers_only_air_no_retreat=attackers_only_air and not self.retreat_possible,
        )

    def profile(self, side: Side, unit: UnitType) -> UnitStats:
        """The unit's numbers for ``side``, its technologies applied."""
        techs = (
            self.attacker_technologies if side is Side.ATTACKER else (self.defender_technologies)
        )
        return _profile(unit, techs)

    def hits_on(self, side: Side, unit: UnitType) -> int:
        """The number the unit's dice hit at or under on ``side`` (0: it throws none)."""
        stats = self.profile(side, unit)
        return (stats.attack if side is Side.ATTACKER else stats.defence) or 0

    def dice_each(self, side: Side, unit: UnitType) -> int:
        """Dice the unit throws on ``side``: an attacking heavy bomber more than one."""
        return self.profile(side, unit).attack_dice if side is Side.ATTACKER else 1

    def initial_carrier_fighters(self) -> int:
        """Defending fighters aboard carriers at the start (sea battles only)."""
        if self.is_land:
            return 0
        room = 2 * self.defender.count(U.AC)
        if self.carrier_fighters is None:
            return min(self.defender.count(U.FTR), room)
        return self.carrier_fighters


@functools.lru_cache(maxsize=256)
def _profile(unit: UnitType, techs: frozenset[Technology]) -> UnitStats:
    return unit_profile(unit, techs)


def check_forces(setup: BattleSetup) -> None:
    """Raise :class:`ImpossibleForces` for forces no battle of this kind can have."""
    land = setup.is_land
    allowed_attack = set(LAND_FIGHTERS) if land else set(SEA_FIGHTERS)
    if land and setup.amphibious:
        allowed_attack.add(U.BB)
    allowed_defence = (LAND_FIGHTERS | NEVER_CASUALTIES) if land else SEA_FIGHTERS - {U.BMB}
    where = "a land battle" if land else "a sea battle"
    for side, forces, allowed in (
        ("attacker", setup.attacker, allowed_attack),
        ("defender", setup.defender, allowed_defence),
    ):
        for unit, _ in forces:
            if unit in allowed:
                continue
            if unit is U.BB and land and side == "attacker":
                problem = (
                    "battleships support a land battle only in an amphibious assault "
                    "(support shots): set amphibious to 1"
                )
            else:
                verb = "attack" if side == "attacker" else "defend"
                problem = f"a {unit.stats.name} cannot {verb} in {where}"
            raise ImpossibleForces(f"{side}.{unit.value}", problem)
    if not setup.attacking:
        raise ImpossibleForces("attacker", "a battle needs at least one attacking unit")
    _check_cargo(setup)
    for side, order in (("attacker", setup.attacker_order), ("defender", setup.defender_order)):
        if order is None:
            continue
        bad = [u for u in order.units if u in NEVER_CASUALTIES]
        if bad:
            raise ImpossibleForces(
                f"order_of_loss.{side}", f"{bad[0].value} is never a battle casualty"
            )
        if order.battlefield is not setup.battlefield or order.side.value != side:
            raise ImpossibleForces(
                f"order_of_loss.{side}",
                f"the order is for the {order.side.value} in a {order.battlefield.value} "
                f"battle, not the {side} in this one",
            )


def _check_cargo(setup: BattleSetup) -> None:
    if setup.transport_cargo < 0:
        raise ImpossibleForces("loaded.TRN", "cannot be negative")
    room = 2 * setup.defender.count(U.TRN)
    if setup.transport_cargo > room:
        raise ImpossibleForces(
            "loaded.TRN",
            f"{setup.transport_cargo} units cannot be aboard "
            f"{setup.defender.count(U.TRN)} defending TRN (2 INF or 1 ARM each)",
        )
    if setup.carrier_fighters is not None:
        fighters = setup.defender.count(U.FTR)
        seats = 2 * setup.defender.count(U.AC)
        if setup.carrier_fighters < 0:
            raise ImpossibleForces("loaded.AC", "cannot be negative")
        if setup.carrier_fighters > min(fighters, seats):
            raise ImpossibleForces(
                "loaded.AC",
                f"{setup.carrier_fighters} fighters cannot be aboard: the "
                f"defender has {fighters} FTR and {setup.defender.count(U.AC)} AC (2 each)",
            )
    if setup.is_land and (setup.transport_cargo or setup.carrier_fighters):
        raise ImpossibleForces("loaded", "cargo and carriers belong to sea battles")


@dataclass(frozen=True)
class CasualtyChoice:
    """Casualties a player named for one round, in place of the order of loss.

    The defender's answer to a pause ("ask the defender to identify the casualties prior to
    rolling the next round"): ``first_strike`` are the defender's losses to the attacking
    subs' first strike, ``defender`` its other losses of the round, ``attacker`` the
    attacker's own. ``None`` leaves that part to the order of loss.
    """

    first_strike: Units | None = None
    defender: Units | None = None
    attacker: Units | None = None

    @property
    def defender_named(self) -> bool:
        """Whether the defender named any casualties for the round."""
        return self.first_strike is not None or self.defender is not None


LOW_LUCK_FIRES = ("aa", "bombard", "first-strike", "subs", "units")
"""The volleys of a Low Luck round: the AA gun's shots, the support shots, the attacking
subs rolled first, and each side's subs and other units in the main roll."""


@dataclass(frozen=True)
class LowLuckShot:
    """One Low Luck volley as recorded (TripleA rule book, "Low Luck vs. Dice": "all of the
    attacker's units have their attack powers added together. The total is then divided by
    the dice sides (6), and if there is any remainder it is rolled for"): whose, which fire
    (one of :data:`LOW_LUCK_FIRES`), the power added up, and the hits it scored."""

    side: Side
    fire: str
    power: int
    hits: int


@dataclass(frozen=True)
class RoundInput:
    """The dice of one battle round, in the order thrown, and what the players decided.

    ``aa`` (before round 1: one die per attacking aircraft, in any order; each 1 removes an
    aircraft of the attacker's choosing, by his order of loss),
    ``bombard`` (round 1 of an amphibious assault: one die per support battleship), ``subs``
    (the attacking subs rolled first, when the attacker chooses to) and the main dice per
    unit type for each side. ``withdraw_attacker``/``withdraw_defender`` count submarines
    withdrawing after the round; ``retreat`` is the attacker's retreat after it.
    ``low_luck`` holds the volleys of a round thrown by Low Luck, in place of any dice.
    """

    aa: tuple[int, ...] = ()
    bombard: tuple[int, ...] = ()
    subs: tuple[int, ...] = ()
    attacker: Mapping[UnitType, tuple[int, ...]] = field(default_factory=lambda: EMPTY_DICE)
    defender: Mapping[UnitType, tuple[int, ...]] = field(default_factory=lambda: EMPTY_DICE)
    chosen: CasualtyChoice = field(default_factory=CasualtyChoice)
    withdraw_attacker: int = 0
    withdraw_defender: int = 0
    retreat: bool = False
    low_luck: tuple[LowLuckShot, ...] | None = None
