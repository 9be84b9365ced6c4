"""`python -m bot backup --to FILE`: a consistent copy of the bot's SQLite database, taken
while the bot runs (`bash scripts/run-bot.sh backup --to FILE`).

SQLite's online backup (`sqlite3.Connection.backup`) copies the database as one
snapshot: a move the bot is saving meanwhile is in the copy whole or not at all, and
the bot is not stopped (in WAL mode its writes go on while the copy is read). The copy
is written beside FILE and renamed into place once complete and checked, so FILE is
never a half-made copy. In the copy every game under way is marked as not showing its
newest prompt and owing nothing, so the bot restored on it posts each one afresh (the
players' messages will have moved on meanwhile), and its next owed messages are
numbered past any the bot that went on may have used (the number is the message's
nonce on Discord). A PostgreSQL database is backed up with `pg_dump` instead (the
README, "Backups", gives the commands). Exit status: 0 copied, 1 the copy failed, 2
nothing to copy from or a FILE that is already there (without --replace).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sqlite3
import sys
import time
from pathlib import Path

from bot.core.runtime.errors import StartupError
from bot.core.server.settings import SettingsError, load_settings

from .core.store import is_postgres, masked, open_store

PG_DUMP = "pg_dump --format=custom --no-owner --file={file} '{url}'"
"""What to run for a PostgreSQL database (the README's "Backups" restores it)."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bash scripts/run-bot.sh backup",
        description=(
            "Copy the bot's SQLite database into FILE while the bot runs (SQLite's online "
            "backup: one consistent snapshot). To restore: stop the bot, put the copy in "
            "place of the database (README, 'Backups'), start the bot."
        ),
    )
    parser.add_argument("--to", dest="target", required=True, help="the file to write")
    parser.add_argument(
        "--from",
        dest="source",
        help="the database file (default: MONTANA_DB, from the environment or .env)",
    )
    parser.add_argument("--replace", action="store_true", help="overwrite FILE if it exists")
    return parser.parse_args(argv)


def backup(source: Path, target: Path) -> int:
    """Copy the SQLite database `source` into `target` (atomically); its page count."""
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        pages = _copy(source, partial)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, target)
    return pages


def _copy(source: Path, partial: Path) -> int:
    # read-only: the backup never changes the bot's database (nor makes one up)
    with (
        contextlib.closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as db,
        contextlib.closing(sqlite3.connect(partial)) as copy,
    ):
        db.backup(copy)  # every page in one step: one snapshot
    asyncio.run(make_ready_for_restoring(str(partial)))
    with contextlib.closing(sqlite3.connect(partial)) as copy:
        check = copy.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            raise sqlite3.DatabaseError(f"the copy fails its integrity check: {check}")
        # a plain file of its own, with no -wal beside it to go missing
        copy.execute("PRAGMA journal_mode=DELETE")
        return int(copy.execute("PRAGMA page_count").fetchone()[0])


async def make_ready_for_restoring(database: str, *, exclusive: bool = False) -> int:
    """By the time a copy is restored the players' messages show later moves: the bot
    started on it posts every game's prompt afresh (the old ones lose their buttons),
    with nonces the bot that went on never used. How many games are under way in it."""
    store = await open_store(database, exclusive=exclusive)
    try:
        await store.ready_for_restoring()
        # the messages it owes then get ids the bot that went on never used: ids from
        # this moment in milliseconds on (no bot owes 1,000 messages a second)
        await store.outbox_ids_from(int(time.time() * 1000))
        return sum(count for _, count in await store.active_games_by_guild())
    finally:
        await store.close()


def restored_main(argv: list[str]) -> int:
    """`python -m bot restored`: ready a database just restored (`pg_restore`) to be
    played on (what `backup` does to its copies)."""
    parser = argparse.ArgumentParser(
        prog="bash scripts/run-bot.sh restored",
        description=(
            "After restoring a PostgreSQL dump (pg_restore), with the bot stopped: mark every "
            "game under way so the bot posts its prompt afresh at start, and number the next "
            "messages past those the old database used. (A SQLite copy made by 'backup' is "
            "ready already.)"
        ),
    )
    parser.add_argument("--db", help="the database (default: MONTANA_DB)")
    options = parser.parse_args(argv)
    database = options.db
    if database is None:
        try:
            database = load_settings().db_path
        except SettingsError as error:
            print(f"Setting error: {error}", file=sys.stderr)
            return 2
    if not is_postgres(database) and not Path(database).is_file():
        print(f"No database file at {database}.", file=sys.stderr)
        return 2
    try:
        games = asyncio.run(make_ready_for_restoring(database, exclusive=True))
    except StartupError as error:
        print(error, file=sys.stderr)
        return 1
    print(
        f"{masked(database)} is ready: the bot posts the prompt of its {games} game(s) "
        "under way afresh when it starts."
    )
    return 0


def main(argv: list[str]) -> int:
    options = parse_args(argv)
    source_setting = options.source
    if source_setting is None:
        try:
            source_setting = load_settings().db_path
        except SettingsError as error:
            print(f"Setting error: {error}", file=sys.stderr)
            return 2
    if is_postgres(source_setting):
        print(
            "MONTANA_DB is a PostgreSQL database: back it up with pg_dump, e.g.\n    "
            + PG_DUMP.format(file=options.target, url=masked(source_setting))
            + "\n(docs/operators.md, 'Backups', also says how to restore it).",
            file=sys.stderr,
        )
        return 2
    source, target = Path(source_setting), Path(options.target)
    if not source.is_file():
        print(f"No database file at {source}: nothing to back up.", file=sys.stderr)
        return 2
    if target.exists() and not options.replace:
        print(f"{target} exists already; choose another file or add --replace.", file=sys.stderr)
        return 2
    if target.resolve() == source.resolve():
        print("The copy cannot be the database itself; choose another file.", file=sys.stderr)
        return 2
    try:
        pages = backup(source, target)
    except (sqlite3.Error, OSError) as error:
        print(f"The backup of {source} failed: {error}", file=sys.stderr)
        return 1
    print(f"Copied {source} into {target} ({pages} pages), consistent as of now.")
    return 0


__all__ = ["PG_DUMP", "backup", "main", "make_ready_for_restoring", "restored_main"]
