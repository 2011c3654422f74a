"""A whole turn played out: the position at the start of the mover's turn, its two emails and
the dice's verdicts give the position at the start of the next power's turn.

The phases are the Classic turn's, in order (facts sheet 0 [SPEC p.4-6; XML]): weapons
development, purchase, combat move (:mod:`.combat_moves`), combat (:mod:`.combat_results`),
non-combat move (:mod:`.non_combat`; aircraft landing, :mod:`.landing`), placement, collect
income (:mod:`.income`). Then the next power moves: "Turn order: USSR, Germany, UK, Japan, USA.
One cycle is a round" (facts sheet 0), so after the USA the round goes up by one; and after
the USA's turn the Magic 84 count is performed (IAAPA Rules Clarifications, MAGIC 84: "The
Magic 84 count is performed immediately after the United States' turn. If after the United
States' turn the total combined Axis IPC Count is 84 or higher the game is over").

Nothing is mutated: the result is a new position. When the orders leave a position that breaks
a rule of the board (cargo with no transport, a fighter at sea with no carrier), it is kept as
the orders make it, unchecked, with a finding: the players correct it (Error Correction VII).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from adjudicator.declarations.returning import returning
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.magic84 import Magic84, magic_84
from adjudicator.notation.model import Turn
from adjudicator.position.model import Position, PositionError
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.powers import TURN_ORDER, Power
from adjudicator.turns.combat_moves import depart
from adjudicator.turns.combat_results import settle_battles
from adjudicator.turns.discrepancies import check_count, check_map, check_results
from adjudicator.turns.findings import Finding
from adjudicator.turns.fronts import TurnInPlay, pre_combat_part
from adjudicator.turns.income import bought, research, settle_bank
from adjudicator.turns.landing import land_planes
from adjudicator.turns.non_combat import move_all, place_all
from adjudicator.turns.table import Table
from adjudicator.turns.verdicts import BattleOutcome
from adjudicator.units import Units

TurnRecord = tuple[Turn | None, Turn, Mapping[int, BattleOutcome]]
"""One turn as the ledger holds it: the pre-combat email (None when only one was sent), the
post-combat email, and each declared battle's verdict by its number."""


@dataclass(frozen=True)
class Advance:
    """One turn played out.

    ``power`` moved in ``round``; ``position`` is the board after the turn, with the next
    power to move; ``findings`` are what the dice and orders say against what was written
    (Error Correction V), sorted by line; ``captured`` the land that changed hands, ``placed``
    the new units placed, ``income`` the IPCs collected; ``magic84`` is the count after this
    turn (performed only after the USA's).
    """

    power: Power
    round: int
    position: Position
    findings: tuple[Diagnostic, ...]
    captured: tuple[str, ...]
    placed: Units
    income: int
    magic84: Magic84

    @property
    def game_over(self) -> bool:
        """Whether the Axis win on Magic 84 after this turn."""
        return self.magic84.game_over


def _freeze(play: TurnInPlay, nxt: Position) -> Position:
    """The table as the next position: checked, else as the orders make it, with a finding."""
    try:
        return play.table.position(round=nxt.round, to_move=nxt.to_move, checked=True)
    except PositionError as exc:
        play.note(
            Severity.WARNING,
            Rule.DISCREPANCIES,
            Finding.ILLEGAL_POSITION,
            f"the position the orders leave is not a legal one: {exc}; it is kept as the "
            "orders make it",
            "correct the non-combat moves or placements before the next turn is rolled",
        )
        return play.table.position(round=nxt.round, to_move=nxt.to_move, checked=False)


def advance(
    position: Position,
    precombat: Turn | None,
    postcombat: Turn,
    battles: Mapping[int, BattleOutcome],
) -> Advance:
    """The turn of ``position.to_move`` played out on ``position`` (the start of its turn)
    from its pre-combat email ``precombat`` (None: the one email ``postcombat`` holds both),
    its post-combat email and the verdict of each declared battle by number."""
    mover = position.to_move
    early, notes = pre_combat_part(postcombat)
    separate = precombat is not None
    pre = precombat if precombat is not None else early
    postcombat, returns = returning(postcombat, pre)
    play = TurnInPlay(
        Table(position), mover, pre, postcombat, battles, separate, early if separate else None
    )
    play.found.extend(notes)
    for read in returns:
        play.note(
            Severity.INFO,
            Rule.POST_COMBAT,
            Finding.ORIGIN_READ,
            read.message,
            read.suggestion,
            line=read.line,
        )
    for email in (precombat, postcombat):
        if email is not None and email.power is not None and email.power is not mover:
            play.note(
                Severity.WARNING,
                Rule.PROCEDURES,
                Finding.WRONG_POWER,
                f"the email is {POWER_NAMES[email.power]}'s turn, but {POWER_NAMES[mover]} is "
                f"to move: played out as {POWER_NAMES[mover]}'s",
                "check the position or the turn's title",
            )
    dice, technologies = research(play)
    play.table.technologies[mover] = technologies
    purchases = bought(play)
    depart(play)
    settle_battles(play)
    move_all(play)
    land_planes(play)
    placed = place_all(play, purchases)
    income = settle_bank(play, purchases, dice)
    after = _freeze(play, position.next_turn())
    check_results(play)
    check_map(play, after)
    check_count(play, after)
    magic = magic_84(mover, {p: after.ipc_count(p) for p in TURN_ORDER})
    if magic.game_over:
        play.note(
            Severity.INFO,
            Rule.MAGIC_84,
            Finding.MAGIC_84,
            f"after the USA's turn the Axis IPC count is {magic.axis_count}: 84 or more, the "
            "game is over",
        )
    return Advance(
        power=mover,
        round=position.round,
        position=after,
        findings=tuple(sorted(play.found, key=lambda f: f.line)),
        captured=tuple(play.table.captured),
        placed=placed,
        income=income,
        magic84=magic,
    )


def replay_turns(initial: Position, turns: Iterable[TurnRecord]) -> Position:
    """The position after ``turns`` played out one after another from ``initial``: the
    ledger alone rebuilds any position of the game."""
    position = initial
    for precombat, postcombat, battles in turns:
        position = advance(position, precombat, postcombat, battles).position
    return position
