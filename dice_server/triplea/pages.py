"""Pages for TripleA players: register an address to receive dice (or unregister it); a
table's page, which lists its rolls a page at a time, newest first, with the addresses
masked; and closing a table, which a participant confirms by a mailed link."""

from __future__ import annotations

import json

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import EmailField
from wtforms.validators import DataRequired

from dice_server.errors import InvalidRequest, ServiceError
from dice_server.services.paging import entry_number
from dice_server.triplea import addresses, closing, tables
from dice_server.web.context import service_context
from dice_server.web.pages import LinkForm, Page, field_error

bp = Blueprint("tables", __name__)


class AddressForm(FlaskForm):
    """An address to register with the dice server, or to close a table with."""

    email = EmailField("Email address", validators=[DataRequired()])


def _address_form(purpose: str) -> Page:
    form = AddressForm()
    status = 200
    if form.validate_on_submit():
        try:
            addresses.request_link(
                service_context(), form.email.data or "", purpose, request.remote_addr or "unknown"
            )
        except ServiceError as exc:
            field_error(form, exc)
            status = exc.status
        else:
            return render_template(
                "message.html",
                title="Check your mail",
                message=f"A one-time link is on its way to {form.email.data}: open it within "
                "48 hours to finish.",
            )
    elif form.errors:
        status = 400
    return render_template("triplea/address.html", form=form, purpose=purpose), status


@bp.route("/dice/register", methods=["GET", "POST"])
def register() -> Page:
    return _address_form("register")


@bp.route("/dice/unregister", methods=["GET", "POST"])
def unregister() -> Page:
    return _address_form("unregister")


@bp.route("/dice/<any(register, unregister):purpose>/confirm", methods=["GET", "POST"])
def use_link(purpose: str) -> Page:
    """The mailed link shows a button; the POST (token in its body) spends the link."""
    form = LinkForm(t=(request.form.get("t") or request.args.get("t") or "").strip())
    if not form.validate_on_submit():
        return render_template(
            "link.html",
            form=form,
            title="Register this address" if purpose == "register" else "Unregister it",
            text="Receive TripleA dice from this server at the address this link was mailed to."
            if purpose == "register"
            else "Stop receiving TripleA dice from this server at this address.",
            button="Register the address" if purpose == "register" else "Unregister it",
            action=url_for("tables.use_link", purpose=purpose),
        )
    try:
        address = addresses.use_link(service_context(), form.t.data or "", purpose)
    except ServiceError as exc:
        return render_template(
            "message.html", title="That link did not work", message=exc.message
        ), exc.status
    message = (
        f"{address} can now receive dice from TripleA through this server."
        if purpose == "register"
        else f"{address} will receive no more dice from here."
    )
    return render_template("message.html", title="Done", message=message)


@bp.get("/dice/<any(register, unregister):purpose>/<token>")
def use_link_legacy(purpose: str, token: str) -> Page:
    """Links mailed before tokens moved to the query string."""
    return redirect(url_for("tables.use_link", purpose=purpose, t=token))


def _table_page(public_id: str, form: AddressForm, status: int = 200) -> Page:
    view = tables.view(service_context(), public_id, entry_number(request.args.get("from")))
    return render_template("triplea/table.html", view=view, form=form), status


@bp.get("/tables/<public_id>")
def table(public_id: str) -> Page:
    return _table_page(public_id, AddressForm(formdata=None))


@bp.get("/tables/<public_id>/ledger.json")
def ledger(public_id: str) -> Response:
    """The table's whole signed ledger, for the verifier (the page shows a page of it)."""
    return Response(
        json.dumps(tables.export_by_link(service_context(), public_id), ensure_ascii=False),
        mimetype="application/json",
        headers={
            "Content-Disposition": 'attachment; filename="LEDGER.json"',
            "Cache-Control": "no-store",
        },
    )


@bp.post("/tables/<public_id>/close-link")
def close(public_id: str) -> Page:
    """Closing starts here: a one-time link to close the table is mailed to one of its
    addresses (holding the page link proves nothing: it is in every roll mail)."""
    form = AddressForm()
    if not form.validate_on_submit():
        return _table_page(public_id, form, 400)
    try:
        address = closing.request_close(service_context(), public_id, form.email.data or "")
    except ServiceError as exc:
        field_error(form, exc)
        return _table_page(public_id, form, exc.status)
    return render_template(
        "message.html",
        title="Check your mail",
        message=f"A one-time link to close the table is on its way to {address}: open it "
        "within 48 hours and press its button. Nothing is closed until then.",
    )


@bp.route("/tables/<public_id>/close", methods=["GET", "POST"])
def confirm_close(public_id: str) -> Page:
    """The mailed link shows a button (a GET changes nothing); its POST, with the token in
    the form's body, closes the table and reveals the seed."""
    ctx = service_context()
    form = LinkForm(t=(request.form.get("t") or request.args.get("t") or "").strip())
    try:
        if not form.t.data:
            raise InvalidRequest("this link is not complete: copy the whole link from the message")
        if not form.validate_on_submit():
            table = closing.check_close_link(ctx, public_id, form.t.data)
            return render_template(
                "link.html",
                form=form,
                title=f"Close TripleA table {table.id} ({table.game_name})",
                text="Closing reveals the table's dice seed, so that anyone can recompute "
                "every die of it; the next roll for these addresses opens a new table.",
                button="Close the table and reveal its seed",
                action=url_for("tables.confirm_close", public_id=public_id),
            )
        closing.close_with_link(ctx, public_id, form.t.data)
    except ServiceError as exc:
        return render_template(
            "message.html", title="That link did not work", message=exc.message
        ), exc.status
    flash("The table is closed and its seed revealed: every die can now be recomputed.")
    return redirect(url_for("tables.table", public_id=public_id))
