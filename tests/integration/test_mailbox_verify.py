"""Issue 21: a player's own mailbox is enough. A game played through the service, its mail
delivered through the outbox over SMTP into each player's own maildir; ``verifier.py
--mail`` (the standalone file, copied out of the repository) verifies it as it verifies an
exported ledger, names every entry the chain proves exists but the mail lacks, and catches
forged copies and forks; the keys travel with the game, and a rotation with the old key's
signature."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from dice_server.cli import main
from dice_server.keys import new_signer
from dice_server.services.game_addresses import address_of
from dice_server.services.games import create_game, end_game
from dice_server.services.keys import published_keys, rotate_key, rotation_statement
from dice_server.services.outbox import claim
from dice_server.services.rolls import roll_battle
from dice_server.verifier import (
    ZipLimits,
    extend_keys,
    load_keys,
    read_rotation,
    upload_items,
    verify_mail,
)
from tests.conftest import League, battle
from tests.integration.test_mail import courier_for, rows, smtp_config
from tests.mailboxes import (
    MaildirRelay,
    as_eml_folder,
    as_mbox,
    as_saved_files,
    as_zip,
    attachments,
    by_seq,
    chain_lines,
    deliver,
    entry_of,
    play_whole_game,
    read,
    replace_entry,
    resigned,
    running_relay,
    verified,
)

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("axis@example.org", "allies@example.org", "mentor@example.org")


@pytest.fixture
def mail_relay(
    reserve_port: Callable[[], int], tmp_path: Path
) -> Iterator[tuple[MaildirRelay, int]]:
    with running_relay(reserve_port(), tmp_path / "mail") as relay:
        yield relay


@pytest.fixture
def played(
    app: Flask, client: FlaskClient, league: League, mail_relay: tuple[MaildirRelay, int]
) -> MaildirRelay:
    """A whole game (seven entries, the seed revealed), each message in each player's
    maildir."""
    play_whole_game(app, client, league, mail_relay[1])
    return mail_relay[0]


def standalone(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The verifier as a player runs it: one file copied out of the repository, run by a
    Python that has nothing of the project on its path."""
    copy = tmp_path / "elsewhere" / "verifier.py"
    copy.parent.mkdir(exist_ok=True)
    shutil.copyfile(ROOT / "dice_server" / "verifier.py", copy)
    return subprocess.run(
        [sys.executable, "-I", str(copy), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=copy.parent,
    )


def test_each_players_own_maildir_verifies_the_game(
    played: MaildirRelay, league: League, tmp_path: Path
) -> None:
    for address in PLAYERS:
        report = verified(played.maildir(address))
        assert report.ok, report.lines()
        (chain,) = report.chains
        assert (chain.name, chain.received, chain.missing) == (
            f"game {league.game}",
            [1, 2, 3, 4, 5, 6, 7],
            [],
        )
        assert chain.seed == "revealed at seq 7"
        assert chain.report.checked == [
            "seed revealed at entry 7 matches the commitment made at entry 1",
            "7 entries received: signatures, canonical bodies, seq numbers, prev chain "
            "between consecutive seqs, time order",
            "4 of 4 rolls under the commitment of entry 1 recomputed from the revealed seed",
        ]
        key = league.ctx.keys.signer.key_id
        assert chain.keys == [f"{key} attached to this game's first message"]
    done = standalone(tmp_path, "--mail", str(played.maildir("axis@example.org")))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0].startswith(
        f"game {league.game}: 7 entries received and checked, last seq 7, none missing"
    )
    assert done.stdout.splitlines()[-1] == "RESULT: OK"


def test_the_game_created_mail_carries_the_keys_served_then(
    app: Flask, league: League, mail_relay: tuple[MaildirRelay, int]
) -> None:
    """keys.json in the first message is GET /api/v1/keys as served when the game began,
    even when the message goes out after a rotation (a resend carries the same bytes)."""
    relay, port = mail_relay
    served = app.test_client().get("/api/v1/keys").get_json()
    rotate_key(league.ctx, Path(app.instance_path))
    assert len(app.test_client().get("/api/v1/keys").get_json()["keys"]) == 2
    roll_battle(league.ctx, 1, league.game, battle())
    deliver(app, port)
    messages = by_seq(relay.maildir("axis@example.org"))
    first = read(messages[1])
    assert json.loads(attachments(first)["keys.json"]) == served
    body = first.get_body(("plain",))
    assert body is not None and "attached as keys.json" in body.get_content()
    # The other messages carry their entry only.
    assert list(attachments(read(messages[2]))) == ["entry-2.json"]


def test_a_deleted_message_is_named_as_missing(
    played: MaildirRelay, league: League, tmp_path: Path
) -> None:
    maildir = played.maildir("allies@example.org")
    by_seq(maildir)[3].unlink()
    report = verified(maildir)
    (chain,) = report.chains
    assert not report.ok and chain.missing == [3] and report.problem_count == 0
    assert "  MISSING: seq 3: the chain up to seq 7 proves it exists" in "\n".join(report.lines())
    assert report.result() == "RESULT: FAILED (1 missing entry)"
    # What did arrive still checks out, each die of the rolls received included.
    assert "3 of 3 rolls under the commitment of entry 1" in chain.report.checked[-1]
    done = standalone(tmp_path, "--mail", str(maildir))
    assert done.returncode == 1 and "MISSING: seq 3" in done.stdout
    allowed = standalone(tmp_path, "--mail", str(maildir), "--allow-missing")
    assert allowed.returncode == 0 and "WARNING: seq 3" in allowed.stdout
    assert "(allowed by --allow-missing)" in allowed.stdout


def test_without_the_first_message_the_keys_must_be_given(
    played: MaildirRelay, league: League, tmp_path: Path
) -> None:
    """The keys travel in the game's first message: without it the mail vouches for no
    key, and the published keys must be given; seq 1 is missing either way."""
    maildir = played.maildir("axis@example.org")
    by_seq(maildir)[1].unlink()
    report = verified(maildir)
    (chain,) = report.chains
    assert chain.missing == [1]
    assert "no key to check it with: give --keys KEYS.json" in chain.problems
    keys = published_keys(league.ctx)
    given = verified(maildir, keys, allow_missing=True)
    assert given.ok and given.chains[0].missing == [1]
    # The seed's commitment went with the missing entry: the dice cannot be checked.
    assert given.chains[0].report.pending == [
        "the seed revealed at entry 7: the commitment it opens never reached this mailbox",
        "4 rolls whose commitment never reached this mailbox: their dice cannot be checked from it",
    ]


def test_an_edited_attachment_is_caught(played: MaildirRelay, league: League) -> None:
    maildir = played.maildir("axis@example.org")
    path = by_seq(maildir)[3]
    signed = entry_of(path, 3)
    body = json.loads(signed["body"])
    body["data"]["dice"][0] = body["data"]["dice"][0] % 6 + 1
    forged = {**signed, "body": json.dumps(body, sort_keys=True, separators=(",", ":"))}
    path.write_bytes(replace_entry(read(path), forged, 3))
    report = verified(maildir)
    assert not report.ok
    assert "entry 3: signature does not verify" in report.chains[0].report.problems
    assert not report.chains[0].missing


def test_a_forked_seq_is_the_most_serious_finding(
    played: MaildirRelay, league: League, tmp_path: Path
) -> None:
    """Two different entries for one seq, both signed by the server's key: the server
    showed two histories. Reported first, and the walk keeps the version the next entry
    chains to."""
    maildir = played.maildir("axis@example.org")
    original = by_seq(maildir)[4]
    body = json.loads(entry_of(original, 4)["body"])
    assert body["kind"] == "note"
    body["data"]["text"] = "OOL: AC, FTR, TRN"
    other = resigned(league.ctx.keys.signer, body)
    extra = maildir / "new" / "forked.eml"
    extra.write_bytes(replace_entry(read(original), other, 4))
    report = verified(maildir)
    (chain,) = report.chains
    assert len(chain.forks) == 1 and chain.forks[0].startswith("seq 4 exists in 2 different")
    assert f"entry 5 chains to {original.relative_to(maildir)}" in chain.forks[0]
    assert chain.report.problems == []  # the genuine version chains on
    lines = report.lines()
    assert lines[0].startswith(f"FORK: game {league.game}, seq 4 exists in 2 different versions")
    assert report.result() == "RESULT: FAILED (1 FORKED seq)"
    done = standalone(tmp_path, "--mail", str(maildir), "--allow-missing")
    assert done.returncode == 1 and done.stdout.startswith("FORK:")


def test_an_mbox_a_folder_of_eml_files_and_saved_files_say_the_same(
    played: MaildirRelay, tmp_path: Path
) -> None:
    maildir = played.maildir("mentor@example.org")
    by_seq(maildir)[5].unlink()
    expected = chain_lines(verified(maildir))
    assert expected[0][1].startswith("  MISSING: seq 5")
    assert chain_lines(verified(as_mbox(maildir, tmp_path / "game.mbox"))) == expected
    assert chain_lines(verified(as_eml_folder(maildir, tmp_path / "eml"))) == expected
    saved = verified(as_saved_files(maildir, tmp_path / "saved"))
    assert chain_lines(saved) == expected
    assert "no keys came with this game's first entry" in saved.chains[0].keys[0]
    zipped = upload_items(as_zip(maildir), "game.zip", ZipLimits())
    assert chain_lines(verify_mail(zipped)) == expected


def test_a_truncated_mbox_is_reported_by_name(played: MaildirRelay, tmp_path: Path) -> None:
    mbox = as_mbox(played.maildir("axis@example.org"), tmp_path / "game.mbox")
    data = mbox.read_bytes()
    mbox.write_bytes(data[: data.rindex(b"Content-Disposition") + 200])  # inside entry 7
    report = verified(mbox)
    assert not report.ok
    (problem,) = report.problems
    assert problem.startswith("game.mbox message 7 ")
    assert problem.endswith(
        "entry-7.json: is not JSON (the message is cut short: was the file truncated?)"
    )
    assert report.chains[0].received == [1, 2, 3, 4, 5, 6]
    done = standalone(tmp_path, "--mail", str(mbox))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "PROBLEM: game.mbox message 7" in done.stdout


def test_mail_that_is_not_the_services_is_ignored_or_named(
    played: MaildirRelay, tmp_path: Path
) -> None:
    maildir = played.maildir("axis@example.org")
    letter = EmailMessage()
    letter["Subject"], letter["From"] = "lunch?", "friend@example.net"
    letter.set_content("see you at noon")
    (maildir / "new" / "letter").write_bytes(letter.as_bytes())
    config = EmailMessage()
    config["Subject"] = "my settings"
    config.set_content("attached")
    config.add_attachment(b'{"volume": 3}', maintype="application", subtype="json",
                          filename="settings.json")  # fmt: skip
    (maildir / "new" / "settings").write_bytes(config.as_bytes())
    bogus = EmailMessage()
    bogus["Subject"] = "[Game 1] #9 a roll"
    bogus.set_content("see attached")
    bogus.add_attachment(b"not an entry", maintype="application", subtype="json",
                         filename="entry-9.json")  # fmt: skip
    (maildir / "new" / "bogus").write_bytes(bogus.as_bytes())
    (maildir / "new" / "binary").write_bytes(b"\x00\xff" * 100)
    report = verified(maildir)
    assert report.problems == ["new/bogus: entry-9.json: is not JSON"]
    assert report.notes[0] == "read 11 messages and 0 saved files; 3 held nothing of this service"
    assert report.chains[0].received == [1, 2, 3, 4, 5, 6, 7]
    assert not report.ok


def test_no_entry_at_all_and_a_path_that_is_not_there(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    report = verified(tmp_path / "empty")
    assert report.problems == ["no entry of this service was found in the mail"]
    assert not report.ok
    done = standalone(tmp_path, "--mail", str(tmp_path / "nowhere"))
    assert done.returncode == 2 and "there is no such file or folder" in done.stderr
    (tmp_path / "not.mbox").write_bytes(b"Subject: x\n\nhello\n")
    assert verified(tmp_path / "not.mbox").notes[0].endswith("1 held nothing of this service")


def test_pbem_ledger_verify_mail_prints_what_the_standalone_verifier_prints(
    played: MaildirRelay, app: Flask, tmp_path: Path
) -> None:
    maildir = played.maildir("allies@example.org")
    by_seq(maildir)[2].unlink()
    env = {"PBEM_INSTANCE_PATH": app.instance_path, "PBEM_DATABASE_URL": app.config["DATABASE_URL"]}
    cli = CliRunner(env=env).invoke(main, ["ledger", "verify", "--mail", str(maildir)])
    done = standalone(tmp_path, "--mail", str(maildir))
    assert (cli.exit_code, done.returncode) == (1, 1)
    assert cli.stdout == done.stdout


# --- Keys that travel with the game ---------------------------------------------------


def test_a_key_rotated_mid_game_verifies_through_the_mailed_statement(
    app: Flask,
    client: FlaskClient,
    league: League,
    mail_relay: tuple[MaildirRelay, int],
    tmp_path: Path,
) -> None:
    relay, port = mail_relay
    old = league.ctx.keys.signer.key_id
    assert (
        client.post(
            f"/api/v1/games/{league.game}/rolls", json=battle(), headers=league.auth("axis")
        ).status_code
        == 201
    )
    new = rotate_key(league.ctx, Path(app.instance_path))
    assert (
        client.post(
            f"/api/v1/games/{league.game}/rolls", json=battle(), headers=league.auth("axis")
        ).status_code
        == 201
    )
    end_game(league.ctx, league.game, status="finished", winner="allies")
    deliver(app, port)
    maildir = relay.maildir("axis@example.org")
    report = verified(maildir)
    assert report.ok, report.lines()
    (chain,) = report.chains
    assert chain.received == [1, 2, 3, 4]
    assert chain.keys[0] == f"{old} attached to this game's first message"
    assert chain.keys[1].startswith(f"{new.key_id} by a rotation statement signed by {old}")
    assert any(note.startswith(f"key {new.key_id} follows key {old}") for note in report.notes)
    # The statement is a message of the game's thread, To the players, Cc the mentor.
    (statement_mail,) = [
        read(p) for p in (maildir / "new").iterdir() if "key changed" in str(read(p)["Subject"])
    ]
    first = read(by_seq(maildir)[1])
    assert statement_mail["In-Reply-To"] == first["Message-ID"]
    assert statement_mail["Cc"] == "mentor@example.org"
    name = f"key-rotation-{new.key_id}.json"
    signed = json.loads(attachments(statement_mail)[name])
    assert json.loads(signed["body"]) == {
        "v": 1,
        "statement": "key-rotation",
        "at": json.loads(signed["body"])["at"],
        "old": old,
        "new": {"id": new.key_id, "alg": "Ed25519", "public": new.public_b64},
    }
    # Without the statement, nothing in the mail vouches for the new key.
    statement_path = next(p for p in (maildir / "new").iterdir() if name in p.read_bytes().decode())
    statement_path.unlink()
    broken = verified(maildir)
    assert f"entry 3: signed with unknown key {new.key_id!r}" in broken.chains[0].report.problems
    done = standalone(tmp_path, "--mail", str(maildir))
    assert done.returncode == 1 and "unknown key" in done.stdout


def test_a_forged_rotation_statement_is_refused(played: MaildirRelay, league: League) -> None:
    """A statement that claims the server's key but is signed by another: a forgery; and
    one signed by a key nobody vouches for is never trusted."""
    maildir = played.maildir("axis@example.org")
    real = league.ctx.keys.signer
    stranger, intruder = new_signer(), new_signer()
    forged = rotation_statement(stranger, intruder, "2026-11-21T12:00:00.000000Z")
    body = json.loads(forged["body"])
    body["old"] = real.key_id
    raw = json.dumps(body, sort_keys=True, separators=(",", ":"))
    claims = {"body": raw, "sig": stranger.sign(raw.encode()), "key": real.key_id}
    unvouched = rotation_statement(stranger, intruder, "2026-11-21T12:00:00.000000Z")
    for name, doc in (("forged", claims), ("unvouched", unvouched)):
        letter = EmailMessage()
        letter["Subject"] = "[Game 1] the dice server's signing key changed"
        letter.set_content("trust me")
        letter.add_attachment(
            json.dumps(doc).encode(),
            maintype="application",
            subtype="json",
            filename=f"key-rotation-{intruder.key_id}.json",
        )
        (maildir / "new" / name).write_bytes(letter.as_bytes())
    report = verified(maildir)
    assert report.problems == [
        f"new/forged: key-rotation-{intruder.key_id}.json: the rotation statement naming key "
        f"{intruder.key_id} is not signed by key {real.key_id}, as it claims: a forgery"
    ]
    assert any("not trusted" in note and stranger.key_id in note for note in report.notes)
    assert all(intruder.key_id not in line for line in report.chains[0].keys)


def test_the_statement_format_and_the_key_chain(league: League) -> None:
    """Each key signs the next: A -> B -> C is trusted from A alone; a statement that
    names the wrong signer or a malformed key is refused with the reason."""
    a, b, c = new_signer(), new_signer(), new_signer()
    at = "2026-11-21T12:00:00.000000Z"
    first = read_rotation(rotation_statement(a, b, at), "one")
    second = read_rotation(rotation_statement(b, c, at), "two")
    roots = load_keys({"keys": [{"id": a.key_id, "alg": "Ed25519", "public": a.public_b64}]})
    keys, used = extend_keys(roots, [second, first])
    assert set(keys) == {a.key_id, b.key_id, c.key_id} and used == [first, second]
    assert set(extend_keys({}, [first, second])[0]) == set()
    wrong = rotation_statement(a, b, at) | {"key": c.key_id}
    with pytest.raises(ValueError, match="is signed with key"):
        read_rotation(wrong, "three")
    body = json.loads(rotation_statement(a, b, at)["body"])
    body["new"]["id"] = "0" * 16
    raw = json.dumps(body, sort_keys=True, separators=(",", ":"))
    with pytest.raises(ValueError, match="does not match its public key"):
        read_rotation({"body": raw, "sig": a.sign(raw.encode()), "key": a.key_id}, "four")


def test_rotation_mail_goes_to_active_games_once_and_resends_the_same_bytes(
    app: Flask, league: League, mail_relay: tuple[MaildirRelay, int]
) -> None:
    relay, port = mail_relay
    ctx = league.ctx
    ended = create_game(ctx, axis="allies@example.org", allies="axis@example.org")
    end_game(ctx, ended.game_number, status="annulled")
    deliver(app, port)
    rotate_key(ctx, Path(app.instance_path))
    queued = [row for row in rows(ctx) if "key-rotation" in row.message_id]
    assert [row.game_number for row in queued] == [league.game]
    (row,) = queued
    claimed = claim(ctx, row.id, ctx.clock(), timedelta(seconds=0))
    assert claimed is not None and claimed.row.raw is not None
    first_bytes = claimed.row.raw
    courier = courier_for(app, **smtp_config(port))
    from dice_server.mail.delivery import render, send_rendered

    send_rendered(courier, claimed, render(claimed, courier.letterhead))
    # ... the process dies before marking it sent; the next run sends it again.
    import time

    time.sleep(0.01)
    deliver(app, port)
    copies = [
        p.read_bytes()
        for p in (relay.maildir("allies@example.org") / "new").iterdir()
        if b"key-rotation" in p.read_bytes()
    ]
    assert len(copies) == 2
    parsed = [BytesParser(policy=policy.default).parsebytes(c) for c in copies]
    assert parsed[0]["Message-ID"] == parsed[1]["Message-ID"] == row.message_id
    assert parsed[0].as_bytes() == parsed[1].as_bytes()
    # The player's copy is the stored message with his own address as its Reply-To.
    assert str(parsed[0]["Reply-To"]) == address_of(ctx, league.game, "allies@example.org")
    del parsed[0]["Reply-To"]
    assert BytesParser(policy=policy.default).parsebytes(first_bytes).as_bytes() == (
        parsed[0].as_bytes()
    )
    # Twice the same statement in one mailbox is one statement.
    report = verified(relay.maildir("allies@example.org"))
    assert report.ok, report.lines()
