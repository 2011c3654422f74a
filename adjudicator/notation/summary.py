"""TripleA's battle summaries pasted into a turn email, read as results of combat.

TripleA records every action of a game in its history ("Game -> History": "each action that
was taken by all players", TripleA rule book), and players who fight their battles there
paste the history's account of each battle into the post-combat email::

    Battle in Karelia S.S.R.
    Germans attack with 6 infantry, 3 armour and 2 fighters
    Russians defend with 3 infantry and 1 fighter
    Germans win, taking Karelia S.S.R. from Russians with 4 infantry, 3 armour and 2
    fighters remaining. Battle score for attacker is 13
    Casualties for Germans: 2 infantry
    Casualties for Russians: 3 infantry and 1 fighter

A block opens with "Battle in <place>"; its lines name the attacker ("<player> attack
with"), the winner ("<player> win ... with <units> remaining", or "with no units
remaining"), each side's casualties, and any retreat ("<units> owned by the <player>
retreated to <place>"). The block is read as the result of the battle in that place (by
place, as results that name no number are): won with the survivors when the attacker wins,
lost when the defender does, retreated when the attacker's units retreated; the attacker's
casualties are its losses. The players are TripleA's names of the powers ("Germans",
"Russians", "British", "Japanese", "Americans"), and the units its unit names.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from adjudicator.diagnostics import Rule
from adjudicator.notation.model import CombatOutcome, CombatResult
from adjudicator.notation.reading import Reader
from adjudicator.notation.tokens import tokenize
from adjudicator.powers import Power
from adjudicator.units import NO_UNITS, Units

_BLOCK = re.compile(r"^\s*battle in (?P<place>.+?)\s*\.?\s*$")
_FORCES = re.compile(r"^\s*(?P<who>[a-z]+) (?P<side>attack|attacks|defend|defends) with ")
_WIN = re.compile(
    r"^\s*(?P<who>[a-z]+) wins?(?:, taking .+?(?: from [a-z]+)?)? with (?P<units>.+?) "
    r"remaining\b"
)
_CASUALTIES = re.compile(r"^\s*casualties for (?P<who>[a-z]+)\s*:\s*(?P<units>.+?)\s*\.?\s*$")
_RETREAT = re.compile(
    r"^\s*(?P<units>.+?) owned by the (?P<who>[a-z]+) retreated to (?P<place>.+?)\s*\.?\s*$"
)


def may_be_summary(low: str) -> bool:
    """Whether a lower-cased line may be one of a battle summary's (a cheap test first)."""
    return (
        low.startswith(("battle in ", "casualties for "))
        or " with " in low
        or "retreated to" in low
    )


@dataclass
class Block:
    """One battle's summary being read: its place, its attacker, the result read so far."""

    place: str | None
    attacker: Power | None = None
    result: int | None = None
    """The index of the block's result among the turn's results, once read."""
    retreat_to: str | None = None


class SummaryReader:
    """Reads the lines of TripleA battle summaries of one email into results."""

    def __init__(self, reader: Reader, results: list[CombatResult]) -> None:
        self.reader = reader
        self.results = results
        self.block: Block | None = None

    def line(self, number: int, text: str, low: str) -> bool:
        """Whether ``text`` is a line of a battle summary (read if so)."""
        if (opened := _BLOCK.match(low)) is not None:
            written = text[opened.start("place") : opened.end("place")]
            self.block = Block(self.reader.place(number, written, Rule.POST_COMBAT))
            return True
        block = self.block
        if block is None:
            return False
        if (forces := _FORCES.match(low)) is not None:
            if forces.group("side").startswith("attack"):
                block.attacker = self._power(forces.group("who"))
            return True
        if (won := _WIN.match(low)) is not None:
            self._won(number, block, self._power(won.group("who")), text, won)
            return True
        if (lost := _CASUALTIES.match(low)) is not None:
            if block.result is not None and self._power(lost.group("who")) is block.attacker:
                units = self._units(number, text[lost.start("units") : lost.end("units")])
                kept = self.results[block.result]
                self.results[block.result] = dataclasses.replace(kept, losses=kept.losses + units)
            return True
        if (back := _RETREAT.match(low)) is not None:
            if self._power(back.group("who")) is block.attacker:
                written = text[back.start("place") : back.end("place")]
                block.retreat_to = self.reader.place(number, written, Rule.POST_COMBAT)
            return True
        return False

    def _won(
        self, number: int, block: Block, winner: Power | None, text: str, won: re.Match[str]
    ) -> None:
        written = text[won.start("units") : won.end("units")]
        left = NO_UNITS if written.strip().lower() == "no units" else self._units(number, written)
        if winner is not None and winner is block.attacker:
            outcome, survivors = CombatOutcome.WON, left
        elif block.retreat_to is not None:
            outcome, survivors = CombatOutcome.RETREATED, NO_UNITS
        else:
            outcome, survivors = CombatOutcome.LOST, NO_UNITS
        block.result = len(self.results)
        self.results.append(
            CombatResult(
                number,
                outcome,
                territory=block.place,
                survivors=survivors,
                retreat_to=block.retreat_to,
            )
        )

    def _power(self, written: str) -> Power | None:
        return self.reader.lookup.power(written)

    def _units(self, number: int, written: str) -> Units:
        toks = tokenize(written.replace(" and ", ", "))
        units, _stop, _ = self.reader.units(number, toks, 0, len(toks), Rule.POST_COMBAT)
        return units
