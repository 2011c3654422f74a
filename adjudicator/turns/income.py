"""The mover's money over its turn: research, purchases, neutrals, captured IPCs and income.

- Weapons development costs 5 IPCs a die [W6; SPEC p.10-11]; a technology works at once,
  so one won this turn prices this turn's purchases (Industrial Technology) [SPEC p.11].
- Purchases cost the unit chart's prices (:func:`adjudicator.units.unit_profile`); with no
  purchases written, the placements are taken as the purchases.
- Entering a neutral costs 3 IPCs [SPEC p.8,13; XML neutralCharge=3].
- "You may not purchase any new units while your capital is under enemy control" (IAAPA
  Income Collection and Spending): purchases then are reported, not refused (the service
  checks purchases).
- Income: "Any country that ends its turn with possession of its capital collects income"
  (IAAPA Income Collection and Spending), the income value of the territories it holds then
  (facts sheet 8 [SPEC p.6,22]), collected at the end of the turn.

So the new bank is: IPCs at the start − purchases − 5 × research dice − 3 × neutrals +
IPCs taken from a captured capital (:mod:`.capture`) + income. A written purchase total
("($22)") or IPCs left ("7 left") that is not what the orders cost is reported and does not
change the bank: the orders take precedence over what is written about them, as the listed
non-combat moves take precedence over the map update (IAAPA Error Correction V), and "A number
can never be a typographical error" (Error Correction VI).
"""

from __future__ import annotations

from adjudicator.declarations.discrepancies import NEUTRAL_FEE
from adjudicator.diagnostics import Rule, Severity
from adjudicator.notation.economy import TECH_DIE_COST
from adjudicator.notation.model import Purchase
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.turns.findings import Finding
from adjudicator.turns.fronts import TurnInPlay
from adjudicator.units import NO_UNITS, Technology, Units, unit_profile


def research(play: TurnInPlay) -> tuple[int, frozenset[Technology]]:
    """The research dice bought this turn and the technologies the mover has after them."""
    results = play.tech
    dice = sum(result.dice or 0 for result in results)
    owned = set(play.table.technologies[play.mover])
    for result in results:
        owned.update(result.technologies)
    return dice, frozenset(owned)


def bought(play: TurnInPlay) -> Units:
    """The units bought this turn: the purchases written, else the placements."""
    total = NO_UNITS
    for purchase in play.purchases:
        total = total + purchase.units
    if total:
        return total
    for placement in play.post.placements:
        total = total + placement.units
    return total


def cost(units: Units, technologies: frozenset[Technology]) -> int:
    """What ``units`` cost a power holding ``technologies``."""
    return sum(unit_profile(unit, technologies).cost * n for unit, n in units)


def settle_bank(play: TurnInPlay, purchases: Units, dice: int) -> int:
    """Pay for the turn and collect income; the income collected."""
    table, mover = play.table, play.mover
    name = POWER_NAMES[mover]
    start = table.start.bank[mover]
    price = cost(purchases, table.technologies[mover])
    fees = NEUTRAL_FEE * len(play.neutrals)
    spent = price + TECH_DIE_COST * dice + fees
    written = play.purchases
    in_pre = play.separate and bool(play.pre.purchases)
    line = 0 if in_pre else next((p.line for p in written), 0)
    if purchases and not table.start.holds_capital(mover):
        play.note(
            Severity.WARNING,
            Rule.INCOME,
            Finding.PURCHASE_WITHOUT_CAPITAL,
            f"{name} buys {purchases} while its capital is under enemy control",
            "no units may be bought until the capital is retaken",
            line=line,
        )
    available = start + play.seized
    if spent > available:
        play.note(
            Severity.WARNING,
            Rule.INCOME,
            Finding.OVERSPENT,
            f"{name} spends {spent} IPCs ({price} on units, {TECH_DIE_COST * dice} on "
            f"research, {fees} on neutrals) but holds {available}: the bank is left at 0",
            "check the purchases and research",
            line=line,
        )
    _written_money(play, written, in_pre, price, start - spent)
    income = income_of(play)
    table.bank[mover] = max(0, table.bank[mover] - spent) + income
    return income


def _written_money(
    play: TurnInPlay, written: tuple[Purchase, ...], in_pre: bool, price: int, left: int
) -> None:
    """A finding for a written purchase total or IPCs left that the orders do not give."""
    totals = [p for p in written if p.spent is not None]
    lefts = [p for p in written if p.remaining is not None]
    checks = []
    if totals and sum(p.spent or 0 for p in totals) != price:
        spent = sum(p.spent or 0 for p in totals)
        checks.append((totals[0], f"written as ${spent}, but they cost {price} IPCs"))
    if lefts and lefts[-1].remaining != left:
        checks.append((lefts[-1], f"{lefts[-1].remaining} IPCs written as left, but {left} are"))
    for purchase, wrong in checks:
        where = f" (pre-combat line {purchase.line})" if in_pre else ""
        play.note(
            Severity.WARNING,
            Rule.DISCREPANCIES,
            Finding.MONEY_DIFFERS,
            f"the purchases{where}: {wrong}; the bank follows the orders",
            "correct the written figures",
            line=0 if in_pre else purchase.line,
        )


def income_of(play: TurnInPlay) -> int:
    """What the mover collects at the end of its turn: the income value of the land it holds
    then, if it holds its capital."""
    table, mover = play.table, play.mover
    if not table.holds_capital(mover):
        return 0
    territories = table.board.territories
    return sum(territories[t].ipc for t, p in table.owners.items() if p is mover)
