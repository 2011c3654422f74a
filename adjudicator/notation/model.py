"""The orders a turn email holds, as frozen values: what the notation parser returns.

Each order keeps the line it was read from (1-based, counted in the email as received, quoted
lines included), so a ruling or a diagnostic can point at it. Places are the board's canonical
names (classic.xml's); units are counted as :class:`~adjudicator.units.Units`, and each doubt
is a :class:`~adjudicator.diagnostics.Diagnostic`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from adjudicator.diagnostics import Diagnostic, Severity
from adjudicator.fastenum import FastEnum
from adjudicator.fastrecord import quick_init
from adjudicator.powers import Power
from adjudicator.units import Technology, Units, UnitType, tally


class TurnKind(FastEnum):
    """Which of the IAAPA turn emails this is (Declaration and Battle Resolution Procedures)."""

    PRE_COMBAT = "pre-combat"
    """Tech results, purchases and combat moves, sent before any die is rolled."""
    POST_COMBAT = "post-combat"
    """Combat results, non-combat moves, map update and the territory/IPC count."""
    SPECIAL_ORDERS = "special-orders"
    """Only special instructions: orders of loss, sub withdrawals, retreats."""
    MIXED = "mixed"
    """Both pre-combat and post-combat orders in one email."""
    EMPTY = "empty"
    """No orders at all (chat, or only a quoted reply)."""


class BattleKind(FastEnum):
    """What a declared combat is."""

    BATTLE = "battle"
    """An ordinary land or sea battle, rolled on the dice server."""
    WALK_IN = "walk-in"
    """IAAPA Abbreviations, WI: 'The attacker simply "walks in" to an empty enemy or neutral
    territory. No combat rolls are required, but it happens during the combat phase.'"""
    RAID = "raid"
    """A strategic bombing raid on an industrial complex."""


class CombatOutcome(FastEnum):
    """How a battle ended, as the player reports it in the post-combat email (the engine's
    own verdict from the dice is :class:`adjudicator.battle.Outcome`)."""

    WON = "won"
    """The attacker took the territory or cleared the sea zone."""
    LOST = "lost"
    """The attack failed: every attacker was destroyed, or the defender held."""
    RETREATED = "retreated"
    """The attacker retreated (IAAPA Rules Clarifications, Retreats)."""
    WALKED_IN = "walked-in"
    """A walk-in: the territory was empty."""
    BOTH_DESTROYED = "both-destroyed"
    """Both sides were wiped out; the defender keeps the territory."""
    RAIDED = "raided"
    """A strategic bombing raid was flown."""


@quick_init
@dataclass(frozen=True)
class TechResult:
    """Weapons development: dice bought and technologies gained ("2 dice: Jet Power")."""

    line: int
    dice: int | None
    technologies: tuple[Technology, ...] = ()


@quick_init
@dataclass(frozen=True)
class Purchase:
    """Units bought ("Purchases: 3 INF, 1 TRN ($17)"), with money figures if written."""

    line: int
    units: Units
    spent: int | None = None
    remaining: int | None = None


@quick_init
@dataclass(frozen=True)
class Origin:
    """Attacking units from one place: "E Can 1 ARM on E Can SZ 1 TRN to UK SZ".

    ``place`` is None when the line gives no origin ("2 INF": a combat declaration error,
    IAAPA Error Correction II; the parser warns). ``via`` lists the spaces passed through in
    order (the transport's zone, the zone it sails to, a blitz route); ``transports`` the
    units that carry ``units`` (they are not attackers of a land battle); ``lands`` where
    planes will land. ``could_be`` lists the places an origin written ambiguously fits
    ("Car SZ": Caroline Islands or Carribean Sea Zone; ``place`` is then None): the check
    against the board reads it as the one of them holding the units, if only one does.
    """

    line: int
    place: str | None
    units: Units
    via: tuple[str, ...] = ()
    transports: Units = field(default_factory=Units)
    lands: str | None = None
    could_be: tuple[str, ...] = ()


@quick_init
@dataclass(frozen=True)
class Total:
    """The summary line: "Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA"."""

    line: int
    attacker: Units
    defender: Units | None = None
    attacking_power: Power | None = None
    defending_power: Power | None = None


@quick_init
@dataclass(frozen=True)
class Battle:
    """A declared combat: "Attack #1 - W Europe (10 INF, AA)" and the lines under it.

    ``defender`` is what the header lists (None when it lists only the territory, which
    IAAPA Error Correction II.3 allows); ``territory`` is None only when the written name
    could not be read (an error diagnostic says so), or when it fits several places: then
    ``could_be`` lists them ("Can SZ": East Canada, West Canada or West Africa Sea Zone), and
    the check against the board reads it as the one of them holding enemy units the attackers
    can reach, if only one does (IAAPA Error Correction II: "if it is clear from the combat
    orders where the battle is to occur ... then no CDE can be called").
    """

    number: int
    territory: str | None
    line: int
    kind: BattleKind = BattleKind.BATTLE
    defender: Units | None = None
    origins: tuple[Origin, ...] = ()
    total: Total | None = None
    could_be: tuple[str, ...] = ()

    @functools.cached_property
    def attacker(self) -> Units:
        """The attacking units: the origins added up, or the Total line when none are given
        (worked out once: the checks ask for it again and again)."""
        origins = self.origins
        if len(origins) == 1:
            return origins[0].units
        if origins:
            return tally(pair for origin in origins for pair in origin.units.counts)
        return self.total.attacker if self.total is not None else Units()

    @property
    def defenders(self) -> Units | None:
        """The defending units as listed: the header's, else the Total line's."""
        if self.defender is not None:
            return self.defender
        return self.total.defender if self.total is not None else None


@quick_init
@dataclass(frozen=True)
class CombatResult:
    """A result of combat, as the post-combat email reports it (IAAPA Post Combat Orders:
    "indicating the results of combat"): "Attack #1 - W Europe: won, 6 INF, 1 ARM, 2 FTR
    survive"."""

    line: int
    outcome: CombatOutcome
    number: int | None = None
    territory: str | None = None
    survivors: Units = field(default_factory=Units)
    losses: Units = field(default_factory=Units)
    retreat_to: str | None = None
    damage: int | None = None


@quick_init
@dataclass(frozen=True)
class Move:
    """A non-combat move: "Kar 2 FTR to Russia", "UK 2 INF on UK SZ 1 TRN to E Can"."""

    line: int
    origin: str | None
    units: Units
    destination: str
    via: tuple[str, ...] = ()
    transports: Units = field(default_factory=Units)


@quick_init
@dataclass(frozen=True)
class Placement:
    """New units placed: "Ger 3 INF", "1 TRN Baltic SZ"."""

    line: int
    place: str
    units: Units


@quick_init
@dataclass(frozen=True)
class MapEntry:
    """One line of the map update: a territory the power holds or has units in."""

    line: int
    place: str
    units: Units
    others: tuple[tuple[Power, Units], ...] = ()
    """Units of other powers written with the place, each with its power ("Egypt 1 INF
    (2 US INF)"): the map update lists the mover's own, so these are only compared."""

    def own(self, mover: Power) -> Units:
        """The mover's units the line lists: those written bare, and any written under the
        mover's own name ("Syria: UK 1 INF; US 1 ARM" in the UK's turn)."""
        units = self.units
        for power, theirs in self.others:
            if power is mover:
                units += theirs
        return units


@quick_init
@dataclass(frozen=True)
class Count:
    """The territory and IPC count, "UK 30/$32" (IAAPA Post Combat Orders)."""

    line: int
    territories: int
    ipcs: int
    power: Power | None = None
    units_written: bool = True
    """False when the player wrote "30/32": the parser assumed territories first."""


@quick_init
@dataclass(frozen=True)
class LossEntry:
    """One step of an order of loss: a unit type, with a count when one was written."""

    unit: UnitType
    count: int | None = None


@quick_init
@dataclass(frozen=True)
class SpecialOrderOfLoss:
    """A defender's order of loss, for one battle or (with no scope) for every battle.

    IAAPA Orders of Loss: "A player may designate any order of loss that he desires for his
    casualties."
    """

    line: int
    order: tuple[LossEntry, ...]
    number: int | None = None
    territory: str | None = None
    waters: str | None = None
    """``"sea"`` or ``"land"``: for every battle of that kind ("OOL sea battles: SUB, BB")."""


@quick_init
@dataclass(frozen=True)
class SubWithdrawal:
    """Where a defending sub withdraws to (IAAPA Rules Clarifications, Sub Withdrawal)."""

    line: int
    to: str
    number: int | None = None
    territory: str | None = None


@quick_init
@dataclass(frozen=True)
class Retreat:
    """An attacker's retreat location (IAAPA Rules Clarifications, Retreats)."""

    line: int
    to: str
    number: int | None = None
    territory: str | None = None


@quick_init
@dataclass(frozen=True)
class Turn:
    """Everything read from one email, in the order written, with every diagnostic."""

    kind: TurnKind
    power: Power | None = None
    round: int | None = None
    tech: tuple[TechResult, ...] = ()
    purchases: tuple[Purchase, ...] = ()
    battles: tuple[Battle, ...] = ()
    results: tuple[CombatResult, ...] = ()
    moves: tuple[Move, ...] = ()
    placements: tuple[Placement, ...] = ()
    map: tuple[MapEntry, ...] = ()
    counts: tuple[Count, ...] = ()
    orders_of_loss: tuple[SpecialOrderOfLoss, ...] = ()
    withdrawals: tuple[SubWithdrawal, ...] = ()
    retreats: tuple[Retreat, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        """The diagnostics that stopped part of the turn being read."""
        return tuple(d for d in self.diagnostics if d.severity is Severity.ERROR)

    def battle(self, number: int) -> Battle:
        """The battle declared with ``number``; KeyError if there is none."""
        for battle in self.battles:
            if battle.number == number:
                return battle
        raise KeyError(f"no battle #{number} in this turn")
