"""Results of combat played out: each battle's verdict moves the board.

- Each side's survivors stay; everything else that fought is gone. AA guns and complexes never
  fight and change hands with the territory (facts sheet section 1).
- Land: the attacker takes the territory when it wins with a land unit left; planes alone
  never capture (:mod:`.capture`). Sea: a won battle clears the zone; nothing changes hands.
- A retreat, or a battle still going on when the next began ("it is assumed that the previous
  battle has finished and any surviving attacking units are retreating", IAAPA Combat
  Resolution and Order of Battles), moves the survivors to the retreat location: the verdict's,
  else the one written (a result's "retreated to", a retreat order), else the adjacent
  friendly place the attackers came from (IAAPA Retreats: "as long as an attacking unit
  originates from or passes through the territory"; "flight paths cannot validate retreat
  locations", so places only aircraft came from do not count); of several, the first, with a
  warning. Aircraft go with them and land in the non-combat move, their range counted from
  the battle (facts sheet 2: "Planes that retreat simply land in non-combat").
- Withdrawing subs go to the zone named for them; a defender's named nowhere stays, as IAAPA
  Sub Withdrawal lets the location be "determined before the next turn".
- Losses of one type shared by several allied defenders are the defender's choice, which the
  dice do not record: they are taken in turn order (USSR, UK, USA), with a note.
- Cargo goes down with sunk transports, the cheapest first (:mod:`.table`); a defender's
  fighters left without carrier room land on land of their side touching the zone ("land in
  the same zone, on an island"), the first by name, else they are lost (facts sheet 4).
- A bombing raid costs the complex's owner the damage from its IPCs in hand, capped at what it
  holds, with no territory-value cap in the Classic rules (facts sheet 6 [SPEC p.15,20; TA
  StrategicBombingRaidBattle.findCost]).
"""

from __future__ import annotations

from adjudicator.battle.result import Outcome
from adjudicator.diagnostics import Rule, Severity
from adjudicator.position.serialize import POWER_NAMES
from adjudicator.powers import Power
from adjudicator.turns.capture import take_land
from adjudicator.turns.combat_moves import takes_land
from adjudicator.turns.findings import Finding
from adjudicator.turns.fronts import Front, TurnInPlay
from adjudicator.turns.table import clamp, fitting
from adjudicator.turns.verdicts import BattleOutcome
from adjudicator.units import NO_UNITS, Units, UnitType


def _name(power: Power | None) -> str:
    """A power's league name ("nobody" for none)."""
    return POWER_NAMES[power] if power is not None else "nobody"


def _check(play: TurnInPlay, front: Front, side: str, claimed: Units, had: Units) -> None:
    """A finding when the dice leave alive units of ``side`` that did not fight."""
    if had.contains(claimed):
        return
    line, where = play.where(front.number, front.site.battle.line, front.site.space)
    play.note(
        Severity.WARNING,
        Rule.POST_COMBAT,
        Finding.VERDICT_UNITS,
        f"battle #{front.number} ({front.site.space}, {where}): the dice leave alive "
        f"{claimed} of the {side}, but only {had or 'none'} fought there: the board keeps "
        f"{clamp(claimed, had) or 'none'}",
        "check the battle's forces on the dice server against the board",
        line=line,
        battles=(front.number,),
    )


def _retreat_to(play: TurnInPlay, front: Front, verdict: BattleOutcome) -> str | None:
    """Where the attacker's survivors of ``front`` retreat to."""
    number, space = front.number, front.site.space
    written = [verdict.retreat_to]
    result = play.result_for(number, space)
    written.append(result.retreat_to if result is not None else None)
    for order in (*play.pre.retreats, *play.post.retreats):
        if order.number == number or (order.number is None and order.territory == space):
            written.append(order.to)
    board, table, mover = play.table.board, play.table, play.mover

    def open_to(place: str) -> bool:
        """An adjacent place of the battle's kind, friendly when the survivors arrive."""
        return (
            place in board.adjacency[space]
            and board.territories[place].is_sea == front.site.is_sea
            and (
                table.is_friendly(place, mover)
                if not front.site.is_sea
                else not table.enemies(place, mover)
            )
        )

    named = [w for w in written if w and w in board.territories]
    chosen = next((w for w in named if open_to(w)), None)
    if chosen:
        return chosen
    near = [p for p in front.origins if open_to(p)]
    line, said = play.where(number, front.site.battle.line, space)
    if named:
        kind = "sea zone" if front.site.is_sea else "territory"
        play.note(
            Severity.WARNING,
            Rule.RETREATS,
            Finding.RETREAT_REFUSED,
            f"battle #{number} ({space}, {said}): the retreat to {named[0]} is not to an "
            f"adjacent friendly {kind}: the survivors "
            + (f"go to {near[0]}, the first place they came from" if near else "stay")
            + ' (IAAPA Retreats: "Any adjacent friendly land territory or sea zone will '
            'qualify as a legal retreat location")',
            "name a legal retreat location; later battles may be voided at the Minister's "
            "discretion",
            line=line,
            battles=(number,),
        )
        return near[0] if near else None
    if len(near) == 1:
        return near[0]
    play.note(
        Severity.WARNING,
        Rule.RETREATS,
        Finding.RETREAT_UNKNOWN,
        f"battle #{number} ({space}, {said}): the attackers leave the battle, and no retreat "
        f"location is named{' or clear' if near else ''}: they "
        + (f"are taken to {near[0]}, the first place they came from" if near else "stay")
        + " (IAAPA Retreats: declare the location before the next battle is rolled)",
        "name the retreat location in the dice roller's comments",
        line=line,
        battles=(number,),
    )
    return near[0] if near else None


def _land_flights(front: Front, survivors: Units, at: str) -> None:
    """Share the surviving aircraft among the flights of ``front``; they are now at ``at``."""
    left = {u: survivors.count(u) for u in (UnitType.FTR, UnitType.BMB)}
    for flight in front.flights:
        flight.count = min(flight.count, left[flight.unit])
        left[flight.unit] -= flight.count
        flight.at = at


def _losses(
    play: TurnInPlay, front: Front, verdict: BattleOutcome, withdraw_to: str | None
) -> None:
    """The defenders of ``front`` after the battle: survivors stay, withdrawn subs leave."""
    table, space, mover = play.table, front.site.space, play.mover
    present = {p: u.combatants() for p, u in table.enemies(space, mover).items()}
    total = NO_UNITS
    for units in present.values():
        total = total + units
    _check(play, front, "defender", verdict.defender_survivors, total)
    kept = clamp(verdict.defender_survivors, total)
    withdrawn = clamp(verdict.defender_withdrawn.only(UnitType.SUB), total.minus(kept))
    lost = total.minus(kept).minus(withdrawn)
    shared = [
        u.value
        for u, n in lost
        if n < total.count(u) and sum(1 for x in present.values() if x.count(u)) > 1
    ]
    for power, units in present.items():
        mine_lost = clamp(lost, units)
        lost = lost.minus(mine_lost)
        mine_gone = clamp(withdrawn, units.minus(mine_lost))
        withdrawn = withdrawn.minus(mine_gone)
        table.set(space, power, table.units_of(space, power).minus(mine_lost + mine_gone))
        if mine_gone:
            table.put(withdraw_to or space, power, mine_gone)
    line, said = play.where(front.number, front.site.battle.line, space)
    if shared:
        play.note(
            Severity.INFO,
            Rule.DEFAULT_OOL,
            Finding.SPLIT_LOSSES,
            f"battle #{front.number} ({space}, {said}): losses of {', '.join(shared)} shared "
            "by several defending powers are taken in turn order (USSR, UK, USA)",
            "the defender may name whose units were lost",
            line=line,
            battles=(front.number,),
        )
    if front.site.is_sea:
        _afloat(play, front, line)


def _afloat(play: TurnInPlay, front: Front, line: int) -> None:
    """After a sea battle: each defender's cargo fits its transports, its fighters the
    side's carriers, or they land next to the zone or are lost."""
    table, space = play.table, front.site.space
    for power, units in table.enemies(space, play.mover).items():
        cargo = units.only(UnitType.INF, UnitType.ARM, UnitType.AA)
        kept = fitting(cargo, units.count(UnitType.TRN))
        if kept != cargo:
            table.set(space, power, units.minus(cargo.minus(kept)))
            play.note(
                Severity.INFO,
                Rule.CARGO,
                Finding.CARGO_LOST,
                f"{space}: {POWER_NAMES[power]}'s {cargo.minus(kept)} aboard sunk transports "
                "go down with them",
                line=line,
                battles=(front.number,),
            )
    defenders = [p for p in table.enemies(space, play.mover)]
    if not defenders:
        return
    board = table.board
    island = sorted(
        t
        for t in board.adjacency[space]
        if not board.territories[t].is_sea and table.is_friendly(t, defenders[0])
    )
    for power, planes in table.overflow(space, defenders[0]).items():
        fighters = planes.only(UnitType.FTR)
        table.put(space, power, planes.minus(fighters))
        if island:
            table.put(island[0], power, fighters)
        fate = f"land in {island[0]}" if island else "have nowhere to land and are lost"
        play.note(
            Severity.INFO if island else Severity.WARNING,
            Rule.LANDING,
            Finding.PLANES_LANDED if island else Finding.PLANES_LOST,
            f"{space}: {POWER_NAMES[power]}'s {fighters} left without carrier room {fate}",
            "the defender may name another landing place touching the zone" if island else "",
            line=line,
            battles=(front.number,),
        )


def _withdraw_to(play: TurnInPlay, front: Front, verdict: BattleOutcome) -> str | None:
    board = play.table.board
    if verdict.withdraw_to in board.territories:
        return verdict.withdraw_to
    for order in (*play.pre.withdrawals, *play.post.withdrawals):
        if order.to in board.territories and (
            order.number == front.number
            or (order.number is None and order.territory == front.site.space)
        ):
            return order.to
    if verdict.defender_withdrawn:
        line, said = play.where(front.number, front.site.battle.line, front.site.space)
        play.note(
            Severity.WARNING,
            Rule.SUB_WITHDRAWAL,
            Finding.WITHDRAWAL_UNKNOWN,
            f"battle #{front.number} ({front.site.space}, {said}): {verdict.defender_withdrawn}"
            " withdrew and no zone is named: they stay until one is",
            "the defender names the zone before the next turn (IAAPA Sub Withdrawal)",
            line=line,
            battles=(front.number,),
        )
    return None


def _battle(play: TurnInPlay, front: Front, verdict: BattleOutcome) -> None:
    table, mover, space = play.table, play.mover, front.site.space
    _check(play, front, "attacker", verdict.attacker_survivors, front.attackers)
    survivors = clamp(verdict.attacker_survivors, front.attackers)
    gone = clamp(verdict.attacker_withdrawn, front.attackers.minus(survivors))
    _losses(play, front, verdict, _withdraw_to(play, front, verdict))
    end = space
    if verdict.retreating or gone:
        end = _retreat_to(play, front, verdict) or space
    if gone:
        table.put(end, mover, gone)
    if not verdict.retreating:
        end = space
    table.put(end, mover, survivors)
    front.end = end
    if front.site.is_sea:
        boats = survivors.count(UnitType.TRN)
        kept = fitting(front.cargo, boats)
        table.put(end, mover, kept)
        if kept != front.cargo:
            line, said = play.where(front.number, front.site.battle.line, space)
            play.note(
                Severity.INFO,
                Rule.CARGO,
                Finding.CARGO_LOST,
                f"battle #{front.number} ({space}, {said}): "
                f"{front.cargo.minus(kept)} aboard sunk transports go down with them",
                line=line,
                battles=(front.number,),
            )
        for power, units in front.passengers.items():
            table.put(end, power, units)
    elif verdict.outcome is Outcome.ATTACKER_WINS:
        line, said = play.where(front.number, front.site.battle.line, space)
        if takes_land(survivors):
            take_land(play, space, line)
        else:
            play.note(
                Severity.INFO,
                Rule.CAPTURE,
                Finding.AIR_ONLY,
                f"battle #{front.number} ({space}, {said}): only aircraft are left, and planes "
                f"never capture: {space} stays {_name(table.owners.get(space))}'s",
                line=line,
                battles=(front.number,),
            )
    _land_flights(front, survivors, end)


def _raid(play: TurnInPlay, front: Front, verdict: BattleOutcome) -> None:
    table, space = play.table, front.site.space
    _check(play, front, "attacker", verdict.attacker_survivors, front.attackers)
    survivors = clamp(verdict.attacker_survivors, front.attackers)
    table.put(space, play.mover, survivors)
    front.end = space
    _land_flights(front, survivors, space)
    victim = table.owners.get(space)
    if victim is None or not verdict.damage:
        return
    paid = min(verdict.damage, table.bank[victim])
    table.bank[victim] -= paid
    if paid < verdict.damage:
        line, said = play.where(front.number, front.site.battle.line, space)
        play.note(
            Severity.INFO,
            Rule.STRATEGIC_BOMBING,
            Finding.RAID_CAPPED,
            f"battle #{front.number} ({space}, {said}): {verdict.damage} IPCs of damage, but "
            f"{POWER_NAMES[victim]} holds only {paid + table.bank[victim]}: it pays {paid}",
            line=line,
            battles=(front.number,),
        )


def _walk_in(play: TurnInPlay, front: Front) -> None:
    space = front.site.space
    play.table.put(space, play.mover, front.attackers + front.cargo)
    for power, units in front.passengers.items():
        play.table.put(space, power, units)
    front.end = space
    _land_flights(front, front.attackers, space)
    if not front.site.is_sea and takes_land(front.attackers):
        line, _ = play.where(front.number, front.site.battle.line, space)
        take_land(play, space, line)


def settle_battles(play: TurnInPlay) -> None:
    """Every front's verdict applied: sea battles first (they clear the way for the
    landings), then land battles, raids and walk-ins."""
    order = {"battle": 0, "raid": 1, "walk-in": 2}
    fronts = [f for f in play.fronts if f.mode != "void"]
    fronts.sort(key=lambda f: (not f.site.is_sea, order[f.mode]))
    for front in fronts:
        verdict = front.verdict
        if front.mode == "walk-in" or verdict is None:
            _walk_in(play, front)
        elif front.mode == "raid":
            _raid(play, front, verdict)
        else:
            _battle(play, front, verdict)
