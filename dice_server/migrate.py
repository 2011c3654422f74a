"""Running the Alembic migrations from the CLI and tests (the same scripts `alembic` runs)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from flask import Flask
from sqlalchemy import Engine

from dice_server.config import MIGRATIONS_DIR, PROJECT_ROOT, instance_path, load_config
from dice_server.db import make_durable


def configured_database_url() -> str:
    """The database URL the app would use, without needing its keys."""
    app = Flask("dice_server", instance_path=str(instance_path()))
    load_config(app)
    return str(app.config["DATABASE_URL"])


def alembic_config() -> Config:
    cfg = Config(str(PROJECT_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["configure_logger"] = False
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    cfg = alembic_config()
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, revision)
    make_durable(engine)
