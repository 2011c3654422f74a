"""Games: creation with the genesis entry, the end with the seed's reveal, and reopening."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adjudicator.battle.reading import CLASSIC_RULESET, RULESET
from adjudicator.bids import DRAW_SIDES, Bidder, axis_by_die, draw_rule
from adjudicator.position import Position, dump_json, initial
from dice_server import dice, ledger
from dice_server.db import reading, writing
from dice_server.errors import Conflict, Forbidden, InvalidRequest, NotFound
from dice_server.kinds.systems import AA_SYSTEM, GAME_SYSTEMS, RULES_NAMES, SYSTEM_NAMES, system_of
from dice_server.ledger import Chain, SignedEntry
from dice_server.models import Agreement, Game, Member
from dice_server.services import ServiceContext
from dice_server.services.game_addresses import address_row
from dice_server.services.members import member_by_email
from dice_server.services.outbox import Envelope, publish
from dice_server.services.positions import new_turn_row, read_position

MAX_GAME_NUMBER = 2**31 - 1
END_STATUSES = ("finished", "forfeited", "annulled")
SIDES = ("axis", "allies")
RULESETS = (CLASSIC_RULESET, RULESET)
"""The rulesets a game may be played by: Classic (the league's) and Big World 1942."""


@dataclass(frozen=True)
class Draw:
    """Sides decided by a die (IAAPA Bidding: "If bids of equal value are received the web
    server will determine the winner by a random process"): the die of the genesis entry's
    own seq, drawn from the seed the genesis commits to, so anyone recomputes it once the
    seed is revealed. 1-3: ``first`` plays the Axis; 4-6: ``second`` does."""

    first: str
    second: str
    reason: str


Setup = Callable[[str], tuple[Position, Mapping[str, Any]]]


@dataclass(frozen=True)
class NewGame:
    """What a new game is: its players by side (or a :class:`Draw` between them), mentor,
    variant, gentlemen's agreements, starting position, and what else its genesis records
    (a challenge's bids)."""

    axis: str
    allies: str
    number: int | None = None
    mentor: str | None = None
    variant: str | None = None
    agreements: tuple[str, ...] = ()
    start: Position | None = None
    draw: Draw | None = None
    setup: Setup | None = None
    """The starting position and what else the genesis records, for the member who plays
    the Axis (known only after a draw); when given, it replaces ``start``."""
    low_luck: bool = False
    """Battle rounds are thrown by Low Luck (the genesis records ``"low_luck": 1``)."""
    ruleset: str = CLASSIC_RULESET
    """The rules its battle rounds are thrown and read by (the genesis records any but
    Classic's): an Axis & Allies ruleset, or the name of another game system (the genesis
    records it as ``"system"``)."""


def create_game(
    ctx: ServiceContext,
    *,
    axis: str,
    allies: str,
    number: int | None = None,
    mentor: str | None = None,
    variant: str | None = None,
    agreements: tuple[str, ...] = (),
    position: Any = None,
    low_luck: bool = False,
    ruleset: str = CLASSIC_RULESET,
    system: str = AA_SYSTEM,
) -> SignedEntry:
    """Create a game and its genesis entry, which commits to the game's dice seed and names
    the position it starts from (``position``: a position document, for variants and games
    moved from elsewhere; default: the Classic initial position); with ``low_luck`` its
    battle rounds are thrown by Low Luck. A ``ruleset`` other than Classic (Big World 1942)
    throws and reads its battle rounds by its own rules and keeps no position: the service
    checks Classic turns only. A game of another ``system`` (Triumph & Tragedy, Triumph of
    the Will) is played with that system's rolls alone; its ``ruleset`` column names the
    system."""
    if number is not None and not 1 <= number <= MAX_GAME_NUMBER:
        raise InvalidRequest(f"number: must be from 1 to {MAX_GAME_NUMBER}", "number")
    if system not in GAME_SYSTEMS:
        raise InvalidRequest(
            f"system: unknown game system {system!r}; use {' or '.join(GAME_SYSTEMS)}", "system"
        )
    if ruleset not in RULESETS:
        raise InvalidRequest(
            f"ruleset: unknown ruleset {ruleset!r}; use {' or '.join(RULESETS)}", "ruleset"
        )
    if system != AA_SYSTEM:
        if ruleset != CLASSIC_RULESET:
            raise InvalidRequest(
                f"ruleset: {ruleset} is a ruleset of Axis & Allies, not of "
                f"{SYSTEM_NAMES[system]}; leave it out",
                "ruleset",
            )
        ruleset = system
    if ruleset != CLASSIC_RULESET:
        if position is not None:
            raise InvalidRequest(
                f"position: a {RULES_NAMES[ruleset]} game keeps no position (the service "
                "checks Classic turns only); leave it out",
                "position",
            )
        if low_luck:
            raise InvalidRequest(
                "low_luck: Low Luck battle rounds are offered for Classic games only", "low_luck"
            )
    start = initial() if position is None else read_position(position)
    spec = NewGame(
        axis,
        allies,
        number,
        mentor,
        variant,
        agreements,
        start,
        low_luck=low_luck,
        ruleset=ruleset,
    )
    try:
        with writing(ctx.sessions) as session:
            return new_game(session, ctx, spec)
    except IntegrityError:
        raise Conflict(
            f"game number {number or '(next)'} was taken at the same moment: try again", "number"
        ) from None


def new_game(session: Session, ctx: ServiceContext, spec: NewGame) -> SignedEntry:
    """The game and its genesis entry, in the caller's write transaction."""
    variant = (spec.variant or "").strip() or None
    clean_agreements = [text.strip() for text in spec.agreements if text.strip()]
    start = spec.start or initial()
    axis_member = member_by_email(session, spec.axis, "axis")
    allies_member = member_by_email(session, spec.allies, "allies")
    if axis_member.id == allies_member.id:
        raise InvalidRequest("allies: a member cannot play both sides", "allies")
    mentor_member = member_by_email(session, spec.mentor, "mentor") if spec.mentor else None
    number = spec.number
    if number is None:
        number = int(session.execute(select(func.max(Game.number))).scalar() or 0) + 1
    elif session.get(Game, number) is not None:
        raise Conflict(f"game {number} already exists", "number")
    game = Game(
        number=number,
        axis_id=axis_member.id,
        allies_id=allies_member.id,
        mentor_id=mentor_member.id if mentor_member else None,
        variant=variant,
        low_luck=spec.low_luck,
        ruleset=spec.ruleset,
        agreements=[Agreement(position=i, text=text) for i, text in enumerate(clean_agreements, 1)],
    )
    session.add(game)
    session.flush()
    for member_id in (axis_member.id, allies_member.id):  # each player's mail address
        address_row(session, ctx, number, member_id)
    chain = Chain.game(number)
    ledger.lock_game(session, number)
    commitment = dice.new_seed(session, ctx.keys.seed_box, chain, 1)
    drawn: dict[str, Any] | None = None
    if spec.draw is not None:
        sealed = dice.open_seed(session, chain)
        assert sealed is not None  # committed just above
        die = next(dice.stream(ctx.keys.seed_box, sealed, 1, DRAW_SIDES))
        winner = spec.draw.first if axis_by_die(die) is Bidder.FIRST else spec.draw.second
        if axis_member.email.casefold() != winner.casefold():
            axis_member, allies_member = allies_member, axis_member
            game.axis_id, game.allies_id = axis_member.id, allies_member.id
        drawn = {
            "sides": DRAW_SIDES,
            "dice": [die],
            "reason": spec.draw.reason,
            "rule": draw_rule(spec.draw.first, spec.draw.second),
        }
    record: Mapping[str, Any] = {}
    if spec.setup is not None:
        start, record = spec.setup(axis_member.email)
    session.add(new_turn_row(number, start))

    def genesis(seq: int) -> dict[str, Any]:
        data: dict[str, Any] = {
            **record,
            "players": {"axis": axis_member.email, "allies": allies_member.email},
            "agreements": clean_agreements,
            "seed_commitment": commitment,
        }
        if spec.ruleset == CLASSIC_RULESET:
            data["position"] = dump_json(start)
        elif system_of(spec.ruleset) != AA_SYSTEM:
            data["system"] = spec.ruleset
        else:
            data["ruleset"] = spec.ruleset
        if drawn is not None:
            data["draw"] = drawn
        if mentor_member is not None:
            data["mentor"] = mentor_member.email
        if variant:
            data["variant"] = variant
        if spec.low_luck:
            data["low_luck"] = 1
        return data

    return publish(
        session,
        ctx,
        ctx.clock(),
        chain,
        "genesis",
        genesis,
        Envelope.each_once(
            (axis_member.email, allies_member.email),
            (mentor_member.email if mentor_member else None,),
        ),
    )


def classic_turns(game: Game) -> None:
    """Refuse a game whose ruleset is not Classic: the service reads and checks Classic turns
    and positions only (a Big World game, or one of another game system, is played with the
    dice server alone)."""
    if game.ruleset != CLASSIC_RULESET:
        played = (
            f"is a {SYSTEM_NAMES[system_of(game.ruleset)]} game"
            if system_of(game.ruleset) != AA_SYSTEM
            else f"is played by the {game.ruleset} ruleset"
        )
        raise Conflict(
            f"game {game.number} {played}: the service keeps positions and checks turns of "
            "Classic games only (roll its battles on the dice server)",
            "game",
        )


def recipients(game: Game) -> Envelope:
    """A game's mail goes to its players, Cc its mentor."""
    return Envelope.each_once(
        (game.axis.email, game.allies.email), (game.mentor.email if game.mentor else None,)
    )


def locked_game(session: Session, number: int) -> Game:
    if ledger.lock_game(session, number) is None:
        raise NotFound(f"there is no game {number}: check the game number", "game")
    return session.get_one(Game, number)


def end_game(
    ctx: ServiceContext,
    number: int,
    *,
    status: str,
    winner: str | None = None,
    reason: str | None = None,
) -> SignedEntry:
    """Record the result and reveal the seed, opening every roll of the game to checking.

    Variants (Low Luck games among them: IAAPA Variants) and annulled games are not rated.
    """
    if status not in END_STATUSES:
        raise InvalidRequest(f"status: must be one of {', '.join(END_STATUSES)}", "status")
    if status == "annulled" and winner:
        raise InvalidRequest("winner: an annulled game has no winner", "winner")
    if status != "annulled" and winner not in SIDES:
        raise InvalidRequest(f"winner: a {status} game needs --winner axis or allies", "winner")
    with writing(ctx.sessions) as session:
        game = locked_game(session, number)
        if game.status != "active":
            raise Conflict(f"game {number} is already {game.status}")
        chain = Chain.game(number)
        sealed = dice.open_seed(session, chain)
        if sealed is None:
            raise Conflict(f"game {number} has no unrevealed seed")
        seed = dice.unseal(ctx.keys.seed_box, sealed)
        game.status = status
        game.winner = winner
        rated = int(
            status != "annulled"
            and game.variant is None
            and not game.low_luck
            and game.ruleset == CLASSIC_RULESET
        )

        def reveal(seq: int) -> dict[str, Any]:
            data: dict[str, Any] = {
                "status": status,
                "rated": rated,
                "seed": seed.hex(),
                "commitment_seq": sealed.commitment_seq,
            }
            if winner:
                data["winner"] = winner
            if reason and reason.strip():
                data["reason"] = reason.strip()
            return data

        entry = publish(session, ctx, ctx.clock(), chain, "seed-reveal", reveal, recipients(game))
        dice.mark_revealed(session, sealed, entry.seq)
        return entry


def reopen_game(ctx: ServiceContext, number: int, *, reason: str) -> SignedEntry:
    """Reopen an ended game under a new committed seed (a ruling may reopen a game)."""
    if not reason.strip():
        raise InvalidRequest("reason: say why the game is reopened", "reason")
    with writing(ctx.sessions) as session:
        game = locked_game(session, number)
        if game.status == "active":
            raise Conflict(f"game {number} is not ended")
        chain = Chain.game(number)
        head = ledger.head(session, chain)
        seq = (head.seq if head else 0) + 1
        commitment = dice.new_seed(session, ctx.keys.seed_box, chain, seq)
        game.status, game.winner = "active", None
        return publish(
            session,
            ctx,
            ctx.clock(),
            chain,
            "commitment",
            lambda _seq: {"seed_commitment": commitment, "reason": reason.strip()},
            recipients(game),
        )


class Person(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def is_minister(self) -> bool: ...


def check_participant(number: int, participants: set[int | None], person: Person) -> None:
    """Only the game's players, its mentor and the Minister of Law see or roll in it."""
    if person.is_minister or person.id in participants:
        return
    raise Forbidden(f"you do not play in game {number} (nor mentor it)")


def export_ledger(ctx: ServiceContext, number: int, viewer: Member | None) -> dict[str, Any]:
    """The game's ledger as exported: exact bodies, signatures, key ids. ``viewer`` None is
    the operator (CLI)."""
    with reading(ctx.sessions) as session:
        game = session.get(Game, number)
        if game is None:
            raise NotFound(f"there is no game {number}: check the game number", "game")
        if viewer is not None:
            check_participant(number, set(game.participant_ids()), viewer)
        return ledger.exported(session, Chain.game(number))
