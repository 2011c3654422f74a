"""Verification for the verify page: one entry or a whole exported ledger, checked against
the keys this server publishes, with a report of exactly what was checked; or a player's
own mail, checked by the standalone verifier's own function (``verifier.py --mail``)."""

from __future__ import annotations

from typing import Any

from dice_server.errors import InvalidRequest
from dice_server.jsonbody import shown
from dice_server.services import ServiceContext
from dice_server.services.keys import published_keys
from dice_server.verifier import (
    MailError,
    MailReport,
    NotCanonical,
    Report,
    ZipLimits,
    canonical_json,
    decode_body,
    load_keys,
    upload_items,
    verify_ledger,
    verify_mail,
    verify_signature,
)


def check_mailbox(ctx: ServiceContext, data: bytes, name: str, limits: ZipLimits) -> MailReport:
    """A player's uploaded mail (an mbox, a zip of ``.eml`` files, or one message), every
    game in it verified exactly as ``verifier.py --mail`` does, with the keys in the mail
    and those this server publishes. A zip too big or too full to unpack within
    ``limits``, or no zip at all, is refused with the reason; nothing is stored."""
    try:
        items = upload_items(data, name, limits)
    except MailError as exc:
        raise InvalidRequest(str(exc), "upload") from None
    return verify_mail(items, published_keys(ctx), keys_name="this server's published keys")


def check_document(ctx: ServiceContext, doc: Any) -> Report:
    """A ledger (``{"entries": [...]}``) is verified whole; a single entry by itself."""
    keys_doc = published_keys(ctx)
    if isinstance(doc, dict) and "entries" in doc:
        return verify_ledger(doc, keys_doc)
    report = Report()
    if not (isinstance(doc, dict) and {"body", "sig", "key"} <= set(doc)):
        report.problems.append(
            'not an entry ({"body", "sig", "key"}) nor a ledger ({"entries": [...]})'
        )
        return report
    body = str(doc["body"]).encode("utf-8")
    problem = verify_signature(load_keys(keys_doc), body, str(doc["sig"]), str(doc["key"]))
    if problem:
        report.problems.append(f"entry: {problem}")
    else:
        report.checked.append(f"the Ed25519 signature with key {doc['key']} holds")
    try:
        obj = decode_body(body)
        if canonical_json(obj, checked=True) != body:
            report.problems.append("entry: the body is not in canonical form")
        elif not isinstance(obj, dict):
            report.problems.append(f"entry: the body is {shown(obj)}, not an entry's object")
        else:
            report.checked.append(
                f"the body is canonical: game {obj.get('game')}, entry #{obj.get('seq')}, "
                f"{obj.get('kind')}, stamped {obj.get('at')}"
            )
    except NotCanonical as exc:
        report.problems.append(f"entry: {exc}")
    except (ValueError, RecursionError) as exc:
        reason = "it is nested too deeply to check" if isinstance(exc, RecursionError) else exc
        report.problems.append(f"entry: the body is not JSON ({reason})")
    report.pending.append(
        "the chain, the order and the dice: verify the game's whole ledger for those"
    )
    return report
