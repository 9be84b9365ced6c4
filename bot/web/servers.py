"""A server's page and its players' pages (issue 28):

    /s/<token>                      the leaderboard, the games under way, recent results
    /s/<token>/p/<user id>          a player's record, as `/montana stats` shows it
    /s/<token>/p/<user id>/rating.png   the chart of their rating

A token nobody was given, a server that switched its web pages off, a player who hides
their statistics (`/montana me stats hidden:`), an AI level, a player with no finished
game there, or any player's page of a server whose statistics are off answer 404 alike
(the application's middleware words it). Read-only: the bot makes the tokens when it
links the pages (`Store.server_web_token`, `Store.web_token`).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from aiohttp import web

from bot.core.community import standings as community
from bot.core.community import stats
from bot.core.community.ratings import statistics_enabled
from bot.core.community.seasons import ALL_TIME
from bot.core.server.server_settings import server_settings
from i18n import Language, translator

from ..core.store import ACTIVE, GameRow, Store
from .pages import language_of
from .server_pages import GameLine, board_lines, game_line, player_page, server_page
from .tournament_pages import tournament_list

BOARD_SHOWN = 100
"""The leaderboard's lines on the server's page (Discord pages through the rest)."""
GAMES_SHOWN = 50
"""The games under way listed (the oldest first, as the moderators' list)."""
RESULTS_SHOWN = 10
CHARTS_KEPT = 64
LINES_KEPT = 1024
"""Games' lines kept worded (a few servers' pages in a few languages)."""


class ServerPages:
    """The handlers, on the application's store; the games' lines and the charts are
    kept by what they show (a move words a game again, a new rated game draws anew)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._charts: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
        self._lines: OrderedDict[tuple[object, ...], GameLine | None] = OrderedDict()

    async def _server(self, request: web.Request) -> tuple[int, str]:
        """The server of the address's token, or 404 (no such token, web pages off)."""
        found = await self.store.server_by_web_token(request.match_info["token"])
        if found is None or not (await server_settings(self.store, found[0])).web:
            raise web.HTTPNotFound()
        return found

    async def _player(self, request: web.Request) -> tuple[str, str, community.PlayerRecord]:
        """The server's name, the player's id and record, or 404 (see the module)."""
        guild_id, server_name = await self._server(request)
        user_id = request.match_info["user"]
        if not user_id.isdigit() or not await statistics_enabled(self.store, guild_id):
            raise web.HTTPNotFound()  # an AI level's pseudo-player is never a person
        # all time: a player of the leaderboard's season has an all-time record too
        record = await community.player_record(self.store, guild_id, user_id, period=ALL_TIME)
        if record.hidden or record.stats is None:
            raise web.HTTPNotFound()
        return server_name, user_id, record

    async def server(self, request: web.Request) -> web.Response:
        guild_id, server_name = await self._server(request)
        language = _language(request)
        board = None
        more = 0
        season: str | None = None
        champions: list[str] = []
        if await statistics_enabled(self.store, guild_id):
            read = await community.leaderboard_page(self.store, guild_id, 1, BOARD_SHOWN)
            board = board_lines(read)
            more = read.players - len(board)
            t = translator(language)
            if read.period.season is not None:
                season = stats.season_text(read.period.season, t)
            champions = stats.champions_lines(read.period.past, t)
        rows = await self.store.games_open_in_guild(guild_id, GAMES_SHOWN)
        under_way = [row for row in rows if row.status == ACTIVE]
        over = await self.store.games_over_in_guild(guild_id, RESULTS_SHOWN)
        tokens = await self.store.web_tokens_of([row.id for row in under_way + over])
        playing = await self._game_lines(under_way, tokens, language)
        ended = await self._game_lines(over, tokens, language)
        tournaments = tournament_list(
            request.match_info["token"], await self.store.tournaments_of(guild_id), language
        )
        page = server_page(
            request.match_info["token"],
            server_name,
            board,
            more,
            playing,
            ended,
            language,
            tournaments=tournaments,
            season=season,
            champions=champions,
        )
        return _html(page)

    async def _game_lines(
        self, rows: list[GameRow], tokens: dict[int, str], language: Language
    ) -> list[GameLine]:
        """Each game's line, worded off the event loop the first time its state (by
        its version, undo epoch and status), its names and its link are shown in a
        language; kept while the server's pages are looked at."""
        t = translator(language)

        def key_of(row: GameRow) -> tuple[object, ...]:
            seats = tuple((seat.user_id, seat.name) for seat in row.players)
            marks = (row.version, row.undo_epoch, row.status, row.updated_at)
            return (row.id, *marks, seats, tokens.get(row.id), language)

        keys = [key_of(row) for row in rows]
        found = {key: self._lines[key] for key in keys if key in self._lines}
        missing = [(key, row) for key, row in zip(keys, rows, strict=True) if key not in found]
        if missing:
            made = await asyncio.to_thread(
                lambda: [game_line(row, tokens.get(row.id), t) for _, row in missing]
            )
            for (key, _), line in zip(missing, made, strict=True):
                found[key] = self._lines[key] = line
            while len(self._lines) > LINES_KEPT:
                self._lines.popitem(last=False)
        return [line for key in keys if (line := found[key]) is not None]

    async def player(self, request: web.Request) -> web.Response:
        server_name, user_id, record = await self._player(request)
        language = _language(request)
        return _html(
            player_page(request.match_info["token"], server_name, user_id, record, language)
        )

    async def chart(self, request: web.Request) -> web.Response:
        _, user_id, record = await self._player(request)
        assert record.stats is not None and record.name is not None
        language = _language(request)
        key = (
            request.match_info["token"],
            user_id,
            record.name,
            tuple(record.stats.history),
            record.place,
            language,
        )
        png = self._charts.get(key)
        if png is None:
            png = await community.rating_chart_of(
                record.name, record.stats, record.place, translator(language)
            )
            if png is None:
                raise web.HTTPNotFound()
            self._charts[key] = png
            while len(self._charts) > CHARTS_KEPT:
                self._charts.popitem(last=False)
        else:
            self._charts.move_to_end(key)
        return web.Response(
            body=png, content_type="image/png", headers={"Cache-Control": "no-cache"}
        )


def _language(request: web.Request) -> Language:
    return language_of(request.query.get("lang"), request.headers.get("Accept-Language"))


def _html(text: str) -> web.Response:
    return web.Response(
        text=text,
        content_type="text/html",
        headers={"Cache-Control": "no-store", "Vary": "Accept-Language"},
    )


def add_server_routes(app: web.Application, store: Store) -> None:
    """Serve the servers' and players' pages from `store` in `app`."""
    pages = ServerPages(store)
    app.router.add_get("/s/{token}", pages.server)
    app.router.add_get("/s/{token}/p/{user}", pages.player)
    app.router.add_get("/s/{token}/p/{user}/rating.png", pages.chart)


__all__ = ["ServerPages", "add_server_routes"]
