"""The game inside Discord as an Activity (issue 38.5): the page Discord frames, and the
two requests its script makes.

    GET  /activity                 the page (Discord adds frame_id, instance_id, platform,
                                   channel_id... to the address); its script is the
                                   bundle of `scripts/activity` (Discord's Embedded App
                                   SDK, served by the site itself: nothing from a CDN)
    POST /activity/session         {"code"} from the SDK's authorize: exchanged at
                                   Discord like the plain web's sign-in, a session made;
                                   answers the access token the SDK's authenticate
                                   needs, the user and the CSRF token
    GET  /activity/games.json      ?channel=<the SDK's channelId>: the game played there
                                   if the signed-in player has a seat in it ("here"),
                                   and the player's games under way ("games"), each by
                                   its page's address relative to the site's root

Discord serves the Activity from `https://<application id>.discordsays.com`, through
its proxy to the web's public address (the URL mapping `/`, docs/operators.md), and
frames it in its own pages: the Activity's pages may be framed by Discord (and by the
site itself, a test's harness standing for Discord), every other page by nobody. In
that frame the site is a third party to discord.com: the session's cookie is
`SameSite=None; Partitioned` (kept for this site inside Discord only), still HttpOnly
and Secure, and every change still needs the CSRF token.

The channel's game is shown only to a player seated in it: the channel id comes from
the client, and a game's page address is its only secret.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import timedelta
from html import escape

import aiohttp
from aiohttp import web

from bot.core.store import ACTIVE, GameRow, Store
from i18n import Language, translatable, translator

from .pages import page_head
from .signin import (
    LANGUAGE_OF,
    OAUTH,
    SESSION_COOKIE,
    SESSION_DAYS,
    SESSIONS,
    SIGN_IN_FAILED,
    exchange_code,
)

FRAMED_BY = (
    "'self' https://discord.com https://ptb.discord.com https://canary.discord.com "
    "https://discordapp.com"
)
"""Who may frame the Activity's pages (and the game's page it opens): Discord's clients."""
ACTIVITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    f"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors {FRAMED_BY}"
)
"""The CSP of the pages Discord frames: as strict as the others, framed by Discord only."""
CODE_LENGTH = 200
"""Longer than any code Discord gives: anything longer is refused unread."""
GAMES_LISTED = 25

STARTING = translatable("Opening the game…")
CHOOSE = translatable("Your games under way: choose one.")
NO_GAMES = translatable("You have no game under way. Start one in Discord.")
ACTIVITY_FAILED = translatable(
    "The game could not be opened here. Close the Activity and launch it again."
)
NO_CODE = translatable("Discord did not give this Activity a sign-in code: launch it again.")
TITLE = translatable("Montana on the board")

log_activity = logging.getLogger("bot.web.activity")
Find = Callable[[web.Request], Awaitable[GameRow]]


def activity_page(client_id: str, language: Language) -> str:
    """The Activity's page: its words in data attributes for the script, nothing inline."""
    t = translator(language)
    head = page_head(t.translate(TITLE), language).replace(
        '<link rel="stylesheet" href="/static/web.css">',
        '<link rel="stylesheet" href="static/web.css">\n'
        '<script src="static/activity.js" defer></script>',
    )
    data = {
        "client": client_id,
        "lang": language,
        "choose": t.translate(CHOOSE),
        "none": t.translate(NO_GAMES),
        "failed": t.translate(ACTIVITY_FAILED),
    }
    attributes = " ".join(f'data-{name}="{escape(value)}"' for name, value in data.items())
    return f"""{head}<body>
<main id="activity" {attributes} data-state="starting">
<h1>{escape(t.translate(TITLE))}</h1>
<p id="status" role="status">{escape(t.translate(STARTING))}</p>
<ul id="games"></ul>
</main>
</body>
</html>
"""


def _framed(response: web.Response) -> web.Response:
    response.headers["Content-Security-Policy"] = ACTIVITY_POLICY
    response.headers["Cache-Control"] = "no-store"
    return response


def _said(status: int, text: str) -> web.Response:
    return web.json_response({"said": text}, status=status, headers={"Cache-Control": "no-store"})


async def page(request: web.Request) -> web.Response:
    language = request.app[LANGUAGE_OF](request)
    text = activity_page(request.app[OAUTH].client_id, language)
    return _framed(web.Response(text=text, content_type="text/html"))


async def session(request: web.Request) -> web.Response:
    oauth, sessions = request.app[OAUTH], request.app[SESSIONS]
    t = translator(request.app[LANGUAGE_OF](request))
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    code = body.get("code") if isinstance(body, dict) else None
    if not isinstance(code, str) or not code or len(code) > CODE_LENGTH:
        return _said(400, t.translate(NO_CODE))
    try:
        access, user_id, name = await exchange_code(oauth, code)
    except (aiohttp.ClientError, TimeoutError, KeyError, ValueError) as error:
        log_activity.warning("an Activity's exchange with Discord failed: %s", type(error).__name__)
        return _said(502, t.translate(SIGN_IN_FAILED))
    secret, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    now = sessions.clock()
    await sessions.store.create_web_session(
        secret, user_id, name, csrf, now, now + timedelta(days=SESSION_DAYS)
    )
    await sessions.store.sweep_web_sessions(now)
    log_activity.info("user %s signed in in an Activity", user_id)
    response = web.json_response(
        {"access_token": access, "user": {"id": user_id, "name": name}, "csrf": csrf},
        headers={"Cache-Control": "no-store"},
    )
    # set by hand: Python before 3.14 knows no `Partitioned` (CHIPS); the secret is
    # URL-safe base64, nothing to quote
    response.headers.add(
        "Set-Cookie",
        f"{SESSION_COOKIE}={secret}; Max-Age={SESSION_DAYS * 86400}; Path=/; HttpOnly; "
        "Secure; SameSite=None; Partitioned",
    )
    return response


def _title(row: GameRow) -> str:
    return ", ".join(seat.name for seat in row.players)


def add_activity_routes(
    app: web.Application, store: Store, shown: Callable[[GameRow], Awaitable[bool]]
) -> None:
    """Serve the Activity on `app` (after `add_signin_routes`); `shown`: whether a game's
    page is served (a server may switch its web pages off)."""

    async def games(request: web.Request) -> web.Response:
        language: Language = request.app[LANGUAGE_OF](request)
        user = await request.app[SESSIONS].signed_in(request, language)
        mine = [
            row
            for row in await store.seated_games(user.user_id, statuses=(ACTIVE,))
            if row.state_json is not None and await shown(row)
        ][-GAMES_LISTED:]
        tokens = await store.web_tokens_of([row.id for row in mine])
        for row in mine:
            if row.id not in tokens:
                tokens[row.id] = await store.web_token(row.id)
        channel = request.query.get("channel", "")
        here = None
        if channel.isdigit() and len(channel) <= 20:
            found = next(
                (r for r in reversed(mine) if int(channel) in (r.thread_id, r.channel_id)), None
            )
            if found is not None:
                here = {"path": f"g/{tokens[found.id]}?lang={language}", "title": _title(found)}
        listed = [
            {"path": f"g/{tokens[row.id]}?lang={language}", "title": _title(row)}
            for row in reversed(mine)
        ]
        return web.json_response(
            {"here": here, "games": listed}, headers={"Cache-Control": "no-store"}
        )

    app.router.add_get("/activity", page)
    app.router.add_post("/activity/session", session)
    app.router.add_get("/activity/games.json", games)


__all__ = ["ACTIVITY_POLICY", "FRAMED_BY", "activity_page", "add_activity_routes"]
