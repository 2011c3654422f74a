"""Who moves next, and when the Axis economic victory is counted: the Classic turn order (facts
sheet, section 0) and IAAPA Rules Clarifications, MAGIC 84, as turns are played out."""

from __future__ import annotations

from typing import Any

from adjudicator.battle import Outcome
from adjudicator.notation import Turn, parse
from adjudicator.position import Position, arranged, initial
from adjudicator.powers import TURN_ORDER, Power
from adjudicator.turns import BattleOutcome, Finding, advance, replay_turns
from adjudicator.units import Units
from adjudicator.units import UnitType as U

UK, G, R, J, US = Power.UK, Power.GERMANY, Power.USSR, Power.JAPAN, Power.USA


def read(text: str) -> Turn:
    turn = parse(text)
    assert turn.errors == (), "the email itself must read cleanly"
    return turn


QUIET = {
    R: "USSR 1 post-combat\n\nPlacement:\nRussia 8 INF\n",
    G: "Germany 1 post-combat\n\nPlacement:\nGermany 10 INF\n",
    UK: "UK 1 post-combat\n\nPlacement:\nUK 10 INF\n",
    J: "Japan 1 post-combat\n\nPlacement:\nJapan 8 INF\n",
    US: "USA 1 post-combat\n\nPlacement:\nE US 12 INF\n",
}
"""A round of turns with no combat: each power spends (nearly) all it has on infantry."""


class TestTurnOrder:
    """Turn order: USSR, Germany, UK, Japan, USA. One cycle is a round.

    A round of quiet turns from the Classic opening: each turn hands the move to the next
    power, and the USA's hands it to the USSR in round 2."""

    def test_each_turn_hands_on_the_move(self) -> None:
        position = initial()
        seen = []
        for power in TURN_ORDER:
            assert (position.to_move, position.round) == (power, 1)
            turn = advance(position, None, read(QUIET[power]), {})
            assert (turn.power, turn.round) == (power, 1)
            position = turn.position
            seen.append((position.to_move, position.round))
        assert seen == [(G, 1), (UK, 1), (J, 1), (US, 1), (R, 2)]

    def test_the_ledger_rebuilds_the_round(self) -> None:
        records = [(None, read(QUIET[p]), {}) for p in TURN_ORDER]
        after = replay_turns(initial(), records)
        assert (after.to_move, after.round) == (R, 2)
        assert after.bank == {R: 24, G: 32 - 30 + 32, UK: 30, J: 25 - 24 + 25, US: 36}
        assert after.units_of("East US", US).count(U.INF) == 14


AXIS_85: dict[str, Power] = {
    "Russia": G,
    "Karelia S.S.R.": G,
    "Caucasus": G,
    "India": J,
    "China": J,
    "Kazakh S.S.R.": J,
    "Evenki National Okrug": J,
    "Yakut S.S.R.": J,
    "Soviet Far East": J,
    "Persia": J,
}
"""Germany 32 + 14 and Japan 25 + 14: an Axis IPC count of 85."""


def late_game(to_move: Power, *, china: Power = J) -> Position:
    """The board late in a game, China held by ``china`` (empty unless Japan's)."""
    units: dict[str, Any] = {
        "Sinkiang": {US: {U.INF: 2}},
        "Kwangtung": {J: {U.INF: 2}},
        "East US": {US: {U.IC: 1}},
    }
    if china is J:
        units["China"] = {J: {U.INF: 1}}
    owners = {**AXIS_85, "China": china}
    return arranged(units, owners=owners, to_move=to_move, round=6)


class TestMagic84:
    """The Magic 84 count is performed immediately after the United States' turn. If after
    the United States' turn the total combined Axis IPC Count is 84 or higher the game is
    over.

    Late in a game Germany and Japan hold land worth 85."""

    def test_the_axis_win_after_a_quiet_us_turn(self) -> None:
        turn = advance(late_game(US), None, read("USA 6 post-combat\n\nUSA 10/$34\n"), {})
        assert turn.magic84.performed and turn.magic84.axis_count == 85
        assert turn.game_over
        assert [f.code for f in turn.findings] == [Finding.MAGIC_84]
        assert (turn.position.to_move, turn.position.round) == (R, 7)

    def test_the_us_turn_retaking_china_saves_the_game(self) -> None:
        pre = "USA 6 pre-combat\n\nCombat moves:\nAttack #1 - China (1 INF)\nSink 2 INF\n"
        post = "USA 6 post-combat\n\nResults:\n#1 China: won, 1 INF left\n\nUSA 11/$36\n"
        verdict = BattleOutcome(Units.of({U.INF: 1}), Units(), Outcome.ATTACKER_WINS)
        turn = advance(late_game(US), read(pre), read(post), {1: verdict})
        assert turn.position.owner("China") is US
        assert turn.magic84.axis_count == 83 and not turn.game_over
        assert turn.findings == ()

    def test_no_count_after_japans_turn(self) -> None:
        """Japan walks into an empty China and reaches 85 in its own turn: no count then, and
        the game ends only when the USA's turn leaves it there."""
        start = late_game(J, china=US)
        pre = "Japan 6 pre-combat\n\nCombat moves:\nAttack #1 - China (WI)\nKwang 1 INF\n"
        japan = advance(start, read(pre), read("Japan 6 post-combat\n\nJapan 19/$39\n"), {})
        assert japan.position.ipc_count(G) + japan.position.ipc_count(J) == 85
        assert not japan.magic84.performed and not japan.game_over
        assert japan.findings == ()
        usa = advance(japan.position, None, read("USA 6 post-combat\n\nUSA 10/$34\n"), {})
        assert usa.game_over and usa.magic84.axis_count == 85
