"""Stores opened read-only (`open_store(database, read_only=True)`): the web process
reads the bot's database and never writes, not even a migration. The bot owns the
schema; a reader finding a database it cannot read says so and does not start."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.runtime.errors import StartupError

from .model import StoreError
from .schema import SCHEMA_VERSION

if TYPE_CHECKING:
    from .base import Store

READ_ONLY = "the database was opened read-only (the web process reads, the bot writes)"
"""Why a write through a read-only store fails (`StoreError`)."""


async def check_schema(store: Store, shown: str) -> None:
    """`StartupError` unless the database holds the schema this code reads, as the bot
    of this version leaves it (a reader migrates nothing)."""
    try:
        found = await store.schema_version()
    except StoreError as error:
        raise StartupError(f"the database {shown} cannot be read: {error}") from None
    if found == 0:
        raise StartupError(
            f"the database {shown} holds no games yet: start the bot first (it makes "
            "the tables), then the web pages, which only read them"
        )
    if found < SCHEMA_VERSION:
        raise StartupError(
            f"the database {shown} has schema version {found}, older than this code "
            f"({SCHEMA_VERSION}): start the bot of this version first (it migrates the "
            "database); the web pages only read it"
        )
    if found > SCHEMA_VERSION:
        raise StartupError(
            f"the database {shown} has schema version {found}, newer than this code "
            f"({SCHEMA_VERSION}); update the web process"
        )


__all__ = ["READ_ONLY", "check_schema"]
