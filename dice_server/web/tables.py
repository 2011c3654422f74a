"""Pages for TripleA players: register an address to receive dice (or unregister it), and
a table's page, which lists every roll in order with the addresses masked."""

from __future__ import annotations

import json

from flask import Blueprint, flash, redirect, render_template, url_for

from dice_server import service_context
from dice_server.errors import ServiceError
from dice_server.services import addresses, tables
from dice_server.web.forms import ActionForm, ResetRequestForm
from dice_server.web.pages import Page, field_error

bp = Blueprint("tables", __name__)


def _address_form(purpose: str) -> Page:
    form = ResetRequestForm()
    status = 200
    if form.validate_on_submit():
        try:
            addresses.request_link(service_context(), form.email.data or "", purpose)
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
    return render_template("dice_address.html", form=form, purpose=purpose), status


@bp.route("/dice/register", methods=["GET", "POST"])
def register() -> Page:
    return _address_form("register")


@bp.route("/dice/unregister", methods=["GET", "POST"])
def unregister() -> Page:
    return _address_form("unregister")


@bp.get("/dice/<any(register, unregister):purpose>/<token>")
def use_link(purpose: str, token: str) -> Page:
    try:
        address = addresses.use_link(service_context(), token, purpose)
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


@bp.get("/tables/<public_id>")
def table(public_id: str) -> Page:
    view = tables.view(service_context(), public_id)
    return render_template(
        "table.html",
        view=view,
        action=ActionForm(),
        ledger=json.dumps({"entries": view.signed}, ensure_ascii=False),
    )


@bp.post("/tables/<public_id>/close")
def close(public_id: str) -> Page:
    ActionForm().validate_on_submit()
    tables.close(service_context(), public_id)
    flash("The table is closed and its seed revealed: every die can now be recomputed.")
    return redirect(url_for("tables.table", public_id=public_id))
