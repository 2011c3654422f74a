"""The current turn's declared battles as the pages show them: what was declared, what the
ledger's dice leave of each side (:func:`dice_server.services.battles.current_battles`), and
the battle roller's fields for a battle's next round, so that a member rolls what the engine
expects (the declaration in the first round, the survivors after it: IAAPA Error Correction
III)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.units import UnitType
from dice_server.models import Member
from dice_server.services import ServiceContext
from dice_server.services.battles import current_battles
from dice_server.services.turns import TurnState


def counted(units: Any) -> dict[str, int]:
    """A count of units in chart order, the empty ones dropped."""
    given = dict(units or {})
    return {u.value: int(given[u.value]) for u in UnitType if given.get(u.value)}


OUTCOMES = {
    "attacker-wins": "the attacker wins",
    "defender-wins": "the defender wins",
    "both-destroyed": "both sides destroyed (the defender keeps the territory)",
    "attacker-retreats": "the attacker retreated",
    "continues": "both sides have units left",
}


@dataclass(frozen=True)
class BattleState:
    """A declared battle of the current turn and where its rolls leave it."""

    number: int
    territory: str
    status: str
    """``declared``, ``in-progress``, ``must-pause``, ``decided``, ``error`` or ``void``."""
    declared: dict[str, dict[str, int]]
    rolls: list[int]
    rounds: int
    outcome: str | None
    survivors: dict[str, dict[str, int]] | None
    note: str | None
    """The pause owed to the defender, or why the rolls cannot be read as one battle."""
    void_rolls: tuple[int, ...] = ()
    """Its rolls a combat declaration error voids (they do not count)."""
    next_roll: dict[str, dict[str, int]] | None = None
    """The units its next roll rolls (:func:`dice_server.services.battles.next_roll`)."""
    void_claims: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Its rolls a void-claim note names, with the notes (the engine still counts them
    until a ruling says otherwise)."""

    @property
    def open(self) -> bool:
        """Another round may be rolled (a void battle's once the error is recognised)."""
        return self.status in ("declared", "in-progress", "must-pause", "void")

    @property
    def rolling(self) -> dict[str, dict[str, int]]:
        """The units the next round rolls: what the service expects of it, else the
        survivors once rolled, else the declaration (never the industrial complex, which
        does not fight)."""
        units = self.next_roll or (self.survivors if self.survivors is not None else self.declared)
        return {side: {u: n for u, n in units[side].items() if u != "IC"} for side in units}

    def form_data(self, turn: TurnState) -> dict[str, Any]:
        """The battle roller's fields for the next round of this battle."""
        data: dict[str, Any] = {
            "battle": self.territory,
            "round": self.rounds + 1,
            **turn.roller_fields(),
        }
        for side, units in self.rolling.items():
            data.update({f"{side}_{unit}": count for unit, count in units.items()})
        return data


def battle_state(battle: dict[str, Any]) -> BattleState:
    """A battle as :func:`~dice_server.services.battles.current_battles` gives it."""
    result = battle.get("result")
    declared = {s: counted(battle["declared"].get(s)) for s in ("attacker", "defender")}
    rounds, outcome, survivors, note = 0, None, None, None
    if isinstance(result, dict) and "error" in result:
        note = f"the rolls cannot be read as one battle: {result['error']}"
    elif isinstance(result, dict):
        played = result.get("rounds") or []
        rounds = len(played)
        outcome = OUTCOMES.get(str(result.get("outcome")), str(result.get("outcome")))
        left = result.get("survivors") or {}
        survivors = {s: counted(left.get(s)) for s in ("attacker", "defender")}
        pause = played[-1].get("pause") if played else None
        if pause and not pause.get("answered"):
            note = str(pause.get("message") or pause.get("reason"))
    void = tuple(int(seq) for seq in battle.get("void_rolls", []))
    if battle["status"] == "void":
        note = (
            f"void: a combat declaration error, and its rolls ({_seqs(void)}) do not count; to "
            "fight it again, send an error-recognition note, then roll it with the correct units"
        )
    elif void and note is None:
        note = f"fought again after a combat declaration error: rolls {_seqs(void)} do not count"
    return BattleState(
        number=int(battle["number"]),
        territory=str(battle.get("territory") or "(a place not read)"),
        status=str(battle["status"]),
        declared=declared,
        rolls=[int(seq) for seq in battle.get("rolls", [])],
        rounds=rounds,
        outcome=outcome,
        survivors=survivors,
        note=note,
        void_rolls=void,
        next_roll=_next(battle.get("next_roll")),
    )


def _next(units: Any) -> dict[str, dict[str, int]] | None:
    if not isinstance(units, dict):
        return None
    return {s: counted(units.get(s)) for s in ("attacker", "defender")}


def _seqs(seqs: tuple[int, ...]) -> str:
    return ", ".join(f"#{seq}" for seq in seqs)


def battle_states(ctx: ServiceContext, number: int, viewer: Member) -> list[BattleState]:
    """The current turn's declared battles of game ``number``, in declaration order."""
    return [battle_state(b) for b in current_battles(ctx, number, viewer)]
