"""Each player's dice luck (issue 18): every battle roll's hits against the hits its dice
should score on average, per game and over all of a member's games, with the chart the
luck pages draw (:mod:`adjudicator.luck` does the arithmetic).

Whose dice are whose: a battle roll is written by one member but throws for both sides.
Its ``country`` is the attacking power (the header of IAAPA "Using the Dice Server"), so
the ``attacker`` groups (the attacking units, the battleship support shots, subs fired
first) are the dice of the player of that power's alliance, and the ``defender`` groups
(the defending units and the AA gun's shots) the other player's, whoever pressed the
button. Only battle rolls count, and of them only groups that hit on a number: tech,
bombing and rocket rolls are no battle dice. Every roll the ledger holds counts, one a
void claim names too: its dice were thrown all the same.

A Low Luck round (``low-luck-roll``, a game created with Low Luck) counts by its
``volleys``, by the same rule: an attacker volley is the attacking power's player's, a
defender volley (the AA gun's included) the other player's. Each volley's mean is its power
/ 6 and its hits are its ``hits``; only its remainder die, when it has one, is luck and
counts as a die thrown (:func:`adjudicator.luck.low_luck_volley`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from adjudicator.bigworld.roll import BIG_WORLD_ALLIANCES
from adjudicator.luck import ImpossibleThrow, Luck, Throw, low_luck_volley, luck_of, running_luck
from adjudicator.names import power_label
from adjudicator.powers import Alliance, Power
from adjudicator.rolls.replay import BATTLE_ROLL_KINDS, LOW_LUCK_ROLL
from dice_server.db import reading
from dice_server.errors import NotFound
from dice_server.models import Game, LedgerEntry, Member
from dice_server.services import ServiceContext
from dice_server.services.games import SIDES, check_participant

ALLIANCE_SIDE = {Alliance.AXIS: "axis", Alliance.ALLIES: "allies"}
POWER_SIDE = {
    **{power_label(power): ALLIANCE_SIDE[power.alliance] for power in Power},
    **{name: ALLIANCE_SIDE[alliance] for name, alliance in BIG_WORLD_ALLIANCES.items()},
}
"""The player's side of each power, by the name a roll records it under (Big World 1942's
China too)."""
OTHER_SIDE = {"axis": "allies", "allies": "axis"}


@dataclass(frozen=True)
class ThrownRoll:
    """One battle roll's dice thrown by one player."""

    game: int
    seq: int
    at: str
    battle: str
    throws: tuple[Throw, ...]


def attributed(data: Mapping[str, Any], kind: str) -> dict[str, tuple[Throw, ...]]:
    """A battle round's throws by the side of the player whose units threw them (see the
    module's docstring): a dice round's groups, a Low Luck round's volleys. A round naming
    no power of the game attributes nothing."""
    attacking = POWER_SIDE.get(str(data.get("country")))
    if attacking is None:
        return {}
    owner = {"attacker": attacking, "defender": OTHER_SIDE[attacking]}
    read = _volleys if kind == LOW_LUCK_ROLL else _groups
    out: dict[str, list[Throw]] = {}
    for side, throw in read(data):
        if side in owner:
            out.setdefault(owner[side], []).append(throw)
    return {side: tuple(throws) for side, throws in out.items() if throws}


def _groups(data: Mapping[str, Any]) -> Iterable[tuple[Any, Throw]]:
    """A dice round's groups that hit on a number, each with its side; hits counted from
    its dice."""
    for group in data.get("groups") or ():
        hit_on, dice = group.get("hit_on"), group.get("dice")
        if not isinstance(hit_on, int) or not isinstance(dice, list):
            continue
        hits = sum(1 for die in dice if isinstance(die, int) and die <= hit_on)
        yield group.get("side"), Throw(hit_on, len(dice), hits)


def _volleys(data: Mapping[str, Any]) -> Iterable[tuple[Any, Throw]]:
    """A Low Luck round's volleys, each with its side: its power's sure hits and remainder
    die, and the hits it records. A volley whose hits its power could not score is left out,
    as a malformed dice group is."""
    for volley in data.get("volleys") or ():
        power, hits = volley.get("power"), volley.get("hits")
        if type(power) is not int or type(hits) is not int:
            continue
        try:
            yield volley.get("side"), low_luck_volley(power, hits)
        except ImpossibleThrow:
            continue


@dataclass(frozen=True)
class GameDice:
    """A game's players by side (as its genesis names them) and each side's battle rolls."""

    number: int
    players: dict[str, str]
    rolls: dict[str, list[ThrownRoll]]


def _game_dice(session: Session, numbers: Sequence[int]) -> dict[int, GameDice]:
    found = {n: GameDice(n, {}, {side: [] for side in SIDES}) for n in numbers}
    rows = session.execute(
        select(LedgerEntry.game_number, LedgerEntry.body)
        .where(
            LedgerEntry.game_number.in_(numbers),
            LedgerEntry.kind.in_(("genesis", *BATTLE_ROLL_KINDS)),
        )
        .order_by(LedgerEntry.game_number, LedgerEntry.seq)
    )
    for number, body in rows:
        entry = json.loads(body)
        data = entry.get("data") or {}
        game = found[number]
        if entry.get("kind") == "genesis":
            game.players.update({s: str(data.get("players", {}).get(s, "")) for s in SIDES})
            continue
        for side, throws in attributed(data, str(entry.get("kind"))).items():
            game.rolls[side].append(
                ThrownRoll(number, entry["seq"], entry["at"], str(data.get("battle")), throws)
            )
    return found


def _number(value: Fraction | float) -> float:
    return round(float(value), 6)


def _chance(value: float) -> float:
    """Six significant figures: a very unlucky game's chance stays above zero."""
    return float(f"{value:.6g}")


def _totals(luck: Luck) -> dict[str, Any]:
    return {
        "dice": luck.dice,
        "hits": luck.hits,
        "expected": _number(luck.expected),
        "p_at_most": _chance(luck.p_at_most),
        "p_at_least": _chance(luck.p_at_least),
        "z": None if luck.z is None else _number(luck.z),
    }


def _judged(rolls: Sequence[ThrownRoll], *, games: bool = False) -> dict[str, Any]:
    """The totals of these rolls and the running series, one point per roll."""
    luck = luck_of(throw for roll in rolls for throw in roll.throws)
    series = []
    for roll, point in zip(rolls, running_luck(roll.throws for roll in rolls), strict=True):
        series.append(
            {
                **({"game": roll.game} if games else {}),
                "seq": roll.seq,
                "at": roll.at,
                "battle": roll.battle,
                "hits": point.hits,
                "expected": _number(point.expected),
                "cumulative_hits": point.cumulative_hits,
                "cumulative_expected": _number(point.cumulative_expected),
            }
        )
    return {"rolls": len(rolls), **_totals(luck), "series": series}


def game_luck(ctx: ServiceContext, number: int, viewer: Member) -> dict[str, Any]:
    """Each player's dice luck in game ``number`` (its players, mentor and the Minister of
    Law only; an ended game too)."""
    with reading(ctx.sessions) as session:
        game = session.get(Game, number)
        if game is None:
            raise NotFound(f"there is no game {number}: check the game number", "game")
        check_participant(number, set(game.participant_ids()), viewer)
        dice = _game_dice(session, [number])[number]
        fallback = {"axis": game.axis.email, "allies": game.allies.email}
    players = {}
    for side in SIDES:
        member = dice.players.get(side) or fallback[side]
        players[side] = {"member": member, **_judged(dice.rolls[side])}
    return {"game": number, "players": players}


def member_luck(ctx: ServiceContext, member: Member) -> dict[str, Any]:
    """A member's dice luck over every game played (as the Axis or the Allies), game by game
    and together, the rolls in the order thrown."""
    with reading(ctx.sessions) as session:
        rows = session.execute(
            select(Game.number, Game.axis_id)
            .where(or_(Game.axis_id == member.id, Game.allies_id == member.id))
            .order_by(Game.number)
        ).all()
        sides = {number: "axis" if axis_id == member.id else "allies" for number, axis_id in rows}
        found = _game_dice(session, list(sides))
    games, every = [], []
    for number, side in sides.items():
        rolls = found[number].rolls[side]
        luck = luck_of(throw for roll in rolls for throw in roll.throws)
        games.append({"game": number, "side": side, "rolls": len(rolls), **_totals(luck)})
        every.extend(rolls)
    every.sort(key=lambda roll: (roll.at, roll.game, roll.seq))
    return {"member": member.email, "games": games, **_judged(every, games=True)}


# The chart: cumulative hits above the mean, roll by roll, drawn by the template as SVG.

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 12, 46


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    title: str


@dataclass(frozen=True)
class ChartLine:
    """One player's running luck: ``name`` labels it, ``side`` styles it."""

    side: str
    name: str
    points: list[ChartPoint]

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x},{p.y}" for p in self.points)


@dataclass(frozen=True)
class ChartTick:
    at: float
    label: str


@dataclass(frozen=True)
class LuckChart:
    """Everything the template needs to draw the chart, in SVG user units."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    zero: float
    lines: list[ChartLine]
    y_ticks: list[ChartTick]
    x_ticks: list[ChartTick]
    rolls: int


def _step(span: float) -> float:
    """A round tick step giving four to eight ticks over ``span``."""
    step = 1.0
    while span / step > 8:
        for factor in (2, 2.5, 2):
            step *= factor
            if span / step <= 8:
                break
    return step


def luck_chart(lines: Iterable[tuple[str, str, Sequence[Mapping[str, Any]]]]) -> LuckChart:
    """The chart of ``(side, name, series)`` lines, a series as :func:`game_luck` or
    :func:`member_luck` gives it. Rolls share one x axis, in the order thrown (by game and
    seq); each line starts at zero before its first roll."""
    given = [(side, name, list(series)) for side, name, series in lines]
    stamps = {(p.get("game", 0), p["seq"]): str(p["at"]) for _, _, s in given for p in s}
    keys = sorted(stamps, key=lambda key: (stamps[key], key))
    order = {key: i + 1 for i, key in enumerate(keys)}
    surplus = [
        float(p["cumulative_hits"] - p["cumulative_expected"]) for _, _, s in given for p in s
    ]
    surplus.append(0.0)
    step = _step(max(max(surplus) - min(surplus), 1.0))
    low = step * (min(surplus) // step)
    high = step * -(-max(surplus) // step)
    if high - low < step:
        low, high = low - step, high + step
    rolls = max(len(keys), 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + plot_w * i / rolls, 1)

    def y(value: float) -> float:
        return round(TOP + plot_h * (high - value) / (high - low), 1)

    chart_lines = []
    for side, name, series in given:
        points = [ChartPoint(x(0), y(0.0), f"{name}: before the first roll")]
        for p in series:
            running = p["cumulative_hits"] - p["cumulative_expected"]
            game = f"game {p['game']} " if "game" in p else ""
            points.append(
                ChartPoint(
                    x(order[(p.get("game", 0), p["seq"])]),
                    y(running),
                    f"{name}: {game}#{p['seq']} {p['battle']}: {p['hits']} hit(s), "
                    f"{p['expected']:.2f} expected; {running:+.2f} so far",
                )
            )
        chart_lines.append(ChartLine(side, name, points))
    ticks, value = [], low
    while value <= high + step / 2:
        ticks.append(ChartTick(y(value), f"{value:+g}" if value else "0"))
        value += step
    x_ticks = [ChartTick(x(i), str(i)) for i in sorted({0, rolls // 2, rolls})]
    return LuckChart(
        WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM, y(0.0), chart_lines, ticks, x_ticks, len(keys)
    )
