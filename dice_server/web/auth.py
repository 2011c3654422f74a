"""Pages of membership: register, confirm, log in and out, reset a password, the account
(API token, confirmation mail, the Minister of Law's grant)."""

from __future__ import annotations

from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for
from flask_login import login_required, login_user, logout_user
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import EmailField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo

from dice_server.errors import ServiceError, TooManyRequests
from dice_server.models import Member
from dice_server.services import accounts
from dice_server.services.calendar import calendar_token
from dice_server.web.context import service_context
from dice_server.web.extensions import login_manager
from dice_server.web.pages import LinkForm, Page, field_error, me
from dice_server.web.security import safe_next

bp = Blueprint("auth", __name__)


class RegisterForm(FlaskForm):
    name = StringField("Name", validators=[DataRequired()])
    email = EmailField("Email address", validators=[DataRequired()])
    password = PasswordField("Password (10 characters or more)", validators=[DataRequired()])
    again = PasswordField(
        "Password again", validators=[DataRequired(), EqualTo("password", "the passwords differ")]
    )


class LoginForm(FlaskForm):
    email = EmailField("Email address", validators=[DataRequired()])
    password = PasswordField("Password", validators=[DataRequired()])


class ResetRequestForm(FlaskForm):
    email = EmailField("Email address", validators=[DataRequired()])


class ResetForm(LinkForm):
    password = PasswordField("New password (10 characters or more)", validators=[DataRequired()])
    again = PasswordField(
        "New password again",
        validators=[DataRequired(), EqualTo("password", "the passwords differ")],
    )


class ActionForm(FlaskForm):
    """A button and its CSRF token (log out, new API token, resend the confirmation)."""


class GrantForm(FlaskForm):
    email = EmailField("Member's address", validators=[DataRequired()])


@login_manager.user_loader
def load_user(member_id: str) -> Member | None:
    return accounts.load_member(service_context(), int(member_id)) if member_id.isdigit() else None


@bp.route("/register", methods=["GET", "POST"])
def register() -> Page:
    form = RegisterForm()
    status = 200
    if form.validate_on_submit():
        try:
            address = accounts.register(
                service_context(),
                form.email.data or "",
                form.name.data or "",
                form.password.data or "",
                request.remote_addr or "unknown",
            )
        except ServiceError as exc:
            field_error(form, exc)
            status = exc.status
        else:
            # The same answer for a new address and a member's: the mail tells them apart.
            return render_template(
                "message.html",
                title="Check your mail",
                message=f"A message is on its way to {address}: open the link in it within "
                "48 hours to confirm the address and log in.",
            )
    elif form.errors:
        status = 400
    return render_template("register.html", form=form), status


def _link_token() -> str:
    """The one-time token of a mailed link: ``?t=`` on the link, the form's field after."""
    return (request.form.get("t") or request.args.get("t") or "").strip()


@bp.route("/confirm", methods=["GET", "POST"])
def confirm() -> Page:
    """A mailed link only shows a button: the POST confirms, so a mail scanner that
    fetches the link spends nothing, and the token stays out of logged URLs."""
    form = LinkForm(t=_link_token())
    if form.validate_on_submit():
        try:
            member = accounts.confirm(service_context(), form.t.data or "")
        except ServiceError as exc:
            return render_template(
                "message.html", title="Confirmation failed", message=exc.message
            ), exc.status
        login_user(member)
        flash(f"{member.email} is confirmed: you may roll.")
        return redirect(url_for("games.index"))
    return render_template(
        "link.html",
        form=form,
        title="Confirm your address",
        text="Confirm the address this link was mailed to, and log in.",
        button="Confirm my address",
        action=url_for("auth.confirm"),
    )


@bp.get("/confirm/<token>")
def confirm_legacy(token: str) -> Page:
    """Links mailed before tokens moved to the query string."""
    return redirect(url_for("auth.confirm", t=token))


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
            response = make_response(render_template("login.html", form=form), exc.status)
            if isinstance(exc, TooManyRequests) and exc.retry_after is not None:
                response.headers["Retry-After"] = str(exc.retry_after)
            return response
        else:
            login_user(member)
            return redirect(safe_next(request.args.get("next")) or url_for("games.index"))
    elif form.errors:
        status = 400
    return render_template("login.html", form=form), status


@bp.post("/logout")
def logout() -> Response:
    # CSRFProtect refuses a post without a valid token before this view runs.
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


@bp.route("/reset/password", methods=["GET", "POST"])
def reset() -> Page:
    form = ResetForm(t=_link_token())
    if form.validate_on_submit():
        try:
            accounts.reset_password(service_context(), form.t.data or "", form.password.data or "")
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
    return render_template("reset.html", form=form)


@bp.get("/reset/<token>")
def reset_legacy(token: str) -> Page:
    """Links mailed before tokens moved to the query string."""
    return redirect(url_for("auth.reset", t=token))


@bp.route("/account", methods=["GET", "POST"])
@login_required
def account() -> Page:
    member = me()
    action = ActionForm()
    grant = GrantForm()
    new_token = None
    calendar = member.calendar_token
    status = 200
    what = request.form.get("action")
    if what != "grant" and action.validate_on_submit():
        try:
            if what == "token":
                new_token = accounts.regenerate_token(service_context(), member.id)
            elif what in ("calendar", "calendar-renew"):
                calendar = calendar_token(service_context(), member.id, renew=what != "calendar")
                if what == "calendar-renew":
                    flash("Your calendar has a new link: the old one no longer opens.")
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
    calendar_url = url_for("public.calendar", token=calendar, _external=True) if calendar else None
    return render_template(
        "account.html",
        member=member,
        action=action,
        grant=grant,
        new_token=new_token,
        calendar_url=calendar_url,
    ), status
