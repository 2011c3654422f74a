"""Rolls other than a battle round: weapons development, strategic bombing and rockets.

``record`` throws the dice in the order the rules throw them, drawing more as the results
require (a breakthrough's chart die, a surviving bomber's damage die), and labels every die
with its purpose.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.battle.casualties import aa_casualties
from adjudicator.battle.firing import AA_HITS_ON
from adjudicator.names import technology_label
from adjudicator.notation.economy import TECH_DIE_COST
from adjudicator.rolls.battle import Draw, RollHeader
from adjudicator.units import Technology, Units, UnitType, unit_profile

BREAKTHROUGH = 6
"""The research die that wins a technology."""
ROCKET_SHOTS = 1
"""IAAPA Rocket Technology: "a country can only have one rocket shot per turn, never two or
more"."""


@dataclass(frozen=True)
class TechRoll:
    """IAAPA Error Correction IV: the entry states how many dice were declared and rolled.

    Each research die costs 5 IPC; each 6 is a breakthrough, and one chart die per
    breakthrough picks the technology, re-rolled while it names one already owned or
    already won in this roll.

    The dice declared are the dice bought ("this will be considered the desired amount
    purchased"), so they are what the research costs. More dice entered than declared: "the
    extra dice are ignored similar to a combat rolling error", so breakthroughs count among
    the first ``declared`` only ("start with the first listed die roll and sequentially,
    from left to right, take the correct number of dice", Section III). Fewer: "the extra dice
    will be rolled to make up the total purchased", so the roller throws the missing ones
    at once, in a research group of their own. Either way the chart dice are thrown only once
    the correct number of research dice stand ("the rolls determining the techs acquired will
    be ignored and rerolled once the correct number of tech dice have been rolled"), one per
    breakthrough among them. An entry where ``declared`` and ``rolled`` differ says which
    dice count: ``counted``, the research dice that stand (an entry without it is older,
    and its figures count every die thrown; the rulings read both).
    """

    header: RollHeader
    dice: int
    declared: int
    owned: tuple[Technology, ...]

    def record(self, by: str, draw: Draw) -> dict[str, Any]:
        """The entry's data: the research dice (and any made up), then one chart die run per
        breakthrough among the dice that stand."""
        research = draw(self.dice)
        first: dict[str, Any] = {
            "purpose": "research",
            "count": self.dice,
            "dice": research,
            "breakthroughs": research[: self.declared].count(BREAKTHROUGH),
        }
        if self.dice > self.declared:
            first["stand"] = self.declared
        groups: list[dict[str, Any]] = [first]
        standing = research[: self.declared]
        if self.declared > self.dice:
            made_up = draw(self.declared - self.dice)
            standing = research + made_up
            groups.append(
                {
                    "purpose": "research",
                    "count": len(made_up),
                    "dice": made_up,
                    "breakthroughs": made_up.count(BREAKTHROUGH),
                    "made_up": 1,
                }
            )
        breakthroughs = standing.count(BREAKTHROUGH)
        held = set(self.owned)
        won: list[str] = []
        for _ in range(breakthroughs):
            if len(held) == len(Technology):
                groups.append({"purpose": "chart", "dice": [], "technology": "none left"})
                continue
            chart: list[int] = []
            while True:
                chart += draw(1)
                tech = Technology.from_chart(chart[-1])
                if tech not in held:
                    break
            held.add(tech)
            won.append(technology_label(tech))
            groups.append({"purpose": "chart", "dice": chart, "technology": technology_label(tech)})
        data = self.header.data(by)
        data.update(
            {
                "declared": self.declared,
                "rolled": self.dice,
                "cost": TECH_DIE_COST * self.declared,
                "owned": [technology_label(t) for t in self.owned],
                "groups": groups,
                "dice": [die for group in groups for die in group["dice"]],
                "breakthroughs": breakthroughs,
                "technologies": won,
            }
        )
        if self.declared != self.dice:
            data["counted"] = len(standing)
        return data


@dataclass(frozen=True)
class BombingRoll:
    """A strategic bombing raid: the target's AA fires first, one die at each bomber (hit on
    1); each surviving bomber then throws one die, three with Heavy Bombers, and the dice
    add up to the IPCs lost (facts sheet 6; capped by the adjudicator, not the roller)."""

    header: RollHeader
    target: str
    bombers: int
    aa: int
    heavy: bool

    def record(self, by: str, draw: Draw) -> dict[str, Any]:
        """The entry's data: the AA shots (if the target has a gun), then the damage."""
        groups: list[dict[str, Any]] = []
        shot_down = 0
        if self.aa:
            aa_dice = draw(self.bombers)
            hits = sum(die <= AA_HITS_ON for die in aa_dice)
            shot_down = aa_casualties(
                Units.of({UnitType.BMB: self.bombers}), hits, (UnitType.BMB,)
            ).total
            groups.append(
                {
                    "purpose": "aa",
                    "unit": "AA",
                    "target": "BMB",
                    "count": self.bombers,
                    "hit_on": AA_HITS_ON,
                    "dice": aa_dice,
                    "hits": shot_down,
                }
            )
        survivors = self.bombers - shot_down
        techs = [Technology.HEAVY_BOMBERS] if self.heavy else []
        per_bomber = unit_profile(UnitType.BMB, techs).raid_dice
        damage_dice = draw(survivors * per_bomber) if survivors else []
        groups.append(
            {
                "purpose": "damage",
                "unit": "BMB",
                "count": survivors,
                "dice": damage_dice,
                "damage": sum(damage_dice),
            }
        )
        data = self.header.data(by)
        data.update(
            {
                "target": self.target,
                "bombers": self.bombers,
                "aa": self.aa,
                "options": ["heavy-bombers"] if self.heavy else [],
                "groups": groups,
                "dice": [die for group in groups for die in group["dice"]],
                "shot_down": shot_down,
                "damage": sum(damage_dice),
            }
        )
        return data


@dataclass(frozen=True)
class RocketRoll:
    """Rockets: the one AA gun a power with Rockets designates fires once per turn at an
    enemy industrial complex within three spaces; its one die is the IPCs lost (facts sheet
    6; IAAPA Rocket Technology: "a country can only have one rocket shot per turn, never two
    or more")."""

    header: RollHeader
    target: str
    launcher: str = ""

    def record(self, by: str, draw: Draw) -> dict[str, Any]:
        """The entry's data: the rocket's die and the damage it does."""
        dice = draw(ROCKET_SHOTS)
        data = self.header.data(by)
        data.update(
            {
                "target": self.target,
                "rockets": ROCKET_SHOTS,
                "groups": [
                    {
                        "purpose": "rocket",
                        "unit": "AA",
                        "count": ROCKET_SHOTS,
                        "dice": dice,
                        "damage": sum(dice),
                    }
                ],
                "dice": dice,
                "damage": sum(dice),
            }
        )
        if self.launcher:
            data["from"] = self.launcher
        return data
