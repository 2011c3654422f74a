"""The verify page: paste or upload one entry or an exported ledger; the page says exactly
what it checked, against the keys this server publishes, and links the verifier."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask_wtf import FlaskForm
from wtforms import TextAreaField
from wtforms.validators import Optional

from dice_server.errors import InvalidRequest
from dice_server.jsonbody import read_json
from dice_server.services.verification import check_document
from dice_server.web.context import service_context

bp = Blueprint("verify", __name__)


class VerifyForm(FlaskForm):
    pasted = TextAreaField("Paste an entry or an exported ledger (JSON)", validators=[Optional()])


MAX_UPLOAD = 16 * 1024 * 1024


@bp.before_request
def allow_large_ledgers() -> None:
    request.max_content_length = MAX_UPLOAD


@bp.route("/verify", methods=["GET", "POST"])
def verify() -> tuple[str, int]:
    form = VerifyForm()
    report, error = None, None
    if form.validate_on_submit():
        upload = request.files.get("upload")
        document: bytes | str = form.pasted.data or ""
        if upload is not None and upload.filename:
            document = upload.read(MAX_UPLOAD)
        if not document.strip():
            error = "paste an entry or a ledger, or choose a file"
        else:
            try:
                report = check_document(service_context(), read_json(document, "that"))
            except InvalidRequest as exc:
                error = exc.message
    status = 400 if error else 200
    return render_template("verify.html", form=form, report=report, error=error), status
