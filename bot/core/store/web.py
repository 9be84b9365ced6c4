"""The store's statements for the web pages (issue 28), mixed into `base.Store`: each
game's and each server's page token, the one small read that tells the open pages a
game moved, and a server's recent results (its page)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Protocol

from .model import ENDED, FINISHED, GameRow
from .parts import StoreParts

OVER_WINDOW = 3
"""A server page's results are the latest to end among this many times as many latest
opened games (`WebTables.games_over_in_guild`)."""
TOKEN_BYTES = 18
"""A page token's randomness (24 URL-safe characters): never guessed, never the id."""
MOVES_CHANNEL = "montana_moves"
"""PostgreSQL's notification channel of the games that moved (payload: the game id),
notified by the `games_moved` trigger of the schema."""

Moved = Callable[[int | None], None]
"""Told a game id when that game moved, None when the listening stopped (a lost
connection: anything may have moved since)."""


class MoveListener(Protocol):
    """A connection listening for moves (`WebTables.listen_moves`)."""

    @property
    def listening(self) -> bool: ...

    async def close(self) -> None: ...


class WebTables(StoreParts):
    """Mixed into `Store`: these use its `query` and `transaction` (both guarded)."""

    async def web_token(self, game_id: int) -> str:
        """The game's page token, made (at random) the first time it is asked for."""
        await self.transaction(
            [
                (
                    "INSERT INTO web_tokens (game_id, token) VALUES (?, ?) "
                    "ON CONFLICT (game_id) DO NOTHING",
                    (game_id, secrets.token_urlsafe(TOKEN_BYTES)),
                )
            ]
        )
        rows = await self.query("SELECT token FROM web_tokens WHERE game_id = ?", (game_id,))
        return str(rows[0]["token"])

    async def game_by_web_token(self, token: str) -> GameRow | None:
        """The game whose page token is `token` (None: no such page)."""
        rows = await self.query(
            "SELECT g.* FROM games g JOIN web_tokens w ON w.game_id = g.id WHERE w.token = ?",
            (token,),
        )
        found = await self._rows(rows)
        return found[0] if found else None

    async def server_web_token(self, guild_id: int, name: str) -> str:
        """The server's page token, made (at random) the first time it is asked for;
        `name` (the server's, as Discord says it now) is kept to head the page."""
        await self.transaction(
            [
                (
                    "INSERT INTO web_server_tokens (guild_id, token, name) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id) DO UPDATE SET name = excluded.name "
                    "WHERE web_server_tokens.name <> excluded.name",
                    (guild_id, secrets.token_urlsafe(TOKEN_BYTES), name),
                )
            ]
        )
        rows = await self.query(
            "SELECT token FROM web_server_tokens WHERE guild_id = ?", (guild_id,)
        )
        return str(rows[0]["token"])

    async def server_page_of(self, guild_id: int) -> tuple[str, str] | None:
        """The server's page (its token and name), if the bot has linked it (None: the
        web pages only read, so a server never linked has no page yet)."""
        rows = await self.query(
            "SELECT token, name FROM web_server_tokens WHERE guild_id = ?", (guild_id,)
        )
        return (str(rows[0]["token"]), str(rows[0]["name"])) if rows else None

    async def server_by_web_token(self, token: str) -> tuple[int, str] | None:
        """The server (its id and name) whose page token is `token` (None: no such page)."""
        rows = await self.query(
            "SELECT guild_id, name FROM web_server_tokens WHERE token = ?", (token,)
        )
        return (int(rows[0]["guild_id"]), str(rows[0]["name"])) if rows else None

    async def web_tokens_of(self, game_ids: Sequence[int]) -> dict[int, str]:
        """The page tokens these games have (a game never linked yet has none: only the
        bot makes them, the web pages only read)."""
        if not game_ids:
            return {}
        marks = ", ".join("?" for _ in game_ids)
        rows = await self.query(
            f"SELECT game_id, token FROM web_tokens WHERE game_id IN ({marks})",
            tuple(game_ids),
        )
        return {int(r["game_id"]): str(r["token"]) for r in rows}

    async def games_over_in_guild(self, guild_id: int, limit: int) -> list[GameRow]:
        """A server's games that ended (played to the end, or ended by a vote), the
        latest to end first, at most `limit`: among its `OVER_WINDOW` times `limit`
        latest opened, since those ids come from the index `games_guild_status` alone
        (ordering every game of a server by its end would read every one of its rows:
        52 ms for 3,000 games on SQLite)."""
        ids = await self.query(
            "SELECT id FROM games WHERE guild_id = ? AND status IN (?, ?) ORDER BY id DESC LIMIT ?",
            (guild_id, FINISHED, ENDED, limit * OVER_WINDOW),
        )
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = await self._rows(
            await self.query(
                f"SELECT * FROM games WHERE id IN ({marks})", tuple(int(r["id"]) for r in ids)
            )
        )
        rows.sort(key=lambda row: (row.updated_at, row.id), reverse=True)
        return rows[:limit]

    async def web_page_mark(self, token: str) -> tuple[int, int | None, int, int] | None:
        """The started game whose page token is `token`: (id, guild id, version, undo
        epoch), without its state; None: no such page. The small read each request of an
        open page makes (the whole game is read once per version)."""
        rows = await self.query(
            "SELECT g.id, g.guild_id, g.version, g.undo_epoch FROM games g "
            "JOIN web_tokens w ON w.game_id = g.id WHERE w.token = ? AND g.state IS NOT NULL",
            (token,),
        )
        if not rows:
            return None
        row = rows[0]
        guild = row["guild_id"]
        return (
            int(row["id"]),
            None if guild is None else int(guild),
            int(row["version"]),
            int(row["undo_epoch"]),
        )

    async def game_versions(self, game_ids: Sequence[int]) -> dict[int, tuple[int, int]]:
        """Each game's (version, undo epoch): one small read for every open page."""
        if not game_ids:
            return {}
        marks = ", ".join("?" for _ in game_ids)
        rows = await self.query(
            f"SELECT id, version, undo_epoch FROM games WHERE id IN ({marks})", tuple(game_ids)
        )
        return {int(r["id"]): (int(r["version"]), int(r["undo_epoch"])) for r in rows}

    async def listen_moves(self, moved: Moved) -> MoveListener | None:
        """Have `moved` told of each game that moves, as its move commits, until the
        listener is closed; None where the database tells nobody (SQLite: the pages
        poll `game_versions`)."""
        return None


__all__ = ["MOVES_CHANNEL", "TOKEN_BYTES", "MoveListener", "Moved", "WebTables"]
