"""Post-combat results and remarks written in words, as players really write them (issue 14,
point 5): each class's docstring opens with the rule it applies, quoted (checked below)."""

from __future__ import annotations

import pytest

from adjudicator.notation import CombatOutcome, Severity, Turn, Units
from adjudicator.units import UnitType as U
from tests.conformance.cases import NotationCase, Read, class_openings


def _results(turn: Turn) -> list[tuple[int | None, CombatOutcome, Units, Units]]:
    """Each result read: its battle's number, the outcome, the survivors, the losses."""
    return [(r.number, r.outcome, r.survivors, r.losses) for r in turn.results]


class TestPostCombatResults(NotationCase):
    """The attacker will then send a final e-mail indicating the results of combat, his
    non-combat moves, a map update (This is a list that contains all territories that said
    country has units in and/or possesses), and give a territory and IPC count.

    (IAAPA Declaration and Battle Resolution Procedures, Post Combat Orders.) A result says
    how the battle ended; words for casualties ("lost my sub") never make survivors, and when
    they are all a result says, the engine says how it read them rather than guess silently.
    """

    def test_lost_my_sub_is_a_casualty_not_a_survivor(self, read: Read) -> None:
        """Issue 14: "Attack #2 - Baltic SZ: lost my sub" was read as 1 SUB surviving."""
        turn = read("Results:\nAttack #2 - Baltic SZ: lost my sub")
        (result,) = turn.results
        assert (result.outcome, result.survivors, result.losses) == (
            CombatOutcome.LOST,
            Units(),
            Units.of({U.SUB: 1}),
        )
        assert [(d.severity, d.code) for d in turn.diagnostics] == [
            (Severity.WARNING, "unstated-outcome")
        ]

    def test_the_defenders_casualties_are_neither_losses_nor_survivors(self, read: Read) -> None:
        """Tried as a new player: "lost my sub, killed their trn" counted the defender's
        transport among the attacker's losses."""
        turn = read(
            "Results:\n#2 W Can SZ: lost my sub, killed their trn\n"
            "#1 Baltic SZ: won, sank 2 TRN and 1 BB, 1 SUB left\n"
            "#3 Karelia: won, killed 3 inf, 2 arm, 1 inf left\n"
            "#4 Ukraine: won; their ftr died, 2 ARM left\n"
        )
        assert _results(turn) == [
            (2, CombatOutcome.LOST, Units(), Units.of({U.SUB: 1})),
            (1, CombatOutcome.WON, Units.of({U.SUB: 1}), Units()),
            (3, CombatOutcome.WON, Units.of({U.INF: 1}), Units()),
            (4, CombatOutcome.WON, Units.of({U.ARM: 2}), Units()),
        ]
        assert [(d.line, d.code) for d in turn.diagnostics] == [(2, "unstated-outcome")]

    def test_the_defenders_casualties_named_by_their_power(self, read: Read) -> None:
        """Tried as a new player (Germany): "won, sank the UK BB, 1 sub left" counted the
        British battleship among Germany's survivors, silently; "UK bb sunk, my sub
        survived" was read as lost, the battleship Germany's loss. A power of the other
        side names the defender's units; after "sank" any power does ("sank the UK BB"
        with no title). Without the outcome, the defender's losses and the attacker's
        survivors are read as won, and the engine says so."""
        turn = read(
            "Germany 1 post-combat\nResults:\n#1 North Sea: won, sank the UK BB, 1 sub left\n"
            "#2 Baltic SZ: UK bb sunk, my sub survived\n"
            "#3 Karelia: killed the Russian inf, 2 arm remain\n"
            "#4 UK SZ: won, 1 SUB survives, German TRN sunk\n"
        )
        assert _results(turn) == [
            (1, CombatOutcome.WON, Units.of({U.SUB: 1}), Units()),
            (2, CombatOutcome.WON, Units.of({U.SUB: 1}), Units()),
            (3, CombatOutcome.WON, Units.of({U.ARM: 2}), Units()),
            (4, CombatOutcome.WON, Units.of({U.SUB: 1}), Units.of({U.TRN: 1})),
        ]
        assert [(d.line, d.code) for d in turn.diagnostics] == [
            (4, "unstated-outcome"),
            (5, "unstated-outcome"),
        ]
        untitled = read("Results:\n#1 North Sea: sank the UK BB, 1 sub left\n")
        assert [(r.outcome, r.survivors) for r in untitled.results] == [
            (CombatOutcome.WON, Units.of({U.SUB: 1}))
        ]

    def test_results_as_new_players_write_them(self, read: Read) -> None:
        """Found by a helper writing 125 post-combat emails as new players: each of these
        swapped or merged the survivors and the losses, silently. A sentence ends a unit
        list ("won with 3 inf. Killed 1 ftr."), so does a semicolon; "Lost:" and "Dead:"
        head losses, "rest OK" and "still there" survivors; "no losses" and "w/o losses"
        say none were lost; "all dead" that every attacker was; "destroyed 1 inf 1 arm"
        are the defender's, and so are the units the defender lost."""
        turn = read(
            "Results:\n#1 Ukraine: won with 3 inf. Killed 1 ftr.\n"
            "#2 W Europe: won with 6 inf, 2 arm; 1 inf lost\n"
            "#3 India: won, no losses, 4 inf 2 arm\n"
            "#4 Karelia: won: 6 inf, 2 arm. Lost: 2 inf.\n"
            "#5 Karelia : WON | left: 5 inf 2 arm | lost: 2 inf\n"
            "#6 Hawaii SZ: won. lost 1 ftr, rest OK (2 ftr, 1 AC, 1 BB)\n"
            "#7 China - won, lost 1 inf, 2 inf still there\n"
            "#8 Kazakh: took it w/o losses - 2 arm\n"
            "#9 Ukraine: lost :( all dead (3 inf, 2 arm)\n"
            "#10 Libya: won, destroyed 1 inf 1 arm, 1 arm left\n"
            "#11 Caucasus: defender lost 2 inf, we lost everything\n"
        )
        assert _results(turn) == [
            (1, CombatOutcome.WON, Units.of({U.INF: 3}), Units()),
            (2, CombatOutcome.WON, Units.of({U.INF: 6, U.ARM: 2}), Units.of({U.INF: 1})),
            (3, CombatOutcome.WON, Units.of({U.INF: 4, U.ARM: 2}), Units()),
            (4, CombatOutcome.WON, Units.of({U.INF: 6, U.ARM: 2}), Units.of({U.INF: 2})),
            (5, CombatOutcome.WON, Units.of({U.INF: 5, U.ARM: 2}), Units.of({U.INF: 2})),
            (
                6,
                CombatOutcome.WON,
                Units.of({U.FTR: 2, U.AC: 1, U.BB: 1}),
                Units.of({U.FTR: 1}),
            ),
            (7, CombatOutcome.WON, Units.of({U.INF: 2}), Units.of({U.INF: 1})),
            (8, CombatOutcome.WON, Units.of({U.ARM: 2}), Units()),
            (9, CombatOutcome.LOST, Units(), Units.of({U.INF: 3, U.ARM: 2})),
            (10, CombatOutcome.WON, Units.of({U.ARM: 1}), Units()),
            (11, CombatOutcome.LOST, Units(), Units()),
        ]

    def test_a_captured_aa_gun_or_complex_is_no_survivor(self, read: Read) -> None:
        """Tried as a new player: "1 inf, 1 arm left; AA captured" counted the Chinese AA
        gun among Japan's surviving attackers."""
        turn = read(
            "Results:\n#3 Kwangtung: taken - 1 inf, 1 arm left; AA captured\n"
            "#1 Karelia: won with 2 inf, captured AA and IC\n"
        )
        assert [(r.number, r.outcome, r.survivors) for r in turn.results] == [
            (3, CombatOutcome.WON, Units.of({U.INF: 1, U.ARM: 1})),
            (1, CombatOutcome.WON, Units.of({U.INF: 2})),
        ]
        assert turn.diagnostics == ()

    def test_casualties_after_the_outcome_need_no_warning(self, read: Read) -> None:
        turn = read("Results:\n#2 Baltic SZ: cleared, lost my sub\n#3 Egypt: failed, lost 2 INF")
        assert [(r.outcome, r.survivors, r.losses) for r in turn.results] == [
            (CombatOutcome.WON, Units(), Units.of({U.SUB: 1})),
            (CombatOutcome.LOST, Units(), Units.of({U.INF: 2})),
        ]
        assert turn.diagnostics == ()

    def test_the_losses_then_the_survivors_in_one_result(self, read: Read) -> None:
        """A loss, then the survivors, in one line: "Lost 1 FTR. 1 AC, 2 FTR remain." was
        read as 3 FTR and the AC surviving, the fighter lost counted with them."""
        turn = read(
            "Results:\n#1 Hawaii SZ: Won. Lost 1 FTR. 1 AC, 2 FTR remain.\n"
            "#2 Karelia: won; lost 1 sub, 2 INF left\n"
        )
        assert [(r.outcome, r.survivors, r.losses) for r in turn.results] == [
            (CombatOutcome.WON, Units.of({U.AC: 1, U.FTR: 2}), Units.of({U.FTR: 1})),
            (CombatOutcome.WON, Units.of({U.INF: 2}), Units.of({U.SUB: 1})),
        ]
        assert turn.diagnostics == ()

    def test_where_the_lost_end_and_the_left_begin_is_told_when_unclear(self, read: Read) -> None:
        """...the engine says how it read them rather than guess silently: "lost 2 INF, 1
        ARM, 3 FTR left" could end the losses after any of the three."""
        turn = read("Results:\n#1 Karelia: won, lost 2 INF, 1 ARM, 3 FTR left\n")
        (result,) = turn.results
        assert (result.survivors, result.losses) == (
            Units.of({U.ARM: 1, U.FTR: 3}),
            Units.of({U.INF: 2}),
        )
        assert [(d.severity, d.code) for d in turn.diagnostics] == [
            (Severity.WARNING, "unclear-survivors")
        ]

    def test_a_remark_in_brackets_after_the_survivors_adds_none(self, read: Read) -> None:
        """Tried as a new player: "won, 5 inf, 4 arm, 2 ftr, 1 bmb left (AA got a fighter)"
        was read as 3 FTR and an AA surviving. Brackets after the survivors, once a word
        closes their list ("left"), are a remark; brackets naming losses still give them,
        and survivors written in brackets are still the survivors."""
        turn = read(
            "Results:\n#1 Karelia - won, 5 inf, 4 arm, 2 ftr, 1 bmb left (AA got a fighter)\n"
            "#2 Ukraine: won, 2 inf left (lost 1 arm)\n#3 Egypt: won (3 inf, 1 arm left)\n"
        )
        assert [(r.outcome, r.survivors, r.losses) for r in turn.results] == [
            (CombatOutcome.WON, Units.of({U.INF: 5, U.ARM: 4, U.FTR: 2, U.BMB: 1}), Units()),
            (CombatOutcome.WON, Units.of({U.INF: 2}), Units.of({U.ARM: 1})),
            (CombatOutcome.WON, Units.of({U.INF: 3, U.ARM: 1}), Units()),
        ]
        assert turn.diagnostics == ()

    def test_both_is_two(self, read: Read) -> None:
        """Tried as a new player: "lost (both inf died)" was read as 1 INF lost, and the
        dice, which took both, were said to differ from the email."""
        turn = read("Results:\n#3 India: lost (both inf died)\n#4 Baltic SZ: won, both subs left")
        assert [(r.outcome, r.survivors, r.losses) for r in turn.results] == [
            (CombatOutcome.LOST, Units(), Units.of({U.INF: 2})),
            (CombatOutcome.WON, Units.of({U.SUB: 2}), Units()),
        ]
        assert turn.diagnostics == ()

    def test_what_units_did_and_losses_before_a_semicolon(self, read: Read) -> None:
        """Tried as a new player (Japan's round 2): "2 inf landed, 1 inf survived. BB
        bombarded (hit)." was read as 3 INF and the BB surviving, and "lost 1 ftr; AC + BB +
        1 ftr remain" as 2 FTR surviving. Units that "landed" or "bombarded" are neither
        survivors nor losses; a semicolon ends the losses as a full stop does."""
        turn = read(
            "Results:\n1) Hawaiian Islands - amphib, won: 2 inf landed, 1 inf survived. "
            "BB bombarded (hit).\n2) Hawaii SZ: sea battle won, lost 1 ftr; AC + BB + 1 ftr "
            "remain\n"
        )
        assert [(r.outcome, r.survivors, r.losses) for r in turn.results] == [
            (CombatOutcome.WON, Units.of({U.INF: 1}), Units()),
            (
                CombatOutcome.WON,
                Units.of({U.FTR: 1, U.AC: 1, U.BB: 1}),
                Units.of({U.FTR: 1}),
            ),
        ]
        assert turn.diagnostics == ()

    def test_every_attacker_destroyed_is_lost_without_doubt(self, read: Read) -> None:
        turn = read("Results:\n#4 Egypt: all my units died\n#5 Norway: lost everything")
        assert [(r.outcome, r.survivors) for r in turn.results] == [
            (CombatOutcome.LOST, Units()),
            (CombatOutcome.LOST, Units()),
        ]
        assert turn.diagnostics == ()


class TestTypographicalErrors(NotationCase):
    """In all cases, the correct word must be readily decipherable.

    (IAAPA Error Correction VI.) A remark between the orders ("Rolling Ukraine first.") is no
    order at all: it is noted, never an error. A line that is an order (a count and a unit)
    whose place is not decipherable stays an error.
    """

    def test_a_remark_between_battles_is_a_note(self, read: Read) -> None:
        turn = read(
            "Combat moves:\nAttack #1 - Ukraine (2 INF)\nCauc 3 INF\nRolling Ukraine first.\n"
            "Attack #2 - E Europe (3 INF)\nKar 3 INF"
        )
        assert [b.number for b in turn.battles] == [1, 2]
        assert [(d.line, d.severity, d.code) for d in turn.diagnostics] == [
            (4, Severity.INFO, "not-read")
        ]

    def test_an_order_with_an_undecipherable_place_is_an_error(self, read: Read) -> None:
        turn = read("Combat moves:\nAttack #1 - Ukraine (2 INF)\nCauc 3 INF\nKrasnodar 2 ARM")
        assert [(d.line, d.severity, d.code) for d in turn.diagnostics] == [
            (4, Severity.ERROR, "unknown-name")
        ]


@pytest.mark.parametrize(("name", "quote"), class_openings(__file__))
def test_each_class_quotes_the_rule_book(rules_text: str, name: str, quote: str) -> None:
    assert len(quote) > 40 and " ".join(quote.split()) in " ".join(rules_text.split()), name
