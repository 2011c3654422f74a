"""Alembic environment: runs on a connection handed in by `pbem db upgrade` (and tests), or
on the database the app's configuration names when called as `alembic upgrade head`."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context

from dice_server.db import make_engine
from dice_server.migrate import configured_database_url
from dice_server.models import Base

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def include_name(name: str | None, type_: str, parent_names: object) -> bool:
    # The scheduler's job store (APScheduler) manages its own table.
    return not (type_ == "table" and name == "apscheduler_jobs")


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(
            connection=connection, target_metadata=target_metadata, include_name=include_name
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = make_engine(configured_database_url())
    with engine.connect() as conn:
        context.configure(
            connection=conn, target_metadata=target_metadata, include_name=include_name
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported: triggers differ per database")
run_migrations_online()
