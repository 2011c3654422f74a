"""IAAPA Rules Clarifications, Retreats, Amphibious Assaults and Sub Withdrawal: the retreat
locations a turn writes (a result's "retreated to", a retreat note, a defender's withdrawal),
each case against a position built for it, one illegal case and one legal look-alike a rule."""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.declarations import Code, check_turn
from adjudicator.declarations.retreats import check_retreats
from adjudicator.diagnostics import Diagnostic, Rule, Severity
from adjudicator.notation import Turn, parse
from adjudicator.position import arranged
from adjudicator.powers import Power
from adjudicator.units import UnitType as U

UK, G, R, US = Power.UK, Power.GERMANY, Power.USSR, Power.USA
Board = Mapping[str, Mapping[Power, Mapping[U, int]]]

EUROPE: Board = {
    "Germany": {G: {U.INF: 2, U.ARM: 2}},
    "East Europe": {G: {U.INF: 3, U.FTR: 1}},
    "Ukraine S.S.R.": {G: {U.INF: 1, U.FTR: 1}},
    "Baltic Sea Zone": {G: {U.TRN: 1}},
    "Karelia S.S.R.": {R: {U.INF: 3}},
}
"""Germany to move, attacking Karelia (held as at the opening: Ukraine and East Europe
German, Caucasus Soviet)."""

ATLANTIC: Board = {
    "East US Sea Zone": {UK: {U.BB: 1}},
    "North Sea Zone": {UK: {U.BB: 2}},
    "West Spain Sea Zone": {G: {U.SUB: 1}},
    "West Mediteranean Sea Zone": {US: {U.TRN: 1}},
}
"""The UK to move, attacking a German sub off Spain; a US transport in the West Med."""


def _read(text: str) -> Turn:
    turn = parse(text)
    assert turn.errors == (), "the email itself must read cleanly"
    return turn


def retreats(
    board: Board, email: str, *, to_move: Power = G, precombat: str | None = "same"
) -> list[Diagnostic]:
    """The findings about ``email``'s retreats; its own combat moves are the turn's unless
    ``precombat`` names another email's (None: the combat moves are not known)."""
    turn = _read(email)
    moves = turn if precombat == "same" else _read(precombat) if precombat else None
    return check_retreats(arranged(board, to_move=to_move), to_move, turn, moves)


def lines(found: list[Diagnostic]) -> list[tuple[int, Code]]:
    return [(f.line, Code(f.code)) for f in found]


def note(origins: str, to: str) -> str:
    """A pre-combat attack on Karelia with a retreat note on line 4 (origins on lines 2-3)."""
    body = origins if "\n" in origins else f"{origins}\n"
    return f"Attack #1 - Karelia\n{body}\nBattle #1 Karelia: retreat to {to}\n"


class TestAdjacent:
    """Retreats: "Any adjacent friendly land territory or sea zone will qualify as a legal
    retreat location as long as an attacking unit originates from or passes through the
    territory or sea zone." """

    def test_a_territory_not_adjacent_to_the_battle(self) -> None:
        found = retreats(EUROPE, note("E Europe 3 INF\nGermany 2 ARM", "Germany"))
        assert lines(found) == [(4, Code.RETREAT_ILLEGAL)]
        assert "Germany is not adjacent to Karelia S.S.R." in found[0].message
        assert "battle #1 (Karelia S.S.R.)" in found[0].message

    def test_the_adjacent_origin(self) -> None:
        assert retreats(EUROPE, note("E Europe 3 INF\nGermany 2 ARM", "E Europe")) == []


class TestLandUnitsRetreatToLand:
    """Retreats: land and naval units retreat during combat, land units to an adjacent land
    territory; a land battle's survivors cannot go to sea. Facts sheet, section 2: "Planes
    that retreat simply land in non-combat", so aircraft alone have no retreat location to
    judge."""

    EMAIL = "Results:\nAttack #1 - Karelia: retreated to Baltic SZ with {survivors}\n"

    def test_infantry_retreating_into_a_sea_zone(self) -> None:
        found = retreats(EUROPE, self.EMAIL.format(survivors="2 INF"), precombat=None)
        assert lines(found) == [(2, Code.RETREAT_ILLEGAL)]
        assert "a land battle's survivors retreat only to land" in found[0].message

    def test_fighters_alone_flying_off(self) -> None:
        assert retreats(EUROPE, self.EMAIL.format(survivors="1 FTR"), precombat=None) == []


class TestFriendlyAtTheTimeOfTheRetreat:
    """Retreats: "the retreat location does not need to be friendly at the start of the
    turn; it just needs to be friendly at the time of the retreat." The order of battles is
    not known, so a place any won battle of the turn took counts."""

    EMAIL = (
        "Results:\nAttack #1 - Caucasus: {first}\n"
        "Attack #2 - Karelia: retreated to Caucasus with 2 INF\n"
    )

    def test_a_territory_the_enemy_still_holds(self) -> None:
        found = retreats(EUROPE, self.EMAIL.format(first="lost"), precombat=None)
        assert lines(found) == [(3, Code.RETREAT_ILLEGAL)]
        assert "Caucasus is held by USSR and was not taken this turn" in found[0].message

    def test_a_territory_taken_earlier_in_the_turn(self) -> None:
        email = self.EMAIL.format(first="won, 2 INF survive")
        assert retreats(EUROPE, email, precombat=None) == []

    def test_with_no_battle_of_the_turn_known_nothing_is_guessed(self) -> None:
        """A retreat note alone: any battle of the turn might have taken Caucasus."""
        email = "Battle #2 Karelia: retreat to Caucasus\n"
        assert retreats(EUROPE, email, precombat=None) == []


class TestAnAttackingUnitCameFromIt:
    """Retreats: "... as long as an attacking unit originates from or passes through the
    territory or sea zone." """

    def test_a_friendly_neighbour_no_attacker_came_from(self) -> None:
        found = retreats(EUROPE, note("E Europe 3 INF", "Ukraine"))
        assert lines(found) == [(4, Code.RETREAT_ILLEGAL)]
        assert "no attacking unit came from or through Ukraine S.S.R." in found[0].message

    def test_one_infantry_from_there_qualifies_it(self) -> None:
        assert retreats(EUROPE, note("E Europe 3 INF\nUkraine 1 INF", "Ukraine")) == []


class TestFlightPathsCannotValidate:
    """Retreats: "flight paths cannot validate retreat locations." """

    def test_only_a_fighter_came_from_there(self) -> None:
        found = retreats(EUROPE, note("E Europe 3 INF\nUkraine 1 FTR", "Ukraine"))
        assert lines(found) == [(4, Code.RETREAT_ILLEGAL)]
        assert "only aircraft came from or through Ukraine S.S.R." in found[0].message
        assert "flight paths cannot validate retreat locations" in found[0].message

    def test_a_fighter_and_an_infantry_from_there(self) -> None:
        assert retreats(EUROPE, note("E Europe 3 INF\nUkraine 1 INF, 1 FTR", "Ukraine")) == []


class TestBlitzingArmor:
    """Retreats: "Any territory or sea zone that could possibly provide a retreat zone for
    blitzing armor or naval units will be considered valid. While it is recommended that you
    specify the route traveled by such units, it is not absolutely required." Tanks from
    Germany reach Karelia only through East Europe."""

    def test_the_unnamed_territory_the_tanks_passed_through(self) -> None:
        assert retreats(EUROPE, note("Germany 2 ARM", "E Europe")) == []

    def test_a_territory_no_route_of_theirs_passes(self) -> None:
        found = retreats(EUROPE, note("Germany 2 ARM", "Ukraine"))
        assert lines(found) == [(4, Code.RETREAT_ILLEGAL)]
        assert "no attacking unit came from or through Ukraine S.S.R." in found[0].message


class TestNavalUnits:
    """Retreats: the same rule at sea, for "naval units" that "could possibly" have passed
    through a zone. A battleship from the East US zone reaches West Spain through the North
    Atlantic or East Canada zone."""

    EMAIL = "Attack #1 - West Spain SZ\nEast US SZ 1 BB\n\nBattle #1: retreat to {to}\n"

    def test_a_zone_the_battleship_could_have_sailed_through(self) -> None:
        assert retreats(ATLANTIC, self.EMAIL.format(to="North Atlantic"), to_move=UK) == []

    def test_a_zone_off_its_route(self) -> None:
        found = retreats(ATLANTIC, self.EMAIL.format(to="North Sea"), to_move=UK)
        assert lines(found) == [(4, Code.RETREAT_ILLEGAL)]
        assert "no attacking unit came from or through North Sea Zone" in found[0].message

    def test_a_zone_the_enemy_still_holds(self) -> None:
        """ "Any adjacent friendly land territory or sea zone": a zone holding enemy units no
        battle of the turn cleared is not friendly, though the battleship passed it."""
        board = {**ATLANTIC, "North Atlantic Sea Zone": {G: {U.SUB: 1}}}
        email = self.EMAIL.replace("East US SZ", "North Sea").format(to="North Atlantic")
        found = retreats(board, email, to_move=UK)
        assert lines(found) == [(4, Code.RETREAT_ILLEGAL)]
        assert "holds enemy units" in found[0].message

    def test_ships_do_not_retreat_ashore(self) -> None:
        found = retreats(ATLANTIC, self.EMAIL.format(to="Spain"), to_move=UK)
        assert lines(found) == [(4, Code.RETREAT_ILLEGAL)]
        assert "naval units retreat only to a sea zone" in found[0].message


class TestAmphibiousAssaults:
    """Amphibious Assaults: "If units are unloaded from a transport then the attacker may
    not retreat any ground units. It is a fight to the death and an exception to the normal
    retreating rules. If there are no units unloaded from a transport, then it is simply a
    land battle resolved like any other." Facts sheet, section 2: "the attacker may not
    retreat anything" (planes included)."""

    ASSAULT = "E Europe 3 INF\nGermany 2 INF on Baltic SZ 1 TRN"

    def test_a_retreat_from_an_amphibious_assault(self) -> None:
        found = retreats(EUROPE, note(self.ASSAULT, "E Europe"))
        assert lines(found) == [(4, Code.RETREAT_ILLEGAL)]
        assert found[0].rule is Rule.RETREATS and found[0].also == (Rule.AMPHIBIOUS,)
        assert "amphibious assault" in found[0].message

    def test_its_fighters_may_not_retreat_either(self) -> None:
        precombat = f"Attack #1 - Karelia\n{self.ASSAULT}\nE Europe 1 FTR\n"
        email = "Results:\nAttack #1 - Karelia: retreated to E Europe with 1 FTR\n"
        found = retreats(EUROPE, email, precombat=precombat)
        assert lines(found) == [(2, Code.RETREAT_ILLEGAL)]

    def test_the_same_attack_overland(self) -> None:
        assert retreats(EUROPE, note("E Europe 3 INF", "E Europe")) == []


class TestAWarningThatVoidsNothing:
    """Retreats: "If an invalid retreat location is declared, all subsequent battles may,
    at the discretion of the Minister of Law, be voided and subject to re-rolling." The
    Minister decides: the finding is a warning, and no battle is void by it."""

    def test_the_note_is_checked_with_the_turn(self) -> None:
        email = "Germany 2 pre-combat\n\n" + note("E Europe 3 INF", "Germany")
        checked = check_turn(parse(email), arranged(EUROPE, to_move=G))
        found = [f for f in checked.findings if f.code == Code.RETREAT_ILLEGAL]
        assert [(f.line, f.severity, f.battles) for f in found] == [(6, Severity.WARNING, ())]
        assert checked.void_battles == ()

    def test_a_legal_note_finds_nothing(self) -> None:
        email = "Germany 2 pre-combat\n\n" + note("E Europe 3 INF", "E Europe")
        checked = check_turn(parse(email), arranged(EUROPE, to_move=G))
        assert [f for f in checked.findings if f.code == Code.RETREAT_ILLEGAL] == []


class TestSubWithdrawal:
    """Sub Withdrawal, with the facts sheet, section 2: "Defending subs may withdraw to any
    adjacent sea zone with no enemy ships or planes in it at that moment." Every combat move
    is made before the first battle, so "that moment" is after them: the attacker's ships
    that did not move are there, and its allies' (they do not move in its turn)."""

    ATTACK = "Attack #1 - West Spain SZ\nNorth Sea {n} BB\n"
    ORDER = "Sub withdrawal for battle #1 (West Spain SZ): {to}\n"

    def withdraw(self, to: str, *, sent: int = 1, known: bool = True) -> list[Diagnostic]:
        attack = self.ATTACK.format(n=sent) if known else None
        return retreats(ATLANTIC, self.ORDER.format(to=to), to_move=UK, precombat=attack)

    def test_a_zone_not_adjacent(self) -> None:
        found = self.withdraw("Baltic SZ")
        assert lines(found) == [(1, Code.RETREAT_ILLEGAL)]
        assert found[0].rule is Rule.SUB_WITHDRAWAL
        assert "Baltic Sea Zone is not adjacent to West Spain Sea Zone" in found[0].message

    def test_an_adjacent_empty_zone(self) -> None:
        assert self.withdraw("West Africa SZ") == []

    def test_ashore(self) -> None:
        """ "to any adjacent sea zone": Spain is land."""
        found = self.withdraw("Spain")
        assert lines(found) == [(1, Code.RETREAT_ILLEGAL)]
        assert "subs withdraw only to a sea zone" in found[0].message

    def test_a_zone_holding_the_attackers_ally(self) -> None:
        found = self.withdraw("West Med")
        assert lines(found) == [(1, Code.RETREAT_ILLEGAL)]
        assert "1 TRN in West Mediteranean Sea Zone" in found[0].message

    def test_a_zone_where_one_attacking_battleship_stayed(self) -> None:
        found = self.withdraw("North Sea")
        assert lines(found) == [(1, Code.RETREAT_ILLEGAL)]
        assert "1 BB in North Sea Zone" in found[0].message

    def test_the_zone_both_battleships_left(self) -> None:
        assert self.withdraw("North Sea", sent=2) == []

    def test_without_the_combat_moves_the_attackers_own_ships_may_have_left(self) -> None:
        assert self.withdraw("North Sea", known=False) == []

    def test_the_defenders_orders_are_checked_in_the_attackers_turn(self) -> None:
        """A special-orders email names no power: the withdrawal is against the power to
        move, whose attack it answers."""
        email = "Special orders:\n\n" + self.ORDER.format(to="West Med")
        checked = check_turn(
            parse(email),
            arranged(ATLANTIC, to_move=UK),
            precombat=parse(self.ATTACK.format(n=1)),
        )
        found = [f for f in checked.findings if f.code == Code.RETREAT_ILLEGAL]
        assert [(f.line, f.severity) for f in found] == [(3, Severity.WARNING)]
