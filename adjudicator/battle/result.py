"""What a battle came to: round by round casualties, pauses, survivors and the outcome."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from adjudicator.battle.setup import BattleSetup
from adjudicator.diagnostics import Diagnostic, Severity
from adjudicator.units import NO_UNITS, Units, UnitType

U = UnitType


class Outcome(Enum):
    """Where the battle stands after the rounds rolled so far."""

    ATTACKER_WINS = "attacker-wins"
    """Every defending unit that can be a casualty is gone and attackers survive (a land
    territory is captured only if a surviving attacker is a land unit: see ``captured``)."""
    DEFENDER_WINS = "defender-wins"
    """Every attacking unit is gone and defenders survive."""
    BOTH_DESTROYED = "both-destroyed"
    """Nothing survives on either side; the defender keeps the territory (facts sheet 1)."""
    CONTINUES = "continues"
    """Both sides have units: the attacker rolls another round or retreats."""
    ATTACKER_RETREATS = "attacker-retreats"
    """The attacker retreated (or its last submarines withdrew) after the last round."""


def captures(setup: BattleSetup, outcome: Outcome, attackers_left: Units) -> bool:
    """Whether the battle takes the territory: a land battle the attacker won with a land
    unit left (planes alone never capture, facts sheet section 8; a sea zone is never
    captured)."""
    return (
        setup.is_land
        and outcome is Outcome.ATTACKER_WINS
        and bool(attackers_left.only(U.INF, U.ARM))
    )


class PauseReason(Enum):
    """Why the attacker MUST stop for the defender's casualties (IAAPA Default Orders of
    Loss, exceptions), in the order the rule names them."""

    SUB = "sub"
    """"a naval battle has a defending SUB ... [that] can survive the particular round";
    "If the defending SUB survives then the defender will indicate the sea zone to which it
    will withdraw"."""
    LOADED_CARRIER = "loaded-carrier"
    """A defending "AC loaded with aircraft" can survive the round."""
    LOADED_TRANSPORT = "loaded-transport"
    """A defending loaded TRN can survive the round."""
    BOMBER = "bomber"
    """"a land battle has a defending BMB, and it can survive the particular round\""""


@dataclass(frozen=True)
class Pause:
    """A round after which the attacker must ask the defender to identify casualties (and
    name a withdrawal zone for a surviving sub) before rolling anything more."""

    reasons: tuple[PauseReason, ...]
    hits: int
    """The attacking hits of the round the defender allocates."""
    answered: bool
    """Whether the defender's casualty choice for the round is recorded."""

    @property
    def reason(self) -> PauseReason:
        """The first reason, in the rule's order."""
        return self.reasons[0]

    def message(self) -> str:
        """What the attacker must do, in a player's words."""
        units = {
            PauseReason.SUB: "a defending SUB",
            PauseReason.LOADED_CARRIER: "an AC loaded with aircraft",
            PauseReason.LOADED_TRANSPORT: "a loaded TRN",
            PauseReason.BOMBER: "a defending BMB",
        }
        what = " / ".join(units[r] for r in self.reasons)
        if self.hits == 0:
            return (
                f"no hits, but {what} survives: the defender names its withdrawal "
                "zone before the next round"
            )
        return (
            f"{what} can survive {self.hits} hit{'s' * (self.hits != 1)}: the defender "
            "identifies the casualties before the attacker rolls again"
        )


@dataclass(frozen=True)
class RoundResult:
    """One round: hits scored, casualties removed, submarines withdrawn, and any pause.

    ``attacker_hits`` counts every hit the attacker scored in the round (first strike,
    support shots and the main roll); ``defender_hits`` every hit the defender scored (AA
    shots and the main roll), whether or not a unit was left to take it.
    ``aa_casualties`` are the aircraft the AA hits removed (part of ``attacker_casualties``)
    and ``void`` the battle dice thrown for them in the same roll, per type, which do not
    count (what a player reading the roll must set aside).
    """

    number: int
    attacker_hits: int
    defender_hits: int
    attacker_casualties: Units
    defender_casualties: Units
    aa_hits: int = 0
    bombard_hits: int = 0
    first_strike_hits: int = 0
    attacker_withdrawn: Units = NO_UNITS
    defender_withdrawn: Units = NO_UNITS
    pause: Pause | None = None
    aa_casualties: Units = NO_UNITS
    void: tuple[tuple[UnitType, tuple[int, ...]], ...] = ()


@dataclass(frozen=True)
class BattleResult:
    """A battle resolved from its dice: every round, the survivors and where it stands.

    ``retreat_allowed`` says whether the attacker may retreat now: the battle continues, at
    least one round was fought, and no rule forbids it (amphibious assault, no retreat).
    ``captured`` is true when the attacker wins a land battle with a land unit left
    (:func:`captures`: planes alone never capture, facts sheet section 8). Survivors and
    casualties count only units that fight: AA guns, complexes and support battleships are
    outside both.
    """

    setup: BattleSetup
    rounds: tuple[RoundResult, ...]
    attacker: Units
    defender: Units
    outcome: Outcome
    retreat_allowed: bool
    captured: bool
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def final(self) -> bool:
        """True when no diagnostic of severity ERROR makes the result provisional."""
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def pauses(self) -> tuple[RoundResult, ...]:
        """The rounds after which the attacker had to pause."""
        return tuple(r for r in self.rounds if r.pause is not None)

    def casualties(self, attacker: bool) -> Units:
        """Every casualty of one side over all rounds."""
        total = Units()
        for r in self.rounds:
            total = total.plus(r.attacker_casualties if attacker else r.defender_casualties)
        return total

    def withdrawn(self, attacker: bool) -> Units:
        """Every submarine one side withdrew over all rounds."""
        total = Units()
        for r in self.rounds:
            total = total.plus(r.attacker_withdrawn if attacker else r.defender_withdrawn)
        return total
