"""Board play's foundations on the web (issue 38.1, 38.3, 38.4): the live picture's
touch targets beside it, signing in with Discord (OAuth2 code + state + PKCE against the
fake Discord's OAuth2), and a move from the page through the real game service, with
the thread getting its post and ping from the same outbox as a button press."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.core.delivery.pictures import BlankRenderer
from bot.core.server.settings import Settings, SettingsError, load_settings
from bot.core.store import Store
from bot.discord_app.client import MontanaBot
from bot.web.app import make_app
from bot.web.moves import TapRate
from bot.web.signin import (
    CSRF_HEADER,
    LOGIN_COOKIE,
    SESSION_COOKIE,
    SESSION_DAYS,
    OAuth,
    oauth_of,
)
from render.targets import snapshot_targets, target_of
from rules import Action, Game
from tests.bot.driver import Table, open_game, to_main_decision
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeUser
from tests.bot.fakediscord.oauth import FakeOAuth

CLIENT_ID = "424242424242424242"
SECRET = "not-the-real-secret"


@dataclass
class Clock:
    now: datetime = field(default_factory=lambda: datetime(2026, 11, 28, 12, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Signed:
    cookie: str
    csrf: str


@dataclass
class Board:
    table: Table
    game_id: int
    thread: FakeChannel
    token: str
    url: str
    http: aiohttp.ClientSession
    oauth: FakeOAuth
    clock: Clock
    rate: TapRate

    async def get(
        self, path: str, cookie: str | None = None
    ) -> tuple[int, dict[str, str], bytes, list[str]]:
        headers = {"Cookie": cookie} if cookie else {}
        async with self.http.get(
            path if path.startswith("http") else self.url + path,
            headers=headers,
            allow_redirects=False,
        ) as r:
            return r.status, dict(r.headers), await r.read(), r.headers.getall("Set-Cookie", [])

    async def sign_in(self, user: FakeUser) -> Signed:
        """Sign in as `user` the way a browser does, every redirect followed by hand."""
        self.oauth.consenting = user
        status, headers, _, cookies = await self.get(f"/signin?back=/g/{self.token}")
        assert status == 302 and headers["Location"].startswith(self.oauth_url)
        state_cookie = _cookie(cookies, LOGIN_COOKIE)
        status, headers, _, _ = await self.get(headers["Location"])
        assert status == 302, "the fake Discord accepted the authorize request"
        status, headers, body, cookies = await self.get(
            headers["Location"], cookie=f"{LOGIN_COOKIE}={state_cookie}"
        )
        assert status == 302, body
        assert headers["Location"] == f"/g/{self.token}", "back to the page signed in from"
        cookie = f"{SESSION_COOKIE}={_cookie(cookies, SESSION_COOKIE)}"
        status, _, body, _ = await self.get("/signin/me.json", cookie=cookie)
        assert status == 200
        me = json.loads(body)
        assert me["user"]["id"] == str(user.id)
        return Signed(cookie, me["csrf"])

    @property
    def oauth_url(self) -> str:
        return self.oauth_base

    oauth_base: str = ""
    app: web.Application | None = None
    """The web app served (its state, for tests that add routes of their own)."""

    async def move(
        self, signed: Signed | None, body: Any, *, csrf: bool = True, path: str = ""
    ) -> tuple[int, dict[str, Any]]:
        headers = {"Content-Type": "application/json"}
        if signed is not None:
            headers["Cookie"] = signed.cookie
            if csrf:
                headers[CSRF_HEADER] = signed.csrf
        async with self.http.post(
            f"{self.url}/g/{self.token}/move{path}", data=json.dumps(body), headers=headers
        ) as r:
            return r.status, await r.json()

    async def now(self) -> tuple[str, Game]:
        row, game = await self.table.game(self.game_id)
        return f"{row.version}-{row.undo_epoch}", game


def _cookie(set_cookies: list[str], name: str) -> str:
    """The value a Set-Cookie gave `name`, checked to be HttpOnly, Secure, SameSite=Lax."""
    for line in set_cookies:
        parsed: SimpleCookie = SimpleCookie()
        parsed.load(line)
        if name in parsed:
            morsel = parsed[name]
            assert morsel["httponly"] and morsel["secure"], line
            assert morsel["samesite"] == "Lax", line
            return morsel.value
    raise AssertionError(f"no {name} cookie in {set_cookies}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.asynccontextmanager
async def board_for(
    folder: Path,
    *,
    seed: int = 4,
    fake: FakeDiscord | None = None,
    database: str | None = None,
    more: Callable[[web.Application], None] | None = None,
    poll_seconds: float = 0.2,
) -> AsyncIterator[Board]:
    """A game of two at its first main action, its page served with board play on, and
    the fake Discord's OAuth2 beside it (`python -m bot.boardbench` uses it too);
    `more` adds routes of a test's own to the app (an Activity's harness); `poll_seconds`:
    how often the open pages' games are read (SQLite tells nobody of moves)."""
    own = fake is None
    discord = fake if fake is not None else FakeDiscord()
    try:
        bot = MontanaBot(
            Settings(token=None, db_path=database or str(folder / "m.sqlite3"), ai_delay_seconds=0),
            renderer=BlankRenderer(),
            seed_source=random.Random(seed),
        )
        table = Table(discord, bot)
        await discord.start(bot)
        game_id, thread, _ = await open_game(discord, table, discord.channel, "ana", "ben")
        await to_main_decision(table, game_id)  # each move from now on posts (none edits)
        token = await bot.store.web_token(game_id)
        port = _free_port()
        site = f"http://127.0.0.1:{port}"
        oauth = FakeOAuth(CLIENT_ID, SECRET, {f"{site}/signin/callback"})
        discord_oauth = TestServer(oauth.app(), host="127.0.0.1")
        await discord_oauth.start_server()
        base = str(discord_oauth.make_url("")).rstrip("/")
        clock, rate = Clock(), TapRate(taps=5, seconds=10.0, clock=lambda: 0.0)
        app = make_app(
            bot.store,
            poll_seconds=poll_seconds,
            settings_seconds=0,
            service=bot.service,
            oauth=OAuth(CLIENT_ID, SECRET, f"{site}/signin/callback", base),
            clock=clock,
            # the tests' limit; the benchmark's moves, unlimited
            tap_rate=TapRate(taps=10**9) if own else rate,
            hinter=bot.ai.hint,
        )
        if more is not None:
            more(app)
        server = TestServer(app, host="127.0.0.1", port=port)
        await server.start_server()
        # no cookie jar: the cookies are Secure, and the tests carry them by hand
        async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as http:
            found = Board(table, game_id, thread, token, site, http, oauth, clock, rate)
            found.oauth_base = base
            found.app = app
            yield found
        await server.close()
        await discord_oauth.close()
    finally:
        if own:
            await discord.close()


@pytest.fixture
async def board(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Board]:
    async with board_for(tmp_path, fake=fake_discord) as found:
        yield found


@pytest.fixture
async def board_on(
    fake_discord: FakeDiscord, tmp_path: Path, database: str
) -> AsyncIterator[Board]:
    """`board` on SQLite and on PostgreSQL."""
    async with board_for(tmp_path, fake=fake_discord, database=database) as found:
        yield found


def _user(board: Board, pid: str) -> FakeUser:
    return board.table.user(pid)


def _a_move(game: Game, pid: str) -> Action:
    """A main action that hands the turn over (its post pings the next player)."""
    return next(a for a in game.legal_actions(pid) if a.verb == "bank")


async def _awaited(board: Board) -> tuple[str, Game, str]:
    mark, game = await board.now()
    pid = game.awaiting
    assert pid is not None
    return mark, game, pid


# ---------------------------------------------------------------- 38.1: the targets


async def test_the_live_pictures_targets_are_served_beside_it(board: Board) -> None:
    mark, game, pid = await _awaited(board)
    status, headers, body, _ = await board.get(f"/g/{board.token}/targets.json?version={mark}")
    assert status == 200 and "immutable" in headers["Cache-Control"]
    said = json.loads(body)
    assert said["version"] == mark
    assert said["picture"] == f"/g/{board.token}/picture/{mark}.png?lang=en"
    row, _ = await board.table.game(board.game_id)
    names = {seat.user_id: seat.name for seat in row.players}
    assert said["regions"] == [r.to_json() for r in snapshot_targets(game, names=names)]
    keys = {region["key"] for region in said["regions"]}
    for action in game.legal_actions(pid):
        key = target_of(game, action)
        assert key is None or key in keys, action
    status, headers, _, _ = await board.get(f"/g/{board.token}/targets.json?version=0-0")
    assert status == 302 and headers["Location"].endswith(f"?version={mark}&lang=en")
    status, _, _, _ = await board.get("/g/no-such-token/targets.json")
    assert status == 404


# ---------------------------------------------------------------- 38.3: signing in


async def test_signing_in_with_discord_makes_a_session_and_signing_out_ends_it(
    board: Board,
) -> None:
    ana = _user(board, next(iter(board.table.users)))
    signed = await board.sign_in(ana)
    authorize, exchange, me = board.oauth.requests
    assert authorize["sent"]["scope"] == "identify"
    assert authorize["sent"]["code_challenge_method"] == "S256"
    assert exchange["status"] == 200 and me["status"] == 200
    assert "code_verifier" in exchange["sent"] and "client_secret" not in exchange["sent"]
    stored = await board.table.bot.store.query("SELECT id FROM web_sessions")
    assert [r["id"] for r in stored] != [signed.cookie.split("=", 1)[1]], "kept by hash only"
    async with board.http.post(
        f"{board.url}/signout", headers={"Cookie": signed.cookie}
    ) as refused:
        assert refused.status == 403 and "security token" in (await refused.json())["said"]
    async with board.http.post(
        f"{board.url}/signout", headers={"Cookie": signed.cookie, CSRF_HEADER: signed.csrf}
    ) as out:
        assert out.status == 200 and (await out.json())["said"] == "You are signed out."
    status, _, body, _ = await board.get("/signin/me.json", cookie=signed.cookie)
    assert status == 401 and "sign in with Discord again" in json.loads(body)["said"]


async def test_a_sign_in_from_another_browser_a_cancelled_one_or_a_replayed_code_signs_nobody_in(
    board: Board,
) -> None:
    ana = _user(board, next(iter(board.table.users)))
    board.oauth.consenting = ana
    _, headers, _, cookies = await board.get(f"/signin?back=/g/{board.token}")
    state = _cookie(cookies, LOGIN_COOKIE)
    _, headers, _, _ = await board.get(headers["Location"])
    callback = headers["Location"]
    # the link sent to someone else (no state cookie of theirs): refused
    status, _, body, cookies = await board.get(callback)
    assert status == 400 and "sign in again" in json.loads(body)["said"]
    assert not any(SESSION_COOKIE in c for c in cookies)
    # the sign-in was taken by that attempt? no: it is still the browser's own
    status, _, body, cookies = await board.get(callback, cookie=f"{LOGIN_COOKIE}={state}")
    assert status == 302 and any(SESSION_COOKIE in c for c in cookies)
    # the same code and state again: the state served once
    status, _, body, cookies = await board.get(callback, cookie=f"{LOGIN_COOKIE}={state}")
    assert status == 400 and not any(SESSION_COOKIE in c for c in cookies)
    # cancelled at Discord
    board.oauth.consenting = None
    _, headers, _, cookies = await board.get("/signin")
    state = _cookie(cookies, LOGIN_COOKIE)
    _, headers, _, _ = await board.get(headers["Location"])
    status, _, body, _ = await board.get(headers["Location"], cookie=f"{LOGIN_COOKIE}={state}")
    assert status == 400 and json.loads(body)["said"].startswith("Signing in was cancelled")
    # a return address on another site is never followed
    _, headers, _, _ = await board.get("/signin?back=//evil.example/x")
    logins = await board.table.bot.store.query("SELECT back FROM web_logins")
    assert {r["back"] for r in logins} == {"/"}


# ---------------------------------------------------------------- 38.4: the moves


async def test_the_awaited_player_moves_from_the_page_and_the_thread_gets_the_post_and_ping_once(
    board_on: Board,
) -> None:
    board = board_on
    mark, game, pid = await _awaited(board)
    signed = await board.sign_in(_user(board, pid))
    before = len(board.table.fake.messages_in(board.thread))
    action = _a_move(game, pid)
    status, said = await board.move(signed, {"version": mark, "code": f"a:{action}"})
    assert status == 200, said
    await board.table.bot.ai.idle()
    new_mark, after = await board.now()
    assert said["version"] == new_mark != mark
    assert tuple(after.log[len(game.log)]) == (pid, str(action)), "the move, by its player"
    posts = board.table.fake.messages_in(board.thread)[before:]
    assert len(posts) == 1, "one post for the move, as a press makes"
    assert posts[0].content.startswith(said["said"]), "the move said in the thread"
    assert after.awaiting not in (None, pid)
    assert posts[0].pinged_ids == [int(after.awaiting)], "the next player is pinged"
    assert await board.table.bot.store.owed(board.game_id) == [], "nothing left owed"
    # the same request again: the game moved on, nothing changes
    status, said = await board.move(signed, {"version": mark, "code": f"a:{action}"})
    assert status == 409 and said["said"].startswith("The game has moved on")
    assert said["version"] == new_mark
    assert (await board.now())[0] == new_mark
    assert len(board.table.fake.messages_in(board.thread)) == before + 1


async def test_the_mover_takes_a_move_back_from_the_page_as_with_the_undo_button(
    board: Board,
) -> None:
    mark, game, pid = await _awaited(board)
    other = next(p for p in board.table.users if p != pid)
    mover, waiting = (
        await board.sign_in(_user(board, pid)),
        await board.sign_in(_user(board, other)),
    )
    status, said = await board.move(mover, {"version": mark, "code": f"a:{_a_move(game, pid)}"})
    assert status == 200
    moved = said["version"]
    status, said = await board.move(waiting, {"version": moved, "code": "undo"})
    assert status == 409 and "takes back" in said["said"], said
    status, said = await board.move(mover, {"version": moved, "code": "undo"})
    assert status == 200, said
    back, after = await board.now()
    assert said["version"] == back and back.endswith("-1"), "an earlier state, in a new epoch"
    assert after.log == game.log and after.awaiting == pid


async def test_moves_refused_in_words_change_nothing(board: Board) -> None:
    mark, game, pid = await _awaited(board)
    other = next(p for p in board.table.users if p != pid)
    action = f"a:{game.legal_actions(pid)[0]}"
    posts = len(board.table.fake.messages_in(board.thread))
    outsider = board.table.fake.add_user("cleo")
    watcher = await board.sign_in(outsider)
    player = await board.sign_in(_user(board, pid))
    waiting = await board.sign_in(_user(board, other))

    cases: list[tuple[str, Signed | None, dict[str, Any], bool, int, str]] = [
        ("not signed in", None, {"version": mark, "code": action}, True, 401, "not signed in"),
        ("a watcher", watcher, {"version": mark, "code": action}, True, 403, "not playing"),
        ("another's seat", waiting, {"version": mark, "code": action}, True, 409, ""),
        (
            "a seat named",
            waiting,
            {"version": mark, "code": action, "player": pid},
            True,
            403,
            "your own seat",
        ),
        ("no CSRF token", player, {"version": mark, "code": action}, False, 403, "security"),
        ("a stale version", player, {"version": "1-0", "code": action}, True, 409, "moved on"),
        ("no version", player, {"code": action}, True, 400, "could not be read"),
        ("unknown code", player, {"version": mark, "code": "x:drop"}, True, 400, "could not"),
        ("illegal move", player, {"version": mark, "action": "build Z9"}, True, 409, ""),
    ]
    for name, signed, body, csrf, status, words in cases:
        got, said = await board.move(signed, body, csrf=csrf)
        assert got == status, (name, said)
        assert words in said["said"], (name, said)
        assert said["said"].strip(), name
    # an expired session
    board.clock.now += timedelta(days=SESSION_DAYS, seconds=1)
    got, said = await board.move(player, {"version": mark, "code": action})
    assert got == 401 and "session has ended" in said["said"]
    assert (await board.now())[0] == mark, "nothing moved"
    assert len(board.table.fake.messages_in(board.thread)) == posts, "nothing posted"


async def test_a_session_in_use_is_renewed_and_an_unused_one_ends(board: Board) -> None:
    _, _, pid = await _awaited(board)
    signed = await board.sign_in(_user(board, pid))
    for _ in range(3):  # used every 4 days: renewed each time, never ends
        board.clock.now += timedelta(days=4)
        status, _, _, _ = await board.get("/signin/me.json", cookie=signed.cookie)
        assert status == 200
    board.clock.now += timedelta(days=SESSION_DAYS + 1)
    status, _, _, _ = await board.get("/signin/me.json", cookie=signed.cookie)
    assert status == 401


async def test_a_press_in_discord_and_a_move_from_the_page_at_once_one_wins(
    board_on: Board,
) -> None:
    board = board_on
    mark, game, pid = await _awaited(board)
    signed = await board.sign_in(_user(board, pid))
    posts = len(board.table.fake.messages_in(board.thread))
    action = _a_move(game, pid)
    pressed, (status, said) = await asyncio.gather(
        board.table.tap_move(board.game_id, action),
        board.move(signed, {"version": mark, "code": f"a:{action}"}),
    )
    await board.table.bot.ai.idle()
    _, after = await board.now()
    assert len(after.log) == len(game.log) + 1, "the move applied once"
    assert len(board.table.fake.messages_in(board.thread)) == posts + 1, "posted once"
    assert pressed is not None
    if status == 200:
        assert "out of date" in pressed.text, "the press is told the game moved on"
    else:
        assert status == 409 and said["said"].startswith("The game has moved on")
        assert "out of date" not in pressed.text


async def test_taps_are_rate_limited(board: Board) -> None:
    mark, _, pid = await _awaited(board)
    signed = await board.sign_in(_user(board, pid))
    answers = [(await board.move(signed, {"version": "1-0", "code": "undo"}))[0] for _ in range(6)]
    assert answers[:5] == [409] * 5 and answers[5] == 429
    got, said = await board.move(signed, {"version": mark, "code": "a:recruit"})
    assert got == 429 and said["said"].startswith("Too many moves")
    assert (await board.now())[0] == mark


# ---------------------------------------------------------------- the store's sessions


async def test_sessions_and_sign_ins_on_both_databases(store: Store) -> None:
    now = datetime(2026, 11, 28, 12, tzinfo=UTC)
    later = now + timedelta(days=7)
    await store.begin_web_login("state-1", "v" * 50, "/g/x", now + timedelta(minutes=10))
    assert await store.take_web_login("state-2", now) is None
    login = await store.take_web_login("state-1", now)
    assert login is not None and login.verifier == "v" * 50 and login.back == "/g/x"
    assert await store.take_web_login("state-1", now) is None, "a state serves once"
    await store.begin_web_login("old", "v" * 50, "/", now)
    assert await store.take_web_login("old", now) is None, "expired"

    made = await store.create_web_session("secret", "111", "Ana", "csrf-1", now, later)
    found = await store.web_session("secret", now)
    assert found == made and found.user_id == "111" and found.csrf == "csrf-1"
    assert await store.web_session("other", now) is None
    assert await store.web_session("secret", later) is None, "expired at its end"
    assert await store.renew_web_session("secret", now, later + timedelta(days=1))
    assert await store.web_session("secret", later) is not None
    assert not await store.renew_web_session("nothing", now, later)
    await store.create_web_session("gone", "222", "Ben", "csrf-2", now, now + timedelta(hours=1))
    assert await store.sweep_web_sessions(now + timedelta(hours=2)) == 1
    await store.end_web_session("secret")
    assert await store.web_session("secret", now) is None


def test_the_sign_in_settings_come_together_and_the_secret_is_never_shown() -> None:
    with pytest.raises(SettingsError, match="together"):
        load_settings({"MONTANA_OAUTH_CLIENT_ID": CLIENT_ID}, None)
    with pytest.raises(SettingsError, match="application's id"):
        load_settings({"MONTANA_OAUTH_CLIENT_ID": "me"}, None)
    assert oauth_of(load_settings({}, None)) is None, "no sign-in served without them"
    settings = load_settings(
        {
            "MONTANA_OAUTH_CLIENT_ID": CLIENT_ID,
            "MONTANA_OAUTH_CLIENT_SECRET": SECRET,
            "MONTANA_OAUTH_REDIRECT": "https://montana.example.org/signin/callback",
        },
        None,
    )
    oauth = oauth_of(settings)
    assert oauth is not None and oauth.token_url == "https://discord.com/api/oauth2/token"
    assert SECRET not in repr(settings) and SECRET not in repr(oauth)
