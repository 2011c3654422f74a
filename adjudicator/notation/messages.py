"""What a player's message is: a turn, special orders, a retreat, an error recognition, a
forfeit request, or a plain note.

The league's rule text names the messages that must be "sent through the dice roller so
timing can be verified": special orders and retreats (Amendments and Special Orders;
Retreats), the recognition of an error (Error Correction VII) and a request that the
opponent forfeit (Forfeits and Annulments). A mail gateway records each as the note topic of
that name; a turn (pre-combat, post-combat, or an amendment of one) is a submission.

A forfeit request or an error recognition says so in its subject or its first line ("Error
recognition: battle #2", "Forfeit request, game 12"): only there, so a remark deep in a turn
("I won't forfeit yet") does not turn the turn into a request. Otherwise the orders decide.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.notation.mailtext import own_text
from adjudicator.notation.model import Turn, TurnKind
from adjudicator.notation.parser import parse

TURN = "turn"
SPECIAL_ORDERS = "special-orders"
RETREAT = "retreat"
ERROR_RECOGNITION = "error-recognition"
FORFEIT_REQUEST = "forfeit-request"
NOTE = "general"
"""The kinds of message, named as the note topics that record them (a turn is a
submission)."""

_FORFEIT = re.compile(r"\bforfeit", re.IGNORECASE)
_ERROR_RECOGNITION = re.compile(
    r"\berror[\s-]+recogni(?:[sz]|tion)|\brecogni[sz]e\s+(?:an?|the|my|your)\s+(?:\w+\s+)?error",
    re.IGNORECASE,
)
_TAG = re.compile(r"^\s*(?:(?:re|fwd?|aw|sv)\s*:\s*|\[[^\]]*\]\s*)*", re.IGNORECASE)
"""Reply and forward prefixes and tags ("Re: [Game 12] ...") before a subject's words."""


@dataclass(frozen=True)
class Reading:
    """A message read: its kind and the turn the notation found in it (any kind)."""

    kind: str
    turn: Turn

    @property
    def is_turn(self) -> bool:
        return self.kind == TURN


def subject_words(subject: str) -> str:
    """A subject's own words: without reply and forward prefixes and tags ("Re: [Game 12]")."""
    return _TAG.sub("", subject, count=1)


def _headline(subject: str, text: str) -> str:
    """The subject (without reply prefixes and tags) and the sender's first own line."""
    first = next((line.text for line in own_text(text).lines if line.text.strip()), "")
    return f"{subject_words(subject)}\n{first}"


def read_message(subject: str, text: str) -> Reading:
    """What the message with ``subject`` and body ``text`` is (the body is read once)."""
    turn = parse(text)
    headline = _headline(subject, text)
    if _FORFEIT.search(headline):
        return Reading(FORFEIT_REQUEST, turn)
    if _ERROR_RECOGNITION.search(headline):
        return Reading(ERROR_RECOGNITION, turn)
    if turn.kind in (TurnKind.PRE_COMBAT, TurnKind.POST_COMBAT, TurnKind.MIXED):
        return Reading(TURN, turn)
    if turn.kind is TurnKind.SPECIAL_ORDERS:
        only_retreats = bool(turn.retreats) and not (turn.orders_of_loss or turn.withdrawals)
        return Reading(RETREAT if only_retreats else SPECIAL_ORDERS, turn)
    return Reading(NOTE, turn)


def read_note(topic: str, text: str) -> Turn:
    """The orders a note's text gives, as the battles apply them: a note of special orders
    is read as special orders from its first line, its topic saying what it is ("Ukraine:
    arm, inf, ftr" is an order of loss with no "OOL" on it); a note of any other topic (a
    retreat) as an email is."""
    return parse(text, special=topic == SPECIAL_ORDERS)
