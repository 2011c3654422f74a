"""Pages of membership: register, confirm, log in and out, reset a password, the account
(API token, confirmation mail, the Minister of Law's grant)."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import login_required, login_user, logout_user
from werkzeug.wrappers import Response

from dice_server import service_context
from dice_server.errors import ServiceError
from dice_server.models import Member
from dice_server.services import accounts
from dice_server.web.extensions import login_manager
from dice_server.web.forms import (
    ActionForm,
    GrantForm,
    LoginForm,
    RegisterForm,
    ResetForm,
    ResetRequestForm,
)
from dice_server.web.pages import Page, field_error, me

bp = Blueprint("auth", __name__)


@login_manager.user_loader
def load_user(member_id: str) -> Member | None:
    return accounts.load_member(service_context(), int(member_id)) if member_id.isdigit() else None


@bp.route("/register", methods=["GET", "POST"])
def register() -> Page:
    form = RegisterForm()
    status = 200
    if form.validate_on_submit():
        try:
            member = accounts.register(
                service_context(),
                form.email.data or "",
                form.name.data or "",
                form.password.data or "",
            )
        except ServiceError as exc:
            field_error(form, exc)
            status = exc.status
        else:
            login_user(member)
            flash(
                f"Welcome, {member.name}. A confirmation link is on its way to {member.email}: "
                "open it to start rolling."
            )
            return redirect(url_for("games.index"))
    elif form.errors:
        status = 400
    return render_template("register.html", form=form), status


@bp.get("/confirm/<token>")
def confirm(token: str) -> Page:
    try:
        member = accounts.confirm(service_context(), token)
    except ServiceError as exc:
        return render_template(
            "message.html", title="Confirmation failed", message=exc.message
        ), exc.status
    flash(f"{member.email} is confirmed: you may roll.")
    return redirect(url_for("games.index"))


@bp.route("/login", methods=["GET", "POST"])
def login() -> Page:
    form = LoginForm()
    status = 200
    if form.validate_on_submit():
        try:
            member = accounts.authenticate(
                service_context(),
                form.email.data or "",
                form.password.data or "",
                request.remote_addr or "unknown",
            )
        except ServiceError as exc:
            form.password.errors = [exc.message]
            status = exc.status
        else:
            login_user(member)
            target = request.args.get("next", "")
            safe = target.startswith("/") and not target.startswith("//")
            return redirect(target if safe else url_for("games.index"))
    elif form.errors:
        status = 400
    return render_template("login.html", form=form), status


@bp.post("/logout")
def logout() -> Response:
    ActionForm().validate_on_submit()
    logout_user()
    flash("You are logged out.")
    return redirect(url_for("auth.login"))


@bp.route("/reset", methods=["GET", "POST"])
def reset_request() -> Page:
    form = ResetRequestForm()
    if form.validate_on_submit():
        accounts.request_reset(service_context(), form.email.data or "")
        return render_template(
            "message.html",
            title="Check your mail",
            message="If that address is a member's, a reset link is on its way; it works once, "
            "within the hour.",
        )
    return render_template("reset_request.html", form=form)


@bp.route("/reset/<token>", methods=["GET", "POST"])
def reset(token: str) -> Page:
    form = ResetForm()
    if form.validate_on_submit():
        try:
            accounts.reset_password(service_context(), token, form.password.data or "")
        except ServiceError as exc:
            if exc.field == "password":
                field_error(form, exc)
            else:
                return render_template(
                    "message.html", title="Reset failed", message=exc.message
                ), exc.status
        else:
            flash("Your password is changed: log in with it.")
            return redirect(url_for("auth.login"))
    return render_template("reset.html", form=form, token=token)


@bp.route("/account", methods=["GET", "POST"])
@login_required
def account() -> Page:
    member = me()
    action = ActionForm()
    grant = GrantForm()
    new_token = None
    status = 200
    what = request.form.get("action")
    if request.method == "POST" and what != "grant" and action.validate_on_submit():
        try:
            if what == "token":
                new_token = accounts.regenerate_token(service_context(), member.id)
            elif what == "resend":
                accounts.resend_confirmation(service_context(), member.id)
                flash(f"A new confirmation link is on its way to {member.email}.")
        except ServiceError as exc:
            flash(exc.message)
            status = exc.status
    elif what == "grant" and grant.validate_on_submit():
        try:
            granted = accounts.grant_minister(service_context(), member.id, grant.email.data or "")
        except ServiceError as exc:
            field_error(grant, exc)
            if not member.is_minister:
                flash(exc.message)
            status = exc.status
        else:
            flash(f"{granted.email} is now a Minister of Law.")
    return render_template(
        "account.html", member=member, action=action, grant=grant, new_token=new_token
    ), status
