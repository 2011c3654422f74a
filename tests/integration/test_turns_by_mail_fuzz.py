"""The ingest function (:func:`dice_server.services.inbox.receive`) takes any bytes: random
bytes and a player's real turn email spoiled in transit never raise, never record anything
under anyone's name unless the message still reaches the player's personal address from
his own address, and always leave the message kept (spooled once, with a status)."""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from dice_server.mail.inbound import read_message
from dice_server.models import InboundMessage
from dice_server.services import ServiceContext, inbox
from tests.conftest import League
from tests.integration.test_turns_by_mail import USSR_PRE, address, entries, message
from tests.unit.test_inbound_fuzz import spoiled_bytes

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=10),
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,  # one database for all examples: counts compared
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
OUTCOMES = {"recorded", "refused", "quarantined", "ignored"}


def written(ctx: ServiceContext, league: League) -> list[dict[str, Any]]:
    """The entries members wrote (a ruling the service proposes on a turn's errors is the
    service's, not the sender's)."""
    return [e for e in entries(ctx, league.game) if e["kind"] != "ruling"]


def kept(ctx: ServiceContext) -> int:
    with ctx.sessions() as session:
        return int(session.scalar(select(func.count()).select_from(InboundMessage)) or 0)


@FUZZ
@given(raw=st.binary(max_size=4096))
def test_random_bytes_record_nothing(ctx: ServiceContext, league: League, raw: bytes) -> None:
    before, stored = len(entries(ctx, league.game)), kept(ctx)
    got = inbox.receive(ctx, raw, channel="ingest")
    assert got.status in OUTCOMES and got.status != "recorded"
    assert len(entries(ctx, league.game)) == before
    assert kept(ctx) == stored + (0 if got.duplicate else 1)


@FUZZ
@given(data=st.data())
def test_a_spoiled_turn_email_is_recorded_only_as_its_players(
    ctx: ServiceContext, league: League, data: st.DataObject
) -> None:
    to = address(ctx, league, "allies")
    n = data.draw(st.integers(0, 10**9))
    original = message("allies@example.org", to, USSR_PRE, message_id=f"<fuzz-{n}@x>")
    raw = data.draw(spoiled_bytes(original))
    before = len(written(ctx, league))
    got = inbox.receive(ctx, raw, channel="ingest")
    assert got.status in OUTCOMES
    now = len(written(ctx, league))
    if got.status == "recorded" and not got.duplicate:
        decoded = read_message(raw)
        assert decoded.sender == "allies@example.org"
        assert now == before + 1 and written(ctx, league)[-1]["data"]["by"] == (
            "allies@example.org"
        )
    else:
        assert now == before


def test_a_message_id_no_database_can_store_is_keyed_by_the_bytes(
    ctx: ServiceContext, league: League
) -> None:
    """A NUL in the Message-ID (found by the test above on PostgreSQL, which stores no NUL
    in text): the message is kept under the hash of its bytes, and a re-delivery of the
    same bytes is known as the same message."""
    to = address(ctx, league, "allies")
    original = message("allies@example.org", to, USSR_PRE, message_id="<nul@x>")
    raw = original.replace(b"Message-ID: <nul@x>", b"Message-ID:\x00<nul@x>")
    assert raw != original
    stored = kept(ctx)
    first = inbox.receive(ctx, raw, channel="ingest")
    again = inbox.receive(ctx, raw, channel="ingest")
    assert first.status in OUTCOMES and not first.duplicate
    assert again.duplicate and again.id == first.id
    assert kept(ctx) == stored + 1
    with ctx.sessions() as session:
        key = session.scalar(
            select(InboundMessage.message_key).where(InboundMessage.id == first.id)
        )
    assert key is not None and key.startswith("sha256:")
