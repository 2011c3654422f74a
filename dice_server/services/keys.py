"""The signing keys: every key that ever signed stays published, so old entries verify."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from dice_server.db import reading, writing
from dice_server.keys import Signer, replace_signing_key
from dice_server.ledger import publish_key
from dice_server.models import SigningKey
from dice_server.services import ServiceContext


def published_keys(ctx: ServiceContext) -> dict[str, list[dict[str, str]]]:
    signer = ctx.keys.signer
    with reading(ctx.sessions) as session:
        rows = session.execute(select(SigningKey).order_by(SigningKey.created_at)).scalars()
        keys = {row.key_id: row.public for row in rows}
    keys.setdefault(signer.key_id, signer.public_b64)
    return {
        "keys": [{"id": kid, "alg": "Ed25519", "public": public} for kid, public in keys.items()]
    }


def rotate_key(ctx: ServiceContext, instance: Path) -> Signer:
    """Make a new signing key. Both the old and the new public key are published before
    the new key can sign anything; the old private key is destroyed."""
    old = ctx.keys.signer
    with writing(ctx.sessions) as session:
        publish_key(session, old)
        new = replace_signing_key(instance)
        publish_key(session, new)
    return new
