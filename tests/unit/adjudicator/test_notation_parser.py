"""Reading a whole email: sections, titles, greetings, strict and lenient modes
(adjudicator.notation.parser)."""

from __future__ import annotations

import dataclasses

import pytest

from adjudicator.notation import (
    AmbiguousNameError,
    NotationError,
    Severity,
    TurnKind,
    Units,
    UnknownNameError,
    UnreadableOrderError,
    parse,
)
from adjudicator.notation.sections import Section, header, is_closer, is_greeting, title
from adjudicator.powers import Power
from adjudicator.units import UnitType

U = UnitType


@pytest.mark.parametrize(
    ("line", "section", "rest"),
    [
        ("Combat Moves:", Section.COMBAT, ""),
        ("*** NON-COMBAT MOVES ***", Section.NON_COMBAT, ""),
        ("Purchases: 3 INF", Section.PURCHASES, "3 INF"),
        ("Purchase 3 INF", Section.PURCHASES, "3 INF"),
        ("UK 3 Non-combat moves:", Section.NON_COMBAT, ""),
        ("G2 NCM - Kar 2 FTR to Ger", Section.NON_COMBAT, "Kar 2 FTR to Ger"),
        ("Final map update:", Section.MAP, ""),
        ("Tech results: none", Section.TECH, "none"),
        ("Retreat declaration, game 4471:", Section.SPECIAL, ""),
        ("Orders of loss:", Section.SPECIAL, ""),
        ("Count: UK 30/$32", Section.COUNT, "UK 30/$32"),
    ],
)
def test_section_headers(line: str, section: Section, rest: str) -> None:
    found = header(line)
    assert found is not None and (found.section, found.rest) == (section, rest)
    assert line[found.offset :].startswith(rest)


@pytest.mark.parametrize(
    "line",
    [
        "Attack #1 - W Europe",
        "Combat moves are below",
        "UK 8 INF on UK SZ 4 TRN",
        "Kar 2 FTR",
    ],
)
def test_lines_that_are_not_headers(line: str) -> None:
    assert header(line) is None


@pytest.mark.parametrize(
    ("line", "kind", "power", "number"),
    [
        ("Germany 3 pre-combat", TurnKind.PRE_COMBAT, "Germany", 3),
        ("G3 precombat, sorry for the delay.", TurnKind.PRE_COMBAT, "Germany", 3),
        ("UK turn 5 post-combat", TurnKind.POST_COMBAT, "UK", 5),
        ("US 1 final", TurnKind.POST_COMBAT, "US", 1),
        ("Special orders for your UK 2 attacks", TurnKind.SPECIAL_ORDERS, "UK", 2),
        # "R3" is round 3 beside a power named (it was read as Russia's round 3)
        ("Japan R3 post-combat", TurnKind.POST_COMBAT, "Japan", 3),
        ("Germany, R1 combat moves", TurnKind.PRE_COMBAT, "Germany", 1),
        ("Germany: pre-combat, R1", TurnKind.PRE_COMBAT, "Germany", 1),
        ("R1 pre-combat", TurnKind.PRE_COMBAT, "USSR", 1),  # alone, "R1" is Russia's
        # "combat" alone beside a power and round: the combat turn
        ("Germany round 1 - combat", TurnKind.PRE_COMBAT, "Germany", 1),
        ("UK - 2 post-combat", TurnKind.POST_COMBAT, "UK", 2),
    ],
)
def test_titles(line: str, kind: TurnKind, power: str, number: int) -> None:
    found = title(line)
    assert found is not None and (found.kind, found.power, found.round) == (kind, power, number)


def test_a_subject_needs_no_kind_word_but_a_body_line_does() -> None:
    assert title("Game 12 - J4", subject=True) is not None
    assert title("Russia 1 INF moves") is None
    assert title("No combat this turn") is None  # no power and round: no title


@pytest.mark.parametrize(
    ("line", "power", "number"),
    [
        ("Russia round 1", Power.USSR, 1),
        ("UK - 2", Power.UK, 2),
        ("G3:", Power.GERMANY, 3),
        ("== Japan, turn 4 ==", Power.JAPAN, 4),
    ],
)
def test_a_line_of_only_a_power_and_round_is_the_title(
    line: str, power: Power, number: int
) -> None:
    turn = parse(f"Hi Monty,\n\n{line}\nPurchases: 3 INF")
    assert (turn.power, turn.round) == (power, number)
    assert [d.line for d in turn.diagnostics] == []  # not an unread line, not an order


def test_a_power_and_round_with_more_on_the_line_is_no_bare_title() -> None:
    turn = parse("Russia 1 INF moves\nPurchases: 3 INF")
    assert (turn.power, turn.round) == (None, None)
    assert [(d.line, d.code) for d in turn.diagnostics] == [(1, "not-read")]


def test_greetings_and_closers() -> None:
    assert is_greeting("Hi Hans,") and is_greeting("Good evening Bob")
    assert not is_greeting("Hi, here are my 20 moves for the Karelia attack and the rest")
    assert is_closer("Cheers,") and is_closer("Your move.") and is_closer("Good luck!")
    assert not is_closer("Good luck with 3 INF")
    for said in ("Your go.", "You're up", "Back to you, Monty"):
        assert is_closer(said), said


def test_a_name_signed_after_your_go_is_no_place() -> None:
    turn = parse("UK 2 post-combat\n\nMap update:\nUK 4 INF\n\nYour go.\nBernard\n")
    assert [(e.place, e.units) for e in turn.map] == [
        ("United Kingdom", Units.of({UnitType.INF: 4}))
    ]
    assert turn.diagnostics == ()


def test_the_power_and_round_come_from_the_title_then_the_total_or_count() -> None:
    assert (parse("UK 2 pre-combat\nAttack #1 - W Eur\nUK 1 FTR").power,) == (Power.UK,)
    assert parse("Attack #1 - W Eur\nUK 1 FTR\nTotal UK v. Germany: 1 FTR").power is Power.UK
    turn = parse("NCM:\nKar 1 FTR to Russia\nRussia 9/$26")
    assert (turn.power, turn.round) == (Power.USSR, None)
    special = parse("Special orders for your UK 2 attacks:\nOOL: INF, ARM")
    assert (special.power, special.round) == (None, None)


def test_the_kind_follows_the_orders_found() -> None:
    assert parse("Purchases: 3 INF").kind is TurnKind.PRE_COMBAT
    assert parse("UK 30/$32").kind is TurnKind.POST_COMBAT
    assert parse("OOL: INF").kind is TurnKind.SPECIAL_ORDERS
    assert parse("Purchases: 3 INF\nUK 30/$32").kind is TurnKind.MIXED
    empty = parse("Hi,\nsee you Sunday.\n")
    assert empty.kind is TurnKind.EMPTY
    assert [(d.line, d.code) for d in empty.diagnostics] == [(0, "no-orders")]


def test_a_trailing_name_is_a_signature_but_a_trailing_territory_is_not() -> None:
    signed = parse("Map update:\nGer: 3 INF\n\nTom")
    assert [e.place for e in signed.map] == ["Germany"] and signed.diagnostics == ()
    unsigned = parse("Map update:\nGer: 3 INF\n\nSweden")
    assert [e.place for e in unsigned.map] == ["Germany", "Sweden"]


def test_prose_inside_a_section_is_noted_not_an_error() -> None:
    turn = parse(
        "Combat moves:\nI thought about this one for a long time, honestly.\n"
        "Attack #1 - Karelia\nE Eur 2 INF"
    )
    assert [(d.line, d.severity, d.code) for d in turn.diagnostics] == [
        (2, Severity.INFO, "not-read")
    ]


@pytest.mark.parametrize(
    "remark",
    [
        "Rolling Ukraine first.",
        "Will roll tonight after dinner",
        "I'll take the bid",
        "Sorry for the delay",
        "I'll retreat if it goes badly",
        "Total disaster last time",
    ],
)
@pytest.mark.parametrize("section", ["Combat moves:", "Non-combat moves:", "Results:", "Map:"])
def test_a_remark_between_orders_is_at_most_a_note(remark: str, section: str) -> None:
    """Issue 14: a line that does not look like an order is never an error or a warning,
    in lenient or strict mode, and the orders around it read as without it."""
    order = {
        "Combat moves:": "Attack #1 - Karelia\nE Eur 2 INF",
        "Non-combat moves:": "Kar 2 FTR to Russia",
        "Results:": "#1 Karelia: won, 2 INF left",
        "Map:": "Ger: 3 INF",
    }[section]
    last = order.splitlines()[-1]
    turn = parse(f"{section}\n{order}\n{remark}\n{last}", strict=True)
    plain = parse(f"{section}\n{order}\n\n{last}")
    assert [(d.severity, d.code) for d in turn.diagnostics] == [(Severity.INFO, "not-read")]
    assert dataclasses.replace(turn, diagnostics=()) == plain


def test_greetings_and_sign_offs_around_orders_say_nothing() -> None:
    turn = parse(
        "Hi Bob,\nSorry for the delay\nI'll take the bid\n\nCombat moves:\n"
        "Attack #1 - Karelia\nE Eur 2 INF\n\nGood luck!\nyour move\ncheers\nHans"
    )
    assert turn.diagnostics == () and len(turn.battles) == 1


def test_a_line_that_looks_like_an_order_stays_an_error() -> None:
    """A count and a unit make an order: an unknown place in it is an error, chat or not."""
    text = "Combat moves:\nAttack #1 - Ukraine\nCauc 3 INF\nRolling Ukraine first.\nKrasnodar 2 ARM"
    turn = parse(text)
    assert [(d.line, d.severity, d.code) for d in turn.diagnostics] == [
        (4, Severity.INFO, "not-read"),
        (5, Severity.ERROR, "unknown-name"),
    ]
    with pytest.raises(UnknownNameError) as raised:
        parse(text, strict=True)
    assert raised.value.line == 5


def test_a_bare_place_in_the_map_update_is_an_order() -> None:
    """In the map update a place alone is an entry, so a misspelt one is still read (or an
    error), never waved through as chat."""
    turn = parse("Map update:\nSwedn\nXyzzyland")
    assert [e.place for e in turn.map] == ["Sweden"]
    assert [(d.line, d.severity, d.code) for d in turn.diagnostics] == [
        (2, Severity.WARNING, "typo"),
        (3, Severity.ERROR, "unknown-name"),
    ]


def test_an_unreadable_line_with_numbers_in_a_section_is_an_error() -> None:
    turn = parse("Non-combat moves:\n%% 2 3 4 %%")
    assert [(d.line, d.severity, d.code) for d in turn.diagnostics] == [
        (2, Severity.ERROR, "unreadable")
    ]


def test_lenient_mode_reads_everything_else_and_strict_mode_raises() -> None:
    text = "Attack #1 - Burma (2 INF)\nFIC 2 INF\nAttack #2 - Med\nGib SZ 1 BB\n\nE Eur 1O inf"
    turn = parse(text)
    assert [b.attacker for b in turn.battles] == [Units.of({U.INF: 2}), Units.of({U.BB: 1})]
    assert [(e.line, e.code) for e in turn.errors] == [(1, "unknown-name"), (6, "bad-number")]
    assert turn.battles[1].could_be  # "Med": kept, for the board to tell which zone
    with pytest.raises(UnknownNameError) as raised:
        parse(text, strict=True)
    assert raised.value.line == 1 and raised.value.diagnostic == turn.errors[0]
    with pytest.raises(AmbiguousNameError):
        parse("Non-combat moves:\nGib SZ 1 BB to Med", strict=True)
    with pytest.raises(UnreadableOrderError, match=r"^line 2: "):
        parse("Attack #1 - Karelia\nE Eur 1O inf", strict=True)
    assert issubclass(NotationError, ValueError)


def test_strict_mode_never_raises_on_warnings() -> None:
    turn = parse("Attack #1 - Karelai\nE Eur 3 ing\nUK 30/32", strict=True)
    assert turn.errors == () and len(turn.diagnostics) == 3


def test_the_parsed_orders_are_frozen() -> None:
    turn = parse("Attack #1 - Karelia\nE Eur 2 INF")
    with pytest.raises(dataclasses.FrozenInstanceError):
        turn.battles[0].number = 2  # type: ignore[misc]
    assert turn.battle(1).territory == "Karelia S.S.R."
    with pytest.raises(KeyError):
        turn.battle(2)
    assert hash(turn.battles[0]) == hash(parse("Attack #1 - Karelia\nE Eur 2 INF").battles[0])


def test_a_short_last_line_that_is_an_order_is_not_a_signature() -> None:
    turn = parse("OOL: INF\n\nRetreat to Kar")
    assert [r.to for r in turn.retreats] == ["Karelia S.S.R."]
    assert parse("OOL: INF\n\nNigel A.\nIAAPA").diagnostics == ()


def test_a_number_too_long_to_be_a_count_is_never_read_as_one() -> None:
    """Report integers stay far below 2**53 (DESIGN: integers and strings only)."""
    assert parse("UK 99999999999999999999/$1").counts == ()
    turn = parse("Attack #1 - Karelia\nKar 9999999999 INF")
    assert turn.battles[0].attacker == Units()
    assert [(d.line, d.severity) for d in turn.errors] == [(2, Severity.ERROR)]


ODD_INPUTS = [
    "",
    "\n\n",
    "#",
    "Attack #",
    "Attack #1 - (10 INF)",
    "Attack #1 - W Europe (10 INF",
    "Total",
    "Total v.",
    "OOL:",
    "Tech:",
    "Results:\n#1",
    "Retreat to",
    "withdraw to",
    "> only a quote",
    "-- ",
    "On Mon wrote:",
    "1" * 3000,
    "Kar " + "1 INF, " * 500,
    "\u202e\u0000\ufffd",
    "UK 30/",
    "/$32",
    "Attack #1 - W Europe ((((",
    "->->->",
    "Kar to to to",
]


@pytest.mark.parametrize("text", ODD_INPUTS)
def test_lenient_parsing_never_raises(text: str) -> None:
    turn = parse(text)
    assert all(d.line >= 0 and d.message and d.suggestion for d in turn.diagnostics)


def test_mutated_corpus_emails_never_crash_the_parser() -> None:
    """Typos anywhere (a deleted or replaced character, a line of noise) give diagnostics,
    never an exception other than NotationError in strict mode."""
    import random
    from pathlib import Path

    corpus = Path(__file__).resolve().parents[2] / "data" / "turns"
    lines = [
        line
        for p in sorted(corpus.glob("*.txt"))
        for line in p.read_text(encoding="utf-8").splitlines()
    ]
    rng = random.Random(20090314)
    noise = "abcxyz ABC0123456789#$/()-:;,.>—'\t*=+&"
    for _ in range(300):
        picked = [rng.choice(lines) for _ in range(rng.randint(1, 10))]
        mutated = []
        for line in picked:
            at = rng.randrange(len(line)) if line else 0
            mutated.append(
                rng.choice(
                    [
                        line,
                        line[:at] + line[at + 1 :],
                        line[:at] + rng.choice(noise) + line[at + 1 :],
                        "".join(rng.choice(noise) for _ in range(rng.randint(0, 30))),
                    ]
                )
            )
        text = "\n".join(mutated)
        parse(text)
        try:
            parse(text, strict=True)
        except NotationError:
            pass


def test_an_attack_written_as_a_numbered_list_is_told_how_a_battle_is_written() -> None:
    """A new player lists his attacks ("1. Karelia with 3 inf ..."): the error says how a
    battle and its origins are written; an unreadable move keeps the move's form."""
    turn = parse(
        "Germany 1 pre-combat\nCombat moves:\n1. Karelia with 3 inf from E Eur\n"
        "Attack #2 - Egypt\nLibya 1 inf + 2\n"
    )
    listed, move = (d for d in turn.diagnostics if d.severity is Severity.ERROR)
    assert listed.line == 3 and 'write each battle as "Attack #1 - Karelia' in listed.suggestion
    assert move.line == 5 and move.suggestion.startswith("write moves as:")


def test_an_unreadable_count_is_told_the_counts_form() -> None:
    """Post Combat Orders: "give a territory and IPC count. Please use units to distinguish
    between territory count and IPC count, i.e. UK 30/$32": "Income: 28" says neither."""
    turn = parse("USSR 1 post-combat\nIncome: 28\n")
    (unread,) = turn.diagnostics
    assert (unread.line, unread.severity) == (2, Severity.ERROR)
    assert "UK 30/$32" in unread.suggestion and "Kar 2 FTR" not in unread.suggestion
    assert parse("USSR 1 post-combat\nIncome: USSR 24/$28\n").counts[0].ipcs == 28


def test_units_named_before_any_header_are_told_to_go_under_one() -> None:
    """A move written before any header (pasted from elsewhere) is not read; the warning says
    orders are read under their part's header, not how an order of loss is written."""
    turn = parse("Germany 1 pre-combat\n3 infantry moved from East Europe to Karelia\n")
    assert [(d.line, d.code) for d in turn.diagnostics] == [(0, "no-orders"), (2, "not-read")]
    unread = turn.diagnostics[1]
    assert '"Combat moves:"' in unread.suggestion and "OOL" not in unread.suggestion


def test_remarks_in_brackets_on_a_map_update_line() -> None:
    """Tried as a new player: "(captured)" after a map update line was an unknown place,
    "(+ 1 arm from Syria)" put an armour in Syria, and "(2 inf from Russia)" was read as the
    USSR's units ("Russia" names the power too) and refused."""
    turn = parse(
        "Map update:\nAlgeria 2 inf, 1 arm (captured)\n"
        "UK 2 inf (UK's own units not listed)\nEgypt 1 inf (+ 1 arm from Syria)\n"
        "Finland Norway (MT)\nKarelia: 2 inf, AA, IC (2 inf from Russia)\n"
    )
    assert [(e.line, e.place, e.units.label(), e.others) for e in turn.map] == [
        (2, "Algeria", "2 INF, 1 ARM", ()),
        (3, "United Kingdom", "2 INF", ()),
        (4, "Anglo Sudan Egypt", "1 INF", ()),
        (5, "Finland Norway", "none", ()),
        (6, "Karelia S.S.R.", "2 INF, 1 AA, 1 IC", ()),
    ]
    assert [(d.line, d.severity.value, d.code) for d in turn.diagnostics] == [
        (2, "info", "not-read"),
        (3, "info", "not-read"),
        (4, "error", "unreadable"),
        (6, "info", "not-read"),
    ]


def test_a_sentence_naming_a_battle_to_roll_is_a_remark() -> None:
    """Tried as a new player: "Will roll battle 1 first." under the combat moves was an
    error ('first.' is not a unit): a battle's number in a sentence is no order."""
    turn = parse(
        "Germany 1 pre-combat\n\nCombat moves:\nAttack #1 - Karelia\nE Europe 3 inf\n"
        "Will roll battle 1 first. Good luck mate.\nRolling battle 2 next\n"
        "I'll roll #1 first\nRolling #1 with 3 inf first\nRolling #1 first.\n"
    )
    assert [b.attacker for b in turn.battles] == [Units.of({UnitType.INF: 3})]
    assert [(d.line, d.severity.value, d.code) for d in turn.diagnostics] == [
        (6, "info", "not-read"),
        (7, "info", "not-read"),
        (8, "info", "not-read"),
        (9, "error", "unknown-name"),
        (10, "info", "not-read"),  # three words: 'first.' was an unknown unit
    ]


def test_remarks_in_brackets_on_order_lines() -> None:
    """Tried as a new player: "Fighter in Norway lands back in UK (already counted above, 4
    spaces total)" was an error ('spaces' is not a unit). A bracket of words (and numbers
    that count no unit) naming no unit, place or route is a remark, noted."""
    turn = parse(
        "Purchases: 5 inf (for next turn)\n\nNCM:\n"
        "Fighter in Norway lands back in UK (already counted above, 4 spaces total)\n"
        "Russia 2 inf to Karelia (to reinforce)\n\nPlacement:\nRussia 3 inf (as usual)\n"
        "S Europe 1 trn (Med SZ)\n"
    )
    assert [(p.line, p.units.label()) for p in turn.purchases] == [(1, "5 INF")]
    assert [(m.line, m.origin, m.destination) for m in turn.moves] == [
        (4, "Finland Norway", "United Kingdom")
    ]
    assert [(p.line, p.place) for p in turn.placements] == [(8, "Russia"), (9, "South Europe")]
    assert [(d.line, d.severity.value, d.code) for d in turn.diagnostics] == [
        (1, "info", "not-read"),
        (4, "info", "not-read"),
        (5, "error", "unknown-name"),
        (8, "info", "not-read"),
        (9, "error", "ambiguous-name"),  # a place written so it fits three is no remark
    ]


def test_a_new_players_russian_opening() -> None:
    """Tried as a new player: "(ftr lands in Caucasus)" after "1 arm, 1 ftr" counted a
    second fighter, with no origin; "defender OOL is yours as usual" was two errors; and
    after "That's it, good luck!" the signature "Ivan" was read as Iran, an origin."""
    turn = parse(
        "Russia 1 (pre-combat)\n\n#1 Ukraine S.S.R. (3 inf, 2 arm, 1 ftr)\n"
        "   Karelia 3 inf, 1 arm\n   Russia: 1 arm, 1 ftr (ftr lands in Caucasus)\n\n"
        "Special: defender OOL is yours as usual\n\nThat's it, good luck!\nIvan\n"
    )
    (battle,) = turn.battles
    assert battle.attacker == Units.of({UnitType.INF: 3, UnitType.ARM: 2, UnitType.FTR: 1})
    assert [(o.place, o.units.label(), o.lands) for o in battle.origins] == [
        ("Karelia S.S.R.", "3 INF, 1 ARM", None),
        ("Russia", "1 ARM, 1 FTR", "Caucasus"),
    ]
    assert [(d.line, d.severity.value, d.code) for d in turn.diagnostics] == [
        (7, "info", "not-read")
    ]


def test_a_new_players_uk_amphibious_turn() -> None:
    """Tried as a new player: battles headed "A1." and "A2." were not read (their origins
    went to no battle, then to the wrong one); "2 inf on trn (UK SZ)" took the transports'
    zone for an origin with no units; and a correction after the defenders ("? no - Baltic
    SZ (...)") was dropped without a word."""
    turn = parse(
        "UK 1 Combat\n\nAttacks\nA1. Norway (3 inf)\n"
        " - UK: 2 inf on trn (UK SZ) -> unload Norway\n - UK: 1 ftr, 1 bmb\n\n"
        "A2. North Sea Zone (1 sub)? no - Baltic SZ (1 trn, 1 sub)\n - UK SZ: 1 BB\n"
        "B3: Karelia (2 inf) - should be easy\n"
    )
    assert [(b.number, b.territory, b.line) for b in turn.battles] == [
        (1, "Finland Norway", 4),
        (2, "North Sea Zone", 8),
        (3, "Karelia S.S.R.", 10),
    ]
    landing = turn.battles[0].origins[0]
    assert (landing.place, landing.units.label(), landing.transports.label(), landing.via) == (
        "United Kingdom",
        "2 INF",
        "1 TRN",
        ("North Sea Zone",),
    )
    assert [(d.line, d.severity.value, d.code) for d in turn.diagnostics] == [
        (8, "error", "unreadable"),
        (10, "info", "not-read"),
        (10, "warning", "no-attackers"),
    ]


@pytest.mark.parametrize(
    "origin",
    [
        "UK: 2 inf by transport from UK SZ",
        "UK 2 inf by trn from UK SZ to Norway",
        "UK: 2 inf, by transport, from UK SZ",
    ],
)
def test_units_by_transport_from_a_sea_zone(origin: str) -> None:
    """Tried as a new player: "UK: 1 inf, 1 arm by transport from UK SZ" was an error
    ('by' is no place). "By transport" is "on" a transport, and the zone "from" which it
    sails is the transports' zone, as in "UK 2 INF on UK SZ 1 TRN"."""
    turn = parse(f"UK 1 Combat\nCombat:\n#1 Norway (3 inf)\n{origin}\n")
    (landing,) = turn.battles[0].origins
    assert (landing.place, landing.units.label(), landing.transports.label(), landing.via) == (
        "United Kingdom",
        "2 INF",
        "1 TRN",
        ("North Sea Zone",),
    )
    assert turn.diagnostics == ()


def test_a_new_players_american_landing() -> None:
    """Tried as a new player: "Algeria (amphibious) - 1 inf" took the mark for the
    defenders' bracket (the defenders after it were then refused), and "2 trn carrying 2
    inf, 2 arm (from E US)" read 'carrying' as a place."""
    turn = parse(
        "USA R1 precombat\n\nAttack 1: Algeria (amphibious) - 1 inf\n"
        " E US SZ: 2 trn carrying 2 inf, 2 arm (from E US)\n E US 1 bmb\n"
    )
    (battle,) = turn.battles
    assert (battle.territory, battle.defender) == ("Algeria", Units.of({UnitType.INF: 1}))
    boats = battle.origins[0]
    assert (boats.place, boats.units.label(), boats.transports.label(), boats.via) == (
        "East US",
        "2 INF, 2 ARM",
        "2 TRN",
        ("East US Sea Zone",),
    )
    assert turn.diagnostics == ()


def test_a_non_combat_move_with_no_origin_and_a_space_with_none() -> None:
    """Tried as a new player: "bmb returns to Germany" was taken as a move from nowhere
    without a word (no check weighs such a move), and "W Europe: 0" was unreadable."""
    turn = parse("NCM:\nbmb returns to Germany\n\nMap:\nW Europe: 0\nGermany 1 bmb\n")
    assert [(m.origin, m.destination, m.units.label()) for m in turn.moves] == [
        (None, "Germany", "1 BMB")
    ]
    assert [(e.place, e.units.label()) for e in turn.map] == [
        ("West Europe", "none"),
        ("Germany", "1 BMB"),
    ]
    assert [(d.line, d.severity.value, d.code) for d in turn.diagnostics] == [
        (2, "warning", "no-origin")
    ]


def test_a_name_after_a_closing_remark_is_a_signature() -> None:
    """Tried as a new player by email: "Will roll battle 1 first. Good luck!" then "Ivan"
    read the name as Iran (Persia), an origin with no units, and the rules engine proposed a
    typographical ruling on it."""
    turn = parse(
        "Russia round 1 - combat\n\nCombat moves:\n1. Ukraine (3 inf, 2 arm, 1 ftr)\n"
        "   Karelia: 3 inf, 1 arm\n\nWill roll battle 1 first. Good luck!\nIvan\n"
    )
    assert [o.place for o in turn.battles[0].origins] == ["Karelia S.S.R."]
    assert [(d.line, d.code) for d in turn.diagnostics] == [(7, "not-read")]


def test_a_name_after_a_request_for_orders_of_loss_is_a_signature() -> None:
    """Tried as a new player: "Please send your OOL for both battles. Thanks!" then "Ivan"
    under "Non-combat: none yet". "OOL" made the request look like an order, so the name
    was no signature: it was read as a non-combat move from Iran (Persia) with no
    destination, an error in an email with none."""
    turn = parse(
        "Russia round 1 - combat\n\nCombat:\nAttack 1: Ukraine (3 inf, 2 arm, 1 ftr)\n"
        "  Caucasus 2 inf, 1 arm\n\nNon-combat: none yet\n\n"
        "Please send your OOL for both battles. Thanks!\nIvan\n"
    )
    assert not turn.moves
    assert [(d.line, d.severity.value, d.code) for d in turn.diagnostics] == [
        (7, "info", "not-read"),
        (9, "info", "not-read"),
    ]


def test_units_bought_heads_the_purchases_and_a_bracketed_ipc_count_is_their_cost() -> None:
    """Tried as a new player (Japan): "Units bought: 1 carrier, 1 infantry (19 IPCs)" under
    "Research: none" was an error, a tech result that could not be read; and "(19 IPCs)"
    after a purchase was set aside as a remark, so a wrong total went unremarked. The
    amount in brackets is checked against the printed prices as "= 19 IPCs" is."""
    turn = parse("Japan turn 1\n\nResearch: none\nUnits bought: 1 carrier, 1 infantry (19 IPCs)\n")
    assert [(p.units, p.spent) for p in turn.purchases] == [
        (Units.of({UnitType.INF: 1, UnitType.AC: 1}), 19)
    ]
    assert turn.diagnostics == ()
    remark = parse("Japan 1 pre-combat\nNCM:\nJapan 1 INF to Manchuria (3 IPC there)\n")
    assert [(d.code, d.message) for d in remark.diagnostics] == [
        ("not-read", "'(3 IPC there)' was read as a remark, not as part of the order")
    ]


def test_a_request_for_orders_of_loss_after_a_remark_is_no_order_of_loss() -> None:
    """Tried as a new player by email: "Rolling #1 first. Please send your OOL for both
    battles. Thanks!" was read as an order of loss ('send your' no place, 'for' read as
    FTR, and the rules engine proposed a typographical ruling on it), and the name "Ivan"
    below it as an attack from Iran. A line naming no unit, with no number but a battle's,
    gives no order whatever words of orders it holds."""
    turn = parse(
        "Russia 1 combat\nCombat:\n#1 Ukraine\nCaucasus 2 inf\n\n"
        "Rolling #1 first. Please send your OOL for both battles. Thanks!\nIvan\n"
    )
    assert turn.orders_of_loss == ()
    assert [o.place for o in turn.battles[0].origins] == ["Caucasus"]
    assert [(d.line, d.severity.value, d.code) for d in turn.diagnostics] == [
        (6, "info", "not-read")
    ]
    ordered = parse("Russia 1 combat\nCombat:\n#1 Ukraine\nCaucasus 2 inf\nOOL #1: inf, arm\n")
    assert [[e.unit.value for e in o.order] for o in ordered.orders_of_loss] == [["INF", "ARM"]]


@pytest.mark.parametrize(
    ("text", "purchases", "placements"),
    [
        ("Buying: 2 inf\nPlacing: 2 inf in Germany", 1, 1),
        ("Spend: 2 inf ($6)", 1, 0),
        ("1) Tech: none\n2) Purchases: 3 inf\n3) Combat moves:\n#1 Karelia\nE Eur 3 inf", 1, 0),
    ],
)
def test_headers_as_new_players_write_them(text: str, purchases: int, placements: int) -> None:
    """Tried as new players: "Buying:" was read as a tech result ("8 research dice cost
    $40"), "Placing: 3 inf in India" was added to the purchase, and sections numbered as a
    list ("1) Tech: none") left the whole email an empty turn."""
    turn = parse(f"Germany 1 pre-combat\n{text}\n")
    assert (len(turn.purchases), len(turn.placements)) == (purchases, placements)
    assert turn.diagnostics == ()


def test_tech_zero_a_dashed_signature_and_will_in_a_bracket() -> None:
    """Tried as new players: "Tech: 0" could not be read; "-Ivan" under the orders was an
    attack from Iran; "(will land back in Kar)" made 'will' a place and dropped the line."""
    turn = parse(
        "Germany 1 pre-combat\nTech: 0\nCombat:\n#1 Karelia\n"
        "E Eur 3 inf, 1 ftr (will land back in E Eur)\n\n-Ivan\n"
    )
    assert [t.dice for t in turn.tech] == [0]
    (origin,) = turn.battles[0].origins
    assert (origin.place, origin.lands) == ("East Europe", "East Europe")
    assert turn.diagnostics == ()


def test_post_combat_headers_as_new_players_write_them() -> None:
    """Found by a helper writing post-combat emails as new players: a map update headed
    "Territories:" went on as placements, silently; "NCMs", "Noncom:" and "Purchases
    placed:" headed nothing; and "Combat:" in a post-combat email read the results as
    combat moves. A whole turn's title ("combat and non-combat") keeps "Combat:" for its
    combat moves."""
    turn = parse(
        "Germany 1 post-combat\nCombat:\nKarelia: won, 2 inf left\nNCMs\nGer 1 ftr to E Eur\n"
        "Purchases placed:\nGermany 2 inf\nTerritories:\nKarelia: 2 inf\n"
    )
    assert [(r.line, r.territory) for r in turn.results] == [(3, "Karelia S.S.R.")]
    assert [m.line for m in turn.moves] == [5]
    assert [(p.line, p.place) for p in turn.placements] == [(7, "Germany")]
    assert [(e.line, e.place) for e in turn.map] == [(9, "Karelia S.S.R.")]
    assert turn.diagnostics == ()
    whole = parse("USSR 3 combat and non-combat\nCombat:\n#1 Ukraine\nKar 3 INF\n")
    assert [b.territory for b in whole.battles] == ["Ukraine S.S.R."]


def test_an_unknown_heading_ends_the_part_before_it() -> None:
    """Found by a helper writing post-combat emails as new players: a map update under
    "Units:" went on as placements, silently. A line of a few words and a colon that heads
    no part the engine knows ends the part before it; its lines are read as under no
    heading, and those naming units are warned of. A place with a colon ("Karelia:")
    heads nothing."""
    turn = parse(
        "Germany 1 post-combat\nPlacement:\nGermany 4 inf\n\nUnits:\nKarelia: 6 inf, 1 arm\n"
        "Map:\nGermany 4 inf\nKarelia:\n"
    )
    assert [(p.line, p.place) for p in turn.placements] == [(3, "Germany")]
    assert [(e.line, e.place) for e in turn.map] == [(8, "Germany"), (9, "Karelia S.S.R.")]
    assert [(d.line, d.severity.value, d.code) for d in turn.diagnostics] == [
        (5, "info", "unknown-heading"),
        (6, "warning", "not-read"),
    ]
