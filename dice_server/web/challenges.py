"""Challenges in the browser: my challenges, the issue form, one challenge with its answers
(accept with a bid, decline, cancel), the league's open challenges board and the variants
register (IAAPA How to Start a Game, Game Commitments, Game Challenge Time Limitations,
Bidding, Variants, Gentlemen's Agreements). Each post runs the same service function as the
JSON API under ``/api/v1/challenges``, with a nonce the server issued to this member for
this form; a refusal re-shows the form with the service's message beside its field, and a
bid the rules engine refuses with each of its findings beside the bid."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import login_required
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired

from dice_server.errors import ServiceError
from dice_server.services import ServiceContext
from dice_server.services.challenge_views import (
    AGREEMENTS_NOTE,
    BATTLE_DICE,
    METHODS,
    challenge_view,
    my_challenges,
    open_challenges,
    variants_register,
)
from dice_server.services.challenges import (
    BidRefused,
    accept_challenge,
    cancel_challenge,
    decline_challenge,
    issue_challenge,
)
from dice_server.services.entries import Retry
from dice_server.services.views import game_entry
from dice_server.web import nonces
from dice_server.web.context import service_context
from dice_server.web.pages import Page, field_error, me

bp = Blueprint("challenges", __name__)

BID_EXAMPLE = "3 G INF Ukraine, 1 J ARM Manchuria, 1 J IPC"
#: The service names the bid's parts as the JSON has them; the forms have flat fields.
BID_FIELDS = {
    "bid": "bid_details",
    "bid.details": "bid_details",
    "details": "bid_details",
    "bid.total": "bid_total",
    "total": "bid_total",
}
Findings = list[dict[str, str]]


def _lines(value: str | None) -> str:
    """A textarea's text with the browser's CRLF line endings made LF (the service's text
    fields refuse a carriage return as a control character)."""
    return (value or "").replace("\r\n", "\n").replace("\r", "\n")


class BidForm(FlaskForm):
    """The two bid blocks of IAAPA How to Start a Game: the "Your Bid (IPC Total Value)"
    block, which takes precedence, and the "Details" as the player writes them."""

    nonce = HiddenField()
    bid_total = IntegerField("Your bid (IPC total value)", validators=[InputRequired()])
    bid_details = TextAreaField("Bid details")

    def bid(self) -> dict[str, Any]:
        return {"total": self.bid_total.data, "details": _lines(self.bid_details.data)}


class ChallengeForm(BidForm):
    opponent = StringField("Opponent's address")
    method = SelectField(
        "Method of play",
        choices=[SelectChoice(v, label) for v, label in METHODS.items()],
        default="pbem",
    )
    variant = StringField("Variant (leave empty for the standard 2nd edition rules)")
    low_luck = BooleanField("Low Luck battle rounds")
    agreements = TextAreaField("Gentlemen's agreements (one a line)")
    mentor = StringField("Mentor's address (optional)")
    instructions = TextAreaField("Special instructions and order of loss")
    message = TextAreaField("Personal message")

    def payload(self) -> dict[str, Any]:
        return {
            "opponent": self.opponent.data or "",
            "method": self.method.data,
            "variant": self.variant.data or "",
            "low_luck": int(self.low_luck.data),
            "agreements": _lines(self.agreements.data),
            "mentor": self.mentor.data or "",
            "instructions": _lines(self.instructions.data),
            "message": _lines(self.message.data),
            "bid": self.bid(),
        }


class AcceptForm(BidForm):
    message = TextAreaField("Personal message")

    def payload(self) -> dict[str, Any]:
        return {"bid": self.bid(), "message": _lines(self.message.data)}


class DeclineForm(FlaskForm):
    nonce = HiddenField()
    message = TextAreaField("Personal message (optional)")

    def payload(self) -> dict[str, Any]:
        return {"message": _lines(self.message.data)}


class CancelForm(FlaskForm):
    nonce = HiddenField()


def _refused(form: FlaskForm, exc: ServiceError) -> Findings:
    """The refusal beside the field it names; a refused bid's findings, to list beside the
    bid (each with its severity and rule)."""
    if isinstance(exc, BidRefused):
        form.bid_details.errors = [
            *form.bid_details.errors,
            "the bid cannot stand and nothing was recorded: correct each error below",
        ]
        findings: Findings = [finding.to_json() for finding in exc.check.findings]
        return findings
    name = BID_FIELDS.get(exc.field or "")
    if name is not None and hasattr(form, name):
        target = getattr(form, name)
        target.errors = [*target.errors, exc.message]
    else:
        field_error(form, exc)
    return []


@bp.get("/challenges")
@login_required
def index() -> Page:
    return render_template(
        "challenges.html", mine=my_challenges(service_context(), me()), methods=METHODS
    )


@bp.route("/challenges/new", methods=["GET", "POST"])
@login_required
def new() -> Page:
    member = me()
    form = ChallengeForm()
    status, findings = 200, []
    if request.method == "POST":
        if form.validate_on_submit():
            try:
                key = nonces.check(form.nonce.data, member.id, "challenge:new")
                payload = form.payload()
                retry = Retry.of(key, "POST", request.path, payload)
                issued = issue_challenge(service_context(), member.id, payload, retry)
            except ServiceError as exc:
                findings = _refused(form, exc)
                status = exc.status
            else:
                flash(
                    f"Challenge {issued['id']} issued to {issued['opponent_name']}: your bid "
                    f"commits you to play; it expires on {issued['expires_at']} unless answered."
                )
                return redirect(url_for("challenges.show", challenge_id=issued["id"]), code=303)
        else:
            status = 400
    form.nonce.data = nonces.issue(member.id, "challenge:new")
    return render_template(
        "challenge_new.html",
        form=form,
        findings=findings,
        example=BID_EXAMPLE,
        agreements_note=AGREEMENTS_NOTE,
        title="Issue a challenge",
    ), status


def _show(
    challenge_id: int,
    *,
    accept: AcceptForm | None = None,
    decline: DeclineForm | None = None,
    cancel: CancelForm | None = None,
    findings: Findings | None = None,
    status: int = 200,
) -> Page:
    """The challenge page, with a refused form (its errors) in place of a fresh one."""
    ctx, member = service_context(), me()
    challenge = challenge_view(ctx, challenge_id, member)
    genesis = game_entry(ctx, challenge["game"], 1, member) if challenge["game"] else None
    is_open = challenge["status"] == "open"
    answering = is_open and member.email == challenge["opponent"]
    cancelling = is_open and member.email == challenge["challenger"]
    # A refusal of a form the page no longer shows (a challenge answered meanwhile, or
    # posted by the other player) is said at the top of the page.
    alerts = [
        error
        for form, shown in ((accept, answering), (decline, answering), (cancel, cancelling))
        if form is not None and not shown
        for error in [*form.form_errors, *(f"{f.label.text}: {e}" for f in form for e in f.errors)]
    ]
    accept = accept or AcceptForm(prefix="accept", formdata=None)
    decline = decline or DeclineForm(prefix="decline", formdata=None)
    cancel = cancel or CancelForm(prefix="cancel", formdata=None)
    if is_open:
        for form in (accept, decline, cancel):
            form.nonce.data = nonces.issue(member.id, f"challenge:{challenge_id}")
    return render_template(
        "challenge.html",
        challenge=challenge,
        genesis=genesis,
        accept=accept,
        decline=decline,
        cancel=cancel,
        findings=findings or [],
        alerts=alerts,
        answering=answering,
        cancelling=cancelling,
        methods=METHODS,
        battle_dice=BATTLE_DICE,
        example=BID_EXAMPLE,
        agreements_note=AGREEMENTS_NOTE,
        title=f"Challenge {challenge_id}",
    ), status


@bp.get("/challenges/<int:challenge_id>")
@login_required
def show(challenge_id: int) -> Page:
    return _show(challenge_id)


@bp.post("/challenges/<int:challenge_id>/accept")
@login_required
def accept(challenge_id: int) -> Page:
    """Accept with one's own bid: the game starts with the winning bid on the board."""
    member, form = me(), AcceptForm(prefix="accept")
    if not form.validate_on_submit():
        return _show(challenge_id, accept=form, status=400)
    try:
        nonces.check(form.nonce.data, member.id, f"challenge:{challenge_id}")
        game = accept_challenge(service_context(), member.id, challenge_id, form.payload())
    except ServiceError as exc:
        findings = _refused(form, exc)
        return _show(challenge_id, accept=form, findings=findings, status=exc.status)
    flash(
        f"Challenge {challenge_id} accepted: game {game['game']} starts; {game['axis']} plays "
        f"the Axis, {game['allies']} the Allies."
    )
    return redirect(url_for("challenges.show", challenge_id=challenge_id), code=303)


@bp.post("/challenges/<int:challenge_id>/decline")
@login_required
def decline(challenge_id: int) -> Page:
    form = DeclineForm(prefix="decline")
    return _answer(challenge_id, "decline", form, decline_challenge, form.payload())


@bp.post("/challenges/<int:challenge_id>/cancel")
@login_required
def cancel(challenge_id: int) -> Page:
    """IAAPA Game Challenge Time Limitations: "A player may cancel a challenge at any time
    sooner, if desired." """
    return _answer(challenge_id, "cancel", CancelForm(prefix="cancel"), cancel_challenge, {})


def _answer(
    challenge_id: int,
    name: str,
    form: FlaskForm,
    answer: Callable[[ServiceContext, int, int, Any], object],
    payload: dict[str, Any],
) -> Page:
    """Decline or cancel (``name``) through its one service function; a refusal is shown
    beside the form that was sent."""
    member = me()
    if not form.validate_on_submit():
        return _show(challenge_id, **{name: form}, status=400)
    try:
        nonces.check(form.nonce.data, member.id, f"challenge:{challenge_id}")
        answer(service_context(), member.id, challenge_id, payload)
    except ServiceError as exc:
        field_error(form, exc)
        return _show(challenge_id, **{name: form}, status=exc.status)
    done = "declined" if name == "decline" else "cancelled"
    flash(f"Challenge {challenge_id} {done}; both players are told by mail.")
    return redirect(url_for("challenges.show", challenge_id=challenge_id), code=303)


@bp.get("/challenges/open")
@login_required
def board() -> Page:
    return render_template(
        "challenges_open.html", challenges=open_challenges(service_context()), methods=METHODS
    )


@bp.get("/variants")
@login_required
def variants() -> Page:
    return render_template("variants.html", variants=variants_register(service_context()))
