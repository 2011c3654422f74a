"""The signing keys: every key that ever signed stays published, so old entries verify, and
each new key is vouched for by the one before it, in every active game's mail."""

from __future__ import annotations

from pathlib import Path

from dice_server import ledger
from dice_server.db import reading, writing
from dice_server.keys import Signer, new_signer, replace_signing_key
from dice_server.ledger import format_time, publish_key
from dice_server.services import ServiceContext
from dice_server.services.rotation import queue_rotation_mail
from dice_server.verifier import rotation_body


def published_keys(ctx: ServiceContext) -> dict[str, list[dict[str, str]]]:
    signer = ctx.keys.signer
    with reading(ctx.sessions) as session:
        keys = dict(ledger.published(session))
    keys.setdefault(signer.key_id, signer.public_b64)
    return ledger.keys_document(keys.items())


def rotation_statement(old: Signer, new: Signer, at: str) -> dict[str, str]:
    """The old key's signed word that the new key follows it, as mailed:
    ``{"body", "sig", "key"}`` like an entry (the format: dice_server.verifier.rotation_body)."""
    body = rotation_body(old.key_id, new.key_id, new.public_b64, at)
    return {"body": body.decode("utf-8"), "sig": old.sign(body), "key": old.key_id}


def rotate_key(ctx: ServiceContext, instance: Path) -> Signer:
    """Make a new signing key, vouched for by the old one.

    The old key signs a statement naming the new one; in one transaction both public keys
    are published and the statement is queued to the players of every active game, so
    that a player's own mail carries the chain of keys from the one his game began with.
    Only after that commits is the new key installed and the old private key destroyed:
    no entry is ever signed by a key not yet published. Should installing fail, the
    statement names a key that never signs; the old key goes on signing.
    """
    old, new = ctx.keys.signer, new_signer()
    now = ctx.clock()
    statement = rotation_statement(old, new, format_time(now))
    with writing(ctx.sessions) as session:
        publish_key(session, old)
        publish_key(session, new)
        queue_rotation_mail(session, ctx, now, statement, new.key_id)
    return replace_signing_key(instance, new)
