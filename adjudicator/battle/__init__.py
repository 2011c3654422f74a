"""Battle resolution from the dice actually thrown (IAAPA Declaration and Battle Resolution
Procedures), with pauses, orders of loss and rolling-error diagnostics.

The engine is pure: dice are arguments. :func:`resolve` works on :class:`BattleSetup` and
:class:`RoundInput` values; :func:`resolve_json` reads and writes the JSON documents below
(what ``pbem battle resolve FILE [--json]`` takes and prints), :func:`render_text` the human
form of its output.

Input, version 1 (keys not listed are rejected; UNIT is INF, ARM, FTR, BMB, TRN, SUB, AC,
BB or AA (IC allowed on defence), in any case, TNK/CV/SS accepted; TECH a technology as
:func:`adjudicator.names.technology_names` reads it; flags are 0 or 1)::

    {"version": 1,
     "kind": "land" | "sea",
     "amphibious": 0 | 1,               # land: a transport unloaded INF/ARM into the battle
                                        #   (no retreat; the attacker's BB give support shots)
     "attacker": {UNIT: count}, "defender": {UNIT: count},
     "order_of_loss": {"attacker": [UNIT...], "defender": [UNIT...]},  # optional; else the
                                        #   IAAPA default; units left out are lost last
     "loaded": {"AC": fighters aboard, "TRN": units aboard},  # optional, the defender's;
                                        #   AC defaults to every defending FTR that fits
     "technologies": {"attacker": [TECH...], "defender": [TECH...]},  # optional:
                                        #   "Heavy Bombers", "SUPER_SUBS", "Jets", ...
     "no_retreat": 0 | 1,               # optional: the attackers cannot retreat
     "name": "Attack #1 - W Europe",    # optional label
     "rounds": [                        # in the order rolled; may be empty
       {"aa": [dice],                   # round 1, land: one per attacking aircraft, in
                                        #   any order; each 1 removes an aircraft the
                                        #   attacker's order of loss picks (FTR before BMB
                                        #   by default), whose main dice then do not count
        "bombard": [dice],              # round 1, amphibious: one per support BB
        "subs": [dice],                 # attacking subs rolled first (their choice)
        "attacker": {UNIT: [dice]},     # the main roll (heavy bombers: 3 dice each)
        "defender": {UNIT: [dice]},
        "casualties": {"subs": {UNIT: n}, "defender": {UNIT: n}, "attacker": {UNIT: n}},
                                        # optional: losses a player named for the round
                                        #   (the defender's answer to a pause)
        "withdraw": {"attacker": n, "defender": n},  # optional: subs withdrawing after it
        "retreat": 0 | 1,               # optional: the attacker retreats after the round
        "low_luck": [{"side": "attacker" | "defender",   # a round thrown by Low Luck, in
                      "fire": "aa" | "bombard" | "first-strike" | "subs" | "units",
                      "power": n, "hits": n}]}]}          #   place of every dice key above

Several battles of one turn, in the order rolled: ``{"version": 1, "battles": [battle...]}``
where each battle is the object above (its ``version`` may be left out) and may carry
``"retreat_declared": 0 | 1`` (a retreat location was noted before the next battle).

Output, version 1::

    {"version": 1, "kind", "amphibious", "start": {"attacker": {..}, "defender": {..}},
     "rounds": [{"round", "attacker_hits", "defender_hits", "aa_hits", "bombard_hits",
                 "first_strike_hits", "attacker_casualties": {UNIT: n},
                 "defender_casualties": {UNIT: n},
                 "withdrawn": {"attacker": {..}, "defender": {..}},
                 "pause": null | {"reason", "reasons", "answered", "message"}}],
     "survivors": {"attacker": {UNIT: n}, "defender": {UNIT: n}},
     "outcome": "attacker-wins" | "defender-wins" | "both-destroyed" | "continues"
                | "attacker-retreats",
     "retreat_allowed": 0 | 1, "captured": 0 | 1, "final": 0 | 1,
     "diagnostics": [{"round": n | null, "severity": "error" | "warning" | "info",
                      "rule": "<citation>", "message"}]}

A turn's output is ``{"version": 1, "battles": [output + "closed"], "diagnostics": [...]}``
with ``"battle": n`` in each diagnostic. ``attacker_hits`` counts every hit the attacker
scored in the round (first strike, support shots, main roll), ``defender_hits`` every hit of
the defender (AA shots and main roll); hits no unit could take are counted but take nothing.
``pause.reason`` is the first of ``reasons`` ("sub", "loaded-carrier", "loaded-transport",
"bomber"), ``answered`` 1 when the round records the defender's named casualties.
``captured`` is 1 when a land battle is won with a land unit left (planes never capture).
Survivors and casualties count units that fight:
AA guns, complexes and support battleships appear only in ``start``; ``attacker_casualties``
include the aircraft the AA shots removed. ``final`` is 0 when an error diagnostic makes the
result provisional (dice set aside, rounds to re-roll).

A battle recorded on the dice server is read from its ledger entries by
:func:`adjudicator.rolls.replay`, which builds this document and resolves it.

Malformed input raises a :class:`~adjudicator.battle.errors.BattleInputError` (a
``ValueError``) whose ``field`` names the JSON path; dice that do not fit the forces never
raise: they are set aside and reported.

Each side's units are counted as :class:`adjudicator.units.Units` and every finding is an
:class:`adjudicator.diagnostics.Diagnostic` placed by its ``round`` and citing the one
:class:`~adjudicator.diagnostics.Rule` registry, as the notation and the declaration checks
report theirs; ``Units``, ``Diagnostic``, ``Rule`` and ``Severity`` are re-exported here (the
same objects) because a :class:`BattleSetup` and a :class:`BattleResult` are made of them.
The ``diagnostics`` entries of the output are written by
:func:`adjudicator.battle.writing.diagnostic_to_json`.
"""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.battle.engine import resolve
from adjudicator.battle.errors import BattleInputError, UnknownField, WrongType
from adjudicator.battle.order import Closure, TurnBattle, TurnCombat, order_of_battles
from adjudicator.battle.reading import (
    RULESET,
    BattleDocument,
    check_version,
    read_battle,
    ruleset_of,
)
from adjudicator.battle.render import render_text
from adjudicator.battle.result import BattleResult, Outcome, Pause, PauseReason, RoundResult
from adjudicator.battle.setup import BattleSetup, CasualtyChoice, RoundInput
from adjudicator.battle.writing import battle_to_json, turn_to_json
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.units import Units

__all__ = [
    "BattleDocument",
    "BattleInputError",
    "BattleResult",
    "BattleSetup",
    "CasualtyChoice",
    "Closure",
    "Diagnostic",
    "Outcome",
    "Pause",
    "PauseReason",
    "RoundInput",
    "RoundResult",
    "Rule",
    "Severity",
    "TurnBattle",
    "TurnCombat",
    "Units",
    "order_of_battles",
    "read_battle",
    "render_text",
    "resolve",
    "resolve_json",
]


def resolve_json(doc: Mapping[str, object]) -> dict[str, object]:
    """Resolve a version-1 battle document (or a turn's ``battles``) to its output object.

    Raises a :class:`BattleInputError` naming the field when the document is malformed.
    """
    if not isinstance(doc, Mapping):
        raise WrongType("(document)", f"expected an object, got {type(doc).__name__}")
    if "battles" not in doc:
        if ruleset_of(doc) == RULESET:
            from adjudicator.bigworld.resolve import resolve_big_world

            return resolve_big_world(doc)
        read = read_battle(doc)
        return battle_to_json(resolve(read.setup, read.rounds), read.name)
    check_version(doc)
    extra = sorted(set(doc) - {"version", "battles"})
    if extra:
        raise UnknownField(extra[0], "a turn document holds only version and battles")
    battles = doc["battles"]
    if not isinstance(battles, list):
        raise WrongType("battles", f"expected a list, got {type(battles).__name__}")
    fought = []
    for i, item in enumerate(battles):
        try:
            read = read_battle(item, versioned=False)
        except BattleInputError as exc:
            raise type(exc)(f"battles[{i}].{exc.field}", exc.problem) from exc
        fought.append(
            TurnBattle(resolve(read.setup, read.rounds), read.name, read.retreat_declared)
        )
    return turn_to_json(order_of_battles(fought))
