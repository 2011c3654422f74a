"""Battle results as version-1 JSON values (integers, strings, lists, objects, null only:
flags are 0 or 1, as in the league's ledger)."""

from __future__ import annotations

from adjudicator.battle.order import TurnCombat
from adjudicator.battle.reading import VERSION
from adjudicator.battle.result import BattleResult, Pause, RoundResult
from adjudicator.diagnostics import Diagnostic

JsonObject = dict[str, object]


def diagnostic_to_json(diagnostic: Diagnostic) -> JsonObject:
    """A battle finding as the version-1 output prints it: ``{"round", "severity", "rule",
    "message"}``, the rule as its citation.

    The battle format predates the shared :class:`~adjudicator.diagnostics.Diagnostic` and
    keeps its four keys: a battle finding has a round, never an email line, and cites one
    rule with no suggestion or code, so nothing else would be said (the notation's report
    writes the same diagnostics its own way, :mod:`adjudicator.notation.jsonreport`).
    """
    return {
        "round": diagnostic.round,
        "severity": diagnostic.severity.value,
        "rule": diagnostic.rule.citation,
        "message": diagnostic.message,
    }


def _pause(pause: Pause | None) -> JsonObject | None:
    if pause is None:
        return None
    return {
        "reason": pause.reason.value,
        "reasons": [r.value for r in pause.reasons],
        "answered": int(pause.answered),
        "message": pause.message(),
    }


def round_to_json(r: RoundResult) -> JsonObject:
    """One round: hits, casualties, withdrawals, pause."""
    return {
        "round": r.number,
        "attacker_hits": r.attacker_hits,
        "defender_hits": r.defender_hits,
        "aa_hits": r.aa_hits,
        "bombard_hits": r.bombard_hits,
        "first_strike_hits": r.first_strike_hits,
        "attacker_casualties": r.attacker_casualties.to_json(),
        "defender_casualties": r.defender_casualties.to_json(),
        "withdrawn": {
            "attacker": r.attacker_withdrawn.to_json(),
            "defender": r.defender_withdrawn.to_json(),
        },
        "pause": _pause(r.pause),
    }


def battle_to_json(result: BattleResult, name: str = "") -> JsonObject:
    """A battle result as the version-1 output object."""
    setup = result.setup
    doc: JsonObject = {"version": VERSION}
    if name:
        doc["name"] = name
    doc.update(
        {
            "kind": setup.battlefield.value,
            "amphibious": int(setup.amphibious),
            "start": {"attacker": setup.attacker.to_json(), "defender": setup.defender.to_json()},
            "rounds": [round_to_json(r) for r in result.rounds],
            "survivors": {
                "attacker": result.attacker.to_json(),
                "defender": result.defender.to_json(),
            },
            "outcome": result.outcome.value,
            "retreat_allowed": int(result.retreat_allowed),
            "captured": int(result.captured),
            "final": int(result.final),
            "diagnostics": [diagnostic_to_json(d) for d in result.diagnostics],
        }
    )
    return doc


def turn_to_json(turn: TurnCombat) -> JsonObject:
    """The battles of a turn, each closed, with the order-of-battles findings."""
    battles = []
    for battle, closure in zip(turn.battles, turn.closures, strict=True):
        doc = battle_to_json(battle.result, battle.name)
        del doc["version"]
        doc["closed"] = closure.value
        battles.append(doc)
    notes = [{"battle": number, **diagnostic_to_json(d)} for number, d in turn.diagnostics]
    return {"version": VERSION, "battles": battles, "diagnostics": notes}
