"""Each player's personal address for a game (dice_server.mail.addresses): made on first
use, found again from a message's recipient, and put in the Reply-To of every copy of the
game's mail that player receives."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from dice_server.db import reading, writing
from dice_server.errors import NotFound, ServiceError
from dice_server.mail.addresses import (
    GameRecipient,
    derive_secret,
    game_address,
    new_nonce,
    secret_hash,
)
from dice_server.models import Game, GameAddress
from dice_server.services import ServiceContext
from dice_server.services.members import normalize_email


def address_row(session: Session, ctx: ServiceContext, number: int, member_id: int) -> str:
    """Member ``member_id``'s address in game ``number``, made on first use."""
    row = session.execute(
        select(GameAddress).where(
            GameAddress.game_number == number, GameAddress.member_id == member_id
        )
    ).scalar_one_or_none()
    if row is None:
        nonce = new_nonce()
        secret = derive_secret(ctx.keys.secret_key, number, member_id, nonce)
        row = GameAddress(
            game_number=number,
            member_id=member_id,
            nonce=nonce,
            secret_hash=secret_hash(secret),
            created_at=ctx.clock(),
        )
        session.add(row)
        session.flush()
    secret = derive_secret(ctx.keys.secret_key, number, member_id, row.nonce)
    return game_address(number, secret, ctx.mail_domain)


def player_addresses(session: Session, ctx: ServiceContext, game: Game) -> dict[str, str]:
    """Each player's personal address by his address's case-insensitive key (made if
    missing, in the caller's write transaction)."""
    return {
        member.email_key: address_row(session, ctx, game.number, member.id)
        for member in (game.axis, game.allies)
    }


def player_addresses_of(ctx: ServiceContext, number: int) -> dict[str, str]:
    """:func:`player_addresses` of game ``number`` in a transaction of its own (the
    delivery of a game's mail); {} for a game that no longer exists."""
    with writing(ctx.sessions) as session:
        game = session.get(Game, number)
        return {} if game is None else player_addresses(session, ctx, game)


def address_of(ctx: ServiceContext, number: int, email: str) -> str:
    """The personal address of the player ``email`` in game ``number`` (``pbem game
    address``, the game's mail page)."""
    _, key = normalize_email(email)
    with writing(ctx.sessions) as session:
        game = session.get(Game, number)
        if game is None:
            raise NotFound(f"there is no game {number}: check the game number", "game")
        addresses = player_addresses(session, ctx, game)
        if key not in addresses:
            raise NotFound(f"{email} does not play in game {number}", "email")
        return addresses[key]


def my_address(ctx: ServiceContext, number: int, viewer_id: int) -> str | None:
    """The viewer's own address in game ``number`` when he plays in it (his game page);
    None for anyone else (a mentor, a minister: nobody sees a player's address but him).
    Read only, unless a game from before personal addresses has none for him yet."""
    with reading(ctx.sessions) as session:
        game = session.get(Game, number)
        if game is None or viewer_id not in (game.axis_id, game.allies_id):
            return None
        nonce = session.execute(
            select(GameAddress.nonce).where(
                GameAddress.game_number == number, GameAddress.member_id == viewer_id
            )
        ).scalar_one_or_none()
    if nonce is not None:
        secret = derive_secret(ctx.keys.secret_key, number, viewer_id, nonce)
        return game_address(number, secret, ctx.mail_domain)
    with writing(ctx.sessions) as session:
        return address_row(session, ctx, number, viewer_id)


def owner_of(session: Session, recipient: GameRecipient) -> GameAddress | None:
    """The address row a personal address names (by its secret's hash), or None."""
    if recipient.secret is None:
        return None
    return session.execute(
        select(GameAddress).where(GameAddress.secret_hash == secret_hash(recipient.secret))
    ).scalar_one_or_none()


def masked(recipient: GameRecipient) -> str:
    """An address with its secret hidden (quarantine reasons are shown to operators and
    on the game's mail page)."""
    return recipient.address.split(".", 1)[0] + ".…@" + recipient.address.rpartition("@")[2]


def address_key(address: str | None) -> str | None:
    """The case-insensitive key of an address as the members table keeps it; None for
    none or one that does not validate."""
    if not address:
        return None
    try:
        return normalize_email(address)[1]
    except ServiceError:
        return None


def email_key(address: str) -> str:
    """:func:`address_key`, or the address case-folded when it does not validate."""
    return address_key(address) or address.casefold()
