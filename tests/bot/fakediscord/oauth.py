"""Discord's OAuth2 for the web pages' sign-in (issue 38.3), as an aiohttp app on
loopback: the authorize page (a stand-in: the user the test chose consents at once),
the code's exchange and the user read, checked as Discord checks them.

    oauth = FakeOAuth(client_id="42", secret="s3cret", redirects={"http://.../signin/callback"})
    server = TestServer(oauth.app()); await server.start_server()
    oauth.consenting = ana                       # who is signed in at Discord
    # GET  /oauth2/authorize?response_type=code&client_id&scope&state&redirect_uri
    #      &code_challenge&code_challenge_method=S256  -> 302 redirect_uri?code=&state=
    # POST /api/oauth2/token   (client credentials by Basic auth or in the form;
    #      grant_type=authorization_code, code, redirect_uri, code_verifier)
    # GET  /api/users/@me      (Authorization: Bearer <access token>)

Every request is recorded (`requests`: method, path, what was sent, the status given).
A code serves once and for ten minutes; it is bound to its client, its redirect and its
PKCE challenge (S256 only); a wrong one is `invalid_grant`, wrong client credentials
`invalid_client` (401), as Discord answers.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BasicAuth, web

from tests.bot.fakediscord.model import FakeUser


@dataclass
class Grant:
    user: FakeUser
    client_id: str
    redirect_uri: str
    challenge: str
    scope: str


@dataclass
class FakeOAuth:
    client_id: str
    secret: str
    redirects: set[str]
    consenting: FakeUser | None = None
    """The user signed in at Discord who consents (None: they press Cancel)."""
    requests: list[dict[str, Any]] = field(default_factory=list)
    codes: dict[str, Grant] = field(default_factory=dict)
    tokens: dict[str, FakeUser] = field(default_factory=dict)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/oauth2/authorize", self.authorize)
        app.router.add_post("/api/oauth2/token", self.token)
        app.router.add_get("/api/users/@me", self.me)
        return app

    def _record(self, request: web.Request, sent: dict[str, str], status: int) -> None:
        self.requests.append(
            {"method": request.method, "path": request.path, "sent": sent, "status": status}
        )

    async def authorize(self, request: web.Request) -> web.StreamResponse:
        query = dict(request.query)
        redirect = query.get("redirect_uri", "")
        problem = None
        if query.get("client_id") != self.client_id:
            problem = "unknown client"
        elif redirect not in self.redirects:
            problem = "invalid redirect_uri"
        elif (
            query.get("response_type") != "code" or "identify" not in query.get("scope", "").split()
        ):
            problem = "invalid scope or response type"
        elif query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            problem = "PKCE S256 required"
        if problem is not None:
            self._record(request, query, 400)
            return web.Response(status=400, text=problem)
        self._record(request, query, 302)
        state = query.get("state", "")
        if self.consenting is None:
            raise web.HTTPFound(f"{redirect}?error=access_denied&state={state}")
        code = secrets.token_urlsafe(16)
        self.codes[code] = Grant(
            self.consenting, self.client_id, redirect, query["code_challenge"], query["scope"]
        )
        raise web.HTTPFound(f"{redirect}?code={code}&state={state}")

    async def token(self, request: web.Request) -> web.Response:
        form = {k: str(v) for k, v in (await request.post()).items()}
        client_id, secret = form.get("client_id"), form.get("client_secret")
        header = request.headers.get("Authorization", "")
        if header.startswith("Basic "):
            basic = BasicAuth.decode(header)
            client_id, secret = basic.login, basic.password
        if client_id != self.client_id or secret != self.secret:
            self._record(request, form, 401)
            return web.json_response({"error": "invalid_client"}, status=401)
        grant = self.codes.pop(form.get("code", ""), None)  # a code serves once
        verifier = form.get("code_verifier", "")
        challenge = (
            base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
            .rstrip(b"=")
            .decode()
        )
        if (
            form.get("grant_type") != "authorization_code"
            or grant is None
            or grant.client_id != client_id
            or grant.redirect_uri != form.get("redirect_uri")
            or not 43 <= len(verifier) <= 128
            or grant.challenge != challenge
        ):
            self._record(request, form, 400)
            return web.json_response({"error": "invalid_grant"}, status=400)
        self._record(request, form, 200)
        access = secrets.token_urlsafe(24)
        self.tokens[access] = grant.user
        return web.json_response(
            {
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": grant.scope,
            }
        )

    async def me(self, request: web.Request) -> web.Response:
        header = request.headers.get("Authorization", "")
        user = (
            self.tokens.get(header.removeprefix("Bearer "))
            if header.startswith("Bearer ")
            else None
        )
        if user is None:
            self._record(request, {}, 401)
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        self._record(request, {}, 200)
        return web.json_response(
            {
                "id": str(user.id),
                "username": user.name,
                "global_name": user.name.title(),
                "avatar": None,
                "discriminator": "0",
            }
        )


__all__ = ["FakeOAuth", "Grant"]
