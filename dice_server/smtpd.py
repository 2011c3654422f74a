"""``pbem smtpd``: the SMTP receiver through which players mail their turns (aiosmtpd).

It accepts recipients at the service's mail domain only (``MAIL_DOMAIN``), refuses a
message over ``MAIL_MAX_BYTES`` at DATA (552: the sender's server tells the sender, nothing
is lost), and hands every other message's exact bytes and envelope to
:func:`dice_server.services.inbox.spool`. Once the message is committed to the spool it is
processed (read, authenticated, recorded, answered), and then the sender's server hears 250.
If processing fails, the message stays spooled and is processed when the receiver starts
again or by the scheduler's inbox job: a crash never loses it and never records it twice.
A message the spool cannot take gets 451 (try again later).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from dice_server.mail.addresses import read_address
from dice_server.services import ServiceContext
from dice_server.services.inbox import SPOOLED, Received, process, process_pending, spool

log = logging.getLogger(__name__)


@dataclass
class Gateway:
    """The aiosmtpd handler: recipients at ``domain`` only; spool, answer, then process."""

    ctx: ServiceContext
    max_bytes: int

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if read_address(address, self.ctx.mail_domain) is None:
            return f"550 5.1.1 <{address}>: not a game address of {self.ctx.mail_domain}"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content
        if not isinstance(raw, bytes):
            raw = (raw or "").encode("utf-8", "surrogateescape")
        loop = asyncio.get_running_loop()
        try:
            spooled = await loop.run_in_executor(
                None, self.take, raw, envelope.mail_from, list(envelope.rcpt_tos)
            )
        except Exception:
            log.exception("smtpd: could not spool a message from %s", envelope.mail_from)
            return "451 4.3.0 the message could not be stored: try again later"
        if spooled.duplicate:
            return "250 2.0.0 already received"
        return "250 2.0.0 received"

    def take(self, raw: bytes, mail_from: str | None, rcpt_tos: list[str]) -> Received:
        """Spool the message (an exception here is a 451: the sender's server tries
        again), then process it; once spooled, a failure to process leaves it for the next
        start or the scheduler's inbox job, and the sender's server hears 250."""
        spooled = spool(
            self.ctx,
            raw,
            channel="smtp",
            envelope_from=mail_from,
            envelope_to=rcpt_tos,
            max_bytes=self.max_bytes,
        )
        if spooled.duplicate or spooled.status != SPOOLED:
            return spooled
        try:
            return process(self.ctx, spooled.id, spooled.fresh)
        except Exception:
            log.exception("smtpd: message %s is spooled but was not processed", spooled.id)
            return spooled


class ReusePortController(Controller):
    """aiosmtpd's threaded controller; with ``reuse_port`` it binds with SO_REUSEPORT (the
    tests' reserved ports, like ``gunicorn --reuse-port``)."""

    def __init__(self, handler: Any, *, reuse_port: bool, **kwargs: Any) -> None:
        super().__init__(handler, **kwargs)
        self.reuse_port = reuse_port

    def _create_server(self) -> Coroutine[Any, Any, asyncio.Server]:
        return self.loop.create_server(
            self._factory_invoker,
            host=self.hostname,
            port=self.port,
            ssl=self.ssl_context,
            reuse_port=self.reuse_port or None,
        )


def controller(
    ctx: ServiceContext, host: str, port: int, max_bytes: int, *, reuse_port: bool = False
) -> Controller:
    """An aiosmtpd controller (a thread of its own) serving the gateway."""
    return ReusePortController(
        Gateway(ctx, max_bytes),
        reuse_port=reuse_port,
        hostname=host,
        port=port,
        data_size_limit=max_bytes,
        server_hostname=ctx.mail_domain,
        ident="PBEM league service",
    )


def serve(ctx: ServiceContext, config: Any) -> None:
    """Run the receiver until SIGINT or SIGTERM; first process anything left spooled."""
    host, port = str(config["SMTPD_HOST"]), int(config["SMTPD_PORT"])
    max_bytes = int(config["MAIL_MAX_BYTES"])
    left = process_pending(ctx)
    if left:
        log.info("smtpd: processed %d message(s) left spooled", len(left))
    server = controller(ctx, host, port, max_bytes, reuse_port=bool(config.get("SMTPD_REUSE_PORT")))
    stopped = threading.Event()

    def stop(signum: int, _frame: object) -> None:
        log.info("smtpd stopping (signal %d)", signum)
        stopped.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.start()
    log.info("smtpd: receiving mail for %s on %s:%d", ctx.mail_domain, host, port)
    try:
        stopped.wait()
    finally:
        server.stop()
