"""Where mail goes: a local maildir by default (zero configuration), or an SMTP relay."""

from __future__ import annotations

import mailbox
import smtplib
import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import parseaddr
from functools import partial
from pathlib import Path
from typing import Any, Protocol


class DeliveryError(Exception):
    """The message was not accepted; the text is what the relay (or the system) said.

    ``permanent`` (a 5xx answer) means trying again cannot help.
    """

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


class Transport(Protocol):
    def send(self, msg: EmailMessage, recipients: list[str]) -> str:
        """Deliver; return '' or what the relay said of the recipients it refused while
        accepting the message for the others."""
        ...


#: One copy of a message and the recipients it goes to.
Copy = tuple[EmailMessage, list[str]]
EVERY = "the relay refused every recipient: "


def send_copies(transport: Transport, copies: list[Copy]) -> str:
    """Deliver copies of one message (a game's entry: each player's copy carries his own
    Reply-To) as :meth:`Transport.send` delivers one: '' or a note of the recipients
    refused while others accepted; DeliveryError when no copy was accepted (permanent only
    if every refusal was), or at the first temporary failure (the whole message is tried
    again later: at least once, under the same Message-ID). A transport with ``send_many``
    sends them together (the SMTP relay: one connection)."""
    many = getattr(transport, "send_many", None)
    if many is not None:
        return str(many(copies))
    return _each(transport.send, copies)


def _each(send: Callable[[EmailMessage, list[str]], str], copies: list[Copy]) -> str:
    notes: list[str] = []
    refused: list[str] = []
    for msg, recipients in copies:
        try:
            notes.append(send(msg, recipients))
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

    def send(self, msg: EmailMessage, recipients: list[str]) -> str:
        return self.send_many([(msg, recipients)])

    def send_many(self, copies: list[Copy]) -> str:
        """Each copy is a file of its own, as each recipient would find it."""
        try:
            box = mailbox.Maildir(self.path, create=True)
            for msg, _recipients in copies:
                box.add(msg)
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

    def _connect(self) -> smtplib.SMTP:
        if self.security == "ssl":
            return smtplib.SMTP_SSL(
                self.host, self.port, timeout=self.timeout, context=self._context()
            )
        smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        if self.security == "starttls":
            try:
                smtp.starttls(context=self._context())
            except BaseException:
                smtp.close()
                raise
        return smtp

    def send(self, msg: EmailMessage, recipients: list[str]) -> str:
        return self.send_many([(msg, recipients)])

    def send_many(self, copies: list[Copy]) -> str:
        """Every copy over one connection (see :func:`send_copies`)."""
        try:
            with self._connect() as smtp:
                if self.username:
                    smtp.login(self.username, self.password)
                return _each(partial(self._one, smtp), copies)
        except DeliveryError:
            raise
        except smtplib.SMTPResponseException as exc:
            text = (
                exc.smtp_error.decode("utf-8", "replace")
                if isinstance(exc.smtp_error, bytes)
                else str(exc.smtp_error)
            )
            raise DeliveryError(
                f"the relay answered {exc.smtp_code} {text}", permanent=exc.smtp_code >= 500
            ) from exc
        except (OSError, smtplib.SMTPException) as exc:
            raise DeliveryError(
                f"the relay {self.host}:{self.port} is unreachable: {exc or type(exc).__name__}"
            ) from exc

    def _one(self, smtp: smtplib.SMTP, msg: EmailMessage, recipients: list[str]) -> str:
        """One copy over an open connection; any other failure is the whole message's."""
        sender = parseaddr(str(msg["From"]))[1]
        try:
            refused = smtp.send_message(msg, from_addr=sender, to_addrs=recipients)
        except smtplib.SMTPRecipientsRefused as exc:
            permanent = all(code >= 500 for code, _ in exc.recipients.values())
            raise DeliveryError(EVERY + _answers(exc.recipients), permanent=permanent) from exc
        return f"the relay refused some recipients: {_answers(refused)}" if refused else ""


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
