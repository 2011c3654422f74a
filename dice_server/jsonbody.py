"""One reader for every JSON document the service is sent: the API's request bodies, TripleA's
``/api/roll`` and ``/api/register``, and the ledgers and entries pasted or uploaded on the
verify page.

Python's ``json`` reads more than a request may hold and fails, on what a hostile client can
send, in Python's own words ("maximum recursion depth", "sys.set_int_max_str_digits"). This
reader refuses each such document first, as a 400 that says what is wrong and where:

* text that is not UTF-8 (a byte order mark is skipped: editors write one);
* nesting deeper than :data:`MAX_DEPTH`, found by a scan before Python's recursion can fail;
* an integer longer than :data:`MAX_DIGITS`, found before ``int()`` meets its digit limit;
* floats, NaN and Infinity (the ledger holds integers and strings only, DESIGN.md);
* a key given twice in one object (which value was meant?);
* a lone surrogate (``"\\ud800"``), which no UTF-8 text can hold.

Booleans and nulls are JSON and are read: whether a field may hold one is the field's
question, and its checks answer in its own words. The standalone verifier reads exported
ledgers itself (it must run without this package); this reader refuses no exported ledger or
entry that the verifier would pass (their bodies are strings, which it does not look into).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from dice_server.errors import InvalidRequest
from dice_server.text import is_unicode

#: Deeper than any request or exported ledger (a battle roll is three levels deep).
MAX_DEPTH = 32
#: 2**53, the ledger's integer limit (DESIGN.md), has 16 digits: no field takes a longer one.
MAX_DIGITS = 16
#: How much of a string an error message quotes.
SHOWN = 40

# Outside strings, only brackets and long digit runs matter to the scan; a quote that opens no
# complete string starts an unterminated one, which the parser itself reports.
_TOKENS = re.compile(rf'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{{}}]|-?\d{{{MAX_DIGITS + 1},}}|"', re.DOTALL)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def read_json(raw: bytes | str, what: str = "the request body") -> Any:
    """The JSON value of ``raw``; :class:`InvalidRequest` naming ``what`` if it is refused."""
    text = _text(raw, what)
    if not text.strip():
        raise InvalidRequest(f"{what} is empty: send a JSON object")
    _scan(text, what)
    twice: list[tuple[dict[str, Any], str]] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(items)
        if len(obj) != len(items) and not twice:
            twice.append((obj, _repeated([key for key, _ in items])))
        return obj

    def refuse_float(number: str) -> Any:
        raise InvalidRequest(
            f"the number {number} in {what} is not a whole number: send whole numbers only"
        )

    def refuse_constant(name: str) -> Any:
        raise InvalidRequest(f"{name} is not allowed in {what}: send whole numbers and text only")

    try:
        value = json.loads(
            text,
            object_pairs_hook=pairs,
            parse_float=refuse_float,
            parse_constant=refuse_constant,
        )
    except json.JSONDecodeError as exc:
        raise InvalidRequest(
            f"{what} is not JSON: {exc.msg.removesuffix(' at')} at line {exc.lineno} "
            f"column {exc.colno}"
        ) from None
    # Lone surrogates first: a message naming a duplicate key's path must be encodable.
    if _SURROGATE_ESCAPE.search(text):
        found = _lone_surrogate(value)
        if found is not None:
            where, field = found
            raise InvalidRequest(
                f"{what} holds a lone surrogate (half of a \\u escape pair) in {where}, "
                "which is not valid Unicode text: send UTF-8 text",
                field,
            )
    if twice:
        obj, key = twice[0]
        path = _path_of(value, obj)
        where = path or "the top-level object"
        raise InvalidRequest(
            f"{what} gives the key {shown(key)} twice in {where}: give each field once",
            None if not is_unicode(key) else key if not path else f"{path}.{key}",
        )
    return value


def shown(value: Any) -> str:
    """A JSON value as an error message shows it: short text quoted, containers by kind."""
    if isinstance(value, str):
        quoted = json.dumps(value[:SHOWN], ensure_ascii=False)
        if not is_unicode(quoted):  # a lone surrogate is shown as its escape
            quoted = json.dumps(value[:SHOWN])
        return quoted[:-1] + '…"' if len(value) > SHOWN else quoted
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if value.bit_length() <= 64 else "a number too large for any field"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return "a value of no JSON type"


def _text(raw: bytes | str, what: str) -> str:
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidRequest(
                f"{what} is not UTF-8 (byte {exc.start + 1} cannot start or continue a "
                "character): send UTF-8 text"
            ) from None
    return raw.removeprefix("\ufeff")


def _scan(text: str, what: str) -> None:
    """Refuse too deep a nesting and too long an integer before the parser meets them."""
    depth = 0
    for token in _TOKENS.finditer(text):
        first = token.group()[0]
        if first in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise InvalidRequest(
                    f"{what} cannot be read: it nests deeper than {MAX_DEPTH} levels (at "
                    f"{_position(text, token.start())}), deeper than anything the dice server "
                    "reads"
                )
        elif first in "]}":
            depth -= 1
        elif first == '"':
            if len(token.group()) == 1:
                return
        else:
            digits = len(token.group().lstrip("-"))
            raise InvalidRequest(
                f"{what} cannot be read: it holds a number of {digits} digits (at "
                f"{_position(text, token.start())}); no field takes more than {MAX_DIGITS}"
            )


def _repeated(keys: list[str]) -> str:
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            return key
        seen.add(key)
    raise ValueError("no key is repeated")


def _position(text: str, index: int) -> str:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"line {line} column {column}"


def children(value: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Each member of a JSON object or array with where it stands (``attacker[0].unit``)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (f"{path}.{key}" if path else str(key)), item
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield f"{path}[{index}]", item


def _path_of(value: Any, target: Any, path: str = "") -> str | None:
    """Where the object ``target`` sits in ``value`` (``attacker[0]``), by identity."""
    if value is target:
        return path
    for step, item in children(value, path):
        if isinstance(item, dict | list):
            found = _path_of(item, target, step)
            if found is not None:
                return found
    return None


def _lone_surrogate(value: Any, path: str = "") -> tuple[str, str | None] | None:
    """Where the first key or string holding a lone surrogate is, and its field."""
    if isinstance(value, str):
        return None if is_unicode(value) else (f"the text at {path or 'the top level'}", path)
    items: Any = ()
    if isinstance(value, dict):
        for key in value:
            if not is_unicode(key):
                return f"the key {shown(key)} in {path or 'the top-level object'}", path or None
        items = ((f"{path}.{k}" if path else k, v) for k, v in value.items())
    elif isinstance(value, list):
        items = ((f"{path}[{i}]", v) for i, v in enumerate(value))
    for step, item in items:
        found = _lone_surrogate(item, step)
        if found is not None:
            return found
    return None
