"""The standalone verifier reading an exported ledger from its file as it streams (issue 20,
point 8): the same report as the whole document gives, line for line, for every ledger the
verifier's own tests build; what is not JSON refused in the same words, with where; memory
that does not grow with the ledger; and how far it has got, on a terminal only."""

from __future__ import annotations

import io
import itertools
import json
import os
import secrets
import threading
import tracemalloc
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dice_server import verifier
from dice_server.cli import main as pbem
from dice_server.keys import Signer
from dice_server.verifier import (
    ZERO_HASH,
    LedgerFileError,
    ProgressLine,
    body_hash,
    canonical_json,
    dice_stream,
    draw_dice,
    read_ledger_entries,
    seed_commitment,
    verify_ledger,
    verify_ledger_file,
)
from tests.unit import test_verifier, test_verifier_low_luck, test_verifier_systems
from tests.unit.test_verifier import SEED, Chain, chain

__all__ = ["chain"]  # the fixture, for the tests run again below


def keys_of(chain: Chain) -> dict[str, Any]:
    signer = chain.signer
    return {"keys": [{"id": signer.key_id, "alg": "Ed25519", "public": signer.public_b64}]}


def layouts(doc: Any) -> Iterator[str]:
    """The ways an exported ledger is laid out: the API's, `pbem ledger export`'s (indented,
    non-ASCII kept), one saved on Windows, and one with more than entries in it."""
    yield json.dumps(doc)
    yield json.dumps(doc, indent=2, ensure_ascii=False)
    yield json.dumps(doc, indent="\t").replace("\n", "\r\n")
    if isinstance(doc, dict):
        yield json.dumps({"exported": {"by": "axis"}, **doc, "note": "kept"})


_files = itertools.count()


def both_ways(chain: Chain, folder: Path) -> Any:
    """The whole document's report, once the file read as it streams (in chunks small
    enough to cut entries, and the usual ones) has given the very same lines."""
    whole = verify_ledger({"entries": chain.entries}, keys_of(chain))
    for number, text in enumerate(layouts({"entries": chain.entries})):
        path = folder / f"ledger-{next(_files)}.json"
        path.write_text(text, encoding="utf-8")
        for chunk in (61, verifier.CHUNK):
            streamed = verify_ledger_file(path, keys_of(chain), chunk=chunk)
            assert streamed.lines() == whole.lines(), (number, chunk)
    return whole


@pytest.fixture(autouse=True)
def verified_both_ways(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every ledger the verifier's tests (imported below) verify is verified from a file too."""
    monkeypatch.setattr(Chain, "verify", lambda chain: both_ways(chain, tmp_path))


# The verifier's own tests, each ledger they build now read from a file as well.
globals().update(
    {
        name: test
        for module in (test_verifier, test_verifier_low_luck, test_verifier_systems)
        for name, test in vars(module).items()
        if name.startswith("test_") and callable(test) and "version" not in name
    }
)


def test_the_verifier_tests_are_run_again_here() -> None:
    again = [name for name in globals() if name.startswith("test_an_honest")]
    assert len(again) >= 2


# --- The same verdict, whatever the document -----------------------------------------


def honest(rolls: int = 5, reveal: bool = True) -> Chain:
    chain = Chain()
    chain.add("genesis", {"seed_commitment": seed_commitment(SEED)})
    for _ in range(rolls):
        chain.roll()
    if reveal:
        chain.add("seed-reveal", {"seed": SEED.hex()})
    return chain


def whole_or_error(path: Path, keys: Any) -> tuple[str, ...]:
    """What the verifier said before it streamed: the document read whole, then verified."""
    try:
        with path.open(encoding="utf-8") as fh:
            doc = json.load(fh)
    except ValueError as exc:
        return ("cannot read input", str(exc))
    return tuple(verify_ledger(doc, keys).lines())


def streamed_or_error(path: Path, keys: Any, chunk: int = verifier.CHUNK) -> tuple[str, ...]:
    try:
        return tuple(verify_ledger_file(path, keys, chunk=chunk).lines())
    except ValueError as exc:
        return ("cannot read input", str(exc))


def entries_text(chain: Chain) -> str:
    return json.dumps({"entries": chain.entries})


ODD_DOCUMENTS = {
    "entries twice, the last counts": lambda e: '{"entries": [], "entries": ' + json.dumps(e) + "}",
    "entries twice, the last empty": lambda e: '{"entries": ' + json.dumps(e) + ', "entries": []}',
    "entries not a list": lambda e: '{"entries": {"1": 2}}',
    "no entries": lambda e: '{"ledger": ' + json.dumps(e) + "}",
    "empty entries": lambda e: '{"entries": []}',
    "a list, not an object": lambda e: json.dumps([{"entries": e}]),
    "an entry that is a number": lambda e: json.dumps({"entries": [*e[:2], 7, *e[2:]]}),
    "an entry nested deep": lambda e: json.dumps({"entries": [*e[:2], [[[[[]]]]] * 30]}),
    "an entry nested deeper than streamed": lambda e: (
        '{"entries": ['
        + json.dumps(e[0])
        + ', {"body": "x", "deep": '
        + "[" * 90
        + "]" * 90
        + "}]}"
    ),
    "a body that is not JSON": lambda e: json.dumps(
        {"entries": [*e[:2], {"body": "{", "sig": "x", "key": "y"}, *e[2:]]}
    ),
    "floats and constants beside": lambda e: (
        '{"n": [1.5, NaN, -Infinity], "entries": ' + json.dumps(e) + "}"
    ),
    "a BOM": lambda e: "\ufeff" + json.dumps({"entries": e}),
    "extra data": lambda e: json.dumps({"entries": e}) + " {}",
    "a trailing comma": lambda e: json.dumps({"entries": e})[:-2] + ",]}",
    "a missing comma": lambda e: json.dumps({"entries": e}).replace("}, {", "} {", 1),
    "an unquoted key": lambda e: json.dumps({"entries": e}).replace('"entries"', "entries"),
    "an integer too long": lambda e: '{"n": ' + "7" * 5000 + ', "entries": ' + json.dumps(e) + "}",
    "a raw newline in a string": lambda e: '{"entries": ["a\nb"]}',
    "nothing": lambda e: "",
}


@pytest.mark.parametrize("name", sorted(ODD_DOCUMENTS))
def test_an_odd_document_gets_what_the_whole_document_got(tmp_path: Path, name: str) -> None:
    chain = honest()
    path = tmp_path / "ledger.json"
    path.write_text(ODD_DOCUMENTS[name](chain.entries), encoding="utf-8")
    want = whole_or_error(path, keys_of(chain))
    for chunk in (1, 7, verifier.CHUNK):
        assert streamed_or_error(path, keys_of(chain), chunk) == want, chunk


def test_a_file_cut_short_anywhere_is_refused_in_the_same_words(tmp_path: Path) -> None:
    chain = honest(rolls=2)
    data = entries_text(chain).encode()
    path = tmp_path / "ledger.json"
    for cut in range(0, len(data), 3):
        path.write_bytes(data[:cut])
        want = whole_or_error(path, keys_of(chain))
        assert want[0] == "cannot read input"
        assert streamed_or_error(path, keys_of(chain), chunk=13) == want, cut


def test_bytes_that_are_not_utf8_are_refused_in_the_same_words(tmp_path: Path) -> None:
    chain = honest(rolls=2)
    data = entries_text(chain).encode()
    path = tmp_path / "ledger.json"
    path.write_bytes(data[:200] + b"\xff" + data[200:])
    want = whole_or_error(path, keys_of(chain))
    assert "utf-8" in want[1]
    assert streamed_or_error(path, keys_of(chain), chunk=64) == want


def test_bad_keys_are_reported_for_a_file_as_for_a_document(tmp_path: Path) -> None:
    chain = honest(rolls=1)
    path = tmp_path / "ledger.json"
    path.write_text(entries_text(chain))
    for keys in (None, {}, {"keys": [{"id": "x"}]}, {"keys": "abc"}):
        assert streamed_or_error(path, keys) == whole_or_error(path, keys)
        assert streamed_or_error(path, keys)[0].startswith("PROBLEM: keys: ")


def test_the_report_says_what_it_always_said_in_the_order_it_always_did(tmp_path: Path) -> None:
    """Players compare reports for months: these lines are verifier 3's before it streamed,
    for a ledger with a problem of every sort (the entry that is not one first, then the
    walk's, then the signatures', then the dice's)."""
    chain = Chain()
    chain.add("genesis", {"seed_commitment": seed_commitment(SEED)})
    chain.roll()
    chain.roll()
    spaced = '{"at":"2026-01-01T00:00:04.000000Z","data":{},"game":5,"kind":"note","prev":"%s",'
    chain.add("note", {}, raw=(spaced % chain.prev + '"seq":4, "v":1}').encode())
    chain.add("roll", {"sides": 6, "dice": [7, 1], "groups": []})
    chain.add("note", {"topic": "general", "text": "y"}, at="2025-01-01T00:00:00.000000Z")
    chain.add("seed-reveal", {"seed": SEED.hex()})
    entries = list(chain.entries)
    entries[1] = {**entries[1], "sig": entries[2]["sig"]}
    entries.append({"body": "x", "sig": "y"})
    path = tmp_path / "ledger.json"
    path.write_text(json.dumps({"entries": entries}))
    assert verify_ledger_file(path, keys_of(chain), workers=2).lines() == [
        "checked: seed revealed at entry 7 matches the commitment made at entry 1",
        "checked: 7 entries: seq 1..7, prev chain",
        "checked: 2 of 3 rolls under the commitment of entry 1 recomputed from the revealed seed",
        "PROBLEM: entry 8: not a ledger entry ('key')",
        "PROBLEM: entry 4: body is not in canonical form",
        "PROBLEM: entry 5: a die is outside 1..6",
        "PROBLEM: entry 6: time 2025-01-01T00:00:00.000000Z is not after the previous",
        "PROBLEM: entry 2: signature does not verify",
        "PROBLEM: entry 5: dice differ from the revealed seed's",
        "RESULT: FAILED (6 problems)",
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_is_read_whole_as_ever(tmp_path: Path) -> None:
    """A pipe cannot be read a second time (for Python's own words on what is wrong)."""
    chain = honest(rolls=2)
    path = tmp_path / "pipe"
    for text in (entries_text(chain), entries_text(chain)[:-100]):
        os.mkfifo(path)
        writer = threading.Thread(target=path.write_text, args=(text,))
        writer.start()
        got = streamed_or_error(path, keys_of(chain))
        writer.join()
        path.unlink()
        (tmp_path / "file.json").write_text(text)
        assert got == whole_or_error(tmp_path / "file.json", keys_of(chain))


# --- Where a file stops being JSON ---------------------------------------------------


def test_the_reader_names_the_entry_and_byte_where_the_file_goes_wrong() -> None:
    chain = honest(rolls=3)
    text = entries_text(chain)
    third = text.index(json.dumps(chain.entries[2]))
    broken = text[:third] + text[third:].replace('"sig": ', '"sig" ', 1)
    where = broken.index('"sig" ', third) + len('"sig"') + 1
    read = read_ledger_entries(io.BytesIO(broken.encode()), chunk=50)
    assert next(read) == chain.entries[0] and next(read) == chain.entries[1]
    with pytest.raises(LedgerFileError) as caught:
        next(read)
    assert (caught.value.entry, caught.value.offset) == (3, where)
    assert caught.value.where == f"at byte {where:,} of the file, in entry 3 of its entries"
    assert "Expecting ':' delimiter" in str(caught.value)


def test_a_file_cut_mid_entry_is_refused_naming_that_entry(tmp_path: Path) -> None:
    chain = honest(rolls=3)
    text = entries_text(chain)
    fourth = text.index(json.dumps(chain.entries[3]))
    path = tmp_path / "ledger.json"
    path.write_text(text[: fourth + 40])
    with pytest.raises(LedgerFileError) as caught:
        verify_ledger_file(path, keys_of(chain), chunk=64)
    assert caught.value.entry == 4
    assert fourth <= caught.value.offset <= fourth + 40
    assert "in entry 4 of its entries" in caught.value.where
    # In Python's own words, as the verifier has always said it.
    with pytest.raises(json.JSONDecodeError) as whole:
        json.loads(path.read_text())
    assert str(caught.value) == str(whole.value)


def test_the_program_says_where_only_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chain = honest(rolls=3)
    text = entries_text(chain)
    (tmp_path / "keys.json").write_text(json.dumps(keys_of(chain)))
    (tmp_path / "ledger.json").write_text(text[: text.index(json.dumps(chain.entries[3])) + 40])
    args = [str(tmp_path / "ledger.json"), "--keys", str(tmp_path / "keys.json")]
    with pytest.raises(json.JSONDecodeError) as whole:
        json.loads((tmp_path / "ledger.json").read_text())
    assert verifier.main(args) == 2
    assert capsys.readouterr().err == f"cannot read input: {whole.value}\n"  # as ever
    assert verifier.main([*args, "--progress"]) == 2
    said = capsys.readouterr().err
    assert (
        said.endswith(
            f"cannot read input: {whole.value}\n  (the ledger file stops being JSON at byte "
        )
        is False
    )
    assert f"cannot read input: {whole.value}\n  (the ledger file stops being JSON at byte " in said
    assert said.endswith(", in entry 4 of its entries)\n")


# --- Bounded memory, and the signatures checked on other processes ------------------


START = datetime(2026, 3, 1)


def synthetic(path: Path, entries: int, tamper: frozenset[int] = frozenset()) -> dict[str, Any]:
    """A signed ledger of ``entries`` entries (rolls of 2 dice, then the seed's reveal)
    written to ``path`` as it is made; entries in ``tamper`` are signed over other bytes."""
    signer = Signer(Ed25519PrivateKey.generate())
    seed = secrets.token_bytes(32)
    prev = ZERO_HASH
    with path.open("w") as out:
        out.write('{"entries": [')
        for seq in range(1, entries + 1):
            data: dict[str, Any] = {"sides": 6, "dice": draw_dice(seed, 9, seq, 2)}
            kind = "roll"
            if seq == 1:
                kind, data = "genesis", {"seed_commitment": seed_commitment(seed)}
            elif seq == entries:
                kind, data = "seed-reveal", {"seed": seed.hex()}
            at = (START + timedelta(microseconds=seq)).strftime(verifier.TIME_FORMAT)
            obj = {
                "v": 1,
                "game": 9,
                "seq": seq,
                "kind": kind,
                "at": at,
                "prev": prev,
                "data": data,
            }
            body = canonical_json(obj, checked=True)
            sig = signer.sign(body + b"!" if seq in tamper else body)
            out.write(
                ("," if seq > 1 else "")
                + json.dumps({"body": body.decode(), "sig": sig, "key": signer.key_id})
            )
            prev = body_hash(body)
        out.write("]}")
    return {"keys": [{"id": signer.key_id, "alg": "Ed25519", "public": signer.public_b64}]}


def peak_bytes(path: Path, keys: dict[str, Any]) -> int:
    tracemalloc.start()
    try:
        report = verify_ledger_file(path, keys)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.ok, report.problems
    assert report.checked[-1].startswith(f"{entries_of(path) - 2} of {entries_of(path) - 2} rolls")
    return peak


def entries_of(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for _ in read_ledger_entries(fh))


def test_memory_does_not_grow_with_the_ledger(tmp_path: Path) -> None:
    """Ten times the entries (every one a roll whose dice wait for the seed's reveal at the
    end) take no more memory: not ten times as much, as a ledger read whole did, nor even
    a few bytes more an entry (a list of their seqs would be 72 KB more)."""
    small, large = tmp_path / "small.json", tmp_path / "large.json"
    small_keys = synthetic(small, 1_000)
    large_keys = synthetic(large, 10_000)
    small_peak = peak_bytes(small, small_keys)
    large_peak = peak_bytes(large, large_keys)
    assert large_peak < 3 * small_peak, (small_peak, large_peak)
    assert large_peak - small_peak < 64_000, (small_peak, large_peak)


def test_signatures_checked_on_other_processes_give_the_same_report(tmp_path: Path) -> None:
    path = tmp_path / "ledger.json"
    keys = synthetic(path, 1_600, tamper=frozenset({2, 700, 1_599}))
    whole = whole_or_error(path, keys)
    assert [line for line in whole if "signature" in line and "PROBLEM" in line] == [
        f"PROBLEM: entry {seq}: signature does not verify" for seq in (2, 700, 1_599)
    ]
    assert tuple(verify_ledger_file(path, keys, workers=2).lines()) == whole


def test_without_processes_the_signatures_are_checked_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise OSError("no processes here")

    monkeypatch.setattr(verifier, "ProcessPoolExecutor", refused)
    path = tmp_path / "ledger.json"
    keys = synthetic(path, 600, tamper=frozenset({300}))
    assert tuple(verify_ledger_file(path, keys, workers=2).lines()) == whole_or_error(path, keys)


def dying(batch: Any) -> Any:
    os._exit(3)  # a signature process killed mid-batch


def test_when_a_signature_process_dies_its_batches_are_checked_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verifier, "_worker_batch", dying)
    path = tmp_path / "ledger.json"
    keys = synthetic(path, 1_200, tamper=frozenset({5, 1_100}))
    assert tuple(verify_ledger_file(path, keys, workers=2).lines()) == whole_or_error(path, keys)


@pytest.mark.parametrize("sides", [1, 2, 6, 7, 10, 20, 100, 1000, 2**31 + 1, 2**32])
def test_dice_drawn_a_block_at_a_time_are_the_streams(sides: int) -> None:
    stream = dice_stream(SEED, 5, 12, sides)
    assert draw_dice(SEED, 5, 12, 40, sides) == [next(stream) for _ in range(40)]


def test_no_dice_drawn_on_a_die_with_no_sides_is_no_error() -> None:
    assert draw_dice(SEED, 5, 12, 0, 0) == []
    with pytest.raises(ValueError, match="1 to 2\\*\\*32 sides, not 0"):
        draw_dice(SEED, 5, 12, 1, 0)


# --- Progress on a terminal ----------------------------------------------------------


def test_progress_is_shown_when_asked_and_not_otherwise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ledger.json"
    (tmp_path / "keys.json").write_text(json.dumps(synthetic(path, 2_500)))
    args = [str(path), "--keys", str(tmp_path / "keys.json")]
    assert verifier.main(args) == 0
    quiet = capsys.readouterr()
    assert quiet.err == "" and quiet.out.endswith("RESULT: OK\n")
    assert verifier.main([*args, "--progress"]) == 0
    shown = capsys.readouterr()
    assert shown.out == quiet.out
    assert shown.err.startswith("\r  verified ") and shown.err.endswith("\n")
    assert "verified 2,500 entries in " in shown.err
    assert verifier.main([*args, "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


def test_pbem_ledger_verify_passes_the_choice_on(tmp_path: Path) -> None:
    chain = honest()
    (tmp_path / "ledger.json").write_text(entries_text(chain))
    (tmp_path / "keys.json").write_text(json.dumps(keys_of(chain)))
    args = [
        "ledger",
        "verify",
        str(tmp_path / "ledger.json"),
        "--keys",
        str(tmp_path / "keys.json"),
    ]
    quiet = CliRunner().invoke(pbem, args)
    shown = CliRunner().invoke(pbem, [*args, "--progress"])
    assert quiet.exit_code == shown.exit_code == 0
    assert quiet.stderr == "" and "verified 7 entries in " in shown.stderr
    assert quiet.stdout == shown.stdout


def test_the_progress_line_is_rewritten_a_few_times_a_second() -> None:
    now = [100.0]
    out = io.StringIO()
    line = ProgressLine(out, total_bytes=1_000, per_second=4, clock=lambda: now[0])
    line(1_000, 100)
    assert out.getvalue() == ""  # too soon
    now[0] += 0.5
    line(45_000, 450)
    assert out.getvalue() == "\r  verified 45,000 entries (90,000/s), 45%"
    now[0] += 0.1
    line(46_000, 460)
    assert out.getvalue().count("\r") == 1
    now[0] += 0.5
    line.done(50_000)
    assert out.getvalue().endswith("\n")
    assert out.getvalue().rsplit("\r", 1)[1].rstrip() == "  verified 50,000 entries in 1.1 s"
