"""`pbem ledger verify` and the downloadable verifier (scripts/verify_ledger.py, served at
/verifier.py) agree on every test ledger; tampering of every kind is caught; key rotation
keeps old entries verifiable."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from dice_server.cli import main
from dice_server.services.games import end_game, export_ledger
from dice_server.services.keys import published_keys, rotate_key
from dice_server.verifier import body_hash, canonical_json
from tests.conftest import League, battle

ROOT = Path(__file__).resolve().parents[2]
HEADER = {"round": 1, "turn": 1, "country": "Japan"}


def play(client: FlaskClient, league: League) -> None:
    def post(what: str, body: dict[str, Any], who: str = "axis") -> None:
        response = client.post(
            f"/api/v1/games/{league.game}/{what}", json=body, headers=league.auth(who)
        )
        assert response.status_code == 201, response.get_json()

    post("tech-rolls", {**HEADER, "dice": 6})
    post(
        "rolls",
        battle(
            country="Japan",
            battle="Hawaiian Islands Sea Zone",
            attacker=[{"unit": "FTR", "count": 2}, {"unit": "BB", "count": 1}],
            defender=[{"unit": "AC", "count": 1}, {"unit": "FTR", "count": 2}],
        ),
    )
    post("notes", {"topic": "special-orders", "text": "OOL: TRN, FTR, AC"}, who="allies")
    post("bombing-rolls", {**HEADER, "target": "West US", "bombers": 2, "aa": 1})
    post("rocket-rolls", {**HEADER, "target": "Australia", "from": "East Indies"})


def resign(league: League, body: dict[str, Any]) -> dict[str, str]:
    """What a dishonest server could do: sign a body of its choosing with its own key."""
    raw = canonical_json(body)
    signer = league.ctx.keys.signer
    return {"body": raw.decode(), "sig": signer.sign(raw), "key": signer.key_id}


def tampered(league: League, doc: dict[str, Any], how: str) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    entries = doc["entries"]
    if how == "flipped byte":
        entries[2]["body"] = entries[2]["body"].replace('"round":1', '"round":2', 1)
    elif how == "reordered":
        entries[2], entries[3] = entries[3], entries[2]
    elif how == "removed":
        del entries[3]
    elif how == "forged die, re-signed and re-chained":
        bodies = [json.loads(e["body"]) for e in entries]
        roll = bodies[2]
        assert roll["kind"] == "roll"
        roll["data"]["dice"][0] = roll["data"]["dice"][0] % 6 + 1
        roll["data"]["groups"][0]["dice"][0] = roll["data"]["dice"][0]
        group = roll["data"]["groups"][0]
        group["hits"] = sum(d <= group["hit_on"] for d in group["dice"])
        prev = json.loads(entries[1]["body"])
        prev_hash = body_hash(canonical_json(prev))
        for index in range(2, len(bodies)):
            bodies[index]["prev"] = prev_hash
            entries[index] = resign(league, bodies[index])
            prev_hash = body_hash(entries[index]["body"].encode())
    elif how == "back-dated":
        body = json.loads(entries[4]["body"])
        body["at"] = "2020-01-01T00:00:00.000000Z"
        entries[4] = resign(league, body)
    else:
        raise AssertionError(how)
    return doc


def both_verifiers(
    tmp_path: Path, doc: dict[str, Any], keys: dict[str, Any]
) -> tuple[int, int, str]:
    ledger_file, keys_file = tmp_path / "ledger.json", tmp_path / "keys.json"
    ledger_file.write_text(json.dumps(doc))
    keys_file.write_text(json.dumps(keys))
    cli = CliRunner().invoke(main, ["ledger", "verify", str(ledger_file), "--keys", str(keys_file)])
    standalone = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "verify_ledger.py"),
            str(ledger_file),
            "--keys",
            str(keys_file),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert cli.stdout == standalone.stdout
    return cli.exit_code, standalone.returncode, standalone.stdout


@pytest.mark.parametrize(
    ("how", "words"),
    [
        ("flipped byte", "signature does not verify"),
        ("reordered", "expected 3"),
        ("removed", "expected 4"),
        ("forged die, re-signed and re-chained", "dice differ from the revealed seed"),
        ("back-dated", "not after the previous"),
    ],
)
def test_both_verifiers_reject_tampering(
    client: FlaskClient, league: League, tmp_path: Path, how: str, words: str
) -> None:
    play(client, league)
    end_game(league.ctx, league.game, status="finished", winner="axis")
    doc = export_ledger(league.ctx, league.game, None)
    keys = published_keys(league.ctx)
    assert both_verifiers(tmp_path, doc, keys)[:2] == (0, 0)
    cli_code, standalone_code, output = both_verifiers(tmp_path, tampered(league, doc, how), keys)
    assert (cli_code, standalone_code) == (1, 1)
    assert words in output


def test_forged_die_is_caught_only_once_the_seed_is_revealed(
    client: FlaskClient, league: League, tmp_path: Path
) -> None:
    play(client, league)
    doc = export_ledger(league.ctx, league.game, None)
    keys = published_keys(league.ctx)
    forged = tampered(league, doc, "forged die, re-signed and re-chained")
    code, _, output = both_verifiers(tmp_path, forged, keys)
    assert code == 0 and "not yet checkable: 4 rolls" in output
    # The players hold the mailed originals, so the forger must also extend the chain the
    # same way; once the seed is revealed the forged die no longer matches.
    end_game(league.ctx, league.game, status="finished", winner="axis")
    reveal = export_ledger(league.ctx, league.game, None)["entries"][-1]
    body = json.loads(reveal["body"])
    body["prev"] = body_hash(forged["entries"][-1]["body"].encode())
    forged["entries"].append(resign(league, body))
    code, _, output = both_verifiers(tmp_path, forged, keys)
    assert code == 1 and "dice differ from the revealed seed" in output


def test_rotation_keeps_old_entries_verifiable(
    client: FlaskClient, league: League, tmp_path: Path
) -> None:
    old = league.ctx.keys.signer.key_id
    client.post(f"/api/v1/games/{league.game}/rolls", json=battle(), headers=league.auth("axis"))
    new = rotate_key(league.ctx, Path(client.application.instance_path))
    assert new.key_id != old and league.ctx.keys.signer.key_id == new.key_id
    client.post(f"/api/v1/games/{league.game}/rolls", json=battle(), headers=league.auth("axis"))
    end_game(league.ctx, league.game, status="finished", winner="allies")
    doc = export_ledger(league.ctx, league.game, None)
    assert [e["key"] for e in doc["entries"]] == [old, old, new.key_id, new.key_id]
    keys = client.get("/api/v1/keys").get_json()
    assert {k["id"] for k in keys["keys"]} == {old, new.key_id}
    assert both_verifiers(tmp_path, doc, keys)[:2] == (0, 0)
    # With only the new key published, the old entries cannot be checked.
    only_new = {"keys": [k for k in keys["keys"] if k["id"] == new.key_id]}
    code, _, output = both_verifiers(tmp_path, doc, only_new)
    assert code == 1 and f"unknown key {old!r}" in output


def test_rotate_from_the_command_line(tmp_path: Path) -> None:
    env = {
        "PBEM_INSTANCE_PATH": str(tmp_path / "i"),
        "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'k.sqlite3'}",
    }
    runner = CliRunner(env=env)
    runner.invoke(main, ["init"])
    runner.invoke(main, ["db", "upgrade"])
    before = json.loads(runner.invoke(main, ["keys", "show"]).stdout)
    rotated = runner.invoke(main, ["keys", "rotate"])
    assert rotated.exit_code == 0
    after = json.loads(runner.invoke(main, ["keys", "show"]).stdout)
    assert [k["id"] for k in after["keys"]] == [before["keys"][0]["id"], rotated.stdout.strip()]
    pem = tmp_path / "i" / "signing_key.pem"
    assert oct(pem.stat().st_mode & 0o777) == "0o600"
    assert sorted(p.name for p in (tmp_path / "i").iterdir()) == [
        "secret_key",
        "seed_key",
        "signing_key.pem",
    ]


def test_the_served_verifier_is_the_verifier(client: FlaskClient) -> None:
    response = client.get("/verifier.py")
    assert response.status_code == 200
    assert response.get_data() == (ROOT / "scripts" / "verify_ledger.py").read_bytes()
    assert "attachment" in response.headers["Content-Disposition"]
