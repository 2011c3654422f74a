"""The pages in a real browser (issue 20, point 5): register, confirm by the mailed link, log
in, roll a battle from the form, read it on the game's timeline, verify a pasted entry (and
see a tampered one refused), send a turn and see its findings beside its lines. Each step
is clicked and typed as a member would, with CSRF on; each page is saved as a screenshot
in tests/artifacts/."""

from __future__ import annotations

import email
import json
import re
from email import policy
from email.message import EmailMessage

import pytest
from sqlalchemy import select

from dice_server.db import reading
from dice_server.models import OutboxMessage
from dice_server.services import ServiceContext
from dice_server.services.entries import ApiToken
from dice_server.services.games import create_game
from dice_server.services.members import add_member
from dice_server.services.rolls import write
from dice_server.services.turns import submit_turn
from tests.browser.conftest import PASSWORD, Pages, give_passwords
from tests.integration.test_turns import UKRAINE_ROLL, USSR_PRE

pytestmark = pytest.mark.slow

AXIS, ALLIES = "axis@example.org", "allies@example.org"
#: USSR's pre-combat turn with a misspelling on line 7 (IAAPA Error Correction VI: a warning).
USSR_TYPO = USSR_PRE.replace("ukraine (3 inf", "ukrane (3 inf")

#: The unit boxes of the battle form filled in for battle #1 as USSR_PRE declares it.
UKRAINE_UNITS = {
    "attacker_INF": 6,
    "attacker_ARM": 2,
    "attacker_FTR": 1,
    "defender_INF": 3,
    "defender_ARM": 2,
    "defender_FTR": 1,
}


def mail_to(ctx: ServiceContext, address: str) -> list[str]:
    """The plain text of every message queued to ``address``, oldest first, as a mail
    client shows it (quoted-printable decoded)."""
    with reading(ctx.sessions) as session:
        rows = session.execute(
            select(OutboxMessage.to_addrs, OutboxMessage.raw).order_by(OutboxMessage.id)
        ).all()
    texts = []
    for to_addrs, raw in rows:
        if raw is None or address not in to_addrs:
            continue
        message = email.message_from_bytes(raw, policy=policy.default)
        assert isinstance(message, EmailMessage)
        body = message.get_body(preferencelist=("plain",))
        texts.append(body.get_content() if body else "")
    return texts


def game_between_axis_and_allies(ctx: ServiceContext) -> tuple[int, str]:
    """Two confirmed members with passwords and a game between them, made through the
    services: the game's number and the Allies player's API token."""
    add_member(ctx, AXIS, "Axis Player", confirmed=True)
    allies = add_member(ctx, ALLIES, "Allies Player", confirmed=True)
    game = create_game(ctx, axis=AXIS, allies=ALLIES).game_number
    give_passwords(ctx, AXIS, ALLIES)
    return game, allies.token


def test_a_new_member_registers_confirms_by_the_mailed_link_and_logs_in(pages: Pages) -> None:
    pages.open("/", "welcome")
    pages.link("Register", "register")
    assert pages.text("h1") == "Register"

    def fill(again: str) -> None:
        pages.type("#name", "Nadia Newcomer")
        pages.type("#email", "nadia@example.org")
        pages.type("#password", PASSWORD)
        pages.type("#again", again)

    fill("a different password")
    pages.button("Register", "passwords-differ")
    assert "Password again: the passwords differ" in pages.text()
    assert mail_to(pages.live.ctx, "nadia@example.org") == []

    fill(PASSWORD)
    pages.button("Register", "check-your-mail")
    assert pages.text("h1") == "Check your mail"
    assert "A message is on its way to nadia@example.org" in pages.text()

    mails = mail_to(pages.live.ctx, "nadia@example.org")
    assert len(mails) == 1, mails
    assert "Hello Nadia Newcomer" in mails[0]
    found = re.search(r"(http://\S+/confirm\?t=\S+)", mails[0])
    assert found, mails[0]
    link = found.group(1)
    assert link.startswith(pages.live.base + "/confirm?t=")  # BASE_URL: the live server

    pages.open(link, "confirm-link")
    assert pages.text("h1") == "Confirm your address"
    assert pages.text("header .who") == ""  # the link alone logs nobody in
    pages.button("Confirm my address", "confirmed")
    assert pages.path() == "/"
    assert "nadia@example.org is confirmed: you may roll." in pages.text(".flash")
    assert pages.text("h1") == "My games"
    assert pages.text("header .who") == "nadia@example.org"
    assert "Confirm your address to roll" not in pages.text()

    pages.open(link, "confirm-link-again")
    pages.button("Confirm my address", "confirm-link-spent")
    assert pages.text("h1") == "Confirmation failed"  # the link works once

    pages.open("/", "before-log-out")
    pages.button("Log out", "logged-out", within="header")
    assert pages.text("h1") == "Log in"
    assert "You are logged out." in pages.text(".flash")
    assert pages.text("header .who") == ""

    pages.type("#email", "nadia@example.org")
    pages.type("#password", "not the password")
    pages.button("Log in", "wrong-password")
    assert "wrong address or password" in pages.text()
    assert pages.text("header .who") == ""

    pages.log_in("nadia@example.org")
    assert pages.path() == "/"
    assert pages.text("h1") == "My games"
    assert "No games yet" in pages.text()


def test_a_battle_rolled_from_the_form_shows_its_dice_on_the_timeline(pages: Pages) -> None:
    ctx = pages.live.ctx
    game, allies = game_between_axis_and_allies(ctx)
    submit_turn(ctx, ApiToken(allies), game, {"text": USSR_PRE})  # declares Ukraine as #1

    pages.log_in(ALLIES)
    pages.link(f"Game {game}", "game")
    assert "Round 1 · USSR to move · combat" in pages.text(".now")
    pages.link("Battle roll", "roller")
    assert pages.text("h1") == f"Battle round · game {game}"
    assert f"Rolling in game {game}: Axis Axis Player ({AXIS})" in pages.text(".addresses")
    assert "#1 Ukraine S.S.R., round 1" in pages.text(".declared")

    pages.type("#round", "1")
    pages.type("#turn", "1")
    pages.choose("#country", "USSR")
    pages.type("#battle", "Ukraine")
    for box, count in UKRAINE_UNITS.items():
        pages.type(f"#{box}", str(count))
    pages.type("#comment", "Thrown from the browser")
    pages.button("Roll", "rolled")

    found = re.fullmatch(rf"/games/{game}/entries/(\d+)", pages.path())
    assert found, pages.path()
    seq = int(found.group(1))
    assert "Attacker: 6 INF, 2 ARM, 1 FTR" in pages.text()
    assert "Defender: 3 INF, 2 ARM, 1 FTR" in pages.text()
    body = json.loads(json.loads(pages.find("pre").text)["body"])
    assert (body["seq"], body["kind"], body["data"]["battle"]) == (seq, "roll", "Ukraine")
    assert body["data"]["comment"] == "Thrown from the browser"
    thrown = body["data"]["dice"]
    assert len(thrown) == 9 + 6 and all(1 <= d <= 6 for d in thrown)

    pages.link(f"Back to game {game}", "timeline")
    battle = pages.find("#battle-1")
    assert f"#1 Ukraine S.S.R. rolls #{seq}" in " ".join(battle.text.split())
    article = pages.find(f"#entry-{seq}")
    assert " ".join(article.text.split()).startswith(f"#{seq} USSR: Ukraine round 1")
    heading = article.find_element("xpath", "preceding-sibling::h4 | ../h4")
    assert heading.text == "Battle #1: Ukraine S.S.R."
    # The dice as faces, in the order thrown: a hit (at or under the unit's number) bold.
    faces = article.find_elements("css selector", ".throws b, .throws i")
    assert [int(face.text) for face in faces] == thrown
    groups = article.find_elements("css selector", ".throws li")
    assert len(groups) == len(body["data"]["groups"]) == 6
    for shown, group in zip(groups, body["data"]["groups"], strict=True):
        bold = [int(b.text) for b in shown.find_elements("tag name", "b")]
        assert bold == [d for d in group["dice"] if d <= group["hit_on"]]
        assert shown.text.endswith(f"→ {group['hits']} hit(s) as thrown")
    hits = body["data"]["hits"]
    assert f"Hits: attacker {hits['attacker']}, defender {hits['defender']}" in article.text


def test_a_pasted_entry_verifies_and_a_tampered_one_is_refused(pages: Pages) -> None:
    ctx = pages.live.ctx
    game, allies = game_between_axis_and_allies(ctx)
    submit_turn(ctx, ApiToken(allies), game, {"text": USSR_PRE})
    seq = write(ctx, "roll", ApiToken(allies), game, UKRAINE_ROLL).seq

    pages.log_in(AXIS)  # the other player checks the roll
    pages.open(f"/games/{game}", "game")
    pages.click(pages.find(f"#entry-{seq} .head a"), "entry")
    assert pages.text("h1") == f"[Game {game}] #{seq} USSR: Ukraine round 1"
    signed = pages.find("pre").text
    assert set(json.loads(signed)) == {"body", "sig", "key"}

    pages.link("Verify", "verify")
    assert pages.text("h1") == "Verify"
    pages.paste("#pasted", signed)
    pages.button("Verify", "verified")
    assert pages.text("h2") == "Everything checked holds"
    checks = pages.text(".checks")
    assert "✔ the Ed25519 signature with key" in checks and "holds" in checks
    assert f"✔ the body is canonical: game {game}, entry #{seq}, roll" in checks
    assert "✘" not in checks

    # One die turned over: the same entry, the signature no longer its body's.
    entry = json.loads(signed)
    body = json.loads(entry["body"])
    body["data"]["dice"][0] = 7 - body["data"]["dice"][0]
    entry["body"] = json.dumps(body, separators=(",", ":"), sort_keys=True)
    pages.paste("#pasted", json.dumps(entry, indent=1))
    pages.button("Verify", "tampered")
    assert pages.text("h2") == "Problems found"
    checks = pages.text(".checks")
    assert "✘ entry: signature does not verify" in checks
    assert "✔ the Ed25519 signature" not in checks


def test_a_turn_sent_from_the_form_shows_its_findings(pages: Pages) -> None:
    ctx = pages.live.ctx
    game, _ = game_between_axis_and_allies(ctx)

    pages.log_in(ALLIES)
    pages.link(f"Game {game}", "game")
    assert "None yet: USSR's turn starts with the pre-combat email." in pages.text()
    pages.link("Send USSR's turn", "turn-form")
    assert pages.text("h1") == f"Send a turn · game {game}"

    pages.type("#text", "Hi Bob, my move soon.")
    pages.button("Send the turn", "no-orders")
    assert "no orders found" in pages.text("#text-error")
    assert pages.text("h1") == f"Send a turn · game {game}"

    pages.type("#text", USSR_TYPO)
    pages.button("Send the turn", "report")
    found = re.fullmatch(rf"/games/{game}/turn/(\d+)", pages.path())
    assert found, pages.path()
    assert pages.text("h1") == "USSR, round 1, pre-combat turn"
    assert "In force." in pages.text()
    assert "0 errors, 1 warning" in pages.text(".summary")
    line = pages.text("#line-7")
    assert "attack #1 - ukrane (3 inf, 2 arm, 1 ftr)" in line
    assert "warning: read 'ukrane' as 'Ukraine'" in line  # the finding beside its line
    assert "IAAPA Error Correction VI" in line
    assert pages.find_all("#line-6 .findings") == []
    assert "#1 Ukraine S.S.R.: 6 INF, 2 ARM, 1 FTR against" in pages.text()

    pages.link(f"Back to game {game}", "game-after-turn")
    assert f"#{found.group(1)} USSR pre-combat turn · in force · 1 finding" in pages.text(".now")
