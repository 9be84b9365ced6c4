"""The pictures drawn for each game version (issue 37.3), kept beside the games in
`drawn_pictures` and mixed into `base.Store`: one row per game, undo epoch, version and
language, whatever drew it (the bot's post, a replay step, a web page), so that every
surface serves the same picture instead of drawing it again
(`bot.core.delivery.kept_pictures` decides when to draw).

`inputs` says what else the drawing took (the highlighted field, the names, the notes by
them): the bot redraws a version whose notes changed; the pages and the steps take
whatever was drawn for the version. The table has a size bound (`keep_drawn`'s `bound`,
in bytes): past it the pictures of games that are over go first, then those used least
recently, down to `LOW_WATER` of the bound, so that eviction runs now and then rather
than at every picture.

The web process opens the store read-only; it writes this one table through
`_picture_writing`, which each database gives it (a writable connection kept for it),
and nothing else."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import UTC, datetime

from .model import stamp_of
from .parts import StoreParts, Tx, guarded

LOW_WATER = 0.9
"""Eviction goes down to this part of the bound (then a few pictures fit before the next)."""


@dataclass(frozen=True)
class DrawnKey:
    """Which picture: a game's version (in an undo epoch) in a language."""

    game_id: int
    epoch: int
    version: int
    language: str


@dataclass(frozen=True)
class Drawn:
    """A kept picture, what it was drawn from (`inputs`) and when it was last used."""

    png: bytes
    inputs: str
    used_at: str


def _now() -> str:
    return stamp_of(datetime.now(UTC))  # milliseconds: the order of use within a second


_WHERE = "game_id = ? AND undo_epoch = ? AND version = ? AND language = ?"


def _params(key: DrawnKey) -> tuple[int, int, int, str]:
    return (key.game_id, key.epoch, key.version, key.language)


FORGET_DRAWN = (
    "DELETE FROM drawn_pictures WHERE game_id IN (SELECT game_id FROM game_seats WHERE user_id = ?)"
)
"""What a player's forget deletes here: every picture of their games, which shows their
name (`RatingTables.forget_player` runs it in its transaction)."""


class DrawnTables(StoreParts):
    """Mixed into `Store`: reads through `_read`, writes through `_picture_writing`."""

    def _picture_writing(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """A transaction for `drawn_pictures` alone: the store's own, except in a store
        opened read-only (the web process), which gives one for this table."""
        return self._writing()

    @guarded
    async def drawn_picture(self, key: DrawnKey) -> Drawn | None:
        """The picture kept for `key`, if any."""
        rows = await self._read(
            f"SELECT png, inputs, used_at FROM drawn_pictures WHERE {_WHERE}", _params(key)
        )
        if not rows:
            return None
        row = rows[0]
        return Drawn(bytes(row["png"]), str(row["inputs"]), str(row["used_at"]))

    @guarded
    async def keep_drawn(self, key: DrawnKey, png: bytes, inputs: str, *, bound: int) -> int:
        """Keep `png` for `key` (replacing what was kept for it), then, past `bound` bytes
        in all, evict (see the module's docstring); how many bytes were evicted."""
        at = _now()
        async with self._picture_writing() as tx:
            await tx.execute(
                "INSERT INTO drawn_pictures (game_id, undo_epoch, version, language, inputs, "
                "png, size, drawn_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, undo_epoch, version, language) DO UPDATE SET "
                "inputs = excluded.inputs, png = excluded.png, size = excluded.size, "
                "drawn_at = excluded.drawn_at, used_at = excluded.used_at",
                (*_params(key), inputs, png, len(png), at, at),
            )
            return await _evict(tx, key, bound)

    @guarded
    async def touch_drawn(self, key: DrawnKey) -> None:
        """`key`'s picture was used now (eviction takes the least recently used first)."""
        async with self._picture_writing() as tx:
            await tx.execute(
                f"UPDATE drawn_pictures SET used_at = ? WHERE {_WHERE}", (_now(), *_params(key))
            )

    @guarded
    async def drawn_totals(self) -> tuple[int, int]:
        """How many pictures are kept, and their bytes in all."""
        rows = await self._read("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM drawn_pictures")
        return int(rows[0][0]), int(rows[0][1])


async def _evict(tx: Tx, kept: DrawnKey, bound: int) -> int:
    rows = await tx.fetch("SELECT COALESCE(SUM(size), 0) FROM drawn_pictures")
    total = int(rows[0][0])
    if total <= bound:
        return 0
    goal = total - int(bound * LOW_WATER)
    candidates = await tx.fetch(
        "SELECT d.game_id, d.undo_epoch, d.version, d.language, d.size FROM drawn_pictures d "
        "LEFT JOIN games g ON g.id = d.game_id "
        "ORDER BY CASE WHEN g.status IN ('lobby', 'active') THEN 1 ELSE 0 END, d.used_at, "
        "d.game_id, d.version"
    )
    gone: list[tuple[int, int, int, str]] = []
    freed = 0
    for row in candidates:
        if freed >= goal:
            break
        params = (int(row[0]), int(row[1]), int(row[2]), str(row[3]))
        if params == _params(kept):
            continue  # the picture just kept stays, whatever its age
        gone.append(params)
        freed += int(row[4])
    if gone:
        await tx.execute_many(f"DELETE FROM drawn_pictures WHERE {_WHERE}", gone)
    return freed


__all__ = ["FORGET_DRAWN", "LOW_WATER", "Drawn", "DrawnKey", "DrawnTables"]
