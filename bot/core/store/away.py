"""Players away (notifications are `prefs`): the away itself, the seats its AI plays
meanwhile (`away_seats`) and their hand-over and give-back, the end of an away with
the restart of the clocks awaiting them (mixed into `base.Store`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from .model import ACTIVE, Away, GameRow, OwedMessage, StaleVersion, moment_of, stamp_of
from .outbox import owed_inserts
from .parts import Row, Statement, StoreParts, guarded
from .rows import game_row, taken_over_update


def _away(row: Row) -> Away:
    return Away(
        user_id=row["user_id"],
        since=moment_of(row["since"]),
        until=moment_of(row["until"]),
        mode=row["mode"],
    )


class AwayTables(StoreParts):
    """Mixed into `base.Store`: players away and the seats handed to the AI."""

    @guarded
    async def aways(self, user_ids: Sequence[str] | None = None) -> dict[str, Away]:
        """The players marked away (those of `user_ids`, or all), by user id. An away
        whose time is up is still here until `end_away` (see `Away.active_at`)."""
        if user_ids is None:
            rows = await self._read("SELECT * FROM away")
        elif not user_ids:
            return {}
        else:
            marks = ", ".join("?" for _ in user_ids)
            rows = await self._read(f"SELECT * FROM away WHERE user_id IN ({marks})", user_ids)
        return {row["user_id"]: _away(row) for row in rows}

    @guarded
    async def active_games_of(self, user_id: str) -> list[GameRow]:
        """The games under way in which `user_id` plays."""
        rows = await self._read(
            "SELECT * FROM games WHERE status = ? AND players LIKE ? ORDER BY id",
            (ACTIVE, f"%{user_id}%"),
        )
        games = [game_row(row) for row in rows]
        mine = {game.id for game in games if game.has_player(user_id)}
        return await self._rows([row for row in rows if row["id"] in mine])

    async def set_away(self, away: Away, owed: Sequence[tuple[int, OwedMessage]]) -> None:
        """Mark a player away (replacing an earlier away), with the notices it owes the
        players of their games (game id, message), in one transaction. The seats the
        player took back from the AI during an earlier away are forgotten: the new away
        hands every game over again if its mode says so (`hand_away_seats`)."""
        stamp = stamp_of(datetime.now(UTC))
        statements: list[Statement] = [
            (
                "INSERT INTO away (user_id, since, until, mode) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET since = excluded.since, "
                "until = excluded.until, mode = excluded.mode",
                (away.user_id, stamp_of(away.since), stamp_of(away.until), away.mode),
            ),
            (
                "DELETE FROM away_seats WHERE user_id = ? AND reclaimed = 1",
                (away.user_id,),
            ),
        ]
        for game_id, message in owed:
            statements += owed_inserts(game_id, [message], stamp)
        await self.transaction(statements)

    @guarded
    async def away_seats(self, user_id: str) -> dict[int, bool]:
        """The games whose seat `user_id`'s away handed to the AI: game id -> whether
        the player took that seat back meanwhile."""
        rows = await self._read(
            "SELECT game_id, reclaimed FROM away_seats WHERE user_id = ? ORDER BY game_id",
            (user_id,),
        )
        return {int(row["game_id"]): bool(row["reclaimed"]) for row in rows}

    @guarded
    async def users_with_away_seats(self) -> list[str]:
        """Everyone with a seat recorded in `away_seats` (start-up puts them right)."""
        rows = await self._read("SELECT DISTINCT user_id FROM away_seats ORDER BY user_id")
        return [str(row["user_id"]) for row in rows]

    @staticmethod
    def _seat_changes(
        user_id: str, hand_over: Sequence[GameRow], give_back: Sequence[GameRow]
    ) -> list[Statement]:
        """The updates of `games.taken_over` of an away's hand-over and give-back, each
        guarded by the row's `taken_over` as read (each must touch its row)."""
        return [
            *(
                taken_over_update(row.id, {*row.taken_over, user_id}, row.taken_over)
                for row in hand_over
            ),
            *(
                taken_over_update(row.id, set(row.taken_over) - {user_id}, row.taken_over)
                for row in give_back
            ),
        ]

    async def hand_away_seats(
        self, user_id: str, hand_over: Sequence[GameRow], give_back: Sequence[GameRow]
    ) -> bool:
        """In one transaction: the AI takes `user_id`'s seat in the games `hand_over`
        (recorded in `away_seats`) and gives it back in the games `give_back` (their
        records dropped), each game only if its `taken_over` is still as its row says
        and it is under way. False, and nothing written, if one of them changed."""
        guarded = self._seat_changes(user_id, hand_over, give_back)
        records: list[Statement] = [
            (
                "INSERT INTO away_seats (user_id, game_id, reclaimed) VALUES (?, ?, 0) "
                "ON CONFLICT (user_id, game_id) DO UPDATE SET reclaimed = 0",
                (user_id, row.id),
            )
            for row in hand_over
        ]
        records += [
            ("DELETE FROM away_seats WHERE user_id = ? AND game_id = ?", (user_id, row.id))
            for row in give_back
        ]
        try:
            await self._checked_each(guarded, records, f"a game of {user_id} changed meanwhile")
        except StaleVersion:
            return False
        return True

    async def end_away(
        self,
        user_id: str,
        at: datetime,
        *,
        only_until: datetime | None = None,
        restarts: Sequence[tuple[int, int]] = (),
        owed: Sequence[tuple[int, OwedMessage]] = (),
        give_back: Sequence[GameRow] = (),
    ) -> bool:
        """End a player's away at `at`, in one transaction with the restart of the clocks
        of the decisions awaited from them (game id, version: the clock of that version
        starts at `at`, its reminders counted afresh), the notices it owes, and the
        seats the AI gives back (`give_back`, as in `hand_away_seats`; every record of
        `away_seats` of theirs is dropped). With `only_until`, only an away ending then
        (not one changed meanwhile). False, and nothing written, when there is no such
        away or a game of `give_back` changed meanwhile."""
        guard, params = "", [user_id]
        if only_until is not None:
            guard = " AND until = ?"
            params.append(stamp_of(only_until))
        moment, stamp = stamp_of(at), stamp_of(datetime.now(UTC))
        guarded = [
            # kept for the answer times of the statistics (`bot.core.community.ratings`)
            (
                "INSERT INTO away_periods (user_id, since, back_at) "
                "SELECT user_id, since, ? FROM away WHERE user_id = ?" + guard,
                (moment, *params),
            ),
            ("DELETE FROM away WHERE user_id = ?" + guard, tuple(params)),
            *self._seat_changes(user_id, (), give_back),
        ]
        statements: list[Statement] = [("DELETE FROM away_seats WHERE user_id = ?", (user_id,))]
        for game_id, version in restarts:
            statements += [
                (
                    "INSERT INTO deadline_restarts (game_id, version, at) VALUES (?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, "
                    "at = excluded.at",
                    (game_id, version, moment),
                ),
                (
                    "INSERT INTO reminders (game_id, version, sent, last_at) "
                    "VALUES (?, ?, 0, ?) ON CONFLICT (game_id) DO UPDATE SET "
                    "version = excluded.version, sent = 0, last_at = excluded.last_at",
                    (game_id, version, at.astimezone(UTC).isoformat(timespec="seconds")),
                ),
            ]
        for game_id, message in owed:
            statements += owed_inserts(game_id, [message], stamp)
        try:
            await self._checked_each(guarded, statements, f"{user_id} is not away (any more)")
        except StaleVersion:
            return False
        return True


__all__ = ["AwayTables"]
