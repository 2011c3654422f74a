"""Turns played out: the post-combat turn moves the board.

The service keeps each game's position and its ledger of turn emails and dice. From them the
engine gives the next position:

- :func:`advance` ``(position, precombat, postcombat, battles) -> Advance``: one turn of
  ``position.to_move`` played out from its pre-combat email (purchases, research, combat
  moves; None when one email holds the whole turn), its post-combat email (results,
  non-combat moves, placements, map update, count) and each declared battle's verdict from
  the recorded dice. The :class:`Advance` holds the new position (next power to move, round),
  the findings (written results, map update and count against the dice and orders, IAAPA
  Error Correction V), the land captured, the units placed, the income and the Magic 84 check.
- :func:`replay_turns` ``(initial, turns) -> Position``: the position after a run of turns,
  from the ledger alone.
- :class:`BattleOutcome`: a battle's verdict; build it with :func:`outcome_of` (a
  :class:`adjudicator.battle.BattleResult`), :func:`outcome_from_json` (a battle object of
  :func:`adjudicator.battle.resolve_json`'s or :func:`adjudicator.rolls.replay`'s output) or
  :func:`raid_outcome` / :func:`raid_outcome_from_entry` (a bombing raid roll).

Each finding is an :class:`adjudicator.diagnostics.Diagnostic` whose ``code`` is a
:class:`Finding`. How the rules are read where the orders are silent (planes' landings,
cargo, retreat locations, losses shared by allied defenders) is said in the module that does
it: :mod:`.combat_moves`, :mod:`.combat_results`, :mod:`.landing`, :mod:`.non_combat`,
:mod:`.income`, :mod:`.capture`, :mod:`.table`, :mod:`.discrepancies`.
"""

from adjudicator.turns.advance import Advance, TurnRecord, advance, replay_turns
from adjudicator.turns.findings import Finding
from adjudicator.turns.verdicts import (
    BattleOutcome,
    VerdictError,
    outcome_from_json,
    outcome_of,
    raid_outcome,
    raid_outcome_from_entry,
)

__all__ = [
    "Advance",
    "BattleOutcome",
    "Finding",
    "TurnRecord",
    "VerdictError",
    "advance",
    "outcome_from_json",
    "outcome_of",
    "raid_outcome",
    "raid_outcome_from_entry",
    "replay_turns",
]
