"""Unit, technology and notation words as players write them.

IAAPA Abbreviations: "A player may use any abbreviation as long as its meaning is clear."
The rule book lists the common ones (WI, AA, ARM or TNK, BB, BMB, CV or AC, HBMB, IC, INF,
JFTR, LR, MT, FTR, TRN, SS or SUB); :data:`IAAPA_ABBREVIATIONS` holds exactly that list and
:data:`UNIT_WORDS` adds the spellings players commonly use besides.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from adjudicator.names.resolver import NameTable
from adjudicator.units import Technology, UnitType


class Notation(Enum):
    """Words of PBEM notation that are neither units nor technologies."""

    WALK_IN = "Walk In"
    """"The attacker simply 'walks in' to an empty enemy or neutral territory. No combat rolls
    are required, but it happens during the combat phase of the turn." (IAAPA Abbreviations)"""
    EMPTY = "Empty"
    """A territory or sea zone with no units in it."""


@dataclass(frozen=True)
class Term:
    """What an abbreviation means: a unit (maybe with a technology), a technology, or notation.

    "JFTR" is a fighter with Jet Power; "HBMB" a bomber with Heavy Bombers; "LR" the Long
    Range (Aircraft) technology; "WI" the walk-in notation. A technology named after its
    unit ("Heavy Bombers", "Super Subs", "Jets") resolves to the unit-with-technology term,
    whose ``technology`` a tech declaration reads.
    """

    meaning: str
    unit: UnitType | None = None
    technology: Technology | None = None
    notation: Notation | None = None

    def __post_init__(self) -> None:
        if self.unit is None and self.technology is None and self.notation is None:
            raise ValueError(f"term {self.meaning!r} stands for nothing")


INFANTRY = Term("Infantry", UnitType.INF)
ARMOUR = Term("Armor", UnitType.ARM)
FIGHTER = Term("Fighter", UnitType.FTR)
BOMBER = Term("Bomber", UnitType.BMB)
TRANSPORT = Term("Transport", UnitType.TRN)
SUBMARINE = Term("Submarine", UnitType.SUB)
CARRIER = Term("Aircraft Carrier", UnitType.AC)
BATTLESHIP = Term("Battleship", UnitType.BB)
AA_GUN = Term("Anti-Aircraft Gun", UnitType.AA)
FACTORY = Term("Industrial Complex", UnitType.IC)
JET_FIGHTER = Term("Jet Fighter", UnitType.FTR, Technology.JET_POWER)
HEAVY_BOMBER = Term("Heavy Bomber", UnitType.BMB, Technology.HEAVY_BOMBERS)
SUPER_SUB = Term("Super Submarine", UnitType.SUB, Technology.SUPER_SUBS)
LONG_RANGE = Term("Long Range", technology=Technology.LONG_RANGE_AIRCRAFT)
JET_POWER = Term("Jet Power", technology=Technology.JET_POWER)
ROCKETS = Term("Rockets", technology=Technology.ROCKETS)
INDUSTRIAL = Term("Industrial Technology", technology=Technology.INDUSTRIAL_TECHNOLOGY)
WALK_IN = Term("Walk In", notation=Notation.WALK_IN)
EMPTY = Term("Empty", notation=Notation.EMPTY)

IAAPA_ABBREVIATIONS: tuple[tuple[str, Term], ...] = (
    ("WI", WALK_IN),
    ("AA", AA_GUN),
    ("ARM", ARMOUR),
    ("TNK", ARMOUR),
    ("BB", BATTLESHIP),
    ("BMB", BOMBER),
    ("CV", CARRIER),
    ("AC", CARRIER),
    ("HBMB", HEAVY_BOMBER),
    ("IC", FACTORY),
    ("INF", INFANTRY),
    ("JFTR", JET_FIGHTER),
    ("LR", LONG_RANGE),
    ("MT", EMPTY),
    ("FTR", FIGHTER),
    ("TRN", TRANSPORT),
    ("SS", SUBMARINE),
    ("SUB", SUBMARINE),
)
"""The "commonly used abbreviations" of the IAAPA Abbreviations section, in its order."""

_COMMON: dict[Term, tuple[str, ...]] = {
    INFANTRY: ("Infantry", "Inft"),
    ARMOUR: ("Armor", "Armour", "Tank"),
    FIGHTER: ("Fighter",),
    BOMBER: ("Bomber", "Bmbr"),
    TRANSPORT: ("Transport", "Trans", "Tran", "Tpt"),
    SUBMARINE: ("Submarine",),
    CARRIER: ("Carrier", "Aircraft Carrier", "ACC"),
    BATTLESHIP: ("Battleship", "BS"),
    AA_GUN: ("AA Gun", "AAG", "Anti-Aircraft", "Anti-Aircraft Gun", "Flak"),
    FACTORY: ("Industrial Complex", "Factory", "Complex", "Ind Complex"),
    JET_FIGHTER: ("Jet Fighter", "Jet Ftr", "Jet"),
    HEAVY_BOMBER: ("Heavy Bomber", "Heavy Bmb", "HB", "HBMR"),
    SUPER_SUB: ("Super Sub", "Super Submarine", "SSUB"),
    LONG_RANGE: ("Long Range", "Long Range Aircraft", "LRA"),
    JET_POWER: ("Jet Power",),
    ROCKETS: ("Rockets", "Rocket", "RKT"),
    INDUSTRIAL: ("Industrial Technology", "Industrial Tech", "Ind Tech", "IT"),
    WALK_IN: ("Walk In",),
    EMPTY: ("Empty",),
}

IPC_WORDS = frozenset({"ipc", "ipcs", "ipc's", "pu", "pus"})
"""Words after a number saying it is money ("21 IPCs"; TripleA's "PUs"), not units."""

UNIT_WORDS: tuple[tuple[str, Term], ...] = IAAPA_ABBREVIATIONS + tuple(
    (word, term) for term, words in _COMMON.items() for word in words
)
"""Every unit, technology and notation word the resolver accepts exactly."""


def unit_names() -> NameTable[Term]:
    """A resolver for unit, technology and notation words (plurals accepted: "10 infs")."""
    return NameTable("unit or abbreviation", UNIT_WORDS, lambda t: t.meaning, plurals=True)
