"""Offline verification of an exported dice ledger.

This module is deliberately standalone: it imports only the standard library and
``cryptography``, so that a player who trusts nothing but his own machine can run it
on an exported ledger and the published keys without the server or this package.
The server's own ledger code imports the canonical encoding and the dice function from
here, so that signer and verifier cannot drift apart.

Usage: ``python verifier.py LEDGER.json --keys KEYS.json``
"""

from __future__ import annotations

import argparse
import base64
import binascii
import hashlib
import hmac
import json
import os
import re
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

FORMAT_VERSION = 1
ZERO_HASH = "0" * 64
MAX_INT = 2**53
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
TIME_PATTERN = re.compile(r"\A\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z\Z")
ROLL_KINDS = frozenset({"roll", "tech-roll", "bombing-roll", "rocket-roll"})
SEED_KINDS = frozenset({"genesis", "commitment"})
KINDS = ROLL_KINDS | SEED_KINDS | {"note", "submission", "ruling", "seed-reveal"}


class NotCanonical(ValueError):
    """A value the ledger format cannot hold (a float, a boolean, a null, a huge integer...)."""


def check_value(value: Any, where: str = "body") -> None:
    """Refuse anything but dicts with string keys, lists, valid strings and safe integers.

    DESIGN.md: integers and strings only; no floats or booleans; integers below 2**53;
    strings valid Unicode (a lone surrogate cannot be encoded as UTF-8). The walk builds
    the path of the offending value only when there is one: it runs on every append and
    on every entry a verifier reads.
    """
    found = _find_problem(value)
    if found is not None:
        raise NotCanonical(f"{where}{found[0]}: {found[1]}")


def _scalar_problem(value: Any) -> str | None:
    kind = type(value)
    if kind is int:
        return None if -MAX_INT < value < MAX_INT else f"integer {value} is out of range"
    if kind is str:
        if value.isascii():
            return None
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return f"string is not valid Unicode ({exc.reason})"
        return None
    return f"{kind.__name__} values are not allowed"


def _find_problem(value: Any) -> tuple[str, str] | None:
    kind = type(value)
    if kind is dict:
        items: Any = value.items()
    elif kind is list:
        items = enumerate(value)
    else:
        problem = _scalar_problem(value)
        return None if problem is None else ("", problem)
    for key, item in items:
        step = f"[{key}]" if kind is list else f".{key}"
        if kind is dict and type(key) is not str:
            return (" key", "keys must be strings")
        if kind is dict and not key.isascii():
            key_problem = _scalar_problem(key)
            if key_problem is not None:
                return (" key", key_problem)
        item_kind = type(item)
        if item_kind is dict or item_kind is list:
            found = _find_problem(item)
            if found is not None:
                return (step + found[0], found[1])
        else:
            problem = _scalar_problem(item)
            if problem is not None:
                return (step, problem)
    return None


def canonical_json(obj: Any, *, checked: bool = False) -> bytes:
    """The exact bytes that are signed and stored (DESIGN.md, "The ledger").

    Unless ``checked`` (the object came from :func:`decode_body`), the bytes are read back:
    what the format cannot hold is refused there, and anything JSON would silently change
    (a tuple, a non-string key) makes the read-back differ from the object.
    """
    try:
        text = json.dumps(
            obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
        body = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise NotCanonical(f"body: string is not valid Unicode ({exc.reason})") from None
    except (TypeError, ValueError) as exc:
        raise NotCanonical(f"body: {exc}") from None
    if not checked and decode_body(body) != obj:
        raise NotCanonical("body: holds values JSON would change (a tuple, a non-string key)")
    return body


# In a compact body a literal true, false or null, or an integer too long to be safe,
# can only stand between one of ":,[" and one of ",]}".
_SUSPECT = re.compile(rb"[:,\[](?:true|false|null|-?\d{16,})[,\]}]")


def _refuse_float(text: str) -> Any:
    raise NotCanonical(f"body: float values are not allowed ({text})")


def _refuse_constant(text: str) -> Any:
    raise NotCanonical(f"body: {text} is not allowed")


def decode_body(body: bytes) -> Any:
    """Parse a stored body, refusing as it reads what the format cannot hold.

    Floats and NaN are refused by the parser's hooks; booleans, nulls and integers of 16
    digits or more can only be present where the body has such a bare token, and only
    then is the slower walk over every value needed. A body nested too deeply for Python's
    parser, or holding an integer too long for ``int()``, is a ``ValueError`` in plain words
    like any other body that cannot be read.
    """
    try:
        obj = json.loads(body, parse_float=_refuse_float, parse_constant=_refuse_constant)
    except RecursionError:
        raise ValueError("it is nested too deeply to read") from None
    except (NotCanonical, json.JSONDecodeError, UnicodeDecodeError):
        raise
    except ValueError:  # int() refuses more than sys.get_int_max_str_digits() digits
        raise ValueError("it holds an integer too long to read") from None
    if _SUSPECT.search(body):
        check_value(obj)
    return obj


def body_hash(body: bytes) -> str:
    """The ``prev`` of the next entry: hex SHA-256 of this entry's body bytes."""
    return hashlib.sha256(body).hexdigest()


def key_id(raw_public_key: bytes) -> str:
    """A key's id: the first 16 hex digits of SHA-256 of the raw 32-byte public key."""
    return hashlib.sha256(raw_public_key).hexdigest()[:16]


def seed_commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def dice_stream(seed: bytes, chain: int, seq: int, sides: int = 6) -> Iterator[int]:
    """The unbiased dice of entry ``seq``: HMAC-SHA256 blocks, rejection-sampled words.

    ``chain`` is the game number (or a TripleA table id). The i-th value yielded is the
    i-th die thrown in that entry, so a roll's dice are a pure function of (seed, chain, seq).
    """
    if not 1 <= sides <= 2**32:
        raise ValueError(f"a die must have 1 to 2**32 sides, not {sides}")
    limit = (2**32 // sides) * sides
    counter = 0
    while True:
        message = f"dice:{chain}:{seq}:{counter}".encode()
        block = hmac.new(seed, message, hashlib.sha256).digest()
        counter += 1
        for offset in range(0, 32, 4):
            word = int.from_bytes(block[offset : offset + 4], "big")
            if word < limit:
                yield word % sides + 1


def draw_dice(seed: bytes, chain: int, seq: int, count: int, sides: int = 6) -> list[int]:
    stream = dice_stream(seed, chain, seq, sides)
    return [next(stream) for _ in range(count)]


def parse_time(text: str) -> datetime:
    """Read an ``at`` stamp (naive UTC); only the exact strftime form is accepted."""
    if not TIME_PATTERN.match(text):
        raise ValueError(f"time {text!r} is not in the form YYYY-MM-DDTHH:MM:SS.ffffffZ")
    return datetime.fromisoformat(text[:-1])


def _signature_workers(count: int) -> int:
    return 1 if count < 64 else max(1, min(4, os.cpu_count() or 1))


@dataclass
class Report:
    """What the verifier checked, and every problem it found (empty means all holds)."""

    checked: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        out = [f"checked: {line}" for line in self.checked]
        out += [f"not yet checkable: {line}" for line in self.pending]
        out += [f"PROBLEM: {line}" for line in self.problems]
        out.append("RESULT: OK" if self.ok else f"RESULT: FAILED ({len(self.problems)} problems)")
        return out


def load_keys(keys_doc: Any) -> dict[str, Ed25519PublicKey]:
    """Read the ``/api/v1/keys`` document; each key's id must match its bytes."""
    keys: dict[str, Ed25519PublicKey] = {}
    for item in keys_doc.get("keys", []) if isinstance(keys_doc, dict) else []:
        raw = base64.b64decode(item["public"], validate=True)
        if item.get("alg") != "Ed25519" or len(raw) != 32:
            raise ValueError(f"key {item.get('id')!r} is not a 32-byte Ed25519 key")
        if key_id(raw) != item["id"]:
            raise ValueError(f"key id {item['id']!r} does not match its public key")
        keys[item["id"]] = Ed25519PublicKey.from_public_bytes(raw)
    if not keys:
        raise ValueError("the keys file lists no keys")
    return keys


def verify_signature(keys: dict[str, Ed25519PublicKey], body: bytes, sig: str, kid: str) -> str:
    """Return '' when the signature holds, else what is wrong."""
    key = keys.get(kid)
    if key is None:
        return f"signed with unknown key {kid!r}"
    try:
        signature = base64.b64decode(sig, validate=True)
        key.verify(signature, body)
    except (InvalidSignature, binascii.Error, ValueError):
        return "signature does not verify"
    return ""


@dataclass
class _Seed:
    commitment: str
    seq: int
    rolls: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    seed: bytes | None = None


class LedgerVerifier:
    """Walks the entries of one chain in order and checks everything DESIGN.md promises."""

    def __init__(self, keys: dict[str, Ed25519PublicKey]) -> None:
        self.keys = keys
        self.report = Report()
        self.seeds: list[_Seed] = []
        self.chain_field = ""
        self.chain_id: int | None = None

    def verify(self, entries: Sequence[Any]) -> Report:
        signed: list[tuple[bytes, str, str]] = []
        for position, entry in enumerate(entries, start=1):
            try:
                body_text, sig, kid = entry["body"], entry["sig"], entry["key"]
                signed.append((body_text.encode("utf-8"), str(sig), str(kid)))
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                self.report.problems.append(f"entry {position}: not a ledger entry ({exc})")
                break
        # Signatures are checked on other threads (the library releases the GIL) while
        # this one walks the chain.
        with ThreadPoolExecutor(max_workers=_signature_workers(len(signed))) as pool:
            size = max(1, len(signed) // (4 * (os.cpu_count() or 1)))
            batches = [
                pool.submit(self._signatures, signed[start : start + size])
                for start in range(0, len(signed), size)
            ]
            count = self._walk(signed)
            failures = [problem for batch in batches for problem in batch.result()]
        for position, problem in enumerate(failures, start=1):
            if problem and position <= count:
                self.report.problems.append(f"entry {position}: {problem}")
        return self._finish(count)

    def _signatures(self, batch: list[tuple[bytes, str, str]]) -> list[str]:
        return [verify_signature(self.keys, body, sig, kid) for body, sig, kid in batch]

    def _walk(self, signed: list[tuple[bytes, str, str]]) -> int:
        """Check every entry but its signature; return how many entries could be read."""
        prev_hash = ZERO_HASH
        prev_at: datetime | None = None
        for position, (body, _sig, _kid) in enumerate(signed, start=1):
            where = f"entry {position}"
            try:
                obj = decode_body(body)
                if canonical_json(obj, checked=True) != body:
                    self.report.problems.append(f"{where}: body is not in canonical form")
            except NotCanonical as exc:
                self.report.problems.append(f"{where}: {exc}")
                try:  # read it anyway, to check the rest of the entry
                    obj = json.loads(body)
                except (ValueError, RecursionError):
                    return position - 1
            except (ValueError, RecursionError) as exc:
                reason = (
                    "it is nested too deeply to check" if isinstance(exc, RecursionError) else exc
                )
                self.report.problems.append(f"{where}: body is not JSON ({reason})")
                return position - 1
            if not isinstance(obj, dict):
                self.report.problems.append(f"{where}: body is not an object")
                return position - 1
            self._check_header(where, position, obj, prev_hash)
            prev_at = self._check_time(where, obj, prev_at)
            self._check_kind(where, obj)
            prev_hash = body_hash(body)
        return len(signed)

    def _check_header(self, where: str, position: int, obj: dict[str, Any], prev: str) -> None:
        if obj.get("v") != FORMAT_VERSION:
            self.report.problems.append(f"{where}: unknown format version {obj.get('v')!r}")
        chain_field = "game" if "game" in obj else "table"
        chain_id = obj.get(chain_field)
        if self.chain_id is None:
            self.chain_field, self.chain_id = chain_field, chain_id
        elif (chain_field, chain_id) != (self.chain_field, self.chain_id):
            self.report.problems.append(
                f"{where}: belongs to {chain_field} {chain_id}, not "
                f"{self.chain_field} {self.chain_id}"
            )
        if obj.get("seq") != position:
            self.report.problems.append(
                f"{where}: seq is {obj.get('seq')!r}, expected {position} (gap or reorder)"
            )
        if obj.get("prev") != prev:
            self.report.problems.append(f"{where}: prev does not match the previous entry's hash")
        kind = obj.get("kind")
        if not isinstance(kind, str) or kind not in KINDS:
            self.report.problems.append(f"{where}: unknown kind {kind!r}")

    def _check_time(
        self, where: str, obj: dict[str, Any], prev: datetime | None
    ) -> datetime | None:
        try:
            at = parse_time(obj.get("at", ""))
        except (TypeError, ValueError) as exc:
            self.report.problems.append(f"{where}: {exc}")
            return prev
        if prev is not None and at <= prev:
            self.report.problems.append(f"{where}: time {obj['at']} is not after the previous")
        return at

    def _check_kind(self, where: str, obj: dict[str, Any]) -> None:
        kind, data, seq = obj.get("kind"), obj.get("data"), obj.get("seq")
        if not isinstance(kind, str):
            kind = None  # reported by the header check; an object or list is unhashable
        if not isinstance(data, dict) or not isinstance(seq, int):
            self.report.problems.append(f"{where}: data must be an object")
            return
        open_seed = self.seeds[-1] if self.seeds and self.seeds[-1].seed is None else None
        if kind in SEED_KINDS:
            if kind == "genesis" and seq != 1:
                self.report.problems.append(f"{where}: genesis must be the first entry")
            if kind == "commitment" and open_seed is not None:
                self.report.problems.append(f"{where}: new commitment while a seed is unrevealed")
            commitment = data.get("seed_commitment")
            if not (isinstance(commitment, str) and re.fullmatch(r"[0-9a-f]{64}", commitment)):
                self.report.problems.append(f"{where}: missing or malformed seed_commitment")
                commitment = ""
            self.seeds.append(_Seed(commitment=commitment, seq=seq))
        elif seq == 1:
            self.report.problems.append(f"{where}: the first entry must be the genesis")
        if kind in ROLL_KINDS:
            if open_seed is None:
                self.report.problems.append(f"{where}: roll with no open seed commitment")
            else:
                open_seed.rolls.append((seq, data))
            self._check_roll_shape(where, data)
        elif kind == "seed-reveal":
            self._check_reveal(where, data, open_seed)

    def _check_reveal(self, where: str, data: dict[str, Any], open_seed: _Seed | None) -> None:
        if open_seed is None:
            self.report.problems.append(f"{where}: seed revealed with no open commitment")
            return
        try:
            seed = bytes.fromhex(data.get("seed", ""))
        except (TypeError, ValueError):
            self.report.problems.append(f"{where}: the revealed seed is not hex")
            return
        if seed_commitment(seed) != open_seed.commitment:
            self.report.problems.append(
                f"{where}: revealed seed does not match the commitment of entry {open_seed.seq}"
            )
            return
        open_seed.seed = seed
        self.report.checked.append(
            f"seed revealed at {where} matches the commitment made at entry {open_seed.seq}"
        )

    def _check_roll_shape(self, where: str, data: dict[str, Any]) -> None:
        """Every die is in range and each labelled group's dice and hits add up to the entry's."""
        sides, dice, groups = data.get("sides"), data.get("dice"), data.get("groups", [])
        if not isinstance(sides, int) or not isinstance(dice, list) or not isinstance(groups, list):
            self.report.problems.append(f"{where}: roll without sides and dice")
            return
        if any(not isinstance(d, int) or not 1 <= d <= sides for d in dice):
            self.report.problems.append(f"{where}: a die is outside 1..{sides}")
        grouped: list[int] = []
        for index, group in enumerate(groups):
            gdice = group.get("dice", []) if isinstance(group, dict) else []
            hit_on = group.get("hit_on") if isinstance(group, dict) else None
            try:
                grouped += gdice
                if isinstance(hit_on, int) and group.get("hits") != sum(d <= hit_on for d in gdice):
                    self.report.problems.append(
                        f"{where}: group {index + 1} hits do not match its dice"
                    )
            except TypeError:
                self.report.problems.append(
                    f"{where}: group {index + 1} dice are not a list of numbers"
                )
        if groups and grouped != dice:
            self.report.problems.append(f"{where}: the groups' dice are not the entry's dice")

    def _finish(self, count: int) -> Report:
        report = self.report
        failed = {aspect for problem in report.problems for aspect in _aspects_of(problem)}
        checks = ("signatures", "canonical bodies", f"seq 1..{count}", "prev chain", "time order")
        held = [name for name in checks if name.split(" ")[0] not in failed]
        # Only what held for every entry is reported as checked: a check that failed for
        # some entries is among the problems, never ticked beside them.
        if held:
            report.checked.append(f"{count} entries: {', '.join(held)}")
        for seed in self.seeds:
            if seed.seed is None:
                if seed.rolls:
                    report.pending.append(
                        f"{len(seed.rolls)} rolls under the commitment of entry {seed.seq}: "
                        "the seed is revealed when the game ends"
                    )
                continue
            bad = 0
            for seq, data in seed.rolls:
                dice = data.get("dice")
                sides = data.get("sides")
                if not isinstance(dice, list) or not isinstance(sides, int):
                    continue
                try:
                    expected = draw_dice(seed.seed, self.chain_id or 0, seq, len(dice), sides)
                except ValueError as exc:
                    report.problems.append(f"entry {seq}: {exc}")
                    continue
                if expected != dice:
                    bad += 1
                    report.problems.append(f"entry {seq}: dice differ from the revealed seed's")
            if seed.rolls:
                report.checked.append(
                    f"{len(seed.rolls) - bad} of {len(seed.rolls)} rolls under the commitment "
                    f"of entry {seed.seq} recomputed from the revealed seed"
                )
        return report


#: Which summary check a problem's words belong to (the first word of the check's name).
_ASPECT_WORDS = (
    ("signature", "signatures"),
    ("signed with unknown key", "signatures"),
    ("canonical", "canonical"),
    ("not JSON", "canonical"),
    ("not an object", "canonical"),
    ("not a ledger entry", "canonical"),
    ("seq is", "seq"),
    ("prev does not match", "prev"),
    ("is not after the previous", "time"),
    ("time", "time"),
)


def _aspects_of(problem: str) -> set[str]:
    return {aspect for words, aspect in _ASPECT_WORDS if words in problem}


def verify_ledger(ledger_doc: Any, keys_doc: Any) -> Report:
    """Check an exported ledger (``{"entries": [...]}``) against published keys."""
    try:
        keys = load_keys(keys_doc)
    except (KeyError, TypeError, ValueError, binascii.Error) as exc:
        report = Report()
        report.problems.append(f"keys: {exc}")
        return report
    entries = ledger_doc.get("entries") if isinstance(ledger_doc, dict) else None
    if not isinstance(entries, list) or not entries:
        report = Report()
        report.problems.append('ledger: no entries (expected {"entries": [...]})')
        return report
    return LedgerVerifier(keys).verify(entries)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Verify an exported PBEM dice ledger offline.")
    parser.add_argument("ledger", help="the exported ledger JSON file")
    parser.add_argument("--keys", required=True, help="the published keys JSON file")
    args = parser.parse_args(argv)
    try:
        with open(args.ledger, encoding="utf-8") as fh:
            ledger_doc = json.load(fh)
        with open(args.keys, encoding="utf-8") as fh:
            keys_doc = json.load(fh)
    except (OSError, ValueError) as exc:
        print(f"cannot read input: {exc}", file=sys.stderr)
        return 2
    report = verify_ledger(ledger_doc, keys_doc)
    print("\n".join(report.lines()))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
