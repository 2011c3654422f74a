"""The turn clock (issue 22): whose move a game waits for and since when, and the reminders
the scheduler mails before the forfeit line (IAAPA Forfeits and Annulments, Forfeits).

Who owes the move and since when is the forfeit rule's own reading
(:func:`dice_server.services.forfeits.due`); which reminder is due is
:func:`adjudicator.rulings.clock.due_reminder`. Each reminder sent is a ``turn_reminders``
row whose key (game, the wait's start, the reminder) is unique, written in the transaction
that queues its mail: two schedulers, or a run after a crash, never send one twice.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from adjudicator.names import power_label
from adjudicator.powers import Alliance
from adjudicator.rulings.away import AwayNotice, line_after
from adjudicator.rulings.clock import Reminder, Sent, due_reminder, reminders_sent
from adjudicator.rulings.forfeits import Owing
from adjudicator.rulings.record import power_named
from dice_server import ledger
from dice_server.db import reading, writing
from dice_server.kinds.systems import keeps_turns
from dice_server.ledger import Chain
from dice_server.models import Game, GameTurn, LedgerEntry, TurnReminder
from dice_server.services import ServiceContext
from dice_server.services.forfeits import due
from dice_server.services.outbox import Envelope, enqueue, entry_message_id
from dice_server.services.positions import genesis_position
from dice_server.text import neutralise_bidi

SINCE_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
"""How a wait's start is keyed: the ledger's own ``at`` stamp (microseconds, UTC)."""
API_TIME = "%Y-%m-%dT%H:%M:%SZ"
_SIDE = {"axis": Alliance.AXIS, "allies": Alliance.ALLIES}


@dataclass(frozen=True)
class GameClock:
    """An active game's clock: the player who owes the move (his side and address), the
    power he moves, since when the game has waited for him, how many reminders he has had
    in this wait, and his away notices (which pause it)."""

    owing: Owing
    waiting_for: str
    power: str
    reminded: int
    sent: tuple[Sent, ...] = ()
    away: tuple[AwayNotice, ...] = ()

    @property
    def since(self) -> datetime:
        return self.owing.silent_since

    def forfeit_line(self, wait: timedelta) -> datetime:
        """When a forfeit may be requested: ``wait`` after :attr:`since`, pushed back by
        his away notices."""
        return line_after(self.since, wait, self.away)

    @property
    def since_key(self) -> str:
        return self.since.strftime(SINCE_FORMAT)

    def json(self, wait: timedelta | None = None) -> dict[str, Any]:
        """``{"waiting_for", "since", "reminded"}`` as the position API shows it: ``since``
        is when he last acted in the game (a turn, a roll, or a note of his in this wait);
        with the league's forfeit ``wait``, also ``"forfeit_line"`` (which a note does not
        move: it counts from his last turn, pushed back by away notices)."""
        shown = {
            "waiting_for": self.waiting_for,
            "since": self.owing.heard_since.astimezone(UTC).strftime(API_TIME),
            "reminded": self.reminded,
        }
        if wait is not None:
            shown["forfeit_line"] = self.forfeit_line(wait).astimezone(UTC).strftime(API_TIME)
        return shown


def _aware(at: datetime) -> datetime:
    """A stored time as aware UTC (SQLite returns them naive)."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _turn_power(session: Session, game: Game) -> str | None:
    """The power to move as the game's kept turn says (its genesis position when none);
    None in a game of other rules, whose turns the service does not keep (its players
    keep the board: a Classic power would be wrong there)."""
    if not keeps_turns(game.ruleset):
        return None
    row = session.get(GameTurn, game.number)
    if row is not None:
        return row.power
    body = session.execute(
        select(LedgerEntry.body).where(LedgerEntry.game_number == game.number, LedgerEntry.seq == 1)
    ).scalar_one_or_none()
    data = json.loads(body)["data"] if body else {}
    return power_label(genesis_position(data).to_move)


def _mover(side: str, turn_power: str | None) -> str:
    """The power the player who owes the move plays next: the turn's, when it is his side's;
    else (a game played with the dice server alone, whose kept turn does not move, or a
    game of other rules) his side."""
    if turn_power is None:
        return side.title()
    power = power_named(turn_power)
    if power is not None and power.alliance is _SIDE[side]:
        return turn_power
    return side.title()


def read_clock(session: Session, game: Game) -> GameClock | None:
    """The clock of an active game, read in the caller's transaction (None for a ledger
    without its first entry, which the integrity check reports: no clock starts)."""
    first = select(LedgerEntry.seq).where(
        LedgerEntry.game_number == game.number, LedgerEntry.seq == 1
    )
    if session.execute(first).first() is None:
        return None
    found = due(session, game)
    since = found.owing.silent_since.strftime(SINCE_FORMAT)
    rows = session.execute(
        select(TurnReminder.reminder, TurnReminder.sent_at).where(
            TurnReminder.game_number == game.number, TurnReminder.waiting_since == since
        )
    )
    sent = tuple(Sent(key, _aware(at)) for key, at in rows)
    return GameClock(
        owing=found.owing,
        waiting_for=found.email,
        power=_mover(found.owing.side, _turn_power(session, game)),
        reminded=reminders_sent(sent),
        sent=sent,
        away=found.away,
    )


def clock_json(session: Session, game: Game, wait: timedelta) -> dict[str, Any] | None:
    """The position API's ``"clock"`` (``wait``: the league's ``FORFEIT_AFTER``): None for
    a game that is not active."""
    clock = read_clock(session, game) if game.status == "active" else None
    return clock.json(wait) if clock is not None else None


def send_reminders(ctx: ServiceContext) -> list[str]:
    """Queue every reminder due now in the active games (the scheduler runs this); returns
    the Message-IDs queued. Each is claimed by its unique ``turn_reminders`` row in the
    transaction that queues it, so that it is sent once whoever runs the job."""
    now = ctx.clock()
    with reading(ctx.sessions) as session:
        numbers = list(
            session.execute(
                select(Game.number).where(Game.status == "active").order_by(Game.number)
            ).scalars()
        )
    queued = []
    for number in numbers:
        try:
            with writing(ctx.sessions) as session:
                message_id = _remind(session, ctx, number, now)
        except IntegrityError:  # another scheduler sent it a moment ago
            continue
        if message_id is not None:
            queued.append(message_id)
    return queued


def _remind(session: Session, ctx: ServiceContext, number: int, now: datetime) -> str | None:
    game = session.get(Game, number)
    if game is None or game.status != "active":
        return None
    clock = read_clock(session, game)
    if clock is None:
        return None
    reminder = due_reminder(clock.owing, ctx.turn_clock, clock.sent, now, clock.away)
    if reminder is None:
        return None
    message_id = _message_id(number, clock, reminder, ctx.mail_domain)
    session.add(
        TurnReminder(
            game_number=number,
            waiting_since=clock.since_key,
            reminder=reminder.key,
            power=clock.power,
            message_id=message_id,
            sent_at=now,
        )
    )
    session.flush()  # the unique key: a second run stops here
    players = (game.axis.email, game.allies.email)
    to = players if reminder.forfeit_line else (clock.waiting_for,)
    msg = EmailMessage()
    if reminder.forfeit_line:
        msg["Subject"] = f"[Game {number}] Forfeit may be requested: {clock.power} to move"
    else:
        msg["Subject"] = f"[Game {number}] Reminder: {clock.power} to move"
    msg["From"] = ctx.mail_from
    msg["To"] = ", ".join(to)
    msg["Message-ID"] = message_id
    msg["Date"] = format_datetime(now)
    genesis = ledger.entry(session, Chain.game(number), 1)
    if genesis is not None:  # threaded on the game's first message, as its entries are
        root = entry_message_id(genesis, ctx.mail_domain)
        msg["In-Reply-To"] = root
        msg["References"] = root
    text = _text(ctx, game, clock, reminder, now)
    msg.set_content(neutralise_bidi(text))
    enqueue(session, now, message_id, Envelope.each_once(to), raw=msg.as_bytes(), game=number)
    return message_id


def _message_id(number: int, clock: GameClock, reminder: Reminder, domain: str) -> str:
    """Fixed per game, wait and reminder: a resend is recognisably the same message."""
    digest = hashlib.sha256(f"{number}:{clock.since_key}".encode()).hexdigest()[:16]
    return f"<{digest}.game-{number}.reminder-{reminder.key}@{domain}>"


def _days(seconds: float) -> str:
    """``3 days``, ``4.5 days``, ``10 hours``, ``90 seconds``: how long the game waited."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = round(seconds / size, 1)
            return f"{count:g} {unit}{'' if count == 1 else 's'}"
    return f"{seconds:.0f} seconds"


def _text(
    ctx: ServiceContext, game: Game, clock: GameClock, reminder: Reminder, now: datetime
) -> str:
    line = clock.forfeit_line(ctx.turn_clock.forfeit_after)
    since = f"{clock.since:%Y-%m-%d %H:%M} UTC"
    waited = _days((now - clock.since).total_seconds())
    link = ctx.mail.link("games.game", number=game.number)
    rule = (
        '"If a player has not submitted his turn within 5 days and has not complied with the '
        'turn submission guidelines then you may initiate a forfeit." (IAAPA Forfeits)'
    )
    if reminder.forfeit_line:
        opponent = game.allies if clock.owing.side == "axis" else game.axis
        return "\n".join(
            [
                f"Game {game.number}: {clock.power} to move.",
                "",
                f"{clock.waiting_for} has sent no turn since {since} ({waited}): the "
                f"forfeit line has passed, and {opponent.email} may now request a forfeit "
                "(a note with the topic forfeit-request), which the Minister of Law rules on.",
                f"{clock.waiting_for} may still send his turn.",
                "",
                rule,
                "",
                f"The game: {link}",
            ]
        )
    return "\n".join(
        [
            f"Game {game.number}: {clock.power} to move (reminder {reminder.number}).",
            "",
            f"The game has waited for your turn since {since} ({waited}).",
            f"From {line:%Y-%m-%d %H:%M} UTC your opponent may request a forfeit.",
            "If you must be away, tell your opponent with a note through the dice server.",
            "",
            rule,
            "",
            f"The game: {link}",
        ]
    )
