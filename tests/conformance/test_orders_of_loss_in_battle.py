"""IAAPA Default Orders of Loss (OOL), applied by the battle engine to real dice.

``test_default_orders_of_loss.py`` checks the printed lists; these cases check that a battle
takes its casualties in those orders (and in a player's own order when one is declared).
"""

from __future__ import annotations

from adjudicator.notation.messages import RETREAT, SPECIAL_ORDERS, read_note
from adjudicator.rolls.declared import order_of_loss_in
from tests.conformance.cases import battle, misses


class TestLandTerritories:
    """Land Territories - Attacking: INF, ARM, FTR, BMB - Defending: INF, ARM, BMB, FTR"""

    def test_attacking(self) -> None:
        """ "Attacking: INF, ARM, FTR, BMB": three hits on one of each leave the bomber."""
        out = battle(
            "land",
            {"INF": 1, "ARM": 1, "FTR": 1, "BMB": 1},
            {"INF": 3},
            {"attacker": misses(INF=1, ARM=1, FTR=1, BMB=1), "defender": {"INF": [1, 2, 1]}},
        )
        assert out["rounds"][0]["attacker_casualties"] == {"INF": 1, "ARM": 1, "FTR": 1}
        assert out["survivors"]["attacker"] == {"BMB": 1}

    def test_defending(self) -> None:
        """ "Defending: INF, ARM, BMB, FTR": the defending bomber goes before the fighter."""
        out = battle(
            "land",
            {"ARM": 3},
            {"INF": 1, "ARM": 1, "BMB": 1, "FTR": 1},
            {"attacker": {"ARM": [1, 3, 2]}, "defender": misses(INF=1, ARM=1, BMB=1, FTR=1)},
        )
        assert out["rounds"][0]["defender_casualties"] == {"INF": 1, "ARM": 1, "BMB": 1}
        assert out["survivors"]["defender"] == {"FTR": 1}


class TestSeaZones:
    """Sea Zones - Attacking-- TRN, SUB, FTR, BMB, AC, BB - Defending -- TRN, SUB, FTR, AC, BB"""

    def test_attacking(self) -> None:
        """ "Attacking-- TRN, SUB, FTR, BMB, AC, BB": five hits leave only the battleship."""
        out = battle(
            "sea",
            {"TRN": 1, "SUB": 1, "FTR": 1, "BMB": 1, "AC": 1, "BB": 1},
            {"BB": 5},
            {
                "attacker": misses(SUB=1, FTR=1, BMB=1, AC=1, BB=1),
                "defender": {"BB": [1, 2, 3, 4, 4]},
            },
        )
        assert out["rounds"][0]["attacker_casualties"] == {
            "FTR": 1,
            "BMB": 1,
            "TRN": 1,
            "SUB": 1,
            "AC": 1,
        }
        assert out["survivors"]["attacker"] == {"BB": 1}

    def test_defending(self) -> None:
        """ "Defending -- TRN, SUB, FTR, AC, BB": the fighter goes before its carrier."""
        out = battle(
            "sea",
            {"BB": 4},
            {"TRN": 1, "SUB": 1, "FTR": 1, "AC": 1, "BB": 1},
            {"attacker": {"BB": [1, 4, 2, 3]}, "defender": misses(TRN=1, SUB=1, FTR=1, AC=1, BB=1)},
        )
        assert out["rounds"][0]["defender_casualties"] == {"FTR": 1, "TRN": 1, "SUB": 1, "AC": 1}
        assert out["survivors"]["defender"] == {"BB": 1}

    def test_fewer_hits_take_the_front_of_the_order(self) -> None:
        """Two hits on TRN, SUB, FTR, AC, BB sink the transport and the submarine."""
        out = battle(
            "sea",
            {"BB": 2},
            {"TRN": 1, "SUB": 1, "FTR": 1, "AC": 1, "BB": 1},
            {"attacker": {"BB": [1, 1]}, "defender": misses(TRN=1, SUB=1, FTR=1, AC=1, BB=1)},
        )
        assert out["rounds"][0]["defender_casualties"] == {"TRN": 1, "SUB": 1}


class TestNoteAirOnlyNoRetreat:
    """Note: In a no retreat situation involving only attacking air units, defending subs are
    lost before other defending units."""

    def test_subs_first_when_only_air_attacks_and_cannot_retreat(self) -> None:
        """Only attacking air, no retreat: the sub goes before the transport."""
        out = battle(
            "sea",
            {"FTR": 2},
            {"TRN": 1, "SUB": 1},
            {"attacker": {"FTR": [1, 6]}, "defender": misses(TRN=1, SUB=1)},
            no_retreat=1,
        )
        assert out["rounds"][0]["defender_casualties"] == {"SUB": 1}

    def test_twin_air_that_may_retreat_keeps_the_default(self) -> None:
        """The same air attack, free to retreat: the transport goes first."""
        out = battle(
            "sea",
            {"FTR": 2},
            {"TRN": 1, "SUB": 1},
            {"attacker": {"FTR": [1, 6]}, "defender": misses(TRN=1, SUB=1)},
        )
        assert out["rounds"][0]["defender_casualties"] == {"TRN": 1}

    def test_twin_a_ship_among_the_attackers_keeps_the_default(self) -> None:
        """No retreat, but a battleship attacks too: not "only attacking air units"."""
        out = battle(
            "sea",
            {"FTR": 1, "BB": 1},
            {"TRN": 1, "SUB": 1},
            {"attacker": {"FTR": [1], "BB": [6]}, "defender": misses(TRN=1, SUB=1)},
            no_retreat=1,
        )
        assert out["rounds"][0]["defender_casualties"] == {"TRN": 1}

    def test_from_the_round_the_ships_are_gone(self) -> None:
        """The note applies from the first round in which only aircraft attack."""
        out = battle(
            "sea",
            {"FTR": 1, "TRN": 1},
            {"TRN": 2, "SUB": 1},
            {"attacker": {"FTR": [6]}, "defender": {"TRN": [1, 6], "SUB": [6]}},
            {"attacker": {"FTR": [1]}, "defender": {"TRN": [6, 6], "SUB": [6]}},
            no_retreat=1,
        )
        assert out["rounds"][0]["attacker_casualties"] == {"TRN": 1}
        assert out["rounds"][1]["defender_casualties"] == {"SUB": 1}


class TestSpecialOrders:
    """A player may designate any order of loss that he desires for his casualties. If a
    defender does not send in any special orders of loss prior to the attacker rolling the
    battle then the Association defaults will be used."""

    def test_declared_order_replaces_the_default(self) -> None:
        """The defender keeps his infantry and loses the fighter first."""
        out = battle(
            "land",
            {"ARM": 2},
            {"INF": 2, "FTR": 1},
            {"attacker": {"ARM": [1, 6]}, "defender": misses(INF=2, FTR=1)},
            order_of_loss={"defender": ["FTR", "INF"]},
        )
        assert out["rounds"][0]["defender_casualties"] == {"FTR": 1}

    def test_attacker_order_too(self) -> None:
        """The attacker may order his own losses: armour before infantry."""
        out = battle(
            "land",
            {"INF": 1, "ARM": 1},
            {"INF": 2},
            {"attacker": misses(INF=1, ARM=1), "defender": {"INF": [2, 6]}},
            order_of_loss={"attacker": ["ARM", "INF"]},
        )
        assert out["rounds"][0]["attacker_casualties"] == {"ARM": 1}

    def test_units_left_out_are_lost_after_the_listed_ones(self) -> None:
        """Judgement: an order that omits a unit present cannot spare it (a hit is taken
        while a unit remains); omitted units follow, in the default order, with a note."""
        out = battle(
            "land",
            {"ARM": 3},
            {"INF": 1, "ARM": 1, "BMB": 1},
            {"attacker": {"ARM": [1, 1, 6]}, "defender": misses(INF=1, ARM=1, BMB=1)},
            order_of_loss={"defender": ["BMB"]},
        )
        assert out["rounds"][0]["defender_casualties"] == {"INF": 1, "BMB": 1}
        assert any("leaves out INF, ARM" in d["message"] for d in out["diagnostics"])

    def test_a_special_orders_note_sets_the_order_without_a_marker(self) -> None:
        """A note whose topic is special orders is such orders from its first line: a
        defender's "Ukraine: arm, inf, ftr" under a salutation is his order for the battle
        in Ukraine, though no "OOL" is written; the same lines in a turn email are not read
        as one."""
        text = "Hans,\n\nUkraine: arm, inf, ftr\n"
        note = read_note(SPECIAL_ORDERS, text)
        assert order_of_loss_in(text, 1, "Ukraine S.S.R.", note) == ["ARM", "INF", "FTR"]
        assert order_of_loss_in(text, 1, "Ukraine S.S.R.") == []
        assert read_note(RETREAT, text).orders_of_loss == ()

    def test_an_order_for_a_place_that_cannot_be_read_is_no_order(self) -> None:
        """An order of loss whose battle cannot be read ("West Russia", no Classic place) is
        an error and no order at all: the defaults apply. It was read as an order for every
        battle, Karelia's among them; a sub withdrawal so written was kept too."""
        text = "West Russia: inf, arm\nWest Russia: sub withdraws to Baltic SZ\n"
        note = read_note(SPECIAL_ORDERS, text)
        assert order_of_loss_in(text, 1, "Karelia S.S.R.", note) == []
        assert note.withdrawals == ()
        assert [d.code for d in note.errors] == ["unknown-name", "unknown-name"]
