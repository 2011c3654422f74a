"""The combat moves of a turn as the checks see them: where each battle is fought, which units
leave which origin for it, and which transports carry them.

IAAPA Precombat: "Combat moves must list the attacking units, specifying the territory of
origin for each unit." Each origin of a battle is a :class:`Sortie`; each line that puts land
units aboard transports ("UK 8 INF on UK SZ 4 TRN") is also a :class:`Lift`, whose transports
start in the zone written after "on" and unload from the last sea zone the line names.

An origin the orders make clear though it is not written right (a name fitting several
places, a missing or wrong origin: IAAPA Error Correction II, "if it is clear from the combat
orders ... then no CDE can be called") is read here, once (:mod:`.readings`), so that every
check sees the units leave the place they were read to come from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.declarations.geometry import Movement
from adjudicator.declarations.readings import Claim, OriginReading, read_origins
from adjudicator.fastrecord import quick_init
from adjudicator.notation.model import Battle, BattleKind, Origin
from adjudicator.position.model import CARGO, cargo_slots
from adjudicator.powers import Power
from adjudicator.units import Units, UnitType, tally

_CARGO = tuple(CARGO)
"""CARGO as a tuple: membership by identity, with no enum hashing (a hot test)."""


@quick_init
@dataclass(frozen=True)
class Site:
    """Where a declared battle is fought: the declared place, or the one the orders make
    clear (Section II's submarine example); ``is_sea`` for a sea battle."""

    battle: Battle
    space: str
    is_sea: bool
    relocated: bool = False
    number: int = field(init=False, repr=False, compare=False)
    """The battle's number (a field, not a property: the checks compare it again and again)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "number", self.battle.number)

    @property
    def name(self) -> str:
        """ "battle #2 (Karelia S.S.R.)": how a finding names the battle."""
        return f"battle #{self.battle.number} ({self.space})"


@quick_init
@dataclass(frozen=True)
class Sortie:
    """Units listed from one origin for one battle. ``fighting`` are those that fight there:
    in a sea battle, land units aboard transports are cargo, which never fights [SPEC p.13,16]
    but still leaves its origin. ``origin`` gives the place the units were read to come from
    when ``reading`` says how (the line as written is ``reading.written``)."""

    site: Site
    origin: Origin
    fighting: Units
    reading: OriginReading | None = None
    line: int = field(init=False, repr=False, compare=False)
    """The line of the email."""
    place: str | None = field(init=False, repr=False, compare=False)
    """The origin, as stated or as read (None if the line gives none that is clear)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "line", self.origin.line)
        object.__setattr__(self, "place", self.origin.place)


@quick_init
@dataclass(frozen=True)
class Lift:
    """The transports of one line and the land units they carry (all the line's origins).

    ``zone`` is where the transports start ("on UK SZ"); ``count`` is the TRN written (or, when
    none is written and the cargo is already at sea, the fewest that hold it: ``implied``);
    ``unload`` is the sea zone they unload from when it is known, ``options`` every zone they
    could unload from when it is not named.
    """

    site: Site
    line: int
    zone: str | None
    count: int
    cargo: Units
    path: tuple[str, ...]
    implied: bool
    unload: str | None
    options: tuple[str, ...]
    boarding: tuple[str, ...] = ()
    """Where the cargo starts (land territories, or the zone it is aboard in)."""
    inferred: bool = False
    """No zone was written for the transports; ``zone`` is the only one that could be meant."""

    @property
    def needed(self) -> int:
        """Transports needed for the cargo."""
        return cargo_slots(self.cargo)


@quick_init
@dataclass(frozen=True)
class Plan:
    """Every battle's site, sortie and lift, in the order written."""

    power: Power
    sites: tuple[Site, ...]
    sorties: tuple[Sortie, ...]
    lifts: tuple[Lift, ...]


def fighting(origin: Origin, is_sea_battle: bool, movement: Movement) -> Units:
    """The units of ``origin`` that fight in its battle (cargo at sea does not)."""
    if is_sea_battle and (
        origin.transports.counts or (origin.place is not None and movement.is_sea(origin.place))
    ):
        return tally([(u, n) for u, n in origin.units.counts if u not in _CARGO])
    return origin.units


def _lift(site: Site, origins: list[Origin], movement: Movement) -> Lift | None:
    """The lift of one line's origins, if they carry land units by sea."""
    first = origins[0]
    carried = [(u, n) for o in origins for u, n in o.units.counts if u in _CARGO]
    if not carried:
        return None
    cargo = tally(carried)
    written = first.transports.count(UnitType.TRN)
    sea_path = tuple(p for p in first.via if movement.is_sea(p))
    at_sea = first.place is not None and movement.is_sea(first.place)
    if not written and not at_sea:
        return None  # a land move (or units that need transports and name none: see reach)
    zone = sea_path[0] if written and sea_path else (first.place if at_sea else None)
    path = sea_path[1:] if written and sea_path else sea_path
    if at_sea and path and path[0] == first.place:
        path = path[1:]
    boarding = tuple(
        dict.fromkeys(
            o.place
            for o in origins
            if o.place is not None and any(u in _CARGO for u, _ in o.units.counts)
        )
    )
    inferred = False
    if zone is None:
        zone = _only_zone(boarding, written, movement)
        inferred = zone is not None
    boats = written or cargo_slots(cargo)
    unload, options = _unloading(site, zone, path, movement)
    return Lift(
        site, first.line, zone, boats, cargo, path, not written, unload, options, boarding, inferred
    )


def _only_zone(boarding: tuple[str, ...], boats: int, movement: Movement) -> str | None:
    """The one sea zone by the cargo holding ``boats`` of the attacker's transports, if only
    one does: transports written with no zone ("UK 2 INF on 1 TRN")."""
    zones = {
        z
        for place in boarding
        if not movement.is_sea(place)
        for z in movement.coast(place)
        if movement.position.units_of(z, movement.power).count(UnitType.TRN) >= boats
    }
    return zones.pop() if len(zones) == 1 else None


def _unloading(
    site: Site, zone: str | None, path: tuple[str, ...], movement: Movement
) -> tuple[str | None, tuple[str, ...]]:
    """The zone the transports unload from, and the zones they could, when not named.

    A line naming no zone after the loading zone unloads where the transports are, if that
    zone touches the battle (the rule book's "UK 8 INF on UK SZ 4 TRN" into W Europe); else
    from any zone touching the battle they can reach."""
    if site.is_sea:
        return site.space, (site.space,)
    if path:
        return path[-1], (path[-1],)
    if zone is None:
        return None, ()
    coast = movement.coast(site.space)
    if zone in coast:
        return zone, (zone,)
    reach = movement.sea_steps(zone)
    options = tuple(sorted(z for z in coast if z in reach))
    return (options[0] if len(options) == 1 else None), options


def _origins(battle: Battle) -> tuple[Origin, ...]:
    """The battle's origin lines; a battle giving only a Total line lists its attackers
    with no origin (Section II: the origin of each must be listed)."""
    if battle.origins or battle.total is None or not battle.total.attacker:
        return battle.origins
    return (Origin(battle.total.line, None, battle.total.attacker),)


def _claim(site: Site, origin: Origin, units: Units) -> Claim:
    """What ``origin`` draws for the battle at ``site``: the units that fight there
    (``units``: :func:`fighting`; the transports carrying a land battle's assault are its
    lift's)."""
    if not site.is_sea and units.count(UnitType.TRN):
        units = units.without(UnitType.TRN)
    return Claim(site.space, origin, units)


def build(sites: tuple[Site, ...], movement: Movement) -> Plan:
    """The plan of the battles at ``sites``, for ``movement``'s power, every origin read as
    the orders make it clear."""
    written = [_origins(site.battle) for site in sites]
    fights: list[Units] = []
    """The units of each written origin that fight: its sortie's, unless it is read anew."""
    claims: list[Claim] = []
    for site, listed in zip(sites, written, strict=True):
        for origin in listed:
            units = fighting(origin, site.is_sea, movement)
            fights.append(units)
            claims.append(_claim(site, origin, units))
    readings = read_origins(claims, movement)
    sorties: list[Sortie] = []
    lifts: list[Lift] = []
    k = 0
    for site, as_written in zip(sites, written, strict=True):
        by_line: dict[int, list[Origin]] = {}
        for as_is in as_written:
            for origin, reading in readings[k]:
                units = fights[k] if origin is as_is else fighting(origin, site.is_sea, movement)
                sorties.append(Sortie(site, origin, units, reading))
                by_line.setdefault(origin.line, []).append(origin)
            k += 1
        if site.battle.kind is not BattleKind.RAID:
            for origins in by_line.values():
                lift = _lift(site, origins, movement)
                if lift is not None:
                    lifts.append(lift)
    return Plan(movement.power, sites, tuple(sorties), tuple(lifts))
