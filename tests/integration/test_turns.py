"""A game's turns through the service: submissions recorded as ledger entries and checked
against the game's own position, rolls linked to the declared battles, the position kept and
rebuilt from the ledger alone (issue 14)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from adjudicator.position import initial_json
from tests.conftest import League

TURNS = Path(__file__).resolve().parents[1] / "data" / "turns"

USSR_PRE = (TURNS / "02-ussr-r1-precombat.txt").read_text()

UKRAINE_ROLL = {
    "round": 1,
    "turn": 1,
    "country": "USSR",
    "battle": "Ukraine",
    "attacker": [
        {"unit": "INF", "count": 6},
        {"unit": "ARM", "count": 2},
        {"unit": "FTR", "count": 1},
    ],
    "defender": [
        {"unit": "INF", "count": 3},
        {"unit": "ARM", "count": 2},
        {"unit": "FTR", "count": 1},
    ],
}


def submit(client: FlaskClient, league: League, who: str, text: str) -> Any:
    return client.post(
        f"/api/v1/games/{league.game}/turns",
        data=json.dumps({"text": text}),
        headers={**league.auth(who), "Content-Type": "application/json"},
    )


def get(client: FlaskClient, league: League, what: str, who: str = "axis") -> Any:
    response = client.get(f"/api/v1/games/{league.game}/{what}", headers=league.auth(who))
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def roll(client: FlaskClient, league: League, who: str, request: dict[str, Any]) -> Any:
    return client.post(
        f"/api/v1/games/{league.game}/rolls",
        data=json.dumps(request),
        headers={**league.auth(who), "Content-Type": "application/json"},
    )


def ledger(client: FlaskClient, league: League) -> list[dict[str, Any]]:
    entries = get(client, league, "ledger")["entries"]
    return [json.loads(e["body"]) for e in entries]


def test_a_new_game_starts_from_the_classic_position(client: FlaskClient, league: League) -> None:
    shown = get(client, league, "position")
    assert shown["turn"] == {"round": 1, "power": "USSR", "phase": "pre-combat"}
    assert shown["position"] == initial_json()
    genesis = ledger(client, league)[0]
    assert genesis["data"]["position"] == initial_json()


def test_a_precombat_turn_is_recorded_with_its_report(client: FlaskClient, league: League) -> None:
    response = submit(client, league, "allies", USSR_PRE)
    assert response.status_code == 201, response.get_data(as_text=True)
    body = response.get_json()
    entry = json.loads(body["entry"]["body"])
    assert entry["kind"] == "submission"
    data = entry["data"]
    assert (data["power"], data["round"], data["phase"]) == ("USSR", 1, "pre-combat")
    assert data["text"] == USSR_PRE and data["in_force"] == 1
    assert [b["territory"] for b in data["battles"]] == ["Ukraine S.S.R.", "East Europe"]
    assert body["report"]["summary"]["errors"] == 0
    assert get(client, league, "position")["turn"]["phase"] == "combat"


def test_only_the_mover_may_submit(client: FlaskClient, league: League) -> None:
    refused = submit(client, league, "axis", USSR_PRE)
    assert refused.status_code == 403
    assert "only the Allies player may submit USSR's turn" in refused.get_json()["error"]
    wrong_power = submit(client, league, "axis", "Germany 1 pre-combat\npurchases: 2 inf\n")
    assert wrong_power.status_code == 409
    assert "it is USSR's turn" in wrong_power.get_json()["error"]
    assert len(ledger(client, league)) == 1


@pytest.mark.parametrize("text", ["", "   ", "Hi Bob, your move soon. Cheers"])
def test_text_with_no_turn_records_nothing(client: FlaskClient, league: League, text: str) -> None:
    refused = submit(client, league, "allies", text)
    assert refused.status_code == 400
    assert len(ledger(client, league)) == 1


def test_a_roll_is_linked_to_its_declared_battle(client: FlaskClient, league: League) -> None:
    submit(client, league, "allies", USSR_PRE)
    request = dict(UKRAINE_ROLL)
    rolled = roll(client, league, "allies", request)
    assert rolled.status_code == 201, rolled.get_data(as_text=True)
    data = json.loads(rolled.get_json()["body"])["data"]
    assert data["declared"] == {"submission": 2, "number": 1}
    assert "findings" not in data
    battles = get(client, league, "battles")
    assert [b["territory"] for b in battles] == ["Ukraine S.S.R.", "East Europe"]
    assert battles[0]["rolls"] == [3] and battles[0]["result"] is not None
    assert battles[0]["status"] in ("in-progress", "must-pause", "decided")
    assert battles[1]["status"] == "declared" and battles[1]["result"] is None
    too_many = {
        **request,
        "battle": "East Europe",
        "attacker": [{"unit": "FTR", "count": 2}],
        "defender": [
            {"unit": "INF", "count": 3},
            {"unit": "ARM", "count": 1},
            {"unit": "FTR", "count": 1},
        ],
    }
    extra = json.loads(roll(client, league, "allies", too_many).get_json()["body"])["data"]
    assert extra["declared"] == {"submission": 2, "number": 2}
    assert [f["rule"] for f in extra["findings"]] == ["IAAPA Error Correction III: Too many units"]
    stray = {**request, "battle": "Finland Norway"}
    undeclared = json.loads(roll(client, league, "allies", stray).get_json()["body"])["data"]
    assert "declared" not in undeclared
    assert "not a battle of the pre-combat turn" in undeclared["findings"][0]["message"]


def test_a_postcombat_turn_before_its_precombat_is_refused(
    client: FlaskClient, league: League
) -> None:
    post = "Russia 1 post-combat\n\nNCM:\nRussia 2 inf -> Karelia\n"
    refused = submit(client, league, "allies", post)
    assert refused.status_code == 409
    assert "pre-combat turn" in refused.get_json()["error"]


USSR_POST = """Russia 1 post-combat

Results:
Attack #1 - Ukraine: won, 4 INF 2 ARM 1 FTR left
Attack #2 - E Europe: lost, the fighter was shot down

Non-combat moves:
Ukraine 1 FTR to Caucasus

Placement:
Russia 8 INF

Russia 12/$30
"""

GERMANY_PRE = """Germany 1 pre-combat

Purchases: 5 INF ($15)

Combat moves:
Attack #1 - Ukraine (2 INF, 1 ARM)
E Europe 2 INF, 1 ARM
"""


def test_the_postcombat_turn_moves_the_board(client: FlaskClient, league: League) -> None:
    submit(client, league, "allies", USSR_PRE)
    response = submit(client, league, "allies", USSR_POST)
    assert response.status_code == 201, response.get_data(as_text=True)
    data = json.loads(response.get_json()["entry"]["body"])["data"]
    assert data["phase"] == "post-combat" and len(data["new_position_sha256"]) == 64
    shown = get(client, league, "position")
    assert shown["turn"] == {"round": 1, "power": "Germany", "phase": "pre-combat"}
    assert shown["position"]["to_move"] == "Germany"
    # No die was rolled: the dice, not the written results, move the board (IAAPA Error
    # Correction V), so Ukraine was not fought and stays German, and the engine says so.
    assert shown["position"]["owners"]["Ukraine S.S.R."] == "Germany"
    codes = {(f["line"], f["code"]) for f in data["played_out"]}
    assert {(4, "no-verdict"), (4, "result-differs"), (13, "count-mismatch")} <= codes
    assert shown["position"]["banks"]["USSR"] == 24 - 24 + 24  # bank - 8 INF + income
    assert get(client, league, "battles") == []
    # The ledger alone rebuilds the kept position, at any entry.
    runner_position = rebuilt(league, 3)
    assert runner_position == shown
    assert rebuilt(league, 2)["turn"] == {"round": 1, "power": "USSR", "phase": "combat"}
    assert rebuilt(league, 1)["position"] == initial_json()


def test_what_the_dice_decided_is_mailed_and_shown_beside_the_lines(
    app: Any, client: FlaskClient, league: League
) -> None:
    """Where the email's results differ from the dice, the position follows the dice
    (IAAPA Error Correction V): the turn's mail and its report page say so, once each, as
    well as what the email's own check found."""
    from tests.conftest import logged_in
    from tests.integration.test_battle_replay import mailed_entry

    submit(client, league, "allies", USSR_PRE)
    response = submit(client, league, "allies", USSR_POST)
    seq = json.loads(response.get_json()["entry"]["body"])["seq"]
    data = json.loads(response.get_json()["entry"]["body"])["data"]
    differs = next(f for f in data["played_out"] if f["code"] == "result-differs")
    mail = mailed_entry(app, league, seq)
    assert "Played out from the dice (the position follows them):" in mail
    assert mail.count(differs["message"]) == 1
    checked = {(f["line"], f["code"]) for f in data["findings"]}
    assert (13, "count-mismatch") in checked  # said by the check, and so not said twice
    assert mail.count("the count ") == 1
    page = logged_in(app, league.ctx, "allies@example.org").get(f"/games/{league.game}/turn/{seq}")
    shown = " ".join(page.get_data(as_text=True).split())
    assert "and played out from the dice (the position follows them)" in shown
    assert f"warning</strong> against the dice: {differs['message']}" in shown


def rebuilt(league: League, at: int) -> Any:
    from dice_server.services.turns import game_position

    return game_position(league.ctx, league.game, None, at=at)


def note(client: FlaskClient, league: League, who: str, text: str) -> Any:
    return client.post(
        f"/api/v1/games/{league.game}/notes",
        data=json.dumps({"topic": "special-orders", "text": text}),
        headers={**league.auth(who), "Content-Type": "application/json"},
    )


def test_the_defenders_special_orders_of_loss_count_before_the_battle_is_rolled(
    client: FlaskClient, league: League
) -> None:
    """IAAPA Orders of Loss: "If a defender does not send in any special orders of loss
    prior to the attacker rolling the battle then the Association defaults will be used." """
    submit(client, league, "allies", USSR_PRE)
    assert (
        note(client, league, "axis", "OOL for battle #1 (Ukraine): ARM, INF, FTR").status_code
        == 201
    )
    assert roll(client, league, "allies", UKRAINE_ROLL).status_code == 201
    assert note(client, league, "axis", "OOL for battle #2 (E Europe): FTR, INF").status_code == 201
    ukraine, east_europe = get(client, league, "battles")
    assert ukraine["orders_of_loss"] == {"defender": ["ARM", "INF", "FTR"]}
    lost = ukraine["result"]["rounds"][0]["defender_casualties"]
    if lost:  # the attacker scored: armour goes first, as ordered
        assert "ARM" in lost and (lost.get("INF", 0) == 0 or lost["ARM"] == 2)
    # East Europe is not rolled yet: the note sent now still comes before its first roll.
    assert east_europe["orders_of_loss"] == {"defender": ["FTR", "INF"]}


def test_a_special_orders_note_is_read_as_special_orders_from_its_first_line(
    client: FlaskClient, league: League
) -> None:
    """IAAPA Orders of Loss: "A player may designate any order of loss that he desires for
    his casualties." A note whose topic is special orders needs no "OOL" on each line: tried
    as a new player, "Hans,\nUkraine: arm, inf, ftr" set no order, and the defaults applied."""
    submit(client, league, "allies", USSR_PRE)
    assert note(client, league, "axis", "Hans,\n\nUkraine: arm, inf, ftr\n").status_code == 201
    ukraine, _east_europe = get(client, league, "battles")
    assert ukraine["orders_of_loss"] == {"defender": ["ARM", "INF", "FTR"]}


def test_a_submission_never_half_applies(
    client: FlaskClient, league: League, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry, the new position and the outbox row commit together or not at all."""
    from dice_server.services import outbox

    submit(client, league, "allies", USSR_PRE)
    before = get(client, league, "position")

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the outbox is unavailable")

    monkeypatch.setattr(outbox, "enqueue", broken)
    assert submit(client, league, "allies", USSR_POST).status_code == 500
    monkeypatch.undo()
    assert get(client, league, "position") == before
    assert len(ledger(client, league)) == 2
    assert submit(client, league, "allies", USSR_POST).status_code == 201
    assert get(client, league, "position")["turn"]["power"] == "Germany"


def test_each_submission_is_mailed_with_its_findings(app: Any, league: League) -> None:
    """Each submission reaches both players and the mentor like any entry, with what the
    engine found in the body."""
    from dice_server.mail.delivery import deliver_due
    from dice_server.services.turns import submit_turn
    from tests.integration.test_mail import courier_for

    allies = 2
    text = USSR_PRE.replace(
        "attack #2 - E Europe (3 INF, 1 ARM, 1 FTR)", "attack #2 - E Europe (3 INF)"
    )
    submit_turn(league.ctx, allies, league.game, {"text": text})
    report = deliver_due(courier_for(app, MAIL_TRANSPORT="maildir"))
    assert not report.failed
    import email
    from email import policy

    maildir = Path(app.instance_path) / "maildir" / "new"
    mails = [
        email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in maildir.iterdir()
    ]
    copies = [m for m in mails if "pre-combat turn" in str(m["Subject"])]
    assert len(copies) == 3  # each player's copy and the mentor's, the same text
    assert len({c.get_body(("plain",)).get_content() for c in copies}) == 1
    turn_mail = copies[0]
    assert str(turn_mail["Subject"]).endswith("USSR: round 1 pre-combat turn")
    assert "allies@example.org" in str(turn_mail["To"]) and "axis@example.org" in str(
        turn_mail["To"]
    )
    assert "mentor@example.org" in str(turn_mail["Cc"])
    body = turn_mail.get_body(("plain",)).get_content()
    assert "error: battle #2 (East Europe): defenders listed as 3 INF" in body
    assert "The turn as sent:" in body and "attack #2 - E Europe (3 INF)" in body


ROUND_1 = Path(__file__).resolve().parents[1] / "data" / "games" / "round-1"


def battle_roll(country: str, battle: dict[str, Any]) -> dict[str, Any]:
    """The roll for a declared battle, units as the service expects its next roll (the
    declaration, or the correct units of a battle fought again; a declared BB in a land
    battle gives support shots)."""
    listed = lambda units: [{"unit": u, "count": n} for u, n in units.items()]  # noqa: E731
    units = battle["next_roll"] or battle["declared"]
    attacker = dict(units["attacker"])
    defender = {u: n for u, n in units["defender"].items() if u != "IC"}
    request: dict[str, Any] = {"round": 1, "turn": 1, "country": country}
    land = not any(u in ("TRN", "SUB", "AC") for u in (*attacker, *defender)) and (
        "Sea Zone" not in battle["territory"]
    )
    if land and attacker.get("BB"):
        request["bombard"] = [{"unit": "BB", "count": attacker.pop("BB")}]
    request.update(battle=battle["territory"], attacker=listed(attacker), defender=listed(defender))
    return request


def recognise(client: FlaskClient, league: League, who: str, seq: int) -> None:
    """An error-recognition note about entry ``seq``, through the dice roller."""
    sent = client.post(
        f"/api/v1/games/{league.game}/notes",
        data=json.dumps(
            {"topic": "error-recognition", "text": "a declaration error", "ref_seq": seq}
        ),
        headers={**league.auth(who), "Content-Type": "application/json"},
    )
    assert sent.status_code == 201, sent.get_data(as_text=True)


def test_a_full_round_on_the_classic_board(client: FlaskClient, league: League) -> None:
    """All five powers through the API with recorded dice: land battles, a sea battle
    (Germany in the East Mediterranean, Japan in the Indian Ocean), an amphibious assault
    with support shots (UK on West Europe); the position the ledger rebuilds equals the kept
    one at every turn."""
    turns = sorted(ROUND_1.glob("*.txt"))
    assert len(turns) == 10
    for pre, post in zip(turns[0::2], turns[1::2], strict=True):
        mover = get(client, league, "position")["turn"]["power"]
        who = "axis" if mover in ("Germany", "Japan") else "allies"
        sent = submit(client, league, who, pre.read_text())
        assert sent.status_code == 201, (pre.name, sent.get_data(as_text=True))
        if pre.name.startswith("01"):
            # Later turns were written before the dice fell: what they declare may no longer
            # stand on the board the dice made (recorded all the same, with the findings).
            assert sent.get_json()["report"]["summary"]["errors"] == 0, pre.name
        for battle in get(client, league, "battles"):
            rolled = roll(client, league, who, battle_roll(mover, battle))
            assert rolled.status_code == 201, (pre.name, rolled.get_data(as_text=True))
            data = json.loads(rolled.get_json()["body"])["data"]
            assert data["declared"]["number"] == battle["number"]
            if "findings" in data:  # a combat declaration error: fight it again
                void = json.loads(rolled.get_json()["body"])["seq"]
                assert [f["rule"] for f in data["findings"]] == ["IAAPA Error Correction II"]
                recognise(client, league, who, void)
                battles = get(client, league, "battles")
                again = next(b for b in battles if b["number"] == battle["number"])
                assert (again["void_rolls"], again["rolls"]) == ([void], [])
                rolled = roll(client, league, who, battle_roll(mover, again))
                data = json.loads(rolled.get_json()["body"])["data"]
            assert "findings" not in data, (pre.name, data["findings"])
        statuses = {b["status"] for b in get(client, league, "battles")}
        assert statuses <= {"in-progress", "must-pause", "decided"}
        done = submit(client, league, who, post.read_text())
        assert done.status_code == 201, (post.name, done.get_data(as_text=True))
        kept = get(client, league, "position")
        head = len(ledger(client, league))
        assert rebuilt(league, head) == kept, post.name
    assert get(client, league, "position")["turn"] == {
        "round": 2,
        "power": "USSR",
        "phase": "pre-combat",
    }
    kinds = [entry["kind"] for entry in ledger(client, league)]
    # Germany's Ukraine, declared before the USSR's dice emptied it, is void (Error
    # Correction II), recognised through the dice roller, and fought again: one roll more.
    assert kinds.count("submission") == 10 and kinds.count("roll") == 8
    assert kinds.count("note") == 1


def axis_at_84() -> dict[str, Any]:
    """The Classic position with enough Allied land handed to Germany (emptied of Allied
    units) for a combined Axis IPC count of 84, the US to move in round 4."""
    from adjudicator.position import load_json
    from adjudicator.powers import Power

    doc = initial_json()
    doc["round"], doc["to_move"] = 4, "USA"
    for territory, owner in sorted(doc["owners"].items()):
        position = load_json(doc)
        if position.ipc_count(Power.GERMANY) + position.ipc_count(Power.JAPAN) >= 84:
            break
        if owner in ("UK", "USSR") and territory != position.capital(Power.UK):
            if territory in ("Russia", "United Kingdom"):
                continue
            doc["owners"][territory] = "Germany"
            doc["units"].pop(territory, None)
    return doc


def test_magic_84_is_counted_after_the_us_turn(app: Any, ctx: Any) -> None:
    """IAAPA Rules Clarifications, MAGIC 84: "The Magic 84 count is performed immediately
    after the United States' turn. If after the United States' turn the total combined Axis
    IPC Count is 84 or higher the game is over." The count is recorded; the Minister or the
    players end the game."""
    from dice_server.services.completion import Offer, offer
    from dice_server.services.games import create_game
    from dice_server.services.members import add_member
    from dice_server.services.turns import game_position, submit_turn

    add_member(ctx, "axis@example.org", "Axis", confirmed=True)
    allies = add_member(ctx, "allies@example.org", "Allies", confirmed=True)
    number = create_game(
        ctx, axis="axis@example.org", allies="allies@example.org", position=axis_at_84()
    ).game_number
    us_pre = "USA 4 pre-combat\n\nPurchases: 2 INF ($6)\n\nNo combat this turn.\n"
    us_post = "USA 4 post-combat\n\nPlacement:\nEast US 2 INF\n"
    submit_turn(ctx, allies.id, number, {"text": us_pre})
    entry, report = submit_turn(ctx, allies.id, number, {"text": us_post})
    magic = json.loads(entry.body)["data"]["magic_84"]
    assert magic["axis_count"] >= 84 and magic["game_over"] == 1
    assert report["magic_84"] == magic
    turn = game_position(ctx, number, None)["turn"]
    assert turn == {"round": 5, "power": "USSR", "phase": "pre-combat"}
    # The game page offers the finish with the Axis as the winner ("entered by the victor").
    assert offer(ctx, number, allies.id) == Offer("allies", magic_84=True)


def test_a_retried_submission_returns_exactly_the_first_answer(
    client: FlaskClient, league: League
) -> None:
    def send(text: str, key: str) -> Any:
        return client.post(
            f"/api/v1/games/{league.game}/turns",
            data=json.dumps({"text": text}),
            headers={
                **league.auth("allies"),
                "Content-Type": "application/json",
                "Idempotency-Key": key,
            },
        )

    for text, key in ((USSR_PRE, "pre"), (USSR_POST, "post")):
        first = send(text, key)
        assert first.status_code == 201
        again = send(text, key)
        assert again.status_code == 201 and again.get_data() == first.get_data()
    assert len(ledger(client, league)) == 3
