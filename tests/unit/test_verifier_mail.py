"""The standalone verifier's mail mode on chains built here: what entries missing from a
mailbox may hide (a reveal, a new commitment) is never held against the entries received,
yet everything received is checked; and the readers of mboxes and zips."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from dice_server.verifier import (
    MailError,
    MailItem,
    MailReport,
    ZipLimits,
    draw_dice,
    mbox_items,
    seed_commitment,
    seq_ranges,
    verify_mail,
    zip_items,
)
from tests.unit.test_verifier import SEED, Chain

OTHER_SEED = bytes(range(32, 64))


def keys_of(chain: Chain) -> dict[str, list[dict[str, str]]]:
    signer = chain.signer
    return {"keys": [{"id": signer.key_id, "alg": "Ed25519", "public": signer.public_b64}]}


def saved(chain: Chain, seqs: list[int]) -> MailReport:
    """The entries ``seqs`` of ``chain`` as attachments saved into a folder, with the keys."""
    items = [
        MailItem(f"entry-{seq}.json", json.dumps(chain.entries[seq - 1]).encode(), False)
        for seq in seqs
    ]
    items.append(MailItem("keys.json", json.dumps(keys_of(chain)).encode(), False))
    return verify_mail(items, allow_missing=True)


def roll_with(chain: Chain, seed: bytes) -> None:
    seq = len(chain.entries) + 1
    dice = draw_dice(seed, 5, seq, 3)
    chain.add("roll", {"sides": 6, "dice": dice})


@pytest.fixture
def reopened() -> Chain:
    """1 genesis, 2 roll, 3 reveal, 4 commitment (reopened), 5 roll, 6 reveal."""
    chain = Chain()
    chain.add("genesis", {"seed_commitment": seed_commitment(SEED)})
    roll_with(chain, SEED)
    chain.add("seed-reveal", {"seed": SEED.hex()})
    chain.add("commitment", {"seed_commitment": seed_commitment(OTHER_SEED)})
    roll_with(chain, OTHER_SEED)
    chain.add("seed-reveal", {"seed": OTHER_SEED.hex()})
    return chain


def test_a_whole_reopened_game_checks_every_die(reopened: Chain) -> None:
    report = saved(reopened, [1, 2, 3, 4, 5, 6])
    assert report.ok and report.missing == 0, report.lines()
    checked = report.chains[0].report.checked
    assert "1 of 1 rolls under the commitment of entry 1 recomputed from the revealed seed" in (
        checked
    )
    assert "1 of 1 rolls under the commitment of entry 4 recomputed from the revealed seed" in (
        checked
    )


def test_a_missing_reveal_and_commitment_are_not_held_against_what_arrived(
    reopened: Chain,
) -> None:
    """Without 3 and 4, the roll at 5 looks like a second roll under the first seed and
    the reveal at 6 like a wrong seed; neither is a problem, both are left unchecked."""
    report = saved(reopened, [1, 2, 5, 6])
    (chain,) = report.chains
    assert chain.missing == [3, 4] and chain.report.problems == [], chain.report.problems
    assert report.ok  # missing allowed
    assert chain.report.pending[0].startswith("the seed revealed at entry 6: the commitment")
    assert chain.report.pending[1].startswith("2 rolls under the commitment of entry 1: the seed")


def test_only_the_commitment_missing_leaves_the_first_rolls_pending(reopened: Chain) -> None:
    report = saved(reopened, [1, 2, 3, 5, 6])
    (chain,) = report.chains
    assert chain.report.problems == []
    assert "1 of 1 rolls under the commitment of entry 1 recomputed" in chain.report.checked[2]
    assert chain.report.pending == [
        "the seed revealed at entry 6: the commitment it opens never reached this mailbox",
        "1 rolls whose commitment never reached this mailbox: their dice cannot be checked from it",
    ]


def test_a_gap_before_a_matching_reveal_still_checks_every_die_received() -> None:
    chain = Chain()
    chain.add("genesis", {"seed_commitment": seed_commitment(SEED)})
    for _ in range(4):
        chain.roll()
    chain.add("seed-reveal", {"seed": SEED.hex()})
    report = saved(chain, [1, 2, 4, 6])
    assert report.chains[0].missing == [3, 5]
    assert report.chains[0].report.checked[-1].startswith("2 of 2 rolls under the commitment")


def test_a_forged_die_is_caught_across_a_gap() -> None:
    """A server that signs a wrong die is caught even when other entries never arrived."""
    chain = Chain()
    chain.add("genesis", {"seed_commitment": seed_commitment(SEED)})
    chain.roll()
    chain.add("roll", {"sides": 6, "dice": [7 - d for d in draw_dice(SEED, 5, 3, 4)]})
    chain.roll()
    chain.add("seed-reveal", {"seed": SEED.hex()})
    report = saved(chain, [1, 3, 5])
    assert "entry 3: dice differ from the revealed seed's" in report.chains[0].report.problems
    assert not report.ok


def test_time_order_and_the_chain_hold_between_consecutive_entries() -> None:
    chain = Chain()
    chain.add("genesis", {"seed_commitment": seed_commitment(SEED)})
    chain.add("note", {"topic": "general", "text": "a"})
    chain.add("note", {"topic": "general", "text": "b"}, at="2025-01-01T00:00:00.000000Z")
    chain.prev = "0" * 64
    chain.add("note", {"topic": "general", "text": "c"})
    problems = saved(chain, [1, 3, 4]).chains[0].report.problems
    assert "entry 3: time 2025-01-01T00:00:00.000000Z is not after the previous" in problems
    assert "entry 4: prev does not match the previous entry's hash" in problems


def test_seq_ranges() -> None:
    assert seq_ranges([4, 6, 7, 8, 10]) == "4, 6-8, 10"
    assert seq_ranges([]) == ""


def test_an_mbox_is_split_at_from_lines_and_unquoted() -> None:
    data = (
        b"From a@example.org Mon Jan  1 00:00:00 2026\n"
        b"Subject: one\n\nFrom here on\n>From the quoted line\n\n"
        b"From b@example.org Mon Jan  1 00:00:01 2026\n"
        b"Subject: two\n\nbody\n"
    )
    one, two = mbox_items(io.BytesIO(data), "box")
    assert (one.name, two.name) == ("box message 1", "box message 2")
    assert one.data == b"Subject: one\n\nFrom here on\nFrom the quoted line\n\n"
    with pytest.raises(MailError, match="does not begin with a 'From ' line"):
        list(mbox_items(io.BytesIO(b"Subject: x\n\n"), "box"))


def test_a_zip_is_unpacked_only_within_its_limits() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a/1.eml", b"Subject: x\n\n" + bytes(5000))
        archive.writestr("a/keys.json", b"{}")
        archive.writestr("a/readme.txt", b"ignored")
    data = buffer.getvalue()
    items = zip_items(data, "mail.zip", ZipLimits())
    assert [(i.name, i.is_message) for i in items] == [
        ("mail.zip: a/1.eml", True),
        ("mail.zip: a/keys.json", False),
    ]
    with pytest.raises(MailError, match="unpacks to more than 4000 bytes"):
        zip_items(data, "mail.zip", ZipLimits(unzipped=4000))
    with pytest.raises(MailError, match="holds 3 files, more than the 2 allowed"):
        zip_items(data, "mail.zip", ZipLimits(members=2))
    with pytest.raises(MailError, match="is not a readable zip file"):
        zip_items(data[:40], "mail.zip", ZipLimits())
