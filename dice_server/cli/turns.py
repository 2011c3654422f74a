"""`pbem` commands for the rules engine: read a turn, write a position, replay a battle.
They need no instance, database or keys: the adjudicator is pure."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click


def emit(obj: object) -> None:
    click.echo(json.dumps(obj, indent=2, ensure_ascii=False))


@click.group()
def turn() -> None:
    """Emailed turns."""


def read_bytes(file: str) -> bytes:
    if file == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(file).read_bytes()
    except OSError as exc:
        click.echo(f"error: cannot read {file}: {exc.strerror}", err=True)
        sys.exit(2)


def as_text(data: bytes) -> str:
    """``data`` as a text file reads: UTF-8 (a bad byte replaced), every line end "\\n"."""
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")


def read_input(file: str) -> str:
    return as_text(read_bytes(file))


_MAIL_PROGRAM_HEADERS = frozenset(
    {"mime-version", "content-type", "content-transfer-encoding", "received", "return-path"}
    | {"delivered-to", "dkim-signature", "user-agent"}
)
"""Headers only a mail program writes (with any X- header): a file whose first block names
one is a saved message, to decode; a turn pasted under what a client shows is not."""
_HEADER_NAME = re.compile(r"^([!-9;-~]+)[ \t]*:", re.MULTILINE)


def read_turn(file: str) -> str:
    """The turn in FILE. A message saved by a mail program (a ``.eml``) is read as the mail
    gateway reads it (``dice_server.mail.inbound``): the text its sender wrote, not its MIME
    parts, with what was wrong with it on stderr. Anything else is read as written, as
    before, including a turn pasted under the headers a mail client shows (From, To,
    Subject, Date), which the engine reads itself: its Subject may name the power and
    round."""
    from dice_server.mail.inbound import looks_like_message, read_message

    data = read_bytes(file)
    head = as_text(data[:65_536]).partition("\n\n")[0]
    names = {name.lower() for name in _HEADER_NAME.findall(head)}
    saved = any(n in _MAIL_PROGRAM_HEADERS or n.startswith("x-") for n in names)
    if not (saved and looks_like_message(data)):
        return as_text(data)
    inbound = read_message(data)
    what = {"plain": "its text/plain part", "html": "its HTML part as text"}
    read = what.get(inbound.text_source, "nothing, no text part")
    click.echo(f"note: {file} is a mail message: read {read}", err=True)
    if inbound.bounce or inbound.auto_submitted:
        kind = "a delivery failure report" if inbound.bounce else "sent by a program"
        click.echo(f"note: {file}: {kind}, not a turn", err=True)
    for problem in inbound.problems:
        click.echo(f"note: {file}: {problem}", err=True)
    return numbered_as_in_file(data, inbound.text)


def numbered_as_in_file(data: bytes, text: str) -> str:
    """``text``, the body of the message ``data``, with blank lines in place of the headers
    when it stands in the file as written (no transfer encoding, no MIME parts), so that a
    diagnostic's line is the file's; else as decoded, from line 1."""
    for codec in ("utf-8", "cp1252", "latin-1"):
        raw = data.decode(codec, errors="replace").replace("\r\n", "\n").replace("\r", "\n")
        head, blank, body = raw.partition("\n\n")
        if blank and body == text:
            return "\n" * (head.count("\n") + 2) + text
    return text


@turn.command("check")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print the versioned JSON report.")
@click.option("--initial", is_flag=True, help="Check the declarations against the setup.")
@click.option("--position", "position_file", help="Check them against this position file.")
@click.option(
    "--precombat",
    "precombat_file",
    help="The turn's pre-combat email, for a "
    "post-combat email checked against its combat moves too.",
)
def turn_check(
    file: str,
    as_json: bool,
    initial: bool,
    position_file: str | None,
    precombat_file: str | None,
) -> None:
    """Read an emailed turn (FILE, or - for stdin): the orders and every diagnostic; with a
    position, the combat declarations are checked against the board before any die, and
    the battles a declaration error voids are listed. FILE may be a saved message (.eml):
    the text its sender wrote is read, as the mail gateway reads it. Exits 1 when part of
    the turn could not be read or a declaration is in error."""
    from adjudicator.notation import render_report as render_text
    from adjudicator.notation import report

    text = read_turn(file)
    if initial and position_file:
        click.echo("error: give --initial or --position, not both", err=True)
        sys.exit(2)
    if initial or position_file:
        from adjudicator.declarations import check_report
        from adjudicator.position import initial_json, load_json

        try:
            doc = initial_json() if initial else json.loads(read_input(position_file or ""))
            position = load_json(doc)
        except ValueError as exc:
            click.echo(f"error: the position {position_file}: {exc}", err=True)
            sys.exit(2)
        precombat = read_turn(precombat_file) if precombat_file else None
        result = check_report(text, position, precombat=precombat)
    else:
        result = report(text)
    if as_json:
        click.echo(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        click.echo(render_text(result) + void_battles_line(result))
    sys.exit(1 if result["summary"]["errors"] else 0)


def void_battles_line(result: dict[str, Any]) -> str:
    """The report's ``void_battles`` for a person: the battles a combat declaration error
    voids (IAAPA Error Correction II), or none; nothing when no position was checked."""
    if "void_battles" not in result:
        return ""
    names = {b["number"]: b.get("territory") or "?" for b in result.get("battles", [])}
    void = [f"#{n} {names.get(n, '')}".rstrip() for n in result["void_battles"]]
    return f"Void battles: {', '.join(void) or 'none'}\n"


@click.group()
def position() -> None:
    """Board positions."""


@position.command("initial")
def position_initial() -> None:
    """Print the Classic initial position as versioned JSON."""
    from adjudicator.position import initial_json

    emit(initial_json())


@position.command("draw")
@click.argument("file")
@click.option("-o", "--output", help="Write the SVG to this file (default: stdout).")
def position_draw(file: str, output: str | None) -> None:
    """Draw the position in FILE (- for stdin; JSON as `pbem position initial` prints it)
    as an SVG picture of the board: land in its owner's colour, each power's units at the
    centre of every space. Exits 2, writing nothing, when FILE is not a position."""
    from adjudicator.boards.drawing import draw_svg
    from adjudicator.position import load_json

    text = read_input(file)
    with refused_input(file, status=2, invalid=f"{file} is not a position: "):
        svg = draw_svg(load_json(json.loads(text)))
    if output is None:
        click.echo(svg, nl=False)
        return
    try:
        Path(output).write_text(svg, encoding="utf-8")
    except OSError as exc:
        click.echo(f"error: cannot write {output}: {exc.strerror}", err=True)
        sys.exit(2)


@click.group()
def battle() -> None:
    """Replay battles from the recorded dice."""


RESOLVE_HELP = """Resolve a battle (or a turn's battles) from FILE (- for stdin), round by
round by the orders of loss, with the pauses the rules require.

\b
FILE is a battle document, version 1, for example:
  {"version": 1, "kind": "land", "name": "Attack #1 - W Europe",
   "attacker": {"INF": 8, "ARM": 1, "FTR": 2},
   "defender": {"INF": 10, "AA": 1},
   "order_of_loss": {"attacker": ["INF", "FTR", "ARM"]},
   "rounds": [{"aa": [5, 1],
               "attacker": {"INF": [1, 3, 6, 2, 1, 4, 5, 6], "ARM": [2],
                            "FTR": [3, 3]},
               "defender": {"INF": [2, 6, 1, 5, 3, 4, 6, 2, 1, 6]}}]}

\b
Keys: kind "land" or "sea"; attacker, defender {UNIT: count} (INF ARM FTR BMB TRN
SUB AC BB, AA and IC on defence); optional amphibious 0|1, no_retreat 0|1,
order_of_loss {side: [UNIT...]} (default: the IAAPA orders), technologies {side:
[TECH...]}, loaded {"AC": n, "TRN": n}, name. Each round, in the order rolled: aa
(one die per attacking aircraft; each 1 removes an aircraft the attacker's order
of loss picks, and that aircraft's own dice in the round do not count), bombard,
subs (first strike), attacker and defender {UNIT: [dice]}, and optionally
casualties, withdraw, retreat. Several battles: {"version": 1, "battles": [...]}.
The full format is in adjudicator/battle/__init__.py and the README.

\b
"ruleset": "big_world_1942" resolves a battle of TripleA's Big World 1942 instead
(units INF ART ARM FTR BMB TRN SUB DD CA AC BB, AA and IC on defence; its rounds
hold aa, bombard {UNIT: [dice]}, attacker, defender and retreat; dice that do not
fit the units that fire are refused): see adjudicator/bigworld/reading.py.

Exits 0 with a final result, 1 on malformed input or when an error diagnostic makes
the result provisional (dice set aside or missing: roll again before it counts).
"""


@contextmanager
def refused_input(name: str, *, status: int = 1, invalid: str = "") -> Iterator[None]:
    """Malformed input ends the command with ``error:`` on stderr (``invalid`` before the
    reason) and exit ``status``."""
    try:
        yield
    except json.JSONDecodeError as exc:
        click.echo(f"error: {name} is not JSON: {exc.msg} at line {exc.lineno}", err=True)
        sys.exit(status)
    except ValueError as exc:
        click.echo(f"error: {invalid}{exc}", err=True)
        sys.exit(status)


def _show_battle(result: dict[str, object], as_json: bool) -> None:
    """Print a result; exit 1 when an error diagnostic makes it provisional."""
    from adjudicator.battle.render import has_errors
    from adjudicator.battle.render import render_text as render_battle

    click.echo(json.dumps(result, indent=2) if as_json else render_battle(result))
    if has_errors(result):
        click.echo(
            "provisional: an error diagnostic holds; the result is not final until it is remedied",
            err=True,
        )
        sys.exit(1)


@battle.command("resolve", help=RESOLVE_HELP)
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print the versioned JSON result.")
def battle_resolve(file: str, as_json: bool) -> None:
    from adjudicator.battle import resolve_json

    with refused_input(file):
        result = resolve_json(json.loads(read_input(file)))
    _show_battle(result, as_json)


ODDS_HELP = """The exact odds of a battle before it is rolled, from FILE (- for stdin): win,
lose and draw, the likeliest survivors, the expected IPC lost, how many rounds.

\b
FILE is a battle document as `battle resolve` reads it, without rounds, for example:
  {"version": 1, "kind": "land",
   "attacker": {"INF": 8, "ARM": 1, "FTR": 2}, "defender": {"INF": 10, "AA": 1},
   "retreat": {"attackers_at_most": 3}}
retreat is optional: {"attackers_at_most": N} retreats after a round that leaves N
attacking units or fewer, {"after_round": K} after round K (never in an amphibious
assault or with no_retreat). The format is in adjudicator/odds/__init__.py.
"ruleset": "big_world_1942" gives the odds by TripleA's Big World 1942 rules
(adjudicator/bigworld/).

Exits 0, or 2 on malformed input.
"""


@battle.command("odds", help=ODDS_HELP)
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print the versioned JSON odds.")
def battle_odds(file: str, as_json: bool) -> None:
    from adjudicator.odds import odds_json, render_odds

    with refused_input(file, status=2):
        result = odds_json(json.loads(read_input(file)))
    click.echo(json.dumps(result, indent=2) if as_json else render_odds(result), nl=as_json)


@battle.command("replay")
@click.argument("ledger")
@click.option(
    "--seq",
    "seqs",
    type=int,
    multiple=True,
    required=True,
    help="A roll entry of the battle (repeat for each, any order: read in seq order).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the versioned JSON result.")
@click.option(
    "--document",
    is_flag=True,
    help="Print the battle document built from the entries (what battle resolve reads).",
)
def battle_replay(ledger: str, seqs: tuple[int, ...], as_json: bool, document: bool) -> None:
    """Replay a battle from its roll entries in LEDGER (an exported ledger, - for stdin):
    prints exactly what `pbem battle resolve` prints for the battle those entries record
    (subs-first entries open a round, AA hits remove the aircraft the attacker's default
    order of loss picks). Signatures are not checked here: `pbem ledger verify` does that.
    Exits like battle resolve."""
    from adjudicator.rolls import battle_document, replay

    with refused_input(ledger):
        entries = ledger_entries(json.loads(read_input(ledger)), seqs)
        if document:
            emit(battle_document(entries))
            return
        result = replay(entries)
    _show_battle(result, as_json)


def ledger_entries(exported: object, seqs: tuple[int, ...]) -> list[dict[str, Any]]:
    """The bodies of the entries ``seqs`` of an exported ledger (``{"entries": [{"body",
    "sig", "key"}, ...]}``, or a list of such entries), parsed."""
    items = exported.get("entries") if isinstance(exported, dict) else exported
    if not isinstance(items, list):
        raise ValueError('the ledger is {"entries": [...]} as `pbem ledger export` writes it')
    found: dict[int, dict[str, Any]] = {}
    for item in items:
        body = item.get("body") if isinstance(item, dict) else None
        obj = json.loads(body) if isinstance(body, str) else item
        if isinstance(obj, dict) and isinstance(obj.get("seq"), int):
            found[obj["seq"]] = obj
    missing = [seq for seq in seqs if seq not in found]
    if missing:
        raise ValueError(f"the ledger has no entry #{missing[0]}")
    return [found[seq] for seq in seqs]
