"""Post-combat orders: results, non-combat moves, placements, the map update, the count.

IAAPA Post Combat Orders: "The attacker will then send a final e-mail indicating the results
of combat, his non-combat moves, a map update (This is a list that contains all territories
that said country has units in and/or possesses), and give a territory and IPC count.
Please use units to distinguish between territory count and IPC count, i.e. UK 30/$32"
"""

from __future__ import annotations

import re

from adjudicator.diagnostics import Rule
from adjudicator.names import NameResolutionError
from adjudicator.notation.errors import COUNT_RULE_TEXT
from adjudicator.notation.listing import HARD_STOPS, items, span_text
from adjudicator.notation.model import CombatOutcome, CombatResult, Count, MapEntry, Move, Placement
from adjudicator.notation.reading import MONEY, NUM, WORD, Reader, Token
from adjudicator.notation.routes import Route
from adjudicator.powers import Power
from adjudicator.units import Units

_COUNT = re.compile(
    r"""^\s*(?:(?:final\s+)?(?:territory\s+(?:and|&)\s+ipc\s+|ipc\s+)?count\s*[:\-]?\s*)?
    (?P<power>[A-Za-z][A-Za-z. ]{0,20}?)?\s*[:\-]?\s*
    (?P<a>\$\s?\d{1,9}|\d{1,9})\s*(?P<au>terr\w*|t|ipcs?|\$)?\s*[/,;]\s*
    (?P<b>\$\s?\d{1,9}|\d{1,9})\s*(?P<bu>terr\w*|t|ipcs?|\$)?\s*[.!]?\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
"""'UK 30/$32', 'Count: 30 terr / 32 IPC', 'UK 30/32' (no units: a warning)."""

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
    {"survive", "survives", "survived", "left", "remain", "remains", "remaining"}
)
_LOSSES = frozenset({"losses", "casualties", "lost", "lose", "loses", "losing"})
RESULT_WORDS = re.compile(
    r"\b(?:won|taken|took|captured|conquered|cleared|secured|liberated|lost|failed|repelled|"
    r"repulsed|defeated|held|retreated|withdrew|walked|raided|bombed)\b|\bboth\s+(?:sides|"
    r"destroyed|dead|died|wiped)\b|\bmutual\b",
    re.IGNORECASE,
)
"""Past-tense words that make a battle line a result even outside a "Results:" section
(a present-tense "retreat to Kar" is a special order, not a result)."""


def count(reader: Reader, line: int, text: str) -> Count | None:
    """The territory/IPC count on ``text``, or None if it is not a count line."""
    m = _COUNT.match(text)
    if m is None:
        return None
    power: Power | None = None
    if m.group("power"):
        try:
            power = reader.names.power(m.group("power").strip(" .")).value
        except NameResolutionError:
            if "count" not in text.lower():
                return None
    numbers = [int(m.group(g).lstrip("$ ")) for g in ("a", "b")]
    kinds = [_count_kind(m.group(g), m.group(f"{g}u")) for g in ("a", "b")]
    if kinds[0] == kinds[1] and kinds[0] is not None:
        reader.error(
            line,
            Rule.POST_COMBAT,
            f"both numbers of the count {m.group(0).strip()!r} are marked as {kinds[0]}",
            f"{COUNT_RULE_TEXT}: territories first, then $IPCs",
            "count-units",
        )
        return None
    if kinds == [None, None]:
        reader.warning(
            line,
            Rule.POST_COMBAT,
            f"the count {text.strip()!r} does not say which number is the "
            "territories and which the IPCs; read as territories/IPCs",
            f'{COUNT_RULE_TEXT}: write "{numbers[0]}/${numbers[1]}"',
            "count-units",
        )
    ipc_first = "ipcs" in kinds[:1] or kinds[1] == "territories"
    territories, ipcs = (numbers[1], numbers[0]) if ipc_first else numbers
    return Count(line, territories, ipcs, power, kinds != [None, None])


def _count_kind(number: str, unit: str | None) -> str | None:
    if number.startswith("$") or (unit or "").lower().startswith(("ipc", "$")):
        return "ipcs"
    if unit:
        return "territories"
    return None


def result(
    reader: Reader, line: int, text: str, toks: list[Token], number: int | None
) -> CombatResult | None:
    """A result of combat ("W Europe: taken, 6 INF, 1 ARM left"); None if no outcome."""
    n = len(toks)
    i = 0
    while (
        i < n
        and toks[i].text not in HARD_STOPS
        and toks[i].kind not in (NUM, MONEY)
        and toks[i].low not in OUTCOMES
        and toks[i].text != "-"
    ):
        i += 1
    written = span_text(text, toks, 0, i).strip(" -")
    outcome: CombatOutcome | None = None
    survivors, losses, pending = Units(), Units(), Units()
    mode = ""
    retreat_to: str | None = None
    damage: int | None = None
    while i < n:
        tok, low = toks[i], toks[i].low
        nxt = toks[i + 1] if i + 1 < n else None
        if tok.kind == MONEY or (
            tok.kind == NUM and nxt is not None and nxt.low in ("ipc", "ipcs", "damage")
        ):
            damage = tok.value
            i += 1
        elif reader.unit_start(toks, i, n):
            units, i, _ = reader.units(line, toks, i, n, Rule.POST_COMBAT)
            if mode == "losses":
                losses = losses + units
            elif mode == "survivors":
                survivors = survivors + units
            else:
                pending = pending + units
            continue
        elif low in _LOSSES and (
            low in ("losses", "casualties") or reader.unit_start(toks, i + 1, n)
        ):
            mode = "losses"
            i += 1
        elif low in _SURVIVORS:
            if low in _POSTFIX_SURVIVORS and pending:
                survivors, pending = survivors + pending, Units()
            mode = "survivors"
            i += 1
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
        else:
            i += 1
    if outcome is None:
        return None
    territory = reader.place(line, written, Rule.POST_COMBAT) if written else None
    survivors = survivors + pending
    return CombatResult(line, outcome, number, territory, survivors, losses, retreat_to, damage)


def moves(reader: Reader, line: int, route: Route) -> list[Move]:
    """The non-combat moves of a movement line (one per origin)."""
    destination = route.destination or route.lands
    if destination is None:
        reader.error(
            line,
            Rule.POST_COMBAT,
            "a non-combat move with no destination",
            'write where the units go: "Kar 2 FTR to Russia"',
            "no-destination",
        )
        return []
    path = tuple(p for p in route.path if p != destination)
    return [
        Move(line, place, units, destination, path, route.transports)
        for place, units in route.origins
        if units
    ]


def _places(
    reader: Reader, line: int, text: str, toks: list[Token], *, need_units: bool
) -> list[tuple[str, Units]]:
    errors = reader.errors_on(line)
    found, stop = items(reader, line, text, toks, 0, len(toks), Rule.POST_COMBAT)
    if stop < len(toks) and reader.errors_on(line) == errors:
        reader.error(
            line,
            Rule.POST_COMBAT,
            f"could not read {span_text(text, toks, stop, len(toks))!r}",
            "write a place and its units: Ger 10 INF, 2 ARM, AA",
        )
    places: list[tuple[str, Units]] = []
    for item in found:
        if item.place_text is None:
            reader.error(
                line,
                Rule.POST_COMBAT,
                f"the units {item.units} have no place",
                "write the territory or sea zone with its units: Ger 3 INF",
                "no-place",
            )
            continue
        place = reader.place(line, item.place_text, Rule.POST_COMBAT)
        if place is None:
            continue
        if need_units and not item.units:
            reader.error(
                line,
                Rule.POST_COMBAT,
                f"no units are placed in {place}",
                f"write the units placed: {item.place_text} 3 INF",
                "no-units",
            )
            continue
        places.append((place, item.units))
    return places


def placements(reader: Reader, line: int, text: str, toks: list[Token]) -> list[Placement]:
    """Placement lines: "Ger 3 INF", "1 TRN Baltic SZ", "Ger 2 INF; S Eur 1 ARM"."""
    return [
        Placement(line, place, units)
        for place, units in _places(reader, line, text, toks, need_units=True)
    ]


def map_entries(reader: Reader, line: int, text: str, toks: list[Token]) -> list[MapEntry]:
    """Map-update lines: "Ger: 10 INF, AA, IC", "Finland Norway (MT)", "Sweden"."""
    return [
        MapEntry(line, place, units)
        for place, units in _places(reader, line, text, toks, need_units=False)
    ]
