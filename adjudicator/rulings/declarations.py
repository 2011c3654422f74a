"""Combat Declaration Errors (IAAPA Error Correction II), ruled on from what the service
found when it recorded the pre-combat turn (:func:`adjudicator.declarations.check_report`:
each finding names its code and the battles it voids) and from the rolls made under it.

"If any of this information is incorrect, it is considered a CDE, and the entire battle is
null and void and no portion of the results may stand. ... The attacker may then elect to
re-roll the entire battle with the correct number and type of units or he may elect not to
fight the battle at all. He may not add additional attacking units to the battle. ... If the
attacker elects not to fight the battle, he may move the previously assigned units during
non-combat." And for over-commitment: "ALL battles involving the affected units from that
attacking territory will be considered null and void".

A declaration is ruled on once it can no longer be amended: "The attacker may modify his
combat moves provided that he sends an updated pre-combat turn before rolling any dice. No
changes will be allowed once any combat dice are rolled" (Amendments and Special Orders).
Until the turn's first combat die, the finding in the submission is a warning to amend.
Not a CDE, and ruled so when the battle is rolled: a declared place with nothing to attack
("The declared territory or sea zone is always assumed to be correct") and a wrong origin or
place where the intent is clear ("then no CDE can be called").

A roll made after an ``error-recognition`` note for the battle is the battle fought again
with the correct units, and is not void: it is weighed against them, rolling errors and all
(:mod:`.refights`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.rolls.replay import BATTLE_ROLL_KINDS
from adjudicator.rulings.model import (
    CDE,
    CDE_ATTACKERS,
    CDE_DEFENDERS,
    CDE_INTENT,
    CDE_OVER_COMMITTED,
    CDE_TERRITORY,
    CDE_TRANSPORTS,
    CDE_UNDECLARED,
    CDE_UNLOADING,
    Die,
    Ruling,
    join_rules,
)
from adjudicator.rulings.pauses import pause_rulings
from adjudicator.rulings.record import (
    Body,
    DeclaredBattle,
    GameRecord,
    LedgerTurn,
    declaration_errors,
    recognised,
    split_at,
)
from adjudicator.rulings.refights import corrected_battle, declared_units
from adjudicator.rulings.rolling import BattleReview, Correctable, ReviewTerms, review_battle

CODE_RULES: Mapping[str, str] = {
    "not-at-origin": CDE_ATTACKERS,
    "origin-not-listed": CDE_ATTACKERS,
    "cannot-attack": CDE_ATTACKERS,
    "unreachable": CDE_ATTACKERS,
    "no-landing-place": CDE_ATTACKERS,
    "not-enough-transports": CDE_TRANSPORTS,
    "transport-capacity": CDE_TRANSPORTS,
    "transport-two-assaults": CDE_TRANSPORTS,
    "transports-not-in-sea-battle": CDE_TRANSPORTS,
    "unloading-zone-undisclosed": CDE_UNLOADING,
    "over-committed": CDE_OVER_COMMITTED,
    "defenders-wrong": CDE_DEFENDERS,
    "place-not-clear": CDE_TERRITORY,
}
"""The rule book's case for each code of :class:`adjudicator.declarations.Code` that voids
a battle."""

NOT_FIGHTING = "do not fight the battle: move the units assigned to it during non-combat"
RE_ROLL_ATTACKERS = (
    "re-roll the entire battle with the correct number and type of units (no attacking "
    "units may be added)"
)
RE_ROLL_DEFENDERS = "re-roll the entire battle with the correct number and type of defending units"


def _dice(rolls: Sequence[Body]) -> tuple[Die, ...]:
    return tuple((int(r["seq"]), i) for r in rolls for i in range(len(r["data"].get("dice", []))))


def _seqs(rolls: Sequence[Body]) -> str:
    return ", ".join(f"#{r['seq']}" for r in rolls)


def _findings(precombat: Body, number: int) -> list[Mapping[str, Any]]:
    return [f for f in precombat["data"].get("findings", []) if number in f.get("battles", [])]


def _combat_rolled(turn: LedgerTurn, precombat: Body) -> bool:
    """Whether a combat die of the turn was rolled under this pre-combat turn."""
    return any(
        e["kind"] in (*BATTLE_ROLL_KINDS, "bombing-roll") and e["seq"] > precombat["seq"]
        for e in turn.entries
    )


def cde_rulings(
    record: GameRecord, turn: LedgerTurn
) -> tuple[list[Correctable], list[Ruling], set[int]]:
    """The rulings on the turn's declarations: CDEs whose dice were rolled (timed by Error
    Correction VII), the others (a void battle not rolled, a battle that stands though a
    finding was made), and the numbers of the battles void."""
    precombat = turn.precombat
    if precombat is None or not _combat_rolled(turn, precombat):
        return [], [], set()
    out: list[Correctable] = []
    standing: list[Ruling] = []
    void: set[int] = set()
    for battle in record.battles(turn):
        found = _findings(precombat, battle.number)
        errors = declaration_errors(precombat, battle.number)
        if errors:
            void.add(battle.number)
            ruled, refought = _void(record, turn, battle, errors)
            if battle.rolls:
                out.append(ruled)
            else:  # nothing rolled, nothing to correct: the time limit has no hold on it
                standing.append(ruled.ruling)
            if refought is not None:
                out += refought.rulings
                standing += pause_rulings(record, refought)
            continue
        for code, rule in (("intent-clear", CDE_INTENT), ("nothing-to-attack", CDE_TERRITORY)):
            notes = [f for f in found if f.get("code") == code]
            if notes and battle.rolls:
                standing.append(_stands(battle, rule, notes))
    return out, standing, void


def _refought(
    record: GameRecord, turn: LedgerTurn, battle: DeclaredBattle, rolls: Sequence[Body]
) -> BattleReview | None:
    """The battle re-fought with ``rolls``, weighed against the correct units."""
    correct = corrected_battle(battle, turn.start, tuple(rolls))
    if not rolls or correct is None:
        return None
    units = ", ".join(f"{n} {u}" for u, n in correct.attacker.items()) or "no units"
    preface = (
        f"the battle re-fought after the combat declaration error of entry "
        f"#{battle.submission['seq']}, with the correct units ({units})"
    )
    terms = ReviewTerms(preface=preface, declared=declared_units(battle))
    return review_battle(record, turn, correct, terms)


def _void(
    record: GameRecord,
    turn: LedgerTurn,
    battle: DeclaredBattle,
    errors: list[Mapping[str, Any]],
) -> tuple[Correctable, BattleReview | None]:
    precombat = battle.submission
    rules = [CODE_RULES.get(str(f.get("code")), CDE) for f in errors]
    noted = recognised(record.bodies, battle.rolls, precombat)
    void_rolls, fought_again = split_at(battle.rolls, noted)
    defenders_only = all(rule == CDE_DEFENDERS for rule in rules)
    options = (RE_ROLL_DEFENDERS if defenders_only else RE_ROLL_ATTACKERS, NOT_FIGHTING)
    said = "; ".join(str(f.get("message", "")) for f in errors)
    rolled = f"; its rolls ({_seqs(void_rolls)}) are void" if void_rolls else ""
    refought = _refought(record, turn, battle, fought_again)
    errors_again = {d for c in (refought.rulings if refought else []) for d in c.ruling.dropped}
    again = (
        f"; fought again after the error was recognised (#{noted}): {_seqs(fought_again)}"
        if fought_again
        else ""
    )
    if errors_again:
        again += ", its own rolling errors ruled apart"
    decision = (
        f"{battle.label}: a combat declaration error in entry #{precombat['seq']} ({said}): the "
        f"entire battle is null and void and no portion of its results may stand{rolled}{again}"
    )
    about = {int(precombat["seq"]), *(int(r["seq"]) for r in void_rolls)}
    if noted is not None:
        about.add(noted)
    ruling = Ruling(
        about=tuple(sorted(about)),
        rule=join_rules(rules),
        decision=decision,
        kept=tuple(d for d in _dice(fought_again) if d not in errors_again),
        dropped=_dice(void_rolls),
        void_battles=(battle.label,),
        options=() if fought_again else options,
    )
    error_seq = int(void_rolls[0]["seq"]) if void_rolls else int(precombat["seq"])
    corrected = int(fought_again[0]["seq"]) if fought_again else None
    return Correctable(ruling, error_seq, corrected, needs_rolls=False), refought


def _stands(battle: DeclaredBattle, rule: str, notes: list[Mapping[str, Any]]) -> Ruling:
    said = "; ".join(str(f.get("message", "")) for f in notes)
    why = (
        "the intent is clear and the units are 100% correct, so no CDE can be called"
        if rule == CDE_INTENT
        else "the declared territory or sea zone is always assumed to be correct"
    )
    return Ruling(
        about=(int(battle.submission["seq"]), *(int(r["seq"]) for r in battle.rolls)),
        rule=rule,
        decision=f"{battle.label}: not a CDE ({said}): {why}; the battle stands",
    )


def undeclared_rulings(turn: LedgerTurn) -> list[Correctable]:
    """Battle rolls for a place the pre-combat turn in force does not declare: "A player must
    declare all combat prior to rolling any dice"."""
    out = []
    for entry in turn.entries:
        data = entry["data"]
        if entry["kind"] not in BATTLE_ROLL_KINDS or "declared" in data:
            continue
        found = [f for f in data.get("findings", []) if str(f.get("rule", "")).endswith(CDE)]
        if not found:
            continue
        ruling = Ruling(
            about=(int(entry["seq"]),),
            rule=CDE_UNDECLARED,
            decision=(
                f"entry #{entry['seq']} ({data.get('battle')}): {found[0].get('message')}: "
                "combat must be declared before any die is rolled; the roll is void"
            ),
            dropped=_dice([entry]),
        )
        out.append(Correctable(ruling, int(entry["seq"]), None))
    return out
