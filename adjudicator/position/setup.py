"""The opening position of a board: the printed set-up, owners and starting IPCs.

For Classic this is TripleA's digitisation of the Milton Bradley 2nd edition set-up
(``classic.xml``), with starting incomes USSR 24, Germany 32, UK 30, Japan 25, USA 36 [XML;
SPEC p.7,22]. USSR moves first, in round 1. A bid (IAAPA Bidding) is placed on this position
before USSR 1; the league's bid is not part of the board.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from adjudicator.boards import NEUTRAL, Board, classic
from adjudicator.position.model import Position, PositionError
from adjudicator.powers import TURN_ORDER, Power
from adjudicator.units import Technology, Units, UnitType


def initial(board: Board | None = None) -> Position:
    """The opening position of ``board`` (default: Classic as the IAAPA plays it).

    Units TripleA places with no owner (neutral armies) are left out: in Classic the
    neutrals are empty. PositionError if the board's set-up breaks a rule of the position.
    Classic's is built once (a position is immutable): every bid checked and every game
    created starts from it.
    """
    if board is None or board is classic():
        return _classic_opening()
    return _opening(board)


@functools.cache
def _classic_opening() -> Position:
    return _opening(classic())


def _opening(board: Board) -> Position:
    units: dict[str, dict[Power, Units]] = {}
    for owner, per_territory in board.initial_units.items():
        if owner == NEUTRAL:
            continue
        power = Power.from_triplea(owner)
        for territory, counts in per_territory.items():
            try:
                placed = Units.of({UnitType.from_triplea(name): n for name, n in counts.items()})
            except ValueError as exc:
                raise PositionError(f"{board.name}: {territory}: {exc}") from None
            units.setdefault(territory, {})[power] = placed
    owners = {
        t.name: Power.from_triplea(t.original_owner)
        for t in board.land
        if t.original_owner is not None
    }
    bank = {p: board.starting_ipcs(p.triplea_name) for p in TURN_ORDER}
    return Position.of(board, round=1, to_move=TURN_ORDER[0], owners=owners, units=units, bank=bank)


def arranged(
    units: Mapping[str, Mapping[Power, Units | Mapping[UnitType, int]]],
    *,
    owners: Mapping[str, Power] | None = None,
    board: Board | None = None,
    to_move: Power = TURN_ORDER[0],
    round: int = 1,
    bank: Mapping[Power, int] | None = None,
    technologies: Mapping[Power, frozenset[Technology]] | None = None,
) -> Position:
    """A position holding only ``units`` (space -> power -> units): a rule case or a what-if.

    Land is held as at the opening unless ``owners`` says otherwise (a territory given
    ``owners`` changes hands; the others keep their opening owner); a power not in ``bank``
    holds its starting IPCs. PositionError if the arrangement breaks a rule of the position.
    """
    board = board or classic()
    start = initial(board)
    held = {**start.owners, **(owners or {})}
    placed = {
        space: {p: u if isinstance(u, Units) else Units.of(u) for p, u in per.items()}
        for space, per in units.items()
    }
    return Position.of(
        board,
        round=round,
        to_move=to_move,
        owners=held,
        units=placed,
        bank={**start.bank, **(bank or {})},
        technologies=technologies,
    )
