"""A pre-combat turn's purchases and research, against the bank and the price list.

IAAPA Precombat: the pre-combat turn indicates "any successful weapons development, the
remainder of his purchases". The printed game prices every unit (INF 3, ARM 5, FTR 12, BMB 15,
TRN 8, SUB 8, AC 18, BB 24, AA 5, IC 15; 1 less each with Industrial Technology, which works
at once) and a research die at 5 IPCs, all paid from the IPCs in hand. So, with the position
at the start of the turn:

- research dice costing more than the bank: IAAPA Error Correction IV, "if the number of dice
  rolled costs more than the available ipcs, then it will be considered a declaration error
  and will need to be re-declared and re-rolled with the correct number of dice" (an error);
- units and research together costing more than the bank (an error), or units bought while
  the capital is held by the enemy: IAAPA Income Collection and Spending, "You may not
  purchase any new units while your capital is under enemy control" (an error);
- a written total ("3 INF, 1 ARM ($15)") or IPCs left that disagree with the price list and
  the bank: a warning naming the correct figure. A number can never be a typographical error
  (Error Correction VI), so the engine does not pick one figure over the other: the units as
  written are what is bought, and the player corrects the figure.

Every Classic unit type has a price, so no unit is unbuyable as such; only a lost capital
stops purchases (captured-capital income may still go on research, so research is not
refused then).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from adjudicator.declarations.findings import BY_LINE, Code, error_finding, warning_finding
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.notation.economy import TECH_DIE_COST
from adjudicator.notation.model import Purchase, Turn
from adjudicator.position.model import Position
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.powers import Power
from adjudicator.units import Technology, Units, UnitType, unit_profile


@functools.lru_cache(maxsize=64)
def prices(technologies: frozenset[Technology] = frozenset()) -> Mapping[UnitType, int]:
    """Each unit type's price for a power owning ``technologies``, in the chart's order."""
    return MappingProxyType({unit: unit_profile(unit, technologies).cost for unit in UnitType})


def purchase_cost(units: Units, price: Mapping[UnitType, int]) -> int:
    """What ``units`` cost at ``price``."""
    return sum([price[unit] * n for unit, n in units.counts])


def _itemised(units: Units, price: Mapping[UnitType, int]) -> str:
    return ", ".join(f"{n} {unit.value} at ${price[unit]}" for unit, n in units)


def check_purchases(
    turn: Turn, position: Position, *, power: Power | None = None
) -> tuple[Diagnostic, ...]:
    """Every finding about ``turn``'s research dice and purchases against ``position`` (the
    start of the buyer's turn). The buyer is ``power``, else the power the email names, else
    the one to move."""
    if not turn.purchases and not (turn.tech and any(t.dice for t in turn.tech)):
        return ()
    power = power or turn.power or position.to_move
    name = POWER_NAMES[power]
    bank = position.bank[power]
    techs = set(position.technologies_of(power))
    for result in turn.tech:
        techs.update(result.technologies)
    price = prices(frozenset(techs))
    dice = sum(t.dice or 0 for t in turn.tech)
    research = TECH_DIE_COST * dice
    bought = Units()
    for purchase in turn.purchases:
        bought = bought + purchase.units
    units_cost = purchase_cost(bought, price)
    found: list[Diagnostic] = []
    tech_line = next((t.line for t in turn.tech if t.dice), 0)
    buy_line = next(
        (p.line for p in turn.purchases if p.units),
        turn.purchases[0].line if turn.purchases else tech_line,
    )
    capital = position.capital(power)
    holder = position.owner(capital)
    if bought and holder is not None and holder.alliance is not power.alliance:
        found.append(
            error_finding(
                buy_line,
                Rule.INCOME,
                f"{name} buys {bought}, but its capital {capital} is held by "
                f"{POWER_NAMES[holder]}: no units may be bought while the capital is under "
                "enemy control",
                "remove the purchases (IPCs taken from an enemy capital may still go on "
                "research) and send an updated pre-combat turn",
                Code.CAPITAL_LOST,
            )
        )
    if research > bank:
        found.append(
            error_finding(
                tech_line,
                Rule.TECH_ROLLS,
                f"{dice} research dice cost ${research}, but {name} has ${bank} in hand: a "
                "declaration error",
                f"re-declare and re-roll the research with at most {bank // TECH_DIE_COST} "
                "dice (Error Correction IV)",
                Code.OVERSPENT,
                also=(Rule.PURCHASE_UNITS,),
            )
        )
    elif units_cost + research > bank:
        spent = f"${units_cost} on units ({_itemised(bought, price)})"
        if research:
            spent += f" and ${research} on {dice} research dice"
        found.append(
            error_finding(
                buy_line,
                Rule.INCOME,
                f"{name} spends {spent}: ${units_cost + research} in all, but has ${bank} in "
                f"hand, ${units_cost + research - bank} too much",
                f"buy at most ${bank - research} of units and send an updated pre-combat turn",
                Code.OVERSPENT,
                also=(Rule.PURCHASE_UNITS,),
            )
        )
    found.extend(_figures(turn.purchases, bought, price, units_cost, research, bank))
    return tuple(sorted(found, key=BY_LINE))


def _figures(
    purchases: tuple[Purchase, ...],
    bought: Units,
    price: Mapping[UnitType, int],
    units_cost: int,
    research: int,
    bank: int,
) -> list[Diagnostic]:
    """A warning for each written total or IPCs left that the price list contradicts. A
    line's total is its own units' cost (a line of money alone totals every line), with or
    without the research dice; IPCs left are the bank less units and research."""
    found: list[Diagnostic] = []
    for purchase in purchases:
        units = purchase.units or bought
        line_cost = purchase_cost(units, price) if purchase.units else units_cost
        if purchase.spent is not None and purchase.spent not in (line_cost, line_cost + research):
            found.append(
                warning_finding(
                    purchase.line,
                    Rule.PRECOMBAT,
                    f"the purchase is written as ${purchase.spent}, but {units} cost "
                    f"${line_cost} at the printed prices ({_itemised(units, price)})",
                    f"correct the figure to ${line_cost}, or the units if they are what is "
                    "wrong (a number is never a typographical error)",
                    Code.PURCHASE_TOTAL,
                    also=(Rule.PURCHASE_UNITS,),
                )
            )
        left = bank - units_cost - research
        if purchase.remaining is not None and purchase.remaining != left and left >= 0:
            found.append(
                warning_finding(
                    purchase.line,
                    Rule.PRECOMBAT,
                    f"the purchase leaves ${purchase.remaining} written, but ${bank} in hand "
                    f"less ${units_cost + research} spent leaves ${left}",
                    f"correct the IPCs left to ${left}",
                    Code.PURCHASE_TOTAL,
                    also=(Rule.PURCHASE_UNITS,),
                )
            )
    return found
