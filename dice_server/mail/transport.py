"""Where mail goes: a local maildir by default (zero configuration), or an SMTP relay."""

from __future__ import annotations

import mailbox
import smtplib
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import parseaddr
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


@dataclass(frozen=True)
class MaildirTransport:
    """Delivers into ``path/new`` (written to ``tmp`` first, then renamed: never half a
    message)."""

    path: Path

    def send(self, msg: EmailMessage, recipients: list[str]) -> str:
        try:
            box = mailbox.Maildir(self.path, create=True)
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
        sender = parseaddr(str(msg["From"]))[1]
        try:
            with self._connect() as smtp:
                if self.username:
                    smtp.login(self.username, self.password)
                refused = smtp.send_message(msg, from_addr=sender, to_addrs=recipients)
        except smtplib.SMTPRecipientsRefused as exc:
            answers = _answers(exc.recipients)
            permanent = all(code >= 500 for code, _ in exc.recipients.values())
            raise DeliveryError(
                f"the relay refused every recipient: {answers}", permanent=permanent
            ) from exc
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
