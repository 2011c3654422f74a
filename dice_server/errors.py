"""Errors a service raises for a person to read: what was wrong, where, and what to do.

Raised before or inside a write transaction, they roll it back whole: nothing is written and
no seq is consumed. Channels map ``status`` to an HTTP code or a CLI exit status.
"""

from __future__ import annotations


class ServiceError(Exception):
    status = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def to_json(self) -> dict[str, str]:
        out = {"error": self.message}
        if self.field:
            out["field"] = self.field
        return out


class InvalidRequest(ServiceError):
    status = 400


class Unauthorized(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class TooManyRequests(ServiceError):
    """A limit was reached; ``retry_after`` (seconds) says when to try again."""

    status = 429

    def __init__(
        self, message: str, field: str | None = None, *, retry_after: int | None = None
    ) -> None:
        super().__init__(message, field)
        self.retry_after = retry_after


class LedgerTampered(ServiceError):
    """A ledger is not as this server left it (its tail replaced, truncated or extended
    behind the server's back), or fails its check: nothing is appended to it until an
    operator has run ``pbem ledger check`` and restored it. 503: the server is sound but
    this ledger is unavailable; a later retry is safe (nothing was written)."""

    status = 503
