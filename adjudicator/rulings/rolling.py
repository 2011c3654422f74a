"""A declared battle's rolls, round by round, against the forces it should be rolled with:
a ruling for each round whose dice break a case of IAAPA Error Correction III.

The battle is played in the rules engine (:func:`adjudicator.battle.resolve`) with the dice
that stand, so each round is weighed against the survivors of the rounds before it. When a
case re-rolls "the remainder of the battle beginning with the next round", the rolls made
after the erroneous one were made on the wrong counts and are dropped, up to the point the
correction begins: the roll of the missing units (a roll of exactly what the ruling says to
roll), or an ``error-recognition`` note sent through the roller (IAAPA Error Correction VII:
"all communications regarding error recognition occur through the dice roller"); the rolls
after it are the battle re-rolled, and are weighed in turn.

"If only the defending territory is listed: The listed defending units that are rolled on the
first roll must be 100% correct. If this information is incorrect, it is considered a rolling
error" (Error Correction II): the first round's defenders are weighed against the board like
any other units, and the ruling says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.battle import BattleInputError, BattleResult, Outcome, read_battle, resolve
from adjudicator.rulings.dice import (
    ATTACKER,
    DEFENDER,
    NotADiceEntry,
    main_sides_of,
    read_dice,
    take_round,
)
from adjudicator.rulings.forces import BattleForces, battle_forces
from adjudicator.rulings.makeups import absorb, make_up_kind
from adjudicator.rulings.model import (
    CDE_TERRITORY_ONLY,
    TOO_FEW,
    TOO_MANY,
    WRONG_UNITS,
    Die,
    Ruling,
    join_rules,
)
from adjudicator.rulings.record import Body, DeclaredBattle, GameRecord, LedgerTurn, orders_in_force
from adjudicator.rulings.refights import rule_added_units
from adjudicator.rulings.requests import still_to_roll
from adjudicator.rulings.rounds import (
    RoundCheck,
    RoundKept,
    check_round,
    firing_units,
    relabel_wrong_units,
    rolled_units,
)
from adjudicator.units import NO_UNITS, Side, Units, UnitType

U = UnitType


@dataclass(frozen=True)
class Correctable:
    """A ruling on an error Error Correction VII times: the erroneous entry, and the entry
    that began its correction (None: not corrected)."""

    ruling: Ruling
    error_seq: int
    corrected_seq: int | None
    needs_rolls: bool = False
    """The correction is a roll (else the ruling's own reading of the dice corrects it)."""


@dataclass(frozen=True)
class ReviewTerms:
    """How a battle's rolls are weighed when the declaration alone does not say it.

    ``declared``: a battle re-fought after a CDE, weighed against the correct units; these
    are the units the void declaration listed, and rolling more of a type than it listed
    is adding units ("He may not add additional attacking units to the battle", Error
    Correction II). ``first_round_as_declared``: no pre-combat turn was recorded, so the
    forces are the first round's own; only what the dice alone show is ruled. ``preface``
    opens every ruling's decision."""

    preface: str = ""
    declared: Units | None = None
    first_round_as_declared: bool = False


NO_TERMS = ReviewTerms()


@dataclass
class BattleReview:
    """A declared battle weighed round by round."""

    battle: DeclaredBattle
    forces: BattleForces | None = None
    rulings: list[Correctable] = field(default_factory=list)
    played: list[RoundKept] = field(default_factory=list)
    removed: Units = NO_UNITS
    result: BattleResult | None = None


def play(forces: BattleForces, played: Sequence[RoundKept], removed: Units) -> BattleResult:
    """The battle played in the engine with the dice that stand."""
    doc = forces.document([r.doc() for r in played], attacker=forces.attacker.minus(removed))
    read = read_battle(doc)
    return resolve(read.setup, read.rounds)


def _recognised_after(record: GameRecord, seq: int, before: int | None) -> Body | None:
    """The first error-recognition note after entry ``seq`` (and before ``before``)."""
    for body in record.bodies:
        if body["seq"] <= seq or (before is not None and body["seq"] >= before):
            continue
        if body["kind"] == "note" and body["data"].get("topic") == "error-recognition":
            return body
    return None


class _Review:
    """The state of one battle's review while its rounds are weighed."""

    def __init__(
        self,
        record: GameRecord,
        turn: LedgerTurn,
        battle: DeclaredBattle,
        terms: ReviewTerms,
        forces: BattleForces | None,
    ) -> None:
        self.record = record
        self.battle = battle
        self.terms = terms
        self.out = BattleReview(battle)
        self.rolls = [read_dice(b) for b in battle.rolls]
        if forces is None:
            power = record.attacker_address(turn.power)
            first = self.rolls[0].seq if self.rolls else None
            orders = orders_in_force(
                battle.submission, record.bodies, power, battle.number, battle.territory, first
            )
            forces = battle_forces(battle, turn.start, orders)
        self.forces = forces
        self.out.forces = self.forces
        self.order = read_battle(self.forces.document([])).setup.order(Side.ATTACKER)
        self.waiting: list[int] = []
        self.turn_end = int(turn.postcombat["seq"]) if turn.postcombat is not None else None

    def run(self) -> BattleReview:
        forces, rolls = self.forces, self.rolls
        attackers, defenders = forces.attacker, forces.defender
        pool = (attackers, defenders)
        skip: set[int] = set()
        i, number = 0, 1
        while i < len(rolls):
            if i in skip:
                i += 1
                continue
            taken = take_round(rolls, i)
            nxt = i + len(taken)
            struck = any(r.subs_first for r in taken)
            needs = {
                side
                for side, units in ((ATTACKER, attackers), (DEFENDER, defenders))
                if any(
                    forces.dice_per_unit(side, u)
                    for u, _ in units
                    if not (struck and side == ATTACKER and u is U.SUB)
                )
            }
            if needs - main_sides_of(taken) and nxt >= len(rolls):
                break  # one side rolled, the other not yet: the round is not over
            check = check_round(forces, number, attackers, defenders, taken, self.order)
            now = (attackers, defenders)
            if self.terms.first_round_as_declared and not self._decidable(check, number, now, pool):
                break  # the dice alone cannot show an error: nothing more is ruled
            pool = (attackers, defenders)
            made = self._make_ups(check, nxt, skip)
            if number == 1 and self.terms.declared is not None:
                rule_added_units(check, self.terms.declared, forces)
            relabel_wrong_units(check)
            goes_on = True
            if not check.missing:
                self.out.played.append(check.kept)
                result = play(forces, self.out.played, self.out.removed)
                attackers, defenders = result.attacker, result.defender
                goes_on = result.outcome is Outcome.CONTINUES
            if not check.problems and not check.missing:
                if not goes_on:
                    break
                i, number = nxt, number + 1
                continue
            rest = [k for k in range(nxt, len(rolls)) if k not in skip]
            reroll = any(p.reroll for p in check.problems) or check.units_short
            if check.missing:  # still to roll: nothing after it can stand yet
                pending = not check.units_short
                self.waiting = [rolls[k].seq for k in rest] if pending else []
                self._rule(check, number, [] if pending else rest, None, None, pending)
                break
            if not reroll:
                self._rule(check, number, [], None, None, False)
                if not goes_on:
                    break
                i, number = nxt, number + 1
                continue
            resume: Body | None = None
            if not goes_on:
                later, i = rest, len(rolls)
            elif made:
                later = [k for k in rest if k < max(made)]
                i = max(made) + 1
            else:
                resume = _recognised_after(self.record, rolls[nxt - 1].seq, self.turn_end)
                cut = resume["seq"] if resume is not None else None
                later = [k for k in rest if cut is None or rolls[k].seq < cut]
                i = next((k for k in rest if cut is not None and rolls[k].seq > cut), len(rolls))
            resumed = rolls[i].seq if i < len(rolls) else None
            corrected = min([rolls[m].seq for m in made], default=None) or resumed
            self._rule(check, number, later, resume, corrected, False, goes_on=goes_on)
            number += 1
        if self.out.played:
            self.out.result = play(forces, self.out.played, self.out.removed)
        return self.out

    def _decidable(
        self,
        check: RoundCheck,
        number: int,
        now: tuple[Units, Units],
        before: tuple[Units, Units],
    ) -> bool:
        """Without a declaration, whether the round's problems are shown by the dice alone.

        The first round is taken as declared, so a problem in it means its forces were not
        read right: nothing is ruled. In a later round, a side that rolled as many units as
        the dice left it (``now``), none of a type beyond what it had before the last round
        (``before``), may have taken other casualties than the defaults, under an order of
        loss no turn recorded: that is not shown to be an error either."""
        if not check.problems and not check.missing:
            return True
        if number == 1:
            self.out.rulings.clear()
            return False
        counts = (TOO_FEW, TOO_MANY, WRONG_UNITS)
        sides = {p.side for p in check.problems if p.side and p.rule in counts}
        if check.missing_units:
            sides |= set(check.missing_units)
        for side in sides:
            k = 0 if side == ATTACKER else 1
            rolled = rolled_units(self.forces, side, check.kept.rolls)
            left = firing_units(self.forces, side, now[k])
            had = firing_units(self.forces, side, before[k])
            if rolled.total == left.total and had.contains(rolled):
                return False
        return True

    def _make_ups(self, check: RoundCheck, start: int, skip: set[int]) -> list[int]:
        """Absorb the rolls after the round that roll exactly what it lacks."""
        made: list[int] = []
        j = start
        while check.missing and j < len(self.rolls):
            roll = self.rolls[j]
            kind = make_up_kind(check, roll, self.forces)
            if kind is not None:
                self.out.removed = self.out.removed.plus(absorb(check, kind, roll))
                made.append(j)
                skip.add(j)
            j += 1
        return made

    def _rule(
        self,
        check: RoundCheck,
        number: int,
        later: list[int],
        resume: Body | None,
        corrected: int | None,
        pending: bool,
        *,
        goes_on: bool = True,
    ) -> None:
        forces, battle = self.forces, self.battle
        to_roll: list[dict[str, Any]] = []
        texts = [p.text for p in check.problems]
        rules = [p.rule for p in check.problems]
        asked, said, cited = still_to_roll(forces, check, number)
        to_roll += asked
        texts += said
        rules += cited
        if check.missing_units.get(ATTACKER) and all(
            "defenders-only" in r.options for r in check.kept.rolls
        ):
            texts.insert(
                0,
                "the defender forces were rolled first (defenders only): they stand as valid; "
                "roll for the missing attacking units",
            )
        territory_only = (
            number == 1
            and battle.defender is None
            and (bool(check.missing_aa) or any(p.side == DEFENDER for p in check.problems))
        )
        if territory_only:
            rules.insert(0, CDE_TERRITORY_ONLY)
            texts.insert(
                0,
                "only the defending territory was declared, so wrong defenders on the first "
                "roll are a rolling error, fought with the correct defenders",
            )
        later_dice: list[Die] = [d for k in later for d in self.rolls[k].dice]
        dropped = sorted({*check.dropped, *later_dice})
        kept = sorted(set(check.kept.kept + [t.die for t in check.kept.extra]) - set(dropped))
        seqs = {r.seq for r in check.kept.rolls} | {self.rolls[k].seq for k in later}
        if resume is not None:
            seqs.add(int(resume["seq"]))
        entries = ", ".join(f"#{r.seq}" for r in check.kept.rolls)
        if self.terms.preface:
            texts.insert(0, self.terms.preface)
        decision = f"{battle.label}, round {number} ({entries}): " + "; ".join(texts)
        reroll = any(p.reroll for p in check.problems) or check.units_short
        reroll_from = number + 1 if reroll and goes_on else None
        if reroll_from is not None:
            decision += f"; the battle is re-rolled from round {reroll_from}"
        if later:
            which = ", ".join(f"#{self.rolls[k].seq}" for k in later)
            decision += (
                f" ({'entry' if len(later) == 1 else 'entries'} {which}, rolled "
                f"{'before the correction' if goes_on else 'after the battle was over'}, "
                f"{'is' if len(later) == 1 else 'are'} dropped)"
            )
        if pending and self.waiting:
            which = ", ".join(f"#{seq}" for seq in self.waiting)
            decision += f"; the rolls after it ({which}) wait on those shots"
        first = check.kept.rolls[0].seq
        ruling = Ruling(
            about=tuple(sorted(seqs)),
            rule=join_rules(rules),
            decision=decision,
            kept=tuple(kept),
            dropped=tuple(dropped),
            to_roll=tuple(to_roll),
            reroll_from_round=reroll_from,
        )
        needs_rolls = bool(to_roll or later or corrected)
        self.out.rulings.append(Correctable(ruling, first, corrected, needs_rolls))


def review_battle(
    record: GameRecord,
    turn: LedgerTurn,
    battle: DeclaredBattle,
    terms: ReviewTerms = NO_TERMS,
    forces: BattleForces | None = None,
) -> BattleReview:
    """The rulings on a battle's rolls (none if its entries cannot be read as one battle):
    against ``forces``, or, by default, the forces its declaration should be rolled with."""
    try:
        return _Review(record, turn, battle, terms, forces).run()
    except (NotADiceEntry, BattleInputError, ValueError):
        return BattleReview(battle)


__all__ = ["BattleReview", "Correctable", "ReviewTerms", "review_battle"]
