"""The territory and IPC count a player declares, against the position.

IAAPA Post Combat Orders: the attacker's final email gives "a territory and IPC count. Please
use units to distinguish between territory count and IPC count, i.e. UK 30/$32". The
territory count is the land territories the power controls; the IPC count is their income
value (the count Magic 84 adds up), not the IPCs in hand.
"""

from __future__ import annotations

from adjudicator.declarations.findings import Code, warning_finding
from adjudicator.diagnostics import Diagnostic, Rule
from adjudicator.notation.model import Count
from adjudicator.position.model import Position
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.powers import Power


def check_counts(position: Position, power: Power, counts: tuple[Count, ...]) -> list[Diagnostic]:
    """A warning for every count that is not ``position``'s (a count naming no power is
    ``power``'s)."""
    found = []
    for count in counts:
        who = count.power or power
        territories, ipcs = position.territory_count(who), position.ipc_count(who)
        if (count.territories, count.ipcs) == (territories, ipcs):
            continue
        wrong = []
        if count.territories != territories:
            wrong.append(f"{count.territories} territories declared, {territories} held")
        if count.ipcs != ipcs:
            wrong.append(f"${count.ipcs} declared, ${ipcs} of income held")
        name = POWER_NAMES[who]
        found.append(
            warning_finding(
                count.line,
                Rule.POST_COMBAT,
                f"the count {name} {count.territories}/${count.ipcs} is not the position's "
                f"{name} {territories}/${ipcs} ({'; '.join(wrong)})",
                f'correct the count to "{name} {territories}/${ipcs}", or the map update if the '
                "position is wrong",
                Code.COUNT_MISMATCH,
            )
        )
    return found
