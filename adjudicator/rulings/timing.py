"""The time limit for error corrections (IAAPA Error Correction VII).

"Errors are correctable only within a time period of 1 subsequent turn; if they are not
identified and corrected within that time, they become fixed. For example, if an error occurs
on Russia 1, but is not recognized until after G1 has been rolled, it is not subject to
correction. If an error is recognized before the next turn is rolled, it must be corrected
before the next turn is rolled. If it is not, then the subsequent turn is void and must be
re-done. If, however, another turn is rolled and the error is still not corrected, it becomes
fixed. It is mandatory that all communications regarding error recognition occur through the
dice roller. ... For the purpose of error correction, the USA-USSR turn will be considered as
one turn, and errors that occur in the USA portion of the turn will be adjudicated on a case
by case basis by the Minister of Law. This will apply to CDEs, rolling errors, and non-combat
errors only."

How the ledger proves it:

- A turn "is rolled" at its first die (any roll entry), or, a turn without dice, at its
  post-combat turn. The USA turn and the USSR turn after it are one turn.
- An error is recognised by an ``error-recognition`` note recorded after it that names one of
  the ruling's entries (``ref_seq``), or names none; a roll correcting it (the missing units,
  the battle re-rolled) is recognition through the roller too.
- An error is corrected when its correcting roll is recorded, or, when the ruling itself is
  the correction (dice to set aside, nothing to roll), when it is recognised.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from adjudicator.powers import Power
from adjudicator.rulings.model import TIME_LIMIT, Ruling
from adjudicator.rulings.record import Body, GameRecord, LedgerTurn
from adjudicator.rulings.rolling import Correctable


def correction_turns(turns: Sequence[LedgerTurn]) -> list[list[LedgerTurn]]:
    """The game's turns as Error Correction VII counts them: the USA turn and the USSR
    turn after it are one."""
    groups: list[list[LedgerTurn]] = []
    for turn in turns:
        if turn.power is Power.USSR and groups and groups[-1][-1].power is Power.USA:
            groups[-1].append(turn)
        else:
            groups.append([turn])
    return groups


def rolled_at(group: Sequence[LedgerTurn]) -> Body | None:
    """The entry from which a turn (as VII counts them) is rolled, if it is."""
    for turn in group:
        first = turn.first_roll
        if first is not None:
            return first
    last = group[-1]
    return last.postcombat if last.postcombat is not None else None


def _label(group: Sequence[LedgerTurn]) -> str:
    return "-".join(t.label for t in group)


def _recognitions(record: GameRecord, item: Correctable) -> list[int]:
    about = set(item.ruling.about)
    found = []
    for body in record.bodies:
        if body["seq"] <= item.error_seq or body["kind"] != "note":
            continue
        data = body["data"]
        if data.get("topic") != "error-recognition":
            continue
        if "ref_seq" not in data or data["ref_seq"] in about:
            found.append(int(body["seq"]))
    return found


def _all_dice(ruling: Ruling) -> tuple[tuple[int, int], ...]:
    return tuple(sorted({*ruling.kept, *ruling.dropped}))


def timed(record: GameRecord, items: Sequence[Correctable]) -> list[Ruling]:
    """The rulings on ``items`` as Error Correction VII leaves them."""
    groups = correction_turns(record.turns)
    out: list[Ruling] = []
    for item in items:
        turn = record.turn_of(item.error_seq)
        index = next((i for i, g in enumerate(groups) if turn in g), None)
        if turn is None or index is None:
            out.append(item.ruling)
            continue
        out.extend(_timed(record, item, groups, index, turn))
    return out


def _timed(
    record: GameRecord,
    item: Correctable,
    groups: list[list[LedgerTurn]],
    index: int,
    turn: LedgerTurn,
) -> list[Ruling]:
    ruling = item.ruling
    nxt = groups[index + 1] if index + 1 < len(groups) else None
    then = groups[index + 2] if index + 2 < len(groups) else None
    next_rolled = rolled_at(nxt) if nxt else None
    then_rolled = rolled_at(then) if then else None
    deadline = int(next_rolled["seq"]) if next_rolled is not None else None
    notes = _recognitions(record, item)
    marks = [*notes, *([item.corrected_seq] if item.corrected_seq is not None else [])]
    recognised = min(marks, default=None)
    corrected = item.corrected_seq if item.needs_rolls else recognised
    usa = (
        "; an error in the USA portion of the USA-USSR turn: the Minister of Law adjudicates "
        "it case by case"
        if turn.power is Power.USA
        else ""
    )

    def before(seq: int | None, limit: int | None) -> bool:
        return seq is not None and (limit is None or seq < limit)

    if not before(recognised, deadline):
        if deadline is None:
            return [_with(ruling, (), usa)]
        assert nxt is not None
        late = f" (only in #{recognised})" if recognised is not None else ""
        proof = (*ruling.about, deadline, *([recognised] if recognised is not None else []))
        return [
            Ruling(
                about=tuple(sorted(set(proof))),
                rule=TIME_LIMIT,
                decision=(
                    f"fixed: the error was not recognised through the dice roller before "
                    f"{_label(nxt)} was rolled (#{deadline}){late}, so it is not subject to "
                    f"correction and the dice stand as rolled ({ruling.rule}: "
                    f"{ruling.decision}){usa}"
                ),
                kept=_all_dice(ruling),
            )
        ]
    assert recognised is not None
    proof_seqs = tuple(n for n in notes if n == recognised)
    if before(corrected, deadline) or deadline is None:
        tail = (
            ""
            if before(corrected, deadline)
            else f"; recognised in #{recognised}: correct it before the next turn is rolled"
        )
        return [_with(ruling, proof_seqs, tail + usa)]
    assert nxt is not None
    if then_rolled is not None and not before(corrected, int(then_rolled["seq"])):
        return [
            Ruling(
                about=tuple(sorted({*ruling.about, recognised, deadline, int(then_rolled["seq"])})),
                rule=TIME_LIMIT,
                decision=(
                    f"fixed: recognised in #{recognised} but not corrected before "
                    f"{_label(nxt)} (#{deadline}) or the turn after it (#{then_rolled['seq']}) "
                    f"was rolled: it is no longer subject to correction ({ruling.rule}: "
                    f"{ruling.decision}){usa}"
                ),
                kept=_all_dice(ruling),
            )
        ]
    void = tuple(b.label for t in nxt for b in record.battles(t))
    return [
        _with(ruling, proof_seqs, usa),
        Ruling(
            about=tuple(sorted({item.error_seq, recognised, deadline})),
            rule=TIME_LIMIT,
            decision=(
                f"the error of #{item.error_seq} was recognised in #{recognised} but not "
                f"corrected before {_label(nxt)} was rolled (#{deadline}): {_label(nxt)} is "
                f"void and must be re-done once it is corrected{usa}"
            ),
            void_battles=void,
        ),
    ]


def _with(ruling: Ruling, proof: tuple[int, ...], tail: str) -> Ruling:
    """``ruling`` citing the entries that prove its timing, its decision ending ``tail``."""
    if not proof and not tail:
        return ruling
    about = tuple(sorted({*ruling.about, *proof}))
    return replace(ruling, about=about, decision=ruling.decision + tail)
