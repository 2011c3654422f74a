"""The published signing keys: every key that ever signed stays listed."""

from __future__ import annotations

from sqlalchemy import select

from dice_server.db import reading
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
