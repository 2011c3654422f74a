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
"""

from __future__ import annotations

import argparse
import base64
import binascii
import email
import email.errors
import email.message
import hashlib
import hmac
import io
import json
import os
import re
import sys
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
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
    """A committed seed and the rolls thrown under it.

    In mail mode (some entries never arrived) a seed may be ``unknown`` (its commitment is
    in a missing entry), ``uncertain`` (a missing entry after it may have revealed it or
    committed a new one) or ``closed`` unrevealed (superseded, its reveal missing);
    ``unchecked`` then says why its rolls cannot be recomputed from what was received.
    """

    commitment: str
    seq: int
    rolls: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    seed: bytes | None = None
    unknown: bool = False
    uncertain: bool = False
    closed: bool = False
    unchecked: str = ""


class LedgerVerifier:
    """Walks the entries of one chain in order and checks everything DESIGN.md promises."""

    def __init__(self, keys: dict[str, Ed25519PublicKey]) -> None:
        self.keys = keys
        self.report = Report()
        self.seeds: list[_Seed] = []
        self.chain_field = ""
        self.chain_id: int | None = None
        self.numbers: list[int] = []
        self.sparse = False

    def verify(self, entries: Sequence[Any], seqs: Sequence[int] | None = None) -> Report:
        """Check ``entries``, a whole ledger in order.

        ``seqs`` is the mail mode's (:func:`verify_mail`): the seq each entry is known by,
        rising, some perhaps missing. The chain is then checked between consecutive seqs
        only (nothing links across a missing entry), and what a missing entry may hold (a
        reveal, a new commitment) is never held against the entries around it. Everything
        else is checked exactly as for a whole ledger, by the same code.
        """
        self.sparse = seqs is not None
        self.numbers = list(seqs) if seqs is not None else list(range(1, len(entries) + 1))
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
                self.report.problems.append(f"entry {self.numbers[position - 1]}: {problem}")
        return self._finish(count)

    def _signatures(self, batch: list[tuple[bytes, str, str]]) -> list[str]:
        return [verify_signature(self.keys, body, sig, kid) for body, sig, kid in batch]

    def _walk(self, signed: list[tuple[bytes, str, str]]) -> int:
        """Check every entry but its signature; return how many entries could be read."""
        prev_hash: str | None = ZERO_HASH
        prev_number = 0
        prev_at: datetime | None = None
        for position, (body, _sig, _kid) in enumerate(signed, start=1):
            number = self.numbers[position - 1]
            where = f"entry {number}"
            if number != prev_number + 1:  # mail mode: the entries between never arrived
                prev_hash = None
                self._missing_before()
            prev_number = number
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
            self._check_header(where, number, obj, prev_hash)
            prev_at = self._check_time(where, obj, prev_at)
            self._check_kind(where, obj)
            prev_hash = body_hash(body)
        return len(signed)

    def _missing_before(self) -> None:
        """Mail mode: the entries just before this one never arrived. One of them may have
        revealed the open seed or committed a new one, so later rolls are counted under
        the seed known so far only if a reveal of that very seed proves it."""
        last = self.seeds[-1] if self.seeds else None
        if last is None or last.seed is not None or last.closed:
            self.seeds.append(_Seed(commitment="", seq=0, unknown=True))
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
            if not (isinstance(commitment, str) and re.fullmatch(r"[0-9a-f]{64}", commitment)):
                self.report.problems.append(f"{where}: missing or malformed seed_commitment")
                commitment = ""
            self.seeds.append(_Seed(commitment=commitment, seq=seq))
            draw = data.get("draw")
            if kind == "genesis" and draw is not None:
                # Sides drawn between equal bids: the genesis's own die, under the seed it
                # commits to, recomputed like a roll's once the seed is revealed.
                if isinstance(draw, dict):
                    self.seeds[-1].rolls.append((seq, draw))
                    self._check_roll_shape(where, draw)
                else:
                    self.report.problems.append(f"{where}: the draw must be an object")
        elif seq == 1:
            self.report.problems.append(f"{where}: the first entry must be the genesis")
        if kind in ROLL_KINDS:
            if open_seed is None:
                self.report.problems.append(f"{where}: roll with no open seed commitment")
            else:
                open_seed.rolls.append((seq, data))
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
        if any(not isinstance(d, int) or not 1 <= d <= sides for d in dice):
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

    def _finish(self, count: int) -> Report:
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
        for seed in self.seeds:
            if seed.seed is None:
                if seed.rolls and (seed.unchecked or seed.unknown):
                    reason = seed.unchecked or (
                        "whose commitment never reached this mailbox: their dice cannot be "
                        "checked from it"
                    )
                    report.pending.append(f"{len(seed.rolls)} rolls {reason}")
                elif seed.rolls:
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
