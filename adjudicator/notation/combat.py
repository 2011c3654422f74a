"""Combat moves: battle headers, the origin lines under them, Total lines and walk-ins.

IAAPA Precombat: "Combat moves must list the attacking units, specifying the territory of
origin for each unit. Defending units should also be listed, but are not absolutely
required."  The rule book's example, which this module reads line by line::

    Attack #1 - W Europe (10 INF, AA)                      header: number, territory, defenders
    UK 8 INF on UK SZ 4 TRN                                origin lines (see routes)
    E Can 1 ARM on E Can SZ 1 TRN to UK SZ
    Kar 2 FTR (land Karelia)
    Total UK v. Germany --- 8 INF, 1 ARM, 2 FTR v. 10 INF, AA

A battle's attackers are its origins added up, or the Total line's when no origin is given.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from adjudicator.diagnostics import Rule
from adjudicator.notation.model import Battle, BattleKind, Origin, Total
from adjudicator.notation.reading import Reader
from adjudicator.notation.routes import Route
from adjudicator.notation.tokens import has_digit, tokenize
from adjudicator.powers import Power
from adjudicator.units import Units

BATTLE_HEADER = re.compile(
    r"""^[\s*=\-]*(?:
        (?P<kw>attack|battle|combat|assault|amphibious\s+assault|amphib|invasion|sbr|
               strategic\s+bombing\s+raid|bombing\s+raid|raid|wi|walk[\s-]?in|
               [ab](?=\d))\s*
        (?:\#|no\.?|number)?\s*(?P<n1>\d{1,3})
      | \#\s*(?P<n2>\d{1,3})
    )(?:\s*[-:.)–—=]+\s*|\s+(?:on|in|at|against)\s+|\s+|$)(?P<rest>.*)$""",
    re.IGNORECASE | re.VERBOSE,
)
"""'Attack #1 - W Europe (10 INF, AA)', '#2 Baltic SZ', 'Battle 3: Finland WI', 'A1. Norway'
(A or B, for attack or battle, with its number written on)."""
BATTLE_HEADER_LOW = re.compile(BATTLE_HEADER.pattern, re.VERBOSE)
""":data:`BATTLE_HEADER` for lower-cased ASCII text (every letter of the pattern is lower
case): it matches where the header pattern matches the line, and fails faster."""

_WALK_MARK = re.compile(r"\bWI\b|\bwalk[\s-]?ins?\b|\bMT\b|\bempty\b", re.IGNORECASE)
_RAID_MARK = re.compile(r"\bSBR\b|\bbombing\s+raid\b|\braid\b", re.IGNORECASE)
_NOISE = re.compile(r"\bamphib\w*(?:\s+assault)?\b|\bvs?\.?$", re.IGNORECASE)
_TERRITORY_END = re.compile(
    r"\(|:|\s[-–—]+\s|\s(?:v|vs|versus|against)\.?\s|\s(?:w/|with)\s|\s(?=\d)", re.IGNORECASE
)
_UNLISTED = re.compile(r"^\W*(?:\?+|unknown|tbd|n/?a)?\W*$", re.IGNORECASE)
DEFENCE_WORDS = r"def(?:enders|ender|ending|ended\s+by)?\.?|defended\s+by|vs?\.?|versus"
"""Words a battle's defenders follow ("defenders: 1 BB", "vs 3 INF")."""
_DEFENCE_PREFIX = re.compile(
    rf"^\s*(?:{DEFENCE_WORDS}|"
    r"(?:ussr|russia|germany|german|ger|uk|british|japan|jap|usa|us|american|[rgj])\b)"
    r"\s*[:\-]?\s*",
    re.IGNORECASE,
)
_PAREN = re.compile(r"[(\[]([^)\]]*)[)\]]?")
_TOTAL = re.compile(r"^\s*totals?\b[\s:.\-]*(?P<rest>.*)$", re.IGNORECASE)
_TOTAL_SEP = re.compile(r"\s*(?:-{2,}|—|–|:|=|\s-\s)\s*")
_VERSUS = re.compile(r"\s(?:v|vs|versus|against)\.?\s", re.IGNORECASE)


@dataclass
class Draft:
    """A battle being read; frozen into a :class:`Battle` when the email ends."""

    number: int
    territory: str | None
    line: int
    kind: BattleKind
    defender: Units | None
    origins: list[Origin] = field(default_factory=list)
    total: Total | None = None
    implicit: bool = False
    """Read from a move's destination, not from a header."""
    could_be: tuple[str, ...] = ()
    """The places a header's name fits, when it fits several (``territory`` is then None)."""

    def freeze(self) -> Battle:
        return Battle(
            self.number,
            self.territory,
            self.line,
            self.kind,
            self.defender,
            tuple(self.origins),
            self.total,
            self.could_be,
        )


def _may_walk(low: str | None) -> bool:
    """Whether a line (lower-cased, None if not ASCII) may hold a :data:`_WALK_MARK`: the
    letters every one of them has ("wi", "walk", "mt", "empty"), a cheap test first."""
    return low is None or "wi" in low or "walk" in low or "mt" in low or "empty" in low


def _may_raid(low: str | None) -> bool:
    """Whether a line (lower-cased, None if not ASCII) may hold a :data:`_RAID_MARK`."""
    return low is None or "sbr" in low or "raid" in low


def _without_marks(text: str) -> str:
    """``text`` without walk-in, raid and amphibious marks, or a trailing "v." (each pattern
    tried only if the line holds its letters)."""
    low = text.lower() if text.isascii() else None
    if _may_walk(low):
        text = _WALK_MARK.sub("", text)
        low = text.lower() if low is not None else None
    if _may_raid(low):
        text = _RAID_MARK.sub("", text)
        low = text.lower() if low is not None else None
    if low is None or "amphib" in low or "v" in low:
        text = _NOISE.sub("", text)
    return text


def _defenders(reader: Reader, line: int, text: str) -> tuple[Units | None, bool]:
    """The defenders a header or Total line lists, and whether it says the place is empty."""
    paren = _PAREN.search(text)
    if (
        paren is not None
        and not has_digit(paren.group(1))
        and not any(ch.isalnum() for ch in _without_marks(paren.group(1)))
    ):
        # "Algeria (amphibious) - 1 inf": a mark in brackets, the defenders after it
        rest = text[: paren.start()] + " " + text[paren.end() :]
        if any(ch.isalnum() for ch in rest):
            return _defenders(reader, line, rest)
    if paren is not None and paren.end() < len(text):
        _after_defenders(reader, line, text[paren.end() :])
    inside = paren.group(1) if paren else text.strip(" :-–—=")
    inside = _DEFENCE_PREFIX.sub("", inside.strip(), count=1)
    if _UNLISTED.match(inside):
        return None, False
    toks = tokenize(inside)
    errors = reader.errors_on(line)
    units, stop, empty = reader.units(line, toks, 0, len(toks), Rule.PRECOMBAT)
    rest = inside[toks.start(stop) :] if stop < len(toks) else ""
    left = _without_marks(rest) if rest else rest
    if any(ch.isalnum() for ch in left) and reader.errors_on(line) == errors:
        reader.error(
            line,
            Rule.PRECOMBAT,
            f"could not read {rest.strip()!r} among the defenders",
            "list the defenders as counts and units, e.g. (10 INF, AA), and each "
            "attacking origin on a line of its own",
        )
    return (units if units.counts or empty else None), empty


def _after_defenders(reader: Reader, line: int, after: str) -> None:
    """What a header writes after its defenders' bracket: marks ("amphibious", "WI") and
    remarks (noted) stand; another place or units ("? no - Baltic SZ (1 TRN)") are an
    error, for the battle is read as the first place and its defenders."""
    left = _without_marks(after).strip(" -:–—=.,;!?")
    if not any(ch.isalnum() for ch in left):
        return
    toks = tokenize(left)
    if any(reader.is_place(tok.text) or reader.exact_term(tok.text) for tok in toks) or (
        reader.is_place(left)
    ):
        reader.error(
            line,
            Rule.PRECOMBAT,
            f"could not read {after.strip()!r} after the defenders: the battle is read as "
            "the place and the defenders before it",
            'write each battle once, as "Attack #1 - Karelia (its defenders)"; to correct a '
            "declaration, send the pre-combat turn again",
        )
    else:
        reader.remark(
            line, Rule.PRECOMBAT, f"{after.strip()!r} after the defenders was read as a remark"
        )


class CombatReader:
    """Reads the combat section of one email into battles."""

    def __init__(self, reader: Reader, is_sea: Callable[[str], bool]) -> None:
        self.reader = reader
        self.is_sea = is_sea
        self.drafts: list[Draft] = []
        self.current: Draft | None = None

    def _next_number(self) -> int:
        return max((d.number for d in self.drafts), default=0) + 1

    def header(self, line: int, match: re.Match[str]) -> None:
        """A battle header: "Attack #1 - W Europe (10 INF, AA)"."""
        number = int(match.group("n1") or match.group("n2"))
        keyword = (match.group("kw") or "").lower()
        rest = match.group("rest")
        kind = BattleKind.BATTLE
        low = rest.lower() if rest.isascii() else None
        if keyword.startswith("w") or (_may_walk(low) and _WALK_MARK.search(rest)):
            kind = BattleKind.WALK_IN
        if (
            keyword in ("sbr", "raid")
            or "bombing" in keyword
            or (_may_raid(low) and _RAID_MARK.search(rest))
        ):
            kind = BattleKind.RAID
        end = _TERRITORY_END.search(rest)
        written = rest[: end.start()] if end else rest
        written = _without_marks(written).strip(" -:")
        tail = rest[end.start() :] if end else ""
        territory: str | None = None
        could_be: tuple[str, ...] = ()
        if written:
            territory, could_be = self.reader.battle_place(line, written, Rule.PRECOMBAT)
        else:
            self.reader.error(
                line,
                Rule.PRECOMBAT,
                f"battle #{number} names no territory",
                f"write the battle's place: Attack #{number} - <territory>",
            )
        defender, empty = _defenders(self.reader, line, tail) if tail.strip() else (None, False)
        again = next((d for d in self.drafts if d.number == number), None)
        if again is not None and territory is not None and again.territory == territory:
            self._again(line, again, defender)
            return
        if empty and kind is BattleKind.BATTLE:
            kind = BattleKind.WALK_IN
        if kind is BattleKind.WALK_IN and defender is None:
            defender = Units()
        if again is not None:
            self.reader.warning(
                line,
                Rule.PRECOMBAT,
                f"battle #{number} is declared twice",
                "number each battle once",
                "duplicate-battle",
            )
        self.current = Draft(number, territory, line, kind, defender, could_be=could_be)
        self.drafts.append(self.current)

    def _again(self, line: int, draft: Draft, defender: Units | None) -> None:
        """A second header of battle ``draft``, same number and place (a player correcting
        himself mid-email, or heading the rest of its attackers): one combat in one place
        (Section II: "The declared territory or sea zone is always assumed to be correct"),
        its origins those under both headers, its defenders the later list when it has one
        (the first header's kind, walk-in or raid, stands)."""
        replaced = (
            f"; the defenders listed here ({defender}) replace those of line {draft.line} "
            f"({draft.defender})"
            if defender is not None and draft.defender is not None and defender != draft.defender
            else ""
        )
        self.reader.warning(
            line,
            Rule.PRECOMBAT,
            f"battle #{draft.number} ({draft.territory}) is declared twice: read as one battle, "
            f"with the attacking units under both headers{replaced}",
            "declare each battle once; to change a declaration before any die is rolled, send "
            "the whole pre-combat turn again",
            "duplicate-battle",
        )
        if defender is not None:
            draft.defender = defender
        self.current = draft

    def total(self, line: int, text: str, *, in_combat: bool) -> bool:
        """A Total line; False if ``text`` is not one. Outside the combat moves, a "Total"
        with no battle above it is something else ("Total IPCs: 32")."""
        m = _TOTAL.match(text)
        if m is None:
            return False
        if self.current is None:
            if in_combat:
                self.reader.error(
                    line,
                    Rule.PRECOMBAT,
                    "a Total line with no battle above it",
                    "put the Total line under its battle's header",
                    "no-battle",
                )
            return in_combat
        rest = m.group("rest")
        powers: list[Power] = []
        sep = _TOTAL_SEP.search(rest)
        if sep is not None and not has_digit(rest[: sep.start()]):
            for written in _VERSUS.split(f" {rest[: sep.start()]} "):
                if written.strip():
                    power = self.reader.lookup.power(written.strip())
                    if power is not None:
                        powers.append(power)
            rest = rest[sep.end() :]
        sides = _VERSUS.split(f" {rest} ", maxsplit=1)
        attack_toks = tokenize(sides[0])
        errors = self.reader.errors_on(line)
        attacker, stop, _ = self.reader.units(
            line, attack_toks, 0, len(attack_toks), Rule.PRECOMBAT
        )
        left = " ".join(t.text for t in attack_toks[stop:])
        if has_digit(left) and self.reader.errors_on(line) == errors:
            self.reader.error(
                line,
                Rule.PRECOMBAT,
                f"could not read {left!r} in the Total line",
                "write the Total as: Total UK v. Germany --- 8 INF, 1 ARM v. 10 INF, AA",
            )
        defender = None
        if len(sides) > 1:
            defender, _ = _defenders(self.reader, line, sides[1])
        self.current.total = Total(
            line,
            attacker,
            defender,
            powers[0] if powers else None,
            powers[1] if len(powers) > 1 else None,
        )
        return True

    def move(self, line: int, route: Route) -> None:
        """An origin line (or a walk-in line) under the current battle."""
        target = route.destination
        battle = self.current
        if route.walk_in and target is not None and (battle is None or battle.territory != target):
            battle = self._implicit(line, target, BattleKind.WALK_IN)
        elif (
            battle is not None
            and battle.implicit
            and target is not None
            and target != battle.territory
        ):
            battle = self._implicit(line, target, BattleKind.BATTLE)
        elif battle is None:
            if target is None:
                self.reader.error(
                    line,
                    Rule.PRECOMBAT,
                    "attacking units with no battle to join",
                    "head each attack: Attack #1 - <territory> (<defenders>)",
                    "no-battle",
                )
                return
            battle = self._implicit(line, target, BattleKind.BATTLE)
        path = list(route.path)
        if battle.territory is not None and path and path[-1] == battle.territory:
            path.pop()
        elif (
            target is not None
            and battle.territory is not None
            and not self.is_sea(target)
            and target not in route.path[:-1]
        ):
            self.reader.warning(
                line,
                Rule.PRECOMBAT,
                f"these units go to {target}, but battle #{battle.number} is in {battle.territory}",
                f"move the line under the battle in {target}, or correct the place",
                "destination-mismatch",
            )
        for place, units, could_be in route.origins:
            if not units.counts:
                if self.reader.errors_on(line) == 0:
                    self.reader.error(
                        line,
                        Rule.PRECOMBAT,
                        f"no attacking units are listed from {place or 'here'}",
                        'list the units after the origin: "Kar 2 FTR"',
                        "no-units",
                    )
                continue
            if place is None and not route.named_origin:
                self.reader.warning(
                    line,
                    Rule.CDE,
                    f"the units {units} for battle #{battle.number} have no "
                    "territory or sea zone of origin",
                    "Error Correction II: list the origin of every attacking unit, e.g. "
                    '"Kar 2 FTR"',
                    "missing-origin",
                )
            battle.origins.append(
                Origin(line, place, units, tuple(path), route.transports, route.lands, could_be)
            )

    def _implicit(self, line: int, territory: str, kind: BattleKind) -> Draft:
        for draft in self.drafts:
            if draft.territory == territory and draft.kind is kind:
                return draft
        draft = Draft(
            self._next_number(),
            territory,
            line,
            kind,
            Units() if kind is BattleKind.WALK_IN else None,
            implicit=True,
        )
        self.reader.info(
            line,
            Rule.PRECOMBAT,
            f"the {kind.value} in {territory} has no header; read as battle #{draft.number}",
            f"head it: Attack #{draft.number} - {territory}",
            "implicit-battle",
        )
        self.drafts.append(draft)
        if kind is BattleKind.BATTLE:
            self.current = draft
        return draft

    def finish(self) -> tuple[Battle, ...]:
        """The battles, checked: every battle has attackers; totals agree with origins."""
        battles = tuple(d.freeze() for d in self.drafts)
        for b in battles:
            self._check(b)
        return battles

    def _check(self, battle: Battle) -> None:
        n, r = battle.number, self.reader
        attacker = battle.attacker
        if not attacker.counts:
            r.warning(
                battle.line,
                Rule.PRECOMBAT,
                f"battle #{n} lists no attacking units",
                'list each attacking unit under the battle with its origin: "Kar 2 FTR"',
                "no-attackers",
            )
            return
        total = battle.total
        if not battle.origins and total is not None:
            r.warning(
                total.line,
                Rule.CDE,
                f"battle #{n} gives only a Total line: the origin of each attacking "
                "unit is not listed",
                'list each origin above the Total line, e.g. "UK 8 INF on UK SZ 4 TRN"',
                "missing-origin",
            )
        if total is not None and battle.origins and total.attacker.counts != attacker.counts:
            r.warning(
                total.line,
                Rule.CDE,
                f"battle #{n}: the Total line lists {total.attacker} attacking, but the "
                f"origins add up to {attacker}",
                "correct the Total line or the origins before rolling: a wrong attacker "
                "count voids the battle (Error Correction II)",
                "total-mismatch",
            )
        if (
            total is not None
            and total.defender is not None
            and battle.defender is not None
            and total.defender.counts != battle.defender.counts
        ):
            r.warning(
                total.line,
                Rule.CDE,
                f"battle #{n}: the header lists {battle.defender} defending, but the "
                f"Total line lists {total.defender}",
                "listed defenders must be 100% correct (Error Correction II.3)",
                "defender-mismatch",
            )


def is_battle_header(text: str) -> re.Match[str] | None:
    """The battle-header match of ``text``, if it is one."""
    return BATTLE_HEADER.match(text)
