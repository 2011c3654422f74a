"""Mail text from the templates under ``templates/mail/``: plain text (nothing escaped),
every string printed with its bidirectional controls made visible (dice_server.text), and
every link made by ``url_for(..., _external=True)`` under the public ``BASE_URL``.

Mail is rendered inside a web request (registration, a reset, a table's close link), in
the command line and in the scheduler's delivery run, where there is no request at all.
A template's ``url_for`` therefore builds on a URL adapter of its own, bound to
``BASE_URL`` (scheme, host, port and path prefix), with the app's URL defaults: a link
never takes the host of the request it was mailed from, nor ``SERVER_NAME``, and no
request context is pushed for it (the outbox renders every message of a run).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from werkzeug.routing import MapAdapter

from dice_server.config import TEMPLATES_DIR
from dice_server.services import MailTemplates
from dice_server.text import shown

MAIL_TEMPLATES = TEMPLATES_DIR / "mail"


def mail_environment() -> Environment:
    """Jinja for plain-text mail: no autoescaping (it is no HTML), a missing value is an
    error rather than an empty line, the final newline is kept, and block tags leave no
    blank lines behind."""
    env = Environment(
        loader=FileSystemLoader(MAIL_TEMPLATES),
        autoescape=False,  # noqa: S701 (plain-text mail: nothing is HTML)
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=shown,
    )
    return env


class FlaskMailTemplates:
    """``MailTemplates`` with the app's routes, under the public address ``base_url``."""

    def __init__(self, app: Flask, base_url: str, env: Environment | None = None) -> None:
        parts = urlsplit(base_url.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"BASE_URL must be an http or https URL, not {base_url!r}")
        self.app = app
        self.scheme = parts.scheme
        self.host = parts.netloc
        self.prefix = parts.path.rstrip("/")
        self.env = env or mail_environment()

    def render(self, template: str, /, **values: Any) -> str:
        return self.env.get_template(template).render({"url_for": self._url_for, **values})

    def link(self, endpoint: str, /, **values: Any) -> str:
        return self._url_for(endpoint, _external=True, **values)

    def _url_for(self, endpoint: str, /, *, _external: bool = False, **values: Any) -> str:
        """Flask's ``url_for`` under the public address."""
        self.app.inject_url_defaults(endpoint, values)
        return self._adapter.build(endpoint, values, force_external=_external)

    @cached_property
    def _adapter(self) -> MapAdapter:
        return self.app.url_map.bind(
            self.host, script_name=self.prefix or "/", url_scheme=self.scheme
        )

    def at(self, base_url: str) -> MailTemplates:
        return FlaskMailTemplates(self.app, base_url, self.env)
