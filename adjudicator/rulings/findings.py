"""Tech rolls (IAAPA Error Correction IV), discrepancies (V) and typographical errors (VI),
ruled on from what the service already found: the findings recorded with each submission in
force (the notation's and the board's, :mod:`adjudicator.notation`,
:mod:`adjudicator.declarations`, :mod:`adjudicator.turns`) and the weapons-development rolls.

Error Correction IV: "if there is a declaration email, or note, stating how many tech dice
have been purchased in advance of the roll, this will be considered the desired amount
purchased. - if more dice are rolled, then the extra dice are ignored similar to a combat
rolling error. - if too few dice are rolled, the extra dice will be rolled to make up the
total purchased. - in both cases, the rolls determining the techs acquired will be ignored
and rerolled once the correct number of tech dice have been rolled. - if there is no
declaration email or note in advance of the roll, then the number entered in the roller will
be assumed to be the number desired. - if the number of dice rolled costs more than the
available ipcs, then it will be considered a declaration error and will need to be
re-declared and re-rolled with the correct number of dice."

The declaration in advance is the last note or pre-combat turn of the rolling power's player
before the roll that states research dice ("Tech: 3 dice"); failing one, the number the
roller was told had been declared (the roll's ``declared``, entered before any die).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.notation import parse
from adjudicator.notation.economy import TECH_DIE_COST
from adjudicator.rolls import BREAKTHROUGH
from adjudicator.rulings.model import DISCREPANCIES, TECH, TYPOS, Die, Ruling
from adjudicator.rulings.record import Body, GameRecord, LedgerTurn, in_force, power_named

DISCREPANCY_CITATION = "IAAPA Error Correction V"
TYPO_CITATION = "IAAPA Error Correction VI"
TECH_CITATION = "IAAPA Error Correction IV"


def _cites(finding: Mapping[str, Any], citation: str) -> bool:
    return any(part.strip() == citation for part in str(finding.get("rule", "")).split(";"))


def _all_findings(body: Body) -> list[tuple[Mapping[str, Any], bool]]:
    """A submission's findings, each with whether it may be a discrepancy ruling: a turn
    played out from the dice (``played_out``) is weighed against the board the dice made,
    so its discrepancies, not those found against the orders alone, are the ones that
    stand ("the dice, not the written results, move the board")."""
    data = body["data"]
    played = "played_out" in data
    read = [(f, not played) for f in data.get("findings", [])]
    return read + [(f, True) for f in data.get("played_out", [])]


def _where(body: Body, finding: Mapping[str, Any]) -> str:
    data = body["data"]
    line = f", line {finding['line']}" if finding.get("line") else ""
    turn = f"{data.get('power')} {data.get('round')} {data.get('phase')} turn"
    return f"{turn} (#{body['seq']}{line})"


def finding_rulings(record: GameRecord) -> list[Ruling]:
    """Error Correction IV, V and VI rulings on the findings of every submission in force."""
    out = []
    for body in record.bodies:
        if body["kind"] != "submission" or not in_force(body):
            continue
        for finding, discrepancy in _all_findings(body):
            ruling = _finding_ruling(body, finding, discrepancy)
            if ruling is not None:
                out.append(ruling)
    return out


def _finding_ruling(body: Body, finding: Mapping[str, Any], discrepancy: bool) -> Ruling | None:
    where, message = _where(body, finding), str(finding.get("message", ""))
    about = (int(body["seq"]),)
    code = finding.get("code")
    if _cites(finding, TYPO_CITATION):
        if code == "typo":
            decision = f"{where}: {message}; the correct word is readily decipherable"
        elif code == "bad-number":
            decision = f"{where}: {message}: the count is not read"
        else:
            decision = (
                f"{where}: {message}: the correct word is not readily decipherable, so it is "
                "not read as a typographical error"
            )
        return Ruling(about=about, rule=TYPOS, decision=decision)
    if discrepancy and _cites(finding, DISCREPANCY_CITATION):
        return Ruling(about=about, rule=DISCREPANCIES, decision=f"{where}: {message}")
    if _cites(finding, TECH_CITATION) and finding.get("severity") == "error":
        return Ruling(about=about, rule=TECH, decision=f"{where}: {message}")
    return None


# --- the weapons-development rolls ---------------------------------------------------------


def _declared_in_advance(record: GameRecord, roll: Body, player: str) -> tuple[int, int] | None:
    """(dice, seq) of the last declaration of research dice by ``player`` before the roll,
    in the roll's turn."""
    turn = record.turn_of(int(roll["seq"]))
    entries = turn.entries if turn is not None else list(record.bodies)
    found = None
    for body in entries:
        if body["seq"] >= roll["seq"]:
            break
        if body["kind"] not in ("note", "submission") or body["data"].get("by") != player:
            continue
        if body["kind"] == "submission" and (
            body["data"].get("phase") != "pre-combat" or not in_force(body)
        ):
            continue
        tech = [t for t in parse(str(body["data"].get("text", ""))).tech if t.dice]
        if tech and tech[-1].dice is not None:
            found = (int(tech[-1].dice), int(body["seq"]))
    return found


def tech_rulings(record: GameRecord) -> list[Ruling]:
    """A ruling for each weapons-development roll of another number of dice than declared,
    or costing more than the power had. A later roll making up the dice a ruling asks for
    ("the extra dice will be rolled to make up the total purchased") is read into that
    ruling, not ruled on by itself."""
    out = []
    for turn in record.turns:
        made_up: set[int] = set()
        for body in turn.entries:
            if body["kind"] == "tech-roll" and int(body["seq"]) not in made_up:
                ruling = _tech_ruling(record, turn, body, made_up)
                if ruling is not None:
                    out.append(ruling)
    return out


def _make_ups(turn: LedgerTurn, roll: Body, missing: int) -> list[Body]:
    """The later tech rolls of the same power in the turn that make up ``missing`` research
    dice, each no more than what is still missing, in the order rolled."""
    found: list[Body] = []
    for body in turn.entries:
        if missing <= 0:
            break
        if body["kind"] != "tech-roll" or body["seq"] <= roll["seq"]:
            continue
        data = body["data"]
        if data.get("country") != roll["data"].get("country"):
            continue
        rolled = int(data.get("rolled", 0))
        if 0 < rolled <= missing:
            found.append(body)
            missing -= rolled
    return found


def _research(body: Body) -> tuple[list[Die], list[int], list[Die]]:
    """The research dice (positions, values) and the chart dice of a tech roll."""
    research: list[Die] = []
    values: list[int] = []
    chart: list[Die] = []
    at = 0
    for group in body["data"].get("groups", []):
        dice = list(group.get("dice", []))
        where = [(int(body["seq"]), at + i) for i in range(len(dice))]
        at += len(dice)
        if group.get("purpose") == "research":
            research += where
            values += [int(v) for v in dice]
        else:
            chart += where
    return research, values, chart


def _counted_by_roller(body: Body, research: list[Die], chart: list[Die]) -> Ruling | None:
    """A roll whose entry applied Section IV itself (it says which dice are ``counted``):
    extra dice were ignored, or missing ones made up in the same entry, before any chart die
    was thrown. Made up: every die stands, nothing to rule. Extra: a ruling that records
    which dice stand, the chart dice among them."""
    data = body["data"]
    seq, declared, rolled = int(body["seq"]), int(data["declared"]), int(data["rolled"])
    if rolled <= declared:
        return None
    return Ruling(
        about=(seq,),
        rule=TECH,
        decision=(
            f"#{seq}: {data.get('country')} rolled {rolled} research dice, {declared} declared "
            f"to the roller: the first {declared} stand and the last {rolled - declared} are "
            "ignored; the chart dice, thrown for the breakthroughs among the dice that stand, "
            "stand too"
        ),
        kept=tuple(research[:declared] + chart),
        dropped=tuple(research[declared:]),
    )


def _tech_ruling(
    record: GameRecord, turn: LedgerTurn, body: Body, made_up: set[int]
) -> Ruling | None:
    data = body["data"]
    seq = int(body["seq"])
    power = power_named(data.get("country"))
    rolled = int(data.get("rolled", 0))
    research, values, chart = _research(body)
    country = str(data.get("country"))
    bank = turn.start.bank.get(power) if turn.start is not None and power is turn.power else None
    if bank is not None and power is not None and TECH_DIE_COST * rolled > bank:
        return Ruling(
            about=(seq,),
            rule=TECH,
            decision=(
                f"#{seq}: {country} rolled {rolled} research dice (${TECH_DIE_COST * rolled}) "
                f"with ${bank} in hand: a declaration error; re-declare and re-roll with the "
                f"correct number of dice (at most {bank // TECH_DIE_COST})"
            ),
            dropped=tuple(research + chart),
        )
    advance = _declared_in_advance(record, body, str(data.get("by", "")))
    if "counted" in data and (advance is None or advance[0] == int(data.get("declared", 0))):
        return _counted_by_roller(body, research, chart)
    if advance is not None:
        declared, source = advance
        said = f"declared in entry #{source}"
    else:
        declared, source = int(data.get("declared", rolled)), seq
        said = "declared to the roller"
    if declared == rolled:
        return None
    about = tuple(sorted({seq, source}))
    if rolled > declared:
        kept, extra = research[:declared], research[declared:]
        breakthroughs = values[:declared].count(BREAKTHROUGH)
        decision = (
            f"#{seq}: {country} rolled {rolled} research dice, {declared} {said}: the first "
            f"{declared} stand and the last {rolled - declared} are ignored; the chart dice are "
            f"ignored and re-rolled: one for each of the {breakthroughs} breakthrough(s) among "
            "the dice that stand"
        )
        return Ruling(
            about=about,
            rule=TECH,
            decision=decision,
            kept=tuple(kept),
            dropped=tuple(extra + chart),
        )
    missing = declared - rolled
    decision = f"#{seq}: {country} rolled {rolled} research dice, {declared} {said}"
    makeups = _make_ups(turn, body, missing)
    made_up.update(int(m["seq"]) for m in makeups)
    kept, dropped = list(research), list(chart)
    for makeup in makeups:
        more, more_values, more_chart = _research(makeup)
        kept += more + more_chart
        values += more_values
        missing -= len(more)
    if makeups:
        which = ", ".join(f"#{m['seq']}" for m in makeups)
        about = tuple(sorted({*about, *(int(m["seq"]) for m in makeups)}))
        decision += f"; made up in {which}"
    if missing <= 0:
        breakthroughs = values.count(BREAKTHROUGH)
        own = values[len(research) :].count(BREAKTHROUGH)
        decision += (
            f": all {declared} research dice are rolled and stand ({breakthroughs} "
            f"breakthrough(s)); the chart dice of #{seq} are ignored and re-rolled, one for "
            f"each of its {values[: len(research)].count(BREAKTHROUGH)} breakthrough(s); "
            f"those the make-up threw for its own {own} stand, thrown once the correct number "
            "of tech dice had been rolled"
        )
        return Ruling(
            about=about, rule=TECH, decision=decision, kept=tuple(kept), dropped=tuple(dropped)
        )
    body_out: dict[str, Any] = {
        "round": int(data.get("round", 1)),
        "turn": int(data.get("turn", 1)),
        "country": country,
        "dice": missing,
        "owned": list(data.get("owned", [])),
    }
    decision += (
        f": roll the {missing} missing; the chart dice are ignored and re-rolled once all "
        f"{declared} research dice are rolled, one for each breakthrough among them"
    )
    return Ruling(
        about=about,
        rule=TECH,
        decision=decision,
        kept=tuple(kept),
        dropped=tuple(dropped),
        to_roll=(body_out,),
    )
