"""What the fake world records and is told to do: `Request` (one REST request the bot made,
with its answer), `Fault` (a failure a test injects into the REST answers, and the statuses
discord.py retries by itself) and `InteractionRecord` (everything Discord knows about one
interaction the fake sent: its answer, messages, edits, choices, modal and errors)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tests.bot.fakediscord.model import FakeChannel, FakeUser, Json


@dataclass
class Request:
    """One request the bot made to Discord."""

    method: str
    path: str  # concrete, e.g. /channels/123/messages
    query: dict[str, str]
    json: Any  # the JSON body (for multipart: the parsed payload_json), or None
    files: dict[str, bytes]
    interaction_id: int | None = None  # the interaction being handled when it was made
    status: int = 200
    response: Any = None

    @property
    def route(self) -> str:
        """The path with ids and tokens replaced, e.g. ``POST /channels/{id}/messages``."""
        path = re.sub(r"/(interactions|webhooks)/(\d+)/[^/]+", r"/\1/{id}/{token}", self.path)
        path = re.sub(r"/\d{6,}", "/{id}", path)
        return f"{self.method} {path}"

    def __repr__(self) -> str:
        return f"<Request {self.method} {self.path} -> {self.status}>"


RETRIED_BY_DISCORD_PY = (500, 502, 504, 524)
"""Statuses discord.py's ``HTTPClient.request`` retries by itself (discord/http.py)."""


@dataclass
class Fault:
    """A failure injected into the fake's REST answers (see ``World.inject``)."""

    route: str
    """Which requests, as ``Request.route`` spells them: ``"POST /channels/{id}/messages"``."""
    status: int | None
    """The error status to answer (None: answer normally, after ``delay`` and ``then``)."""
    code: int = 0
    message: str = "injected failure"
    channel_id: int | None = None
    """Only requests about this channel or thread."""
    times: int = 1
    """How many matching requests it hits."""
    performed: bool = False
    """Discord did the request, then the answer failed (a 502 from its proxy)."""
    delay: float = 0.0
    """Seconds before answering."""
    retry_after: float = 0.0
    then: Callable[[], Awaitable[Any]] | None = None
    """Awaited once the request is served, before its answer goes out."""
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        if self.times <= 0:
            return False
        if Request(method, path, {}, None, {}).route != self.route:
            return False
        return self.channel_id is None or path.startswith(f"/channels/{self.channel_id}/")

    def body(self) -> Json:
        body: Json = {"message": self.message, "code": self.code}
        if self.status == 429:
            body.update(retry_after=self.retry_after, **{"global": False})
        return body


@dataclass
class InteractionRecord:
    """Everything Discord knows about one interaction the fake sent."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    payload: Json
    created: float
    component_message_id: int | None = None
    response_type: int | None = None
    response_data: Json | None = None
    response_files: dict[str, bytes] = field(default_factory=dict)
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    sent_ids: list[int] = field(default_factory=list)  # REST posts made while handling it
    message_ids: list[int] = field(default_factory=list)  # every message it created, in order
    original_edits: list[Json] = field(default_factory=list)
    choices: list[Json] | None = None
    modal: Json | None = None
    activity_instance: str | None = None
    """The Activity's instance a LAUNCH_ACTIVITY answer launched."""
    errors: list[str] = field(default_factory=list)
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    responded_at: float = 0.0
    last_activity: float = 0.0
