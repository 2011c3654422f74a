"""The board while one turn is played out on it: units, owners and banks that the turn's
orders move, before they are frozen into the next :class:`~adjudicator.position.Position`.

A position is immutable and every change copies it; a turn makes hundreds of small changes,
so they are made here, on plain dictionaries private to one call of
:func:`adjudicator.turns.advance`, and the result is one new position.

Cargo and carried fighters follow their ship. Land units in a sea zone are aboard transports
and fighters there aboard carriers (:mod:`adjudicator.position.model`); an order that moves
transports or carriers and does not name what is aboard leaves nothing afloat without a ship:
what no longer fits the ships left behind sails with those that leave. When transports are
sunk the cargo that no longer fits goes down with them (facts sheet section 3: "A sunk
transport loses its cargo"); which cargo is the owner's choice and the orders never say, so
the cheapest goes first (INF, then AA, then ARM), as the default orders of loss put INF first.
"""

from __future__ import annotations

from adjudicator.position.liberation import new_owner, restored
from adjudicator.position.model import CARGO, Position
from adjudicator.powers import TURN_ORDER, Alliance, Power
from adjudicator.units import NO_UNITS, Technology, Units, UnitType


def fitting(cargo: Units, boats: int) -> Units:
    """The part of ``cargo`` that ``boats`` transports carry: 1 ARM, 1 AA or 2 INF each (no
    INF+ARM mix [W12]), keeping the dearest cargo first."""
    arm = min(cargo.count(UnitType.ARM), boats)
    aa = min(cargo.count(UnitType.AA), boats - arm)
    inf = min(cargo.count(UnitType.INF), 2 * (boats - arm - aa))
    return Units.of({UnitType.ARM: arm, UnitType.AA: aa, UnitType.INF: inf})


def clamp(wanted: Units, have: Units) -> Units:
    """As many of ``wanted`` as ``have`` holds, type by type."""
    return Units.of((unit, min(n, have.count(unit))) for unit, n in wanted)


class Table:
    """A turn being played out on ``start`` (the position at the start of the mover's turn)."""

    def __init__(self, start: Position) -> None:
        self.start = start
        self.board = start.board
        self.units: dict[str, dict[Power, Units]] = {
            space: dict(per_power) for space, per_power in start.units.items()
        }
        self.owners: dict[str, Power] = dict(start.owners)
        self.bank: dict[Power, int] = dict(start.bank)
        self.technologies: dict[Power, frozenset[Technology]] = dict(start.technologies)
        self.captured: dict[str, int] = {}
        """Land taken this turn, with the line that says so (0: none)."""

    # --- reading ---------------------------------------------------------------------------

    def is_sea(self, space: str) -> bool:
        """Whether ``space`` is a sea zone."""
        return self.board.territories[space].is_sea

    def units_of(self, space: str, power: Power) -> Units:
        """What ``power`` has in ``space`` now."""
        return self.units.get(space, {}).get(power, NO_UNITS)

    def powers_at(self, space: str) -> dict[Power, Units]:
        """Every power's units in ``space``, in turn order."""
        here = self.units.get(space, {})
        return {p: here[p] for p in TURN_ORDER if here.get(p)}

    def side(self, space: str, alliance: Alliance) -> Units:
        """All units of ``alliance``'s powers in ``space``."""
        total = NO_UNITS
        for power, units in self.powers_at(space).items():
            if power.alliance is alliance:
                total = total + units
        return total

    def enemies(self, space: str, power: Power) -> dict[Power, Units]:
        """The units in ``space`` of the powers at war with ``power``."""
        return {p: u for p, u in self.powers_at(space).items() if p.alliance is not power.alliance}

    def enemy_fighters(self, space: str, power: Power) -> Units:
        """Enemy units in ``space`` that fight (not AA guns or complexes)."""
        total = NO_UNITS
        for units in self.enemies(space, power).values():
            total = total + units.combatants()
        return total

    def is_friendly(self, territory: str, power: Power) -> bool:
        """Whether land ``territory`` is held by ``power``'s side now."""
        owner = self.owners.get(territory)
        return owner is not None and owner.alliance is power.alliance

    def holds_capital(self, power: Power) -> bool:
        """Whether ``power`` holds its own capital now."""
        return self.owners.get(self.start.capital(power)) is power

    # --- changing --------------------------------------------------------------------------

    def put(self, space: str, power: Power, units: Units) -> None:
        """``units`` of ``power`` arrive in ``space``."""
        if units:
            here = self.units.setdefault(space, {})
            here[power] = here.get(power, NO_UNITS) + units

    def set(self, space: str, power: Power, units: Units) -> None:
        """``power`` has exactly ``units`` in ``space``."""
        here = self.units.setdefault(space, {})
        if units:
            here[power] = units
        else:
            here.pop(power, None)

    def take(self, space: str, power: Power, units: Units) -> Units:
        """Take up to ``units`` of ``power`` from ``space``; what was taken."""
        have = self.units_of(space, power)
        taken = clamp(units, have)
        self.set(space, power, have.minus(taken))
        return taken

    def sail(self, space: str, power: Power, ships: Units) -> tuple[Units, dict[Power, Units]]:
        """Take up to ``ships`` of ``power`` from sea ``space``, with what is aboard them and
        not named: the cargo and fighters that no longer fit the ships left (by power)."""
        taken = self.take(space, power, ships)
        return taken, self.overflow(space, power)

    def overflow(self, space: str, power: Power) -> dict[Power, Units]:
        """Remove and return what no longer fits aboard ``power``'s side's ships in sea
        ``space``: ``power``'s cargo beyond its transports, then fighters beyond the side's
        carriers (allied fighters first: on another power's carrier they are cargo)."""
        if not self.is_sea(space):
            return {}
        moved: dict[Power, Units] = {}
        own = self.units_of(space, power)
        cargo = own.only(*CARGO)
        kept = fitting(cargo, own.count(UnitType.TRN))
        if kept != cargo:
            moved[power] = cargo.minus(kept)
            self.set(space, power, own.minus(moved[power]))
        side = self.side(space, power.alliance)
        extra = side.count(UnitType.FTR) - 2 * side.count(UnitType.AC)
        order = [p for p in TURN_ORDER if p.alliance is power.alliance and p is not power]
        for other in [*order, power]:
            if extra <= 0:
                break
            planes = min(extra, self.units_of(space, other).count(UnitType.FTR))
            if planes:
                lifted = self.take(space, other, Units.of({UnitType.FTR: planes}))
                moved[other] = moved.get(other, NO_UNITS) + lifted
                extra -= planes
        return moved

    def capture(self, territory: str, power: Power, line: int) -> Power | None:
        """``power`` takes land ``territory``: it goes to its original owner when that is an
        ally whose capital is free, or is the capital itself (liberation, facts sheet 8;
        IAAPA Placement of New Units: a liberated capital "has now reverted back to your
        Ally's control"), else to ``power``. Enemy AA guns and complexes there change hands
        with it (IAAPA AA Guns: a liberated gun goes to the original owner, a captured one to
        the captor). Returns the power that held it (None: a neutral)."""
        loser = self.owners.get(territory)
        new = new_owner(self.start, self.owners, territory, power)
        self.owners[territory] = new
        self.captured.setdefault(territory, line)
        for enemy, units in self.enemies(territory, power).items():
            fixed = units.only(UnitType.AA, UnitType.IC)
            self.set(territory, enemy, units.minus(fixed))
            self.put(territory, new, fixed)
        if new is not power and self.start.capital(new) == territory:
            self.restore(new)
        return loser

    def restore(self, ally: Power) -> None:
        """``ally``'s capital is liberated: its original territories its allies hold go back
        to it, with the complexes there (:func:`adjudicator.position.liberation.restored`).
        Units other than complexes stay their owners'; the ally's IPC count grows at once."""
        for territory in restored(self.start, self.owners, ally):
            owner = self.owners[territory]
            self.owners[territory] = ally
            complexes = self.units_of(territory, owner).only(UnitType.IC)
            if complexes:
                self.take(territory, owner, complexes)
                self.put(territory, ally, complexes)

    def position(self, *, round: int, to_move: Power, checked: bool) -> Position:
        """The table frozen into a position."""
        return Position.of(
            self.board,
            round=round,
            to_move=to_move,
            owners=self.owners,
            units=self.units,
            bank=self.bank,
            technologies=self.technologies,
            checked=checked,
        )
