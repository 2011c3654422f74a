"""Offline verification of an exported dice ledger.

This module is deliberately standalone: it imports only the standard library and
``cryptography``, so that a player who trusts nothing but his own machine can run it
on an exported ledger and the published keys without the server or this package.
The server's own ledger code imports the canonical encoding and the dice function from
here, so that signer and verifier cannot drift apart.

Usage: ``python verifier.py LEDGER.json --keys KEYS.json``, or, to trust nothing but your
own mail, ``python verifier.py --mail PATH`` (a maildir, an mbox, a zip, or a folder of
``.eml`` files or of saved ``entry-<seq>.json`` files): every game found in it is verified
the same way, and every entry its chain proves exists but the mail lacks is named.

An exported ledger is read from its file one entry at a time, so a ledger of 100,000
entries needs no more memory than one of ten; on a terminal the verifier says how far it
has got (``--progress`` / ``--no-progress`` to choose).
"""

from __future__ import annotations

import argparse
import base64
import binascii
import codecs
import email
import email.errors
import email.message
import hashlib
import hmac
import io
import json
import os
import re
import struct
import sys
import tempfile
import time
import zipfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import IO, Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

FORMAT_VERSION = 1
VERIFIER_VERSION = 3
"""This program's version. 2 reads every ledger 1 read, and Low Luck battle rounds
(``low-luck-roll``), whose sure hits and remainder dice it recomputes; 1 calls them an
unknown kind. 3 reads every ledger 2 read, and the rolls of the other game systems
(Triumph & Tragedy's ``tt-*`` and Triumph of the Will's ``will-*`` kinds), whose dice it
recomputes like every roll's and whose sums it checks; 2 calls them an unknown kind."""
ZERO_HASH = "0" * 64
MAX_INT = 2**53
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
TIME_PATTERN = re.compile(r"\A\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z\Z")
TT_KINDS = frozenset({"tt-combat-round", "tt-turn-order"})
WILL_KINDS = frozenset({"will-battle-roll", "will-air-roll", "will-rebel-roll", "will-atomic-roll"})
ROLL_KINDS = (
    frozenset({"roll", "low-luck-roll", "tech-roll", "bombing-roll", "rocket-roll"})
    | TT_KINDS
    | WILL_KINDS
)
SEED_KINDS = frozenset({"genesis", "commitment"})
KINDS = ROLL_KINDS | SEED_KINDS | {"note", "submission", "ruling", "seed-reveal"}
_COMMITMENT = re.compile(r"[0-9a-f]{64}")


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
                return (_step(kind, key) + found[0], found[1])
        else:
            problem = _scalar_problem(item)
            if problem is not None:
                return (_step(kind, key), problem)
    return None


def _step(kind: type, key: Any) -> str:
    """How the path to a refused value goes into a list item or an object's member."""
    return f"[{key}]" if kind is list else f".{key}"


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
    obj = _parsed(_loads_body, body)
    if _SUSPECT.search(body):
        check_value(obj)
    return obj


def _loads_body(body: bytes) -> Any:
    return json.loads(body, parse_float=_refuse_float, parse_constant=_refuse_constant)


def _parsed(parse: Callable[[Any], Any], source: Any) -> Any:
    """``parse(source)``, its failures put in :func:`decode_body`'s words."""
    try:
        return parse(source)
    except RecursionError:
        raise ValueError("it is nested too deeply to read") from None
    except (NotCanonical, json.JSONDecodeError, UnicodeDecodeError):
        raise
    except ValueError:  # int() refuses more than sys.get_int_max_str_digits() digits
        raise ValueError("it holds an integer too long to read") from None


_BODY_DECODER = json.JSONDecoder(parse_float=_refuse_float, parse_constant=_refuse_constant)
_CANONICAL = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)
_SUSPECT_TEXT = re.compile(_SUSPECT.pattern.decode("ascii"), re.ASCII)


def _decode_body_text(text: str) -> Any:
    """:func:`decode_body` of ``text.encode("utf-8")``, for a body that begins ``{"``, read
    from the text itself: ``json.loads`` reads such bytes as UTF-8
    (``json.detect_encoding``), that is as this very text, and the suspect tokens are
    ASCII, found alike in the text and in its bytes. The walk reads every entry so."""
    obj = _parsed(_BODY_DECODER.decode, text)
    if _SUSPECT_TEXT.search(text):
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
    """The first ``count`` dice of :func:`dice_stream`, drawn a block at a time (a verifier
    recomputes every die of a game: 100,000 rolls)."""
    if count <= 0:
        return []  # as the stream, which refuses its sides only when a die is drawn
    if not 1 <= sides <= 2**32:
        raise ValueError(f"a die must have 1 to 2**32 sides, not {sides}")
    limit = (2**32 // sides) * sides
    prefix = f"dice:{chain}:{seq}:"
    dice: list[int] = []
    counter = 0
    while len(dice) < count:
        block = hmac.digest(seed, f"{prefix}{counter}".encode(), "sha256")
        counter += 1
        dice += [word % sides + 1 for word in _WORDS.unpack(block) if word < limit]
    return dice[:count]


_WORDS = struct.Struct(">8I")
"""An HMAC-SHA256 block as the eight 4-byte big-endian words :func:`dice_stream` reads."""


def parse_time(text: str) -> datetime:
    """Read an ``at`` stamp (naive UTC); only the exact strftime form is accepted."""
    if not TIME_PATTERN.match(text):
        raise ValueError(f"time {text!r} is not in the form YYYY-MM-DDTHH:MM:SS.ffffffZ")
    return datetime.fromisoformat(text[:-1])


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


_ROLL_HEAD = struct.Struct("<qqI")
"""A spilled roll's seq, sides and number of dice, before its dice as bytes."""
_INT64 = 2**63


class _RollLog:
    """The rolls thrown under one seed, waiting for its reveal: the seq, dice and sides of
    each roll whose dice can be recomputed, in the order thrown.

    Held in memory for a ledger given whole, or (``spill``) written to a temporary file as
    they come, for a ledger read from its file an entry at a time: a game's rolls then cost
    no memory however many there are. A spilled roll is its seq, sides and dice as binary
    numbers when they are small whole numbers (every honest roll), else the JSON of
    ``[seq, dice, sides]``: either reads back comparing alike with the dice recomputed."""

    def __init__(self, spill: bool) -> None:
        self.count = 0
        self._kept: list[tuple[Any, list[Any] | bytes, int]] | None = None if spill else []
        self._file: IO[bytes] | None = None

    def add(self, seq: int, data: dict[str, Any]) -> None:
        self.count += 1
        dice, sides = data.get("dice"), data.get("sides")
        if not isinstance(dice, list) or not isinstance(sides, int):
            return  # counted, never recomputed
        if self._kept is not None:
            self._kept.append((seq, dice, sides))
            return
        if self._file is None:
            self._file = tempfile.TemporaryFile()
        self._file.write(_roll_record(seq, dice, sides))

    def __iter__(self) -> Iterator[tuple[Any, list[Any] | bytes, int]]:
        if self._kept is not None:
            yield from self._kept
        elif self._file is not None:
            self._file.seek(0)
            read = self._file.read
            while tag := read(1):
                if tag == b"B":
                    seq, sides, count = _ROLL_HEAD.unpack(read(_ROLL_HEAD.size))
                    yield seq, read(count), sides
                else:
                    seq, dice, sides = json.loads(read(int.from_bytes(read(4), "little")))
                    yield seq, dice, sides

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _roll_record(seq: Any, dice: list[Any], sides: int) -> bytes:
    if type(seq) is int and type(sides) is int and abs(seq) < _INT64 and abs(sides) < _INT64:
        try:
            values = bytes(dice)  # whole numbers 0..255 (true and false among them, as 1, 0)
        except (TypeError, ValueError):
            pass
        else:
            return b"B" + _ROLL_HEAD.pack(seq, sides, len(values)) + values
    text = json.dumps([seq, dice, sides]).encode("ascii")
    return b"J" + len(text).to_bytes(4, "little") + text


def _same_dice(expected: list[int], dice: list[Any] | bytes) -> bool:
    """Whether the dice recomputed are those thrown (kept as a list, or spilled as bytes)."""
    if type(dice) is bytes:
        try:
            return bytes(expected) == dice
        except ValueError:  # a die over 255: no byte was one
            return False
    return expected == dice


@dataclass
class _Seed:
    """A committed seed and the rolls thrown under it.

    In mail mode (some entries never arrived) a seed may be ``unknown`` (its commitment is
    in a missing entry), ``uncertain`` (a missing entry after it may have revealed it or
    committed a new one) or ``closed`` unrevealed (superseded, its reveal missing);
    ``unchecked`` then says why its rolls cannot be recomputed from what was received.
    """

    commitment: str
    seq: int
    rolls: _RollLog
    seed: bytes | None = None
    unknown: bool = False
    uncertain: bool = False
    closed: bool = False
    unchecked: str = ""


_SIGNATURE_BATCH = 512
_WORKER_KEYS: dict[str, Ed25519PublicKey] = {}


def _worker_start(raw_keys: dict[str, bytes]) -> None:
    """A signature-checking process's keys, made once from their raw bytes."""
    _WORKER_KEYS.clear()
    _WORKER_KEYS.update(
        {kid: Ed25519PublicKey.from_public_bytes(raw) for kid, raw in raw_keys.items()}
    )


def _batch_failures(
    keys: dict[str, Ed25519PublicKey], batch: list[tuple[bytes, str, str]]
) -> list[tuple[int, str]]:
    failures = []
    for index, (body, sig, kid) in enumerate(batch):
        problem = verify_signature(keys, body, sig, kid)
        if problem:
            failures.append((index, problem))
    return failures


def _worker_batch(batch: list[tuple[bytes, str, str]]) -> list[tuple[int, str]]:
    return _batch_failures(_WORKER_KEYS, batch)


class _SignatureChecks:
    """Every walked entry's Ed25519 signature checked, its failures kept in entry order.

    Checking signatures is most of what verifying a long ledger costs. With ``workers``
    they are checked in batches on that many processes while this one walks the chain (a
    thread would share the walk's interpreter); at most two batches per process are in
    flight, so a ledger read as it streams stays in bounded memory. Where processes cannot
    be had, or one dies, its batch is checked here: the failures are the same."""

    def __init__(self, keys: dict[str, Ed25519PublicKey], workers: int = 0) -> None:
        self.keys = keys
        self.failures: list[tuple[int, str]] = []
        self._pool: ProcessPoolExecutor | None = None
        self._numbers: list[int] = []
        self._batch: list[tuple[bytes, str, str]] = []
        self._pending: deque[
            tuple[list[int], list[tuple[bytes, str, str]], Future[list[tuple[int, str]]] | None]
        ] = deque()
        self._in_flight = 2 * workers
        self._broken = False
        if workers > 0:
            raw = {
                kid: key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
                for kid, key in keys.items()
            }
            try:
                self._pool = ProcessPoolExecutor(
                    workers, initializer=_worker_start, initargs=(raw,)
                )
            except (OSError, ImportError, NotImplementedError, ValueError):
                self._pool = None

    def add(self, number: int, body: bytes, sig: str, kid: str) -> None:
        if self._pool is None:
            problem = verify_signature(self.keys, body, sig, kid)
            if problem:
                self.failures.append((number, problem))
            return
        self._numbers.append(number)
        self._batch.append((body, sig, kid))
        if len(self._batch) >= _SIGNATURE_BATCH:
            self._submit()

    def _submit(self) -> None:
        numbers, batch = self._numbers, self._batch
        self._numbers, self._batch = [], []
        future = None
        if self._pool is not None and not self._broken:
            try:
                future = self._pool.submit(_worker_batch, batch)
            except (RuntimeError, OSError):  # a broken pool: checked here instead
                self._broken = True
        self._pending.append((numbers, batch, future))
        while len(self._pending) > self._in_flight:
            self._collect()

    def _collect(self) -> None:
        numbers, batch, future = self._pending.popleft()
        try:
            found = future.result() if future is not None else None
        except (RuntimeError, OSError):  # BrokenProcessPool is a RuntimeError
            found = None
            self._broken = True  # a process died: this batch and the rest are checked here
        if found is None:
            found = _batch_failures(self.keys, batch)
        self.failures += [(numbers[index], problem) for index, problem in found]

    def finish(self) -> list[tuple[int, str]]:
        """Every failure, once every batch is back."""
        if self._batch:
            self._submit()
        while self._pending:
            self._collect()
        self.close()
        return self.failures

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class LedgerVerifier:
    """Walks the entries of one chain in order and checks everything DESIGN.md promises.

    Entries are taken one at a time (:meth:`add`, then :meth:`finish`; :meth:`verify` does
    both for a whole ledger). Between entries it keeps the previous entry's hash, seq and
    time, the seeds committed (one per commitment, a fact of the game, not of its length)
    and the problems found: a ledger read from its file as it streams
    (:func:`verify_ledger_file`) needs no more memory at its 100,000th entry than at its
    first. The rolls awaiting their seed's reveal wait in a :class:`_RollLog`.
    """

    def __init__(
        self,
        keys: dict[str, Ed25519PublicKey],
        *,
        signatures: _SignatureChecks | None = None,
        spill: bool = False,
    ) -> None:
        self.keys = keys
        self.report = Report()
        self.seeds: list[_Seed] = []
        self.chain_field = ""
        self.chain_id: int | None = None
        self.sparse = False
        self.entries = 0
        """How many entries were given (:meth:`add`)."""
        self.walked = 0
        """How many entries could be read, and so were checked."""
        self._signatures = signatures if signatures is not None else _SignatureChecks(keys)
        self._spill = spill
        self._not_an_entry = ""
        self._stopped = False
        self._prev_hash: str | None = ZERO_HASH
        self._prev_number = 0
        self._prev_at: datetime | None = None

    def verify(self, entries: Sequence[Any], seqs: Sequence[int] | None = None) -> Report:
        """Check ``entries``, a whole ledger in order.

        ``seqs`` is the mail mode's (:func:`verify_mail`): the seq each entry is known by,
        rising, some perhaps missing. The chain is then checked between consecutive seqs
        only (nothing links across a missing entry), and what a missing entry may hold (a
        reveal, a new commitment) is never held against the entries around it. Everything
        else is checked exactly as for a whole ledger, by the same code.
        """
        self.sparse = seqs is not None
        numbers = seqs if seqs is not None else range(1, len(entries) + 1)
        try:
            for entry, number in zip(entries, numbers, strict=True):
                self.add(entry, number)
            return self.finish()
        finally:
            self.close()

    def add(self, entry: Any, number: int | None = None) -> None:
        """Check one entry (``{"body", "sig", "key"}``), known by ``number`` (its seq; by
        default its place in the ledger).

        What is not an entry stops the reading there: it is reported first, and nothing
        after it is checked. A body that cannot be read stops the walk there: the entries
        after it are still looked at, for something that is not an entry."""
        self.entries += 1
        if self._not_an_entry:
            return
        try:
            body_text, sig, kid = entry["body"], entry["sig"], entry["key"]
            body, sig, kid = body_text.encode("utf-8"), str(sig), str(kid)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            self._not_an_entry = f"entry {self.entries}: not a ledger entry ({exc})"
            return
        if self._stopped:
            return
        number = self.entries if number is None else number
        if self._walk(number, body_text, body):
            self.walked += 1
            self._signatures.add(number, body, sig, kid)
        else:
            self._stopped = True

    def finish(self) -> Report:
        """The report on every entry given: what was checked, and every problem found (the
        entry that was not one first, then the walk's, the signatures', the dice's)."""
        # The dice first, while other processes check the last signatures.
        recomputed = [self._recompute(seed) for seed in self.seeds]
        failures = self._signatures.finish()
        problems = [self._not_an_entry] if self._not_an_entry else []
        problems += self.report.problems
        problems += [f"entry {number}: {problem}" for number, problem in failures]
        self.report.problems = problems
        return self._finish(self.walked, recomputed)

    def close(self) -> None:
        """Let go of the processes and files the checks used (after :meth:`finish`, or
        when the reading failed)."""
        self._signatures.close()
        for seed in self.seeds:
            seed.rolls.close()

    def _walk(self, number: int, text: Any, body: bytes) -> bool:
        """Check every entry but its signature; return whether its body could be read."""
        where = f"entry {number}"
        if number != self._prev_number + 1:  # mail mode: the entries between never arrived
            self._prev_hash = None
            self._missing_before()
        self._prev_number = number
        try:
            if type(text) is str and text.startswith('{"'):
                obj = _decode_body_text(text)
                try:  # the canonical text is the body's own, or else the bytes are compared
                    canonical = _CANONICAL.encode(obj) == text
                except (TypeError, ValueError):
                    canonical = False
            else:
                obj = decode_body(body)
                canonical = False
            if not canonical and canonical_json(obj, checked=True) != body:
                self.report.problems.append(f"{where}: body is not in canonical form")
        except NotCanonical as exc:
            self.report.problems.append(f"{where}: {exc}")
            try:  # read it anyway, to check the rest of the entry
                obj = json.loads(body)
            except (ValueError, RecursionError):
                return False
        except (ValueError, RecursionError) as exc:
            reason = "it is nested too deeply to check" if isinstance(exc, RecursionError) else exc
            self.report.problems.append(f"{where}: body is not JSON ({reason})")
            return False
        if not isinstance(obj, dict):
            self.report.problems.append(f"{where}: body is not an object")
            return False
        self._check_header(where, number, obj, self._prev_hash)
        self._prev_at = self._check_time(where, obj, self._prev_at)
        self._check_kind(where, obj)
        self._prev_hash = body_hash(body)
        return True

    def _seed(self, commitment: str, seq: int, *, unknown: bool = False) -> _Seed:
        seed = _Seed(commitment=commitment, seq=seq, rolls=_RollLog(self._spill), unknown=unknown)
        self.seeds.append(seed)
        return seed

    def _missing_before(self) -> None:
        """Mail mode: the entries just before this one never arrived. One of them may have
        revealed the open seed or committed a new one, so later rolls are counted under
        the seed known so far only if a reveal of that very seed proves it."""
        last = self.seeds[-1] if self.seeds else None
        if last is None or last.seed is not None or last.closed:
            self._seed("", 0, unknown=True)
        else:
            last.uncertain = True

    def _open_seed(self) -> _Seed | None:
        last = self.seeds[-1] if self.seeds else None
        return last if last is not None and last.seed is None and not last.closed else None

    def _check_header(
        self, where: str, position: int, obj: dict[str, Any], prev: str | None
    ) -> None:
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
        if prev is not None and obj.get("prev") != prev:
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
        open_seed = self._open_seed()
        if kind in SEED_KINDS:
            if kind == "genesis" and seq != 1:
                self.report.problems.append(f"{where}: genesis must be the first entry")
            if kind == "commitment" and open_seed is not None:
                if open_seed.unknown or open_seed.uncertain:
                    # Mail mode: its reveal must be among the missing entries.
                    open_seed.closed = True
                    if not open_seed.unknown:
                        open_seed.unchecked = (
                            f"under the commitment of entry {open_seed.seq}: its reveal "
                            "never reached this mailbox"
                        )
                else:
                    self.report.problems.append(
                        f"{where}: new commitment while a seed is unrevealed"
                    )
            commitment = data.get("seed_commitment")
            if not (isinstance(commitment, str) and _COMMITMENT.fullmatch(commitment)):
                self.report.problems.append(f"{where}: missing or malformed seed_commitment")
                commitment = ""
            committed = self._seed(commitment, seq)
            draw = data.get("draw")
            if kind == "genesis" and draw is not None:
                # Sides drawn between equal bids: the genesis's own die, under the seed it
                # commits to, recomputed like a roll's once the seed is revealed.
                if isinstance(draw, dict):
                    committed.rolls.add(seq, draw)
                    self._check_roll_shape(where, draw)
                else:
                    self.report.problems.append(f"{where}: the draw must be an object")
        elif seq == 1:
            self.report.problems.append(f"{where}: the first entry must be the genesis")
        if kind in ROLL_KINDS:
            if open_seed is None:
                self.report.problems.append(f"{where}: roll with no open seed commitment")
            else:
                open_seed.rolls.add(seq, data)
            if kind == "low-luck-roll":
                self._check_low_luck(where, data)
            else:
                self._check_roll_shape(where, data)
            if kind in WILL_KINDS:
                self._check_will(where, data)
            elif kind == "tt-combat-round":
                self._check_tt_round(where, data)
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
        if open_seed.unknown or (
            open_seed.uncertain and seed_commitment(seed) != open_seed.commitment
        ):
            # Mail mode: the commitment this seed opens may be in a missing entry.
            open_seed.closed = True
            if not open_seed.unknown:
                open_seed.unchecked = (
                    f"under the commitment of entry {open_seed.seq}: the seed revealed at "
                    f"{where} may open a later commitment that never reached this mailbox"
                )
            self.report.pending.append(
                f"the seed revealed at {where}: the commitment it opens never reached this mailbox"
            )
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
        if _dice_outside(dice, sides):
            self.report.problems.append(f"{where}: a die is outside 1..{sides}")
        grouped: list[int] = []
        for index, group in enumerate(groups):
            gdice = group.get("dice", []) if isinstance(group, dict) else []
            hit_on = group.get("hit_on") if isinstance(group, dict) else None
            try:
                grouped += gdice
                if isinstance(hit_on, int) and group.get("hits") != _hits(gdice, hit_on):
                    self.report.problems.append(
                        f"{where}: group {index + 1} hits do not match its dice"
                    )
            except TypeError:
                self.report.problems.append(
                    f"{where}: group {index + 1} dice are not a list of numbers"
                )
        if groups and grouped != dice:
            self.report.problems.append(f"{where}: the groups' dice are not the entry's dice")

    def _check_will(self, where: str, data: dict[str, Any]) -> None:
        """A Triumph of the Will roll adds up: each die's total is the die and its
        modifiers, the higher total wins a match-up (the defender a tie, 10.4), an air
        superiority throw's total is its dice, a rebellion breaks out on six or more (5.12)
        and a blast marker is placed on one through five (11.2)."""
        for index, group in enumerate(data.get("groups", [])):
            name = f"{where}: group {index + 1}"
            try:
                self.report.problems += [f"{name} {p}" for p in _will_group_problems(group)]
            except (AttributeError, IndexError, KeyError, TypeError):
                self.report.problems.append(f"{name} is not a Triumph of the Will group")

    def _check_tt_round(self, where: str, data: dict[str, Any]) -> None:
        """A Triumph & Tragedy combat round adds up: each firing unit threw one die per CV
        it had when it acted, and no more units were reduced than it scored hits."""
        for index, group in enumerate(data.get("groups", [])):
            name = f"{where}: group {index + 1}"
            try:
                if len(group["dice"]) != group["cv"]:
                    self.report.problems.append(f"{name} did not throw one die per CV")
                if len(group["reductions"]) > group["hits"]:
                    self.report.problems.append(f"{name} reduced more units than it hit")
            except (AttributeError, KeyError, TypeError):
                self.report.problems.append(f"{name} is not a Triumph & Tragedy group")

    def _check_low_luck(self, where: str, data: dict[str, Any]) -> None:
        """A Low Luck round adds up: each group's power is its dice times its number, each
        volley's power is its groups', its sure hits and remainder are that power divided by
        the dice's sides, it threw one die exactly when there is a remainder, its hits are
        the sure ones and its die's, each side's hits are its volleys', and the volleys'
        dice are the entry's."""
        sides, dice = data.get("sides"), data.get("dice")
        groups, volleys, hits = data.get("groups"), data.get("volleys"), data.get("hits")
        if not (
            isinstance(sides, int)
            and sides > 0
            and isinstance(dice, list)
            and isinstance(groups, list)
            and isinstance(volleys, list)
            and isinstance(hits, dict)
        ):
            self.report.problems.append(f"{where}: Low Luck roll without sides, dice and volleys")
            return
        if _dice_outside(dice, sides):
            self.report.problems.append(f"{where}: a die is outside 1..{sides}")
        powers: dict[tuple[Any, Any], int] = {}
        for index, group in enumerate(groups):
            try:
                each = group.get("dice_each", 1)
                power = group["count"] * each * max(0, min(group["hit_on"], sides))
                if group.get("power") != power:
                    self.report.problems.append(
                        f"{where}: group {index + 1} power is not its dice times its number"
                    )
                key = (group["side"], _low_luck_fire(group))
                powers[key] = powers.get(key, 0) + power
            except (AttributeError, KeyError, TypeError):
                self.report.problems.append(f"{where}: group {index + 1} is not a Low Luck group")
        thrown: list[Any] = []
        scored = {"attacker": 0, "defender": 0}
        for index, volley in enumerate(volleys):
            name = f"{where}: volley {index + 1}"
            try:
                power, vdice = volley["power"], volley["dice"]
                key = (volley["side"], volley["fire"])
                if powers.pop(key, None) != power:
                    self.report.problems.append(f"{name} power is not its groups' power")
                sure, remainder = divmod(power, sides)
                if (volley["sure"], volley["remainder"]) != (sure, remainder):
                    self.report.problems.append(f"{name} sure hits and remainder do not divide")
                if len(vdice) != (1 if remainder else 0):
                    self.report.problems.append(
                        f"{name} must throw one die exactly when a remainder is left"
                    )
                if volley["hits"] != sure + sum(d <= remainder for d in vdice):
                    self.report.problems.append(f"{name} hits do not match its sure hits and die")
                scored[volley["side"]] += volley["hits"]
                thrown += vdice
            except (AttributeError, KeyError, TypeError):
                self.report.problems.append(f"{name} is not a Low Luck volley")
        if powers:
            self.report.problems.append(f"{where}: groups whose power no volley fired")
        if thrown != dice:
            self.report.problems.append(f"{where}: the volleys' dice are not the entry's dice")
        if hits != scored:
            self.report.problems.append(f"{where}: the sides' hits are not their volleys'")

    def _recompute(self, seed: _Seed) -> tuple[int, list[str]]:
        """A revealed seed's rolls recomputed: how many differ, and the problems found."""
        bad, problems = 0, []
        if seed.seed is not None:
            for seq, dice, sides in seed.rolls:  # those with dice and sides to recompute
                try:
                    expected = draw_dice(seed.seed, self.chain_id or 0, seq, len(dice), sides)
                except ValueError as exc:
                    problems.append(f"entry {seq}: {exc}")
                    continue
                if not _same_dice(expected, dice):
                    bad += 1
                    problems.append(f"entry {seq}: dice differ from the revealed seed's")
        return bad, problems

    def _finish(self, count: int, recomputed: list[tuple[int, list[str]]]) -> Report:
        report = self.report
        failed = {aspect for problem in report.problems for aspect in _aspects_of(problem)}
        checks = ("signatures", "canonical bodies", f"seq 1..{count}", "prev chain", "time order")
        what = f"{count} entries"
        if self.sparse:
            checks = (
                "signatures",
                "canonical bodies",
                "seq numbers",
                "prev chain between consecutive seqs",
                "time order",
            )
            what = f"{count} entries received"
        held = [name for name in checks if name.split(" ")[0] not in failed]
        # Only what held for every entry is reported as checked: a check that failed for
        # some entries is among the problems, never ticked beside them.
        if held:
            report.checked.append(f"{what}: {', '.join(held)}")
        for seed, (bad, problems) in zip(self.seeds, recomputed, strict=True):
            rolls = seed.rolls.count
            if seed.seed is None:
                if rolls and (seed.unchecked or seed.unknown):
                    reason = seed.unchecked or (
                        "whose commitment never reached this mailbox: their dice cannot be "
                        "checked from it"
                    )
                    report.pending.append(f"{rolls} rolls {reason}")
                elif rolls:
                    report.pending.append(
                        f"{rolls} rolls under the commitment of entry {seed.seq}: "
                        "the seed is revealed when the game ends"
                    )
                continue
            report.problems += problems
            if rolls:
                report.checked.append(
                    f"{rolls - bad} of {rolls} rolls under the commitment "
                    f"of entry {seed.seq} recomputed from the revealed seed"
                )
        return report


_WHOLE = frozenset({int, bool})


def _dice_outside(dice: list[Any], sides: int) -> bool:
    """Whether a die is not a whole number from 1 to ``sides``."""
    if _WHOLE.issuperset(map(type, dice)):  # every die a number: the least and the most
        return bool(dice) and not (1 <= min(dice) and max(dice) <= sides)
    return any(not isinstance(d, int) or not 1 <= d <= sides for d in dice)


def _hits(dice: Any, hit_on: int) -> int:
    """How many of ``dice`` hit, each on ``hit_on`` or less."""
    if type(dice) is list and _WHOLE.issuperset(map(type, dice)):  # numbers, compared at once
        return sum(map(hit_on.__ge__, dice))
    return sum(d <= hit_on for d in dice)


def _will_total(dice: list[int], modifiers: list[dict[str, Any]]) -> int:
    total: int = sum(dice) + sum(m["add"] for m in modifiers)  # a non-number: TypeError
    return total


def _will_group_problems(group: dict[str, Any]) -> list[str]:
    """What does not add up in one group of a Triumph of the Will roll (a match-up of two
    dice, a throw with a total, an atomic die)."""
    dice, problems = group["dice"], []
    if "attacker" in group:
        totals = {}
        for position, role in enumerate(("attacker", "defender")):
            side = group[role]
            if side["die"] != dice[position]:
                problems.append(f"{role} die is not its dice's")
            totals[role] = _will_total([side["die"]], side["modifiers"])
            if side["total"] != totals[role]:
                problems.append(f"{role} total is not its die and modifiers")
        won = "attacker" if totals["attacker"] > totals["defender"] else "defender"
        if group["winner"] != won:
            problems.append("winner is not the higher total")
    elif "total" in group:
        total = _will_total(dice, group.get("modifiers", []))
        if group["total"] != total:
            problems.append("total is not its dice and modifiers")
        if "rebellion" in group and group["rebellion"] != int(total >= 6):
            problems.append("rebellion is not six or more")
    if "blast" in group and group["blast"] != int(dice[0] <= 5):
        problems.append("blast is not one through five")
    return problems


def _low_luck_fire(group: dict[str, Any]) -> str:
    """The volley a Low Luck group's power joins (adjudicator.rolls.lowluck): the AA gun's,
    the support shots', the subs' or the other units'."""
    if group["unit"] == "AA":
        return "aa"
    if group.get("fire") == "bombard":
        return "bombard"
    return "subs" if group["unit"] == "SUB" else "units"


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
    keys = _keys_or_report(keys_doc)
    if isinstance(keys, Report):
        return keys
    entries = ledger_doc.get("entries") if isinstance(ledger_doc, dict) else None
    if not isinstance(entries, list) or not entries:
        return _refusal(NO_ENTRIES)
    return LedgerVerifier(keys).verify(entries)


NO_ENTRIES = 'ledger: no entries (expected {"entries": [...]})'


def _refusal(problem: str) -> Report:
    report = Report()
    report.problems.append(problem)
    return report


def _keys_or_report(keys_doc: Any) -> dict[str, Ed25519PublicKey] | Report:
    try:
        return load_keys(keys_doc)
    except (KeyError, TypeError, ValueError, binascii.Error) as exc:
        return _refusal(f"keys: {exc}")


# --- Reading an exported ledger as it streams -------------------------------------------


class LedgerFileError(ValueError):
    """An exported ledger file that is not JSON. ``where`` says where it stopped being
    readable: the byte of the file and the entry (``entry``, counted from 1) being read."""

    def __init__(self, message: str, where: str, offset: int, entry: int | None) -> None:
        super().__init__(message)
        self.where = where
        self.offset = offset
        self.entry = entry


class _UnusualLedger(Exception):
    """JSON, perhaps, but not one ``{"entries": [...]}`` that can be read as it streams
    (no ``entries``, two of them, or an entry nested deeper than any entry is): such a
    file is read whole, exactly as before."""


_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_ENTRY_DECODER = json.JSONDecoder()
_MARGIN = 32
"""Characters that must follow a value read before the file's end, lest it go on (a
number cut short at the end of what was read is still a number)."""
_DEEPEST_ENTRY = 64
"""An entry nested deeper than this is not read as it streams: whether Python's parser
can read a whole document holding it depends on its depth in the document."""


def _deeper_than(value: Any, limit: int) -> bool:
    if limit < 0:
        return True
    if isinstance(value, dict):
        return any(_deeper_than(item, limit - 1) for item in value.values())
    if isinstance(value, list):
        return any(_deeper_than(item, limit - 1) for item in value)
    return False


def _plain_entry(value: Any) -> bool:
    """An object of strings (every entry as exported): as shallow as can be."""
    return type(value) is dict and _NESTING.isdisjoint(map(type, value.values()))


_NESTING = frozenset({dict, list})


class _JsonStream:
    """An exported ledger's text read a chunk at a time, with a place in what was read.

    Each JSON value is read by Python's own parser (``raw_decode``): a value that fails
    before the end of what was read is refused where it fails; one that fails, or ends,
    at the end of what was read is read again with more of the file. What has been read
    is let go of as the reading goes on."""

    def __init__(self, fh: IO[bytes], chunk: int) -> None:
        self._fh = fh
        self._chunk = chunk
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.gone = 0
        """Bytes of the file before ``buf``."""
        self.bytes_read = 0
        self.entry: int | None = None
        """The entry being read, counted from 1, once inside ``entries``."""
        self.between = False
        """Whether the reading is past that entry, looking for what follows it."""

    def more(self) -> None:
        """Read on (the end of the file is ``eof``)."""
        if self.eof:
            return
        if self.pos:
            done = self.buf[: self.pos]
            self.gone += len(done) if done.isascii() else len(done.encode("utf-8"))
            self.buf = self.buf[self.pos :]
            self.pos = 0
        data = self._fh.read(max(self._chunk, len(self.buf)))
        self.bytes_read += len(data)
        try:
            self.buf += self._decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            # exc.object is the bytes held back from the last read, then these.
            raise self.fail(
                f"it is not UTF-8 text ({exc.reason})", len(self.buf), exc.start
            ) from None
        self.eof = not data

    def fail(self, reason: str, at: int, past: int = 0) -> LedgerFileError:
        """The error for what is wrong at ``buf[at]`` (or ``past`` bytes after it)."""
        offset = self.gone + len(self.buf[:at].encode("utf-8")) + past
        where = f"at byte {offset:,} of the file"
        if self.entry is not None:
            where += f", {'after' if self.between else 'in'} entry {self.entry:,} of its entries"
        return LedgerFileError(f"not JSON {where}: {reason}", where, offset, self.entry)

    def next_char(self) -> str:
        """Skip JSON's white space; the next character, or "" at the end of the file."""
        char = self.buf[self.pos : self.pos + 1]
        if char and char not in " \t\n\r":
            return char
        if char == " ":  # the one space after a comma or a colon
            char = self.buf[self.pos + 1 : self.pos + 2]
            if char and char not in " \t\n\r":
                self.pos += 1
                return char
        while True:
            self.pos = _JSON_SPACE.match(self.buf, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buf) or self.eof:
                return self.buf[self.pos : self.pos + 1]
            self.more()

    def value(self) -> Any:
        """The JSON value at the place read, read whole; the place moves past it."""
        while True:
            try:
                value, end = _ENTRY_DECODER.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                cut_short = exc.msg.startswith("Unterminated") or exc.pos + _MARGIN > len(self.buf)
                if self.eof or not cut_short:
                    raise self.fail(exc.msg, exc.pos) from None
            except RecursionError:
                raise _UnusualLedger from None
            except ValueError as exc:  # an integer too long for int()
                raise self.fail(str(exc), self.pos) from None
            else:
                if self.eof or end + _MARGIN <= len(self.buf):
                    self.pos = end
                    return value
            self.more()

    def expect(self, char: str, reason: str) -> None:
        if self.next_char() != char:
            raise self.fail(reason, self.pos)
        self.pos += 1

    def entries(self) -> Iterator[Any]:
        """Each entry of the document's ``entries``, once the whole document is known to be
        JSON up to it; the rest of the document is read (and checked) after the last."""
        if self.next_char() != "{":
            raise _UnusualLedger
        self.pos += 1
        found = False
        char = self.next_char()
        while True:
            if char != '"':
                raise self.fail("Expecting property name enclosed in double quotes", self.pos)
            key = self.value()
            self.expect(":", "Expecting ':' delimiter")
            char = self.next_char()
            if key != "entries":
                if _deeper_than(self.value(), _DEEPEST_ENTRY):
                    raise _UnusualLedger
            elif found or char != "[":
                raise _UnusualLedger  # entries twice (the last counts), or not a list
            else:
                found = True
                self.pos += 1
                yield from self._array()
            char = self.next_char()
            if char == "}":
                break
            if char != ",":
                raise self.fail("Expecting ',' delimiter", self.pos)
            self.pos += 1
            char = self.next_char()
        self.pos += 1
        if self.next_char():
            raise self.fail("Extra data", self.pos)
        if not found:
            raise _UnusualLedger

    def _array(self) -> Iterator[Any]:
        self.entry, self.between = 0, False
        if self.next_char() == "]":
            self.pos += 1
            self.entry = None
            return
        while True:
            self.entry += 1
            self.between = False
            entry = self.value()
            if not _plain_entry(entry) and _deeper_than(entry, _DEEPEST_ENTRY):
                raise _UnusualLedger
            self.between = True
            yield entry
            char = self.next_char()
            if char == "]":
                self.pos += 1
                self.entry = None
                return
            if char != ",":
                raise self.fail("Expecting ',' delimiter", self.pos)
            self.pos += 1
            self.next_char()


CHUNK = 1 << 16
"""Bytes read from a ledger file at a time."""


def read_ledger_entries(fh: IO[bytes], chunk: int = CHUNK) -> Iterator[Any]:
    """The entries of an exported ledger (``{"entries": [...]}``) read from ``fh`` (opened
    ``"rb"``) one at a time: a ledger of any length in the memory of one entry.

    The whole file is checked as Python's JSON parser checks it, and what is not JSON is a
    :class:`LedgerFileError` saying at which byte, and in or after which entry. A document
    of another shape (no ``entries``, or two, or an entry nested deeper than 64) is a
    ``ValueError``: read it whole instead."""
    try:
        yield from _JsonStream(fh, chunk).entries()
    except _UnusualLedger:
        raise ValueError('not one {"entries": [...]} to read as it streams') from None


Progress = Callable[[int, int], None]
"""Told, every so often while a ledger file is read, the entries and bytes read so far."""


def verify_ledger_file(
    path: str | os.PathLike[str],
    keys_doc: Any,
    *,
    progress: Progress | None = None,
    workers: int = 0,
    chunk: int = CHUNK,
) -> Report:
    """:func:`verify_ledger` on the exported ledger in file ``path``, read one entry at a
    time: the same checks by the same code, the same report, in memory that does not grow
    with the ledger. ``workers`` processes check the signatures while this one walks.

    A file that is not JSON raises :class:`LedgerFileError`, in the very words Python's
    parser says of it (those the verifier has always printed), with ``where`` it stopped
    being readable. A document of another shape than one ``{"entries": [...]}`` is read
    whole and given to :func:`verify_ledger`, as it always was. A file that cannot be
    opened raises ``OSError``. What is not a file (a pipe: it cannot be read twice) is read
    whole, as it always was."""
    streamed: LedgerFileError | None = None
    try:
        if not os.path.isfile(path):
            raise _UnusualLedger
        with open(path, "rb") as fh:
            return _verify_stream(_JsonStream(fh, chunk), keys_doc, progress, workers)
    except LedgerFileError as exc:
        streamed = exc
    except _UnusualLedger:
        pass
    try:  # read whole, as it always was: for the parser's own words, or an unusual shape
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except ValueError as exc:
        if streamed is None:
            raise
        raise LedgerFileError(str(exc), streamed.where, streamed.offset, streamed.entry) from None
    return verify_ledger(doc, keys_doc)


def _verify_stream(
    stream: _JsonStream, keys_doc: Any, progress: Progress | None, workers: int
) -> Report:
    keys = _keys_or_report(keys_doc)
    if isinstance(keys, Report):
        for _ in stream.entries():  # the file must still be JSON
            pass
        return keys
    verifier = LedgerVerifier(keys, signatures=_SignatureChecks(keys, workers), spill=True)
    try:
        for entry in stream.entries():
            verifier.add(entry)
            if progress is not None and not verifier.entries % 1000:
                progress(verifier.entries, stream.bytes_read)
        if progress is not None:
            progress(verifier.entries, stream.bytes_read)
        if not verifier.entries:
            return _refusal(NO_ENTRIES)
        return verifier.finish()
    finally:
        verifier.close()


class ProgressLine:
    """How far a verification has got, on one line of a terminal rewritten in place
    (``\\r  verified 45,000 entries (12,300/s), 45%``) at most ``per_second`` times a
    second; :meth:`done` leaves the line for the report to follow."""

    def __init__(
        self,
        out: IO[str],
        total_bytes: int = 0,
        per_second: float = 4,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._out = out
        self._total = total_bytes
        self._every = 1 / per_second
        self._clock = clock
        self._start = clock()
        self._last = self._start
        self._width = 0

    def __call__(self, entries: int, bytes_read: int) -> None:
        now = self._clock()
        if now - self._last >= self._every:
            self._last = now
            self._show(entries, bytes_read, now)

    def _show(self, entries: int, bytes_read: int, now: float) -> None:
        rate = entries / max(now - self._start, 1e-9)
        line = f"  verified {entries:,} entries ({rate:,.0f}/s)"
        if self._total:
            line += f", {min(100, 100 * bytes_read // self._total)}%"
        self._out.write("\r" + line.ljust(self._width))
        self._out.flush()
        self._width = len(line)

    def clear(self) -> None:
        """Take the line away (the reading failed: the error follows)."""
        if self._width:
            self._out.write("\r" + " " * self._width + "\r")
            self._out.flush()
            self._width = 0

    def done(self, entries: int) -> None:
        now = self._clock()
        seconds = now - self._start
        line = f"  verified {entries:,} entries in {seconds:.1f} s"
        self._out.write("\r" + line.ljust(self._width) + "\n")
        self._out.flush()


# --- Key rotation statements ------------------------------------------------------------

ROTATION_STATEMENT = "key-rotation"
ROTATION_VERSION = 1


def rotation_body(old_key: str, new_key: str, new_public: str, at: str) -> bytes:
    """The bytes the retiring key signs when the server rotates its signing key.

    Canonical JSON like a ledger body, but with no ``kind``, ``seq`` or chain, so that it
    can never be read as an entry, nor an entry as it::

        {"v": 1, "statement": "key-rotation", "at": "<UTC, us, Z>", "old": "<old key id>",
         "new": {"id": "<new key id>", "alg": "Ed25519", "public": "<base64 raw key>"}}

    ``new`` is exactly an item of the published keys document. The statement is mailed as
    ``{"body", "sig", "key"}`` like an entry: the body's text, the old key's Ed25519
    signature over its bytes, and the old key's id.
    """
    return canonical_json(
        {
            "v": ROTATION_VERSION,
            "statement": ROTATION_STATEMENT,
            "at": at,
            "old": old_key,
            "new": {"id": new_key, "alg": "Ed25519", "public": new_public},
        }
    )


@dataclass(frozen=True)
class Rotation:
    """A key rotation statement as read: key ``old`` says that key ``new`` follows it."""

    old: str
    new: str
    new_key: Ed25519PublicKey
    at: str
    body: bytes
    sig: str
    where: str


def read_rotation(signed: dict[str, Any], where: str) -> Rotation:
    """Read a mailed statement (its signature is checked later, against a trusted key);
    a ``ValueError`` says what is wrong with it."""
    body = str(signed["body"]).encode("utf-8")
    obj = decode_body(body)
    if canonical_json(obj, checked=True) != body:
        raise ValueError("its body is not in canonical form")
    if not isinstance(obj, dict) or obj.get("v") != ROTATION_VERSION:
        raise ValueError(f"unknown statement version {obj.get('v')!r}")
    new, old, at = obj.get("new"), obj.get("old"), obj.get("at")
    if not isinstance(new, dict) or not isinstance(old, str) or not isinstance(at, str):
        raise ValueError("it lacks the old key, the new key or the time")
    try:
        new_key = load_keys({"keys": [new]})[new["id"]]
    except (KeyError, TypeError, binascii.Error) as exc:
        raise ValueError(f"its new key is malformed ({exc})") from None
    if old != signed["key"]:
        raise ValueError(f"it names key {old} but is signed with key {signed['key']}")
    if new["id"] == old:
        raise ValueError("it names the same key twice")
    parse_time(at)
    return Rotation(old, str(new["id"]), new_key, at, body, str(signed["sig"]), where)


def extend_keys(
    roots: dict[str, Ed25519PublicKey], rotations: Sequence[Rotation]
) -> tuple[dict[str, Ed25519PublicKey], list[Rotation]]:
    """The keys trusted from ``roots``: a key is added when a key already trusted signed
    a statement naming it, and so on down the chain. Returns them and the statements used."""
    keys, used = dict(roots), []
    waiting = list(rotations)
    grown = True
    while grown:
        grown = False
        for rotation in list(waiting):
            if rotation.old not in keys:
                continue
            waiting.remove(rotation)
            if rotation.new not in keys and not verify_signature(
                keys, rotation.body, rotation.sig, rotation.old
            ):
                keys[rotation.new] = rotation.new_key
                used.append(rotation)
                grown = True
    return keys, used


# --- Reading mail -----------------------------------------------------------------------


class MailError(ValueError):
    """A mailbox, zip or folder that cannot be read at all. (A message inside one that
    cannot be read is reported by name instead, and the rest is read.)"""


@dataclass(frozen=True)
class MailItem:
    """One thing found in a mailbox, named so that a person can find it again: a whole
    message, or (``is_message`` false) a saved attachment such as ``entry-5.json``."""

    name: str
    data: bytes
    is_message: bool = True


@dataclass(frozen=True)
class ZipLimits:
    """What a zip may unpack to: members, and bytes in all (a zip bomb is refused)."""

    members: int = 20_000
    unzipped: int = 512 * 1024 * 1024


def mail_items(path: str, limits: ZipLimits | None = None) -> Iterator[MailItem]:
    """The messages and saved files at ``path``: a maildir (``cur/`` and ``new/``, and
    Maildir++ folders), an mbox, a zip, one ``.eml`` or ``.json`` file, or a folder of
    ``.eml``, ``.json``, ``.mbox`` and ``.zip`` files. The kind of ``path`` is settled
    here (a ``MailError`` now); the messages are read one at a time as they are used."""
    limits = limits or ZipLimits()
    if os.path.isdir(path):
        boxes = _maildir_folders(path)
        return _maildir(path, boxes) if boxes else _folder(path, limits)
    if not os.path.isfile(path):
        raise MailError(f"{path}: there is no such file or folder")
    try:
        with open(path, "rb") as fh:
            head = fh.read(5)
    except OSError as exc:
        raise MailError(f"{path}: {exc.strerror or exc}") from None
    name = os.path.basename(path)
    if head.startswith(b"PK"):
        with open(path, "rb") as fh:
            return iter(zip_items(fh.read(), name, limits))
    if head == b"From ":
        return _mbox_file(path, name)
    return iter([MailItem(name, _read_file(path), not path.lower().endswith(".json"))])


def _read_file(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise MailError(f"{path}: {exc.strerror or exc}") from None


def _maildir_folders(path: str) -> list[str]:
    """The maildir's own ``cur``/``new`` and those of its Maildir++ folders (``.Name``)."""
    tops = [path] + [
        os.path.join(path, name)
        for name in sorted(os.listdir(path))
        if name.startswith(".") and os.path.isdir(os.path.join(path, name))
    ]
    return [
        os.path.join(top, sub)
        for top in tops
        for sub in ("cur", "new")
        if os.path.isdir(os.path.join(top, sub))
    ]


def _maildir(root: str, folders: list[str]) -> Iterator[MailItem]:
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            full = os.path.join(folder, name)
            if os.path.isfile(full):
                yield MailItem(os.path.relpath(full, root), _read_file(full))


def _folder(root: str, limits: ZipLimits) -> Iterator[MailItem]:
    for top, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(top, name)
            shown = os.path.relpath(full, root)
            lower = name.lower()
            if lower.endswith(".json"):
                yield MailItem(shown, _read_file(full), is_message=False)
            elif lower.endswith((".eml", ".msg")):
                yield MailItem(shown, _read_file(full))
            elif lower.endswith(".mbox"):
                yield from _mbox_file(full, shown)
            elif lower.endswith(".zip"):
                yield from zip_items(_read_file(full), shown, limits)


def _mbox_file(path: str, name: str) -> Iterator[MailItem]:
    try:
        with open(path, "rb") as fh:
            yield from mbox_items(fh, name)
    except OSError as exc:
        raise MailError(f"{name}: {exc.strerror or exc}") from None


_QUOTED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)
#: A separator line: ``From <sender> <date>`` with a time in it ("From - Mon Jan 1 ...",
#: "From MAILER-DAEMON Wed Nov 25 06:52:24 2026"); a body's unquoted "From here on" is not.
_SEPARATOR = re.compile(rb"From \S+ .*\d\d:\d\d")


def mbox_items(lines: Iterable[bytes], name: str) -> Iterator[MailItem]:
    """The messages of an mbox, each without its ``From `` line and with ``>From ``
    quoting undone. A message starts at the first line, or at a ``From `` line with a
    date after a blank line. A file cut short leaves its last message cut short: that
    message is read like any other, and whatever in it cannot be read is reported by
    name."""
    message: list[bytes] = []
    count = 0
    blank = True
    for line in lines:
        if line.startswith(b"From ") and (not count or (blank and _SEPARATOR.match(line))):
            if count:
                yield _mbox_message(name, count, message)
            count += 1
            message = []
        elif not count:
            raise MailError(f"{name} is not an mbox: it does not begin with a 'From ' line")
        else:
            message.append(line)
        blank = line in (b"\n", b"\r\n")
    if count:
        yield _mbox_message(name, count, message)


def _mbox_message(name: str, number: int, lines: list[bytes]) -> MailItem:
    return MailItem(f"{name} message {number}", _QUOTED_FROM.sub(rb"\1", b"".join(lines)))


def zip_items(data: bytes, name: str, limits: ZipLimits | None = None) -> list[MailItem]:
    """The ``.eml``, ``.json`` and ``.mbox`` members of a zip, all unpacked here, within
    ``limits``: a zip with too many members, or unpacking to more bytes than allowed, is
    refused with a ``MailError`` (the sizes it claims are not trusted: the bytes are
    counted as they come out)."""
    limits = limits or ZipLimits()
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [info for info in archive.infolist() if not info.is_dir()]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
        raise MailError(f"{name} is not a readable zip file ({exc})") from None
    if len(members) > limits.members:
        raise MailError(
            f"{name} holds {len(members)} files, more than the {limits.members} allowed"
        )
    items: list[MailItem] = []
    budget = limits.unzipped
    for info in members:
        shown = f"{name}: {info.filename}"
        try:
            with archive.open(info) as fh:
                content = fh.read(budget + 1)
        except Exception as exc:  # each decompressor fails with its own exception types
            raise MailError(f"{shown} cannot be unpacked ({exc})") from None
        if len(content) > budget:
            raise MailError(
                f"{name} unpacks to more than {limits.unzipped} bytes: refused unread "
                "(a zip bomb, or a mailbox too large to check here)"
            )
        budget -= len(content)
        lower = info.filename.lower()
        if lower.endswith(".json"):
            items.append(MailItem(shown, content, is_message=False))
        elif lower.endswith((".eml", ".msg")):
            items.append(MailItem(shown, content))
        elif lower.endswith(".mbox") or content.startswith(b"From "):
            items.extend(mbox_items(io.BytesIO(content), shown))
    return items


def upload_items(data: bytes, name: str, limits: ZipLimits | None = None) -> list[MailItem]:
    """An uploaded mailbox told apart by its first bytes: a zip, an mbox, or one message."""
    if data.startswith(b"PK"):
        return zip_items(data, name, limits)
    if data.startswith(b"From "):
        return list(mbox_items(io.BytesIO(data), name))
    return [MailItem(name, data)]


# --- Finding the entries in mail --------------------------------------------------------

#: Attachment names this service gives: a file so named must be what it says.
_OUR_NAMES = re.compile(r"\A(?:[\w-]*entry-\d+|keys|key-rotation-[0-9a-f]+)\.json\Z", re.I)
_CUT_SHORT = (
    email.errors.CloseBoundaryNotFoundDefect,
    email.errors.StartBoundaryNotFoundDefect,
)


@dataclass(frozen=True)
class _Copy:
    signed: dict[str, str]
    where: str


@dataclass(frozen=True)
class _Found:
    """What one attachment held: keys, an entry (its chain and seq), or neither (a
    rotation statement, or something reported as a problem)."""

    keys: dict[str, Ed25519PublicKey] | None = None
    entry: tuple[tuple[str, int], int] | None = None


@dataclass
class _Mailbag:
    """Everything of this service found in a mailbox, before any of it is trusted."""

    #: (chain field, number) -> seq -> body bytes -> copies (distinct signatures).
    entries: dict[tuple[str, int], dict[int, dict[bytes, list[_Copy]]]] = field(
        default_factory=dict
    )
    #: The keys attached to each chain's first message (the one holding its seq 1).
    first_keys: dict[tuple[str, int], dict[str, Ed25519PublicKey]] = field(default_factory=dict)
    all_keys: dict[str, Ed25519PublicKey] = field(default_factory=dict)
    keys_where: dict[str, str] = field(default_factory=dict)
    rotations: list[Rotation] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    messages: int = 0
    files: int = 0
    unrelated: int = 0

    def read(self, item: MailItem) -> None:
        """Take in one message or saved file; what cannot be read is a problem named by
        where it is, never an exception."""
        if not item.is_message:
            self.files += 1
            saved = self._attachment(item.name, os.path.basename(item.name), item.data, "")
            self._settle([saved], item.name)
            return
        self.messages += 1
        where = item.name
        try:
            msg = email.message_from_bytes(item.data)
            if msg.get("Message-ID"):
                where = f"{item.name} {str(msg['Message-ID']).strip()}"
            cut = any(
                isinstance(defect, _CUT_SHORT) for part in msg.walk() for defect in part.defects
            )
            note = " (the message is cut short: was the file truncated?)" if cut else ""
            found = [
                self._attachment(f"{where}: {filename}", filename, payload, note)
                for filename, payload in _json_parts(msg)
            ]
        except Exception as exc:  # a damaged message may fail anywhere in the parser
            self.problems.append(f"{where}: cannot be read as a message ({exc!r})")
            return
        if not self._settle(found, where) and note:
            self.notes.append(f"{where}: holds nothing of this service{note}")

    def _settle(self, found: list[_Found | None], where: str) -> bool:
        """Settle what one message (or saved file) held: its keys become the first keys
        of any chain whose seq 1 came with them. Returns whether it held anything ours."""
        ours = [thing for thing in found if thing is not None]
        if not ours:
            self.unrelated += 1
            return False
        keys: dict[str, Ed25519PublicKey] = {}
        for thing in ours:
            keys.update(thing.keys or {})
        for kid in keys:
            self.keys_where.setdefault(kid, where)
        self.all_keys.update(keys)
        for thing in ours:
            if keys and thing.entry is not None and thing.entry[1] == 1:
                self.first_keys.setdefault(thing.entry[0], {}).update(keys)
        return True

    def _attachment(self, where: str, filename: str, payload: bytes, note: str) -> _Found | None:
        """Read one JSON attachment (None: it is not this service's). A file that bears
        one of this service's names must be what the name says."""
        ours = bool(_OUR_NAMES.match(os.path.basename(filename)))
        try:
            doc = json.loads(payload)
        except (ValueError, RecursionError):
            return self._not_ours(ours, f"{where}: is not JSON{note}")
        if isinstance(doc, dict) and isinstance(doc.get("keys"), list):
            try:
                return _Found(keys=load_keys(doc))
            except (KeyError, TypeError, ValueError) as exc:
                self.problems.append(f"{where}: the keys cannot be used ({exc})")
                return _Found()
        fields = [doc.get(name) for name in ("body", "sig", "key")] if isinstance(doc, dict) else []
        if not fields or not all(isinstance(value, str) for value in fields):
            return self._not_ours(ours, f"{where}: is not a signed entry{note}")
        signed = {"body": str(fields[0]), "sig": str(fields[1]), "key": str(fields[2])}
        try:
            obj = json.loads(signed["body"])
        except (ValueError, RecursionError):
            obj = None
        if not isinstance(obj, dict):
            self.problems.append(f"{where}: its body is not a ledger entry{note}")
            return _Found()
        if obj.get("statement") == ROTATION_STATEMENT:
            try:
                self.rotations.append(read_rotation(signed, where))
            except (KeyError, TypeError, ValueError) as exc:
                self.problems.append(f"{where}: not a valid key rotation statement ({exc})")
            return _Found()
        owner = "game" if "game" in obj else "table"
        number, seq = obj.get(owner), obj.get("seq")
        if type(number) is not int or type(seq) is not int or seq < 1:
            self.problems.append(f"{where}: is not a ledger entry (it names no game and seq)")
            return _Found()
        chain = (owner, number)
        copies = self.entries.setdefault(chain, {}).setdefault(seq, {})
        known = copies.setdefault(signed["body"].encode("utf-8"), [])
        if not any(copy.signed == signed for copy in known):
            known.append(_Copy(signed, where))
        return _Found(entry=(chain, seq))

    def _not_ours(self, ours: bool, problem: str) -> _Found | None:
        if not ours:
            return None
        self.problems.append(problem)
        return _Found()


def _json_parts(msg: email.message.Message) -> Iterator[tuple[str, bytes]]:
    """Each JSON attachment of a message, forwarded messages inside it included."""
    for part in msg.walk():
        if part.is_multipart():
            continue
        filename = part.get_filename() or ""
        if filename.lower().endswith(".json") or part.get_content_type() == "application/json":
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                yield filename or "(a JSON attachment)", payload


# --- Verifying a mailbox ----------------------------------------------------------------


def seq_ranges(seqs: Iterable[int]) -> str:
    """``[4, 6, 7, 8]`` as ``4, 6-8``."""
    runs: list[list[int]] = []
    for seq in seqs:
        if runs and seq == runs[-1][1] + 1:
            runs[-1][1] = seq
        else:
            runs.append([seq, seq])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


@dataclass
class ChainFindings:
    """What a mailbox shows of one ledger (a game's, or a TripleA table's)."""

    owner: str
    number: int
    received: list[int]
    missing: list[int]
    seed: str
    keys: list[str]
    forks: list[str]
    problems: list[str]
    report: Report
    allow_missing: bool = False

    @property
    def name(self) -> str:
        return f"{self.owner} {self.number}"

    @property
    def last_seq(self) -> int:
        return self.received[-1] if self.received else 0

    @property
    def ok(self) -> bool:
        clean = not self.forks and not self.problems and self.report.ok
        return clean and (self.allow_missing or not self.missing)

    def summary(self) -> str:
        missing = f"{len(self.missing)} missing" if self.missing else "none missing"
        return (
            f"{self.name}: {len(self.received)} entries received and checked, last seq "
            f"{self.last_seq}, {missing}; seed {self.seed}"
        )

    def missing_line(self) -> str:
        they = "it exists, but it" if len(self.missing) == 1 else "they exist, but they"
        return (
            f"seq {seq_ranges(self.missing)}: the chain up to seq {self.last_seq} proves "
            f"{they} never reached this mailbox"
        )

    def lines(self) -> list[str]:
        out = [self.summary()]
        out += [f"  FORK: {line}" for line in self.forks]
        if self.missing:
            out.append(f"  {'WARNING' if self.allow_missing else 'MISSING'}: {self.missing_line()}")
        out += [f"  keys: {line}" for line in self.keys]
        out += [f"  {line}" for line in self.report.lines()[:-1]]
        out += [f"  PROBLEM: {line}" for line in self.problems]
        return out


@dataclass
class MailReport:
    """Every ledger found in a mailbox, each verified as an exported ledger is, with what
    the mailbox lacks; and what about the mailbox itself could not be read or trusted."""

    chains: list[ChainFindings] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    allow_missing: bool = False

    @property
    def forks(self) -> int:
        return sum(len(chain.forks) for chain in self.chains)

    @property
    def missing(self) -> int:
        return sum(len(chain.missing) for chain in self.chains)

    @property
    def problem_count(self) -> int:
        each = sum(len(chain.problems) + len(chain.report.problems) for chain in self.chains)
        return len(self.problems) + each

    @property
    def ok(self) -> bool:
        if self.forks or self.problem_count:
            return False
        return self.allow_missing or not self.missing

    def result(self) -> str:
        if self.ok:
            if self.missing:
                return (
                    f"RESULT: OK, but {self.missing} entries never reached this mailbox "
                    "(allowed by --allow-missing)"
                )
            return "RESULT: OK"
        counts = [
            (self.forks, "FORKED seq", "FORKED seqs"),
            (self.problem_count, "problem", "problems"),
            (0 if self.allow_missing else self.missing, "missing entry", "missing entries"),
        ]
        said = [f"{n} {one if n == 1 else many}" for n, one, many in counts if n]
        return f"RESULT: FAILED ({', '.join(said)})"

    def lines(self) -> list[str]:
        out = [f"FORK: {chain.name}, {line}" for chain in self.chains for line in chain.forks]
        for chain in self.chains:
            out += chain.lines()
        out += [f"mail: {line}" for line in self.notes]
        out += [f"PROBLEM: {line}" for line in self.problems]
        out.append(self.result())
        return out


def verify_mail(
    items: Iterable[MailItem],
    keys_doc: Any = None,
    *,
    allow_missing: bool = False,
    keys_name: str = "the keys file given",
) -> MailReport:
    """Find every entry of every ledger in ``items`` (a player's mail) and verify each
    ledger exactly as an exported one is (:class:`LedgerVerifier`), naming the seqs the
    chain proves exist but the mail lacks.

    The keys trusted for a ledger are ``keys_doc`` (``--keys``), the keys attached to the
    ledger's first message (the game-created mail) or, when that message is missing, every
    keys file in the mail; and any key a trusted key signed a rotation statement for.
    ``keys_name`` says where ``keys_doc`` came from, in the report.
    """
    report = MailReport(allow_missing=allow_missing)
    given: dict[str, Ed25519PublicKey] = {}
    if keys_doc is not None:
        try:
            given = load_keys(keys_doc)
        except (KeyError, TypeError, ValueError) as exc:
            report.problems.append(f"keys: {exc}")
    bag = _Mailbag()
    try:
        for item in items:
            bag.read(item)
    except MailError as exc:
        report.problems.append(f"{exc} (nothing after it was read)")
    report.problems += bag.problems
    report.notes.append(
        f"read {bag.messages} messages and {bag.files} saved files; "
        f"{bag.unrelated} held nothing of this service"
    )
    report.notes += bag.notes
    _check_rotations(report, bag, given)
    if not bag.entries:
        report.problems.append("no entry of this service was found in the mail")
    for chain in sorted(bag.entries):
        report.chains.append(_verify_chain(chain, bag, (given, keys_name), allow_missing))
    return report


def _check_rotations(report: MailReport, bag: _Mailbag, given: dict[str, Ed25519PublicKey]) -> None:
    """A rotation statement signed in the name of a key known here but not by it is a
    forgery; one whose key nobody here vouches for is only noted."""
    known, used = extend_keys({**given, **bag.all_keys}, bag.rotations)
    for rotation in bag.rotations:
        if rotation in used:
            report.notes.append(
                f"key {rotation.new} follows key {rotation.old} from {rotation.at} "
                f"(a rotation statement signed by {rotation.old})"
            )
        elif rotation.old not in known:
            report.notes.append(
                f"{rotation.where}: a rotation statement signed by key {rotation.old}, which "
                "no keys file here lists: not trusted"
            )
        elif verify_signature(known, rotation.body, rotation.sig, rotation.old):
            report.problems.append(
                f"{rotation.where}: the rotation statement naming key {rotation.new} is not "
                f"signed by key {rotation.old}, as it claims: a forgery"
            )


def _trusted(
    chain: tuple[str, int], bag: _Mailbag, given: tuple[dict[str, Ed25519PublicKey], str]
) -> tuple[dict[str, Ed25519PublicKey], list[str]]:
    """The keys trusted for ``chain``'s entries, and how each came to be trusted."""
    owner = chain[0]
    first = bag.first_keys.get(chain, {})
    said = [f"{kid} from {given[1]}" for kid in given[0]]
    given_keys = given[0]
    said += [
        f"{kid} attached to this {owner}'s first message" for kid in first if kid not in given_keys
    ]
    roots = {**given_keys, **first}
    if not roots:
        roots = dict(bag.all_keys)
        said += [
            f"{kid} from {bag.keys_where[kid]} (no keys came with this {owner}'s first entry)"
            for kid in roots
        ]
    keys, used = extend_keys(roots, bag.rotations)
    said += [f"{r.new} by a rotation statement signed by {r.old} ({r.where})" for r in used]
    return keys, said


def _verify_chain(
    chain: tuple[str, int],
    bag: _Mailbag,
    given: tuple[dict[str, Ed25519PublicKey], str],
    allow_missing: bool,
) -> ChainFindings:
    """One ledger from the mail: each seq's genuine entry chosen among its copies (a
    second genuine one is a fork), then the whole walked by :class:`LedgerVerifier`."""
    keys, said = _trusted(chain, bag, given)
    seqs = bag.entries[chain]
    genuine: dict[int, dict[bytes, _Copy]] = {}
    for seq, variants in seqs.items():
        for body, copies in variants.items():
            good = [c for c in copies if not _signature_problem(keys, body, c)]
            if good:
                genuine.setdefault(seq, {})[body] = good[0]
    problems = [] if keys else ["no key to check it with: give --keys KEYS.json"]
    forks: list[str] = []
    chosen: list[_Copy] = []
    for seq in sorted(seqs):
        pick = _pick(seq, seqs[seq], genuine, forks)
        chosen.append(pick)
        for body, copies in seqs[seq].items():
            for copy in copies:
                problem = _signature_problem(keys, body, copy)
                if copy is not pick and problem:
                    problems.append(
                        f"entry {seq} in {copy.where}: {problem}: a forged or damaged copy"
                        + (f" (a genuine entry {seq} is in {pick.where})" if seq in genuine else "")
                    )
    received = sorted(seqs)
    walked = LedgerVerifier(keys).verify([copy.signed for copy in chosen], seqs=received)
    return ChainFindings(
        owner=chain[0],
        number=chain[1],
        received=received,
        missing=sorted(set(range(1, received[-1] + 1)) - set(received)),
        seed=_seed_state(received, chosen),
        keys=said,
        forks=forks,
        problems=problems,
        report=walked,
        allow_missing=allow_missing,
    )


def _signature_problem(keys: dict[str, Ed25519PublicKey], body: bytes, copy: _Copy) -> str:
    return verify_signature(keys, body, copy.signed["sig"], copy.signed["key"])


def _pick(
    seq: int,
    variants: dict[bytes, list[_Copy]],
    genuine: dict[int, dict[bytes, _Copy]],
    forks: list[str],
) -> _Copy:
    """The copy of entry ``seq`` to walk: its one genuine version; of a fork, the version
    the next entry received chains to; with no genuine version, the first copy (the walk
    reports its signature)."""
    versions = genuine.get(seq, {})
    if not versions:
        return next(iter(variants.values()))[0]
    if len(versions) == 1:
        return next(iter(versions.values()))
    following = {_prev_of(body) for body in genuine.get(seq + 1, {})}
    chained = [copy for body, copy in versions.items() if body_hash(body) in following]
    listed = "; ".join(f"{body_hash(b)[:16]} in {c.where}" for b, c in versions.items())
    forks.append(
        f"seq {seq} exists in {len(versions)} different versions, each validly signed: "
        f"{listed}. The server signed two histories"
        + (f"; entry {seq + 1} chains to {chained[0].where}" if chained else "")
    )
    return chained[0] if chained else next(iter(versions.values()))


def _prev_of(body: bytes) -> Any:
    try:
        obj = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return obj.get("prev") if isinstance(obj, dict) else None


def _seed_state(received: list[int], chosen: list[_Copy]) -> str:
    """Whether the seed was revealed, by the last seed entry received."""
    state = "not revealed in what was received"
    for seq, copy in zip(received, chosen, strict=True):
        try:
            kind = json.loads(copy.signed["body"]).get("kind")
        except (ValueError, RecursionError, AttributeError):
            continue
        if kind == "seed-reveal":
            state = f"revealed at seq {seq}"
        elif kind in SEED_KINDS:
            state = f"not revealed (committed at seq {seq})"
    return state


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Verify an exported PBEM dice ledger, or a player's own mail, offline."
    )
    parser.add_argument("ledger", nargs="?", help="the exported ledger JSON file")
    parser.add_argument(
        "--keys", help="the published keys JSON file (optional with --mail: the mail has them)"
    )
    parser.add_argument(
        "--mail",
        metavar="PATH",
        help="verify every game in your mail instead: a maildir, an mbox, a zip, or a folder "
        "of .eml files or of saved entry-<seq>.json files",
    )
    parser.add_argument(
        "--allow-missing",
        action="store_true",
        help="with --mail: entries that never reached the mailbox are warnings, not failures",
    )
    parser.add_argument(
        "--version", action="store_true", help="say this program's version and the kinds it reads"
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show how far the verification has got, on stderr (default: when it is a terminal)",
    )
    args = parser.parse_args(argv)
    if args.version:
        kinds = ", ".join(sorted(KINDS))
        print(f"verifier.py {VERIFIER_VERSION} (ledger format {FORMAT_VERSION}; kinds: {kinds})")
        return 0
    if args.mail is not None:
        if args.ledger is not None:
            parser.error("give a ledger file or --mail PATH, not both")
        return _main_mail(args.mail, args.keys, args.allow_missing)
    if args.ledger is None or args.keys is None:
        parser.error("give LEDGER.json --keys KEYS.json, or --mail PATH")
    shown = sys.stderr.isatty() if args.progress is None else args.progress
    return _main_ledger(args.ledger, args.keys, shown)


def _main_ledger(ledger_path: str, keys_path: str, shown: bool) -> int:
    """Verify one exported ledger file, read as it streams. A ledger that cannot be read
    is named before a keys file that cannot, as when both were read whole first."""
    keys_doc: Any = None
    keys_error: Exception | None = None
    try:
        with open(keys_path, encoding="utf-8") as fh:
            keys_doc = json.load(fh)
    except Exception as exc:  # said, or raised, once the ledger is known to be readable
        keys_error = exc
    line = ProgressLine(sys.stderr, _file_size(ledger_path)) if shown else None
    entries = [0]

    def progress(count: int, bytes_read: int) -> None:
        entries[0] = count
        if line is not None:
            line(count, bytes_read)

    try:
        report = verify_ledger_file(
            ledger_path,
            keys_doc,
            progress=progress,
            workers=_workers_for(ledger_path) if keys_error is None else 0,
        )
    except (OSError, ValueError) as exc:
        if line is not None:
            line.clear()
        print(f"cannot read input: {exc}", file=sys.stderr)
        if line is not None and isinstance(exc, LedgerFileError):
            print(f"  (the ledger file stops being JSON {exc.where})", file=sys.stderr)
        return 2
    if keys_error is not None:
        if not isinstance(keys_error, (OSError, ValueError)):
            raise keys_error
        print(f"cannot read input: {keys_error}", file=sys.stderr)
        return 2
    if line is not None:
        line.done(entries[0])
    print("\n".join(report.lines()))
    return 0 if report.ok else 1


def _file_size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _workers_for(path: str) -> int:
    """Processes to check signatures on: none for a ledger of a few thousand entries (they
    would cost more to start than they save), else one per core this program may use."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return min(cores, 8) if cores > 1 and _file_size(path) >= 4_000_000 else 0


def _main_mail(path: str, keys_file: str | None, allow_missing: bool) -> int:
    try:
        keys_doc = None
        if keys_file is not None:
            with open(keys_file, encoding="utf-8") as fh:
                keys_doc = json.load(fh)
        items = mail_items(path)
    except (OSError, ValueError) as exc:  # MailError included
        print(f"cannot read input: {exc}", file=sys.stderr)
        return 2
    report = verify_mail(items, keys_doc, allow_missing=allow_missing)
    print("\n".join(report.lines()))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
