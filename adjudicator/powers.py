"""The five powers of Classic, in turn order, with their TripleA player names."""

from __future__ import annotations

from adjudicator.fastenum import FastEnum


class Alliance(FastEnum):
    """The two sides; an IAAPA game is two players, one per alliance."""

    AXIS = "Axis"
    """Germany and Japan: played by the lower bid (IAAPA Bidding)."""
    ALLIES = "Allies"
    """USSR, UK and USA."""


class Power(FastEnum):
    """A power, named as the league writes it; the value is its turn position (1 = first).

    Turn order USSR, Germany, UK, Japan, USA [SPEC p.6; XML sequence].
    """

    USSR = 1
    """The Soviet Union (TripleA "Russians")."""
    GERMANY = 2
    """Germany (TripleA "Germans")."""
    UK = 3
    """The United Kingdom (TripleA "British")."""
    JAPAN = 4
    """Japan (TripleA "Japanese")."""
    USA = 5
    """The United States (TripleA "Americans")."""

    @property
    def triplea_name(self) -> str:
        """The player's name in TripleA game files."""
        return _TRIPLEA[self]

    alliance: Alliance
    """The alliance the power belongs to (set on each member below: a plain attribute, as the
    checks ask for it at every unit they weigh)."""

    @classmethod
    def from_triplea(cls, name: str) -> Power:
        """The power a TripleA player name stands for; ValueError if none."""
        for power, triplea in _TRIPLEA.items():
            if triplea == name:
                return power
        raise ValueError(f"TripleA player {name!r} is not a Classic power")


_TRIPLEA = {
    Power.USSR: "Russians",
    Power.GERMANY: "Germans",
    Power.UK: "British",
    Power.JAPAN: "Japanese",
    Power.USA: "Americans",
}

for _power in Power:
    _power.alliance = Alliance.AXIS if _power in (Power.GERMANY, Power.JAPAN) else Alliance.ALLIES

TURN_ORDER: tuple[Power, ...] = tuple(sorted(Power, key=lambda p: p.value))
"""Powers in the order they move within a round."""
