"""A battle result (the JSON form) as text a player reads in a mail or a terminal.

It reads only the output dictionary, so the command line can render what
:func:`adjudicator.battle.resolve_json` returned, or a result stored earlier.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

_OUTCOMES = {
    "attacker-wins": "the attacker wins",
    "defender-wins": "the defender wins",
    "both-destroyed": "both sides destroyed (the defender keeps the territory)",
    "continues": "the battle continues",
    "attacker-retreats": "the attacker retreats",
}


PROVISIONAL = "Provisional outcome, NOT FINAL until the errors below are remedied"
"""How a result with an error diagnostic (``"final": 0``) is labelled: the dice it set aside
or lacks must be rolled again before anything is decided."""


def has_errors(result: Mapping[str, object]) -> bool:
    """Whether a result (one battle or a turn) holds an error diagnostic: it is then
    provisional, and ``pbem battle resolve`` exits 1."""
    docs = cast(Sequence[Mapping[str, object]], result.get("battles") or [result])
    notes = [*cast(Sequence[Mapping[str, object]], result.get("diagnostics") or [])]
    for doc in docs:
        notes += cast(Sequence[Mapping[str, object]], doc.get("diagnostics") or [])
    return any(d.get("severity") == "error" for d in notes)


def _units(counts: object) -> str:
    pairs = cast(Mapping[str, int], counts or {})
    return ", ".join(f"{n} {unit}" for unit, n in pairs.items()) or "none"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _round_lines(r: Mapping[str, object]) -> list[str]:
    extras = [
        f"{label} {r[key]}"
        for key, label in (
            ("aa_hits", "AA hits"),
            ("bombard_hits", "support-shot hits"),
            ("first_strike_hits", "first-strike hits"),
        )
        if r.get(key)
    ]
    head = (
        f"Round {r['round']}: attacker {_plural(cast(int, r['attacker_hits']), 'hit')}, "
        f"defender {_plural(cast(int, r['defender_hits']), 'hit')}"
    )
    lines = [head + (f" ({'; '.join(extras)})" if extras else "")]
    lines.append(
        f"  attacker lost {_units(r['attacker_casualties'])}; "
        f"defender lost {_units(r['defender_casualties'])}"
    )
    damaged = cast(Mapping[str, int], r.get("damaged") or {})
    hurt = [f"{side} {n}" for side, n in damaged.items() if n]
    if hurt:
        lines.append(f"  battleships damaged (one hit, still afloat): {', '.join(hurt)}")
    withdrawn = cast(Mapping[str, object], r.get("withdrawn") or {})
    for side in ("attacker", "defender"):
        if withdrawn.get(side):
            lines.append(f"  {side} withdrew {_units(withdrawn[side])}")
    pause = cast(Mapping[str, object] | None, r.get("pause"))
    if pause:
        answered = " (answered)" if pause.get("answered") else ""
        lines.append(f"  PAUSE{answered}: {pause.get('message', pause.get('reason'))}")
    return lines


def _diagnostic_lines(notes: Sequence[Mapping[str, object]]) -> list[str]:
    lines = []
    for d in notes:
        where = [f"battle {d['battle']}"] if d.get("battle") is not None else []
        if d.get("round") is not None:
            where.append(f"round {d['round']}")
        place = f"{', '.join(where)}: " if where else ""
        lines.append(f"  {str(d['severity']).upper()} {place}{d['message']} [{d['rule']}]")
    return lines


def _battle_lines(doc: Mapping[str, object]) -> list[str]:
    start = cast(Mapping[str, object], doc.get("start") or {})
    kind = f"{doc.get('kind', '')} battle" + (" (amphibious)" if doc.get("amphibious") else "")
    title = f"{doc['name']}: " if doc.get("name") else ""
    lines = [
        f"{title}{kind.capitalize()}: {_units(start.get('attacker'))} v. "
        f"{_units(start.get('defender'))}"
    ]
    for r in cast(Sequence[Mapping[str, object]], doc.get("rounds") or []):
        lines.extend(_round_lines(r))
    survivors = cast(Mapping[str, object], doc["survivors"])
    lines.append(
        f"Survivors: attacker {_units(survivors['attacker'])}; "
        f"defender {_units(survivors['defender'])}"
    )
    outcome = _OUTCOMES.get(str(doc["outcome"]), str(doc["outcome"]))
    detail = []
    if doc.get("captured"):
        detail.append("territory captured")
    if doc.get("outcome") == "continues":
        detail.append("retreat allowed" if doc.get("retreat_allowed") else "no retreat")
    if doc.get("closed"):
        detail.append(f"closed: {doc['closed']}")
    label = "Outcome" if doc.get("final", 1) else PROVISIONAL
    lines.append(f"{label}: {outcome}" + (f" ({'; '.join(detail)})" if detail else ""))
    notes = cast(Sequence[Mapping[str, object]], doc.get("diagnostics") or [])
    if notes:
        lines.append("Diagnostics:")
        lines.extend(_diagnostic_lines(notes))
    return lines


def render_text(result: Mapping[str, object]) -> str:
    """The human form of a result from :func:`~adjudicator.battle.resolve_json`: one battle,
    or every battle of a turn followed by the order-of-battles findings."""
    if "battles" in result:
        blocks = []
        for number, doc in enumerate(cast(Sequence[Mapping[str, object]], result["battles"]), 1):
            blocks.append("\n".join([f"Battle {number}", *_battle_lines(doc)]))
        notes = cast(Sequence[Mapping[str, object]], result.get("diagnostics") or [])
        if notes:
            blocks.append("\n".join(["Order of battles:", *_diagnostic_lines(notes)]))
        return "\n\n".join(blocks) + "\n"
    return "\n".join(_battle_lines(result)) + "\n"
