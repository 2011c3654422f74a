"""The ledger feeds the engine: battles rolled through the service, replayed from the
exported ledger by `pbem battle replay`, and read the same way in the roll's mail and page.

The dice are real (the game's seed), so the tests roll until the case they need comes up and
compute what the rules say from the recorded dice on their own.
"""

from __future__ import annotations

import email
import json
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask

from adjudicator.battle import resolve_json
from dice_server.cli import main
from dice_server.ledger import SignedEntry
from dice_server.mail.delivery import Courier, deliver_due
from dice_server.services.games import end_game, export_ledger
from dice_server.services.rolls import roll_battle
from tests.conftest import League, battle, logged_in

ROLLERS = (1, 2, 3)
"""The axis and allies players and the mentor: each may roll (and each has his own limit of
entries per game, so a long search for a case stays within the limits)."""

BOMBER_FIRST = battle(
    country="Germany",
    battle="Karelia S.S.R.",
    attacker=[
        {"unit": "INF", "count": 2},
        {"unit": "BMB", "count": 2},
        {"unit": "FTR", "count": 2},
    ],
    defender=[{"unit": "INF", "count": 3}, {"unit": "AA", "count": 1}],
    comment="",
)


def body(entry: SignedEntry) -> dict[str, Any]:
    obj: dict[str, Any] = json.loads(entry.body)
    return obj


def roll_until(league: League, request: dict[str, Any], wanted: Any) -> dict[str, Any]:
    """Roll ``request`` until ``wanted(data)`` holds; the entry's body."""
    for attempt in range(150):
        entry = roll_battle(league.ctx, ROLLERS[attempt % 3], league.game, request)
        obj = body(entry)
        if wanted(obj["data"]):
            return obj
    pytest.fail("the case never came up in 150 real rolls")


def groups(data: dict[str, Any]) -> dict[tuple[str, str, str | None], list[int]]:
    return {(g["side"], g["unit"], g.get("target")): g["dice"] for g in data["groups"]}


def bomber_die_hit(data: dict[str, Any]) -> bool:
    """An AA die thrown for a bomber is a 1, and no more AA hits than fighters."""
    dice = groups(data)
    aa_bmb, aa_ftr = dice[("defender", "AA", "BMB")], dice[("defender", "AA", "FTR")]
    return 1 in aa_bmb and (aa_bmb + aa_ftr).count(1) <= 2


def export(league: League, tmp_path: Path) -> Path:
    path = tmp_path / "ledger.json"
    path.write_text(json.dumps(export_ledger(league.ctx, league.game, None)))
    return path


def replay_cli(ledger: Path, *args: str) -> Any:
    return CliRunner().invoke(main, ["battle", "replay", str(ledger), *args])


def test_a_bomber_listed_before_the_fighters(app: Flask, league: League, tmp_path: Path) -> None:
    """Classic combat sequence: "the attacker picks which plane dies"; by the default order
    (INF, ARM, FTR, BMB) a fighter dies even when the 1 is on an AA die thrown for the
    bomber, and the bomber's own dice count."""
    obj = roll_until(league, BOMBER_FIRST, bomber_die_hit)
    data = obj["data"]
    dice = groups(data)
    assert [g.get("target") for g in data["groups"][:2]] == ["BMB", "FTR"]
    aa_hits = (dice[("defender", "AA", "BMB")] + dice[("defender", "AA", "FTR")]).count(1)
    fighters = dice[("attacker", "FTR", None)]
    expected_attack = (
        sum(d <= 1 for d in dice[("attacker", "INF", None)])
        + sum(d <= 4 for d in dice[("attacker", "BMB", None)])
        + sum(d <= 3 for d in fighters[: len(fighters) - aa_hits])
    )
    expected_defence = aa_hits + sum(d <= 2 for d in dice[("defender", "INF", None)])

    ledger = export(league, tmp_path)
    replayed = replay_cli(ledger, "--seq", str(obj["seq"]), "--json")
    assert replayed.exit_code == 0, replayed.output
    out = json.loads(replayed.stdout)
    first = out["rounds"][0]
    assert first["aa_hits"] == aa_hits
    assert (first["attacker_hits"], first["defender_hits"]) == (expected_attack, expected_defence)
    assert out["start"] == {
        "attacker": {"INF": 2, "FTR": 2, "BMB": 2},
        "defender": {"INF": 3, "AA": 1},
    }

    # Exactly what `pbem battle resolve --json` prints for that battle, written by hand.
    document = {
        "version": 1,
        "name": "Karelia S.S.R.",
        "kind": "land",
        "attacker": {"INF": 2, "BMB": 2, "FTR": 2},
        "defender": {"INF": 3, "AA": 1},
        "rounds": [
            {
                "aa": dice[("defender", "AA", "BMB")] + dice[("defender", "AA", "FTR")],
                "attacker": {
                    "INF": dice[("attacker", "INF", None)],
                    "BMB": dice[("attacker", "BMB", None)],
                    "FTR": fighters,
                },
                "defender": {"INF": dice[("defender", "INF", None)]},
            }
        ],
    }
    path = tmp_path / "battle.json"
    path.write_text(json.dumps(document))
    resolved = CliRunner().invoke(main, ["battle", "resolve", str(path), "--json"])
    assert resolved.stdout == replayed.stdout
    assert out == resolve_json(document)
    text = replay_cli(ledger, "--seq", str(obj["seq"]))
    assert text.stdout.startswith("Karelia S.S.R.: Land battle: 2 INF, 2 FTR, 2 BMB v. ")

    # The roll's page and mail read the round the same way.
    client = logged_in(app, league.ctx, "axis@example.org")
    page = client.get(f"/games/{league.game}/entries/{obj['seq']}").get_data(as_text=True)
    reading = f"Hits: attacker {expected_attack}, defender {expected_defence}"
    assert reading in page
    assert f"the attacker loses {aa_hits} FTR" in page
    mail = mailed_entry(app, league, obj["seq"])
    assert reading in mail and f"the attacker loses {aa_hits} FTR" in mail
    assert "(thrown at the BMB; the attacker picks which aircraft a hit removes)" in mail


def mailed_entry(app: Flask, league: League, seq: int) -> str:
    """The text of the mail announcing entry ``seq``, delivered to the maildir."""
    config = {**app.config, "MAIL_TRANSPORT": "maildir"}
    deliver_due(Courier.from_config(league.ctx, config, Path(app.instance_path)))
    for path in (Path(app.instance_path) / "maildir" / "new").iterdir():
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        assert isinstance(msg, EmailMessage)
        if f"] #{seq} " in str(msg["Subject"]):
            part = msg.get_body(preferencelist=("plain",))
            assert part is not None
            return str(part.get_content())
    raise AssertionError(f"no mail for entry #{seq}")


SEA = {
    "country": "UK",
    "battle": "Baltic Sea Zone",
    "comment": "",
    "defender": [{"unit": "TRN", "count": 1}, {"unit": "BB", "count": 2}],
}


def test_a_sea_battle_from_its_subs_first_and_main_rolls(league: League, tmp_path: Path) -> None:
    """IAAPA Using the Dice Server: "If a naval battle has an attacking sub, the attacker
    MAY, at his discretion, roll for the sub first": the subs-first entry and the main roll
    after it are one round; the next entry is round 2. Entries are read in seq order."""
    subs = roll_battle(
        league.ctx,
        1,
        league.game,
        battle(
            **SEA,
            attacker=[{"unit": "SUB", "count": 2}, {"unit": "BB", "count": 1}],
            options=["subs-first"],
        ),
    )
    main = roll_battle(
        league.ctx,
        1,
        league.game,
        battle(**SEA, attacker=[{"unit": "BB", "count": 1}]),
    )
    again = roll_battle(
        league.ctx,
        1,
        league.game,
        battle(**SEA, round=2, attacker=[{"unit": "SUB", "count": 2}, {"unit": "BB", "count": 1}]),
    )
    ledger = export(league, tmp_path)
    seqs = [body(e)["seq"] for e in (subs, main, again)]
    document = replay_cli(ledger, *[f"--seq={s}" for s in reversed(seqs)], "--document")
    assert document.exit_code == 0, document.output
    doc = json.loads(document.stdout)
    first, main_data, second = (body(e)["data"] for e in (subs, main, again))
    assert doc["kind"] == "sea" and doc["attacker"] == {"SUB": 2, "BB": 1}
    assert doc["rounds"][0]["subs"] == first["dice"]
    assert doc["rounds"][0]["attacker"] == {"BB": main_data["groups"][0]["dice"]}
    assert doc["rounds"][0]["defender"]["BB"] == main_data["groups"][2]["dice"]
    assert doc["rounds"][1]["attacker"]["SUB"] == second["groups"][0]["dice"]
    replayed = replay_cli(ledger, *[f"--seq={s}" for s in seqs], "--json")
    assert json.loads(replayed.stdout) == resolve_json(doc)
    assert replayed.exit_code == (1 if json.loads(replayed.stdout)["final"] == 0 else 0)


def test_entries_of_two_battles_are_refused(league: League, tmp_path: Path) -> None:
    one = body(roll_battle(league.ctx, 1, league.game, battle()))["seq"]
    other = body(roll_battle(league.ctx, 1, league.game, battle(battle="Norway")))["seq"]
    ledger = export(league, tmp_path)
    refused = replay_cli(ledger, "--seq", str(one), "--seq", str(other))
    assert refused.exit_code == 1
    assert f"entry #{other}: the battle 'Norway', not 'West Europe'" in refused.stderr
    genesis = replay_cli(ledger, "--seq", "1")
    assert genesis.exit_code == 1 and "a 'genesis' entry, not a battle roll" in genesis.stderr
    missing = replay_cli(ledger, "--seq", "99")
    assert missing.exit_code == 1 and "no entry #99" in missing.stderr


def test_old_entries_saying_russia_still_read(league: League) -> None:
    """README, "Power names": new entries say USSR; a request may still say Russia."""
    entry = roll_battle(league.ctx, 1, league.game, battle(country="Russia"))
    assert body(entry)["data"]["country"] == "USSR"


def test_the_roller_says_at_once_that_a_game_has_ended(app: Flask, league: League) -> None:
    """A roll in an ended game is refused; the form is not offered in the first place."""
    end_game(league.ctx, league.game, status="finished", winner="axis")
    client = logged_in(app, league.ctx, "axis@example.org")
    for what in ("roll", "tech", "bombing", "rocket"):
        page = client.get(f"/games/{league.game}/{what}")
        text = page.get_data(as_text=True)
        assert page.status_code == 200
        assert f"Game {league.game} has ended (finished, axis won)" in text
        assert 'name="nonce"' not in text
    note = client.get(f"/games/{league.game}/note").get_data(as_text=True)
    assert "has ended" not in note and 'name="nonce"' in note
