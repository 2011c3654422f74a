"""The running app's services, as every channel adapter reaches them."""

from __future__ import annotations

from flask import current_app

from dice_server.services import ServiceContext


def service_context() -> ServiceContext:
    """The service context the app factory built (``app.extensions["pbem"]``)."""
    ctx: ServiceContext = current_app.extensions["pbem"]
    return ctx
