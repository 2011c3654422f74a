"""The `pbem` command line: results on stdout, messages on stderr, refusals exit non-zero."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dice_server.app import create_app
from dice_server.cli import main
from dice_server.keys import MissingKeys
from tests.conftest import Databases

Pbem = Callable[..., Result]


@pytest.fixture
def cli_env(databases: Databases, tmp_path: Path) -> dict[str, str]:
    """The environment of `pbem` commands: a fresh instance folder and database."""
    return {
        "PBEM_INSTANCE_PATH": str(tmp_path / "inst"),
        "PBEM_DATABASE_URL": databases.fresh(tmp_path, "cli.sqlite3"),
    }


@pytest.fixture
def pbem(cli_env: dict[str, str]) -> Pbem:
    runner = CliRunner(env=cli_env)

    def run(*args: str) -> Result:
        return runner.invoke(main, list(args), catch_exceptions=False)

    assert run("init").exit_code == 0
    assert run("db", "upgrade").exit_code == 0  # already at head: nothing to do
    return run


def test_init_makes_three_private_files_once(tmp_path: Path) -> None:
    runner = CliRunner(env={"PBEM_INSTANCE_PATH": str(tmp_path / "i")})
    first = runner.invoke(main, ["init"])
    assert first.exit_code == 0 and first.stdout == ""
    files = sorted(p.name for p in (tmp_path / "i").iterdir())
    assert files == ["secret_key", "seed_key", "signing_key.pem"]
    contents = {p: p.read_bytes() for p in (tmp_path / "i").iterdir()}
    for path in contents:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    second = runner.invoke(main, ["init"])
    assert second.exit_code == 0 and "already present" in second.stderr
    assert {p: p.read_bytes() for p in (tmp_path / "i").iterdir()} == contents


def test_the_app_refuses_to_start_without_its_keys(tmp_path: Path) -> None:
    with pytest.raises(MissingKeys, match="pbem init"):
        create_app({"INSTANCE_PATH": str(tmp_path / "empty")})
    runner = CliRunner(env={"PBEM_INSTANCE_PATH": str(tmp_path / "empty")})
    result = runner.invoke(main, ["keys", "show"])
    assert result.exit_code == 1 and "pbem init" in result.stderr and result.stdout == ""


def test_member_add_prints_only_the_token(pbem: Pbem) -> None:
    result = pbem("member", "add", "Rommel@Example.org", "--name", "Erwin", "--confirmed")
    assert result.exit_code == 0
    token = result.stdout.strip()
    assert len(token) >= 40 and "\n" not in token
    assert "added Rommel@example.org" in result.stderr
    again = pbem("member", "add", "rommel@EXAMPLE.ORG", "--name", "Erwin")
    assert again.exit_code == 1 and "already a member" in again.stderr and again.stdout == ""
    bad = pbem("member", "add", "not-an-address", "--name", "X")
    assert bad.exit_code == 1 and "not a valid address" in bad.stderr


def test_game_lifecycle_export_and_verify(pbem: Pbem, tmp_path: Path) -> None:
    pbem("member", "add", "a@example.org", "--name", "A", "--confirmed")
    pbem("member", "add", "b@example.org", "--name", "B", "--confirmed")
    created = pbem(
        "game",
        "create",
        "--axis",
        "a@example.org",
        "--allies",
        "B@example.org",
        "--number",
        "1042",
        "--variant",
        "destroyers",
        "--agreement",
        "no R1 attack",
    )
    assert created.exit_code == 0 and created.stdout.strip() == "1042"
    duplicate = pbem(
        "game", "create", "--axis", "a@example.org", "--allies", "b@example.org", "--number", "1042"
    )
    assert duplicate.exit_code == 1 and "already exists" in duplicate.stderr
    ended = pbem("game", "end", "1042", "--status", "finished", "--winner", "allies")
    assert ended.exit_code == 0
    reveal = json.loads(json.loads(ended.stdout)["body"])
    assert reveal["kind"] == "seed-reveal"
    assert reveal["data"]["rated"] == 0  # a variant is not rated
    assert reveal["data"]["winner"] == "allies"
    ledger = tmp_path / "ledger.json"
    keys = tmp_path / "keys.json"
    ledger.write_text(pbem("ledger", "export", "1042").stdout)
    keys.write_text(pbem("keys", "show").stdout)
    ok = pbem("ledger", "verify", str(ledger), "--keys", str(keys))
    assert ok.exit_code == 0 and "RESULT: OK" in ok.stdout
    # A flipped byte in a body fails verification.
    text = ledger.read_text()
    ledger.write_text(text.replace("destroyers", "destroyerz", 1))
    bad = pbem("ledger", "verify", str(ledger), "--keys", str(keys))
    assert bad.exit_code == 1 and "signature does not verify" in bad.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["game", "end", "77", "--status", "finished", "--winner", "axis"], "no game 77"),
        (["game", "end", "1", "--status", "annulled", "--winner", "axis"], "no winner"),
        (["game", "end", "1", "--status", "finished"], "needs --winner"),
        (["game", "create", "--axis", "a@example.org", "--allies", "a@example.org"], "both sides"),
        (
            ["game", "create", "--axis", "a@example.org", "--allies", "nobody@example.org"],
            "no member",
        ),
        (
            [
                "game",
                "create",
                "--axis",
                "a@example.org",
                "--allies",
                "b@example.org",
                "--number",
                "0",
            ],
            "number",
        ),
        (["ledger", "export", "5"], "no game 5"),
    ],
)
def test_refusals(pbem: Pbem, args: list[str], words: str) -> None:
    pbem("member", "add", "a@example.org", "--name", "A")
    pbem("member", "add", "b@example.org", "--name", "B")
    pbem("game", "create", "--axis", "a@example.org", "--allies", "b@example.org")
    result = pbem(*args)
    assert result.exit_code == 1, result.stdout
    assert words in result.stderr and result.stdout == ""


def test_annulled_game_is_not_rated(pbem: Pbem) -> None:
    pbem("member", "add", "a@example.org", "--name", "A")
    pbem("member", "add", "b@example.org", "--name", "B")
    number = pbem("game", "create", "--axis", "a@example.org", "--allies", "b@example.org").stdout
    ended = pbem("game", "end", number.strip(), "--status", "annulled", "--reason", "ruling 12")
    data = json.loads(json.loads(ended.stdout)["body"])["data"]
    assert (data["status"], data["rated"], data["reason"]) == ("annulled", 0, "ruling 12")
    finished_again = pbem("game", "end", number.strip(), "--status", "annulled")
    assert finished_again.exit_code == 1 and "already annulled" in finished_again.stderr


def test_turn_check_reads_a_file_or_stdin(tmp_path: Path) -> None:
    """IAAPA Precombat: "Attack #1 - W Europe (10 INF, AA) / UK 8 INF on UK SZ 4 TRN"."""
    turn = tmp_path / "turn.txt"
    turn.write_text("Attack #1 - W Europe (10 INF, AA)\nUK 8 INF on UK SZ 4 TRN\n")
    runner = CliRunner()
    result = runner.invoke(main, ["turn", "check", str(turn), "--json"])
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    (battle,) = doc["battles"]
    assert (doc["version"], battle["territory"], battle["attacker"], battle["defender"]) == (
        1,
        "West Europe",
        {"INF": 8},
        {"INF": 10, "AA": 1},
    )
    unreadable = runner.invoke(
        main, ["turn", "check", "-"], input="Attack #1 - W Europe (10 INF)\nUK 1O INF on UK SZ\n"
    )
    assert unreadable.exit_code == 1 and "can never be a typographical error" in unreadable.stdout
    missing = runner.invoke(main, ["turn", "check", str(tmp_path / "none.txt")])
    assert missing.exit_code == 2 and "cannot read" in missing.stderr


def test_battle_resolve_replays_the_recorded_dice(tmp_path: Path) -> None:
    """IAAPA Default Orders of Loss, land defending: "INF, ARM, BMB, FTR"; a defending BMB
    that can survive the round makes the attacker pause."""
    doc = {
        "version": 1,
        "kind": "land",
        "amphibious": 0,
        "attacker": {"INF": 3, "ARM": 1},
        "defender": {"INF": 2, "BMB": 1},
        "rounds": [
            {"attacker": {"INF": [1, 6, 6], "ARM": [2]}, "defender": {"INF": [2, 5], "BMB": [6]}}
        ],
    }
    battle_file = tmp_path / "battle.json"
    battle_file.write_text(json.dumps(doc))
    runner = CliRunner()
    result = runner.invoke(main, ["battle", "resolve", str(battle_file), "--json"])
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    (round_1,) = out["rounds"]
    assert (round_1["attacker_hits"], round_1["defender_hits"]) == (2, 1)
    assert round_1["defender_casualties"] == {"INF": 2}
    assert round_1["attacker_casualties"] == {"INF": 1}
    assert round_1["pause"]["reason"] == "bomber"
    assert out["outcome"] == "continues"
    text = runner.invoke(main, ["battle", "resolve", "-"], input=json.dumps(doc))
    assert text.exit_code == 0 and "PAUSE" in text.stdout
    bad = runner.invoke(main, ["battle", "resolve", "-"], input='{"version": 1, "kind": "x"}')
    assert bad.exit_code == 1 and bad.stderr.startswith("error:")
    assert runner.invoke(main, ["battle", "resolve", "-"], input="{").exit_code == 1


def test_battle_resolve_never_passes_a_provisional_result_as_final() -> None:
    """IAAPA Error Correction III, Too few units: "Roll for the missing units and then
    re-roll the remainder of the battle." Until then the result is not final: the text says
    so instead of an outcome, and the command exits 1."""
    doc = {
        "version": 1,
        "kind": "land",
        "attacker": {"INF": 3},
        "defender": {"INF": 2},
        "rounds": [{"attacker": {"INF": [1, 6]}, "defender": {"INF": [5, 5]}}],
    }
    runner = CliRunner()
    text = runner.invoke(main, ["battle", "resolve", "-"], input=json.dumps(doc))
    assert text.exit_code == 1
    assert "Provisional outcome, NOT FINAL" in text.stdout and "\nOutcome" not in text.stdout
    assert "provisional" in text.stderr
    as_json = runner.invoke(main, ["battle", "resolve", "-", "--json"], input=json.dumps(doc))
    assert as_json.exit_code == 1 and json.loads(as_json.stdout)["final"] == 0
    helped = runner.invoke(main, ["battle", "resolve", "--help"])
    assert '"rounds": [{"aa": [5, 1],' in helped.stdout and "Exits 0 with a final" in helped.stdout


def test_member_password_from_stdin(pbem: Pbem, cli_env: dict[str, str]) -> None:
    pbem("member", "add", "law@example.org", "--name", "Law", "--role", "minister", "--confirmed")
    runner = CliRunner(env=cli_env)
    short = runner.invoke(main, ["member", "password", "law@example.org"], input="short\n")
    assert short.exit_code == 1 and "10 to 200 characters" in short.stderr
    done = runner.invoke(
        main, ["member", "password", "law@example.org"], input="a-long-enough-password\n"
    )
    assert done.exit_code == 0 and done.stdout == ""
    app = create_app(
        {
            "INSTANCE_PATH": cli_env["PBEM_INSTANCE_PATH"],
            "DATABASE_URL": cli_env["PBEM_DATABASE_URL"],
        }
    )
    from dice_server.services.accounts import authenticate

    member = authenticate(
        app.extensions["pbem"], "law@example.org", "a-long-enough-password", "test"
    )
    assert member.is_minister
    app.extensions["pbem"].sessions.kw["bind"].dispose()


def test_position_initial_and_declarations_checked_against_it(tmp_path: Path) -> None:
    """IAAPA Error Correction II: "If a player makes a CDE by sending more than the available
    number of attacking units from the same territory into multiple battles, ALL battles
    involving the affected units from that attacking territory will be considered null and
    void"."""
    runner = CliRunner()
    initial = runner.invoke(main, ["position", "initial"])
    assert initial.exit_code == 0
    position = json.loads(initial.stdout)
    assert position["banks"] == {"USSR": 24, "Germany": 32, "UK": 30, "Japan": 25, "USA": 36}
    saved = tmp_path / "position.json"
    saved.write_text(initial.stdout)
    good = tmp_path / "good.txt"
    good.write_text(
        "USSR 1 precombat\nAttack #1 - East Europe (3 INF, 1 ARM, 1 FTR)\n"
        "Kar 3 INF, 1 ARM\nKar 1 FTR (land Karelia)\n"
    )
    result = runner.invoke(main, ["turn", "check", str(good), "--position", str(saved), "--json"])
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout)["summary"]["errors"] == 0
    bad = tmp_path / "bad.txt"
    bad.write_text(
        "USSR 1 precombat\nAttack #1 - East Europe (3 INF, 1 ARM, 1 FTR)\n"
        "Kar 3 INF, 1 ARM\nAttack #2 - Ukraine (3 INF, 2 ARM, 1 FTR)\nKar 1 INF\n"
    )
    result = runner.invoke(main, ["turn", "check", str(bad), "--initial", "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["void_battles"] == [1, 2]
    assert {d["code"] for d in report["diagnostics"] if d["severity"] == "error"} == {
        "over-committed"
    }
    text = runner.invoke(main, ["turn", "check", str(bad), "--initial"])
    assert text.exit_code == 1
    assert "Void battles: #1 East Europe, #2 Ukraine S.S.R." in text.stdout
    text = runner.invoke(main, ["turn", "check", str(good), "--position", str(saved)])
    assert text.exit_code == 0 and "Void battles: none" in text.stdout
    # Without a position, nothing about the board is claimed.
    plain = runner.invoke(main, ["turn", "check", str(bad), "--json"])
    assert plain.exit_code == 0 and "void_battles" not in json.loads(plain.stdout)
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**position, "version": 9}))
    refused = runner.invoke(main, ["turn", "check", str(good), "--position", str(broken)])
    assert refused.exit_code == 2 and "error: the position" in refused.stderr


def test_a_game_from_a_position_file_and_its_position(pbem: Pbem, tmp_path: Path) -> None:
    """`pbem game create --position FILE` starts a game (a variant, a game moved from
    elsewhere) from a position; `pbem game position N` prints it with whose turn it is."""
    from adjudicator.position import initial_json

    pbem("member", "add", "rommel@example.org", "--name", "Rommel", "--confirmed")
    pbem("member", "add", "monty@example.org", "--name", "Monty", "--confirmed")
    start = initial_json()
    start["round"], start["to_move"] = 3, "UK"
    start["banks"]["UK"] = 41
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps(start))
    made = pbem(
        "game",
        "create",
        "--axis",
        "rommel@example.org",
        "--allies",
        "monty@example.org",
        "--position",
        str(moved),
    )
    assert made.exit_code == 0, made.stderr
    number = made.stdout.strip()
    shown = json.loads(pbem("game", "position", number).stdout)
    assert shown["turn"] == {"round": 3, "power": "UK", "phase": "pre-combat"}
    assert shown["position"]["banks"]["UK"] == 41
    assert json.loads(pbem("game", "position", number, "--at", "1").stdout) == shown
    listed = pbem("game", "list").stdout
    assert f"{number}\tactive\tRommel <rommel@example.org> (Axis)" in listed
    assert "round 3, UK pre-combat" in listed
    members = pbem("member", "list").stdout.splitlines()
    assert members == [
        "monty@example.org\tMonty\tplayer\tconfirmed",
        "rommel@example.org\tRommel\tplayer\tconfirmed",
    ]
    not_a_position = tmp_path / "bad.json"
    not_a_position.write_text('{"version": 1, "kind": "position", "round": 0}')
    refused = pbem(
        "game",
        "create",
        "--axis",
        "rommel@example.org",
        "--allies",
        "monty@example.org",
        "--position",
        str(not_a_position),
    )
    assert refused.exit_code == 2 and "not a position" in refused.stderr
    assert pbem("game", "list").stdout == listed
    missing = pbem("game", "position", "99")
    assert missing.exit_code == 1 and "there is no game 99" in missing.stderr
