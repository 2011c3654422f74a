"""TripleA's battle summaries pasted into a post-combat email (adjudicator.notation.summary):
each block is the result of the battle in its place."""

from __future__ import annotations

from adjudicator.notation import CombatOutcome, Units, parse
from adjudicator.units import UnitType as U

WON = """Germany 1 post-combat

Battle in Karelia S.S.R.
Germans attack with 6 infantry, 3 armour and 2 fighters
Russians defend with 3 infantry and 1 fighter
Germans win, taking Karelia S.S.R. from Russians with 4 infantry, 3 armour and 2 fighters \
remaining. Battle score for attacker is 13
Casualties for Germans: 2 infantry
Casualties for Russians: 3 infantry and 1 fighter

Battle in Baltic Sea Zone
Germans attack with 1 submarine
British defend with 1 transport
Germans win with 1 submarine remaining. Battle score for attacker is 8
Casualties for British: 1 transport
"""


def test_a_won_battle_is_read_with_its_survivors_and_losses() -> None:
    """Tried as a TripleA player: every line of the summary was 'mentions units but was not
    read', and the results were missing."""
    turn = parse(WON)
    assert [
        (r.line, r.number, r.territory, r.outcome, r.survivors, r.losses) for r in turn.results
    ] == [
        (
            6,
            None,
            "Karelia S.S.R.",
            CombatOutcome.WON,
            Units.of({U.INF: 4, U.ARM: 3, U.FTR: 2}),
            Units.of({U.INF: 2}),
        ),
        (13, None, "Baltic Sea Zone", CombatOutcome.WON, Units.of({U.SUB: 1}), Units()),
    ]
    assert turn.diagnostics == ()


def test_the_defender_winning_is_lost_or_retreated() -> None:
    turn = parse(
        "Battle in Egypt\nGermans attack with 1 infantry and 1 armour\n"
        "1 armour owned by the Germans retreated to Libya\n"
        "British win with 1 armour remaining. Battle score for attacker is -3\n"
        "Casualties for Germans: 1 infantry\n\n"
        "Battle in Ukraine\nRussians attack with 2 infantry\n"
        "Germans win with 1 infantry remaining\nCasualties for Russians: 2 infantry\n"
    )
    assert [
        (r.territory, r.outcome, r.survivors, r.losses, r.retreat_to) for r in turn.results
    ] == [
        ("Anglo Sudan Egypt", CombatOutcome.RETREATED, Units(), Units.of({U.INF: 1}), "Libya"),
        ("Ukraine S.S.R.", CombatOutcome.LOST, Units(), Units.of({U.INF: 2}), None),
    ]


def test_lines_like_a_summarys_outside_one_are_read_as_before() -> None:
    """No block is open until "Battle in <place>": a line that only looks like a summary's
    is read as any other."""
    turn = parse("NCM:\nGermans attack with 2 infantry\n")
    assert turn.results == ()
    assert [d.code for d in turn.diagnostics] == ["unknown-name"]  # a move, unreadable
