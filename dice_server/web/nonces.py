"""One-time form nonces: each rendered roll form carries one, and the roll is recorded
under it (as an idempotency key), so a double click or a replayed post cannot roll twice:
the second post shows the first result.

A nonce is random and carries an HMAC binding it to the member and the form, so a nonce the
server did not issue to this member is refused before anything is written.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import current_app

from dice_server.errors import InvalidRequest


def _mac(member_id: int, form: str, raw: str) -> str:
    key = current_app.secret_key
    assert isinstance(key, bytes | str)
    key_bytes = key if isinstance(key, bytes) else key.encode()
    message = f"form-nonce:{member_id}:{form}:{raw}".encode()
    return hmac.new(key_bytes, message, hashlib.sha256).hexdigest()[:32]


def issue(member_id: int, form: str) -> str:
    raw = secrets.token_urlsafe(18)
    return f"{raw}.{_mac(member_id, form, raw)}"


def check(value: str | None, member_id: int, form: str) -> str:
    """The nonce, if this server issued it to this member for this form."""
    raw, _, mac = (value or "").partition(".")
    # Every nonce issued is ASCII; compare_digest refuses other text with a TypeError.
    issued = raw.isascii() and mac.isascii() and bool(raw)
    if not issued or not hmac.compare_digest(mac, _mac(member_id, form, raw)):
        raise InvalidRequest(
            "nonce: this form was not issued to you or is damaged: reload the page and roll "
            "from the fresh form",
            "nonce",
        )
    return f"form:{value}"
