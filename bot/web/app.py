"""The aiohttp application: a game's page, its pictures, its live updates.

    /g/<token>                     the page (?lang= en|fr|pl|ja, else Accept-Language)
    /g/<token>/state.json          the page's words now (what an open page fetches)
    /g/<token>/events              server-sent events: the page's words (state.json's JSON,
                                   ?lang= as the page) now and each time the game moves
    /g/<token>/picture/<mark>.png  the picture of the game at that mark (cached for good)
    /g/<token>/turn/<n>.png        the game at the end of turn n (the replay slider)
    /g/<token>/targets.json        where the live picture's touchable parts lie
                                   (`render.targets`; ?version=<mark> as the picture's
                                   address, ?lang= as the picture: its header's words
                                   set where the rest lies)
    /static/...                    the page's scripts and style (nothing inline), and the
                                   Activity's bundle (`bot.web.activity`)

Served by the bot's own process only (`make_app(..., service=, oauth=)`), the board's
writes: signing in with Discord (`signin`: /signin, /signin/callback, /signin/me.json,
/signout), the Activity inside Discord (`activity`: /activity, /activity/session,
/activity/games.json), the page's moves (`moves`: POST /g/<token>/move, through the game
service as a button press) and the decision's choices laid on the board (`board`:
/g/<token>/choices.json; the page then loads /static/board.js).

A token nobody was given, a game of a server that switched its web pages off
(`bot.core.server.server_settings.WEB`) or a game not started answer 404 alike; so does a
turn the game does not have (negative, past its last, not a number), before anything is
drawn. The pictures are those the bot drew (issue 37.3: one drawing per version, kept
beside the games by `bot.core.delivery.kept_pictures`): a version the bot posted is
served as it posted it, and the web draws (in a thread, with the same renderer) only
what nobody drew or what was evicted, once, and keeps it there for the next request
and for the replay's step view in Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.core.community.replays import draw_turn, turn_versions
from bot.core.delivery.kept_pictures import DEFAULT_BOUND_BYTES, PictureShelf, inputs_of
from bot.core.play.service import GameService, Outcome
from bot.core.server.server_settings import server_settings
from bot.core.wording import words
from i18n import Language, translator
from render import render_game
from render.replay import turn_count
from render.targets import snapshot_targets
from rules import Game

from ..core.store import ACTIVE, OPEN_STATUSES, PICTURES_EVERY_MOVE, DrawnKey, GameRow, Store
from .activity import ACTIVITY_POLICY, add_activity_routes
from .board import GAME_OF, add_board_routes
from .live import POLL_SECONDS, SAFETY_POLL_SECONDS, Watcher
from .moves import Hinter, TapRate, add_move_routes
from .pages import GameWords, game_page, language_of, mark_of, not_found_page
from .servers import add_server_routes
from .signin import Clock, OAuth, add_signin_routes, utcnow
from .tournament_pages import add_tournament_routes
from .turn_words import KeptWords

log = logging.getLogger("bot.web")

STATIC = Path(__file__).parent / "static"
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
KEPT = 256
"""Pictures and page words kept drawn (a few open games' marks, languages and turns)."""
NAMES_SECONDS = 5.0
"""How long a game that is over is trusted as read before it is read again: its version
never changes, but `/montana me forget` renames a player in it, and a running web
process shows the new name within this."""
SETTINGS_SECONDS = 5.0
"""How long a server's web switch is trusted before it is read again (every request of
every open page read it): a server switching its pages off sees them 404 within this."""
HEARTBEAT_SECONDS = 15.0
"""A comment line on an idle event stream, so that proxies keep it open."""
BOT_DRAWS_SECONDS = 3.0
"""How long the picture of a game's new version waits for the bot's, which it is
drawing for its post (an open page asks as soon as the move is saved), before the web
draws it itself."""


class Kept:
    """What was drawn or worded last, by key; one drawing per key at a time."""

    def __init__(self, size: int = KEPT) -> None:
        self._size = size
        self._done: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._drawing: dict[tuple[Any, ...], asyncio.Task[Any]] = {}

    def has(self, key: tuple[Any, ...]) -> bool:
        return key in self._done

    async def get(self, key: tuple[Any, ...], make: Callable[[], Awaitable[Any]]) -> Any:
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key]
        task = self._drawing.get(key)
        if task is None:
            task = asyncio.ensure_future(make())
            self._drawing[key] = task
            try:
                value = await task
            finally:
                del self._drawing[key]
            self._done[key] = value
            while len(self._done) > self._size:
                self._done.popitem(last=False)
            return value
        return await asyncio.shield(task)


STORE: web.AppKey[Store] = web.AppKey("store", Store)
WATCHER: web.AppKey[Watcher] = web.AppKey("watcher", Watcher)
KEPT_DRAWN: web.AppKey[Kept] = web.AppKey("kept", Kept)
SHELF: web.AppKey[PictureShelf] = web.AppKey("shelf", PictureShelf)
"""The pictures kept per version beside the games (the bot's and the web's drawings)."""
KEPT_WORDS: web.AppKey[KeptWords] = web.AppKey("kept_words", KeptWords)
"""The games' turns kept folded and worded, for their pages' logs."""


class WebSwitches:
    """Whether each server's web pages are on, read again after `seconds` (0: always)."""

    def __init__(self, store: Store, seconds: float) -> None:
        self._store = store
        self._seconds = seconds
        self._read: dict[int, tuple[float, bool]] = {}

    async def on(self, guild_id: int) -> bool:
        now = time.monotonic()
        read = self._read.get(guild_id)
        if read is not None and now - read[0] < self._seconds:
            return read[1]
        on = (await server_settings(self._store, guild_id)).web
        if self._seconds > 0:
            self._read[guild_id] = (now, on)
        return on


WEB_SWITCHES: web.AppKey[WebSwitches] = web.AppKey("web_switches", WebSwitches)
NAMES_TRUSTED: web.AppKey[float] = web.AppKey("names_seconds", float)
"""`NAMES_SECONDS`, or what a test gives `make_app`."""
PAGES: web.AppKey[dict[str, tuple[int, int | None]]] = web.AppKey("pages", dict)
"""Each token asked for: its game's id and server (a token never changes game)."""


@web.middleware
async def safety_headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPNotFound:
        response = _not_found(request)
    # the pages Discord frames set their own (the same but for `frame-ancestors`)
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _language(request: web.Request) -> Language:
    return language_of(request.query.get("lang"), request.headers.get("Accept-Language"))


def _not_found(request: web.Request) -> web.Response:
    return web.Response(
        status=404,
        text=not_found_page(_language(request)),
        content_type="text/html",
        headers={"Cache-Control": "no-store"},
    )


async def _game(request: web.Request) -> tuple[GameRow, Game]:
    """The game of the address's token, or 404 (no such token, web pages off, not started)."""
    token = request.match_info["token"]
    found = await request.app[STORE].web_page_mark(token)
    if found is None:
        raise web.HTTPNotFound()
    game_id, guild_id, version, epoch = found
    request.app[PAGES][token] = (game_id, guild_id)
    return await _game_at(request.app, token, game_id, guild_id, f"{version}-{epoch}")


async def _game_at(
    app: web.Application, token: str, game_id: int, guild_id: int | None, mark: str
) -> tuple[GameRow, Game]:
    """The game of `token` at `mark` (read and parsed once per mark), or 404 (web pages
    off, not started)."""
    if guild_id is not None and not await app[WEB_SWITCHES].on(guild_id):
        raise web.HTTPNotFound()

    async def read() -> tuple[GameRow, Game]:
        row = await app[STORE].game_by_web_token(token)
        if row is None or row.state_json is None:
            raise web.HTTPNotFound()
        return row, Game.from_dict(json.loads(row.state_json))

    # the whole game read and parsed once per version, not for each of the requests
    # and event streams of the open pages at a move: the benchmark's profile of the
    # web process found most of its CPU there
    kept: tuple[GameRow, Game] = await app[KEPT_DRAWN].get(("game", game_id, mark), read)
    if kept[0].status not in OPEN_STATUSES:
        # over: no new version will come, but a player forgotten is renamed in it, so
        # it is read again every `NAMES_SECONDS` (one read per game looked at)
        period = app[NAMES_TRUSTED]
        since = int(time.monotonic() // period) if period > 0 else time.monotonic()
        kept = await app[KEPT_DRAWN].get(("game", game_id, mark, since), read)
    return kept


async def _words(request: web.Request, row: GameRow, game: Game) -> GameWords:
    return await _words_in(request.app, row, game, _language(request))


async def _words_in(
    app: web.Application, row: GameRow, game: Game, language: Language
) -> GameWords:
    key = ("words", row.id, mark_of(row), language)

    async def make() -> GameWords:
        # the turns kept folded: a move words its own entries only
        return await app[KEPT_WORDS].words(row, game, language)

    words: GameWords = await app[KEPT_DRAWN].get(key, make)
    return words


async def _event(app: web.Application, row: GameRow, game: Game, language: Language) -> bytes:
    """The event telling open pages the game's words at its mark, encoded once for all."""
    key = ("event", row.id, mark_of(row), language)

    async def make() -> bytes:
        said = await _words_in(app, row, game, language)
        return f"data: {said.to_json()}\n\n".encode()

    event: bytes = await app[KEPT_DRAWN].get(key, make)
    return event


async def page(request: web.Request) -> web.Response:
    row, game = await _game(request)
    said = await _words(request, row, game)
    server = None
    if row.guild_id is not None:
        server = await request.app[STORE].server_page_of(row.guild_id)
    return web.Response(
        text=game_page(
            row,
            said,
            request.match_info["token"],
            _language(request),
            server,
            board=GAME_OF in request.app,
        ),
        content_type="text/html",
        headers={
            "Cache-Control": "no-store",
            "Vary": "Accept-Language",
            # the Activity opens this page inside Discord's frame (`bot.web.activity`)
            "Content-Security-Policy": ACTIVITY_POLICY,
        },
    )


async def state(request: web.Request) -> web.Response:
    row, game = await _game(request)
    said = await _words(request, row, game)
    return web.Response(
        text=said.to_json(),
        content_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


def _png(data: bytes, *, for_good: bool) -> web.Response:
    cache = "public, max-age=31536000, immutable" if for_good else "no-cache"
    return web.Response(body=data, content_type="image/png", headers={"Cache-Control": cache})


async def picture(request: web.Request) -> web.StreamResponse:
    row, game = await _game_shown(request)
    language = _language(request)
    if request.match_info["mark"] != mark_of(row):
        # an old mark: the picture now, at its own address (which may be kept for good)
        raise web.HTTPFound(
            f"/g/{request.match_info['token']}/picture/{mark_of(row)}.png?lang={language}"
        )
    return _png(await _board_now(request, row, game, language), for_good=True)


async def _game_shown(request: web.Request) -> tuple[GameRow, Game]:
    """The game for a picture's address: at the mark an open page was just told of (the
    request every open page makes at a move), without reading the database again;
    otherwise as `_game`."""
    app = request.app
    token = request.match_info["token"]
    asked = request.match_info["mark"]
    page = app[PAGES].get(token)
    if page is not None:
        game_id, guild_id = page
        now = app[WATCHER].mark(game_id)
        if (
            now is not None
            and f"{now[0]}-{now[1]}" == asked
            and app[KEPT_DRAWN].has(("game", game_id, asked))
        ):
            return await _game_at(app, token, game_id, guild_id, asked)
    return await _game(request)


def shown(row: GameRow, language: Language) -> dict[str, str]:
    """The seats' names the pictures show in `language` (a forgotten player's worded)."""
    return words.names_worded(row.names, translator(language))


def _bot_draws(row: GameRow, language: Language) -> bool:
    """Whether the bot draws the picture of `row`'s version for its post (a game under
    way that shows every move, in the game's language)."""
    return row.status == ACTIVE and row.pictures == PICTURES_EVERY_MOVE and row.language == language


async def _board_now(request: web.Request, row: GameRow, game: Game, language: Language) -> bytes:
    """The picture of the game now: the bot's, or drawn once per mark and language."""
    key = ("picture", row.id, mark_of(row), language)

    async def make() -> bytes:
        names = shown(row, language)

        async def draw() -> bytes:
            return await asyncio.to_thread(render_game, game, names=names, language=language)

        return await request.app[SHELF].picture(
            DrawnKey(row.id, row.undo_epoch, row.version, language),
            draw,
            inputs=inputs_of(None, names),
            any_inputs=True,
            wait_seconds=BOT_DRAWS_SECONDS if _bot_draws(row, language) else 0.0,
        )

    png: bytes = await request.app[KEPT_DRAWN].get(key, make)
    return png


async def targets(request: web.Request) -> web.StreamResponse:
    """The regions of the live picture (`render.targets`), laid out as it is drawn: the
    same names and language. A version other than the game's now is sent to the
    regions of the picture now, as an old picture's address is."""
    row, game = await _game(request)
    language = _language(request)
    asked = request.query.get("version")
    if asked is not None and asked != mark_of(row):
        raise web.HTTPFound(
            f"/g/{request.match_info['token']}/targets.json?version={mark_of(row)}&lang={language}"
        )
    key = ("targets", row.id, mark_of(row), language)

    async def make() -> bytes:
        regions = await asyncio.to_thread(
            snapshot_targets, game, names=shown(row, language), language=language
        )
        said = {
            "version": mark_of(row),
            "picture": f"/g/{request.match_info['token']}/picture/{mark_of(row)}.png"
            f"?lang={language}",
            "regions": [region.to_json() for region in regions],
        }
        return json.dumps(said, separators=(",", ":")).encode()

    body: bytes = await request.app[KEPT_DRAWN].get(key, make)
    cache = "public, max-age=31536000, immutable" if asked is not None else "no-cache"
    return web.Response(
        body=body, content_type="application/json", headers={"Cache-Control": cache}
    )


def _turn_of(text: str, game: Game) -> int:
    """The turn an address names, or 404: digits only (no sign), 0 (the setup) to the
    game's last turn."""
    if not (text.isascii() and text.isdigit()) or int(text) > turn_count(game):
        raise web.HTTPNotFound()
    return int(text)


async def turn_picture(request: web.Request) -> web.StreamResponse:
    row, game = await _game(request)
    language = _language(request)
    turn = _turn_of(request.match_info["turn"], game)
    # the address names the mark it was made for: at that mark, a turn never changes
    for_good = request.query.get("v") == mark_of(row)
    key = ("turn", row.id, mark_of(row), language, turn)

    async def make() -> bytes:
        versions: dict[int, int] = await request.app[KEPT_DRAWN].get(
            ("turns", row.id, mark_of(row)), lambda: asyncio.to_thread(turn_versions, game)
        )
        version = versions[min(t for t in versions if t >= turn)]
        if version == row.version:
            # the turn in progress, where an open page's slider rests: its step is the
            # game now, the picture of this mark
            return await _board_now(request, row, game, language)
        names = shown(row, language)

        async def draw() -> bytes:
            return await asyncio.to_thread(draw_turn, game, turn, names, language)

        return await request.app[SHELF].picture(
            DrawnKey(row.id, row.undo_epoch, version, language),
            draw,
            inputs=inputs_of(None, names),
            any_inputs=True,
        )

    return _png(await request.app[KEPT_DRAWN].get(key, make), for_good=for_good)


async def events(request: web.Request) -> web.StreamResponse:
    row, game = await _game(request)
    language = _language(request)
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",
        }
    )
    await response.prepare(request)
    with contextlib.suppress(ConnectionResetError):  # the reader closed the page
        await _follow(request.app, response, request.match_info["token"], row, game, language)
    return response


async def _follow(
    app: web.Application,
    response: web.StreamResponse,
    token: str,
    row: GameRow,
    game: Game,
    language: Language,
) -> None:
    """Write the game's words now, then at each change (a comment line when idle): the
    page needs no other request for its words. The stream ends if the game's server
    switches its web pages off."""
    watcher = app[WATCHER]
    mark = (row.version, row.undo_epoch)
    async with watcher.watching(row.id, mark) as changed:
        shown = mark
        await response.write(await _event(app, row, game, language))
        while True:
            async with changed:
                now = watcher.mark(row.id)
                if now == shown and not watcher.closing:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(changed.wait(), HEARTBEAT_SECONDS)
                    now = watcher.mark(row.id)
            if watcher.closing:
                return
            if now is not None and now != shown:
                shown = now
                try:
                    moved, game = await _game_at(
                        app, token, row.id, row.guild_id, f"{now[0]}-{now[1]}"
                    )
                except web.HTTPNotFound:
                    return
                await response.write(await _event(app, moved, game, language))
            else:
                await response.write(b": still here\n\n")


async def static(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    types = {
        "web.js": "text/javascript",
        "board.js": "text/javascript",
        "web.css": "text/css",
        "activity.js": "text/javascript",
    }
    if name not in types:
        raise web.HTTPNotFound()
    return web.Response(
        body=(STATIC / name).read_bytes(),
        content_type=types[name],
        charset="utf-8",
        headers={"Cache-Control": "public, max-age=3600"},
    )


def make_app(
    store: Store,
    *,
    poll_seconds: float | None = None,
    safety_poll_seconds: float | None = None,
    settings_seconds: float = SETTINGS_SECONDS,
    names_seconds: float = NAMES_SECONDS,
    shelf: PictureShelf | None = None,
    picture_bound: int = DEFAULT_BOUND_BYTES,
    service: GameService | None = None,
    oauth: OAuth | None = None,
    clock: Clock = utcnow,
    tap_rate: TapRate | None = None,
    hinter: Hinter | None = None,
) -> web.Application:
    """The web pages on `store` (the caller opens and closes the store); the Watcher's
    periods (`bot.web.live`), how long a server's web switch and a game over's names are
    trusted may be changed for tests. `shelf`: the pictures kept per version (the bot's
    own, when it serves the pages; else one on `store`, bounded by `picture_bound`).
    `service` and `oauth` (the bot's process): signing in with Discord and the page's
    moves are served too (`clock`: the sessions' time; `tap_rate`: the moves' limit;
    `hinter`: the AI's hint asked from the page, `AiPlayers.hint`)."""
    app = web.Application(middlewares=[safety_headers])
    app[STORE] = store
    app[WATCHER] = Watcher(
        store,
        poll_seconds=POLL_SECONDS if poll_seconds is None else poll_seconds,
        safety_poll_seconds=(
            SAFETY_POLL_SECONDS if safety_poll_seconds is None else safety_poll_seconds
        ),
    )
    app[KEPT_DRAWN] = Kept()
    app[KEPT_WORDS] = KeptWords()
    app[SHELF] = shelf if shelf is not None else PictureShelf(store, bound=picture_bound)
    app[WEB_SWITCHES] = WebSwitches(store, settings_seconds)
    app[PAGES] = {}
    app[NAMES_TRUSTED] = names_seconds

    async def end_streams(app: web.Application) -> None:
        await app[WATCHER].end_streams()

    async def stop_watching(app: web.Application) -> None:
        await app[WATCHER].close()
        await app[SHELF].settled()  # the pictures drawn still being kept

    app.on_shutdown.append(end_streams)
    app.on_cleanup.append(stop_watching)
    app.router.add_get("/g/{token}", page)
    app.router.add_get("/g/{token}/state.json", state)
    app.router.add_get("/g/{token}/events", events)
    app.router.add_get("/g/{token}/picture/{mark}.png", picture)
    app.router.add_get("/g/{token}/turn/{turn}.png", turn_picture)
    app.router.add_get("/g/{token}/targets.json", targets)
    app.router.add_get("/static/{name}", static)
    add_server_routes(app, store)  # /s/<token>: a server's and its players' pages
    add_tournament_routes(app, store)  # /s/<token>/t/<id>: a tournament's standings
    if oauth is not None:
        add_signin_routes(app, store, oauth, _language, clock)

        async def shown(row: GameRow) -> bool:
            return row.guild_id is None or await app[WEB_SWITCHES].on(row.guild_id)

        add_activity_routes(app, store, shown)
        if service is not None:

            async def find(request: web.Request) -> GameRow:
                return (await _game(request))[0]

            add_move_routes(app, service, find, _language, tap_rate, hinter)

            # the moves this process saves (pressed in Discord or tapped on a page) are
            # told to the open pages as they are announced, rather than at the next read
            # of the versions (a second on SQLite): the tapping page sees its picture soon
            async def tell_pages(outcome: Outcome) -> None:
                app[WATCHER].moved(outcome.row.id)

            async def start_telling(app: web.Application) -> None:
                service.after_announce.append(tell_pages)

            async def stop_telling(app: web.Application) -> None:
                with contextlib.suppress(ValueError):
                    service.after_announce.remove(tell_pages)

            app.on_startup.append(start_telling)
            app.on_cleanup.append(stop_telling)
            # the decision's choices on the page (the AI's hint among them, given a hinter)
            add_board_routes(app, _game, _language, hints=hinter is not None)
    return app
