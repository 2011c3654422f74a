"""What the engine says about a turn or a battle: one severity scale, one diagnostic, and the
one registry of the rules it cites.

The notation parser, the declaration checks and the battle engine all report in these terms,
so a player reads one vocabulary whichever of them found the problem. A :class:`Diagnostic`
names the :class:`Rule` it applies; the rule's :attr:`~Rule.citation` is the text every report
prints. Citations follow one form: ``IAAPA <part>: <heading>`` (``IAAPA Rules Clarifications:
Retreats``, ``IAAPA Error Correction III: AA Guns``), or ``IAAPA <part>`` when the whole part
applies (``IAAPA Error Correction II``). A program keys on a diagnostic's ``code`` or its
:class:`Rule` member, never on the citation's wording.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import unique

from adjudicator.fastenum import FastEnum
from adjudicator.fastrecord import quick_init


class Severity(FastEnum):
    """How much a diagnostic matters to reading the turn or settling the battle."""

    ERROR = "error"
    """Something stops the orders or the dice standing as written: part of the turn cannot be
    read (an order is missing from the result), a declaration voids its battle (IAAPA Error
    Correction II), or a battle's result is provisional (dice set aside or missing; the
    message says what to roll or re-roll)."""
    WARNING = "warning"
    """The turn was read and the result stands as computed, but something needs a player's
    eye (a corrected typo, a total that does not add up) or a right or discretion the engine
    cannot exercise (a skipped pause, an undeclared retreat)."""
    INFO = "info"
    """Nothing is wrong and nothing changes: what was skipped or assumed, or worth knowing."""


@unique
class Rule(FastEnum):
    """A rule the engine applies; the value is its citation in the league's rule book.

    Members are the league's sections (IAAPA 2008 rules: Declaration and Battle Resolution
    Procedures, Error Correction Procedures, Rules Clarifications, Abbreviations) and, for the
    printed game's own rules that the IAAPA book does not restate, the rule in a few words
    (the facts sheet's "Combat sequence"). Add a member here, never a citation string
    elsewhere: the battle engine, the notation and the declaration checks share this list.
    """

    # --- IAAPA Declaration and Battle Resolution Procedures --------------------------------
    PROCEDURES = "IAAPA Declaration and Battle Resolution Procedures"
    """The turn emails as a whole: what a pre-combat and a post-combat email hold."""
    PRECOMBAT = "IAAPA Declaration and Battle Resolution Procedures: Precombat"
    """"Combat moves must list the attacking units, specifying the territory of origin for
    each unit. Defending units should also be listed, but are not absolutely required.\""""
    POST_COMBAT = "IAAPA Declaration and Battle Resolution Procedures: Post Combat Orders"
    """Results, non-combat moves, map update and "a territory and IPC count ... i.e. UK
    30/$32"."""
    SPECIAL_ORDERS = (
        "IAAPA Declaration and Battle Resolution Procedures: Amendments and Special Orders"
    )
    """"Players may send special instructions at any time provided that they are received
    prior to the applicable battle being rolled.\""""
    SUB_FIRST_STRIKE = "IAAPA Using the Dice Server: attacking subs"
    """"If a naval battle has an attacking sub, the attacker MAY ... roll for the sub first.\""""
    DEFAULT_OOL = "IAAPA Default Orders of Loss"
    """"A player may designate any order of loss that he desires for his casualties.\""""
    PAUSE = "IAAPA Default Orders of Loss: exceptions"
    """The attacker MUST pause for the defender's casualties (SUB, loaded AC or TRN, BMB)."""
    ORDER_OF_BATTLES = "IAAPA Combat Resolution and Order of Battles"
    """"once a battle begins it must be resolved completely before the next battle can
    begin.\""""

    # --- IAAPA Error Correction Procedures -------------------------------------------------
    CDE = "IAAPA Error Correction II"
    """Combat Declaration Errors: a wrong origin, unit or defender voids the battle."""
    AA_GUNS = "IAAPA Error Correction III: AA Guns"
    """Ghost and forgotten AA shots."""
    BB_SUPPORT = "IAAPA Error Correction III: BB Support Shots"
    """Ghost and forgotten battleship support shots."""
    TOO_FEW_UNITS = "IAAPA Error Correction III: Too few units"
    """"Roll for the missing units and then re-roll the remainder of the battle.\""""
    TOO_MANY_UNITS = "IAAPA Error Correction III: Too many units"
    """"Take the correct number of dice" from the left, then re-roll from the next round."""
    WRONG_UNITS = "IAAPA Error Correction III: Wrong Units"
    """"If a player enters the wrong type of unit then its roll will be ignored.\""""
    TECH_ROLLS = "IAAPA Error Correction IV"
    """Tech Rolls: "if more dice are rolled, then the extra dice are ignored"."""
    DISCREPANCIES = "IAAPA Error Correction V"
    """Discrepancies Between Maps and Orders: the non-combat moves take precedence."""
    TYPOGRAPHICAL_ERRORS = "IAAPA Error Correction VI"
    """A misspelling stands corrected when the correct word is readily decipherable."""

    # --- IAAPA Rules Clarifications and Abbreviations --------------------------------------
    SUB_WITHDRAWAL = "IAAPA Rules Clarifications: Sub Withdrawal"
    """Submarines may withdraw at the end of a round, to a zone the defender names."""
    FIGHTERS = "IAAPA Rules Clarifications: Fighters"
    """A fighter moves 4 spaces and must have a potential landing place."""
    TRANSPORT_UNLOADING = "IAAPA Rules Clarifications: Transport Unloading"
    """Where and into how many battles transports may unload."""
    AMPHIBIOUS = "IAAPA Rules Clarifications: Amphibious Assaults"
    """No retreat once a transport has unloaded into the battle; support shots in round 1."""
    NON_COMBAT = "IAAPA Rules Clarifications: Combat/Non-Combat Movement"
    """"With the exception of air units (which land during non-combat), no units may engage
    in both combat and non-combat during the same turn.\""""
    CANALS = "IAAPA Rules Clarifications: Canals"
    """A canal is used only if you or your allies own the territory it passes through."""
    RETREATS = "IAAPA Rules Clarifications: Retreats"
    """Land and naval retreats are declared before the next battle is rolled."""
    ORDERS_OF_LOSS = "IAAPA Rules Clarifications: Orders of Loss"
    """How a special order of loss is written and which battles it covers."""
    AA_GUN_MOVES = "IAAPA Rules Clarifications: AA Guns"
    """"You may move an AA Gun into but not out of a newly captured territory"; who owns a
    captured or liberated gun."""
    INCOME = "IAAPA Rules Clarifications: Income Collection and Spending"
    """"Any country that ends its turn with possession of its capital collects income"; no
    purchases while the capital is under enemy control."""
    PLACEMENT = "IAAPA Rules Clarifications: Placement of New Units"
    """New units at an IC owned since the start of the turn; ships in an adjacent sea zone; no
    new fighter on a carrier."""
    MAGIC_84 = "IAAPA Rules Clarifications: Magic 84"
    """"If after the United States' turn the total combined Axis IPC Count is 84 or higher
    the game is over.\""""
    ABBREVIATIONS = "IAAPA Abbreviations"
    """The unit and order abbreviations players write (INF, ARM, WI, MT ...)."""

    # --- IAAPA How to Start a Game and Bidding ---------------------------------------------
    HOW_TO_START = "IAAPA How to Start a Game"
    """"Make sure that the bid total entered in the "Your Bid (IPC Total Value)" block matches
    the total of the units and IPCs bid in the "Details" section. If there is a discrepancy
    between these the bid that you entered in the "Your Bid (IPC Total Value)" block will take
    precedence. You will then simply adjust the bid details to match the bid.\""""
    BIDDING = "IAAPA Bidding"
    """"Bids are compared by IPC value and may consist of extra units (land, sea or air)
    and/or additional IPCs for the Axis powers.\""""
    BID_LAND_UNITS = "IAAPA Bidding: land units"
    """"Land units may be placed in any territory controlled by the appropriate Axis power."
    AA guns and ICs count: the rule book considers them land units for bidding purposes."""
    BID_NAVAL_UNITS = "IAAPA Bidding: naval units"
    """"Naval units may be placed in any sea zone adjacent to a land territory controlled by
    the appropriate Axis power provided no Allied units occupy that sea zone.\""""
    BID_AIRCRAFT = "IAAPA Bidding: fighters"
    """"Ftrs cannot be placed on existing or bid carriers." So a bid's aircraft stand on land,
    in a territory their power controls, as its land units do."""
    BID_NEGATIVE = "IAAPA Bidding: negative bids"
    """"Negative value bids are allowed (removing Axis units and/or IPCs) but may not be
    combined with the addition of additional units or IPCs.\""""
    BID_NATIONALITY = "IAAPA Bidding: mixed nationality bids"
    """"Mixed nationality bids are also allowed (units and/or IPCs for both Germany and Japan)
    but German units may not be placed in Japanese territories or sea zones nor may Japanese
    units be placed in German territories or sea zones due to a bid.\""""
    BID_COMPLEXES = "IAAPA Bidding: industrial complexes"
    """"Industrial Complexes obtained by bid are not 'original' ICs and their production is
    limited to the income value of the territory in which they are placed.\""""

    # --- The printed game (facts sheet) ----------------------------------------------------
    DICE_FACES = "Battle dice show 1 to 6"
    """A die outside 1..6 cannot have come from the dice server."""
    LOW_LUCK = "TripleA Low Luck vs. Dice"
    """"The total is then divided by the dice sides (6), and if there is any remainder it is
    rolled for": a volley scores its sure hits, and one more only on a remainder die."""
    SUBS_HIT_SHIPS = "Combat sequence: subs hit only ships"
    """Submarines never hit aircraft (facts sheet section 1)."""
    BATTLE_OVER = "Combat sequence: a battle ends when a side is gone or retreats"
    """No round is fought after one side is destroyed or the attacker has retreated."""

    CAPTURE = "Capture: only land units take a territory"
    """Planes alone never capture; an ally's original territory is liberated to its owner
    when that owner's capital is free (facts sheet section 8)."""
    CAPITAL_CAPTURE = "Capture: a captured capital's IPCs go to the captor"
    """"Capturing an enemy capital ... takes all the IPCs the loser holds" (facts sheet
    section 8)."""
    STRATEGIC_BOMBING = "Strategic bombing: the owner pays the damage from the IPCs in hand"
    """Each surviving bomber's die is IPCs the complex's owner pays, capped at what it holds
    (facts sheet section 6)."""
    LANDING = "Aircraft land where their side held land at the start of the turn"
    """Or on a carrier with room, within range; never in a territory taken this turn (facts
    sheet section 4)."""
    MOVEMENT = "Movement: no unit moves farther than its movement allowance"
    """INF and AA guns 1, ARM 2, ships 2 sea zones, FTR 4 and BMB 6 (2 more with Long Range
    Aircraft), an aircraft's spent over the combat and non-combat moves together (facts
    sheet sections 0 and 4; IAAPA Fighters)."""
    NON_COMBAT_ROUTE = "Non-combat movement: no entering enemy or neutral land or enemy waters"
    """"Land and sea units may not enter any territory controlled by an enemy or neutral, or
    any sea zone containing an enemy or neutral unit" (TripleA rule book, Non-Combat
    Movement); planes "may not fly over neutrals in non-combat" (facts sheet section 8)."""
    CARGO = "Transports: a sunk transport loses its cargo"
    """Cargo never fights and goes down with its transport (facts sheet section 3)."""
    PURCHASE_UNITS = "Purchase units: pay each unit's printed price from the IPCs in hand"
    """INF 3, ARM 5, FTR 12, BMB 15, TRN 8, SUB 8, AC 18, BB 24, AA 5, IC 15 (1 less each with
    Industrial Technology); research dice 5 IPCs each (facts sheet sections 0 and 7)."""

    @property
    def citation(self) -> str:
        """The rule as the league cites it, as every report prints it."""
        return self.value


@quick_init
@dataclass(frozen=True)
class Diagnostic:
    """One finding: how much it matters, the rule, what was wrong and what to do, and where.

    Where depends on who found it. The notation parser and the declaration checks give the
    ``line`` of the email (1-based, quoted lines counted; 0: the email as a whole) and, for a
    finding about declared battles, their numbers in ``battles`` (an error voids each of
    them, IAAPA Error Correction II). The battle engine gives the ``round`` (``None``: the
    battle as a whole). ``code`` is a stable, machine-readable name of the finding
    (``"typo"``, ``"not-at-origin"``); messages may be reworded, codes may not. ``also``
    lists further rules the finding applies, cited after ``rule``.
    """

    severity: Severity
    rule: Rule
    message: str
    suggestion: str = ""
    code: str = ""
    line: int = 0
    round: int | None = None
    battles: tuple[int, ...] = ()
    also: tuple[Rule, ...] = ()

    @property
    def citation(self) -> str:
        """Every rule the finding applies, as the reports print them: "A; B"."""
        return "; ".join(rule.citation for rule in (self.rule, *self.also))
