"""A position: who holds what, where, with how much money, between two turns.

A :class:`Position` is the board between turns: every power's units in every territory and sea
zone, the owner of every land territory, each power's IPCs in hand (the bank) and its
technologies, the round and the power to move. It is immutable; the ``with_*`` methods return a
new position. Places are the board's canonical names (classic.xml's); land units in a sea zone
are cargo aboard transports, fighters in a sea zone are aboard carriers.

The territory and IPC counts are those a player declares at the end of a turn ("UK 30/$32",
IAAPA Declaration and Battle Resolution Procedures, Post Combat Orders): the land territories a
power controls and their income value. Income is collected only while the power holds its
capital (IAAPA Rules Clarifications, Income Collection and Spending: "Any country that ends its
turn with possession of its capital collects income").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar

from adjudicator.boards import Board, BoardError
from adjudicator.fastrecord import quick_init
from adjudicator.powers import TURN_ORDER, Alliance, Power
from adjudicator.units import NO_UNITS, Technology, Units, UnitType


class PositionError(ValueError):
    """A position that cannot be (a ship on land, an owned sea zone, an unknown place ...)."""


PowerUnits = Mapping[Power, Units]
"""The units each power has in one space (powers with none are absent)."""
_NOBODY: PowerUnits = MappingProxyType({})
"""The units in a space where nobody has any."""

K = TypeVar("K")
V = TypeVar("V")


def copied(mapping: Mapping[K, V]) -> dict[K, V]:
    """``dict(mapping)``, in the same order; a dict or a mapping proxy is copied whole, without
    hashing every key again (a power or a unit type hashes in Python: the checks copy such
    mappings thousands of times)."""
    if isinstance(mapping, (dict, MappingProxyType)):
        return mapping.copy()
    return dict(mapping)


def _frozen_units(units: Mapping[str, Mapping[Power, Units]]) -> Mapping[str, PowerUnits]:
    cleaned: dict[str, PowerUnits] = {}
    for space in sorted(units):
        given = units[space]
        per_power = {p: u for p in TURN_ORDER if (u := given.get(p)) is not None and u.counts}
        if per_power:
            cleaned[space] = MappingProxyType(per_power)
    return MappingProxyType(cleaned)


@quick_init
@dataclass(frozen=True)
class Position:
    """Units, ownership, banks and technologies between two turns; build with :meth:`of`.

    ``owners`` maps each owned land territory to its owner (an unowned neutral is absent);
    ``units`` maps a space to the units each power has there; ``bank`` is each power's IPCs in
    hand; ``to_move`` is the power whose turn comes next, in ``round``.
    """

    board: Board
    round: int
    to_move: Power
    owners: Mapping[str, Power]
    units: Mapping[str, PowerUnits]
    bank: Mapping[Power, int]
    technologies: Mapping[Power, frozenset[Technology]]
    _derived: dict[object, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Facts derived from this (immutable) position, computed once: :meth:`memo`."""

    @classmethod
    def of(
        cls,
        board: Board,
        *,
        round: int = 1,
        to_move: Power = Power.USSR,
        owners: Mapping[str, Power],
        units: Mapping[str, Mapping[Power, Units]],
        bank: Mapping[Power, int] | None = None,
        technologies: Mapping[Power, frozenset[Technology]] | None = None,
        checked: bool = True,
    ) -> Position:
        """A position; PositionError if it breaks the board (see :func:`check`), unless
        ``checked`` is False (a position as a player's orders make it, right or wrong)."""
        position = cls(
            board=board,
            round=round,
            to_move=to_move,
            owners=MappingProxyType(dict(sorted(owners.items()))),
            units=_frozen_units(units),
            bank=MappingProxyType({p: (bank or {}).get(p, 0) for p in TURN_ORDER}),
            technologies=MappingProxyType(
                {p: frozenset((technologies or {}).get(p, ())) for p in TURN_ORDER}
            ),
        )
        if checked:
            check(position)
        return position

    # --- units ---------------------------------------------------------------------------

    def units_at(self, space: str) -> PowerUnits:
        """The units every power has in ``space``."""
        return self.units.get(space, _NOBODY)

    def units_of(self, space: str, power: Power) -> Units:
        """The units ``power`` has in ``space``."""
        return self.units.get(space, _NOBODY).get(power, NO_UNITS)

    def side_units(self, space: str, alliance: Alliance) -> Units:
        """All units of ``alliance``'s powers in ``space``, added up."""
        total = NO_UNITS
        for power, units in self.units_at(space).items():
            if power.alliance is alliance:
                total = total + units
        return total

    def enemy_units(self, space: str, power: Power) -> Units:
        """The units in ``space`` of the powers at war with ``power``."""
        if space not in self.occupied(_OTHER[power.alliance]):
            return NO_UNITS
        cache = self._derived
        key = ("enemy", space, power.alliance)
        found = cache.get(key)
        if found is None:
            found = cache[key] = self.side_units(space, _OTHER[power.alliance])
        return found

    def has_enemy(self, space: str, power: Power) -> bool:
        """Whether any unit of a power at war with ``power`` is in ``space``."""
        return space in self.occupied(_OTHER[power.alliance])

    def occupied(self, alliance: Alliance) -> frozenset[str]:
        """The spaces holding any unit of ``alliance``'s powers."""
        cache = self._derived
        key = ("occupied", alliance)
        found = cache.get(key)
        if found is None:
            found = cache[key] = frozenset(
                space
                for space, per_power in self.units.items()
                if any(p.alliance is alliance for p in per_power)
            )
        return found

    def holdings(self, power: Power) -> Mapping[str, Units]:
        """Every space where ``power`` has units, with those units, by name."""
        cache = self._derived
        key = ("holdings", power)
        found = cache.get(key)
        if found is None:
            found = cache[key] = MappingProxyType(
                {
                    space: per_power[power]
                    for space, per_power in self.units.items()
                    if power in per_power
                }
            )
        return found

    def unit_counts(self, power: Power) -> Mapping[tuple[str, UnitType], int]:
        """How many units of each type ``power`` has in each space, by (space, type): the
        checks ask "how many INF in Karelia?" of every origin they weigh."""
        cache = self._derived
        key = ("unit counts", power)
        found = cache.get(key)
        if found is None:
            found = cache[key] = MappingProxyType(
                {
                    (space, unit): count
                    for space, units in self.holdings(power).items()
                    for unit, count in units.counts
                }
            )
        return found

    def spaces_of(self, power: Power) -> Iterator[tuple[str, Units]]:
        """Every space where ``power`` has units, with those units, by name."""
        return iter(self.holdings(power).items())

    def places_with(self, power: Power, unit: UnitType) -> tuple[tuple[str, int], ...]:
        """Every space where ``power`` has ``unit``, with how many, by name: where a unit
        written with no clear origin can have come from."""
        cache = self._derived
        key = ("places with", power, unit)
        found = cache.get(key)
        if found is None:
            found = cache[key] = tuple(
                (space, units.count(unit))
                for space, units in self.holdings(power).items()
                if units.count(unit)
            )
        return found

    # --- ownership and money ---------------------------------------------------------------

    def owner(self, territory: str) -> Power | None:
        """The power controlling land ``territory`` (None: a neutral, or a sea zone)."""
        return self.owners.get(territory)

    def is_friendly(self, territory: str, power: Power) -> bool:
        """Whether ``territory`` is land held by ``power`` or one of its allies."""
        owner = self.owners.get(territory)
        return owner is not None and owner.alliance is power.alliance

    def friendly_land(self, alliance: Alliance) -> frozenset[str]:
        """The land territories ``alliance``'s powers hold (where their planes may land)."""
        cache = self._derived
        key = ("friendly", alliance)
        found = cache.get(key)
        if found is None:
            found = cache[key] = frozenset(
                t for t, p in self.owners.items() if p.alliance is alliance
            )
        return found

    def memo(self) -> dict[object, Any]:
        """Facts derived from this (immutable) position, computed once."""
        return self._derived

    def territories_of(self, power: Power) -> tuple[str, ...]:
        """The land territories ``power`` controls, by name."""
        return tuple(t for t, p in self.owners.items() if p is power)

    def _counts(self) -> dict[Power, tuple[int, int]]:
        """Each owning power's territories and their income value, counted in one pass."""
        cache = self._derived
        found = cache.get("counts")
        if found is None:
            territories = self.board.territories
            tallied: dict[Power, list[int]] = {}
            for t, p in self.owners.items():
                pair = tallied.get(p)
                if pair is None:
                    pair = tallied[p] = [0, 0]
                pair[0] += 1
                pair[1] += territories[t].ipc
            found = cache["counts"] = {p: (n, ipc) for p, (n, ipc) in tallied.items()}
        return found

    def territory_count(self, power: Power) -> int:
        """How many land territories ``power`` controls (the "30" of "UK 30/$32")."""
        return self._counts().get(power, (0, 0))[0]

    def ipc_count(self, power: Power) -> int:
        """The income value of ``power``'s territories (the "$32" of "UK 30/$32")."""
        return self._counts().get(power, (0, 0))[1]

    def capital(self, power: Power) -> str:
        """The name of ``power``'s capital territory."""
        return _capital(self.board, power)

    def holds_capital(self, power: Power) -> bool:
        """Whether ``power`` controls its own capital."""
        return self.owners.get(self.capital(power)) is power

    def income(self, power: Power) -> int:
        """What ``power`` collects at the end of its turn: its IPC count, if it holds its
        capital, else nothing (IAAPA Income Collection and Spending)."""
        return self.ipc_count(power) if self.holds_capital(power) else 0

    def technologies_of(self, power: Power) -> frozenset[Technology]:
        """The technologies ``power`` has developed."""
        return self.technologies.get(power, frozenset())

    # --- changes -----------------------------------------------------------------------------

    def _same_owners(self, changed: Position) -> Position:
        """``changed`` (a copy with the same owners) knowing the counts this one has found."""
        counts = self._derived.get("counts")
        if counts is not None and changed.owners is self.owners and changed.board is self.board:
            changed._derived["counts"] = counts
        return changed

    def _copy(
        self,
        *,
        owners: Mapping[str, Power] | None = None,
        units: Mapping[str, PowerUnits] | None = None,
        bank: Mapping[Power, int] | None = None,
        technologies: Mapping[Power, frozenset[Technology]] | None = None,
    ) -> Position:
        """A copy with the mappings given replaced (``dataclasses.replace``, without going
        over every field by name)."""
        return Position(
            self.board,
            self.round,
            self.to_move,
            self.owners if owners is None else owners,
            self.units if units is None else units,
            self.bank if bank is None else bank,
            self.technologies if technologies is None else technologies,
        )

    def with_funds(
        self, bank: Mapping[Power, int], technologies: Mapping[Power, frozenset[Technology]]
    ) -> Position:
        """A copy with these banks and technologies (not re-checked)."""
        return self._same_owners(self._copy(bank=bank, technologies=technologies))

    def with_units(self, space: str, power: Power, units: Units) -> Position:
        """A copy in which ``power`` has exactly ``units`` in ``space`` (not re-checked)."""
        per_power = copied(self.units_at(space))
        per_power[power] = units
        changed = copied(self.units)
        changed[space] = per_power
        return self._same_owners(self._copy(units=_frozen_units(changed)))

    def with_spaces(self, changes: Mapping[str, Mapping[Power, Units]]) -> Position:
        """A copy in which each space of ``changes`` holds exactly the units given there
        (not re-checked; see :func:`check`). Spaces stay in name order: a copy keeps the order,
        so only a space that had no units before makes a new sort."""
        units = copied(self.units)
        frozen = _frozen_units(changes)
        added = False
        for space in changes:
            if space in frozen:
                added = added or space not in units
                units[space] = frozen[space]
            else:
                units.pop(space, None)
        if added:
            units = dict(sorted(units.items()))
        return self._same_owners(self._copy(units=MappingProxyType(units)))

    def with_owner(self, territory: str, power: Power | None) -> Position:
        """A copy in which ``power`` (None: nobody) controls ``territory``. Territories stay
        in name order (only one nobody held makes a new sort), and the counts this position
        has found are carried over, less and plus the one territory."""
        owners = copied(self.owners)
        before = owners.get(territory)
        if power is None:
            owners.pop(territory, None)
        else:
            owners[territory] = power
        if before is None and power is not None:
            owners = dict(sorted(owners.items()))
        changed = self._copy(owners=MappingProxyType(owners))
        counts = self._derived.get("counts")
        if counts is not None and territory in self.board.territories:
            ipc = self.board.territories[territory].ipc
            moved = dict(counts)
            if before is not None:
                held, value = moved[before]
                moved[before] = (held - 1, value - ipc)
            if power is not None:
                held, value = moved.get(power, (0, 0))
                moved[power] = (held + 1, value + ipc)
            changed._derived["counts"] = moved
        return changed

    def with_bank(self, power: Power, ipcs: int) -> Position:
        """A copy in which ``power`` holds ``ipcs`` IPCs."""
        bank = copied(self.bank)
        bank[power] = ipcs
        return self._same_owners(self._copy(bank=MappingProxyType(bank)))

    def next_turn(self) -> Position:
        """A copy with the next power to move (and the next round after the USA's turn)."""
        index = TURN_ORDER.index(self.to_move)
        after = TURN_ORDER[(index + 1) % len(TURN_ORDER)]
        next_round = self.round + (1 if after is TURN_ORDER[0] else 0)
        changed = Position(
            self.board, next_round, after, self.owners, self.units, self.bank, self.technologies
        )
        return self._same_owners(changed)


_OTHER = {Alliance.AXIS: Alliance.ALLIES, Alliance.ALLIES: Alliance.AXIS}
"""The alliance at war with each."""


_CAPITALS: dict[int, tuple[Board, dict[Power, str]]] = {}
"""Each board's capitals by power, found once (a board never changes; keyed by identity, the
board kept so that its id cannot be reused)."""


def _capital(board: Board, power: Power) -> str:
    kept = _CAPITALS.get(id(board))
    if kept is None or kept[0] is not board:
        kept = _CAPITALS[id(board)] = (board, {})
    found = kept[1].get(power)
    if found is None:
        try:
            found = kept[1][power] = board.capital_of(power.triplea_name).name
        except BoardError:
            raise PositionError(f"{board.name} has no capital for {power.name}") from None
    return found


CARGO = frozenset({UnitType.INF, UnitType.ARM, UnitType.AA})
"""Land units a transport can carry (IC never moves)."""


def cargo_slots(units: Units) -> int:
    """Transports needed for land ``units``: 1 ARM or 1 AA fills a transport, INF go two to
    a transport, and no transport mixes an INF with an ARM ([W12]; IAAPA's own example puts
    8 INF on 4 TRN and 1 ARM on 1 TRN)."""
    return (
        units.count(UnitType.ARM) + units.count(UnitType.AA) + (units.count(UnitType.INF) + 1) // 2
    )


def check(position: Position, spaces: Iterable[str] | None = None) -> None:
    """Raise PositionError unless every unit and owner fits the board (the units of
    ``spaces`` only, when given: the spaces a change touched).

    Ships only at sea; complexes only on land, one a territory; bombers never at sea; land
    units at sea fit aboard their side's transports and fighters at sea aboard its carriers
    (two a carrier); land is held only by its owner's side when units stand on it; sea zones
    have no owner; counts and banks are not negative.
    """
    board = position.board
    for territory, owner in position.owners.items() if spaces is None else ():
        if territory not in board.territories:
            raise PositionError(f"unknown territory {territory!r} has an owner")
        if board.territories[territory].is_sea:
            raise PositionError(f"{territory} is a sea zone: it has no owner ({owner.name})")
    for power, ipcs in position.bank.items():
        if ipcs < 0:
            raise PositionError(f"{power.name} cannot hold {ipcs} IPCs")
    for space in position.units if spaces is None else spaces:
        per_power = position.units.get(space)
        if not per_power:
            continue
        if space not in board.territories:
            raise PositionError(f"units in unknown space {space!r}")
        if board.territories[space].is_sea:
            _check_sea(space, per_power)
        else:
            _check_land(position, space, per_power)


def _check_sea(space: str, per_power: PowerUnits) -> None:
    sides: dict[Alliance, dict[UnitType, int]] = {}
    for power, units in per_power.items():
        side = sides.setdefault(power.alliance, {})
        for unit, count in units.counts:
            side[unit] = side.get(unit, 0) + count
    for alliance, side in sides.items():
        for unit in (UnitType.IC, UnitType.BMB):
            if side.get(unit):
                raise PositionError(f"{space}: a {unit.value} cannot be at sea")
        boats, fighters, carriers = (
            side.get(u, 0) for u in (UnitType.TRN, UnitType.FTR, UnitType.AC)
        )
        cargo = Units.of((u, n) for u, n in side.items() if u in CARGO)
        if cargo_slots(cargo) > boats:
            raise PositionError(
                f"{space}: {alliance.value} land units at sea ({cargo}) do not fit aboard "
                f"{boats} TRN"
            )
        if fighters > 2 * carriers:
            raise PositionError(
                f"{space}: {fighters} {alliance.value} FTR at sea, but {carriers} AC hold "
                f"only {2 * carriers}"
            )


_SHIPS = frozenset({UnitType.TRN, UnitType.SUB, UnitType.AC, UnitType.BB})


def _check_land(position: Position, space: str, per_power: PowerUnits) -> None:
    if position.board.territories[space].impassable:
        raise PositionError(f"{space} is impassable: no unit can be there")
    owner = position.owners.get(space)
    complexes = 0
    for power, units in per_power.items():
        ships = [u.value for u, _ in units.counts if u in _SHIPS]
        if ships:
            raise PositionError(f"{space} is land: {power.name} {', '.join(ships)} cannot be there")
        if owner is None or owner.alliance is not power.alliance:
            held = owner.name if owner else "nobody"
            raise PositionError(f"{power.name} units stand in {space}, held by {held}")
        complexes += units.count(UnitType.IC)
    if complexes > 1:
        raise PositionError(f"{space} has {complexes} industrial complexes; one is the most")
