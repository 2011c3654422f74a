"""Rolls (IAAPA "Using the Dice Server"): each is checked whole, then thrown and signed
in one append. Battle rounds, weapons development, strategic bombing and rockets: what each
throws is the rules engine's (:mod:`adjudicator.rolls`), how its request is read is its
kind's (:mod:`dice_server.kinds`). Notes go the same way, without dice."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.battle.reading import RULESET
from adjudicator.rolls import BattleRoll
from adjudicator.rolls.lowluck import LowLuckRoll
from dice_server.db import Fetched, reading
from dice_server.dice import SealedSeed
from dice_server.errors import Conflict, InvalidRequest, NotFound
from dice_server.jsonbody import shown
from dice_server.kinds import REGISTRY, ROLL_KINDS, battle, system_rolls
from dice_server.kinds.big_world import read_big_world
from dice_server.kinds.systems import AA_SYSTEM, SYSTEM_NAMES, system_of
from dice_server.ledger import SignedEntry
from dice_server.ledger_queries import TURN_ROLLED
from dice_server.models import Game
from dice_server.services import ServiceContext
from dice_server.services.battles import link_roll
from dice_server.services.entries import Actor, Retry, Who, record, thrower
from dice_server.services.notes import send_note


def write(
    ctx: ServiceContext,
    kind: str,
    who: Who,
    number: int,
    payload: Any,
    retry: Retry | None = None,
) -> SignedEntry:
    """Write an entry of a kind members write, from any channel: a note, or a roll thrown
    for game ``number`` (its request is checked whole before any lock is taken)."""
    if kind == "note":
        return send_note(ctx, who, number, payload, retry)
    if kind not in ROLL_KINDS or REGISTRY[kind].read is None:
        raise NotFound(f"there is no roll of kind {kind!r}")
    remembered = _RULES.get((_database(ctx), number))
    try:
        return _roll(ctx, kind, who, number, payload, retry, remembered or _rules(ctx, number))
    except (_RulesChanged, InvalidRequest):
        if remembered is None:
            raise
        # Read by rules this process remembered wrongly (its database was restored or
        # replaced under it)? Then by the game's own rules, read again.
        rules = _rules(ctx, number)
        if rules == remembered:
            raise
        return _roll(ctx, kind, who, number, payload, retry, rules)


def _roll(
    ctx: ServiceContext,
    kind: str,
    who: Who,
    number: int,
    payload: Any,
    retry: Retry | None,
    rules: tuple[bool, str | None],
) -> SignedEntry:
    low_luck, ruleset = rules
    if ruleset is not None:  # an unknown game is refused by the write itself
        kind = _roll_kind(number, system_of(ruleset), kind, payload)
    read = REGISTRY[kind].read
    assert read is not None
    if kind == "roll":
        if ruleset == RULESET:
            read = read_big_world
        request = read(payload)
        if low_luck:  # a Classic game's (a Big World game has no Low Luck option)
            assert isinstance(request, BattleRoll)
            kind, request = battle.LOW_LUCK.name, LowLuckRoll(request)
    else:
        request = read(payload)
    locked: list[tuple[Session, Fetched]] = []

    def check(session: Session, _actor: Actor, game: Fetched) -> None:
        if (bool(game.low_luck), game.ruleset) != rules:
            raise _RulesChanged(number)
        locked.append((session, game))

    def build(seq: int, seed: SealedSeed | None, member: Actor) -> dict[str, Any]:
        session, game = locked[0]
        data: dict[str, Any] = request.record(member.email, thrower(ctx, seq, seed))
        if kind in BATTLE_KINDS:
            data.update(link_roll(session, number, game, data))
        if kind != "tech-roll" and REGISTRY[kind].system == AA_SYSTEM:
            started(session, number, game, seq)
        return data

    return record(ctx, who, number, kind, build, needs_dice=True, retry=retry, check=check)


def _roll_kind(number: int, system: str, kind: str, payload: Any) -> str:
    """The kind of roll asked for in game ``number`` of ``system``: the path's, or at
    ``.../rolls`` the body's ``"kind"`` (which a game of another system than Axis & Allies
    must give); refused naming ``kind`` when it is not one of the game's system's rolls."""
    offered = ", ".join(k.name for k in system_rolls(system))
    named = payload.get("kind") if isinstance(payload, dict) else None
    if kind == "roll" and named is not None:
        known = REGISTRY.get(named) if isinstance(named, str) else None
        if known is None or not known.rolls or known.read is None:
            raise InvalidRequest(
                f"kind: there is no roll kind {shown(named)}; a {SYSTEM_NAMES[system]} game "
                f"throws {offered}",
                "kind",
            )
        kind = known.name
    elif kind == "roll" and system != AA_SYSTEM:
        raise InvalidRequest(
            f"kind: game {number} is a {SYSTEM_NAMES[system]} game: say which roll with "
            f'"kind", one of {offered}',
            "kind",
        )
    owner = REGISTRY[kind].system
    if owner != system:
        raise InvalidRequest(
            f"kind: {kind} is a {SYSTEM_NAMES[owner]} roll, and game {number} is a "
            f"{SYSTEM_NAMES[system]} game: its rolls are {offered}",
            "kind",
        )
    return kind


BATTLE_KINDS = frozenset({battle.KIND.name, battle.LOW_LUCK.name})
"""The kinds of a battle round: by dice, or by Low Luck in a game with that option."""


class _RulesChanged(Conflict):
    """The game's rules as locked are not those its request was read by."""

    def __init__(self, number: int) -> None:
        super().__init__(f"game {number} changed while your roll was read: send it again")


#: (database, game number) -> (Low Luck, ruleset) of games this process has rolled for:
#: both are fixed when a game is created, and every roll checks them again under the
#: game's lock (a database restored or replaced under a running server is caught there).
_RULES: dict[tuple[str, int], tuple[bool, str]] = {}


def _database(ctx: ServiceContext) -> str:
    return str(ctx.sessions.kw["bind"].url)


def _rules(ctx: ServiceContext, number: int) -> tuple[bool, str | None]:
    """Whether game ``number`` throws its battle rounds by Low Luck, and its ruleset (both
    fixed at its creation), read and remembered; ``None`` for an unknown game, which the
    write itself refuses."""
    with reading(ctx.sessions) as session:
        row = session.execute(
            select(Game.low_luck, Game.ruleset).where(Game.number == number)
        ).first()
    if row is None:
        return False, None
    rules = bool(row.low_luck), str(row.ruleset)
    _RULES[(_database(ctx), number)] = rules
    return rules


def started(session: Session, number: int, game: Fetched, seq: int) -> None:
    """The first die of a declared turn (a battle or a bombing raid; research comes before
    the pre-combat turn) ends the time for amending its combat moves. ``game`` is the
    game's row as locked: no statement unless this roll is that first die."""
    if game.turn_phase == "combat" and game.turn_rolled_seq is None:
        TURN_ROLLED.execute(session.connection(), {"number": number, "seq": seq})


def roll_battle(
    ctx: ServiceContext, who: Who, number: int, payload: Any, retry: Retry | None = None
) -> SignedEntry:
    """Throw one battle round for game ``number``."""
    return write(ctx, "roll", who, number, payload, retry)
