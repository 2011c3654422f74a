"""Who is lost to a round's hits: the forced number, the order of loss, and what can survive.

Hits come in two kinds. An *unrestricted* hit may take any unit that can be a casualty; a
*restricted* hit is a submarine's, which may only take a unit that is not an aircraft ("Subs
hit only ships", facts sheet section 1). The owner chooses the casualties, but may not waste a
hit while a unit it could take remains: the number lost is the largest any allocation reaches.
With two kinds of hit that number, and every question below, has a closed form.

AA fire is one more kind of hit, on aircraft only: :func:`aa_casualties` is the one place
that says which aircraft it removes, wherever AA dice are read (a battle round, a bombing
raid, the mail of a roll).
"""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.units import (
    CHART_ORDER,
    Battlefield,
    OrderOfLoss,
    Side,
    Units,
    UnitType,
    default_order_of_loss,
)


def forced_losses(pool: Units, restricted: int, unrestricted: int) -> int:
    """How many of ``pool`` the hits must take: the most any valid allocation removes.

    Restricted hits can only land on the pool's non-aircraft, unrestricted ones anywhere, so
    the maximum is ``min(all units, unrestricted + min(restricted, non-aircraft))``.
    """
    return min(pool.total, unrestricted + min(restricted, pool.surface))


def allocation_fits(chosen: Units, pool: Units, restricted: int, unrestricted: int) -> bool:
    """Whether ``chosen`` is a lawful set of casualties for these hits on ``pool``.

    It must come from the pool, be exactly the forced number, and hold no more aircraft than
    there are unrestricted hits (only those may take an aircraft).
    """
    return (
        pool.contains(chosen)
        and chosen.total == forced_losses(pool, restricted, unrestricted)
        and chosen.aircraft <= unrestricted
    )


def full_order(order: Sequence[UnitType], side: Side, field: Battlefield) -> tuple[UnitType, ...]:
    """``order`` followed by every other unit that can be lost, in the default order.

    A declared order of loss that leaves a unit type out cannot mean that unit is never lost
    (a hit must be taken while a unit remains): the omitted types follow the listed ones, in
    the Association default order, then in chart order.
    """
    rest = [u for u in default_order_of_loss(side, field).units if u not in order]
    listed = [*order, *rest]
    others = sorted((u for u in UnitType if u not in listed), key=CHART_ORDER.__getitem__)
    return (*listed, *others)


def casualties_by_order(
    pool: Units,
    order: OrderOfLoss | Sequence[UnitType],
    restricted: int,
    unrestricted: int,
) -> Units:
    """The forced number of casualties, taken as early in ``order`` as the hits allow.

    Walking down the order, every unit is taken until the forced number is reached, except
    that no more aircraft are taken than there are unrestricted hits. This gives the set of
    casualties that is earliest in the order among all lawful ones (the only limit a lawful
    set has beyond its size is that aircraft cap). Units missing from ``order`` are taken
    last (see :func:`full_order`).
    """
    units = order.units if isinstance(order, OrderOfLoss) else tuple(order)
    if isinstance(order, OrderOfLoss):
        units = full_order(units, order.side, order.battlefield)
    need = forced_losses(pool, restricted, unrestricted)
    air_room = unrestricted
    lost: list[tuple[UnitType, int]] = []
    for unit in units:
        if need == 0:
            break
        take = min(pool.count(unit), need)
        if unit.stats.is_air:
            take = min(take, air_room)
            air_room -= take
        if take:
            lost.append((unit, take))
            need -= take
    return Units.of(lost)


def can_survive(pool: Units, unit: UnitType, restricted: int, unrestricted: int) -> bool:
    """Whether the owner could lose the forced number and still keep one ``unit``.

    True exactly when the pool without one ``unit`` can still absorb the forced number: then
    some lawful allocation spares it, whatever order of loss is standing.
    """
    if pool.count(unit) == 0:
        return False
    spared = pool.minus(Units.of({unit: 1}))
    return forced_losses(spared, restricted, unrestricted) == forced_losses(
        pool, restricted, unrestricted
    )


AIRCRAFT = (UnitType.FTR, UnitType.BMB)
"""The units an AA gun fires at."""


def aa_casualties(
    attackers: Units,
    hits: int,
    order: OrderOfLoss | Sequence[UnitType],
) -> Units:
    """The aircraft ``hits`` AA hits remove from ``attackers``: the attacker's choice, made
    by his order of loss (the IAAPA default "INF, ARM, FTR, BMB" loses fighters before
    bombers).

    Classic combat sequence (facts sheet section 1; ``classic.xml`` "Choose AA Casualties":
    "You get to pick your casualties for AA gun fire"): "AA fires, before round 1 only: 1
    die per attacking plane, a 1 hits, the attacker picks which plane dies". Which aircraft
    a die was thrown for does not matter, nor where the 1 lies among the dice: only Error
    Correction III's forgotten gun removes aircraft "from right to left" by die position,
    and that remedy is worded where it is reported.
    """
    return casualties_by_order(attackers.only(*AIRCRAFT), order, 0, hits)
