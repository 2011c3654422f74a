"""A turn email's report as the pages show it: the text as sent, its lines numbered as the
notation numbers them, each of the rules engine's findings under the line it names, and the
findings about the whole turn (line 0) above the text."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dice_server import ledger
from dice_server.db import reading
from dice_server.errors import NotFound
from dice_server.kinds.turn import against_the_dice
from dice_server.ledger import Chain
from dice_server.models import Member
from dice_server.services import ServiceContext
from dice_server.services.battle_states import counted
from dice_server.services.views import GameSummary, summary_of, viewed_game


@dataclass(frozen=True)
class Finding:
    line: int
    severity: str
    rule: str
    message: str
    suggestion: str | None
    dice: bool = False
    """Found playing the turn out from the dice (the position follows them)."""


@dataclass(frozen=True)
class TextLine:
    number: int
    text: str
    findings: list[Finding]


@dataclass(frozen=True)
class SubmissionReport:
    """A recorded turn email with what the rules engine found in it, each finding under
    the line it names (those about the whole turn, line 0, above the text)."""

    summary: GameSummary
    seq: int
    at: str
    power: str
    round: int
    phase: str
    in_force: bool
    late: str | None
    amends: int | None
    general: list[Finding]
    lines: list[TextLine]
    battles: list[dict[str, Any]]

    @property
    def findings(self) -> list[Finding]:
        return [*self.general, *(f for line in self.lines for f in line.findings)]

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)


def _finding(found: Mapping[str, Any], *, dice: bool = False) -> Finding:
    line = found.get("line")
    return Finding(
        line=line if isinstance(line, int) else 0,
        severity=str(found.get("severity", "")),
        rule=str(found.get("rule", "")),
        message=str(found.get("message", "")),
        suggestion=found.get("suggestion") or None,
        dice=dice,
    )


def placed_findings(
    text: list[str],
    findings: Sequence[Mapping[str, Any]],
    dice: Sequence[Mapping[str, Any]] = (),
) -> tuple[list[Finding], list[TextLine]]:
    """The findings about the whole turn (line 0, or a line the text does not have), and
    each line of the text with the findings on it (``dice``: those of playing the turn
    out from the dice, after the email's own on each line)."""
    by_line: dict[int, list[Finding]] = {}
    for found, weighed in [*((f, False) for f in findings), *((f, True) for f in dice)]:
        shown = _finding(found, dice=weighed)
        by_line.setdefault(shown.line, []).append(shown)
    lines = [TextLine(n, line, by_line.pop(n, [])) for n, line in enumerate(text, 1)]
    return [f for n in sorted(by_line) for f in by_line[n]], lines


def submission_report(
    ctx: ServiceContext, number: int, seq: int, viewer: Member
) -> SubmissionReport:
    """Turn email ``seq`` of game ``number`` with its findings beside its lines."""
    with reading(ctx.sessions) as session:
        game = viewed_game(session, number, viewer)
        entry = ledger.entry(session, Chain.game(number), seq)
        if entry is None or entry.kind != "submission":
            raise NotFound(f"game {number} has no turn email at entry #{seq}")
        summary = summary_of(session, game, viewer)
    data = json.loads(entry.body)["data"]
    # Lines numbered as the notation numbers them (str.splitlines).
    general, lines = placed_findings(
        str(data["text"]).splitlines(), data.get("findings", []), against_the_dice(data)
    )
    return SubmissionReport(
        summary=summary,
        seq=entry.seq,
        at=entry.at,
        power=str(data["power"]),
        round=int(data["round"]),
        phase=str(data["phase"]),
        in_force=bool(data.get("in_force", 1)),
        late=data.get("late"),
        amends=data.get("amends"),
        general=general,
        lines=lines,
        battles=[
            {**b, "attacker": counted(b.get("attacker")), "defender": counted(b.get("defender"))}
            for b in data.get("battles", [])
        ],
    )
