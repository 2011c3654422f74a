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
    status = 429
