"""Rolling through a pause owed to the defender (IAAPA Default Orders of Loss).

"If the attacker rolls both attacker AND defender in these cases without pausing and
allowing the defender to declare his OOL, and if following the OOL correctly MAY have
resulted in a DIFFERENT battle outcome for the dice ACTUALLY ROLLED, the attacking rolls
shall stand, and the defender shall have the option to: accept the defending rolls as is,
applied to the units now shown, to accept the defending rolls, applying the actual rolls to
corrected units, or, to adjust the defending units to suit the correct OOL and re-roll the
affected defending rolls. If either of the last two options is taken by the defender, ANY
succeeding rolls in the battle must be completely re-rolled".

How it is read here:

- The pause is the engine's (:mod:`adjudicator.battle.pauses`): owed after a round in which
  a defending SUB, a loaded AC or TRN, or (on land) a BMB can survive. It was honoured when
  the defender sent a note through the roller (special orders, a retreat or a general note)
  between that round's roll and the next; else the next round, if it holds defending dice,
  rolled through it.
- "MAY have resulted in a DIFFERENT battle outcome for the dice ACTUALLY ROLLED": every other
  lawful choice of the defender's casualties for the paused round (and, for a sub, its
  withdrawal) is played with the dice that were rolled, the defending dice of each later
  round applied left to right to the units that choice leaves (in the order the roll listed
  them, new types after, in chart order). If any gives another outcome or other survivors
  than the battle as rolled, the defender has the rule's three options; if none does, the
  battle stands.
"""

from __future__ import annotations

import itertools
from typing import Any

from adjudicator.battle import BattleResult, PauseReason, read_battle, resolve
from adjudicator.battle.casualties import allocation_fits
from adjudicator.rulings.dice import ATTACKER, DEFENDER
from adjudicator.rulings.forces import BattleForces
from adjudicator.rulings.model import PAUSE, Die, Ruling
from adjudicator.rulings.record import GameRecord, power_named
from adjudicator.rulings.rolling import BattleReview
from adjudicator.rulings.rounds import RoundKept
from adjudicator.units import CHART_ORDER, Units, UnitType

U = UnitType
ANSWER_TOPICS = frozenset({"special-orders", "retreat", "general"})
PAUSE_OPTIONS = (
    "accept the defending rolls as is, applied to the units now shown",
    "accept the defending rolls, applying the actual rolls to corrected units; then every "
    "succeeding roll of the battle is completely re-rolled",
    "adjust the defending units to suit the correct order of loss and re-roll the affected "
    "defending rolls; then every succeeding roll of the battle is completely re-rolled",
)


def _key(result: BattleResult) -> tuple[str, dict[str, int], dict[str, int]]:
    return result.outcome.value, result.attacker.to_json(), result.defender.to_json()


def _resolve(forces: BattleForces, rounds: list[dict[str, Any]], removed: Units) -> BattleResult:
    doc = forces.document(rounds, attacker=forces.attacker.minus(removed))
    read = read_battle(doc)
    return resolve(read.setup, read.rounds)


def _choices(pool: Units, restricted: int, unrestricted: int) -> list[Units]:
    """Every lawful set of casualties of ``pool`` for these hits."""
    types = [(u, n) for u, n in pool]
    found = []
    for counts in itertools.product(*(range(n + 1) for _, n in types)):
        chosen = Units.of({u: c for (u, _), c in zip(types, counts, strict=True) if c})
        if allocation_fits(chosen, pool, restricted, unrestricted):
            found.append(chosen)
    return found


def _reassigned(kept: RoundKept, units: Units) -> dict[str, Any]:
    """The round with its defending dice, left to right, applied to ``units``."""
    doc = kept.doc()
    thrown = sorted((t for dice in kept.main[DEFENDER].values() for t in dice), key=lambda t: t.die)
    first_seen: dict[UnitType, Die] = {}
    for unit, dice in kept.main[DEFENDER].items():
        if dice:
            first_seen[unit] = min(t.die for t in dice)
    order = sorted(
        (u for u, _ in units),
        key=lambda u: (u not in first_seen, first_seen.get(u, (0, 0)), CHART_ORDER[u]),
    )
    values = [t.value for t in thrown]
    out: dict[str, list[int]] = {}
    for unit in order:
        take = values[: units.count(unit)]
        values = values[len(take) :]
        if take:
            out[unit.value] = take
    doc.pop(DEFENDER, None)
    if out:
        doc[DEFENDER] = out
    return doc


def _hits(forces: BattleForces, kept: RoundKept) -> tuple[int, int]:
    """The round's attacking hits: (restricted, by submarines; unrestricted)."""
    sub_value = forces.hits_on(ATTACKER, U.SUB)
    restricted = sum(1 for t in kept.subs if t.value <= sub_value)
    restricted += sum(1 for t in kept.main[ATTACKER].get(U.SUB, []) if t.value <= sub_value)
    unrestricted = 0
    for unit, dice in kept.main[ATTACKER].items():
        if unit is not U.SUB:
            unrestricted += sum(1 for t in dice if t.value <= forces.hits_on(ATTACKER, unit))
    unrestricted += sum(1 for t in kept.bombard if t.value <= 4)
    return restricted, unrestricted


def may_change(review: BattleReview, paused: int) -> bool:
    """Whether another lawful choice of the defender after round ``paused`` (0-based) gives
    another outcome for the dice actually rolled."""
    forces, played, removed = review.forces, review.played, review.removed
    assert forces is not None and review.result is not None
    actual = _key(review.result)
    start = _resolve(forces, [r.doc() for r in played[:paused]], removed)
    pool = start.defender if paused else forces.defender
    applied = review.result.rounds[paused].defender_casualties
    restricted, unrestricted = _hits(forces, played[paused])
    variants: list[dict[str, Any]] = [
        {"casualties": {"defender": c.to_json()}}
        for c in _choices(pool, restricted, unrestricted)
        if c != applied
    ]
    pause = review.result.rounds[paused].pause
    subs_left = pool.minus(applied).count(U.SUB)
    if pause is not None and PauseReason.SUB in pause.reasons and subs_left:
        variants.append({"withdraw": {"defender": subs_left}})
    for variant in variants:
        rounds = [r.doc() for r in played[:paused]] + [{**played[paused].doc(), **variant}]
        for later in played[paused + 1 :]:
            state = _resolve(forces, rounds, removed)
            if state.outcome.value != "continues":
                break
            rounds.append(_reassigned(later, state.defender))
        if _key(_resolve(forces, rounds, removed)) != actual:
            return True
    return False


def _answered(record: GameRecord, review: BattleReview, after: int, before: int) -> bool:
    """Whether the defender sent a note through the roller between the two rounds."""
    power = power_named(review.battle.submission["data"].get("power"))
    attacker = record.attacker_address(power) if power is not None else None
    return any(
        b["kind"] == "note"
        and after < b["seq"] < before
        and b["data"].get("topic") in ANSWER_TOPICS
        and b["data"].get("by") != attacker
        for b in record.bodies
    )


def pause_rulings(record: GameRecord, review: BattleReview) -> list[Ruling]:
    """A ruling for each round rolled through a pause owed after the round before it."""
    result, played = review.result, review.played
    if result is None or review.forces is None:
        return []
    found = []
    for k in range(min(len(played), len(result.rounds)) - 1):
        pause = result.rounds[k].pause
        nxt = played[k + 1]
        if pause is None or pause.answered or not any(nxt.main[DEFENDER].values()):
            continue
        last, first = max(played[k].seqs), min(nxt.seqs)
        if _answered(record, review, last, first):
            continue
        found.append(_ruling(review, k, pause.message(), may_change(review, k)))
    return found


def _ruling(review: BattleReview, k: int, why: str, changed: bool) -> Ruling:
    played = review.played
    nxt = played[k + 1]
    entries = ", ".join(f"#{s}" for s in nxt.seqs)
    head = (
        f"{review.battle.label}: round {k + 2} ({entries}) was rolled without the pause owed "
        f"after round {k + 1} (#{max(played[k].seqs)}): {why}"
    )
    attacking = [t.die for t in (*nxt.aa, *nxt.bombard, *nxt.subs)]
    attacking += [t.die for dice in nxt.main[ATTACKER].values() for t in dice]
    about = tuple(sorted({max(played[k].seqs), *nxt.seqs}))
    if not changed:
        return Ruling(
            about=about,
            rule=PAUSE,
            decision=head + "; following the order of loss correctly could not have changed "
            "the outcome for the dice rolled: the battle stands as rolled",
            kept=tuple(sorted(nxt.kept)),
        )
    return Ruling(
        about=about,
        rule=PAUSE,
        decision=head + "; following the order of loss correctly may have changed the outcome "
        "for the dice rolled: the attacking rolls stand and the defender chooses",
        kept=tuple(sorted(attacking)),
        options=PAUSE_OPTIONS,
    )
