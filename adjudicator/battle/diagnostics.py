"""What the engine reports about a battle's dice and orders, citing the rule that applies.

A diagnostic never changes silently what the dice say: dice that do not fit the forces are
set aside and reported, with the league's remedy (IAAPA Error Correction III: "Valid dice
rolls will be preserved as much as possible ... In all cases, unaffected rolls will stand").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Severity(Enum):
    """How much a diagnostic matters to the result."""

    ERROR = "error"
    """The result is not final: dice were set aside or are missing, or a rule was broken;
    the message says what to roll or re-roll."""
    WARNING = "warning"
    """The result stands as computed, but a player has a right or the Minister of Law a
    discretion the engine cannot exercise (a skipped pause, an undeclared retreat)."""
    INFO = "info"
    """Worth knowing, changes nothing (hits that found no target a submarine may hit)."""


class Rule(Enum):
    """The rule a diagnostic applies; the value is its citation in the league's rule book."""

    DICE_FACES = "Battle dice show 1 to 6"
    """A die outside 1..6 cannot have come from the dice server."""
    SUB_FIRST_STRIKE = "IAAPA Using the Dice Server: attacking subs"
    """"If a naval battle has an attacking sub, the attacker MAY ... roll for the sub first.\""""
    SUBS_HIT_SHIPS = "Combat sequence: subs hit only ships"
    """Submarines never hit aircraft (facts sheet section 1)."""
    DEFAULT_OOL = "IAAPA Default Orders of Loss"
    """"A player may designate any order of loss that he desires for his casualties.\""""
    PAUSE = "IAAPA Default Orders of Loss: exceptions"
    """The attacker MUST pause for the defender's casualties (SUB, loaded AC or TRN, BMB)."""
    ORDER_OF_BATTLES = "IAAPA Combat Resolution and Order of Battles"
    """Each battle is resolved completely before the next begins."""
    BATTLE_OVER = "Combat sequence: a battle ends when a side is gone or retreats"
    """No round is fought after one side is destroyed or the attacker has retreated."""
    AMPHIBIOUS = "IAAPA Rules Clarifications: Amphibious Assaults"
    """No retreat once a transport has unloaded into the battle; support shots in round 1."""
    RETREATS = "IAAPA Rules Clarifications: Retreats"
    """Land and naval retreats are declared before the next battle is rolled."""
    SUB_WITHDRAWAL = "IAAPA Rules Clarifications: Sub Withdrawal"
    """Submarines may withdraw at the end of a round."""
    AA_GUNS = "IAAPA Error Correction III: AA Guns"
    """Ghost and forgotten AA shots."""
    BB_SUPPORT = "IAAPA Error Correction III: BB Support Shots"
    """Ghost and forgotten battleship support shots."""
    TOO_FEW_UNITS = "IAAPA Error Correction III: Too few units"
    """"Roll for the missing units and then re-roll the remainder of the battle.\""""
    TOO_MANY_UNITS = "IAAPA Error Correction III: Too many units"
    """"Take the correct number of dice" from the left, then re-roll from the next round."""
    WRONG_UNITS = "IAAPA Error Correction III: Wrong Units"
    """"If a player enters the wrong type of unit then its roll will be ignored.\""""

    @property
    def citation(self) -> str:
        """The rule as the league cites it."""
        return self.value


@dataclass(frozen=True)
class Diagnostic:
    """One finding about a battle: where (round; ``None`` for the battle as a whole), how
    much it matters, the rule, and a message a player can act on."""

    round: int | None
    severity: Severity
    rule: Rule
    message: str

    def to_json(self) -> dict[str, object]:
        """``{"round", "severity", "rule", "message"}`` with the rule's citation."""
        return {
            "round": self.round,
            "severity": self.severity.value,
            "rule": self.rule.citation,
            "message": self.message,
        }


def error(round_: int | None, rule: Rule, message: str) -> Diagnostic:
    """A diagnostic of severity ERROR."""
    return Diagnostic(round_, Severity.ERROR, rule, message)


def warning(round_: int | None, rule: Rule, message: str) -> Diagnostic:
    """A diagnostic of severity WARNING."""
    return Diagnostic(round_, Severity.WARNING, rule, message)


def info(round_: int | None, rule: Rule, message: str) -> Diagnostic:
    """A diagnostic of severity INFO."""
    return Diagnostic(round_, Severity.INFO, rule, message)
