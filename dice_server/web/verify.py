"""The verify page: paste or upload one entry or an exported ledger, or upload your own mail
(an mbox, or a zip of .eml files); the page says exactly what it checked, against the keys
this server publishes (and, for mail, the keys the mail carries), and links the verifier."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request
from flask_wtf import FlaskForm
from werkzeug.exceptions import RequestEntityTooLarge
from wtforms import TextAreaField
from wtforms.validators import Optional

from dice_server.errors import InvalidRequest
from dice_server.jsonbody import read_json
from dice_server.services.verification import check_document, check_mailbox
from dice_server.verifier import ZipLimits
from dice_server.web.context import service_context
from dice_server.web.extensions import csrf

bp = Blueprint("verify", __name__)

#: Room in a request for the multipart framing and the form's other fields.
FORM_OVERHEAD = 64 * 1024
MAIL_SUFFIXES = (".mbox", ".mbx", ".zip", ".eml")


class VerifyForm(FlaskForm):
    pasted = TextAreaField("Paste an entry or an exported ledger (JSON)", validators=[Optional()])


def upload_limit() -> int:
    return int(current_app.config["VERIFY_UPLOAD_BYTES"])


def too_large_text(what: str, limit: int) -> str:
    size = f"{limit // 2**20} MB" if limit >= 2**20 else f"{limit} bytes"
    return f"{what} is larger than the {size} this page takes: verify it offline with verifier.py"


def too_large() -> tuple[str, int]:
    """Refused before it is read: nothing of it is kept."""
    error = too_large_text("the upload", upload_limit())
    return render_template("verify.html", form=None, error=error), 413


@bp.before_request
def allow_large_uploads() -> tuple[str, int] | None:
    """A game's mail or ledger is larger than any other request: the limit is raised for
    this page only, before anything reads the form. So the page is exempt from the
    app-wide CSRF check (which would read it under the app's limit) and checks here."""
    request.max_content_length = upload_limit() + FORM_OVERHEAD
    if request.method == "POST" and current_app.config.get("WTF_CSRF_ENABLED", True):
        try:
            csrf.protect()
        except RequestEntityTooLarge:
            return too_large()
    return None


def is_mailbox(filename: str, data: bytes) -> bool:
    """Mail is told from a ledger by its name, else by its first bytes (a zip, an mbox)."""
    name = filename.lower()
    if name.endswith(".json"):
        return False
    return name.endswith(MAIL_SUFFIXES) or data.startswith((b"PK", b"From "))


@bp.route("/verify", methods=["GET", "POST"])
@csrf.exempt  # checked by allow_large_uploads, once the limit is raised
def verify() -> tuple[str, int]:
    limit = upload_limit()
    try:
        form = VerifyForm()
        submitted = form.validate_on_submit()
    except RequestEntityTooLarge:
        return too_large()
    report, mail_report, error = None, None, None
    if submitted:
        upload = request.files.get("upload")
        document: bytes | str = form.pasted.data or ""
        filename = ""
        if upload is not None and upload.filename:
            filename = upload.filename
            document = upload.read(limit + 1)
        try:
            if len(document) > limit:
                raise InvalidRequest(too_large_text(filename or "that", limit))
            if not document.strip():
                error = "paste an entry or a ledger, or choose a file"
            elif isinstance(document, bytes) and is_mailbox(filename, document):
                limits = ZipLimits(
                    members=int(current_app.config["VERIFY_ZIP_MEMBERS"]),
                    unzipped=int(current_app.config["VERIFY_UNZIPPED_BYTES"]),
                )
                mail_report = check_mailbox(service_context(), document, filename, limits)
            else:
                report = check_document(service_context(), read_json(document, "that"))
        except InvalidRequest as exc:
            error = exc.message
    status = 400 if error else 200
    html = render_template("verify.html", form=form, report=report, mail=mail_report, error=error)
    return html, status
