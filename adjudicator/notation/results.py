"""Results of combat as the post-combat email reports them: "#1 W Europe: won, 6 INF left".

IAAPA Post Combat Orders: "The attacker will then send a final e-mail indicating the results
of combat". Players write them in words: an outcome ("won", "taken", "failed", "both
destroyed", "retreated to Kar"), survivors ("3 INF left", "Survivors: 2 INF"), casualties
("Losses: 1 FTR", "lost my sub", "2 INF died") and a raid's damage ("9 IPC damage").
"""

from __future__ import annotations

import re

from adjudicator.diagnostics import Rule
from adjudicator.notation.listing import span_text
from adjudicator.notation.model import CombatOutcome, CombatResult
from adjudicator.notation.reading import HARD_STOPS, IPC_WORDS, Reader
from adjudicator.notation.tokens import MONEY, NUM, WORD, Token, Tokens, closing
from adjudicator.powers import Power
from adjudicator.units import Units, UnitType

OUTCOMES: dict[str, CombatOutcome] = {
    **dict.fromkeys(
        (
            "won",
            "win",
            "wins",
            "winning",
            "taken",
            "take",
            "takes",
            "took",
            "captured",
            "capture",
            "captures",
            "conquered",
            "cleared",
            "clear",
            "secured",
            "victory",
            "success",
            "successful",
            "liberated",
        ),
        CombatOutcome.WON,
    ),
    **dict.fromkeys(
        (
            "lost",
            "lose",
            "loses",
            "failed",
            "fail",
            "fails",
            "repelled",
            "repulsed",
            "defeated",
            "held",
            "holds",
        ),
        CombatOutcome.LOST,
    ),
    **dict.fromkeys(("retreat", "retreats", "retreated", "withdrew"), CombatOutcome.RETREATED),
    **dict.fromkeys(("walked", "wi", "walkin"), CombatOutcome.WALKED_IN),
    **dict.fromkeys(("mutual", "both"), CombatOutcome.BOTH_DESTROYED),
    **dict.fromkeys(("sbr", "raid", "raided", "bombed"), CombatOutcome.RAIDED),
}
"""Words that say how a battle ended ("W Europe: taken", "#2 failed")."""

_SURVIVORS = frozenset(
    {
        "survive",
        "survives",
        "survived",
        "survivors",
        "surviving",
        "left",
        "remain",
        "remains",
        "remaining",
        "with",
    }
)
_POSTFIX_SURVIVORS = frozenset(
    {"survive", "survives", "survived", "left", "remain", "remains", "remaining", "still"}
)
_LOSSES = frozenset({"losses", "casualties", "lost", "lose", "loses", "losing"})
_NONE_OF = frozenset({"no", "without", "zero", "o"})
"""Words before "losses" saying there were none ("no losses", "w/o losses")."""
_THEY = frozenset({"defender", "defenders", "enemy", "they", "he", "she", "opponent"})
"""Words before "lost" saying the units are the defender's ("defender lost 2 inf")."""
_SURVIVING = frozenset({"rest", "ok", "okay", "fine", "safe", "intact", "kept"})
"""Words saying the units after them are left ("rest OK (2 ftr)", "kept 1 arm")."""
_DETERMINERS = frozenset({"my", "our", "the", "his", "her", "a", "an", "one", "both", "of"})
"""Words between a loss verb and its units ("lost my sub", "lost both subs")."""
_DIED = frozenset(
    {"died", "dead", "destroyed", "killed", "sunk", "sank", "eliminated", "shot", "gone"}
)
_BE = frozenset({"was", "were", "got", "is", "are"})
_DID = frozenset(
    {"landed", "bombarded", "bombard", "attacked", "unloaded", "supported", "fought", "moved"}
)
"""Verbs saying what units did in the battle, not whether they are left ("2 INF landed, 1
INF survived", "BB bombarded"): the units before them are neither survivors nor losses."""
_KILLED = frozenset(
    {
        "killed",
        "kill",
        "kills",
        "sank",
        "sunk",
        "sink",
        "sinks",
        "destroyed",
        "destroy",
        "eliminated",
    }
)
"""Verbs whose object is the enemy's units ("killed their trn", "sank 2 TRN"): what the
attacker's dice did, never the attacker's survivors or losses (those are written after
their units: "my sub was sunk")."""
_THEIRS = frozenset({"their", "his", "enemy", "enemy's", "opponent's", "defending"})
"""Words saying the units after them are the defender's ("their trn died")."""
_ROUND_WORDS = frozenset({"round", "rounds", "rd", "turn"})
"""Words a battle round's number follows ("after round 2")."""
_NOT_PLACE = frozenset({"all", "everything", "nothing", "none", "my", "our"})
"""Words that end the place a result names ("Egypt all my units died")."""
_DEATH = r"(?:died|dead|destroyed|killed|lost|sunk|gone|eliminated|wiped\s+out|shot\s+down)"
_GENERIC = (
    r"(?:units?|forces?|troops|attackers?|attacking\s+units|army|armies|men|ships|planes|stuff)"
)
_WIPED_OUT = re.compile(
    rf"\b(?:all|every)\s+(?:of\s+)?(?:my|our|the)\s+{_GENERIC}\s+(?:(?:were|was|got|are)\s+)?"
    rf"{_DEATH}\b|\b(?:my|our)\s+(?:whole|entire)\s+\w+\s+(?:(?:was|were|got)\s+)?{_DEATH}\b"
    rf"|\beverything\s+(?:(?:was|got)\s+)?{_DEATH}\b|\ball\s+(?:(?:were|was|got)\s+)?{_DEATH}\b"
    rf"|\b(?:lost|lose)\s+(?:everything|it\s+all|"
    rf"all\s+(?:of\s+)?(?:my|our|the)\s+{_GENERIC}\b|all\b(?=\s*(?:$|[,.;:!)])))"
    r"|\b(?:nothing|none)\s+(?:left|survived|survives|remains?|remaining)\b|\bno\s+survivors?\b",
    re.IGNORECASE,
)
"""Words saying every attacker was destroyed: "all my units died", "lost everything"."""
RESULT_WORDS = re.compile(
    r"\b(?:won|taken|took|captured|conquered|cleared|secured|liberated|lost|failed|repelled|"
    r"repulsed|defeated|held|retreated|withdrew|walked|raided|bombed|died|killed|sunk|sank)\b|"
    r"\bboth\s+(?:sides|destroyed|dead|died|wiped)\b|\bmutual\b|\bnothing\s+left\b|"
    r"\bno\s+survivors\b",
    re.IGNORECASE,
)
"""Past-tense words that make a battle line a result even outside a "Results:" section
(a present-tense "retreat to Kar" is a special order, not a result)."""
_RESULT_WORDS_LOW = re.compile(RESULT_WORDS.pattern)
_WIPED_OUT_LOW = re.compile(_WIPED_OUT.pattern)
""":data:`RESULT_WORDS` and :data:`_WIPED_OUT` for lower-cased ASCII text (every letter of the
patterns is lower case): what ignoring case finds, several times faster."""


def says_result(text: str) -> bool:
    """Whether ``text`` holds :data:`RESULT_WORDS`."""
    if text.isascii():
        return _RESULT_WORDS_LOW.search(text.lower()) is not None
    return RESULT_WORDS.search(text) is not None


def result(
    reader: Reader,
    line: int,
    text: str,
    toks: Tokens,
    number: int | None,
    mover: Power | None = None,
) -> CombatResult | None:
    """A result of combat ("W Europe: taken, 6 INF, 1 ARM left"); None if it gives no
    outcome, or names neither a battle number nor a place (chat: "Took me ages").

    Words that describe losses never make survivors: "lost 2 INF", "lost my sub", "2 INF
    died" and "Losses: 1 FTR" are losses. "Lost" with units after it names casualties, not
    how the battle ended ("cleared; lost 1 sub" was won), so a result whose only outcome is
    such a phrase is read as lost, with a warning (IAAPA Post Combat Orders: the email
    indicates "the results of combat"; the engine does not decide one silently). "All my
    units died", "lost everything", "nothing left" say every attacker was destroyed: lost,
    no survivors (:attr:`CombatOutcome.LOST`).

    ``mover``, the power whose turn it is, when known: units named with a power of the
    other side ("sank the UK BB", "UK bb sunk" in Germany's turn) are the defender's
    casualties; named with the mover's own side they are the attacker's, as "my" are.
    """
    n = len(toks)
    i = 0
    while (
        i < n
        and toks[i].text not in HARD_STOPS
        and toks[i].kind not in (NUM, MONEY)
        and toks[i].low not in OUTCOMES
        and toks[i].low not in _NOT_PLACE
        and toks[i].text != "-"
    ):
        i += 1
    written = span_text(text, toks, 0, i).strip(" -")
    if not written and number is None:
        return None
    outcome: CombatOutcome | None = None
    survivors, losses, pending = Units(), Units(), Units()
    mode = ""
    retreat_to: str | None = None
    damage: int | None = None
    loss_phrase: tuple[int, int] | None = None
    """Tokens of the first "lost <units>" / "<units> died": casualties, no outcome."""
    units_end = pending_from = -1
    """Where the last unit list ended (and began): a loss word right after names them."""
    listed = False
    """Whether the survivors were listed, closed by a word after them ("2 INF left")."""
    sank: tuple[int, int] | None = None
    """Tokens of the first phrase naming the defender's casualties ("sank the UK BB")."""
    while i < n:
        tok, low = toks[i], toks[i].low
        nxt = toks[i + 1] if i + 1 < n else None
        if tok.kind == MONEY or (
            tok.kind == NUM and nxt is not None and (nxt.low in IPC_WORDS or nxt.low == "damage")
        ):
            damage = tok.value
            i += 1
        elif low in _ROUND_WORDS and nxt is not None and nxt.kind == NUM:
            i += 2  # "retreated after round 2": a round, no count of units
        elif reader.unit_start(toks, i, n):
            start = i
            both = _both(reader, toks, i, n)
            if both is not None:  # "both inf died"
                units, i = both
            else:
                units, i, _ = reader.units(line, toks, i, _clause_end(toks, i, n), Rule.POST_COMBAT)
            if i < n and toks[i].low in _DID:  # "2 INF landed", "BB bombarded": no outcome
                i += 1
            elif _captured(toks, start, i, units):  # "AA captured", "captured the IC"
                if i < n and toks[i].low in _CAPTURED:
                    outcome = outcome or OUTCOMES[toks[i].low]
                    i += 1
            elif mode == "losses":
                losses = losses + units
            elif mode == "survivors" and (
                _ends_a_sentence(toks, i)
                or not (i < n and (toks[i].low in _LOSSES or _died(toks, i, n)))
            ):
                survivors = survivors + units  # "won with 3 inf. Killed 1 ftr.": a new one
            else:  # kept until a loss word says ("1 SUB left, 1 TRN lost")
                pending = pending + units
                units_end, pending_from = (-1 if _ends_a_sentence(toks, i) else i), start
            continue
        elif low in _LOSSES and tok.kind == WORD and i > 0 and toks[i - 1].low in _NONE_OF:
            mode = ""  # "no losses", "w/o losses", "without casualties": none lost
            i += 1
        elif low in _LOSSES and tok.kind == WORD and i > 0 and toks[i - 1].low in _THEY:
            took = _loss_object(reader, line, toks, i + 1, n)  # "defender lost 2 inf"
            i = took[1] if took is not None else i + 1
        elif (low in _LOSSES or low in _DIED) and i + 1 < n and toks[i + 1].text == ":":
            mode = "losses"  # "Lost: 2 inf", "Dead: 1 inf"
            i += 2
        elif low in _SURVIVING and tok.kind == WORD:
            mode = "survivors"  # "lost 1 ftr, rest OK (2 ftr, 1 AC)"
            i += 1
        elif low in _LOSSES and tok.kind == WORD:
            if low in ("losses", "casualties"):
                mode = "losses"
                i += 1
                continue
            took = _loss_object(reader, line, toks, i + 1, n)
            if took is not None:
                units, stop = took
                if stop < n and toks[stop].low in _POSTFIX_SURVIVORS:
                    splits = _clauses(toks, i + 1, stop)
                    if splits:  # "Lost 1 FTR. 1 AC, 2 FTR remain": the loss, then who is left
                        lost, units = _lost_then_left(reader, line, text, toks, i, splits, stop)
                        losses = losses + lost
                        loss_phrase = loss_phrase or (i, splits[0])
                    else:  # "lost, 2 INF left" unpunctuated
                        outcome = outcome or CombatOutcome.LOST
                    survivors = survivors + units
                    mode = "survivors"
                    i = stop + 1
                    continue
                losses = losses + units
                loss_phrase = loss_phrase or (i, stop)
                mode = "losses"
                i = stop
                continue
            if units_end == i and pending:  # "2 INF lost"
                losses, pending = losses + pending, Units()
                loss_phrase = loss_phrase or (pending_from, i + 1)
                i += 1
                continue
            if low in OUTCOMES:
                outcome = outcome or OUTCOMES[low]
            i += 1
        elif pending and units_end == i and (stop := _died(toks, i, n)):  # "my sub was sunk"
            losses, pending = losses + pending, Units()
            loss_phrase = loss_phrase or (pending_from, stop)
            i = stop
        elif low in _SURVIVORS:
            if low in _POSTFIX_SURVIVORS and pending:
                survivors, pending = survivors + pending, Units()
                listed = True
            mode = "survivors"
            i += 1
        elif tok.text == "(" and listed and not _names_losses(toks, i):
            i = closing(toks, i)  # "2 FTR left (AA got a fighter)": a remark
        elif low in OUTCOMES and tok.kind == WORD:
            found = OUTCOMES[low]
            if found is CombatOutcome.BOTH_DESTROYED and not (
                nxt
                and nxt.low
                in ("destroyed", "dead", "wiped", "died", "sides", "annihilation", "destruction")
            ):
                i += 1
                continue
            outcome = outcome or found
            i += 1
            if found is CombatOutcome.RETREATED:
                while i < n and toks[i].low in ("to", "into", "back"):
                    i += 1
                j = i
                while (
                    j < n
                    and toks[j].text not in HARD_STOPS
                    and toks[j].kind != NUM
                    and toks[j].low not in ("with", "and", "after")
                ):
                    j += 1
                if j > i:
                    retreat_to = reader.place(line, span_text(text, toks, i, j), Rule.POST_COMBAT)
                    i = j
        elif (low in _KILLED or low in _THEIRS or _enemy_power(reader, tok, mover)) and (
            theirs := _enemy_units(reader, toks, i, n, mover)
        ):
            if theirs < n:  # "UK bb sunk": the words that say so are the phrase's too
                theirs = _died(toks, theirs, n) or theirs
            sank = sank or (i, theirs)
            i = theirs  # "killed their trn", "sank the UK BB", "UK bb sunk": the defender's
            mode = ""
        else:
            i += 1
    start = toks.start(0) if toks else 0
    if text.isascii():
        wiped = _WIPED_OUT_LOW.search(text.lower(), start) is not None
    else:
        wiped = _WIPED_OUT.search(text, start) is not None
    if wiped:
        losses, pending = losses + pending, Units()
    if outcome is None and wiped:
        outcome = CombatOutcome.LOST
    elif outcome is None and loss_phrase is not None:
        outcome = CombatOutcome.LOST
        left = f"{survivors + pending} surviving" if survivors or pending else "no survivors"
        reader.warning(
            line,
            Rule.POST_COMBAT,
            f"{_where(number, written)}: {span_text(text, toks, *loss_phrase)!r} names the "
            f"units lost ({losses}) but not how the battle ended; read as lost, with {left}",
            'write the outcome too: "lost, 1 SUB lost" or "won, lost 1 SUB"',
            "unstated-outcome",
        )
    elif outcome is None and sank is not None and (survivors or pending):
        outcome = CombatOutcome.WON  # the defender's units destroyed, the attacker's left
        reader.warning(
            line,
            Rule.POST_COMBAT,
            f"{_where(number, written)}: {span_text(text, toks, *sank)!r} names the "
            f"defender's losses and {survivors + pending} surviving, but not how the battle "
            "ended; read as won",
            'write the outcome too: "won, 1 SUB left"',
            "unstated-outcome",
        )
    if outcome is None:
        return None
    territory = reader.place(line, written, Rule.POST_COMBAT) if written else None
    survivors = survivors + pending
    return CombatResult(line, outcome, number, territory, survivors, losses, retreat_to, damage)


_CAPTURED = frozenset({"captured", "capture", "captures", "taken", "took"})
"""Words that, beside an AA gun or a complex, say the attacker took it with the territory."""
_CAPTURABLE = frozenset({UnitType.AA, UnitType.IC})


def _captured(toks: Tokens, start: int, end: int, units: Units) -> bool:
    """Whether units read from ``start`` to ``end`` are AA guns or complexes the attacker
    captured ("AA captured", "captured the IC"): the defender's, taken, never survivors."""
    if not units.counts or any(unit not in _CAPTURABLE for unit, _ in units.counts):
        return False
    before = start - 1
    while before >= 0 and toks[before].low in _DETERMINERS:
        before -= 1
    return (before >= 0 and toks[before].low in _CAPTURED) or (
        end < len(toks) and toks[end].low in _CAPTURED
    )


def _enemy_units(reader: Reader, toks: Tokens, i: int, n: int, mover: Power | None) -> int:
    """Where the defender's units named at ``i`` end ("killed their trn", "sank 2 TRN and
    1 BB", "their ftr"), or 0 if no units follow. Units after a comma are the defender's
    too unless a word after them says they are the attacker's ("sank 2 TRN, 1 SUB left")."""
    killed = toks[i].low in _KILLED
    j = i + 1 if killed else i
    while j < n and (
        toks[j].low in _THEIRS
        or toks[j].low in _DETERMINERS
        or _enemy_power(reader, toks[j], mover)
        or (killed and _names_a_power(reader, toks[j]))  # "sank the UK BB": the verb says
    ):
        j += 1
    if j == i or not reader.unit_start(toks, j, n):
        return 0
    j = _past_unit(reader, toks, j, n)
    while j < n and (
        (j + 1 < n and toks[j].text in (",", "and") and reader.unit_start(toks, j + 1, n))
        or (toks[j].kind == NUM and reader.unit_start(toks, j, n))  # "destroyed 1 inf 1 arm"
    ):
        after = _past_unit(reader, toks, j + (toks[j].kind != NUM), n)
        if after < n and (
            toks[after].low in _POSTFIX_SURVIVORS
            or toks[after].low in _LOSSES
            or _died(toks, after, n)
        ):
            break  # "sank 2 TRN, 1 SUB left": the survivor is the attacker's
        j = after
    return j


def _where(number: int | None, written: str) -> str:
    """How a finding names the battle a result is of: its number, else its place."""
    return f"battle #{number}" if number is not None else written


def _clause_end(toks: Tokens, i: int, n: int) -> int:
    """Where the clause from ``i`` ends: at a semicolon, or after a word ending a sentence
    ("won with 6 inf, 2 arm; 1 inf lost", "2 inf. 1 inf lost."): a unit list never runs on
    into the next clause."""
    for k in range(i, n):
        if toks[k].text == ";":
            return k
        if toks[k].text.endswith((".", "!", "?")) and toks[k].kind == WORD:
            return k + 1
    return n


def _ends_a_sentence(toks: Tokens, i: int) -> bool:
    """Whether the token before ``i`` ends a sentence ("3 inf." before "Killed 1 ftr."):
    what follows is no word about those units."""
    return i > 0 and toks[i - 1].text.endswith((".", "!", "?"))


def _names_a_power(reader: Reader, tok: Token) -> Power | None:
    """The power a word names ("UK", "British"); lower-case "us" is the pronoun."""
    if tok.kind != WORD or tok.text == "us":
        return None
    return reader.lookup.power(tok.text)


def _enemy_power(reader: Reader, tok: Token, mover: Power | None) -> bool:
    """Whether a word names a power of the other side than ``mover`` ("UK", "British" in
    Germany's turn): the units after it are the defender's. False when the mover is not
    known."""
    named = _names_a_power(reader, tok) if mover is not None else None
    return named is not None and mover is not None and named.alliance is not mover.alliance


def _past_unit(reader: Reader, toks: Tokens, i: int, n: int) -> int:
    """The token after one unit at ``i`` ("2 TRN", "trn", "2 battle ships")."""
    k = i + 1 if toks[i].kind == NUM else i
    return k + max(reader.unit_word(toks, k, n)[0], 1)


def _names_losses(toks: Tokens, i: int) -> bool:
    """Whether the brackets opened at ``i`` say what was lost ("(lost 1 ARM)")."""
    return any(tok.low in _LOSSES for tok in toks[i : closing(toks, i)])


def _loss_object(
    reader: Reader, line: int, toks: Tokens, i: int, n: int
) -> tuple[Units, int] | None:
    """The units a loss verb before ``i`` governs ("lost 2 INF", "lost my sub", "lost both
    subs") and where they end; None if no unit list follows."""
    j = i
    while j < n and toks[j].low in _DETERMINERS:
        j += 1
    if not reader.unit_start(toks, j, n):
        return None
    both = _both(reader, toks, j, n)
    if both is not None:
        return both
    units, stop, _ = reader.units(line, toks, j, n, Rule.POST_COMBAT)
    return units, stop


def _both(reader: Reader, toks: Tokens, i: int, n: int) -> tuple[Units, int] | None:
    """Two of the unit written at ``i`` after "both" ("lost both subs", "both inf died"),
    and where it ends; None if "both" does not come before a unit word."""
    if i == 0 or toks[i - 1].low != "both" or toks[i].kind != WORD:
        return None
    used, unit = reader.unit_word(toks, i, n)
    return (Units.of({unit: 2}), i + used) if unit is not None else None


def _lost_then_left(
    reader: Reader, line: int, text: str, toks: Tokens, i: int, splits: list[int], stop: int
) -> tuple[Units, Units]:
    """The units lost and those left in "lost <units> ... left" (the loss verb at ``i``, the
    survivors' word at ``stop``), split at the first of ``splits`` (:func:`_clauses`); a
    warning says how it was read when the list could split elsewhere too."""
    lost = _loss_object(reader, line, toks, i + 1, splits[0])
    lost_units = lost[0] if lost else Units()
    left, _, _ = reader.units(line, toks, splits[0], stop, Rule.POST_COMBAT)
    if len(splits) > 1:
        said = span_text(text, toks, i, stop + 1)
        reader.warning(
            line,
            Rule.POST_COMBAT,
            f"{said!r} could split its units anywhere between lost and left: read as "
            f"{lost_units} lost, {left} left",
            'write the two apart: "lost 1 SUB; 2 INF, 1 ARM left"',
            "unclear-survivors",
        )
    return lost_units, left


def _clauses(toks: Tokens, start: int, stop: int) -> list[int]:
    """Where a unit list read from ``start`` to ``stop`` after a loss verb may start another
    clause: after a full stop or a semicolon ("1 FTR. 1 AC, 2 FTR": at the second "1"; "1
    FTR; AC + BB remain"), or a comma before a count ("1 sub, 2 INF"). A full stop ends the
    loss for certain, so only its clause is given; commas give each place the list could
    split."""
    commas: list[int] = []
    for k in range(start, stop - 1):
        written = toks[k].text
        if written in (";", "!") or (written == "." and toks[k + 1].kind in (NUM, WORD)):
            return [k + 1]  # "lost 1 FTR; AC + BB + 1 FTR remain"
        if toks[k + 1].kind != NUM:
            continue
        if toks[k].kind == WORD and written.endswith("."):
            return [k + 1]
        if written == ",":
            commas.append(k + 1)
    return commas


def _died(toks: list[Token], i: int, n: int) -> int:
    """Where a death phrase at ``i`` ends ("died", "was sunk", "shot down"), or 0."""
    j = i + 1 if toks[i].low in _BE and i + 1 < n else i
    if toks[j].low not in _DIED:
        return 0
    return j + 2 if toks[j].low == "shot" and j + 1 < n and toks[j + 1].low == "down" else j + 1
