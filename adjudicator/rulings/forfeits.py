"""When a forfeit may be requested, and whether a deadline the Minister set was kept (IAAPA
Forfeits and Annulments, Forfeits).

"If a player has not submitted his turn within 5 days and has not complied with the turn
submission guidelines then you may initiate a forfeit." The player who owes the game its
next move has been silent since the later of his own last turn entry and the last one that
made the move his; his opponent may request the forfeit 5 days after that.

"If these conditions are not followed then the Minister of Law may declare the game a
forfeit": a denial's deadline is missed when it passes without a turn entry from the player
it bound.

The facts come in as values (each entry's kind, writer and time, the time now): the service
reads them from the ledger and the clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from adjudicator.powers import Alliance, Power
from adjudicator.rolls.replay import BATTLE_ROLL_KINDS
from adjudicator.rulings.away import AwayNotice, line_after
from adjudicator.rulings.model import Permission
from adjudicator.triumph_tragedy import TT_ROLL_KINDS
from adjudicator.triumph_will import WILL_ROLL_KINDS

WAIT = timedelta(days=5)
"""How long a player may go without sending his turn before a forfeit may be requested."""
MOVES = (
    BATTLE_ROLL_KINDS
    | {"submission", "tech-roll", "bombing-roll", "rocket-roll"}
    | set(TT_ROLL_KINDS)
    | set(WILL_ROLL_KINDS)
)
"""The entries that are a player's turn (or part of it; the rolls of the other game
systems too): a note explaining an absence is not a turn ("has not submitted his turn")."""
_SIDE_OF_ALLIANCE = {Alliance.AXIS: "axis", Alliance.ALLIES: "allies"}
_SIDES = ("axis", "allies")
"""The sides as the ledger and the services name them (a game's ``winner``)."""


@dataclass(frozen=True)
class Written:
    """A ledger entry as the forfeit rule reads it: its kind, the address that wrote it
    (``""`` when none did) and when."""

    kind: str
    by: str
    at: datetime
    topic: str = ""
    """A note's topic (``""`` for any other entry)."""

    @property
    def is_turn(self) -> bool:
        """Whether the entry is (part of) a turn: a note is not."""
        return self.kind in MOVES

    @property
    def is_heard(self) -> bool:
        """Whether the entry shows its writer at the game, for the reminders: anything he
        writes but an away notice, which pauses the clock for its own length instead."""
        return not (self.kind == "note" and self.topic == "away")


@dataclass(frozen=True)
class Owing:
    """The side that owes the game its next move, since when it has sent no turn (the
    forfeit line counts from this: "has not submitted his turn within 5 days"), and when it
    was last heard from in this wait (a note of its player counts: he is reminded only
    after as much silence again, but a note is not a turn and does not move the line)."""

    side: str
    silent_since: datetime
    heard: datetime | None = None

    @property
    def heard_since(self) -> datetime:
        """When the player who owes the move last acted in the game in this wait: his
        latest entry of any kind, or the wait's start."""
        return self.heard if self.heard is not None else self.silent_since


def _other(side: str) -> str:
    return "allies" if side == "axis" else "axis"


@dataclass
class OwingFold:
    """The forfeit rule's facts of a ledger, folded entry by entry in ledger order (so a
    service may keep one per game and add only the entries appended since): when the game
    was made, each writer's last turn entry and last entry heard, and whether any turn was
    sent through the service. Writers are their addresses, case-folded."""

    created: datetime | None = None
    turns: dict[str, datetime] = field(default_factory=dict)
    heard: dict[str, datetime] = field(default_factory=dict)
    submitted: bool = False

    def add(self, entry: Written) -> None:
        """One more entry, later in the ledger than every entry added before."""
        if self.created is None:
            self.created = entry.at
        writer = entry.by.casefold()
        if entry.is_turn:
            self.turns[writer] = entry.at
        if entry.is_heard:
            self.heard[writer] = entry.at
        if entry.kind == "submission":
            self.submitted = True

    def copy(self) -> OwingFold:
        return OwingFold(self.created, dict(self.turns), dict(self.heard), self.submitted)

    def owing(self, players: Mapping[str, str], to_move: Power | None) -> Owing:
        """Who owes the next move (see :func:`owing`), from the entries added so far."""
        assert self.created is not None, "a ledger starts with the entry that made the game"
        created = self.created
        last = {
            side: self.turns[address.casefold()]
            for side, address in players.items()
            if address.casefold() in self.turns
        }
        if to_move is not None and self.submitted:
            debtor = _SIDE_OF_ALLIANCE[to_move.alliance]
        elif last:
            debtor = _other(max(_SIDES, key=lambda side: last.get(side, created)))
        else:
            debtor = "allies"
        since = max(last.get(side, created) for side in _SIDES)
        # Ledger times only grow: the debtor's last entry heard is his latest after `since`,
        # if it came after it at all.
        heard = self.heard.get(players[debtor].casefold())
        return Owing(debtor, since, heard if heard is not None and heard > since else None)


def owing(entries: Sequence[Written], players: Mapping[str, str], to_move: Power | None) -> Owing:
    """Who owes the next move and since when he has sent none of his turn.

    ``entries`` are the game's, in ledger order (the first made the game); ``players`` maps
    each side to its player's address; ``to_move`` is the power whose turn the service last
    played out (None when it has none). With turns sent through the service the power to
    move decides who owes it; in a game played with the dice server alone, whoever did not
    roll last (the Allies when nobody has: USSR moves first). He has been silent since the
    later of his own last turn entry and his opponent's (the game's creation for a side
    that has sent none)."""
    fold = OwingFold()
    for entry in entries:
        fold.add(entry)
    return fold.owing(players, to_move)


def forfeit_request(
    requester: str,
    due: Owing,
    absent: str,
    now: datetime,
    wait: timedelta = WAIT,
    away: Sequence[AwayNotice] = (),
) -> Permission:
    """Whether ``requester`` (a side) may request that his opponent forfeit at ``now``,
    ``due`` being who owes the move and ``absent`` his address; a refusal says from when a
    request becomes possible. ``wait`` is the rule's 5 days (a league's ``FORFEIT_AFTER``
    may set another line), pushed back by the absent player's ``away`` notices
    (:mod:`adjudicator.rulings.away`)."""
    if due.side == requester:
        return Permission.refused(
            "the next move is yours: a forfeit may be requested only of a player who has not "
            "sent his turn (IAAPA Forfeits)"
        )
    possible = line_after(due.silent_since, wait, away)
    within = _span(wait)
    if now < possible:
        pushed = possible - (due.silent_since + wait)
        notice = f", his away notices pushing the line back {_span(pushed)}" if pushed else ""
        return Permission.refused(
            f"{absent} has been silent only since {due.silent_since:%Y-%m-%d %H:%M} UTC: a "
            f"forfeit may be requested once he has not sent his turn within {within}, from "
            f"{possible:%Y-%m-%d %H:%M} UTC{notice} (IAAPA Forfeits)"
        )
    return Permission.granted(
        f"{absent} has sent no turn since {due.silent_since:%Y-%m-%d %H:%M} UTC, {within} or "
        "more: a forfeit may be requested (IAAPA Forfeits)"
    )


def _span(wait: timedelta) -> str:
    """``5 days``, ``36 hours``, ``90 seconds``: the wait as the refusal says it."""
    seconds = int(wait.total_seconds())
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return f"{seconds} second{'' if seconds == 1 else 's'}"


def deadline_missed(
    deadline: datetime, absent: str, since: Sequence[Written], now: datetime
) -> bool:
    """Whether the deadline of a denied forfeit has passed at ``now`` without a turn entry
    from ``absent`` among the entries written ``since`` the denial (a note keeps no
    deadline)."""
    if deadline > now:
        return False
    return not any(entry.is_turn and entry.by.casefold() == absent.casefold() for entry in since)


__all__ = [
    "MOVES",
    "WAIT",
    "Owing",
    "Written",
    "deadline_missed",
    "forfeit_request",
    "owing",
]
