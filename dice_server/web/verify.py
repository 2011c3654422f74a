"""The verify page: paste or upload one entry or an exported ledger; the page says exactly
what it checked, against the keys this server publishes, and links the verifier."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, render_template, request

from dice_server import service_context
from dice_server.services.keys import published_keys
from dice_server.verifier import (
    NotCanonical,
    Report,
    canonical_json,
    decode_body,
    load_keys,
    verify_ledger,
    verify_signature,
)
from dice_server.web.forms import VerifyForm

bp = Blueprint("verify", __name__)
MAX_UPLOAD = 16 * 1024 * 1024


def check_document(doc: Any) -> Report:
    """A ledger (``{"entries": [...]}``) is verified whole; a single entry by itself."""
    keys_doc = published_keys(service_context())
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
        else:
            report.checked.append(
                f"the body is canonical: game {obj.get('game')}, entry #{obj.get('seq')}, "
                f"{obj.get('kind')}, stamped {obj.get('at')}"
            )
    except (NotCanonical, ValueError) as exc:
        report.problems.append(f"entry: {exc}")
    report.pending.append(
        "the chain, the order and the dice: verify the game's whole ledger for those"
    )
    return report


@bp.before_request
def allow_large_ledgers() -> None:
    request.max_content_length = MAX_UPLOAD


@bp.route("/verify", methods=["GET", "POST"])
def verify() -> tuple[str, int]:
    form = VerifyForm()
    report, error = None, None
    if form.validate_on_submit():
        upload = request.files.get("upload")
        text = form.pasted.data or ""
        if upload is not None and upload.filename:
            text = upload.read(MAX_UPLOAD).decode("utf-8", "replace")
        if not text.strip():
            error = "paste an entry or a ledger, or choose a file"
        else:
            try:
                report = check_document(json.loads(text))
            except ValueError as exc:
                error = f"that is not JSON: {exc}"
    status = 400 if error else 200
    return render_template("verify.html", form=form, report=report, error=error), status
