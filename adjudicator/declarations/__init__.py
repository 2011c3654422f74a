"""What a player declares, checked against the board before any die is rolled.

- :func:`check_report` (``pbem turn check FILE --json --position FILE``): the notation's turn
  report with the board's findings added (see :mod:`.turncheck`).
- :func:`check_turn`: the same as values: findings, void battles, the position left.
- :func:`check_declarations`: the combat declarations of a pre-combat turn (IAAPA Error
  Correction II).
- :func:`check_purchases`: its research dice and purchases against the bank and the price
  list (IAAPA Income Collection and Spending, Error Correction IV).
- :func:`apply_post_combat`: a post-combat turn applied to the position, the map update
  weighed against the non-combat moves (Error Correction V); :func:`check_counts` compares the
  declared "UK 30/$32" with the position.

Every finding is an :class:`adjudicator.diagnostics.Diagnostic` with a stable :class:`Code`.
"""

from adjudicator.declarations.combat import check_declarations, void_battles
from adjudicator.declarations.counts import check_counts
from adjudicator.declarations.discrepancies import PostCombat, apply_post_combat
from adjudicator.declarations.findings import Code
from adjudicator.declarations.purchases import check_purchases
from adjudicator.declarations.turncheck import TurnCheck, check_report, check_turn

__all__ = [
    "Code",
    "PostCombat",
    "TurnCheck",
    "apply_post_combat",
    "check_counts",
    "check_declarations",
    "check_purchases",
    "check_report",
    "check_turn",
    "void_battles",
]
