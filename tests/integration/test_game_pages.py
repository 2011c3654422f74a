"""The game's pages through the Flask test client (issue 14, point 6 and the pages of point
8): whose turn it is, the turn's emails and battles, a picture of the board, the timeline
grouped by game turn with the dice as faces, a turn sent from the browser with its findings
beside its lines, the battle roller filled in from the declared battles, and the home page
with the players' names."""

from __future__ import annotations

import html as entities
import json
import re
from typing import Any

import pytest
from defusedxml import ElementTree
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from adjudicator.boards import classic
from dice_server.db import reading
from dice_server.models import LedgerEntry
from dice_server.services.entries import ApiToken
from dice_server.services.paging import PAGE_ENTRIES
from dice_server.services.rolls import write
from dice_server.services.turn_reports import placed_findings
from dice_server.services.turns import submit_turn
from tests import bulk
from tests.conftest import League, logged_in
from tests.integration.test_turns import UKRAINE_ROLL, USSR_PRE

#: The same turn with a misspelling on line 7 (IAAPA Error Correction VI: a warning).
USSR_TYPO = USSR_PRE.replace("ukraine (3 inf", "ukrane (3 inf")
UKRAINE = UKRAINE_ROLL
SVG = "{http://www.w3.org/2000/svg}"


def csrf(html: str) -> str:
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert match, "no CSRF token on the page"
    return match.group(1)


def field_value(html: str, name: str) -> str:
    """The value of the page's input ``name`` (a hidden one's too)."""
    match = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html)
    assert match, f"no input {name} on the page"
    return match.group(1)


def text(html: str) -> str:
    """What a reader sees: the tags gone, entities read, spaces collapsed."""
    return " ".join(entities.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def section(html: str, pattern: str) -> str:
    """The element whose opening tag matches ``pattern``, up to its closing tag (elements
    of the same name are not nested in what this looks at)."""
    match = re.search(rf"<(\w+)[^>]*{pattern}[^>]*>", html)
    assert match, f"no element matches {pattern}"
    end = html.index(f"</{match.group(1)}>", match.end())
    return html[match.start() : end]


def entries(league: League) -> int:
    with reading(league.ctx.sessions) as session:
        return int(session.execute(select(func.count(LedgerEntry.id))).scalar_one())


def submitted(league: League, body: str = USSR_PRE) -> int:
    entry, _ = submit_turn(
        league.ctx, ApiToken(league.tokens["allies"]), league.game, {"text": body}
    )
    return entry.seq


def rolled(league: League, request: dict[str, Any] | None = None, kind: str = "roll") -> int:
    token = ApiToken(league.tokens["allies"])
    return write(league.ctx, kind, token, league.game, request or UKRAINE).seq


@pytest.fixture
def allies(app: Flask, league: League) -> FlaskClient:
    return logged_in(app, league.ctx, "allies@example.org")


@pytest.fixture
def axis(app: Flask, league: League) -> FlaskClient:
    return logged_in(app, league.ctx, "axis@example.org")


# --- the game page ---------------------------------------------------------------------------


def test_the_game_page_shows_the_turn_its_emails_and_battles(
    axis: FlaskClient, league: League
) -> None:
    seq = submitted(league)
    roll = rolled(league)
    html = axis.get(f"/games/{league.game}").get_data(as_text=True)
    now = text(section(html, 'class="now"'))
    assert "Round 1 · USSR to move · combat" in now
    assert "USSR is played by Allies (allies@example.org) (Allies)" in now
    assert f"#{seq} USSR pre-combat turn · in force · 0 findings" in now
    ukraine = text(section(html, 'id="battle-1"'))
    assert f"#1 Ukraine S.S.R. rolls #{roll}" in ukraine
    assert "left" in ukraine and "declared 6 INF, 2 ARM, 1 FTR" in ukraine
    assert re.search(r"(in-progress|must-pause|decided) after 1 round", ukraine)
    east = text(section(html, 'id="battle-2"'))
    assert "#2 East Europe" in east and "Attacker: 1 FTR" in east and "declared" in east
    assert "Roll round 1" in east
    assert f'<img src="/games/{league.game}/board.svg"' in html
    assert f'href="/api/v1/games/{league.game}/ledger"' in html
    assert "API token" not in html
    assert 'href="/api/v1/keys"' in html and 'href="/verifier.py"' in html


def test_the_ledger_link_opens_with_the_page_session(
    app: Flask, axis: FlaskClient, league: League
) -> None:
    response = axis.get(f"/api/v1/games/{league.game}/ledger")
    assert response.status_code == 200
    assert len(response.get_json()["entries"]) == 1
    stranger = logged_in(app, league.ctx, "stranger@example.org")
    assert stranger.get(f"/api/v1/games/{league.game}/ledger").status_code == 403


def test_the_board_is_drawn_for_the_games_participants(
    app: Flask, axis: FlaskClient, league: League
) -> None:
    path = f"/games/{league.game}/board.svg"
    response = axis.get(path)
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    tree = ElementTree.fromstring(response.data)
    titles = []
    for shape in tree.iter(f"{SVG}path"):
        title = shape.find(f"{SVG}title")
        assert title is not None and title.text
        titles.append(title.text.split("\n")[0])
    assert sorted(titles) == sorted(classic().territories)  # one <title> a space
    etag = response.headers["ETag"]
    assert axis.get(path, headers={"If-None-Match": etag}).status_code == 304
    mentor = logged_in(app, league.ctx, "mentor@example.org")
    assert mentor.get(path).status_code == 200
    stranger = logged_in(app, league.ctx, "stranger@example.org")
    assert stranger.get(path).status_code == 403
    assert axis.get("/games/999/board.svg").status_code == 404
    assert app.test_client().get(path).status_code == 302  # to the login page


def test_the_timeline_groups_a_turn_and_its_battles_with_dice_as_faces(
    axis: FlaskClient, league: League
) -> None:
    first = submitted(league)
    one = rolled(league)
    east = rolled(
        league,
        {**UKRAINE, "battle": "East Europe", "attacker": [{"unit": "FTR", "count": 1}]},
    )
    html = axis.get(f"/games/{league.game}").get_data(as_text=True)
    turn = html[html.index("<h3>Round 1 · USSR</h3>") :]
    turn = turn[: turn.index("</section>")]
    # The turn's entries, newest first, each battle's rounds under the battle.
    order = [int(n) for n in re.findall(r'id="entry-(\d+)"', turn)]
    assert order == [east, one, first]
    assert turn.index("Battle #2: East Europe") < turn.index(f'id="entry-{east}"')
    assert turn.index("Battle #1: Ukraine S.S.R.") < turn.index(f'id="entry-{one}"')
    assert 'id="entry-1"' not in turn  # the genesis names no turn: it stands alone
    # The dice as faces: a hit (at or under its number) filled, a miss not.
    body = axis.get(f"/games/{league.game}/entries/{one}.json").get_json()["body"]
    groups = json.loads(body)["data"]["groups"]
    article = section(html, f'id="entry-{one}"')
    shown = re.findall(r"<(b|i)>(\d)</\1>", section(article, 'class="throws"'))
    thrown = [("b" if d <= g["hit_on"] else "i", str(d)) for g in groups for d in g["dice"]]
    assert shown == thrown
    assert "Read by the rules" in article  # the engine's reading below the dice
    assert re.search(r'<time class="at"[^>]*>[^<]+</time>', article)
    css = axis.get("/site.css").get_data(as_text=True)
    assert re.search(r"time\.at \{[^}]*white-space: nowrap", css)  # a stamp never wraps


def test_a_roll_claimed_void_is_marked(axis: FlaskClient, league: League) -> None:
    roll = rolled(league)
    note = rolled(league, {"topic": "void-claim", "ref_seq": roll, "text": "wrong game"}, "note")
    html = axis.get(f"/games/{league.game}").get_data(as_text=True)
    article = section(html, f'id="entry-{roll}"')
    assert 'class="entry void"' in article
    assert f"Claimed void by note #{note}" in text(article)
    assert 'class="entry void"' not in section(html, f'id="entry-{note}"')
    entry = axis.get(f"/games/{league.game}/entries/{roll}").get_data(as_text=True)
    assert f"Claimed void by note #{note}" in text(entry)


def test_the_timeline_keeps_its_pages(axis: FlaskClient, league: League) -> None:
    total = PAGE_ENTRIES + 30
    bulk.append_battles(league.ctx, league.game, total - 1, "axis@example.org")
    newest = axis.get(f"/games/{league.game}")
    html = newest.get_data(as_text=True)
    assert [int(n) for n in re.findall(r'id="entry-(\d+)"', html)] == list(
        range(total, total - PAGE_ENTRIES, -1)
    )
    assert len(newest.data) < 120_000  # a page of a hundred rolls stays light
    assert f"Entries #{total} to #{total - PAGE_ENTRIES + 1} of {total}" in html
    older = axis.get(f"/games/{league.game}?from=30").get_data(as_text=True)
    assert [int(n) for n in re.findall(r'id="entry-(\d+)"', older)] == list(range(30, 0, -1))


# --- sending a turn --------------------------------------------------------------------------


def turn_form(client: FlaskClient, league: League, body: str) -> dict[str, str]:
    page = client.get(f"/games/{league.game}/turn").get_data(as_text=True)
    return {"csrf_token": csrf(page), "nonce": field_value(page, "nonce"), "text": body}


def test_a_turn_sent_twice_under_one_nonce_is_recorded_once(
    allies: FlaskClient, league: League
) -> None:
    form = turn_form(allies, league, USSR_TYPO)
    first = allies.post(f"/games/{league.game}/turn", data=form)
    second = allies.post(f"/games/{league.game}/turn", data=form)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"] == f"/games/{league.game}/turn/2"
    assert entries(league) == 2
    report = allies.get(first.headers["Location"]).get_data(as_text=True)
    line = section(report, 'id="line-7"')
    assert "attack #1 - ukrane (3 inf, 2 arm, 1 ftr)" in text(line)
    assert "read 'ukrane' as 'Ukraine'" in text(line)  # the finding beside its line
    assert "IAAPA Error Correction VI" in line
    assert 'class="findings"' not in section(report, 'id="line-6"')
    assert 'href="/games/1/entries/2"' in report  # the recorded entry
    assert "0 errors, 1 warning" in text(report)


def test_a_refused_turn_shows_why_at_the_field_and_records_nothing(
    axis: FlaskClient, allies: FlaskClient, league: League
) -> None:
    response = axis.post(f"/games/{league.game}/turn", data=turn_form(axis, league, USSR_PRE))
    assert response.status_code == 403
    page = response.get_data(as_text=True)
    error = section(page, 'id="text-error"')  # at the field
    assert "only the Allies player may submit USSR's turn" in text(error)
    assert "Russia 1 pre-combat" in page  # the text is kept to correct and resend
    chat = allies.post(
        f"/games/{league.game}/turn", data=turn_form(allies, league, "Hi Bob, my move soon.")
    )
    assert chat.status_code == 400
    error = section(chat.get_data(as_text=True), 'id="text-error"')
    assert "no orders found" in error
    assert entries(league) == 1


@pytest.mark.parametrize(
    "body",
    [
        "x" * 60_000,  # longer than any turn
        "USSR 1 pre-combat\r\n" + "attack #1 - \u202eukraine (3 inf)\r\n" * 200,
        "\x00\x01\x02",
        "Germany 9 post-combat\nresults: all won\n",
    ],
)
def test_the_turn_form_never_fails_with_5xx(allies: FlaskClient, league: League, body: str) -> None:
    response = allies.post(f"/games/{league.game}/turn", data=turn_form(allies, league, body))
    assert response.status_code < 500
    if response.status_code == 302:
        assert allies.get(response.headers["Location"]).status_code == 200


def test_a_turn_form_without_its_nonce_or_token_is_refused(
    allies: FlaskClient, league: League
) -> None:
    form = turn_form(allies, league, USSR_PRE)
    assert (
        allies.post(f"/games/{league.game}/turn", data={**form, "nonce": "x.y"}).status_code == 400
    )
    assert (
        allies.post(f"/games/{league.game}/turn", data={**form, "csrf_token": "x"}).status_code
        == 400
    )
    assert entries(league) == 1


def test_findings_about_the_whole_turn_come_first() -> None:
    general, lines = placed_findings(
        ["one", "two"],
        [
            {"line": 2, "severity": "error", "rule": "R", "message": "on two"},
            {"line": 0, "severity": "warning", "rule": "R", "message": "whole"},
            {"line": 9, "severity": "info", "rule": "R", "message": "past the end"},
        ],
    )
    assert [f.message for f in general] == ["whole", "past the end"]
    assert [(line.number, [f.message for f in line.findings]) for line in lines] == [
        (1, []),
        (2, ["on two"]),
    ]


# --- the roller ------------------------------------------------------------------------------


def test_the_battle_roller_is_filled_in_from_the_declared_battles(
    allies: FlaskClient, league: League
) -> None:
    submitted(league)
    page = allies.get(f"/games/{league.game}/roll").get_data(as_text=True)
    offers = section(page, 'class="offers"')
    assert f'href="/games/{league.game}/roll?battle=1"' in offers
    assert "6 INF, 2 ARM, 1 FTR against 3 INF, 2 ARM, 1 FTR" in text(offers)
    filled = allies.get(f"/games/{league.game}/roll?battle=1").get_data(as_text=True)

    def value(name: str) -> str:
        match = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', filled)
        assert match, name
        return match.group(1)

    assert value("battle") == "Ukraine S.S.R."
    assert (value("round"), value("turn")) == ("1", "1")
    assert '<option selected value="USSR">' in filled
    assert (value("attacker_INF"), value("attacker_ARM"), value("attacker_FTR")) == ("6", "2", "1")
    assert (value("defender_INF"), value("defender_ARM"), value("defender_FTR")) == ("3", "2", "1")
    assert value("attacker_BB") == "0"
    # Rolled as filled in, the round is linked to its battle with nothing found.
    fields = {
        name: value(name)
        for name in re.findall(r'<input[^>]*name="((?:attacker|defender)_\w+)"', filled)
    }
    data = {
        **fields,
        "csrf_token": csrf(filled),
        "nonce": field_value(filled, "nonce"),
        "battle": value("battle"),
        "round": "1",
        "turn": "1",
        "country": "USSR",
    }
    response = allies.post(f"/games/{league.game}/roll?battle=1", data=data)
    assert response.status_code == 302, text(response.get_data(as_text=True))
    signed = allies.get(response.headers["Location"] + ".json").get_json()
    recorded = json.loads(signed["body"])["data"]
    assert recorded["declared"] == {"submission": 2, "number": 1}
    assert "findings" not in recorded
    # The next round is filled in with the survivors.
    battles = allies.get(f"/api/v1/games/{league.game}/battles").get_json()
    survivors = battles[0]["result"]["survivors"]
    if battles[0]["status"] != "decided":
        again = allies.get(f"/games/{league.game}/roll?battle=1").get_data(as_text=True)
        assert field_value(again, "round") == "2"
        for unit, count in survivors["attacker"].items():
            assert re.search(rf'name="attacker_{unit}"[^>]*value="{count}"', again)


# --- the home page ---------------------------------------------------------------------------


def test_the_home_page_lists_whose_turn_it_is_and_the_players_names(
    allies: FlaskClient, league: League
) -> None:
    home = text(allies.get("/").get_data(as_text=True))
    assert "Axis: Axis (axis@example.org)" in home
    assert "Allies: Allies (allies@example.org)" in home
    assert "Round 1 · USSR · pre-combat" in home and "your move" in home
    seq = submitted(league)
    signed = allies.get(f"/games/{league.game}/entries/{seq}.json").get_json()
    at = json.loads(signed["body"])["at"]
    home = text(allies.get("/").get_data(as_text=True))
    assert "Round 1 · USSR · combat" in home
    assert f"Last entry {at}" in home
    roller = text(allies.get(f"/games/{league.game}/roll").get_data(as_text=True))
    assert "Axis Axis (axis@example.org)" in roller


def battle_form(page: str, battle: str) -> dict[str, str]:
    """A round of 3 INF against 2 INF in ``battle``, posted from the roller ``page``."""
    return {
        "nonce": field_value(page, "nonce"),
        "csrf_token": csrf(page),
        "round": "1",
        "turn": "1",
        "country": "Germany",
        "battle": battle,
        "attacker_INF": "3",
        "defender_INF": "2",
    }


def test_a_blank_roller_page_is_the_same_once_its_fields_are_drawn(
    app: Flask, league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The blank battle form's fields are drawn once; later pages build only its hidden
    fields (dice_server.web.roller): the page is the same, but for a fresh nonce and CSRF
    token, and the nonce it carries rolls."""
    from dice_server.web import roller

    monkeypatch.setattr(roller, "_BLANK_FIELDS", type(roller._BLANK_FIELDS)())
    axis = logged_in(app, league.ctx, "axis@example.org")
    path = f"/games/{league.game}/roll"
    first, second = (axis.get(path).get_data(as_text=True) for _ in range(2))
    assert len(roller._BLANK_FIELDS) == 1  # drawn at the first page, kept for the second

    def without_tokens(html: str) -> str:
        """The page without its tokens' values (the form's, and the CSRF token of the
        menu's log-out form: it carries the time, so it changes with the second)."""
        return re.sub(r'(<input[^>]*name="(?:nonce|csrf_token)"[^>]*value=)"[^"]*"', r"\1", html)

    assert field_value(first, "nonce") != field_value(second, "nonce")
    assert without_tokens(first) == without_tokens(second)
    assert 'name="attacker_INF"' in second
    rolled = axis.post(path, data=battle_form(second, "Karelia S.S.R."))
    assert rolled.status_code == 302, rolled.get_data(as_text=True)[:2000]


def selected(html: str, name: str) -> str:
    """The value the select ``name`` of a page shows: the option marked selected, else the
    first (as a browser shows it)."""
    box = re.search(rf'<select[^>]*name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert box is not None, name
    options = re.findall(r'<option([^>]*)value="([^"]*)"([^>]*)>', box.group(1))
    assert options, box.group(1)[:300]
    chosen = [value for before, value, after in options if "selected" in before + after]
    return chosen[0] if chosen else options[0][1]


def test_a_blank_roller_names_the_kept_turn(
    app: Flask, league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A blank form (no declared battle chosen) names the turn the service keeps: its round
    and the power to move, in a game moved in at Germany's turn of round 2; each turn's form
    is drawn once. A Big World 1942 game keeps no turn: its form starts at its defaults."""
    from dice_server.services.games import create_game
    from dice_server.web import roller
    from tests.integration.test_turns import initial_json

    monkeypatch.setattr(roller, "_BLANK_FIELDS", type(roller._BLANK_FIELDS)())
    doc = initial_json()
    doc["round"], doc["to_move"] = 2, "Germany"
    moved = create_game(
        league.ctx, axis="axis@example.org", allies="allies@example.org", position=doc
    ).game_number
    big = create_game(
        league.ctx, axis="axis@example.org", allies="allies@example.org", ruleset="big_world_1942"
    ).game_number
    axis = logged_in(app, league.ctx, "axis@example.org")
    for _ in range(2):  # drawn, then kept
        page = axis.get(f"/games/{moved}/roll").get_data(as_text=True)
        assert (field_value(page, "turn"), selected(page, "country")) == ("2", "Germany")
        assert field_value(page, "round") == "1"  # the battle's first round
    opening = axis.get(f"/games/{league.game}/roll").get_data(as_text=True)
    assert (field_value(opening, "turn"), selected(opening, "country")) == ("1", "USSR")
    assert len(next(iter(roller._BLANK_FIELDS.values()))) == 2  # one per kept turn
    tech = axis.get(f"/games/{moved}/tech").get_data(as_text=True)
    assert (field_value(tech, "turn"), selected(tech, "country")) == ("2", "Germany")
    rolled = axis.post(f"/games/{moved}/roll", data=battle_form(page, "Karelia S.S.R."))
    assert rolled.status_code == 302
    other = axis.get(f"/games/{big}/roll").get_data(as_text=True)
    assert (field_value(other, "turn"), selected(other, "country")) == ("1", "USSR")


def test_a_refused_battle_is_told_beside_its_box_by_its_label_alone(
    app: Flask, league: League
) -> None:
    """The service names the request's field in its refusal (``battle: ...``, as the API
    answers it); beside the form's box the page names the field by its label, once."""
    axis = logged_in(app, league.ctx, "axis@example.org")
    path = f"/games/{league.game}/roll"
    page = axis.get(path).get_data(as_text=True)
    refused = axis.post(path, data=battle_form(page, "Atlantis Xyz"))
    assert refused.status_code == 400
    shown = entities.unescape(refused.get_data(as_text=True))
    assert "Battle territory or sea zone: 'Atlantis Xyz' is not a known territory" in shown
    assert "sea zone: battle:" not in shown
