"""The human form of a turn-check report (``pbem turn check FILE`` without ``--json``).

It reads the report object, not the parsed turn, so what a person sees is exactly what
``--json`` prints: each order with its line, then every diagnostic with its rule and
suggestion, then the counts of errors, warnings and notes.
"""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.notation.jsonreport import Report


def _units(units: Mapping[str, int] | None) -> str:
    if not units:
        return "none"
    return ", ".join(f"{count} {unit}" for unit, count in units.items())


def _scope(obj: Report) -> str:
    parts = []
    if "number" in obj:
        parts.append(f"battle #{obj['number']}")
    if "territory" in obj:
        parts.append(obj["territory"])
    if not parts and "battles" in obj:
        return f"every {obj['battles']} battle"
    return " ".join(parts) or "every battle"


def _place(obj: Report, key: str, none: str) -> str:
    """``obj[key]``, else the places a name fitting several could be, else ``none``."""
    if key in obj:
        return str(obj[key])
    if "could_be" in obj:
        return f"? (one of {', '.join(obj['could_be'])})"
    return none


def _battle(b: Report) -> list[str]:
    versus = f" v. {_units(b['defender'])}" if "defender" in b else " (defenders not listed)"
    kind = "" if b["kind"] == "battle" else f" [{b['kind']}]"
    out = [
        f"  #{b['number']} {_place(b, 'territory', '?')}{kind} (line {b['line']}): "
        f"{_units(b['attacker'])}{versus}"
    ]
    for o in b["origins"]:
        text = f"    line {o['line']}: {_place(o, 'from', '(no origin)')}: {_units(o['units'])}"
        if "transports" in o:
            text += f" on {_units(o['transports'])}"
        if "via" in o:
            text += f" via {', '.join(o['via'])}"
        if "land" in o:
            text += f", land {o['land']}"
        out.append(text)
    if "total" in b:
        t = b["total"]
        defender = f" v. {_units(t['defender'])}" if "defender" in t else ""
        out.append(f"    line {t['line']}: Total {_units(t['attacker'])}{defender}")
    return out


def _orders(rep: Report) -> list[str]:
    out: list[str] = []

    def section(title: str, lines: list[str]) -> None:
        if lines:
            out.append(f"{title}:")
            out.extend(lines)

    section(
        "Tech",
        [
            f"  line {t['line']}: {t.get('dice', '?')} dice, "
            f"{', '.join(t['technologies']) or 'no breakthrough'}"
            for t in rep["tech"]
        ],
    )
    section(
        "Purchases",
        [
            f"  line {p['line']}: {_units(p['units'])}"
            + (f" (${p['spent']} spent)" if "spent" in p else "")
            + (f" (${p['remaining']} left)" if "remaining" in p else "")
            for p in rep["purchases"]
        ],
    )
    section("Battles", [line for b in rep["battles"] for line in _battle(b)])
    section(
        "Results",
        [
            f"  line {r['line']}: {_scope(r)}: {r['outcome']}"
            + (f", survivors {_units(r['survivors'])}" if "survivors" in r else "")
            + (f", lost {_units(r['losses'])}" if "losses" in r else "")
            + (f", to {r['retreat_to']}" if "retreat_to" in r else "")
            + (f", ${r['damage']} damage" if "damage" in r else "")
            for r in rep["results"]
        ],
    )
    section(
        "Non-combat moves",
        [
            f"  line {m['line']}: {m.get('from', '(no origin)')} -> {m['to']}: "
            f"{_units(m['units'])}" + (f" via {', '.join(m['via'])}" if "via" in m else "")
            for m in rep["moves"]
        ],
    )
    section(
        "Placements",
        [f"  line {p['line']}: {p['territory']}: {_units(p['units'])}" for p in rep["placements"]],
    )
    section(
        "Map update",
        [
            f"  line {e['line']}: {e['territory']}: {_units(e['units'])}"
            + "".join(
                f" ({power}: {_units(units)})" for power, units in e.get("others", {}).items()
            )
            for e in rep["map"]
        ],
    )
    section(
        "Count",
        [
            f"  line {c['line']}: "
            + (f"{c['power']} " if "power" in c else "")
            + (f"{c['territories']} territories / " if "territories" in c else "")
            + f"${c['ipcs']}"
            for c in rep["counts"]
        ],
    )
    _special_sections(rep, out)
    return out


def _special_sections(rep: Report, out: list[str]) -> None:
    """The orders of loss, sub withdrawals and retreats of ``rep``, by section, onto ``out``."""
    sections = (
        (
            "Orders of loss",
            [
                f"  line {o['line']}: {_scope(o)}: "
                + ", ".join(f"{e.get('count', '')} {e['unit']}".strip() for e in o["order"])
                for o in rep["orders_of_loss"]
            ],
        ),
        (
            "Sub withdrawals",
            [f"  line {w['line']}: {_scope(w)}: to {w['to']}" for w in rep["withdrawals"]],
        ),
        ("Retreats", [f"  line {r['line']}: {_scope(r)}: to {r['to']}" for r in rep["retreats"]]),
    )
    for title, lines in sections:
        if lines:
            out.append(f"{title}:")
            out.extend(lines)


def special_orders(rep: Report) -> list[str]:
    """How a note of special orders or a retreat reads, as the battles apply it: its orders
    of loss, sub withdrawals and retreats by line, then what could not be read (or was read
    only after a correction), each by line; empty if the note holds none of them."""
    out: list[str] = []
    _special_sections(rep, out)
    if not out:
        return []
    for d in rep["diagnostics"]:
        where = f"line {d['line']}" if d["line"] else "the note"
        out.append(f"  {where}: {d['severity']}: {d['message']}")
    return out


def render_report(rep: Report) -> str:
    """The report as text for a person: orders by section, then diagnostics, then totals."""
    who = " ".join(str(rep[k]) for k in ("power", "round") if k in rep)
    out = [
        f"Turn check (report version {rep['version']}): {rep['kind']} turn"
        + (f", {who}" if who else "")
    ]
    out.extend(_orders(rep))
    if rep["diagnostics"]:
        out.append("Diagnostics:")
        for d in rep["diagnostics"]:
            where = f"line {d['line']}" if d["line"] else "email"
            out.append(f"  {where}: {d['severity']}: {d['message']} [{d['rule']}]")
            out.append(f"      suggestion: {d['suggestion']}")
    s = rep["summary"]
    out.append(f"{s['errors']} error(s), {s['warnings']} warning(s), {s['infos']} note(s)")
    return "\n".join(out) + "\n"
