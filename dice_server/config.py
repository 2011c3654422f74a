"""Configuration layers, lowest first (DESIGN.md): ``config/default.toml``,
``instance/config.toml``, ``PBEM_*`` environment variables, then a test's mapping."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONFIG = PROJECT_ROOT / "config" / "default.toml"
MIGRATIONS_DIR = PROJECT_ROOT / "migrations"
TEMPLATES_DIR = PROJECT_ROOT / "templates"


def instance_path() -> Path:
    """``PBEM_INSTANCE_PATH`` if set, else ``instance/`` at the top of the checkout."""
    override = os.environ.get("PBEM_INSTANCE_PATH")
    return Path(override).resolve() if override else PROJECT_ROOT / "instance"


def load_config(app: Flask, test_config: Mapping[str, Any] | None = None) -> None:
    with DEFAULT_CONFIG.open("rb") as fh:
        app.config.from_mapping(tomllib.load(fh))
    local = Path(app.instance_path) / "config.toml"
    if local.exists():
        with local.open("rb") as fh:
            app.config.from_mapping(tomllib.load(fh))
    app.config.from_prefixed_env("PBEM")
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("DATABASE_URL"):
        app.config["DATABASE_URL"] = f"sqlite:///{Path(app.instance_path) / 'pbem.sqlite3'}"
