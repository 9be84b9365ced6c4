"""The store's statements for signing in on the web pages (issue 38.3), mixed into
`base.Store`: the sign-ins under way (an OAuth2 `state` and its PKCE verifier, until
Discord sends the browser back) and the sessions of the people signed in, each with its
CSRF token and its expiry.

Only a hash of a session's secret is kept (`session_key`): the cookie's value never
lies in the database, so a copy of it signs nobody in. A session read after its expiry
is not found (and is deleted at the next `sweep_web_sessions`)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from .model import stamp_of
from .parts import StoreParts


def session_key(secret: str) -> str:
    """What the store keeps of a session's (or a sign-in's) secret: its SHA-256."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class WebSession:
    """A person signed in on the web pages with their Discord account."""

    user_id: str
    name: str
    csrf: str
    """The token every change must carry (a header or a form field)."""
    expires_at: str
    """When it ends unless renewed (a UTC stamp, `model.stamp_of`)."""


@dataclass(frozen=True)
class WebLogin:
    """A sign-in under way: what its `state` brings back."""

    verifier: str
    """The PKCE code verifier, sent with the code (its S256 went to Discord)."""
    back: str
    """The page to return to once signed in (a path of this site)."""


class SessionTables(StoreParts):
    """Mixed into `Store`: these use its `query` and `transaction` (both guarded)."""

    async def begin_web_login(
        self, state: str, verifier: str, back: str, expires_at: datetime
    ) -> None:
        """Keep a sign-in's verifier and return page under its `state` until `expires_at`."""
        await self.transaction(
            [
                (
                    "INSERT INTO web_logins (state, verifier, back, expires_at) "
                    "VALUES (?, ?, ?, ?)",
                    (session_key(state), verifier, back, stamp_of(expires_at)),
                )
            ]
        )

    async def take_web_login(self, state: str, now: datetime) -> WebLogin | None:
        """The sign-in of `state`, taken (a state serves once); None when there is none
        or it expired."""
        key = session_key(state)
        rows = await self.query(
            "SELECT verifier, back, expires_at FROM web_logins WHERE state = ?", (key,)
        )
        taken = await self.transaction([("DELETE FROM web_logins WHERE state = ?", (key,))])
        if not rows or not taken[0] or str(rows[0]["expires_at"]) <= stamp_of(now):
            return None
        return WebLogin(str(rows[0]["verifier"]), str(rows[0]["back"]))

    async def create_web_session(
        self,
        secret: str,
        user_id: str,
        name: str,
        csrf: str,
        now: datetime,
        expires_at: datetime,
    ) -> WebSession:
        """A new session for `user_id`, found by `secret` until `expires_at`."""
        await self.transaction(
            [
                (
                    "INSERT INTO web_sessions (id, user_id, name, csrf, created_at, expires_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        session_key(secret),
                        user_id,
                        name,
                        csrf,
                        stamp_of(now),
                        stamp_of(expires_at),
                    ),
                )
            ]
        )
        return WebSession(user_id, name, csrf, stamp_of(expires_at))

    async def web_session(self, secret: str, now: datetime) -> WebSession | None:
        """The session of `secret`, unless there is none or it expired."""
        rows = await self.query(
            "SELECT user_id, name, csrf, expires_at FROM web_sessions "
            "WHERE id = ? AND expires_at > ?",
            (session_key(secret), stamp_of(now)),
        )
        if not rows:
            return None
        row = rows[0]
        return WebSession(
            str(row["user_id"]), str(row["name"]), str(row["csrf"]), str(row["expires_at"])
        )

    async def renew_web_session(self, secret: str, now: datetime, expires_at: datetime) -> bool:
        """Push a live session's expiry to `expires_at`; whether it was live."""
        changed = await self.transaction(
            [
                (
                    "UPDATE web_sessions SET expires_at = ? WHERE id = ? AND expires_at > ?",
                    (stamp_of(expires_at), session_key(secret), stamp_of(now)),
                )
            ]
        )
        return bool(changed[0])

    async def end_web_session(self, secret: str) -> None:
        """Sign out: the session of `secret` is gone."""
        await self.transaction([("DELETE FROM web_sessions WHERE id = ?", (session_key(secret),))])

    async def sweep_web_sessions(self, now: datetime) -> int:
        """Delete the expired sessions and sign-ins; how many sessions went."""
        counts = await self.transaction(
            [
                ("DELETE FROM web_sessions WHERE expires_at <= ?", (stamp_of(now),)),
                ("DELETE FROM web_logins WHERE expires_at <= ?", (stamp_of(now),)),
            ]
        )
        return counts[0]


__all__ = ["SessionTables", "WebLogin", "WebSession", "session_key"]
