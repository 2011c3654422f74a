"""Issue 21, point 3: the verify page takes a player's mail (an mbox, or a zip of .eml
files) and shows, game by game, what ``verifier.py --mail`` says, by the very same function;
uploads are guarded (size, zip bombs, damaged zips): a clear refusal, never a 500."""

from __future__ import annotations

import html
import io
import re
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from dice_server.services.keys import published_keys
from dice_server.verifier import mail_items, verify_mail
from tests.conftest import League
from tests.integration.test_pages import csrf
from tests.mailboxes import (
    MaildirRelay,
    as_mbox,
    as_zip,
    by_seq,
    play_whole_game,
    running_relay,
)


@pytest.fixture
def axis_mail(
    app: Flask,
    client: FlaskClient,
    league: League,
    reserve_port: Callable[[], int],
    tmp_path: Path,
) -> Iterator[Path]:
    """The Axis player's maildir after a whole game."""
    relay: MaildirRelay
    with running_relay(reserve_port(), tmp_path / "mail") as (relay, port):
        play_whole_game(app, client, league, port)
        yield relay.maildir("axis@example.org")


def upload(app: Flask, data: bytes, filename: str) -> TestResponse:
    """Upload as a browser does: the page first, its CSRF token, then the file."""
    client = app.test_client()
    token = csrf(client.get("/verify").get_data(as_text=True))
    response = client.post(
        "/verify",
        data={"csrf_token": token, "upload": (io.BytesIO(data), filename)},
        content_type="multipart/form-data",
    )
    assert response.status_code != 500
    return response


def text_of(response: TestResponse) -> str:
    return html.unescape(response.get_data(as_text=True))


def test_an_uploaded_mbox_shows_what_the_verifier_says(
    app: Flask, league: League, axis_mail: Path, tmp_path: Path
) -> None:
    response = upload(app, as_mbox(axis_mail, tmp_path / "game.mbox").read_bytes(), "my.mbox")
    page = text_of(response)
    assert response.status_code == 200
    assert "Everything in your mail holds" in page and f"Game {league.game}" in page
    assert "7 entries received and checked; last seq received: 7" in page
    assert "✔ no entry missing up to seq 7" in page and "seed revealed at seq 7" in page
    # One verifier: every line the standalone function says of the game is on the page.
    report = verify_mail(mail_items(str(axis_mail)), published_keys(league.ctx))
    for line in report.chains[0].report.checked:
        assert f"✔ {line}" in page


def test_a_zip_of_eml_files_with_a_message_missing(
    app: Flask, league: League, axis_mail: Path
) -> None:
    by_seq(axis_mail)[3].unlink()
    response = upload(app, as_zip(axis_mail), "game.zip")
    page = text_of(response)
    assert response.status_code == 200
    assert "What arrived holds, but entries are missing" in page
    assert "✘ missing: seq 3: the chain up to seq 7 proves it exists" in page
    assert "RESULT: FAILED (1 missing entry)" in page


def test_a_forged_entry_in_the_upload_is_shown(
    app: Flask, league: League, axis_mail: Path, tmp_path: Path
) -> None:
    mbox = as_mbox(axis_mail, tmp_path / "game.mbox").read_bytes()
    # A character of entry 2's attachment (base64, the body's first line) changed in transit.
    start = mbox.index(b'filename="entry-2.json"')
    headers_end = re.compile(rb"\r?\n\r?\n").search(mbox, start)
    assert headers_end is not None
    spot = headers_end.end() + 30
    flipped = mbox[:spot] + (b"B" if mbox[spot : spot + 1] != b"B" else b"C") + mbox[spot + 1 :]
    page = text_of(upload(app, flipped, "game.mbox"))
    assert "Problems found" in page
    assert re.search(r"✘ entry 2: (signature does not verify|body is not)", page), page


def test_a_damaged_zip_is_refused_with_the_reason(app: Flask) -> None:
    response = upload(app, b"PK\x03\x04 this is no zip at all", "game.zip")
    assert response.status_code == 400
    assert "game.zip is not a readable zip file" in text_of(response)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.eml", b"Subject: x\n\n" + b"hello " * 5000)
    data = bytearray(buffer.getvalue())
    data[60:80] = bytes(20)  # inside the compressed data: the CRC or the inflater fails
    response = upload(app, bytes(data), "game.zip")
    assert response.status_code == 400
    assert "game.zip: a.eml cannot be unpacked" in text_of(response)


def test_a_zip_bomb_is_refused_unread(app: Flask) -> None:
    app.config["VERIFY_UNZIPPED_BYTES"] = 1024 * 1024
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb.eml", bytes(50 * 1024 * 1024))  # 50 MB of zeros, ~50 kB packed
    assert len(buffer.getvalue()) < 200_000
    response = upload(app, buffer.getvalue(), "bomb.zip")
    assert response.status_code == 400
    assert "bomb.zip unpacks to more than 1048576 bytes: refused unread" in text_of(response)
    app.config["VERIFY_ZIP_MEMBERS"] = 3
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for number in range(4):
            archive.writestr(f"{number}.eml", b"Subject: x\n\nhi\n")
    response = upload(app, buffer.getvalue(), "many.zip")
    assert response.status_code == 400
    assert "many.zip holds 4 files, more than the 3 allowed" in text_of(response)


def test_a_mailbox_too_large_is_refused_with_a_clear_message(
    app: Flask, axis_mail: Path, tmp_path: Path
) -> None:
    mbox = as_mbox(axis_mail, tmp_path / "game.mbox").read_bytes()
    app.config["VERIFY_UPLOAD_BYTES"] = len(mbox) - 1
    response = upload(app, mbox, "game.mbox")
    assert response.status_code == 400
    assert f"game.mbox is larger than the {len(mbox) - 1} bytes this page takes" in text_of(
        response
    )
    # Far larger: refused before the form is read, with the same words.
    response = upload(app, mbox + bytes(200_000), "game.mbox")
    assert response.status_code == 413
    assert f"the upload is larger than the {len(mbox) - 1} bytes this page takes" in text_of(
        response
    )


def test_a_large_mailbox_within_the_limit_is_taken(
    app: Flask, league: League, axis_mail: Path, tmp_path: Path
) -> None:
    """The page's own limit, not the app's (64 kB), applies, CSRF check included."""
    mbox = as_mbox(axis_mail, tmp_path / "game.mbox").read_bytes()
    padded = mbox + b"\n" + b"X-Padding: x\n" * 10_000
    assert len(padded) > int(app.config["MAX_CONTENT_LENGTH"])
    response = upload(app, padded, "game.mbox")
    assert response.status_code == 200
    assert "Everything in your mail holds" in text_of(response)


def test_the_page_still_refuses_a_post_without_its_csrf_token(app: Flask) -> None:
    response = app.test_client().post(
        "/verify", data={"upload": (io.BytesIO(b"From x\n\n"), "a.mbox")}
    )
    assert response.status_code == 400
    assert "The form has expired" in text_of(response)
