"""What every response carries to keep a browser safe, the session cookie's flags, and the
one check of where a page may send a member next.

The app serves plain HTTP on its loopback port behind whatever terminates TLS, so it never
redirects to https itself; the cookie is ``Secure`` when the public ``BASE_URL`` is https.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit

from flask import Flask, Response, request

#: No inline script or style anywhere: the pages use one stylesheet and no script.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "style-src 'self'",
        "img-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
    )
)

#: Pages that show a secret (an API token, a one-time link's form, a table's page link):
#: never kept by a browser or a proxy cache.
NO_STORE_ENDPOINTS = frozenset(
    {
        "auth.account",
        "auth.confirm",
        "auth.confirm_legacy",
        "auth.reset",
        "auth.reset_legacy",
        "tables.use_link",
        "tables.use_link_legacy",
        "tables.table",
        "tables.close",
        "tables.confirm_close",
    }
)


def init_app(app: Flask) -> None:
    secure = str(app.config["BASE_URL"]).lower().startswith("https://")
    # Flask defines both keys already (SameSite None, Secure False): set them, not setdefault.
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_SECURE"] = secure
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["REMEMBER_COOKIE_SAMESITE"] = "Lax"
    app.config["REMEMBER_COOKIE_SECURE"] = secure
    app.config["REMEMBER_COOKIE_HTTPONLY"] = True
    app.after_request(add_headers)


def add_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    # A one-time link's page must not hand its address to another site.
    headers.setdefault("Referrer-Policy", "no-referrer")
    if request.endpoint in NO_STORE_ENDPOINTS:
        headers["Cache-Control"] = "no-store"
    return response


def safe_next(target: str | None) -> str | None:
    """``target`` if it is a path on this site, else None.

    Browsers read ``/\\evil``, ``/%09/evil`` (a tab is dropped) and ``//evil`` as another
    host, so anything with a scheme, a host, a backslash, whitespace or a control character
    is refused, as is anything not starting with a single ``/``.
    """
    if not target or not target.startswith("/") or target.startswith("//"):
        return None
    if "\\" in target or any(
        ch.isspace() or unicodedata.category(ch) in {"Cc", "Cf", "Zl", "Zp"} for ch in target
    ):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return None
    return target
