"""Copying every row of one store into another (`python -m bot migrate`): a SQLite file
into PostgreSQL when a bot outgrows one process.

Both stores are opened (so migrated to the same schema version) before the copy; every
table of the source (those other modules added too) is copied with its ids, `games`
first, in one transaction of the target, which then moves its id sequences past them.
A target that already holds games is refused unless `replace` (its rows are deleted
first, in the same transaction).
"""

from __future__ import annotations

from .base import Store


class TargetNotEmpty(Exception):
    """The target already holds games (nothing was written)."""


async def copy_database(source: Store, target: Store, *, replace: bool = False) -> dict[str, int]:
    """Copy every row of `source` into `target`; the number of rows per table."""
    tables = await source.tables()
    missing = set(tables) - set(await target.tables())
    if missing:
        raise ValueError(f"the target has no table {', '.join(sorted(missing))}")
    held = await target.query("SELECT COUNT(*) FROM games")
    if int(held[0][0]) and not replace:
        raise TargetNotEmpty(f"the target already holds {int(held[0][0])} games")
    copied: dict[str, int] = {}
    async with target._writing() as tx:
        for table in reversed(tables):  # the tables referring to games go first
            await tx.execute(f"DELETE FROM {table}")
        for table in tables:
            rows = await source.query(f"SELECT * FROM {table}")
            copied[table] = len(rows)
            if not rows:
                continue
            columns = list(rows[0].keys())
            names = ", ".join(columns)
            marks = ", ".join("?" for _ in columns)
            await tx.execute_many(
                f"INSERT INTO {table} ({names}) VALUES ({marks})",
                [tuple(row[column] for column in columns) for row in rows],
            )
    await target.after_copy()
    return copied


__all__ = ["TargetNotEmpty", "copy_database"]
