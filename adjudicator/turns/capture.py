"""Land changing hands in combat: captures, liberations, neutrals and captured capitals.

- Only land units capture; planes alone never do, and a sea battle changes no owner (facts
  sheet sections 1 and 8 [SPEC p.20]). A walk-in ("WI ... The attacker simply walks in to an
  empty enemy or neutral territory", IAAPA Abbreviations) and a tank blitzing through an empty
  enemy territory take it too; a plane flying over a neutral in the combat move takes it
  (IAAPA Neutral Territories: "An air unit may fly over a neutral territory, capture it").
- Liberation: an ally's original territory returns to that ally when its capital is free (or
  is the capital being liberated); otherwise the liberator holds it (facts sheet 8 [SPEC
  p.14,20,21; TA BattleTracker]); AA guns and complexes change hands with the land (IAAPA AA
  Guns). See :meth:`adjudicator.turns.table.Table.capture`.
- Entering a neutral costs 3 IPCs [SPEC p.8,13; XML neutralCharge=3], paid with the turn's
  other spending (:mod:`adjudicator.turns.income`).
- A captured capital: "Capturing an enemy capital (E US, UK, Russia, Germany, Japan) takes
  all the IPCs the loser holds" (facts sheet 8 [SPEC p.20; TA
  BattleTracker.addChangesOnTakeOverCapitol]): they pass to the captor at once. IAAPA Income
  Collection and Spending presumes it ("if you have received income from the capture of an
  enemy's capital you may spend said income on Weapons Development or the violation of
  neutrality").
"""

from __future__ import annotations

from adjudicator.diagnostics import Rule, Severity
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.turns.findings import Finding
from adjudicator.turns.fronts import TurnInPlay


def take_land(play: TurnInPlay, territory: str, line: int) -> None:
    """``play``'s mover takes land ``territory`` (reported on ``line``)."""
    table, mover = play.table, play.mover
    if table.is_friendly(territory, mover) or table.board.territories[territory].impassable:
        return
    loser = table.capture(territory, mover, line)
    if loser is None:
        play.neutrals.append(territory)
        return
    if table.start.capital(loser) != territory:
        return
    seized = table.bank[loser]
    table.bank[mover] += seized
    table.bank[loser] = 0
    play.seized += seized
    play.note(
        Severity.INFO,
        Rule.CAPITAL_CAPTURE,
        Finding.CAPITAL_TAKEN,
        f"{territory}, {POWER_NAMES[loser]}'s capital, is captured: {POWER_NAMES[loser]}'s "
        f"{seized} IPCs in hand pass to {POWER_NAMES[mover]}",
        line=line,
    )
