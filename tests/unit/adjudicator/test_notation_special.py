"""Orders of loss, sub withdrawals and retreats; tech and purchases
(adjudicator.notation.special, adjudicator.notation.economy)."""

from __future__ import annotations

import pytest

from adjudicator.notation import LossEntry, Turn, TurnKind, Units, parse
from adjudicator.units import Technology, UnitType

U = UnitType


def codes(turn: Turn) -> list[tuple[int, str, str]]:
    return [(d.line, d.severity.value, d.code) for d in turn.diagnostics]


@pytest.mark.parametrize(
    ("written", "number", "territory", "order"),
    [
        (
            "OOL: INF, ARM, FTR, BMB",
            None,
            None,
            [(U.INF, None), (U.ARM, None), (U.FTR, None), (U.BMB, None)],
        ),
        (
            "OOL for battle #2 (Baltic SZ): TRN, SUB, AC",
            2,
            "Baltic Sea Zone",
            [(U.TRN, None), (U.SUB, None), (U.AC, None)],
        ),
        (
            "Karelia OOL 2 INF > FTR > INF",
            None,
            "Karelia S.S.R.",
            [(U.INF, 2), (U.FTR, None), (U.INF, None)],
        ),
        (
            "Order of losses, attack 3: 1 inf then 1 tank then the rest infantry",
            3,
            None,
            [(U.INF, 1), (U.ARM, 1), (U.INF, None)],
        ),
        ("Battle #1: OOL INF, INF, ARM", 1, None, [(U.INF, None), (U.INF, None), (U.ARM, None)]),
    ],
)
def test_orders_of_loss(
    written: str,
    number: int | None,
    territory: str | None,
    order: list[tuple[UnitType, int | None]],
) -> None:
    turn = parse(written)
    (ool,) = turn.orders_of_loss
    assert (ool.number, ool.territory) == (number, territory)
    assert ool.order == tuple(LossEntry(u, n) for u, n in order)
    assert turn.kind is TurnKind.SPECIAL_ORDERS and turn.diagnostics == ()


@pytest.mark.parametrize(
    ("written", "number", "territory"),
    [
        ("Rolling it now. OOL for me: inf, arm, ftr.", None, None),
        ("Going to bed! Order of loss for battle #2: INF, ARM", 2, None),
        ("Dice are cruel. OOL for Ukraine: arm, inf", None, "Ukraine S.S.R."),
        ("E. Med. SZ OOL: TRN, BB", None, "East Mediteranean Sea Zone"),
    ],
)
def test_a_sentence_before_an_order_of_loss_is_no_part_of_its_place(
    written: str, number: int | None, territory: str | None
) -> None:
    """Tried as a new player: "Rolling it now. OOL for me: inf, arm, ftr." was refused as an
    order of loss for a place named "Rolling now me". The sentence before the order is
    set aside when the words before the order name no place; "me" names no battle."""
    turn = parse(written)
    (ool,) = turn.orders_of_loss
    assert (ool.number, ool.territory) == (number, territory)
    assert turn.diagnostics == ()


@pytest.mark.parametrize(
    ("written", "number", "territory", "order"),
    [
        (
            "OOL for Karelia is inf, arm, ftr.",
            None,
            "Karelia S.S.R.",
            [(U.INF, None), (U.ARM, None), (U.FTR, None)],
        ),
        ("OOL for battle 2 is 1 inf then arm", 2, None, [(U.INF, 1), (U.ARM, None)]),
        (
            "My OOL: inf, arm, ftr please.",
            None,
            None,
            [(U.INF, None), (U.ARM, None), (U.FTR, None)],
        ),
    ],
)
def test_an_order_of_loss_written_as_a_sentence(
    written: str,
    number: int | None,
    territory: str | None,
    order: list[tuple[UnitType, int | None]],
) -> None:
    """With no colon, the units begin at the first unit word after the marker; "is" and
    "please" around them are no units."""
    turn = parse(written)
    (ool,) = turn.orders_of_loss
    assert (ool.number, ool.territory) == (number, territory)
    assert ool.order == tuple(LossEntry(u, n) for u, n in order)
    assert turn.diagnostics == ()


def test_a_sentence_about_orders_of_loss_is_chat() -> None:
    """Tried as a new player: "Defender OOL is yours, Monty." under Japan's attacks was
    two errors ('Defender' is no place, 'is' no unit). A sentence whose order of loss lists
    no unit is chat, noted at most."""
    turn = parse("Attack #1 Karelia\nCau 3 INF\n\nDefender OOL is yours, Monty.")
    assert turn.orders_of_loss == ()
    assert codes(turn) == [(4, "info", "not-read")]


def test_a_special_orders_title_heads_orders_written_as_sentences() -> None:
    """Tried as a new player: under "Special orders from Germany for your UK 2 attacks",
    "For W Europe: lose inf first, then tanks, then ftr last." was an unread line. The
    title heads the special orders, a sentence there is read as one, and an order after a
    sign-off ("Good luck, ...") is no part of the sign-off."""
    turn = parse(
        "Special orders from Germany for your UK 2 attacks\n\nGood luck, you will need it.\n"
        "For W Europe: lose inf first, then tanks, then ftr last."
    )
    (ool,) = turn.orders_of_loss
    assert (ool.territory, [e.unit for e in ool.order]) == (
        "West Europe",
        [U.INF, U.ARM, U.FTR],
    )
    assert turn.diagnostics == ()


def test_a_place_after_a_sentence_is_still_checked() -> None:
    turn = parse("Nice try. OOL for Atlantis: INF")
    (found,) = turn.diagnostics
    assert found.message.startswith("'Atlantis' could be any territory or sea zone of")


def test_a_misspelt_unit_in_an_order_of_loss_is_corrected() -> None:
    turn = parse("OOL: infantry, armr, fighter")
    assert [e.unit for e in turn.orders_of_loss[0].order] == [U.INF, U.ARM, U.FTR]
    assert codes(turn) == [(1, "warning", "typo")]


def test_an_order_of_loss_under_a_special_orders_header_needs_no_marker() -> None:
    turn = parse("Special orders:\nBattle #2 Baltic SZ: TRN, SUB, FTR\nW Europe: INF, ARM")
    assert [(o.number, o.territory, len(o.order)) for o in turn.orders_of_loss] == [
        (2, "Baltic Sea Zone", 3),
        (None, "West Europe", 2),
    ]


def test_withdrawal_and_retreat_headers_set_what_the_lines_mean() -> None:
    turn = parse("Sub withdrawals:\nBattle #2: Karelia SZ\nRetreats:\nBattle #1: UK SZ")
    assert [(w.number, w.to) for w in turn.withdrawals] == [(2, "Karelia Sea Zone")]
    assert [(r.number, r.to) for r in turn.retreats] == [(1, "North Sea Zone")]


def test_a_retreat_takes_the_first_destination_and_stops_at_conditions() -> None:
    (back,) = parse("Battle #3 Karelia: retreat to Russia if I fail to win round 1").retreats
    assert (back.number, back.territory, back.to) == (3, "Karelia S.S.R.", "Russia")


def test_orders_written_as_new_players_write_them() -> None:
    """Tried as a new player: "Ukraine - lose INF first then ARM" was refused ('Ukraine' is
    not a unit), "retreating after round 2 to Libya" took 'Anglo Egypt after round' for its
    place, "Karelia: I retreat" read 'Karelia I', and a sub that "submerges" was an order of
    loss whose first unit was 'If'."""
    turn = parse(
        "Special orders:\nUkraine - lose INF first then ARM then FTR\n"
        "Attack #2 Anglo Egypt: retreating after round 2 to Libya\n"
        "Attack #3 - Karelia: I retreat all my units to E Europe after round 3.\n"
        "If you take more than 2 rounds, my subs in the Baltic will submerge.\n"
        "#4 Baltic SZ: my sub submerges to Karelia SZ after round 1\n"
    )
    (ool,) = turn.orders_of_loss
    assert (ool.territory, [e.unit for e in ool.order]) == ("Ukraine S.S.R.", [U.INF, U.ARM, U.FTR])
    assert [(r.number, r.territory, r.to) for r in turn.retreats] == [
        (2, "Anglo Sudan Egypt", "Libya"),
        (3, "Karelia S.S.R.", "East Europe"),
    ]
    assert [(w.number, w.territory, w.to) for w in turn.withdrawals] == [
        (4, "Baltic Sea Zone", "Karelia Sea Zone")
    ]
    assert codes(turn) == [(5, "error", "unreadable")]
    (missing,) = turn.errors
    assert "sub withdrawal with no place to go to" in missing.message


def test_special_orders_without_a_place_are_errors() -> None:
    turn = parse("Retreat after round 2\nBattle #2: OOL\nBattle #4: sub withdraws to Xyzzy")
    assert codes(turn) == [
        (1, "error", "unreadable"),
        (2, "error", "unreadable"),
        (3, "error", "unknown-name"),
    ]
    assert (turn.retreats, turn.orders_of_loss, turn.withdrawals) == ((), (), ())


@pytest.mark.parametrize(
    ("written", "dice", "techs"),
    [
        ("Tech: none", 0, ()),
        ("Tech: none this turn", 0, ()),
        ("Research: not this round", 0, ()),
        ("Tech: 2 dice, no breakthrough", 2, ()),
        (
            "Tech: rolled 3 dice (15 IPC): 6, then 4 -> Long Range Aircraft",
            3,
            (Technology.LONG_RANGE_AIRCRAFT,),
        ),
        (
            "Weapons development: $10, got Jet Power and Super Subs",
            2,
            (Technology.JET_POWER, Technology.SUPER_SUBS),
        ),
        ("R&D: 1 die - Rockets!", 1, (Technology.ROCKETS,)),
        ("Tech: Industrial Technology", None, (Technology.INDUSTRIAL_TECHNOLOGY,)),
    ],
)
def test_tech_results(written: str, dice: int | None, techs: tuple[Technology, ...]) -> None:
    turn = parse(written)
    (tech,) = turn.tech
    assert (tech.dice, tech.technologies) == (dice, techs)
    assert turn.diagnostics == ()


def test_it_as_an_english_word_is_not_industrial_technology() -> None:
    (tech,) = parse("Tech: 2 dice, did not get it").tech
    assert tech.technologies == ()


def test_an_unreadable_tech_line_is_an_error() -> None:
    assert codes(parse("Tech: 2 xyzzy")) == [(1, "error", "unreadable")]


@pytest.mark.parametrize(
    ("written", "units", "spent", "remaining"),
    [
        ("Purchases: 3 INF, 1 ARM, 1 TRN", {U.INF: 3, U.ARM: 1, U.TRN: 1}, None, None),
        ("Buy: 2 BMB ($30)", {U.BMB: 2}, 30, None),
        ("Bought 3 inf 1 arm = 14 IPC, 2 left", {U.INF: 3, U.ARM: 1}, 14, 2),
        ("Purchases: none, saving 30", {}, None, 30),
        ("Purchases: none", {}, None, None),
        ("Purchases: $25 spent, $3 saved", {}, 25, 3),
        ("Buy: 5 inf, 1 arm, 1 ftr = 32", {U.INF: 5, U.ARM: 1, U.FTR: 1}, 32, None),
        ("Buy: 4 inf, total 12, 3 saved", {U.INF: 4}, 12, 3),
        # a unit before its count, as new players write it (each was 1 unit, silently)
        ("Purchases: inf x 4, tank x 2", {U.INF: 4, U.ARM: 2}, None, None),
        ("Buy: INF x4, ARM x2 ($22)", {U.INF: 4, U.ARM: 2}, 22, None),
        ("Buy: inf*4", {U.INF: 4}, None, None),
        ("Buy: inf (4), arm (2)", {U.INF: 4, U.ARM: 2}, None, None),
        ("Buy: infantry - 4, tanks - 2", {U.INF: 4, U.ARM: 2}, None, None),
        ("Buy: inf: 4", {U.INF: 4}, None, None),
        # a price beside each unit is a part of the total ("written as $18, but ... $34")
        ("Purchases: 2 transports ($16), 1 carrier ($18)", {U.TRN: 2, U.AC: 1}, 34, None),
        ("Buy: 3 inf $9, 1 arm $5", {U.INF: 3, U.ARM: 1}, 14, None),
        ("Buy: 2 trn + 4 inf ($16 + $12 = $29)", {U.TRN: 2, U.INF: 4}, 29, None),
    ],
)
def test_purchases(
    written: str, units: dict[UnitType, int], spent: int | None, remaining: int | None
) -> None:
    turn = parse(written)
    (bought,) = turn.purchases
    assert (bought.units, bought.spent, bought.remaining) == (Units.of(units), spent, remaining)
    assert turn.diagnostics == ()


def test_a_line_naming_a_place_is_no_purchase() -> None:
    """An origin line or a map entry under the purchases ("E Eur: 3 inf") is not units
    bought; a power naming itself as the buyer ("Germany: 3 INF") is."""
    turn = parse("Buy: 3 inf\nE Eur: 3 inf, 1 arm")
    assert [p.units for p in turn.purchases] == [Units.of({U.INF: 3})]
    (found,) = turn.diagnostics
    assert (found.line, found.severity.value) == (2, "error")
    assert "names a place: a purchase names none" in found.message
    bought = parse("Purchases:\nGermany: 3 inf, 1 arm\nUK: 2 inf ($6)")
    assert [p.units for p in bought.purchases] == [
        Units.of({U.INF: 3, U.ARM: 1}),
        Units.of({U.INF: 2}),
    ]
    assert bought.diagnostics == ()


def test_a_purchase_with_an_unknown_unit_is_an_error() -> None:
    turn = parse("Purchases: 3 INF, 2 destroyers")
    assert turn.purchases == () and codes(turn) == [(1, "error", "unknown-name")]


def test_a_remark_in_brackets_in_an_order_of_loss() -> None:
    """Tried as a new player: "#1 Karelia - OOL: 2 inf, arm, aa (IC stays)" was refused
    ('stays' is not a unit); a bracket of units ("(ftr last)") is still part of the order."""
    turn = parse(
        "Special orders:\n#1 Karelia - OOL: 2 inf, arm, aa (IC stays)\nOOL: inf (ftr last)"
    )
    assert [
        (o.number, o.territory, [(e.unit, e.count) for e in o.order]) for o in turn.orders_of_loss
    ] == [
        (1, "Karelia S.S.R.", [(U.INF, 2), (U.ARM, None), (U.AA, None)]),
        (None, None, [(U.INF, None), (U.FTR, None)]),
    ]
    assert codes(turn) == [(2, "info", "not-read")]


def test_a_retreat_from_a_battles_place() -> None:
    """ "Retreat from Karelia to Russia": "from" names the battle's place (it was read as a
    place called 'from Karelia', an error, which now voids the retreat)."""
    (back,) = parse("Retreat from Karelia to Russia").retreats
    assert (back.territory, back.to) == ("Karelia S.S.R.", "Russia")
    assert parse("Retreat from Karelia to Russia").diagnostics == ()


def test_an_order_of_loss_corrected_as_it_is_written() -> None:
    """Tried as a new player by email: "Ukraine - inf first, then art... sorry, inf, arm,
    ftr" was an error ('sorry' is no unit), so Ukraine had no order of loss; what follows
    the correction is the order, and the engine says what it set aside."""
    turn = parse(
        "Special orders:\nUkraine - inf first, then art... sorry, inf, arm, ftr\n"
        "OOL Karelia: inf, ftr, oops, I mean inf, arm, ftr\n"
    )
    assert [(o.territory, [e.unit.value for e in o.order]) for o in turn.orders_of_loss] == [
        ("Ukraine S.S.R.", ["INF", "ARM", "FTR"]),
        ("Karelia S.S.R.", ["INF", "ARM", "FTR"]),
    ]
    assert [(d.line, d.severity.value, d.code) for d in turn.diagnostics] == [
        (2, "info", "corrected"),
        (3, "info", "corrected"),
    ]
    assert "'inf first, then art' was corrected" in turn.diagnostics[0].message


def test_a_bracket_repeating_a_unit_listed_adds_no_step() -> None:
    """Tried as a new player by email: "Norway: inf, inf, arm, ftr (fighter last please)"
    was read as a fifth step, a second FTR; the bracket says when the listed fighter goes."""
    turn = parse(
        "Special orders:\nNorway: inf, inf, arm, ftr (fighter last please)\n"
        "Karelia: inf, arm (then ftr)\n"
    )
    assert [[e.unit.value for e in o.order] for o in turn.orders_of_loss] == [
        ["INF", "INF", "ARM", "FTR"],
        ["INF", "ARM", "FTR"],
    ]
    assert [(d.line, d.code) for d in turn.diagnostics] == [(2, "not-read")]


def test_orders_of_loss_with_the_verbs_new_players_use() -> None:
    """Tried as new players: "Please take my infantry first, then tanks, then the fighter."
    was an order of loss for Wake Island ('take' corrected), and "Ukraine: kill inf first,
    ..." an error ('kill' is no unit). The verbs say what is lost, they name nothing."""
    turn = parse(
        "Special orders:\nPlease take my infantry first, then tanks, then the fighter.\n"
        "Ukraine: kill inf first, then arm, then ftr\nRemove inf, then arm\n"
    )
    assert [(o.territory, [e.unit.value for e in o.order]) for o in turn.orders_of_loss] == [
        (None, ["INF", "ARM", "FTR"]),
        ("Ukraine S.S.R.", ["INF", "ARM", "FTR"]),
        (None, ["INF", "ARM"]),
    ]
    assert turn.diagnostics == ()


def test_a_sentence_or_a_placement_under_the_purchases_buys_nothing() -> None:
    """Tried as new players: under "Purchases: 3 inf ($9)" the lines "3 inf in India",
    "(placing the tank in Karelia)" and "I have 2 fighters ready to go next turn" were
    added to what was bought, silently; so were "E US 4 inf, 1 ftr" under "Builds:" in a
    post-combat email (placements, their places dropped). A purchase names no place, and a
    sentence is not one."""
    turn = parse(
        "Germany 1 pre-combat\nPurchases: 3 inf ($9)\n3 inf in India\n"
        "(placing the tank in Karelia)\nI have 2 fighters ready to go next turn\n"
        "E US 4 inf, 1 ftr\n"
    )
    assert [(p.units, p.spent) for p in turn.purchases] == [(Units.of({U.INF: 3}), 9)]
    assert codes(turn) == [
        (3, "error", "unreadable"),
        (4, "error", "unreadable"),
        (5, "warning", "not-read"),
        (6, "error", "unreadable"),
    ]


@pytest.mark.parametrize(
    "heading",
    ["Orders of loss for your Japan 1 attacks (USA):", "My OOLs", "Casualty order:", "OOLs:"],
)
def test_a_defenders_email_headed_as_new_players_head_it(heading: str) -> None:
    """Tried as new players: a defender's orders of loss under these headings were an
    empty turn, each line "mentions units but was not read as an order"; the defaults
    would have applied to his units. "OOL for battle #1 (...): ..." keeps its battle."""
    turn = parse(f"{heading}\nHawaii SZ: sub, then fighter, then carrier\n")
    assert turn.kind is TurnKind.SPECIAL_ORDERS
    assert [(o.territory, [e.unit.value for e in o.order]) for o in turn.orders_of_loss] == [
        ("Hawaii Sea Zone", ["SUB", "FTR", "AC"])
    ]
    (scoped,) = parse("OOL for battle #1 (W Europe): INF, ARM, FTR").orders_of_loss
    assert (scoped.number, scoped.territory) == (1, "West Europe")
