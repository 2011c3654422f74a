"""Games: creation with the genesis entry, the end with the seed's reveal, and reopening."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adjudicator.position import Position, dump_json, initial
from dice_server import dice, ledger
from dice_server.db import reading, writing
from dice_server.errors import Conflict, Forbidden, InvalidRequest, NotFound
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
) -> SignedEntry:
    """Create a game and its genesis entry, which commits to the game's dice seed and names
    the position it starts from (``position``: a position document, for variants and games
    moved from elsewhere; default: the Classic initial position)."""
    if number is not None and not 1 <= number <= MAX_GAME_NUMBER:
        raise InvalidRequest(f"number: must be from 1 to {MAX_GAME_NUMBER}", "number")
    variant = (variant or "").strip() or None
    clean_agreements = [text.strip() for text in agreements if text.strip()]
    start = initial() if position is None else read_position(position)
    try:
        return _create_game(ctx, axis, allies, number, mentor, variant, clean_agreements, start)
    except IntegrityError:
        raise Conflict(
            f"game number {number or '(next)'} was taken at the same moment: try again", "number"
        ) from None


def _create_game(
    ctx: ServiceContext,
    axis: str,
    allies: str,
    number: int | None,
    mentor: str | None,
    variant: str | None,
    clean_agreements: list[str],
    start: Position,
) -> SignedEntry:
    with writing(ctx.sessions) as session:
        axis_member = member_by_email(session, axis, "axis")
        allies_member = member_by_email(session, allies, "allies")
        if axis_member.id == allies_member.id:
            raise InvalidRequest("allies: a member cannot play both sides", "allies")
        mentor_member = member_by_email(session, mentor, "mentor") if mentor else None
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
            agreements=[
                Agreement(position=i, text=text) for i, text in enumerate(clean_agreements, 1)
            ],
        )
        session.add(game)
        session.flush()
        session.add(new_turn_row(number, start))
        for member_id in (axis_member.id, allies_member.id):  # each player's mail address
            address_row(session, ctx, number, member_id)
        chain = Chain.game(number)
        ledger.lock_game(session, number)
        commitment = dice.new_seed(session, ctx.keys.seed_box, chain, 1)

        def genesis(seq: int) -> dict[str, Any]:
            data: dict[str, Any] = {
                "players": {"axis": axis_member.email, "allies": allies_member.email},
                "agreements": clean_agreements,
                "seed_commitment": commitment,
                "position": dump_json(start),
            }
            if mentor_member is not None:
                data["mentor"] = mentor_member.email
            if variant:
                data["variant"] = variant
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

    Variants and annulled games are not rated.
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
        rated = int(status != "annulled" and game.variant is None)

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
