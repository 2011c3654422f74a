"""Where mail goes: a local maildir by default (zero configuration), or an SMTP relay."""

from __future__ import annotations

import mailbox
import re
import smtplib
import ssl
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import parseaddr
from pathlib import Path
from typing import Any, Protocol

from dice_server.mail.letter import Letter


class DeliveryError(Exception):
    """The message was not accepted; the text is what the relay (or the system) said.

    ``permanent`` (a 5xx answer) means trying again cannot help.
    """

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


@dataclass(frozen=True)
class Copy:
    """One copy of a message as it is handed over: its bytes (headers and body, as the
    message's policy writes them), the envelope sender and the recipients it goes to;
    ``smtputf8`` when an address is not ASCII (the relay must then speak SMTPUTF8)."""

    raw: bytes
    sender: str
    recipients: list[str]
    smtputf8: bool = False

    @classmethod
    def of(cls, msg: EmailMessage | Letter, recipients: list[str]) -> Copy:
        """``msg`` to ``recipients``, written as smtplib's send_message would."""
        return cls.written(msg, recipients)[0]

    @classmethod
    def written(
        cls, msg: EmailMessage | Letter, *groups: list[str], reply_to: Sequence[str | None] = ()
    ) -> list[Copy]:
        """``msg`` written once, a copy for each group of recipients, the copy of group
        *i* with ``reply_to[i]`` (when given) added as its last header."""
        sender, write = _writer(msg)
        everyone = [a for group in groups for a in group]
        international = not all(a.isascii() for a in (sender, *everyone))
        raw = write(international)
        head, _, body = raw.partition(b"\n\n")
        copies = []
        for i, group in enumerate(groups):
            extra = reply_to[i] if i < len(reply_to) else None
            if extra is None:
                mine = raw
            elif extra.isascii():
                mine = head + b"\nReply-To: " + extra.encode("ascii") + b"\n\n" + body
            else:  # a header to encode: a copy of the message of its own
                copied = parsed_message(raw)
                copied["Reply-To"] = extra
                mine = copied.as_bytes(policy=policy.SMTPUTF8.clone(linesep="\n"))
            copies.append(cls(mine, sender, list(group), international))
        return copies


def _writer(msg: EmailMessage | Letter) -> tuple[str, Callable[[bool], bytes]]:
    """The envelope sender of ``msg``, and how it is written (``True``: for a relay that
    speaks SMTPUTF8, an address not being ASCII)."""
    if isinstance(msg, Letter):
        return msg.envelope_sender, msg.as_bytes

    def write(international: bool) -> bytes:
        return msg.as_bytes(policy=policy.SMTPUTF8.clone(linesep="\n") if international else None)

    return parseaddr(str(msg["From"]))[1], write


def parsed_message(raw: bytes) -> EmailMessage:
    """A message's bytes read back as a message (the policy every message is written with)."""
    parsed = message_from_bytes(raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


class Transport(Protocol):
    def send(self, copies: list[Copy]) -> str:
        """Deliver copies of one message (a game's entry: each player's copy carries his
        own Reply-To): '' or a note of the recipients refused while others accepted;
        DeliveryError when no copy was accepted (permanent only if every refusal was), or
        at the first temporary failure (the whole message is tried again later: at least
        once, under the same Message-ID)."""
        ...


EVERY = "the relay refused every recipient: "
_LINE_END = re.compile(rb"\r\n|\n|\r(?!\n)")


@contextmanager
def held(transport: Transport) -> Iterator[Transport]:
    """``transport`` for a run of messages: an SMTP relay keeps one connection open for
    the run (opened at the first message, opened again after a failure), where each
    message alone would open its own."""
    hold = getattr(transport, "held", None)
    if hold is None:
        yield transport
        return
    with hold() as kept:
        yield kept


def _each(send: Callable[[Copy], str], copies: list[Copy]) -> str:
    notes: list[str] = []
    refused: list[str] = []
    for copy in copies:
        try:
            notes.append(send(copy))
        except DeliveryError as exc:
            if not exc.permanent or not str(exc).startswith(EVERY):
                raise
            refused.append(str(exc).removeprefix(EVERY))
    if len(refused) == len(copies):
        raise DeliveryError(EVERY + "; ".join(refused), permanent=True)
    told = [n for n in notes if n]
    if refused:
        told.append("the relay refused some recipients: " + "; ".join(refused))
    return "; ".join(told)


@dataclass(frozen=True)
class MaildirTransport:
    """Delivers into ``path/new`` (written to ``tmp`` first, then renamed: never half a
    message)."""

    path: Path

    def send(self, copies: list[Copy]) -> str:
        """Each copy is a file of its own, as each recipient would find it."""
        try:
            box = mailbox.Maildir(self.path, create=True)
            for copy in copies:
                box.add(copy.raw)
        except OSError as exc:
            raise DeliveryError(f"cannot write to the maildir {self.path}: {exc}") from exc
        return ""


@dataclass(frozen=True)
class SmtpTransport:
    host: str
    port: int
    security: str = "none"
    username: str = ""
    password: str = ""
    cafile: str = ""
    timeout: float = 30.0

    def _context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.cafile or None)

    def connect(self) -> smtplib.SMTP:
        if self.security == "ssl":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(
                self.host, self.port, timeout=self.timeout, context=self._context()
            )
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        try:
            if self.security == "starttls":
                smtp.starttls(context=self._context())
            if self.username:
                smtp.login(self.username, self.password)
        except BaseException:
            smtp.close()
            raise
        return smtp

    def send(self, copies: list[Copy]) -> str:
        """Every copy over one connection of its own."""
        with self.held() as relay:
            return relay.send(copies)

    @contextmanager
    def held(self) -> Iterator[_Relay]:
        relay = _Relay(self)
        try:
            yield relay
        finally:
            relay.close()

    def one(self, smtp: smtplib.SMTP, copy: Copy) -> str:
        """One copy over an open connection; any other failure is the whole message's."""
        options: tuple[str, ...] = ()
        if copy.smtputf8:
            smtp.ehlo_or_helo_if_needed()
            if not smtp.has_extn("smtputf8"):
                raise smtplib.SMTPNotSupportedError(
                    "one of the addresses needs SMTPUTF8, which the relay does not offer"
                )
            options = ("SMTPUTF8", "BODY=8BITMIME")
        try:
            data = _LINE_END.sub(b"\r\n", copy.raw)  # as send_message writes it: CRLF
            refused = smtp.sendmail(copy.sender, copy.recipients, data, options)
        except smtplib.SMTPRecipientsRefused as exc:
            permanent = all(code >= 500 for code, _ in exc.recipients.values())
            raise DeliveryError(EVERY + _answers(exc.recipients), permanent=permanent) from exc
        return f"the relay refused some recipients: {_answers(refused)}" if refused else ""


class _Relay:
    """One connection to the relay, kept for a run of messages: opened at the first
    copy, and dropped at any failure (the next message opens a new one)."""

    def __init__(self, transport: SmtpTransport) -> None:
        self.transport = transport
        self.smtp: smtplib.SMTP | None = None

    def send(self, copies: list[Copy]) -> str:
        try:
            return self._send(copies)
        except DeliveryError:
            self._drop()
            raise
        except smtplib.SMTPResponseException as exc:
            self._drop()
            text = (
                exc.smtp_error.decode("utf-8", "replace")
                if isinstance(exc.smtp_error, bytes)
                else str(exc.smtp_error)
            )
            raise DeliveryError(
                f"the relay answered {exc.smtp_code} {text}", permanent=exc.smtp_code >= 500
            ) from exc
        except (OSError, smtplib.SMTPException) as exc:
            self._drop()
            raise DeliveryError(
                f"the relay {self.transport.host}:{self.transport.port} is unreachable: "
                f"{exc or type(exc).__name__}"
            ) from exc

    def _send(self, copies: list[Copy]) -> str:
        kept = self.smtp is not None
        smtp = self._open()
        handed: list[Copy] = []

        def one(copy: Copy) -> str:
            note = self.transport.one(smtp, copy)
            handed.append(copy)
            return note

        try:
            return _each(one, copies)
        except smtplib.SMTPServerDisconnected:
            if not kept or handed:
                raise
        # The relay had closed the connection kept from an earlier message (an idle
        # timeout) before it took any copy of this one: once more, on a new connection.
        self._drop()
        smtp = self._open()
        return _each(one, copies)

    def _open(self) -> smtplib.SMTP:
        if self.smtp is None:
            self.smtp = self.transport.connect()
        return self.smtp

    def _drop(self) -> None:
        if self.smtp is not None:
            self.smtp.close()
            self.smtp = None

    def close(self) -> None:
        if self.smtp is None:
            return
        try:
            self.smtp.quit()
        except (OSError, smtplib.SMTPException):
            pass
        finally:
            self._drop()


def _answers(refused: Mapping[str, tuple[int, bytes]]) -> str:
    return "; ".join(
        f"{address}: {code} {reply.decode('utf-8', 'replace')}"
        for address, (code, reply) in refused.items()
    )


def transport_from_config(config: Mapping[str, Any], instance: Path) -> Transport:
    kind = config.get("MAIL_TRANSPORT", "maildir")
    if kind == "maildir":
        return MaildirTransport(instance / "maildir")
    if kind == "smtp":
        security = config.get("SMTP_SECURITY", "none")
        if security not in ("none", "starttls", "ssl"):
            raise ValueError(f"SMTP_SECURITY must be none, starttls or ssl, not {security!r}")
        return SmtpTransport(
            host=str(config["SMTP_HOST"]),
            port=int(config["SMTP_PORT"]),
            security=security,
            username=str(config.get("SMTP_USERNAME", "")),
            password=str(config.get("SMTP_PASSWORD", "")),
            cafile=str(config.get("SMTP_CAFILE", "")),
            timeout=float(config.get("SMTP_TIMEOUT_SECONDS", 30)),
        )
    raise ValueError(f"MAIL_TRANSPORT must be maildir or smtp, not {kind!r}")
