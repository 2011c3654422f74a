"""One turn in play: the orders split by email, each declared battle's front, and the
aircraft still in the air after their battles.

A turn normally comes as two emails (IAAPA Declaration and Battle Resolution Procedures): the
pre-combat turn ("any successful weapons development, the remainder of his purchases, and all
combat moves") and the post-combat orders ("the results of combat, his non-combat moves, a map
update ... and give a territory and IPC count"). When only one email was sent, its pre-combat
parts are those written before its first post-combat section; pre-combat orders written after
them (a USA post-combat with the USSR pre-combat that follows, the USA-USSR turn being one
player's) belong to the next turn and are left out here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from adjudicator.declarations.plan import Site
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.notation.model import Battle, CombatResult, Purchase, TechResult, Turn
from adjudicator.powers import Power
from adjudicator.turns.findings import Finding, turn_finding
from adjudicator.turns.table import Table
from adjudicator.turns.verdicts import BattleOutcome
from adjudicator.units import NO_UNITS, Units, UnitType


def _post_lines(turn: Turn) -> list[int]:
    return [
        x.line
        for group in (turn.results, turn.moves, turn.placements, turn.map, turn.counts)
        for x in group
    ]


_Order = TypeVar("_Order", TechResult, Purchase, Battle)


def _before(items: tuple[_Order, ...], first: int) -> tuple[_Order, ...]:
    return tuple(x for x in items if x.line < first)


def pre_combat_part(post: Turn) -> tuple[Turn, list[Diagnostic]]:
    """The pre-combat orders of a single email that also holds the post-combat orders: those
    written before its first post-combat line."""
    first = min(_post_lines(post), default=0)
    if not first:
        return post, []
    part = dataclasses.replace(
        post,
        tech=_before(post.tech, first),
        purchases=_before(post.purchases, first),
        battles=_before(post.battles, first),
    )
    groups = (post.tech, post.purchases, post.battles)
    later = sorted(x.line for group in groups for x in group if x.line >= first)
    notes = []
    if later:
        notes.append(
            turn_finding(
                Severity.INFO,
                Rule.PROCEDURES,
                Finding.NEXT_TURN_ORDERS,
                f"{len(later)} pre-combat order(s) follow the post-combat orders: they belong "
                "to the next turn and are not played out with this one",
                "send the next turn's pre-combat orders as that turn",
                line=later[0],
            )
        )
    return part, notes


@dataclass
class Airborne:
    """Aircraft of one combat-move line, in the air after their battle until they land.

    ``site`` is where they fought (ranges count from there), ``at`` where the table holds
    them (the battle, or where the force retreated), ``spent`` the moves flown to the battle.
    """

    battle: int
    site: str
    at: str
    unit: UnitType
    count: int
    origin: str
    lands: str | None
    spent: int
    line: int


@dataclass
class Front:
    """One declared battle as it is played: its site, verdict, how it is settled (``mode``:
    "battle", "raid", "walk-in" or "void"), the attackers that reached it (``attackers``
    fight; ``cargo`` is aboard the attacking transports at sea; ``passengers`` are fighters
    carried aboard without fighting), and the places they came from."""

    site: Site
    verdict: BattleOutcome | None
    mode: str
    attackers: Units = NO_UNITS
    cargo: Units = NO_UNITS
    passengers: dict[Power, Units] = field(default_factory=dict)
    flights: list[Airborne] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)
    end: str | None = None
    """Where the attacking survivors ended (the site, or the retreat location)."""

    @property
    def number(self) -> int:
        """The battle's number."""
        return self.site.number


@dataclass
class TurnInPlay:
    """Everything the parts of :func:`adjudicator.turns.advance` share while a turn is played
    out: the table, the mover, both emails, the verdicts and the findings so far."""

    table: Table
    mover: Power
    pre: Turn
    post: Turn
    verdicts: Mapping[int, BattleOutcome]
    separate: bool
    """Whether the pre-combat turn is its own email (its lines are not the post-combat's)."""
    early: Turn | None = None
    """The pre-combat orders the post-combat email itself holds before its post-combat
    sections, when the pre-combat turn is its own email (else they are ``pre``)."""
    found: list[Diagnostic] = field(default_factory=list)
    fronts: list[Front] = field(default_factory=list)
    neutrals: list[str] = field(default_factory=list)
    """Neutral territories entered this turn (3 IPCs each)."""
    seized: int = 0
    """IPCs taken from a captured capital."""

    @property
    def purchases(self) -> tuple[Purchase, ...]:
        """The purchases of this turn: the pre-combat turn's, else any the post-combat email
        writes before its post-combat orders."""
        if self.pre.purchases or self.early is None:
            return self.pre.purchases
        return self.early.purchases

    @property
    def tech(self) -> tuple[TechResult, ...]:
        """The weapons development of this turn, found as the purchases are."""
        if self.pre.tech or self.early is None:
            return self.pre.tech
        return self.early.tech

    def result_for(self, number: int, territory: str | None = None) -> CombatResult | None:
        """The written result of battle ``number`` (or, unnumbered, of ``territory``)."""
        for result in self.post.results:
            if result.number == number and result.territory in (None, territory):
                return result
        for result in self.post.results:
            if result.number is None and territory is not None and result.territory == territory:
                return result
        return None

    def where(self, number: int, pre_line: int, territory: str | None = None) -> tuple[int, str]:
        """The post-combat line to report about a pre-combat order of battle ``number``, and
        how the message names the order: in one email, its own line; else the battle's
        written result, if any."""
        if not self.separate:
            return pre_line, f"line {pre_line}"
        result = self.result_for(number, territory)
        return (result.line if result else 0), f"pre-combat line {pre_line}"

    def note(
        self,
        severity: Severity,
        rule: Rule,
        code: Finding,
        message: str,
        suggestion: str = "",
        *,
        line: int = 0,
        battles: tuple[int, ...] = (),
        also: tuple[Rule, ...] = (),
    ) -> None:
        """Record a finding."""
        self.found.append(
            turn_finding(
                severity, rule, code, message, suggestion, line=line, battles=battles, also=also
            )
        )
