"""One ledger, one way (issue 13, point 4): a league game's ledger and a TripleA table's are
one :class:`~dice_server.ledger.Chain` abstraction, appended, guarded, read and mailed by
the same code; a signed entry is a frozen :class:`~dice_server.ledger.SignedEntry`; every
message is queued by one :func:`~dice_server.services.outbox.enqueue`."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime, timedelta
from itertools import islice

import pytest
from sqlalchemy import select, text

from dice_server import dice, ledger
from dice_server.db import reading, writing
from dice_server.errors import LedgerTampered
from dice_server.ledger import Chain, SignedEntry
from dice_server.models import OutboxMessage
from dice_server.services import ServiceContext
from dice_server.services.entries import Retry
from dice_server.services.mailer import queue_mail
from dice_server.services.outbox import Envelope, entry_message_id, publish
from dice_server.services.rolls import roll_battle
from dice_server.triplea.addresses import register_now
from dice_server.triplea.tables import Limits, check_roll
from dice_server.triplea.tables import roll as table_roll
from dice_server.verifier import ZERO_HASH, body_hash, seed_commitment
from tests.conftest import League, battle
from tests.integration.test_ledger import member_id


def table_chain(ctx: ServiceContext, rolls: int = 2) -> Chain:
    """A TripleA table with its genesis and ``rolls`` rolls."""
    for address in ("red@example.org", "blue@example.org"):
        register_now(ctx, address)
    request = check_roll("current", "3", "6", ["red@example.org"], ["blue@example.org"], "")
    table = 0
    for _ in range(rolls):
        table = table_roll(ctx, request, "test-client", Limits()).table.id
    return Chain.table(table)


@pytest.fixture
def both(league: League) -> dict[str, Chain]:
    """The league's game with two rolls, and a TripleA table with two rolls."""
    for _ in range(2):
        roll_battle(league.ctx, member_id(league, "axis"), league.game, battle())
    return {"game": Chain.game(league.game), "table": table_chain(league.ctx)}


def test_a_chain_is_named_as_its_bodies_and_its_check_name_it() -> None:
    assert str(Chain.game(12)) == "game 12" and str(Chain.table(3)) == "table 3"
    assert Chain.game(12).check_command == "pbem ledger check 12"
    assert Chain.table(3).check_command == "pbem ledger check --table 3"
    assert Chain.game(3) == Chain("game", 3) != Chain.table(3)
    assert len({Chain.game(3), Chain.game(3), Chain.table(3)}) == 2


@pytest.mark.parametrize("owner", ["game", "table"])
def test_each_chain_reads_back_the_very_entries_its_appends_returned(
    league: League, both: dict[str, Chain], owner: str
) -> None:
    """The value an append returns is the value every read gives: the same bytes, hash,
    signature and key, and the bodies link from seq 1 under the chain's own key."""
    chain = both[owner]
    with reading(league.ctx.sessions) as session:
        stored = ledger.entries(session, chain)
        newest_first = ledger.entries(session, chain, range(2, 4), newest_first=True)
        named = ledger.entries(session, chain, (1, 3))
        head = ledger.head(session, chain)
        recorded, last = ledger.heads(session, chain)
        export = ledger.exported(session, chain)
    assert [e.seq for e in stored] == [1, 2, 3]
    assert [e.seq for e in newest_first] == [3, 2] and [e.seq for e in named] == [1, 3]
    prev = ZERO_HASH
    for entry in stored:
        body = json.loads(entry.body)
        assert entry.chain == chain and body[owner] == chain.number and body["prev"] == prev
        assert (body["seq"], body["kind"], body["at"]) == (entry.seq, entry.kind, entry.at)
        assert entry.hash == body_hash(entry.body)
        prev = entry.hash
    assert head is not None and last == head and (head.seq, head.hash) == (3, stored[-1].hash)
    assert (recorded.seq, recorded.hash) == (3, stored[-1].hash)
    assert export == {"entries": [e.signed() for e in stored]}


def test_an_appended_entry_is_a_frozen_value(league: League) -> None:
    entry = roll_battle(league.ctx, member_id(league, "allies"), league.game, battle())
    with reading(league.ctx.sessions) as session:
        assert ledger.entry(session, Chain.game(league.game), entry.seq) == entry
        assert ledger.entry(session, Chain.game(league.game), entry.seq + 1) is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.seq = 99  # type: ignore[misc]
    assert entry.game_number == league.game
    assert entry.signed() == {
        "body": entry.body.decode("utf-8"),
        "sig": entry.sig,
        "key": entry.key_id,
    }


def test_a_table_entry_belongs_to_no_league_game(ctx: ServiceContext) -> None:
    chain = table_chain(ctx, rolls=1)
    with reading(ctx.sessions) as session:
        entry = ledger.entry(session, chain, 2)
    assert entry is not None and entry.chain == chain
    with pytest.raises(AttributeError, match=r"table \d+ belongs to no league game"):
        _ = entry.game_number


def test_a_retry_returns_the_first_entry_as_the_same_value(league: League) -> None:
    retry = Retry.of("k-1", "POST", "/api/v1/games/1/rolls", battle())
    first = roll_battle(league.ctx, member_id(league, "axis"), league.game, battle(), retry)
    again = roll_battle(league.ctx, member_id(league, "axis"), league.game, battle(), retry)
    assert again == first


@pytest.mark.parametrize("owner", ["game", "table"])
def test_the_head_guard_holds_for_both_kinds_through_the_one_append(
    league: League, both: dict[str, Chain], owner: str
) -> None:
    """The recorded head (migration 0007) is checked by the one append whatever the chain;
    the refusal names the chain and the command that checks it."""
    chain = both[owner]
    ctx = league.ctx
    owner_table, key = ("games", "number") if owner == "game" else ("dice_tables", "id")
    with writing(ctx.sessions) as session:
        session.execute(
            text(f"UPDATE {owner_table} SET head_seq = 2 WHERE {key} = :n"),  # noqa: S608
            {"n": chain.number},
        )
    with pytest.raises(LedgerTampered) as refusal, writing(ctx.sessions) as session:
        ledger.append(session, ctx.keys.signer, ctx.clock(), chain, "note", lambda _seq: {})
    message = refusal.value.message
    assert f"{chain}'s ledger is not as this server left it" in message
    assert "entries were added behind the server's back" in message
    assert f"`{chain.check_command}`" in message
    with reading(ctx.sessions) as session:
        assert len(ledger.entries(session, chain)) == 3  # nothing written


def test_a_chain_that_does_not_exist_is_not_appended_to(ctx: ServiceContext) -> None:
    with pytest.raises(LookupError, match="there is no table 99 to append to"):
        with writing(ctx.sessions) as session:
            ledger.append(
                session, ctx.keys.signer, ctx.clock(), Chain.table(99), "note", lambda _seq: {}
            )
    with reading(ctx.sessions) as session:
        assert ledger.head(session, Chain.game(99)) is None
        with pytest.raises(LookupError, match="there is no game 99"):
            ledger.heads(session, Chain.game(99))


@pytest.mark.parametrize("owner", ["game", "table"])
def test_seeds_of_both_kinds_are_sealed_opened_and_revealed_alike(
    league: League, both: dict[str, Chain], owner: str
) -> None:
    chain, box = both[owner], league.ctx.keys.seed_box
    with writing(league.ctx.sessions) as session:
        sealed = dice.open_seed(session, chain)
        assert sealed is not None and sealed.chain == chain and sealed.commitment_seq == 1
        seed = dice.unseal(box, sealed)
        first = list(islice(dice.stream(box, sealed, 2), 3))
        dice.mark_revealed(session, sealed, 3)
        assert dice.open_seed(session, chain) is None
        (stored,) = dice.seeds(session, chain)
    assert stored == dataclasses.replace(sealed, revealed_seq=3)
    with reading(league.ctx.sessions) as session:
        rolled = json.loads(ledger.entries(session, chain, (2,))[0].body)["data"]["dice"]
    assert first == rolled[:3]  # the dice of entry 2, recomputed from the seed
    with pytest.raises(dataclasses.FrozenInstanceError):
        sealed.revealed_seq = None  # type: ignore[misc]
    assert seed_commitment(seed) == sealed.commitment


def outbox_rows(ctx: ServiceContext) -> list[OutboxMessage]:
    with reading(ctx.sessions) as session:
        return list(session.execute(select(OutboxMessage).order_by(OutboxMessage.id)).scalars())


def test_every_message_is_queued_by_the_one_enqueue(league: League) -> None:
    """A game's entry, a table's entry and account mail land in one shape of outbox row;
    an entry's Message-ID names its chain the same way for both kinds."""
    ctx = league.ctx
    table = table_chain(ctx, rolls=1)
    with writing(ctx.sessions) as session:
        queue_mail(session, ctx, ctx.clock(), "someone@example.org", "Hello", "Text\n")
    rows = outbox_rows(ctx)
    game_row = next(r for r in rows if r.game_number == league.game)
    table_rows = [r for r in rows if r.table_id == table.number]
    account = rows[-1]
    assert game_row.table_id is None and game_row.entry_seq == 1 and game_row.raw is None
    assert json.loads(game_row.to_addrs) == ["axis@example.org", "allies@example.org"]
    assert json.loads(game_row.cc_addrs) == ["mentor@example.org"]
    assert [r.entry_seq for r in table_rows] == [1, 2]
    assert all(r.game_number is None and r.raw is None for r in table_rows)
    assert f".table-{table.number}.entry-2@" in table_rows[1].message_id
    assert f".game-{league.game}.entry-1@" in game_row.message_id
    assert account.game_number is None and account.table_id is None and account.raw
    assert json.loads(account.to_addrs) == ["someone@example.org"] and account.cc_addrs == "[]"
    with reading(ctx.sessions) as session:
        entry = ledger.entry(session, table, 2)
    assert entry is not None and table_rows[1].message_id == entry_message_id(
        entry, ctx.mail_domain
    )


def test_a_games_envelope_names_each_address_once_and_a_tables_as_given() -> None:
    game = Envelope.each_once(
        ("Axis@example.org", "allies@example.org", "axis@example.org"),
        (None, "ALLIES@example.org", "mentor@example.org", "Mentor@example.org"),
    )
    assert game == Envelope(("Axis@example.org", "allies@example.org"), ("mentor@example.org",))
    table = Envelope(("red@example.org",), ("red@example.org",))
    assert table.cc == ("red@example.org",)


def test_publish_appends_and_queues_both_or_neither(league: League) -> None:
    ctx, chain = league.ctx, Chain.game(league.game)
    before = len(outbox_rows(ctx))

    def refuse(_seq: int) -> dict[str, object]:
        raise ValueError("no")

    with pytest.raises(ValueError), writing(ctx.sessions) as session:
        publish(session, ctx, ctx.clock(), chain, "note", refuse, Envelope(("a@example.org",)))
    with writing(ctx.sessions) as session:
        entry = publish(
            session,
            ctx,
            datetime.now(UTC) + timedelta(days=1),
            chain,
            "note",
            lambda _seq: {"topic": "general", "text": "x", "by": "axis@example.org"},
            Envelope(("a@example.org",)),
        )
    rows = outbox_rows(ctx)
    assert len(rows) == before + 1 and rows[-1].entry_seq == entry.seq == 2
    assert isinstance(entry, SignedEntry) and entry.chain == chain
