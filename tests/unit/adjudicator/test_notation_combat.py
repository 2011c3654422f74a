"""Battle headers, origin lines, Total lines and walk-ins (adjudicator.notation.combat)."""

from __future__ import annotations

import pytest

from adjudicator.notation import BattleKind, Turn, Units, parse, render_report, report
from adjudicator.units import UnitType

U = UnitType


def codes(turn: Turn) -> list[tuple[int, str, str]]:
    return [(d.line, d.severity.value, d.code) for d in turn.diagnostics]


@pytest.mark.parametrize(
    ("header", "number", "territory", "defender"),
    [
        ("Attack #1 - W Europe (10 INF, AA)", 1, "West Europe", {U.INF: 10, U.AA: 1}),
        ("attack 2: karelia (3 inf)", 2, "Karelia S.S.R.", {U.INF: 3}),
        ("#3 Baltic SZ - 1 SUB, 1 TRN", 3, "Baltic Sea Zone", {U.SUB: 1, U.TRN: 1}),
        ("Battle #4 -- Kenya-Rhodesia: 1 INF", 4, "Kenya-Rhodesia", {U.INF: 1}),
        ("Attack #5 - Egypt (UK: 1 INF, 1 ARM)", 5, "Anglo Sudan Egypt", {U.INF: 1, U.ARM: 1}),
        ("ATTACK #6 — W. EUROPE 2 INF", 6, "West Europe", {U.INF: 2}),
        ("Attack #7 - Karelia (defenders: 2 INF) amphibious", 7, "Karelia S.S.R.", {U.INF: 2}),
    ],
)
def test_battle_headers(
    header: str, number: int, territory: str, defender: dict[UnitType, int]
) -> None:
    turn = parse(f"{header}\nGer 1 FTR")
    (battle,) = turn.battles
    assert (battle.number, battle.territory, battle.kind, battle.line) == (
        number,
        territory,
        BattleKind.BATTLE,
        1,
    )
    assert battle.defender == Units.of(defender)
    assert turn.diagnostics == ()


@pytest.mark.parametrize("listing", ["", "(?)", "(unknown)", "()"])
def test_a_header_may_list_no_defenders(listing: str) -> None:
    (battle,) = parse(f"Attack #1 - Karelia {listing}\nGer 1 FTR").battles
    assert battle.defender is None


@pytest.mark.parametrize(
    ("header", "kind"),
    [
        ("Attack #1 - Finland (WI)", BattleKind.WALK_IN),
        ("WI #1 - Finland", BattleKind.WALK_IN),
        ("Attack #1 - Finland walk-in", BattleKind.WALK_IN),
        ("Attack #1 - Finland (empty)", BattleKind.WALK_IN),
        ("Attack #1 - Finland (SBR)", BattleKind.RAID),
        ("SBR #1 - Finland", BattleKind.RAID),
    ],
)
def test_walk_ins_and_raids_are_marked(header: str, kind: BattleKind) -> None:
    (battle,) = parse(f"{header}\nKar 1 INF").battles
    assert (battle.kind, battle.territory) == (kind, "Finland Norway")
    assert battle.defender == (Units() if kind is BattleKind.WALK_IN else None)


def test_origin_lines_carry_route_transports_and_landing() -> None:
    turn = parse(
        "Attack #1 - W Europe\nE Can 1 ARM on E Can SZ 1 TRN to UK SZ\n"
        "Ukr 2 ARM via E Eur to Ger\nKar 2 FTR (land Karelia)"
    )
    ecan, ukr, kar = turn.battles[0].origins
    assert (ecan.place, ecan.via, ecan.transports) == (
        "East Canada",
        ("East Canada Sea Zone", "North Sea Zone"),
        Units.of({U.TRN: 1}),
    )
    assert (ukr.place, ukr.via) == ("Ukraine S.S.R.", ("East Europe", "Germany"))
    assert (kar.lands, kar.via) == ("Karelia S.S.R.", ())


@pytest.mark.parametrize(
    "remark", ["(support shot)", "support", "(shore bombardment)", "[bombard]", "- supporting"]
)
def test_a_battleships_remark_is_not_read_as_a_place(remark: str) -> None:
    turn = parse(f"Attack #1 - W Europe\nUK 2 INF on UK SZ 1 TRN\nUK SZ 1 BB {remark}")
    assert turn.errors == ()
    bb = turn.battles[0].origins[1]
    assert (bb.place, bb.units, bb.lands, bb.via) == (
        "North Sea Zone",
        Units.of({U.BB: 1}),
        None,
        (),
    )


def test_a_destination_that_is_the_battle_is_not_part_of_the_route() -> None:
    (origin,) = (
        parse("Attack #1 - W Europe\nUK 2 INF on UK SZ 1 TRN to W Europe").battles[0].origins
    )
    assert origin.via == ("North Sea Zone",)


def test_a_line_going_elsewhere_is_warned() -> None:
    turn = parse("Attack #1 - Karelia (3 INF)\nGer 1 FTR to Finland")
    assert codes(turn) == [(2, "warning", "destination-mismatch")]


def test_the_attackers_are_the_origins_added_up() -> None:
    battle = parse(
        "Attack #1 - Karelia\nE Eur 3 INF, 1 ARM\nUkr 2 ARM\nKar 2 FTR, Ukr 1 INF"
    ).battles[0]
    assert battle.attacker == Units.of({U.INF: 4, U.ARM: 3, U.FTR: 2})
    assert [o.place for o in battle.origins] == [
        "East Europe",
        "Ukraine S.S.R.",
        "Karelia S.S.R.",
        "Ukraine S.S.R.",
    ]


@pytest.mark.parametrize(
    "total",
    [
        "Total UK v. Germany --- 2 INF v. 3 INF",
        "Total: 2 INF vs 3 INF",
        "TOTAL - UK v Germany: 2 inf versus 3 inf",
        "Totals = 2 INF against 3 INF",
    ],
)
def test_total_lines(total: str) -> None:
    battle = parse(f"Attack #1 - W Europe (3 INF)\nUK 2 INF on UK SZ 1 TRN\n{total}").battles[0]
    assert battle.total is not None
    assert (battle.total.attacker, battle.total.defender) == (
        Units.of({U.INF: 2}),
        Units.of({U.INF: 3}),
    )


def test_a_total_without_defenders_and_a_header_without_defenders() -> None:
    battle = parse("Attack #1 - W Europe\nTotal: 2 INF").battles[0]
    assert battle.defender is None and battle.defenders is None
    assert battle.attacker == Units.of({U.INF: 2})


def test_the_total_lists_defenders_when_the_header_does_not() -> None:
    battle = parse("Attack #1 - W Europe\nUK 2 FTR\nTotal: 2 FTR v. 3 INF").battles[0]
    assert (battle.defender, battle.defenders) == (None, Units.of({U.INF: 3}))


def test_declaration_problems_are_warnings() -> None:
    turn = parse(
        "Attack #1 - Karelia (2 INF)\n2 INF\n\nAttack #1 - Ukraine (1 INF)\n"
        "Attack #3 - Caucasus (3 INF)\nTotal: 1 INF v. 2 INF\nKar 2 INF"
    )
    assert codes(turn) == [
        (2, "warning", "missing-origin"),
        (4, "warning", "duplicate-battle"),
        (4, "warning", "no-attackers"),
        (6, "warning", "total-mismatch"),
        (6, "warning", "defender-mismatch"),
    ]
    assert turn.errors == ()


def test_battles_as_a_numbered_list_after_the_purchases() -> None:
    """Tried as a new player: with no combat header after "Buy: ...", a numbered list of
    attacks ("1. Karelia (2 inf, 1 arm, AA)") and their origins were read as purchases, and
    Germany was told it spent $156. A list item that is a place alone, or with its
    defenders in brackets, heads a battle as "#1 Karelia (...)" does."""
    turn = parse(
        "Germany 1 - combat\n\nBuy: 2 arm, 1 sub, 3 inf ($27)\n\n"
        "1. Karelia (2 inf, 1 arm, AA)\n   E Eur: 3 inf, 1 arm, 1 ftr\n   Germany: 1 bmb\n\n"
        "2) Karelia SZ\n   Baltic SZ: 1 sub\n\nOOL Karelia: inf, arm, ftr, bmb"
    )
    assert [(p.units, p.spent) for p in turn.purchases] == [
        (Units.of({U.INF: 3, U.ARM: 2, U.SUB: 1}), 27)
    ]
    assert [(b.number, b.territory, b.defender, b.attacker) for b in turn.battles] == [
        (
            1,
            "Karelia S.S.R.",
            Units.of({U.INF: 2, U.ARM: 1, U.AA: 1}),
            Units.of({U.INF: 3, U.ARM: 1, U.FTR: 1, U.BMB: 1}),
        ),
        (2, "Karelia Sea Zone", None, Units.of({U.SUB: 1})),
    ]
    assert turn.diagnostics == ()


def test_a_numbered_battle_names_its_defenders_after_a_dash() -> None:
    """Tried as a new player (Japan): "1) Hawaii SZ - defenders: 1 bb, 1 ftr" was no battle
    ("could not read '1'"), so its attackers had none to join; "#1 Hawaii SZ - defenders: ..."
    was read. A list item whose place is followed by its defenders, named as such, heads a
    battle as the "#1" header does; "1. Karelia with 3 inf" still does not."""
    turn = parse(
        "Japan 1 pre-combat\nCombat moves\n1) Hawaii SZ - defenders: 1 bb, 1 ftr\n"
        "   Japan SZ: 1 AC, 2 FTR, 1 BB\n2. Karelia vs 3 inf, 1 arm\n   Manchuria 3 inf\n"
    )
    assert [(b.number, b.territory, b.defender, b.attacker) for b in turn.battles] == [
        (
            1,
            "Hawaii Sea Zone",
            Units.of({U.BB: 1, U.FTR: 1}),
            Units.of({U.AC: 1, U.FTR: 2, U.BB: 1}),
        ),
        (2, "Karelia S.S.R.", Units.of({U.INF: 3, U.ARM: 1}), Units.of({U.INF: 3})),
    ]
    assert turn.diagnostics == ()


def test_a_numbered_line_that_is_no_place_alone_heads_no_battle() -> None:
    turn = parse("Combat:\n1. Karelia with 3 inf from East Europe")
    assert turn.battles == ()
    assert [d.severity.value for d in turn.diagnostics] == ["error"]


def test_a_battle_headed_twice_in_one_place_is_one_battle() -> None:
    """IAAPA Error Correction II: "The declared territory or sea zone is always assumed to be
    correct". A second header of battle #1 in the same place (a player correcting himself, or
    heading the rest of the attackers) declares no second combat there: the origins under
    both are the battle's, and a later list of defenders replaces the first."""
    turn = parse(
        "Attack #1 Ukraine: 3 inf from Caucasus, no wait\n\nAttack 1 - Ukraine\n"
        "Cau 3 INF\nRus 1 FTR\nAttack #1 - Ukraine (3 INF, 2 ARM, 1 FTR)\nWRus 1 ARM"
    )
    assert len(turn.battles) == 1
    battle = turn.battles[0]
    assert (battle.number, battle.territory, battle.line) == (1, "Ukraine S.S.R.", 1)
    assert battle.attacker == Units.of({U.INF: 3, U.FTR: 1, U.ARM: 1})
    assert battle.defender == Units.of({U.INF: 3, U.ARM: 2, U.FTR: 1})
    twice = [d for d in turn.diagnostics if d.code == "duplicate-battle"]
    assert [(d.line, d.severity.value) for d in twice] == [(3, "warning"), (6, "warning")]
    assert "read as one battle" in twice[0].message and "replace" not in twice[0].message
    assert "(3 INF, 2 ARM, 1 FTR) replace those of line 1 (3 INF)" in twice[1].message


@pytest.mark.parametrize(
    "origin",
    [
        "S Europe 1 INF on C Med SZ 1 TRN",
        "S. Europe 1 inf via C Med SZ 1 trn",
        "C Med SZ: 1 TRN with 1 INF from S. Europe",
        "C Med SZ 1 TRN w/ 1 INF (from S Europe)",
    ],
)
def test_cargo_and_its_transports_written_four_ways(origin: str) -> None:
    """Tried as a new player: "via C Med SZ 1 trn" dropped the transport without a word,
    and "1 TRN w/ 1 INF from S. Europe" made the transport an attacker. Each is the rule
    book's "S Europe 1 INF on C Med SZ 1 TRN"."""
    turn = parse(f"Attack #2 - Anglo-Egypt (1 INF, 1 ARM)\n{origin}")
    (battle,) = turn.battles
    assert [(o.place, o.units, o.via, o.transports) for o in battle.origins] == [
        (
            "South Europe",
            Units.of({U.INF: 1}),
            ("Central Mediteranean Sea Zone",),
            Units.of({U.TRN: 1}),
        )
    ]
    assert turn.diagnostics == ()


def test_planes_flying_back_land_there() -> None:
    """Tried as a new player: "2 fighters from Russia (fly back to Russia)" read 'back' as a
    misspelt Black Sea Zone. "back to" and "return to" say where planes land."""
    turn = parse(
        "Attack #1 Ukraine\n2 fighters from Russia (fly back to Russia)\nKar 1 FTR, return to Kar"
    )
    (battle,) = turn.battles
    assert [(o.place, o.lands) for o in battle.origins] == [
        ("Russia", "Russia"),
        ("Karelia S.S.R.", "Karelia S.S.R."),
    ]
    assert turn.diagnostics == ()


def test_units_after_where_a_move_goes_are_an_error_not_dropped() -> None:
    turn = parse("NCM:\nKar 2 INF to Russia 1 ARM")
    assert turn.moves == ()
    (found,) = turn.diagnostics
    assert (found.line, found.severity.value) == (2, "error")
    assert "could not read 1 ARM after 'to'" in found.message


def test_lines_that_cannot_join_a_battle_are_errors() -> None:
    turn = parse("Combat moves:\nUK 2 INF on UK SZ 1 TRN\nTotal: 2 INF")
    assert codes(turn) == [(2, "error", "no-battle"), (3, "error", "no-battle")]
    turn = parse("Attack #1 - Karelia\nE Eur\nAttack #2\nKar 1 INF")
    assert codes(turn) == [
        (1, "warning", "no-attackers"),
        (2, "error", "no-units"),
        (3, "error", "unreadable"),
    ]
    assert turn.battles[1].attacker == Units.of({U.INF: 1})


def test_moves_without_headers_become_numbered_battles() -> None:
    turn = parse(
        "Combat:\nKar 3 INF to E Europe\nRussia 1 FTR to E Europe (land Kar)\n"
        "Cauc 2 INF to Ukraine\nUkr 1 ARM WI Caucasus"
    )
    assert [(b.number, b.territory, b.kind, b.attacker.total) for b in turn.battles] == [
        (1, "East Europe", BattleKind.BATTLE, 4),
        (2, "Ukraine S.S.R.", BattleKind.BATTLE, 2),
        (3, "Caucasus", BattleKind.WALK_IN, 1),
    ]
    assert [c[2] for c in codes(turn)] == ["implicit-battle"] * 3


@pytest.mark.parametrize(
    "header",
    [
        "Attack #1: Karelia w/ 3 inf, 1 arm from E Eur",
        "Attack #1 - Karelia 3 inf, 1 arm from E Eur",
    ],
)
def test_attackers_written_in_the_header_are_flagged_not_read_as_defenders(header: str) -> None:
    """A one-line attack cannot be told from a defender listing: an error, never a silent
    misreading (a wrong defender listing is a CDE, Error Correction II.3)."""
    turn = parse(header)
    assert [(d.line, d.code) for d in turn.errors] == [(1, "unreadable")]
    assert "from E Eur" in turn.errors[0].message


def test_a_battle_place_fitting_several_is_kept_with_them() -> None:
    """ "Can SZ" abbreviates three zones: the battle is kept, with no territory and the zones
    it could be, for the check against the board (adjudicator.declarations.sites)."""
    turn = parse("Attack #1 - Can SZ (1 TRN)\nAzo SZ 1 SUB")
    (battle,) = turn.battles
    assert battle.territory is None
    assert battle.could_be == (
        "East Canada Sea Zone",
        "West Africa Sea Zone",
        "West Canada Sea Zone",
    )
    assert (battle.defender, battle.attacker) == (Units.of({U.TRN: 1}), Units.of({U.SUB: 1}))
    assert codes(turn) == [(1, "warning", "ambiguous-battle")]
    assert "Can SZ" in turn.diagnostics[0].message


def test_the_candidates_are_reported_only_when_there_are_some() -> None:
    """Adding a key keeps the report's version: ``could_be`` only where a name fits several."""
    got = report("Attack #1 - Can SZ\nAzo SZ 1 SUB\nAttack #2 - Karelia\nE Eur 2 INF")
    first, second = got["battles"]
    assert "territory" not in first and len(first["could_be"]) == 3
    assert second["territory"] == "Karelia S.S.R." and "could_be" not in second
    assert "#1 ? (one of East Canada Sea Zone, West Africa Sea Zone" in render_report(got)


def test_a_name_fitting_nothing_is_still_an_error() -> None:
    turn = parse("Attack #1 - Xqzzy\nKar 2 INF")
    assert turn.battles[0].could_be == ()
    assert [(d.line, d.code) for d in turn.errors] == [(1, "unknown-name")]
