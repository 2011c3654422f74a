"""Results, non-combat moves, placements, the map update and the count
(adjudicator.notation.results and adjudicator.notation.postcombat)."""

from __future__ import annotations

import pytest

from adjudicator.notation import CombatOutcome, Turn, TurnKind, Units, parse
from adjudicator.powers import Power
from adjudicator.units import UnitType

U = UnitType


def codes(turn: Turn) -> list[tuple[int, str, str]]:
    return [(d.line, d.severity.value, d.code) for d in turn.diagnostics]


@pytest.mark.parametrize(
    ("written", "power", "territories", "ipcs", "marked"),
    [
        ("UK 30/$32", Power.UK, 30, 32, True),
        ("UK $32/30", Power.UK, 30, 32, True),
        ("Germany: 12 terr / 37 IPC", Power.GERMANY, 12, 37, True),
        ("Count: 13 territories, 41 IPCs", None, 13, 41, True),
        ("Russia 9 / $ 26.", Power.USSR, 9, 26, True),
        ("J 20/29", Power.JAPAN, 20, 29, False),
        # a remark after the count (tried as new players: "could not read '12/$37'")
        ("GER 12/$37 (up from 34)", Power.GERMANY, 12, 37, True),
        ("Germany 12/$37 :)", Power.GERMANY, 12, 37, True),
    ],
)
def test_counts(
    written: str, power: Power | None, territories: int, ipcs: int, marked: bool
) -> None:
    turn = parse(written)
    (count,) = turn.counts
    assert (count.power, count.territories, count.ipcs, count.units_written) == (
        power,
        territories,
        ipcs,
        marked,
    )
    assert codes(turn) == ([] if marked else [(1, "warning", "count-units")])


def test_a_count_with_both_numbers_in_dollars_is_an_error() -> None:
    turn = parse("UK $30/$32")
    assert turn.counts == () and codes(turn) == [(1, "error", "count-units")]


def test_a_slash_in_a_place_name_is_no_count() -> None:
    turn = parse("Map:\nFin/Nor 3 INF")
    assert turn.counts == () and turn.map[0].place == "Finland Norway"


def read_one_result(
    line: str, outcome: CombatOutcome, survivors: dict[UnitType, int], losses: dict[UnitType, int]
) -> None:
    """``line`` under "Results:" reads as battle #1 West Europe with these figures, and
    nothing to say about it."""
    turn = parse(f"Results:\n{line}")
    (result,) = turn.results
    assert (result.number, result.territory, result.outcome) == (1, "West Europe", outcome)
    assert (result.survivors, result.losses) == (Units.of(survivors), Units.of(losses))
    assert turn.diagnostics == ()


@pytest.mark.parametrize(
    ("line", "outcome", "survivors", "losses"),
    [
        ("#1 W Europe: won, 3 INF 1 ARM left", CombatOutcome.WON, {U.INF: 3, U.ARM: 1}, {}),
        ("#1 W Europe: taken with 3 INF", CombatOutcome.WON, {U.INF: 3}, {}),
        ("#1 W Europe - cleared; lost 1 SUB", CombatOutcome.WON, {}, {U.SUB: 1}),
        ("#1 W Europe: attack failed, lost 2 ARM", CombatOutcome.LOST, {}, {U.ARM: 2}),
        ("#1 W Europe: Germans held", CombatOutcome.LOST, {}, {}),
        ("#1 W Europe: both sides destroyed", CombatOutcome.BOTH_DESTROYED, {}, {}),
        ("#1 W Europe: walked in", CombatOutcome.WALKED_IN, {}, {}),
        (
            "#1 W Europe: captured. Survivors: 2 INF. Losses: 1 FTR",
            CombatOutcome.WON,
            {U.INF: 2},
            {U.FTR: 1},
        ),
    ],
)
def test_results(
    line: str, outcome: CombatOutcome, survivors: dict[UnitType, int], losses: dict[UnitType, int]
) -> None:
    read_one_result(line, outcome, survivors, losses)


def test_a_retreat_result_and_a_raid_result() -> None:
    turn = parse(
        "Results:\n#1 Karelia: retreated to E Eur with 2 ARM\n"
        "#2 Germany (SBR): 7 IPC damage\n3) Ukraine - won"
    )
    back, raid, won = turn.results
    assert (back.outcome, back.retreat_to, back.survivors) == (
        CombatOutcome.RETREATED,
        "East Europe",
        Units.of({U.ARM: 2}),
    )
    assert (raid.outcome, raid.damage, raid.territory) == (CombatOutcome.RAIDED, 7, "Germany")
    assert (won.number, won.territory, won.outcome) == (3, "Ukraine S.S.R.", CombatOutcome.WON)


def test_a_result_line_outside_a_results_section_needs_a_past_tense() -> None:
    turn = parse("Attack #1 - Karelia: captured with 2 INF")
    assert turn.kind is TurnKind.POST_COMBAT and turn.results[0].outcome is CombatOutcome.WON
    turn = parse("Attack #1 - Karelia (take it!)\nE Eur 2 INF")
    assert turn.results == () and len(turn.battles) == 1


def test_a_result_without_an_outcome_is_an_error() -> None:
    assert codes(parse("Results:\n#1 W Europe: 3 INF left")) == [(2, "error", "unreadable")]


@pytest.mark.parametrize(
    ("line", "outcome", "survivors", "losses"),
    [
        ("#1 W Europe: won, lost my sub", CombatOutcome.WON, {}, {U.SUB: 1}),
        ("#1 W Europe: taken, lost both subs", CombatOutcome.WON, {}, {U.SUB: 2}),
        ("#1 W Europe: taken, 2 INF died, 1 ARM left", CombatOutcome.WON, {U.ARM: 1}, {U.INF: 2}),
        ("#1 W Europe: all my units died", CombatOutcome.LOST, {}, {}),
        ("#1 W Europe: lost, all my units died (2 INF)", CombatOutcome.LOST, {}, {U.INF: 2}),
        ("#1 W Europe: lost everything", CombatOutcome.LOST, {}, {}),
        ("#1 W Europe - attack failed, nothing left", CombatOutcome.LOST, {}, {}),
        ("#1 W Europe: lost 2 INF left", CombatOutcome.LOST, {U.INF: 2}, {}),
    ],
)
def test_words_for_losses_never_make_survivors(
    line: str, outcome: CombatOutcome, survivors: dict[UnitType, int], losses: dict[UnitType, int]
) -> None:
    read_one_result(line, outcome, survivors, losses)


@pytest.mark.parametrize(
    ("line", "losses", "phrase"),
    [
        ("Attack #2 - W Europe: lost my sub", {U.SUB: 1}, "lost my sub"),
        ("#2 W Europe: lost 2 INF", {U.INF: 2}, "lost 2 INF"),
        ("#2 W Europe: 2 INF lost", {U.INF: 2}, "2 INF lost"),
        ("#2 W Europe: my sub was sunk", {U.SUB: 1}, "sub was sunk"),
    ],
)
def test_casualties_without_an_outcome_are_read_as_lost_with_a_warning(
    line: str, losses: dict[UnitType, int], phrase: str
) -> None:
    """Issue 14: "Attack #2 - Baltic SZ: lost my sub" was read as lost with 1 SUB
    surviving, silently. The words name casualties, not how the battle ended."""
    turn = parse(f"Results:\n{line}", strict=True)
    (result,) = turn.results
    assert (result.number, result.outcome) == (2, CombatOutcome.LOST)
    assert (result.survivors, result.losses) == (Units(), Units.of(losses))
    assert codes(turn) == [(2, "warning", "unstated-outcome")]
    (warning,) = turn.diagnostics
    assert repr(phrase) in warning.message and "no survivors" in warning.message
    assert "won, lost" in warning.suggestion


def test_a_result_in_words_outside_a_results_section() -> None:
    turn = parse("Attack #2 - Baltic SZ: all my units died")
    assert [(r.number, r.outcome, r.survivors) for r in turn.results] == [
        (2, CombatOutcome.LOST, Units())
    ]
    assert turn.battles == () and turn.diagnostics == ()


def test_chat_among_the_results_is_no_result() -> None:
    """A line naming neither a battle nor a place is no result, even with "took" in it."""
    turn = parse("Results:\n#1 W Europe: won\nTook me ages to write this up")
    assert [r.number for r in turn.results] == [1]
    assert codes(turn) == [(3, "info", "not-read")]


def test_non_combat_moves() -> None:
    turn = parse(
        "NCM:\nKar 2 FTR to Russia\nUK 2 INF on UK SZ 1 TRN to E Can\n"
        "2 FTR from W Eur -> Ger\nW Eur 1 FTR land UK"
    )
    assert [(m.origin, m.units, m.destination, m.via, m.transports) for m in turn.moves] == [
        ("Karelia S.S.R.", Units.of({U.FTR: 2}), "Russia", (), Units()),
        (
            "United Kingdom",
            Units.of({U.INF: 2}),
            "East Canada",
            ("North Sea Zone",),
            Units.of({U.TRN: 1}),
        ),
        ("West Europe", Units.of({U.FTR: 2}), "Germany", (), Units()),
        ("West Europe", Units.of({U.FTR: 1}), "United Kingdom", (), Units()),
    ]


@pytest.mark.parametrize(
    ("line", "origin", "units", "destination"),
    [
        ("UK SZ: 2 TRN move to E Can SZ", "North Sea Zone", {U.TRN: 2}, "East Canada Sea Zone"),
        ("Kar 2 INF moves -> Russia", "Karelia S.S.R.", {U.INF: 2}, "Russia"),
        ("UK 1 FTR fly to Russia", "United Kingdom", {U.FTR: 1}, "Russia"),
    ],
)
def test_a_verb_between_the_units_and_where_they_go(
    line: str, origin: str, units: dict[U, int], destination: str
) -> None:
    """The verb after the units ("2 TRN move to ...") was read as a place name."""
    turn = parse(f"Non-combat moves:\n{line}")
    assert [(m.origin, m.units, m.destination) for m in turn.moves] == [
        (origin, Units.of(units), destination)
    ]
    assert turn.diagnostics == ()


def test_transports_with_their_cargo_after_with() -> None:
    """ "UK SZ 2 trn with 2 inf, 1 arm from UK": the count after "with" was dropped (1 INF
    read for 2)."""
    turn = parse("NCM:\nUK SZ 2 trn w/ 2 inf, 1 arm from UK to Norway")
    (move,) = turn.moves
    assert (move.origin, move.units, move.transports, move.via) == (
        "United Kingdom",
        Units.of({U.INF: 2, U.ARM: 1}),
        Units.of({U.TRN: 2}),
        ("North Sea Zone",),
    )


@pytest.mark.parametrize(
    "line", ["Germany 1 BMB -> stays", "Kar 2 ftr stay put", "UK 1 AA: remains"]
)
def test_units_that_stay_are_no_move_and_no_error(line: str) -> None:
    """Tried as a new player: "Germany 1 BMB -> stays" was an error ('stays' is no place)."""
    turn = parse(f"NCM:\n{line}\nKar 2 INF to Russia")
    assert [(m.origin, m.destination) for m in turn.moves] == [("Karelia S.S.R.", "Russia")]
    assert [(d.line, d.severity.value, d.code) for d in turn.diagnostics] == [(2, "info", "stays")]


def test_triplea_phase_names_head_the_parts_and_placed_in_is_a_placement() -> None:
    """A TripleA phase summary pasted: "Place Units:" heads the placements, and "4 infantry
    placed in Germany" is a placement (it was an error: 'placed in Germany' no place)."""
    turn = parse("Purchase Units:\n  4 infantry\nPlace Units:\n  4 infantry placed in Germany")
    assert [p.units for p in turn.purchases] == [Units.of({U.INF: 4})]
    assert [(p.place, p.units) for p in turn.placements] == [("Germany", Units.of({U.INF: 4}))]
    assert turn.diagnostics == ()


def test_a_move_to_where_the_units_are_moves_nothing_and_says_so() -> None:
    """Tried as a new player: "Japan SZ 2 TRN -> Manchuria SZ" was read without a word as a
    move from Japan Sea Zone to itself (the rule book names a sea zone after its land, and
    both names are Japan Sea Zone)."""
    turn = parse("NCM:\nJapan SZ 2 TRN -> Manchuria SZ\nKar 2 INF to Russia")
    assert [(m.origin, m.destination) for m in turn.moves] == [("Karelia S.S.R.", "Russia")]
    assert [(d.line, d.severity.value, d.code) for d in turn.diagnostics] == [
        (2, "warning", "no-move")
    ]


def test_a_move_needs_a_destination() -> None:
    turn = parse("Non-combat moves:\nKar 2 FTR")
    assert turn.moves == () and codes(turn) == [(2, "error", "no-destination")]


def test_placements_need_a_place_and_units() -> None:
    turn = parse("Placement:\nGer 3 INF; Baltic SZ 1 TRN\n3 ARM\nS Eur")
    assert [(p.place, p.units) for p in turn.placements] == [
        ("Germany", Units.of({U.INF: 3})),
        ("Baltic Sea Zone", Units.of({U.TRN: 1})),
    ]
    assert codes(turn) == [(3, "error", "no-place"), (4, "error", "no-units")]


def test_an_empty_or_unchanged_section_is_no_order_and_no_error() -> None:
    turn = parse("NCM: none\nPlacement: nothing\nMap update: unchanged\nUK 30/$32")
    assert turn.diagnostics == () and turn.kind is TurnKind.POST_COMBAT


@pytest.mark.parametrize(
    "said",
    [
        "won, 1 SUB survives, UK TRN sunk",
        "won, 1 SUB left, 1 TRN lost",
        "won, 1 SUB left, my TRN was sunk",
        "won, 1 SUB left; lost 1 TRN",
    ],
)
def test_units_named_after_the_survivors_and_then_lost_are_losses(said: str) -> None:
    (result,) = parse(f"Results:\n#1 UK SZ: {said}").results
    assert (result.survivors, result.losses) == (
        Units.of({UnitType.SUB: 1}),
        Units.of({UnitType.TRN: 1}),
    )


def test_units_listed_as_survivors_stay_survivors() -> None:
    (result,) = parse("Results:\n#1 UK SZ: won, 1 SUB, 1 TRN left").results
    assert result.survivors == Units.of({UnitType.SUB: 1, UnitType.TRN: 1})


@pytest.mark.parametrize(
    ("written", "origin", "destination", "units"),
    [
        ("Russia -> Karelia: 2 inf, 1 ftr", "Russia", "Karelia S.S.R.", "2 INF, 1 FTR"),
        ("Ger->E Eur 1 arm", "Germany", "East Europe", "1 ARM"),
        ("Russia to Karelia 2 inf", "Russia", "Karelia S.S.R.", "2 INF"),
    ],
)
def test_a_move_written_from_where_to_where_then_the_units(
    written: str, origin: str, destination: str, units: str
) -> None:
    """Found by a helper writing post-combat emails as new players: "Russia -> Karelia: 2
    inf, 1 ftr" was an error ("could not read 2 INF, 1 FTR after 'to'") and the move was
    dropped. With one origin naming no units, the units after the destination are its."""
    (move,) = parse(f"Non-combat moves:\n{written}").moves
    assert (move.origin, move.destination, move.units.label()) == (origin, destination, units)


def test_counts_written_out_are_numbers() -> None:
    """Found by a helper writing post-combat emails as new players: "won, two inf left"
    was 1 INF surviving and "lost three inf" 1 INF, silently; "E Europe: two infantry" an
    error. Two to ten written out are counts; "one" is not (a word of many sentences: "no
    one", "one of them"), and stays whatever it was."""
    turn = parse(
        "Results:\n#1 Libya: won, two inf left\n#2 Norway: lost, lost three inf\n"
        "Map:\nEast Europe: two infantry, 1 arm\n"
    )
    assert [(r.survivors.label(), r.losses.label()) for r in turn.results] == [
        ("2 INF", "none"),
        ("none", "3 INF"),
    ]
    assert [e.units.label() for e in turn.map] == ["2 INF, 1 ARM"]
    assert turn.diagnostics == ()
