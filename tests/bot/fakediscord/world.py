"""The fake Discord's world (`World`), composed of the state and its route mixins, and its
REST entry points: `handle` serves one request (records it, attributes it to the interaction
being handled, turns refusals into Discord's error answers and an injected fault into its
answer), `serve` adds the fault's delay and callback, and `_route` dispatches a path, matched
against the table of the routes the fake knows, to the mixin serving it."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from tests.bot.fakediscord.building import WorldBuilding
from tests.bot.fakediscord.callbacks import InteractionRoutes
from tests.bot.fakediscord.commands import CommandRoutes
from tests.bot.fakediscord.emojis import EmojiRoutes
from tests.bot.fakediscord.model import (
    MISSING_PERMISSIONS,
    THREAD_ARCHIVED,
    FakeHTTPError,
    as_read,
)
from tests.bot.fakediscord.recording import InteractionRecord, Request


class World(InteractionRoutes, CommandRoutes, EmojiRoutes, WorldBuilding):
    """The fake Discord's state and REST semantics, shared by the in-process and gateway fakes."""

    def __init__(
        self,
        *,
        guild_name: str = "Montana Test",
        channel_names: Sequence[str] = ("general",),
        response_deadline: float | None = 3.0,
        guild_id: int | None = None,
    ) -> None:
        super().__init__(
            guild_name=guild_name, response_deadline=response_deadline, guild_id=guild_id
        )
        for name in channel_names:
            self.add_channel(name)

    # ---- REST ------------------------------------------------------------------------------

    def handle(
        self,
        method: str,
        path: str,
        query: Mapping[str, str],
        body: Any,
        files: Sequence[tuple[str, bytes]],
        interaction: InteractionRecord | None = None,
    ) -> tuple[int, Any]:
        """Serve one REST request; returns (status, JSON body or None). Records it.

        ``interaction`` is the interaction being handled when the request was made, if known;
        webhook routes find theirs by token, and with exactly one interaction in flight
        (``in_flight``, used by the gateway fake) other requests are attributed to it.
        An injected fault met by the request (see ``serve``) replaces the answer, before or
        after serving it.
        """
        token_match = re.match(r"/(?:interactions|webhooks)/\d+/([^/]+)", path)
        if token_match and token_match.group(1) in self.interactions_by_token:
            interaction = self.interactions_by_token[token_match.group(1)]
        elif interaction is None and len(self.in_flight) == 1:
            interaction = self.in_flight[0]
        request = Request(
            method,
            path,
            dict(query),
            body,
            {name: data for name, data in files},
            interaction.id if interaction else None,
        )
        self.recorded.append(request)
        fault = self._fault_now
        failing = fault is not None and fault.status is not None
        try:
            if failing and fault is not None and not fault.performed:
                raise FakeHTTPError(int(fault.status or 500), fault.message, fault.code)
            status, response = self._route(
                method, path, dict(query), body, list(files), interaction
            )
            if failing and fault is not None:
                status, response = int(fault.status or 500), fault.body()
        except FakeHTTPError as error:
            status, response = error.status, error.body
            if failing and fault is not None:
                response = fault.body()
            elif error.status == 404 and error.body.get("code") == 0:
                self.errors.append(f"the fake does not know {method} {path}")
            elif error.status in (400, 413) and error.body.get("code") != THREAD_ARCHIVED:
                problem = f"Discord would reject {method} {request.route}: {error.body['message']}"
                self.errors.append(problem)
                if interaction is not None:
                    interaction.errors.append(problem)
        request.status, request.response = status, response
        if interaction is not None:
            interaction.last_activity = time.monotonic()
            if interaction.response_type is not None and not interaction.responded_at:
                interaction.responded_at = interaction.last_activity
        self._notify()
        return status, response

    async def serve(
        self,
        method: str,
        path: str,
        query: Mapping[str, str],
        body: Any,
        files: Sequence[tuple[str, bytes]],
        interaction: InteractionRecord | None = None,
    ) -> tuple[int, Any]:
        """``handle``, with the injected fault the request meets: its delay first, its
        answer in place of the real one, its ``then`` before the answer goes out."""
        fault = self.take_fault(method, path)
        # a network call always yields to the loop
        await asyncio.sleep(fault.delay if fault is not None else 0)
        self._fault_now = fault  # no await until handle returns: no other request between
        try:
            status, response = self.handle(method, path, query, body, files, interaction)
        finally:
            self._fault_now = None
        if fault is not None and fault.then is not None:
            await fault.then()
        return status, response

    def _route(
        self,
        method: str,
        path: str,
        query: dict[str, str],
        body: Any,
        files: list[tuple[str, bytes]],
        scope: InteractionRecord | None,
    ) -> tuple[int, Any]:
        ok: tuple[int, Any]
        match = _match(path)
        name, args = match
        if name == "me" and method == "GET":
            return 200, self.bot_user.payload()
        if name == "application" and method == "GET":
            return 200, self.application_payload()
        if name == "gateway_bot" and method == "GET":
            return 200, {
                "url": "wss://gateway.discord.gg",
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        if name == "commands":
            return self._commands(method, body, None)
        if name in ("app_emojis", "app_emoji"):
            emoji_id = int(args[1]) if name == "app_emoji" else None
            return self._app_emoji_route(method, int(args[0]), emoji_id, body)
        if name == "guild_commands":
            return self._commands(method, body, int(args[1]))
        if name == "user" and method == "GET":
            return 200, self._user(int(args[0])).payload()
        if name == "guild" and method == "GET":
            return 200, self.guild_payload()
        if name == "member" and method == "GET":
            return 200, self.member_payload(self._user(int(args[1])))
        if name == "guild_channels" and method == "GET":
            return 200, [c.payload() for c in self.text_channels]
        if name == "channel":
            return self._channel_route(method, int(args[0]), body)
        if name == "channel_messages":
            channel = self._channel(int(args[0]))
            if method == "POST":
                message = self._post_message(channel, body, files, scope)
                return 200, message.payload
            if method == "GET":  # history, newest first
                limit = int(query.get("limit", "50"))
                before = int(query.get("before", 1 << 63))
                after = int(query.get("after", 0))
                found = [m for m in self.messages_in(channel) if after < m.id < before]
                return 200, [as_read(m.payload) for m in found[::-1][:limit]]
        if name == "channel_message":
            channel, message = self._channel(int(args[0])), self._message(int(args[1]))
            if message.channel_id != channel.id or message.ephemeral:
                raise FakeHTTPError(404, "Unknown Message", 10008)
            if method == "GET":
                return 200, as_read(message.payload)
            if method == "PATCH":
                if channel.is_thread and channel.archived:
                    raise FakeHTTPError(400, "Thread is archived", THREAD_ARCHIVED)
                if files and not self.bot_permissions(channel).attach_files:
                    raise FakeHTTPError(403, "Missing Permissions", MISSING_PERMISSIONS)
                self._edit_message(message, body, files)
                return 200, message.payload
            if method == "DELETE":
                message.deleted = True
                return 204, None
        if name == "threads" and method == "POST":
            return 201, self._create_thread(int(args[0]), None, body).payload()
        if name == "message_threads" and method == "POST":
            return 201, self._create_thread(int(args[0]), int(args[1]), body).payload()
        if name in ("thread_member", "typing", "reaction", "pin") and method in (
            "PUT",
            "POST",
            "DELETE",
        ):
            if name == "pin":
                self._message(int(args[1])).payload["pinned"] = method == "PUT"
            return 204, None
        if name == "dm" and method == "POST":
            return 200, self._dm_channel(self._user(int(body["recipient_id"]))).payload()
        if name == "callback" and method == "POST":
            return self._callback(int(args[0]), args[1], body, files, query)
        if name == "followup" and method == "POST":
            ok = self._followup(args[1], body, files)
            return ok if query.get("wait") in ("1", "true", "True") else (204, None)
        if name == "webhook_message":
            return self._webhook_message(method, args[1], args[2], body, files)
        raise FakeHTTPError(404, f"404: Not Found ({method} {path})", 0)


_ROUTES: list[tuple[str, re.Pattern[str]]] = [
    (name, re.compile(pattern))
    for name, pattern in [
        ("me", r"/users/@me"),
        ("dm", r"/users/@me/channels"),
        ("user", r"/users/(\d+)"),
        ("application", r"/(?:oauth2/)?applications/@me"),
        ("gateway_bot", r"/gateway(?:/bot)?"),
        ("commands", r"/applications/(\d+)/commands"),
        ("app_emojis", r"/applications/(\d+)/emojis"),
        ("app_emoji", r"/applications/(\d+)/emojis/(\d+)"),
        ("guild_commands", r"/applications/(\d+)/guilds/(\d+)/commands"),
        ("guild", r"/guilds/(\d+)"),
        ("guild_channels", r"/guilds/(\d+)/channels"),
        ("member", r"/guilds/(\d+)/members/(\d+)"),
        ("channel", r"/channels/(\d+)"),
        ("channel_messages", r"/channels/(\d+)/messages"),
        ("channel_message", r"/channels/(\d+)/messages/(\d+)"),
        ("threads", r"/channels/(\d+)/threads"),
        ("message_threads", r"/channels/(\d+)/messages/(\d+)/threads"),
        ("thread_member", r"/channels/(\d+)/thread-members/(@me|\d+)"),
        ("typing", r"/channels/(\d+)/typing"),
        ("reaction", r"/channels/(\d+)/messages/(\d+)/reactions/.*"),
        ("pin", r"/channels/(\d+)/(?:messages/)?pins/(\d+)"),
        ("callback", r"/interactions/(\d+)/([^/]+)/callback"),
        ("followup", r"/webhooks/(\d+)/([^/]+)"),
        ("webhook_message", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)"),
    ]
]


def _match(path: str) -> tuple[str, tuple[str, ...]]:
    for name, pattern in _ROUTES:
        found = pattern.fullmatch(path)
        if found:
            return name, found.groups()
    return "", ()


def api_path(url: str) -> str:
    """``https://discord.com/api/v10/channels/1`` -> ``/channels/1`` (any host, any version)."""
    path = url.split("://", 1)[-1]
    path = path[path.find("/") :] if "/" in path else "/"
    path = path.split("?", 1)[0]
    return re.sub(r"^/api(?:/v\d+)?", "", path)
