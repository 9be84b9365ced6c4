"""Signing in on the web pages with Discord (issue 38.3): OAuth2's authorization code
with `state` and PKCE (S256), scope `identify`, then a session of our own.

    GET  /signin?back=/g/<token>    off to Discord's authorize page (a sign-in begun)
    GET  /signin/callback           Discord sends the browser back: the code exchanged
                                    at `/oauth2/token`, the user read at `/users/@me`,
                                    a session made, back to the page
    GET  /signin/me.json            who is signed in, and the CSRF token their page
                                    sends with every change (401 when nobody is)
    POST /signout                   the session ended (with the CSRF token)

The client id and secret and the redirect address come from the settings
(`MONTANA_OAUTH_CLIENT_ID`, `MONTANA_OAUTH_CLIENT_SECRET`, `MONTANA_OAUTH_REDIRECT`);
`MONTANA_OAUTH_BASE` (tests only) points the exchange at a fake Discord. The secret,
the codes, the tokens and the cookies are never logged.

The session is a random secret in a cookie (HttpOnly, Secure, SameSite=Lax), found in
the store by its hash (`bot.core.store.sessions`); it lasts `SESSION_DAYS` and is
renewed while used (a tab left open for a day still works). Every change (a move,
signing out) carries the session's CSRF token in the `X-CSRF-Token` header: a page of
another site can make the browser send the cookie, never read the token.

Sessions are written, so signing in is served by the bot's own web server (the one
process that writes the store, `MONTANA_WEB_PORT` of the bot): see docs/developers.md.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from urllib.parse import quote_plus, urlencode

import aiohttp
from aiohttp import web

from bot.core.server.settings import Settings
from bot.core.store import Store
from bot.core.store.model import moment_of
from bot.core.store.sessions import WebSession
from i18n import Language, translatable, translator

log = logging.getLogger("bot.web.signin")

SESSION_COOKIE = "montana_session"
LOGIN_COOKIE = "montana_signin"
CSRF_HEADER = "X-CSRF-Token"
SESSION_DAYS = 7
"""How long a session lasts unused; each use past its first half renews it."""
LOGIN_MINUTES = 10
"""How long a sign-in begun may take at Discord."""
SCOPE = "identify"
EXCHANGE_SECONDS = 10.0
"""How long Discord may take to answer the code's exchange or the user's read."""

SIGNED_OUT = translatable("You are signed out.")
NOT_SIGNED_IN = translatable(
    "You are not signed in, or your session has ended: sign in with Discord again."
)
NO_CSRF = translatable(
    "This change did not come with the page's security token: reload the page and try again."
)
SIGN_IN_CANCELLED = translatable("Signing in was cancelled: nothing changed.")
SIGN_IN_STALE = translatable(
    "This sign-in has expired or was begun in another browser: sign in again."
)
SIGN_IN_FAILED = translatable("Discord did not confirm who you are: try again in a moment.")


@dataclass(frozen=True)
class OAuth:
    """What the sign-in needs of the settings."""

    client_id: str
    client_secret: str = field(repr=False)
    redirect_uri: str
    base: str = "https://discord.com"
    """Where Discord's `/oauth2/authorize`, `/api/oauth2/token` and `/api/users/@me`
    are (tests: a fake Discord)."""

    @property
    def authorize_url(self) -> str:
        return f"{self.base}/oauth2/authorize"

    @property
    def token_url(self) -> str:
        return f"{self.base}/api/oauth2/token"

    @property
    def me_url(self) -> str:
        return f"{self.base}/api/users/@me"


def oauth_of(settings: Settings) -> OAuth | None:
    """The sign-in's settings, if the operator gave them (all three, or none)."""
    if not (settings.oauth_client_id and settings.oauth_client_secret and settings.oauth_redirect):
        return None
    return OAuth(
        settings.oauth_client_id,
        settings.oauth_client_secret,
        settings.oauth_redirect,
        settings.oauth_base or OAuth.base,
    )


Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(UTC)


def challenge_of(verifier: str) -> str:
    """PKCE's S256 challenge of `verifier` (RFC 7636 4.2)."""
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def _back(text: str | None) -> str:
    """Where to return after signing in: a path of this site only (never another's)."""
    if (
        not text
        or len(text) > 300
        or not text.startswith("/")
        or text.startswith("//")
        or not text.isprintable()
        or "\\" in text
    ):
        return "/"
    return text


def _cookie(response: web.StreamResponse, name: str, value: str, max_age: int, path: str) -> None:
    response.set_cookie(
        name, value, max_age=max_age, path=path, httponly=True, secure=True, samesite="Lax"
    )


def _redirect(location: str) -> web.Response:
    return web.Response(status=302, headers={"Location": location, "Cache-Control": "no-store"})


def _said(status: int, text: str) -> web.Response:
    """A refusal or an answer in words, as the page reads it."""
    return web.json_response({"said": text}, status=status, headers={"Cache-Control": "no-store"})


class Sessions:
    """The sessions of the people signed in, on the store, by the cookie's secret."""

    def __init__(self, store: Store, clock: Clock = utcnow) -> None:
        self.store = store
        self.clock = clock

    async def of(self, request: web.Request) -> WebSession | None:
        """The session of the request's cookie (renewed when half used), or None."""
        secret = request.cookies.get(SESSION_COOKIE)
        if not secret:
            return None
        now = self.clock()
        session = await self.store.web_session(secret, now)
        if session is None:
            return None
        lasts = timedelta(days=SESSION_DAYS)
        if moment_of(session.expires_at) - now < lasts / 2:
            # a session in use is renewed: a tab left open a day keeps working
            await self.store.renew_web_session(secret, now, now + lasts)
        return session

    async def signed_in(self, request: web.Request, language: Language) -> WebSession:
        """The session, or a 401 in words."""
        session = await self.of(request)
        if session is None:
            raise _refused(401, translator(language).translate(NOT_SIGNED_IN))
        return session

    @staticmethod
    def check_csrf(request: web.Request, session: WebSession, language: Language) -> None:
        """A 403 in words unless the request carries the session's CSRF token."""
        given = request.headers.get(CSRF_HEADER, "")
        if not given or not hmac.compare_digest(given.encode(), session.csrf.encode()):
            raise _refused(403, translator(language).translate(NO_CSRF))


def _refused(status: int, text: str) -> web.HTTPException:
    """An HTTP error whose body is the refusal in words (JSON, as the page reads it)."""
    error = {401: web.HTTPUnauthorized, 403: web.HTTPForbidden}.get(status, web.HTTPBadRequest)
    return error(
        text=json.dumps({"said": text}),
        content_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


SESSIONS: web.AppKey[Sessions] = web.AppKey("sessions", Sessions)
OAUTH: web.AppKey[OAuth] = web.AppKey("oauth", OAuth)
LANGUAGE_OF: web.AppKey[Callable[[web.Request], Language]] = web.AppKey("language_of")


async def begin(request: web.Request) -> web.StreamResponse:
    oauth, sessions = request.app[OAUTH], request.app[SESSIONS]
    state = secrets.token_urlsafe(32)
    verifier = secrets.token_urlsafe(64)  # 86 characters: RFC 7636 asks 43 to 128
    now = sessions.clock()
    await sessions.store.begin_web_login(
        state, verifier, _back(request.query.get("back")), now + timedelta(minutes=LOGIN_MINUTES)
    )
    query = urlencode(
        {
            "response_type": "code",
            "client_id": oauth.client_id,
            "scope": SCOPE,
            "state": state,
            "redirect_uri": oauth.redirect_uri,
            "code_challenge": challenge_of(verifier),
            "code_challenge_method": "S256",
            "prompt": "none",
        }
    )
    response = _redirect(f"{oauth.authorize_url}?{query}")
    # the state is bound to this browser: a callback carrying a state begun elsewhere
    # (a link someone was sent to sign them in as another) is refused
    _cookie(response, LOGIN_COOKIE, state, LOGIN_MINUTES * 60, "/signin")
    return response


async def callback(request: web.Request) -> web.StreamResponse:
    oauth, sessions = request.app[OAUTH], request.app[SESSIONS]
    t = translator(request.app[LANGUAGE_OF](request))
    state = request.query.get("state", "")
    cookie = request.cookies.get(LOGIN_COOKIE, "")
    if request.query.get("error"):
        if state and hmac.compare_digest(state.encode(), cookie.encode()):
            await sessions.store.take_web_login(state, sessions.clock())
        return _said(400, t.translate(SIGN_IN_CANCELLED))
    if not state or not cookie or not hmac.compare_digest(state.encode(), cookie.encode()):
        return _said(400, t.translate(SIGN_IN_STALE))
    login = await sessions.store.take_web_login(state, sessions.clock())
    code = request.query.get("code", "")
    if login is None or not code:
        return _said(400, t.translate(SIGN_IN_STALE))
    try:
        user_id, name = await _exchange(oauth, code, login.verifier)
    except (aiohttp.ClientError, TimeoutError, KeyError, ValueError) as error:
        # the error's type only: its words may quote what Discord sent back
        log.warning("a sign-in's exchange with Discord failed: %s", type(error).__name__)
        return _said(502, t.translate(SIGN_IN_FAILED))
    secret, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    now = sessions.clock()
    await sessions.store.create_web_session(
        secret, user_id, name, csrf, now, now + timedelta(days=SESSION_DAYS)
    )
    await sessions.store.sweep_web_sessions(now)  # the expired ones go (indexed: cheap)
    log.info("user %s signed in on the web pages", user_id)
    response = _redirect(login.back)
    _cookie(response, SESSION_COOKIE, secret, SESSION_DAYS * 86400, "/")
    response.del_cookie(LOGIN_COOKIE, path="/signin")
    return response


def _basic(oauth: OAuth) -> str:
    """The client's credentials as HTTP Basic (RFC 6749 2.3.1: each form-encoded)."""
    pair = f"{quote_plus(oauth.client_id)}:{quote_plus(oauth.client_secret)}"
    return "Basic " + base64.b64encode(pair.encode()).decode("ascii")


async def _exchange(oauth: OAuth, code: str, verifier: str) -> tuple[str, str]:
    """The code exchanged for a token, and the user it belongs to (id, name)."""
    timeout = aiohttp.ClientTimeout(total=EXCHANGE_SECONDS)
    async with aiohttp.ClientSession(timeout=timeout) as http:
        async with http.post(
            oauth.token_url,
            data={
                "grant_type": "authorization_code",
                "code": code,
                "redirect_uri": oauth.redirect_uri,
                "code_verifier": verifier,
            },
            headers={"Authorization": _basic(oauth)},
        ) as answer:
            answer.raise_for_status()
            token = await answer.json()
        if SCOPE not in str(token.get("scope", "")).split():
            raise ValueError("the token does not carry the identify scope")
        async with http.get(
            oauth.me_url, headers={"Authorization": f"Bearer {token['access_token']}"}
        ) as answer:
            answer.raise_for_status()
            user = await answer.json()
    user_id = str(user["id"])
    if not user_id.isdigit():
        raise ValueError("the user's id is not a Discord id")
    name = str(user.get("global_name") or user.get("username") or user_id)
    return user_id, name


async def me(request: web.Request) -> web.Response:
    sessions = request.app[SESSIONS]
    session = await sessions.signed_in(request, request.app[LANGUAGE_OF](request))
    return web.json_response(
        {"user": {"id": session.user_id, "name": session.name}, "csrf": session.csrf},
        headers={"Cache-Control": "no-store"},
    )


async def sign_out(request: web.Request) -> web.Response:
    sessions = request.app[SESSIONS]
    language = request.app[LANGUAGE_OF](request)
    session = await sessions.signed_in(request, language)
    sessions.check_csrf(request, session, language)
    await sessions.store.end_web_session(request.cookies[SESSION_COOKIE])
    response = _said(200, translator(language).translate(SIGNED_OUT))
    response.del_cookie(SESSION_COOKIE, path="/")
    return response


def add_signin_routes(
    app: web.Application,
    store: Store,
    oauth: OAuth,
    language_of: Callable[[web.Request], Language],
    clock: Clock = utcnow,
) -> Sessions:
    """Serve signing in on `app`; the sessions, for the routes that need one."""
    sessions = Sessions(store, clock)
    app[SESSIONS] = sessions
    app[OAUTH] = oauth
    app[LANGUAGE_OF] = language_of
    app.router.add_get("/signin", begin)
    app.router.add_get("/signin/callback", callback)
    app.router.add_get("/signin/me.json", me)
    app.router.add_post("/signout", sign_out)
    return sessions


__all__ = [
    "CSRF_HEADER",
    "LOGIN_COOKIE",
    "SESSION_COOKIE",
    "OAuth",
    "Sessions",
    "add_signin_routes",
    "challenge_of",
    "oauth_of",
]
