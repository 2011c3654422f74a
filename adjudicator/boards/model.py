"""The board: territories, which of them touch, canals and the opening set-up.

A :class:`Board` is built from a TripleA game file (:mod:`adjudicator.boards.triplea`) and
is immutable: a clarification overlay returns a new board. Names are TripleA's own
(``classic.xml`` spells "Carribean Sea Zone" and "Ukraine S.S.R."); players' spellings are
resolved to them by :mod:`adjudicator.names`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

NEUTRAL = "Neutral"
"""Owner key of units placed with no owner (TripleA's null player, e.g. neutral armies)."""


class BoardError(ValueError):
    """A board's data is inconsistent (unknown territory, one-way connection, ...)."""


@dataclass(frozen=True)
class Territory:
    """One land territory or sea zone.

    ``ipc`` is the income (TripleA "production") value; ``original_owner`` is the power that
    holds it at the start (``None`` for sea zones and neutrals); ``capital_of`` names the power
    whose capital it is; ``original_factory`` marks an original IC, which produces without
    limit for its original owner [XML originalFactory].
    """

    name: str
    is_sea: bool
    ipc: int = 0
    original_owner: str | None = None
    capital_of: str | None = None
    original_factory: bool = False
    impassable: bool = False

    @property
    def is_land(self) -> bool:
        """True for land territories (including neutrals and impassable land)."""
        return not self.is_sea

    @property
    def is_neutral(self) -> bool:
        """Passable land that no power holds at the start: entering it costs IPCs."""
        return self.is_land and not self.impassable and self.original_owner is None


@dataclass(frozen=True)
class Canal:
    """A canal joining sea zones, open to ships of a power that controls all its land.

    IAAPA Canals: "Canals may be used if and only if you or your allies own the territory or
    territories controlling the canal at the beginning of your turn."
    """

    name: str
    sea_zones: frozenset[str]
    land_territories: frozenset[str]


@dataclass(frozen=True)
class Player:
    """A TripleA player (a power), listed in turn order on the board."""

    name: str
    alliance: str | None = None


UnitCounts = Mapping[str, int]
"""Unit type name -> how many."""


@dataclass(frozen=True)
class Board:
    """A whole map with its opening position. Build it with :meth:`build`, which checks it."""

    name: str
    players: tuple[Player, ...]
    territories: Mapping[str, Territory]
    adjacency: Mapping[str, frozenset[str]]
    canals: tuple[Canal, ...]
    initial_units: Mapping[str, Mapping[str, UnitCounts]]
    """owner -> territory -> unit type -> count (owner :data:`NEUTRAL` for unowned units)."""
    starting_resources: Mapping[str, Mapping[str, int]]
    """player -> resource name -> quantity."""
    unit_types: tuple[str, ...] = ()
    clarifications: tuple[str, ...] = field(default=())
    """Keys of the rule clarifications applied to this board (see ``iaapa_overlay``)."""

    @classmethod
    def build(
        cls,
        *,
        name: str,
        players: Iterable[Player],
        territories: Iterable[Territory],
        connections: Iterable[tuple[str, str]],
        canals: Iterable[Canal] = (),
        initial_units: Mapping[str, Mapping[str, Mapping[str, int]]] | None = None,
        starting_resources: Mapping[str, Mapping[str, int]] | None = None,
        unit_types: Iterable[str] = (),
        clarifications: Iterable[str] = (),
    ) -> Board:
        """A checked, frozen board; connections are made symmetric. BoardError if unsound."""
        terr: dict[str, Territory] = {}
        for t in territories:
            if t.name in terr:
                raise BoardError(f"territory {t.name!r} is defined twice")
            terr[t.name] = t
        adj: dict[str, set[str]] = {n: set() for n in terr}
        for a, b in connections:
            for end in (a, b):
                if end not in terr:
                    raise BoardError(f"connection {a!r} - {b!r} names unknown {end!r}")
            if a == b:
                raise BoardError(f"territory {a!r} is connected to itself")
            adj[a].add(b)
            adj[b].add(a)
        canal_list = sorted(canals, key=lambda c: (c.name, sorted(c.sea_zones)))
        for canal in canal_list:
            for t_name in canal.sea_zones | canal.land_territories:
                if t_name not in terr:
                    raise BoardError(f"canal {canal.name!r} names unknown {t_name!r}")
        units = {
            owner: MappingProxyType(
                {
                    t_name: MappingProxyType(dict(sorted(counts.items())))
                    for t_name, counts in sorted(per_territory.items())
                }
            )
            for owner, per_territory in sorted((initial_units or {}).items())
        }
        for owner, per_territory in units.items():
            for t_name in per_territory:
                if t_name not in terr:
                    raise BoardError(f"{owner} units placed in unknown territory {t_name!r}")
        return cls(
            name=name,
            players=tuple(players),
            territories=MappingProxyType(dict(sorted(terr.items()))),
            adjacency=MappingProxyType({n: frozenset(adj[n]) for n in sorted(adj)}),
            canals=tuple(canal_list),
            initial_units=MappingProxyType(units),
            starting_resources=MappingProxyType(
                {
                    p: MappingProxyType(dict(sorted(r.items())))
                    for p, r in sorted((starting_resources or {}).items())
                }
            ),
            unit_types=tuple(sorted(unit_types)),
            clarifications=tuple(clarifications),
        )

    def territory(self, name: str) -> Territory:
        """The territory called exactly ``name``; BoardError if the board has none."""
        try:
            return self.territories[name]
        except KeyError:
            raise BoardError(f"{self.name} has no territory {name!r}") from None

    def neighbours(self, name: str) -> frozenset[str]:
        """Names of the spaces adjacent to ``name``."""
        self.territory(name)
        return self.adjacency[name]

    def are_adjacent(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` share a border."""
        return b in self.neighbours(a)

    def connections(self) -> list[tuple[str, str]]:
        """Every connection once, as sorted ``(a, b)`` pairs, sorted."""
        return sorted((a, b) for a, ns in self.adjacency.items() for b in ns if a < b)

    @property
    def land(self) -> tuple[Territory, ...]:
        """All land territories, by name."""
        return tuple(t for t in self.territories.values() if t.is_land)

    @property
    def sea(self) -> tuple[Territory, ...]:
        """All sea zones, by name."""
        return tuple(t for t in self.territories.values() if t.is_sea)

    @property
    def neutrals(self) -> tuple[Territory, ...]:
        """Passable land with no original owner."""
        return tuple(t for t in self.land if t.is_neutral)

    def capital_of(self, player: str) -> Territory:
        """The capital territory of ``player``; BoardError if it has none."""
        for t in self.territories.values():
            if t.capital_of == player:
                return t
        raise BoardError(f"{player} has no capital on {self.name}")

    def starting_ipcs(self, player: str) -> int:
        """The player's opening IPCs (TripleA resource "PUs")."""
        return self.starting_resources.get(player, {}).get("PUs", 0)

    def sea_zones_next_to(self, name: str) -> frozenset[str]:
        """The sea zones adjacent to land ``name`` (where its IC may place new ships)."""
        return frozenset(n for n in self.neighbours(name) if self.territories[n].is_sea)

    def canal_between(self, a: str, b: str) -> Canal | None:
        """The canal whose zones include both ``a`` and ``b``, if any."""
        for canal in self.canals:
            if {a, b} <= canal.sea_zones:
                return canal
        return None

    def units_of(self, owner: str) -> Mapping[str, UnitCounts]:
        """territory -> unit type -> count of ``owner``'s opening units."""
        return self.initial_units.get(owner, MappingProxyType({}))

    def with_connections(
        self,
        *,
        add: Iterable[tuple[str, str]] = (),
        remove: Iterable[tuple[str, str]] = (),
        clarification: str | None = None,
    ) -> Board:
        """A copy with connections added/removed, recording ``clarification`` if given."""
        added = list(add)
        for a, b in added:
            if a == b:
                raise BoardError(f"territory {a!r} cannot be connected to itself")
        current = {frozenset(c) for c in self.connections()}
        current -= {frozenset(c) for c in remove}
        current |= {frozenset(c) for c in added}
        pairs = [sorted(c) for c in current]
        return Board.build(
            name=self.name,
            players=self.players,
            territories=self.territories.values(),
            connections=[(p[0], p[1]) for p in pairs],
            canals=self.canals,
            initial_units=self.initial_units,
            starting_resources=self.starting_resources,
            unit_types=self.unit_types,
            clarifications=(
                (*self.clarifications, clarification) if clarification else self.clarifications
            ),
        )
