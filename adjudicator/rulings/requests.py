"""What a round still lacks, asked for as the dice server takes it: a roll request body for
each (IAAPA Error Correction III: "roll for the missing shots", "simply roll for the missing
shot", "simply roll for the missing units"), with what the ruling says of it.

Each request is one the roller throws exactly as needed: a forgotten AA gun's shots in
``defenders-only`` mode (the aircraft listed as their targets), forgotten support shots as
the battleship alone, missing units in one roll (``defenders-only`` when only defenders are
missing), and missing first-strike shots with ``subs-first`` (only the attacking
submarines), so that the make-up reads as the round's first strike, not an ordinary attack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.rulings.dice import ATTACKER, DEFENDER
from adjudicator.rulings.forces import BattleForces
from adjudicator.rulings.makeups import missing_listing
from adjudicator.rulings.model import AA_GUNS, BB_SUPPORT
from adjudicator.rulings.rounds import RoundCheck


def request(
    forces: BattleForces,
    number: int,
    attacker: list[dict[str, Any]],
    defender: list[dict[str, Any]],
    comment: str,
    options: Sequence[str] = (),
) -> dict[str, Any]:
    """A battle roll request body, as ``POST /api/v1/games/<n>/rolls`` takes it."""
    data = forces.battle.submission["data"]
    chosen = set(options)
    if attacker:
        chosen |= set(forces.options(ATTACKER))
    if defender:
        chosen |= set(forces.options(DEFENDER))
    return {
        "round": number,
        "turn": int(data["round"]),
        "country": str(data["power"]),
        "battle": forces.battle.territory,
        "attacker": attacker,
        "defender": defender,
        "options": sorted(chosen),
        "comment": comment,
    }


def still_to_roll(
    forces: BattleForces, check: RoundCheck, number: int
) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """The requests for what round ``number`` lacks, the ruling's words on them, and the
    cases they add to its citation."""
    to_roll: list[dict[str, Any]] = []
    texts: list[str] = []
    rules: list[str] = []
    if check.missing_aa:
        listing = missing_listing(check.missing_aa)
        shots = sum(check.missing_aa.values())
        to_roll.append(
            request(
                forces,
                number,
                listing,
                [{"unit": "AA", "count": 1}],
                f"the {shots} AA shot(s) forgotten in round {number} (Error Correction III)",
                ["defenders-only"],
            )
        )
        texts.append(
            f"AA gun forgotten ({shots} shot(s) not rolled): roll them; if one hits, the "
            f"last aircraft (and its die) is removed, right to left, and the battle is "
            f"re-rolled from round {number + 1}; if all miss, the original battle stands"
        )
        rules.append(AA_GUNS)
    if check.missing_support:
        n = check.missing_support
        to_roll.append(
            request(
                forces,
                number,
                [{"unit": "BB", "count": n}],
                [],
                f"the {n} support shot(s) forgotten in round {number} (Error Correction III)",
            )
        )
        texts.append(
            f"{n} support shot(s) forgotten: roll them; if one hits, take the extra defending "
            f"casualty and re-roll the battle from round {number + 1}; if all miss, the "
            "original battle stands"
        )
        rules.append(BB_SUPPORT)
    if check.missing_units:
        attacker = missing_listing(check.missing_units.get(ATTACKER, {}))
        defender = missing_listing(check.missing_units.get(DEFENDER, {}))
        options = [] if attacker else ["defenders-only"]
        to_roll.append(
            request(
                forces,
                number,
                attacker,
                defender,
                f"the units missing from round {number} (Error Correction III)",
                options,
            )
        )
    if check.missing_first:
        n = check.missing_first
        to_roll.append(
            request(
                forces,
                number,
                [{"unit": "SUB", "count": n}],
                [],
                f"the {n} first-strike shot(s) missing from round {number} (Error Correction III)",
                ["subs-first"],
            )
        )
        texts.append(
            f"roll the {n} missing first-strike shot(s) alone, with the roller's subs-first "
            f"option (only the attacking submarines): they are round {number}'s first "
            "strike, read with the shots already rolled, not a new round"
        )
    return to_roll, texts, rules
