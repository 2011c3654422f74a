"""Personal game addresses: ``game-<n>.<secret>@<MAIL_DOMAIN>``, one per player and game.

Mail that reaches the service is routed by the address it was sent to, and a player's
address is what makes his mail his: only he is sent it (as the Reply-To of his game's mail),
so a message to it from his own From address is taken as his. The secret is random per
player and game: an HMAC of a random per-row nonce under the instance secret
(``instance/secret_key``). The database keeps the nonce and the secret's SHA-256, never the
secret, so a copy of the database alone cannot write as a player, and the service can still
put the address in every message it sends him.

Local parts are compared lower-cased: the secret is written in lower-case base32, and some
mail systems change the letter case of local parts.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

SECRET_LENGTH = 20
"""Base32 characters of a secret: 100 bits, beyond guessing by mail."""
_LOCAL = re.compile(r"game-(\d{1,9})(?:\.([a-z2-7]{8,64}))?")


def new_nonce() -> str:
    """The random part of a new address (stored in the clear: useless without the key)."""
    return secrets.token_hex(16)


def derive_secret(instance_secret: bytes, game: int, member: int, nonce: str) -> str:
    """The secret of member ``member``'s address in game ``game`` with ``nonce``."""
    message = f"pbem game address\0{game}\0{member}\0{nonce}".encode()
    digest = hmac.new(instance_secret, message, hashlib.sha256).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:SECRET_LENGTH]


def secret_hash(secret: str) -> str:
    """What the database keeps of a secret."""
    return hashlib.sha256(secret.lower().encode("ascii")).hexdigest()


def game_address(game: int, secret: str | None, domain: str) -> str:
    """``game-<n>.<secret>@<domain>``, or the bare ``game-<n>@<domain>`` without a secret."""
    local = f"game-{game}" if secret is None else f"game-{game}.{secret}"
    return f"{local}@{domain}"


@dataclass(frozen=True)
class GameRecipient:
    """An address of this service naming a game: personal (with its secret) or bare."""

    address: str
    game: int
    secret: str | None


def read_address(address: str, domain: str) -> GameRecipient | None:
    """The game an address at ``domain`` names, or None for any other address."""
    local, at, host = address.strip().rpartition("@")
    if not at or host.lower().rstrip(".") != domain.lower():
        return None
    m = _LOCAL.fullmatch(local.lower())
    if m is None:
        return None
    return GameRecipient(address.strip(), int(m.group(1)), m.group(2))
