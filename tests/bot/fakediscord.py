"""A fake Discord for testing the real discord.py bot without a network.

The real ``discord.Client`` / ``app_commands.CommandTree`` / views run unchanged; only the two
places where discord.py talks to Discord are replaced while a client is started here:

* ``discord.http.HTTPClient.request`` of that client (REST: messages, threads, DMs, commands), and
* ``discord.webhook.async_.AsyncWebhookAdapter.request`` (interaction callbacks, followups and
  ``@original`` edits; with files attached the JSON travels in the multipart ``payload_json``).

Gateway events are fed straight into ``client._connection`` (READY, GUILD_CREATE,
INTERACTION_CREATE, THREAD_CREATE ...). The fake keeps a small "world" (one guild, channels,
users, every message the bot posted, edits and deletions, synced commands) so that what the
bot sends can be read back the way a player would see it, and pressed again.

Usage::

    fake = FakeDiscord()                      # guild "Montana Test", text channel "general"
    ana = fake.add_user("ana")
    mod = fake.add_user("mo", permissions=discord.Permissions(manage_channels=True))
    await fake.start(MyBot())                 # login, setup_hook (tree.sync is recorded), READY
    res = await fake.slash(ana, fake.channel, "montana", "game", "new")   # or "montana game new"
    assert res.response_type == 4 and "Join" in res.original.button_labels()
    res2 = await fake.press(mod, res.original, label="Join")   # the button must be on the message
    assert res2.ephemeral and "joined" in res2.content
    res3 = await fake.autocomplete(ana, fake.channel, "montana", "build",
                                   options={"field": "C"}, focused="field")
    assert res3.choices[0]["value"] == "C4"
    assert fake.messages_in(fake.channel)[-1].files["board.png"].startswith(b"\\x89PNG")
    await fake.close()                        # closes clients, restores discord.py
    assert not fake.errors                    # exceptions in commands/views/events land here

With pytest, use the ``fake_discord`` fixture from ``tests/bot/conftest.py``: it closes the fake
and fails the test if ``fake.errors`` is not empty.

API in short (``FakeDiscord``; ``FakeGateway`` has the same world and interaction helpers):

* world: ``add_user(name, permissions=, dms_open=)``, ``set_permissions(user, perms)``,
  ``add_channel(name)``, ``channel`` ("general"), ``guild_id``, ``bot_user``, ``threads``,
  ``channel_by_id(id)``, ``dm_channel(user)`` (a slash command there is one in a DM with
  the bot: only a command whose ``contexts`` allow it), ``join_guild(name)`` /
  ``leave_guild(id)`` (the bot is added to / removed from another server, known by its
  id and name only), ``world`` (everything, e.g. ``world.messages[id]``).
* clients: ``await start(client)``; ``await stop(client)`` then ``start(NewClient())`` is a
  restart (messages, buttons and threads stay); ``client`` is the one receiving interactions.
* interactions (each returns an :class:`InteractionResult` once handled):
  ``slash(user, channel, *path, options=)``, ``autocomplete(..., focused=)``,
  ``press(user, message, custom_id | label=)``, ``select(user, message, custom_id, values)``,
  ``submit_modal(user, channel, result.modal, {input_id: text})``, and for hostile-input tests
  ``press_forged(user, message, any_custom_id)``. Pass ``expect_response=False`` when no answer
  is the expected outcome, and ``until=lambda r: ...`` to wait for something the bot does
  later (e.g. ``until=lambda r: "board.png" in r.files``; needed with the gateway fake).
* results: ``response_type`` (4/5/6/7/8/9), ``original`` (the answer message, live),
  ``content``, ``ephemeral``, ``embeds``, ``components``, ``followups``, ``sent`` (REST posts
  made meanwhile: channel.send, threads, DMs), ``messages`` (all of them), ``files``
  ({name: bytes} over all of them), ``text``, ``choices``, ``modal``, ``edits``, ``errors``.
* messages (:class:`FakeMessage`): ``content``, ``text``, ``embeds``, ``components``,
  ``custom_ids()``, ``button_labels()``, ``find_component()``, ``files``, ``ephemeral``,
  ``mentioned_ids`` / ``pinged_ids`` (who was actually notified: not by edits, not by the
  followup filling a deferred answer, not by ephemeral messages), ``edits``, ``deleted``.
* reading: ``messages_in(channel_or_thread)``, ``dms(user)``, ``requests("POST /channels")``
  (:class:`Request`: ``method``, ``path``, ``route``, ``query``, ``json``, ``files``,
  ``interaction_id``, ``status``, ``response``), ``await wait_for_message(channel, pred)``.
* options: ``FakeDiscord(response_deadline=3.0, expected_errors=(CheckFailure,
  TransformerError))``; ``settle_timeout`` (10 s) bounds the wait for one interaction.
* Discord misbehaving, as it does: ``inject(route, status, code=, channel=, times=,
  performed=, delay=, then=)`` fails the next matching requests (e.g.
  ``inject("POST /channels/{id}/messages", 503, channel=thread)``; ``performed=True``: Discord
  did it, then the answer failed, like a 502 from its proxy; ``then``: an async callback run
  once the request is served, before the answer goes out, e.g. killing a bot process);
  ``deny_bot(channel, Permissions(attach_files=True))`` takes permissions from the bot in a
  channel and its threads (as a channel overwrite; Discord answers 403 50013/50001);
  ``archive(thread)`` (editing a message there answers 400 50083, posting unarchives it);
  ``delete_channel(thread)``. Message creates honour ``nonce`` + ``enforce_nonce``: the same
  nonce again within ``world.nonce_window`` seconds returns the first message. The in-process
  fake retries 429 and 500/502/504/524 answers like discord.py's ``HTTPClient.request`` does
  (5 tries; without its 1-9 s sleeps); the gateway fake leaves that to the real discord.py.

Every interaction helper waits until the tasks the interaction spawned (command, view, dynamic
item, listeners, and every task they create in turn) are finished, then returns an
:class:`InteractionResult`. An interaction left unanswered, a callback later than
``response_deadline`` seconds, a second callback, a message over Discord's limits (2000
characters, 5 rows of 5 buttons, 25 options/choices, custom_id over 100 characters, files over
the size limit) are answered like Discord does (errors / HTTP 4xx) and recorded in ``errors``.

The separate-process variant (a real websocket gateway and REST server on loopback) lives in
``tests/bot/fakegateway.py`` and shares the world and the interaction builders defined here.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import io
import json
import logging
import re
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

Json = dict[str, Any]

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_ARCHIVED = 50001, 50013, 50083
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

#: Response types of the interaction callback, as Discord numbers them.
PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE, AUTOCOMPLETE, MODAL = 1, 4, 5, 6, 7, 8, 9

#: Permissions every member has through @everyone in the fake guild.
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_application_commands=True,
    use_external_emojis=True,
)
#: Permissions of the bot's own role.
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | discord.Permissions(
    manage_messages=True,
    manage_threads=True,
    create_private_threads=True,
    mention_everyone=True,
)

_last_snowflake = 0


def new_snowflake() -> int:
    """A fresh, increasing Discord id whose timestamp is now (discord.py reads it back)."""
    global _last_snowflake
    now = discord.utils.time_snowflake(discord.utils.utcnow())
    _last_snowflake = max(now, _last_snowflake + 1)
    return _last_snowflake


def _iso_now() -> str:
    return discord.utils.utcnow().isoformat()


COMMAND_MENTION = re.compile(r"</([^:<>]+):(\d+)>")
"""A slash command mention in a message's content, as Discord's clients read it."""


class FakeHTTPError(Exception):
    """A Discord error answer (status and JSON body) produced by the fake world."""

    def __init__(self, status: int, message: str, code: int = 0) -> None:
        super().__init__(f"{status} {message} (code {code})")
        self.status = status
        self.body: Json = {"message": message, "code": code}


def _discord_exception(error: FakeHTTPError) -> discord.HTTPException:
    response: Any = SimpleNamespace(status=error.status, reason="fake", headers={})
    if error.status == 403:
        return discord.Forbidden(response, error.body)
    if error.status == 404:
        return discord.NotFound(response, error.body)
    if error.status >= 500:
        return discord.DiscordServerError(response, error.body)
    return discord.HTTPException(response, error.body)


# --------------------------------------------------------------------------------------------
# The world: users, guild, channels, messages, interactions, recorded requests
# --------------------------------------------------------------------------------------------


@dataclass
class FakeUser:
    """A Discord user (and guild member) tests act as."""

    id: int
    name: str
    permissions: discord.Permissions = field(default_factory=discord.Permissions.none)
    dms_open: bool = True
    bot: bool = False
    role_id: int | None = None
    locale: str = "en-US"
    """The language of this user's Discord client: every interaction they send carries it."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def total_permissions(self) -> discord.Permissions:
        total = EVERYONE_PERMISSIONS | self.permissions
        if total.administrator:
            return discord.Permissions.all()
        return total


@dataclass
class FakeChannel:
    """A guild text channel, a thread, or a DM channel."""

    id: int
    name: str
    type: int = 0  # 0 text, 1 DM, 11 public thread, 12 private thread
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: FakeUser | None = None
    archived: bool = False
    locked: bool = False
    deleted: bool = False
    bot_denied: int = 0
    """Permissions taken from the bot here (and in this channel's threads)."""
    overwrites: list[Json] = field(default_factory=list)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in (10, 11, 12)

    def payload(self) -> Json:
        if self.type == 1:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        data: Json = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": list(self.overwrites),
            "nsfw": False,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                member_count=1,
                message_count=0,
                total_message_sent=0,
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": _iso_now(),
                    "locked": self.locked,
                    "create_timestamp": _iso_now(),
                },
            )
        return data


INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
"""Characters no Discord client shows (`FakeMessage.content` leaves them out)."""


@dataclass
class FakeMessage:
    """A message as Discord stores it; ``payload`` is exactly what discord.py receives.

    Messages are live: edits and deletions made later by the bot update this object.
    """

    payload: Json
    files: dict[str, bytes] = field(default_factory=dict)
    interaction_id: int | None = None
    pinged_ids: list[int] = field(default_factory=list)
    deleted: bool = False
    edits: int = 0

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def channel_id(self) -> int:
        return int(self.payload["channel_id"])

    @property
    def content(self) -> str:
        """The content as people read it: without the characters no client shows (zero
        width spaces and joiners: the bot's outbox writes its messages' identity in them,
        `bot.discord_app.delivery.announce.identity_mark`). ``raw_content``: as Discord keeps it."""
        return self.raw_content.translate(INVISIBLE)

    @property
    def raw_content(self) -> str:
        return str(self.payload.get("content") or "")

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while a deferred "thinking..." message has not been filled in."""
        return bool(self.flags & LOADING)

    @property
    def embeds(self) -> list[Json]:
        return list(self.payload.get("embeds") or [])

    @property
    def components(self) -> list[Json]:
        return list(self.payload.get("components") or [])

    @property
    def mentioned_ids(self) -> list[int]:
        """Users mentioned in the content (whether or not they were notified)."""
        return [int(m) for m in re.findall(r"<@!?(\d+)>", self.content)]

    @property
    def text(self) -> str:
        """Content plus embed titles, descriptions, fields and footers, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for embed_field in embed.get("fields", []):
                parts += [embed_field.get("name", ""), embed_field.get("value", "")]
            parts.append((embed.get("footer") or {}).get("text", ""))
        for component in self.walk_components():
            if component.get("type") == 10:  # components v2 text display
                parts.append(component.get("content", ""))
        return "\n".join(p for p in parts if p)

    def walk_components(self) -> list[Json]:
        """Every component, depth first (rows, their children, v2 containers/accessories)."""
        return list(_walk_components(self.components))

    def interactive_components(self) -> list[Json]:
        """Buttons and selects that carry a custom_id."""
        return [c for c in self.walk_components() if "custom_id" in c and c.get("type") != 4]

    def custom_ids(self) -> list[str]:
        return [str(c["custom_id"]) for c in self.interactive_components()]

    def button_labels(self) -> list[str]:
        return [str(c.get("label") or "") for c in self.walk_components() if c.get("type") == 2]

    def find_component(self, custom_id: str | None = None, *, label: str | None = None) -> Json:
        """The component with this custom_id, or the button/select with this label/placeholder."""
        for component in self.interactive_components():
            if custom_id is not None and component.get("custom_id") == custom_id:
                return component
            names = (component.get("label"), component.get("placeholder"))
            if label is not None and label in names:
                return component
        wanted = custom_id if custom_id is not None else f"label={label!r}"
        present = [
            (c.get("label") or c.get("placeholder"), c["custom_id"])
            for c in self.interactive_components()
        ]
        raise AssertionError(f"message {self.id} has no component {wanted}; it has {present}")

    def __repr__(self) -> str:
        return (
            f"<FakeMessage id={self.id} channel={self.channel_id} ephemeral={self.ephemeral} "
            f"content={self.content[:60]!r} files={list(self.files)} "
            f"components={self.custom_ids()}>"
        )


def _as_read(payload: Json) -> Json:
    """A message as reading it back gives it: Discord echoes the nonce only to its sender."""
    return {key: value for key, value in payload.items() if key != "nonce"}


def _walk_components(components: Iterable[Json]) -> Iterable[Json]:
    for component in components:
        yield component
        yield from _walk_components(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield from _walk_components([component["accessory"]])
        if isinstance(component.get("component"), dict):  # modal label wrapper
            yield from _walk_components([component["component"]])


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
    errors: list[str] = field(default_factory=list)
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    responded_at: float = 0.0
    last_activity: float = 0.0


class InteractionResult:
    """What the bot did with one interaction (live view onto the fake's world)."""

    def __init__(self, world: World, record: InteractionRecord) -> None:
        self._world = world
        self.record = record

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def response_type(self) -> int | None:
        """4 message, 5 deferred, 6 deferred update, 7 update, 8 autocomplete, 9 modal."""
        return self.record.response_type

    @property
    def responded(self) -> bool:
        return self.record.response_type is not None

    @property
    def original(self) -> FakeMessage | None:
        """The response message: made by a 4/5 answer (as edited since) or updated by 6/7."""
        if self.record.original_id is None:
            return None
        return self._world.messages.get(self.record.original_id)

    @property
    def followups(self) -> list[FakeMessage]:
        return [self._world.messages[i] for i in self.record.followup_ids]

    @property
    def sent(self) -> list[FakeMessage]:
        """Messages posted through REST (channel.send, threads, DMs) while handling it."""
        return [self._world.messages[i] for i in self.record.sent_ids]

    @property
    def messages(self) -> list[FakeMessage]:
        """Every message this interaction created or answered with, in order (live objects)."""
        ids = list(self.record.message_ids)
        if self.record.original_id is not None and self.record.original_id not in ids:
            ids.insert(0, self.record.original_id)
        return [self._world.messages[i] for i in ids]

    @property
    def edits(self) -> list[Json]:
        """Payloads of ``@original`` edits, in order."""
        return list(self.record.original_edits)

    @property
    def choices(self) -> list[Json]:
        """Autocomplete choices the bot answered ({"name", "value"})."""
        return list(self.record.choices or [])

    @property
    def modal(self) -> Json | None:
        return self.record.modal

    # Shortcuts for the response message.
    @property
    def content(self) -> str:
        return self.original.content if self.original else ""

    @property
    def ephemeral(self) -> bool:
        return bool(self.original and self.original.ephemeral)

    @property
    def embeds(self) -> list[Json]:
        return self.original.embeds if self.original else []

    @property
    def components(self) -> list[Json]:
        return self.original.components if self.original else []

    @property
    def files(self) -> dict[str, bytes]:
        """Files of every message in :attr:`messages` (name -> bytes)."""
        found: dict[str, bytes] = {}
        for message in self.messages:
            found.update(message.files)
        return found

    @property
    def text(self) -> str:
        """The text of every message in :attr:`messages`, joined, for ``in`` assertions."""
        return "\n".join(m.text for m in self.messages)

    @property
    def errors(self) -> list[str]:
        return list(self.record.errors)

    def __repr__(self) -> str:
        return (
            f"<InteractionResult id={self.id} response_type={self.response_type} "
            f"ephemeral={self.ephemeral} text={self.text[:80]!r} messages={len(self.messages)}>"
        )


EventSink = Callable[[str, Json], None]
#: A condition on a result an interaction helper waits for (``until=``), e.g. a picture posted.
Until = Callable[["InteractionResult"], bool]


class World:
    """The fake Discord's state and REST semantics, shared by the in-process and gateway fakes."""

    def __init__(
        self,
        *,
        guild_name: str = "Montana Test",
        channel_names: Sequence[str] = ("general",),
        response_deadline: float | None = 3.0,
        guild_id: int | None = None,
    ) -> None:
        self.response_deadline = response_deadline
        self.application_id = new_snowflake()
        self.bot_user = FakeUser(self.application_id, "montana-bot", bot=True)
        self.owner = FakeUser(new_snowflake(), "guild-owner")
        self.guild_id = guild_id if guild_id is not None else new_snowflake()
        self.guild_locale = "en-US"
        """The server's preferred locale (Community servers set it; else en-US)."""
        self.guild_name = guild_name
        self.other_guilds: dict[int, str] = {}
        """The other servers the bot is in (`join_guild`): id -> name."""
        self.bot_role_id = new_snowflake()
        self.users: dict[int, FakeUser] = {
            self.bot_user.id: self.bot_user,
            self.owner.id: self.owner,
        }
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.global_commands: list[Json] = []
        self.guild_commands: dict[int, list[Json]] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.recorded: list[Request] = []
        self.errors: list[str] = []
        self.event_sinks: list[EventSink] = []
        self.in_flight: list[InteractionRecord] = []
        self.faults: list[Fault] = []
        self._fault_now: Fault | None = None
        """The fault of the request `handle` is serving (set by `serve` around the call)."""
        self.nonce_window = 300.0
        """Seconds during which a message create with a known nonce (and ``enforce_nonce``)
        returns the first message instead of making another (Discord: "a few minutes")."""
        self._nonces: dict[str, tuple[int, float]] = {}
        self._changed = asyncio.Event()
        for name in channel_names:
            self.add_channel(name)

    # ---- building the world ----------------------------------------------------------------

    def add_user(
        self,
        name: str,
        *,
        permissions: discord.Permissions | None = None,
        dms_open: bool = True,
    ) -> FakeUser:
        """A guild member. ``permissions`` are granted on top of @everyone through a role."""
        user = FakeUser(new_snowflake(), name, dms_open=dms_open)
        self.users[user.id] = user
        if permissions is not None:
            self.set_permissions(user, permissions)
        return user

    def set_permissions(self, user: FakeUser, permissions: discord.Permissions) -> None:
        """Give ``user`` these guild permissions (beyond @everyone) from now on."""
        user.permissions = permissions
        event = "GUILD_ROLE_UPDATE"
        if user.role_id is None:
            user.role_id = new_snowflake()
            event = "GUILD_ROLE_CREATE"
        self.emit(event, {"guild_id": str(self.guild_id), "role": self._user_role(user)})

    def add_channel(self, name: str) -> FakeChannel:
        channel = FakeChannel(new_snowflake(), name, 0, guild_id=self.guild_id)
        self.channels[channel.id] = channel
        self.emit("CHANNEL_CREATE", channel.payload())
        return channel

    def join_guild(self, name: str) -> int:
        """The bot is added to another server (its id and name only: no channel or
        member of it is kept); returns its id."""
        guild_id = new_snowflake()
        self.other_guilds[guild_id] = name
        self.emit("GUILD_CREATE", self.other_guild_payload(guild_id))
        return guild_id

    def leave_guild(self, guild_id: int) -> None:
        """The bot is removed from another server (kicked, or the server deleted)."""
        del self.other_guilds[guild_id]
        self.emit("GUILD_DELETE", {"id": str(guild_id)})

    def other_guild_payload(self, guild_id: int) -> Json:
        payload = self.guild_payload()
        payload.update(
            id=str(guild_id),
            name=self.other_guilds[guild_id],
            roles=[_role_payload(guild_id, "@everyone", EVERYONE_PERMISSIONS, 0)],
            member_count=1,
            channels=[],
            threads=[],
            members=[],
        )
        return payload

    def deny_bot(self, channel: FakeChannel, permissions: discord.Permissions) -> None:
        """Take ``permissions`` from the bot in ``channel`` (a text channel) and its threads,
        as a moderator's channel overwrite on the bot's role would."""
        channel.bot_denied = permissions.value
        channel.overwrites = (
            [{"id": str(self.bot_role_id), "type": 0, "allow": "0", "deny": str(permissions.value)}]
            if permissions.value
            else []
        )
        self.emit("CHANNEL_UPDATE", channel.payload())

    def bot_permissions(self, channel: FakeChannel) -> discord.Permissions:
        """What the bot may do in ``channel`` (a thread inherits its parent's overwrites)."""
        source = self.channels.get(channel.parent_id or 0) if channel.is_thread else channel
        denied = source.bot_denied if source is not None else 0
        allowed = discord.Permissions(BOT_PERMISSIONS.value & ~denied)
        if channel.is_thread and not allowed.send_messages_in_threads:
            allowed.attach_files = allowed.embed_links = False  # Discord's implicit rule
        return allowed

    def archive(self, thread: FakeChannel) -> None:
        """The thread auto-archived (a long turn without messages)."""
        thread.archived = True
        self.emit("THREAD_UPDATE", thread.payload())

    def delete_channel(self, channel: FakeChannel) -> None:
        """Someone deleted the channel or thread (its messages go with it)."""
        channel.deleted = True
        self.emit("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", channel.payload())

    def inject(
        self,
        route: str,
        status: int | None = None,
        *,
        code: int = 0,
        message: str = "injected failure",
        channel: FakeChannel | None = None,
        times: int = 1,
        performed: bool = False,
        delay: float = 0.0,
        retry_after: float = 0.0,
        then: Callable[[], Awaitable[Any]] | None = None,
    ) -> Fault:
        """Fail the next ``times`` requests on ``route`` (about ``channel``, if given)."""
        fault = Fault(
            route,
            status,
            code=code,
            message=message,
            channel_id=channel.id if channel is not None else None,
            times=times,
            performed=performed,
            delay=delay,
            retry_after=retry_after,
            then=then,
        )
        self.faults.append(fault)
        return fault

    def take_fault(self, method: str, path: str) -> Fault | None:
        """The injected fault this request meets, if any (counted as hit)."""
        for fault in self.faults:
            if fault.matches(method, path):
                fault.times -= 1
                fault.hits += 1
                return fault
        return None

    @property
    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.type == 0 and not c.deleted]

    @property
    def threads(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.is_thread and not c.deleted]

    def emit(self, event: str, data: Json) -> None:
        """Tell connected clients about a change, as the gateway would."""
        for sink in list(self.event_sinks):
            sink(event, data)

    # ---- payloads --------------------------------------------------------------------------

    def _everyone_role(self) -> Json:
        return _role_payload(self.guild_id, "@everyone", EVERYONE_PERMISSIONS, 0)

    def _user_role(self, user: FakeUser) -> Json:
        assert user.role_id is not None
        return _role_payload(user.role_id, f"{user.name}-role", user.permissions, 1)

    def bot_member_payload(self) -> Json:
        return {
            "user": self.bot_user.payload(),
            "roles": [str(self.bot_role_id)],
            "joined_at": _iso_now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
            "premium_since": None,
        }

    def member_payload(self, user: FakeUser) -> Json:
        return {
            "user": user.payload(),
            "roles": [] if user.role_id is None else [str(user.role_id)],
            "permissions": str(user.total_permissions().value),
            "joined_at": _iso_now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
            "premium_since": None,
            "communication_disabled_until": None,
        }

    def guild_payload(self) -> Json:
        roles = [
            self._everyone_role(),
            _role_payload(self.bot_role_id, "montana-bot", BOT_PERMISSIONS, 1, managed=True),
        ]
        roles += [self._user_role(u) for u in self.users.values() if u.role_id is not None]
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "unavailable": False,
            "large": False,
            "member_count": len(self.users),
            "roles": roles,
            "emojis": [],
            "stickers": [],
            "features": [],
            "channels": [c.payload() for c in self.text_channels],
            "threads": [c.payload() for c in self.threads],
            "members": [self.bot_member_payload()],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": self.guild_locale,
            "system_channel_flags": 0,
            "joined_at": _iso_now(),
        }

    def ready_payload(self, session_id: str, resume_url: str) -> Json:
        return {
            "v": 10,
            "user": self.bot_user.payload(),
            "guilds": [
                {"id": str(guild_id), "unavailable": True}
                for guild_id in (self.guild_id, *self.other_guilds)
            ],
            "session_id": session_id,
            "resume_gateway_url": resume_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    def application_payload(self) -> Json:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "Montana, the board game (test application)",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "interactions_endpoint_url": None,
            "bot": self.bot_user.payload(),
        }

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

    def _notify(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def wait_for_change(self, timeout: float) -> None:
        """Wait until the next request is served (or ``timeout`` seconds pass)."""
        changed = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), timeout)

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
                return 200, [_as_read(m.payload) for m in found[::-1][:limit]]
        if name == "channel_message":
            channel, message = self._channel(int(args[0])), self._message(int(args[1]))
            if message.channel_id != channel.id or message.ephemeral:
                raise FakeHTTPError(404, "Unknown Message", 10008)
            if method == "GET":
                return 200, _as_read(message.payload)
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

    # ---- route implementations ------------------------------------------------------------

    def _commands(self, method: str, body: Any, guild_id: int | None) -> tuple[int, Any]:
        stored = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        if method == "GET":
            return 200, stored
        if method == "PUT":
            commands = [self._command_payload(c, guild_id) for c in body]
        elif method == "POST":
            commands = [c for c in stored if c["name"] != body["name"]]
            commands.append(self._command_payload(body, guild_id))
        else:
            raise FakeHTTPError(405, "405: Method Not Allowed", 0)
        if guild_id is None:
            self.global_commands = commands
        else:
            self.guild_commands[guild_id] = commands
        return 200, commands if method == "PUT" else commands[-1]

    def _command_payload(self, command: Json, guild_id: int | None) -> Json:
        data = dict(command)
        data.setdefault("type", 1)
        data.setdefault("description", "")
        data.setdefault("options", [])
        data.update(
            id=str(new_snowflake()),
            application_id=str(self.application_id),
            version=str(new_snowflake()),
        )
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data

    def _user(self, user_id: int) -> FakeUser:
        try:
            return self.users[user_id]
        except KeyError:
            raise FakeHTTPError(404, "Unknown User", 10013) from None

    def _channel(self, channel_id: int) -> FakeChannel:
        channel = self.channels.get(channel_id)
        if channel is None or channel.deleted:
            raise FakeHTTPError(404, "Unknown Channel", 10003)
        return channel

    def _message(self, message_id: int) -> FakeMessage:
        message = self.messages.get(message_id)
        if message is None or message.deleted:
            raise FakeHTTPError(404, "Unknown Message", 10008)
        return message

    def _channel_route(self, method: str, channel_id: int, body: Any) -> tuple[int, Any]:
        channel = self._channel(channel_id)
        if method == "GET":
            return 200, channel.payload()
        if method == "PATCH":
            channel.name = body.get("name", channel.name)
            channel.archived = body.get("archived", channel.archived)
            channel.locked = body.get("locked", channel.locked)
            self.emit("THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE", channel.payload())
            return 200, channel.payload()
        if method == "DELETE":
            channel.deleted = True
            self.emit("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", channel.payload())
            return 200, channel.payload()
        raise FakeHTTPError(405, "405: Method Not Allowed", 0)

    def _create_thread(self, channel_id: int, message_id: int | None, body: Any) -> FakeChannel:
        parent = self._channel(channel_id)
        if parent.type != 0:
            raise FakeHTTPError(400, "Cannot create a thread here", 50024)
        if not self.bot_permissions(parent).create_public_threads:
            raise FakeHTTPError(403, "Missing Permissions", MISSING_PERMISSIONS)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise FakeHTTPError(
                400, "Invalid Form Body: thread name must be 1-100 characters", 50035
            )
        if message_id is not None:
            self._message(message_id)
            thread_type, thread_id = 11, message_id  # a message's thread shares its id
        else:
            thread_type, thread_id = int(body.get("type") or 12), new_snowflake()
        thread = FakeChannel(
            thread_id,
            name,
            thread_type,
            guild_id=self.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
        )
        self.channels[thread.id] = thread
        self.emit("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

    def _dm_channel(self, user: FakeUser) -> FakeChannel:
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient is user:
                return channel
        channel = FakeChannel(new_snowflake(), f"dm-{user.name}", 1, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def _post_message(
        self,
        channel: FakeChannel,
        body: Any,
        files: list[tuple[str, bytes]],
        scope: InteractionRecord | None,
    ) -> FakeMessage:
        if channel.type == 1 and channel.recipient is not None and not channel.recipient.dms_open:
            raise FakeHTTPError(403, "Cannot send messages to this user", 50007)
        if channel.type != 1:
            allowed = self.bot_permissions(channel)
            if not allowed.view_channel:
                raise FakeHTTPError(403, "Missing Access", MISSING_ACCESS)
            may_send = (
                allowed.send_messages_in_threads if channel.is_thread else allowed.send_messages
            )
            if not may_send or (files and not allowed.attach_files):
                raise FakeHTTPError(403, "Missing Permissions", MISSING_PERMISSIONS)
        if channel.is_thread and channel.locked:
            raise FakeHTTPError(400, "Thread is locked", THREAD_ARCHIVED)
        nonce = str((body or {}).get("nonce") or "")
        if nonce and (body or {}).get("enforce_nonce"):
            known = self._nonces.get(nonce)
            if known is not None and time.monotonic() - known[1] <= self.nonce_window:
                first = self.messages.get(known[0])
                if first is not None:
                    return first  # Discord: the message made with this nonce, nothing new
        if channel.is_thread and channel.archived:
            # a new message is accepted and unarchives the thread
            channel.archived = False
            self.emit("THREAD_UPDATE", channel.payload())
        message = self._new_message(channel, body or {}, files, message_type=0)
        if nonce:
            message.payload["nonce"] = nonce
            self._nonces[nonce] = (message.id, time.monotonic())
        if body and body.get("message_reference"):
            message.payload["type"] = 19
            message.payload["message_reference"] = body["message_reference"]
        if scope is not None:
            message.interaction_id = scope.id
            scope.sent_ids.append(message.id)
            scope.message_ids.append(message.id)
        return message

    def _new_message(
        self,
        channel: FakeChannel,
        body: Json,
        files: list[tuple[str, bytes]],
        *,
        message_type: int,
        extra_flags: int = 0,
        allow_empty: bool = False,
        notify: bool = True,
    ) -> FakeMessage:
        _validate_message(body, files, allow_empty=allow_empty)
        flags = (int(body.get("flags") or 0) & (EPHEMERAL | COMPONENTS_V2 | 4 | 4096)) | extra_flags
        message_id = new_snowflake()
        attachments, stored_files = _attachments(channel.id, body.get("attachments"), files, {})
        payload: Json = {
            "id": str(message_id),
            "channel_id": str(channel.id),
            "type": message_type,
            "author": self.bot_user.payload(),
            "content": body.get("content") or "",
            "timestamp": _iso_now(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": list(body.get("embeds") or []),
            "components": list(body.get("components") or []),
            "pinned": False,
            "flags": flags,
        }
        if body.get("poll"):
            payload["poll"] = body["poll"]
        message = FakeMessage(payload, stored_files)
        self._set_mentions(message, body.get("allowed_mentions"), notify=notify)
        self.messages[message_id] = message
        return message

    def _set_mentions(self, message: FakeMessage, allowed: Json | None, *, notify: bool) -> None:
        mentioned = [i for i in message.mentioned_ids if i in self.users]
        message.payload["mentions"] = [self.users[i].payload() for i in dict.fromkeys(mentioned)]
        if message.ephemeral:
            message.pinged_ids = []
        if not notify or message.ephemeral:
            return  # an edit notifies nobody new; earlier notifications stand
        if allowed is None or "users" in (allowed.get("parse") or []):
            pinged = mentioned
        else:
            allowed_ids = {int(u) for u in allowed.get("users") or []}
            pinged = [i for i in mentioned if i in allowed_ids]
        message.pinged_ids = list(dict.fromkeys(pinged))

    def _edit_message(
        self, message: FakeMessage, body: Json | None, files: list[tuple[str, bytes]]
    ) -> None:
        body = body or {}
        payload = message.payload
        if "attachments" in body or files:
            existing = {int(a["id"]): a for a in payload.get("attachments", [])}
            attachments, stored = _attachments(
                message.channel_id, body.get("attachments"), files, existing
            )
            kept_names = {a["filename"] for a in attachments}
            old_files = {n: b for n, b in message.files.items() if n in kept_names}
            payload["attachments"] = attachments
            message.files = {**old_files, **stored}
        for key in ("content", "embeds", "components"):
            if key in body:
                payload[key] = (
                    body[key] if body[key] is not None else ([] if key != "content" else "")
                )
        if "flags" in body and body["flags"] is not None:
            keep = payload["flags"] & (EPHEMERAL | COMPONENTS_V2)
            payload["flags"] = keep | (int(body["flags"]) & (4 | COMPONENTS_V2))
        payload["flags"] &= ~LOADING
        _validate_message(
            {k: payload.get(k) for k in ("content", "embeds", "components", "flags")},
            [(a["filename"], b"") for a in payload["attachments"]],
            allow_empty=False,
            check_files=False,
        )
        self._set_mentions(message, body.get("allowed_mentions"), notify=False)
        payload["edited_timestamp"] = _iso_now()
        message.edits += 1

    # ---- interactions ----------------------------------------------------------------------

    def _interaction(self, token: str) -> InteractionRecord:
        record = self.interactions_by_token.get(token)
        if record is None:
            raise FakeHTTPError(404, "Unknown Webhook", 10015)
        return record

    def _callback(
        self,
        interaction_id: int,
        token: str,
        body: Any,
        files: list[tuple[str, bytes]],
        query: dict[str, str],
    ) -> tuple[int, Any]:
        record = self.interactions.get(interaction_id)
        if record is None or record.token != token:
            raise FakeHTTPError(404, "Unknown interaction", 10062)
        if record.response_type is not None:
            problem = f"interaction {record.id} was answered twice"
            record.errors.append(problem)
            raise FakeHTTPError(400, "Interaction has already been acknowledged.", 40060)
        late = time.monotonic() - record.created
        if self.response_deadline is not None and late > self.response_deadline:
            problem = f"interaction {record.id} answered after {late:.2f}s (Discord allows 3 s)"
            record.errors.append(problem)
            self.errors.append(problem)
            raise FakeHTTPError(404, "Unknown interaction", 10062)
        response_type = int(body["type"])
        data: Json = dict(body.get("data") or {})
        resource: Json = {"type": response_type}
        is_component = record.type in (3, 5)
        if response_type == MESSAGE:
            message = self._new_message(
                record.channel,
                data,
                files,
                message_type=20 if record.type == 2 else 0,
            )
            self._attach_to_interaction(message, record)
            record.original_id = message.id
            resource["message"] = message.payload
        elif response_type == DEFERRED_MESSAGE:
            message = self._new_message(
                record.channel,
                {"content": "", "flags": data.get("flags", 0)},
                [],
                message_type=20 if record.type == 2 else 0,
                extra_flags=LOADING,
                allow_empty=True,
            )
            self._attach_to_interaction(message, record)
            record.original_id = message.id
            resource["message"] = message.payload
        elif response_type in (DEFERRED_UPDATE, UPDATE) and is_component:
            if record.component_message_id is None:
                raise FakeHTTPError(400, "Interaction has no message to update", 50035)
            message = self._message(record.component_message_id)
            if response_type == UPDATE:
                self._edit_message(message, data, files)
                resource["message"] = message.payload
            record.original_id = message.id
        elif response_type == AUTOCOMPLETE and record.type == 4:
            choices = list(data.get("choices") or [])
            if len(choices) > 25:
                raise FakeHTTPError(400, "Invalid Form Body: more than 25 choices", 50035)
            for choice in choices:
                if not 1 <= len(str(choice.get("name", ""))) <= 100:
                    raise FakeHTTPError(400, "Invalid Form Body: choice name 1-100", 50035)
            record.choices = choices
        elif response_type == MODAL and record.type in (2, 3):
            record.modal = data
        else:
            raise FakeHTTPError(400, f"Invalid interaction response type {response_type}", 50035)
        record.response_type = response_type
        record.response_data = data
        record.response_files = dict(files)
        record.responded.set()
        callback: Json = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "response_message_id": None
                if record.original_id is None
                else str(record.original_id),
                "response_message_loading": response_type == DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
            },
            "resource": resource,
        }
        if query.get("with_response") not in ("1", "true", "True"):
            return 204, None
        return 200, callback

    def _attach_to_interaction(self, message: FakeMessage, record: InteractionRecord) -> None:
        message.interaction_id = record.id
        message.payload["webhook_id"] = str(self.application_id)
        message.payload["application_id"] = str(self.application_id)
        message.payload["interaction_metadata"] = {
            "id": str(record.id),
            "type": record.type,
            "user": record.user.payload(),
            "authorizing_integration_owners": {"0": str(self.guild_id)},
        }
        record.message_ids.append(message.id)

    def _followup(self, token: str, body: Any, files: list[tuple[str, bytes]]) -> tuple[int, Any]:
        record = self._interaction(token)
        if record.response_type is None:
            raise FakeHTTPError(404, "Unknown Webhook", 10015)
        body = body or {}
        original = None if record.original_id is None else self.messages.get(record.original_id)
        if record.response_type == DEFERRED_MESSAGE and original is not None and original.loading:
            # Discord: the first followup after a "thinking" defer fills the loading message,
            # keeps the defer's ephemeral state and notifies nobody.
            edit = {k: v for k, v in body.items() if k != "flags"}
            self._edit_message(original, edit, files)
            original.edits -= 1
            record.followup_ids.append(original.id)
            return 200, original.payload
        message = self._new_message(record.channel, body, files, message_type=0)
        self._attach_to_interaction(message, record)
        record.followup_ids.append(message.id)
        return 200, message.payload

    def _webhook_message(
        self,
        method: str,
        token: str,
        which: str,
        body: Any,
        files: list[tuple[str, bytes]],
    ) -> tuple[int, Any]:
        record = self._interaction(token)
        if which == "@original":
            if record.original_id is None:
                raise FakeHTTPError(404, "Unknown Message", 10008)
            message = self._message(record.original_id)
        else:
            message = self._message(int(which))
            if message.interaction_id != record.id and message.id != record.component_message_id:
                raise FakeHTTPError(404, "Unknown Message", 10008)
        if method == "GET":
            return 200, message.payload
        if method == "PATCH":
            if which == "@original":
                record.original_edits.append(dict(body or {}))
            self._edit_message(message, body, files)
            return 200, message.payload
        if method == "DELETE":
            message.deleted = True
            return 204, None
        raise FakeHTTPError(405, "405: Method Not Allowed", 0)

    # ---- queries -------------------------------------------------------------------------

    def messages_in(
        self, channel: FakeChannel | int, *, include_ephemeral: bool = False
    ) -> list[FakeMessage]:
        channel_id = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id
            and not m.deleted
            and (include_ephemeral or not m.ephemeral)
        ]

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        """Messages the bot delivered to this user's DMs."""
        found: list[FakeMessage] = []
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient is user:
                found += self.messages_in(channel)
        return found

    def requests(self, route: str | None = None) -> list[Request]:
        """Recorded requests, optionally only those whose ``route`` contains ``route``."""
        return [r for r in self.recorded if route is None or route in r.route]

    # ---- building interactions -----------------------------------------------------------

    def new_interaction(
        self,
        interaction_type: int,
        user: FakeUser,
        channel: FakeChannel,
        data: Json,
        *,
        message: FakeMessage | None = None,
        locale: str | None = None,
    ) -> InteractionRecord:
        interaction_id = new_snowflake()
        token = f"fake-token-{interaction_id}-{'x' * 40}"
        channel_payload = channel.payload()
        payload: Json = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": interaction_type,
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "locale": user.locale if locale is None else locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if channel.type == 1:
            channel_payload["permissions"] = str(discord.Permissions._dm_permissions().value)
            payload.update(
                user=user.payload(),
                context=1,
                authorizing_integration_owners={"0": str(self.guild_id)},
                app_permissions=str(discord.Permissions._dm_permissions().value),
            )
        else:
            channel_payload["permissions"] = str(user.total_permissions().value)
            payload.update(
                guild_id=str(self.guild_id),
                guild={"id": str(self.guild_id), "locale": self.guild_locale, "features": []},
                guild_locale=self.guild_locale,
                member=self.member_payload(user),
                context=0,
                authorizing_integration_owners={"0": str(self.guild_id)},
                app_permissions=str(self.bot_permissions(channel).value),
            )
        payload["channel"] = channel_payload
        if message is not None:
            payload["message"] = message.payload
        record = InteractionRecord(
            interaction_id,
            token,
            interaction_type,
            user,
            channel,
            payload,
            created=time.monotonic(),
            component_message_id=None if message is None else message.id,
        )
        record.last_activity = record.created
        self.interactions[interaction_id] = record
        self.interactions_by_token[token] = record
        return record

    def command_data(
        self,
        channel: FakeChannel,
        path: Sequence[str],
        options: Mapping[str, Any],
        *,
        focused: str | None = None,
        fallback: Sequence[Json] = (),
        user: FakeUser | None = None,
    ) -> Json:
        """The ``data`` of a chat-input interaction, typed from the synced command schema.

        Raises where Discord's client would not let ``user`` send it: unknown command,
        subcommand or option, a required option missing, a value outside the option's choices
        or min/max, or a command hidden by ``default_member_permissions``.
        """
        names = [part for item in path for part in item.split()]
        if not names:
            raise ValueError("give the command name, e.g. slash(user, channel, 'montana', 'new')")
        in_dm = channel.type == 1
        command, guild_id = self._find_command(names[0], fallback, in_dm)
        # Discord offers a command only where its contexts allow (0 a server, 1 a DM
        # with the bot); without `contexts`, `dm_permission: false` keeps it to servers
        contexts = command.get("contexts")
        if contexts is None:
            contexts = [0] if command.get("dm_permission") is False else [0, 1]
        if (1 if in_dm else 0) not in contexts:
            where = "a DM with the bot" if in_dm else "a server"
            raise AssertionError(f"Discord does not offer /{names[0]} in {where} ({contexts})")
        schema_options = command.get("options") or []
        nested: list[Json] = []
        container = nested
        resolved: Json = {}
        for name in names[1:]:
            option = next(
                (o for o in schema_options if o["name"] == name and o["type"] in (1, 2)), None
            )
            if option is None:
                subcommands = [o["name"] for o in schema_options if o["type"] in (1, 2)]
                raise ValueError(f"/{' '.join(names)}: no subcommand {name!r} ({subcommands})")
            entry: Json = {"name": name, "type": option["type"], "options": []}
            container.append(entry)
            container = entry["options"]
            schema_options = option.get("options") or []
        known: dict[str, Json] = {o["name"]: o for o in schema_options if o["type"] not in (1, 2)}
        where = f"/{' '.join(names)}"
        if user is not None:
            _check_can_use(where, command, user, self.owner)
        for name, value in options.items():
            if name not in known:
                raise ValueError(f"{where} has no option {name!r} (known: {list(known)})")
            if focused is None:
                _check_option_value(where, known[name], value)
            option_type = int(known[name]["type"])
            entry = {"name": name, "type": option_type}
            if focused == name:
                entry.update(value=str(value), focused=True)
            else:
                entry["value"] = self._option_value(option_type, value, resolved)
            container.append(entry)
        missing = [n for n, o in known.items() if o.get("required") and n not in options]
        if focused is None and missing:
            raise ValueError(f"{where}: Discord requires option(s) {missing}")
        if focused is not None and focused not in options:
            container.append(
                {"name": focused, "type": int(known[focused]["type"]), "value": "", "focused": True}
            )
        data: Json = {
            "id": command["id"],
            "name": names[0],
            "type": 1,
            "options": nested,
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        if resolved:
            data["resolved"] = resolved
        return data

    def _find_command(
        self, name: str, fallback: Sequence[Json], in_dm: bool = False
    ) -> tuple[Json, int | None]:
        for command in [] if in_dm else self.guild_commands.get(self.guild_id, []):
            if command["name"] == name:
                return command, self.guild_id
        for command in self.global_commands:
            if command["name"] == name:
                return command, None
        for command in fallback:
            if command["name"] == name:
                return {"id": str(self.application_id), **command}, None
        raise ValueError(f"no application command /{name} was synced or is in the tree")

    def _option_value(self, option_type: int, value: Any, resolved: Json) -> Any:
        if option_type in (6, 9) and isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            member = {k: v for k, v in self.member_payload(value).items() if k != "user"}
            resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if option_type == 7 and isinstance(value, FakeChannel):
            payload = value.payload()
            payload["permissions"] = str(EVERYONE_PERMISSIONS.value)
            resolved.setdefault("channels", {})[str(value.id)] = payload
            return str(value.id)
        if option_type == 8 and isinstance(value, int):  # a role, by its id
            roles = {int(role["id"]): role for role in self.guild_payload()["roles"]}
            if value not in roles:
                raise ValueError(f"no role {value} in the guild (roles: {list(roles)})")
            resolved.setdefault("roles", {})[str(value)] = roles[value]
            return str(value)
        if option_type == 4:
            return int(value)
        if option_type == 10:
            return float(value)
        if option_type == 5:
            return bool(value)
        return value


def _check_can_use(where: str, command: Json, user: FakeUser, owner: FakeUser) -> None:
    required = command.get("default_member_permissions")
    if required is None or user is owner:
        return
    needed = discord.Permissions(int(required))
    if not needed.is_subset(user.total_permissions()):
        raise AssertionError(
            f"{user.name} cannot use {where}: Discord hides it from members without {needed!r}"
        )


def _check_option_value(where: str, option: Json, value: Any) -> None:
    name = option["name"]
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        allowed = [c["value"] for c in choices]
        raise ValueError(f"{where}: {name}={value!r} is not one of the choices {allowed}")
    if isinstance(value, int | float) and not isinstance(value, bool):
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"{where}: {name}={value!r} is outside {low}..{high}")
    if isinstance(value, str):
        low_len, high_len = option.get("min_length", 0), option.get("max_length", 6000)
        if not low_len <= len(value) <= high_len:
            raise ValueError(f"{where}: {name} must be {low_len}..{high_len} characters")


def _role_payload(
    role_id: int, name: str, permissions: discord.Permissions, position: int, managed: bool = False
) -> Json:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "position": position,
        "permissions": str(permissions.value),
        "managed": managed,
        "mentionable": False,
        "flags": 0,
    }


_ROUTES: list[tuple[str, re.Pattern[str]]] = [
    (name, re.compile(pattern))
    for name, pattern in [
        ("me", r"/users/@me"),
        ("dm", r"/users/@me/channels"),
        ("user", r"/users/(\d+)"),
        ("application", r"/(?:oauth2/)?applications/@me"),
        ("gateway_bot", r"/gateway(?:/bot)?"),
        ("commands", r"/applications/(\d+)/commands"),
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


def _attachments(
    channel_id: int,
    described: list[Json] | None,
    files: list[tuple[str, bytes]],
    existing: dict[int, Json],
) -> tuple[list[Json], dict[str, bytes]]:
    """Attachment payloads for a create/edit, and the new files' bytes by filename."""
    result: list[Json] = []
    stored: dict[str, bytes] = {}
    if described is None:
        described = [{"id": index, "filename": name} for index, (name, _) in enumerate(files)]
    for entry in described:
        entry_id = int(entry["id"])
        if entry_id in existing:
            result.append(existing[entry_id])
            continue
        if entry_id >= len(files):
            raise FakeHTTPError(400, f"Invalid Form Body: no file for attachment {entry_id}", 50035)
        name, data = files[entry_id]
        filename = str(entry.get("filename") or name)
        attachment_id = new_snowflake()
        url = f"https://cdn.discordapp.com/attachments/{channel_id}/{attachment_id}/{filename}"
        payload: Json = {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": _content_type(filename),
        }
        if entry.get("description"):
            payload["description"] = entry["description"]
        if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
            payload["width"] = int.from_bytes(data[16:20], "big")
            payload["height"] = int.from_bytes(data[20:24], "big")
        result.append(payload)
        stored[filename] = data
    return result, stored


def _content_type(filename: str) -> str:
    suffix = filename.rsplit(".", 1)[-1].lower()
    return {
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "txt": "text/plain; charset=utf-8",
        "json": "application/json",
    }.get(suffix, "application/octet-stream")


def _validate_message(
    body: Json,
    files: Sequence[tuple[str, bytes]],
    *,
    allow_empty: bool,
    check_files: bool = True,
) -> None:
    """Raise FakeHTTPError(400/413) where Discord would refuse the message."""

    def invalid(why: str) -> FakeHTTPError:
        return FakeHTTPError(400, f"Invalid Form Body: {why}", 50035)

    content = body.get("content") or ""
    embeds = body.get("embeds") or []
    components = body.get("components") or []
    v2 = bool(int(body.get("flags") or 0) & COMPONENTS_V2)
    if not allow_empty and not (content or embeds or components or files or body.get("poll")):
        raise FakeHTTPError(400, "Cannot send an empty message", 50006)
    if v2 and (content or embeds):
        raise invalid("content and embeds cannot be used with the components v2 flag")
    if len(content) > 2000:
        raise invalid(f"content is {len(content)} characters, must be 2000 or fewer")
    if len(embeds) > 10:
        raise invalid("more than 10 embeds")
    total = 0
    for embed in embeds:
        for key, limit in (("title", 256), ("description", 4096)):
            if len(embed.get(key) or "") > limit:
                raise invalid(f"embed {key} over {limit} characters")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise invalid("more than 25 embed fields")
        for embed_field in fields:
            if not embed_field.get("name") or not embed_field.get("value"):
                raise invalid("embed field name and value are required")
            if len(embed_field["name"]) > 256 or len(embed_field["value"]) > 1024:
                raise invalid("embed field too long")
        total += sum(len(embed.get(k) or "") for k in ("title", "description"))
        total += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in fields)
        total += len((embed.get("footer") or {}).get("text", ""))
    if total > 6000:
        raise invalid("embeds total more than 6000 characters")
    if not v2:
        if len(components) > 5:
            raise invalid(f"{len(components)} component rows, at most 5")
        for row in components:
            if row.get("type") != 1:
                raise invalid("top-level components must be action rows without the v2 flag")
            children = row.get("components") or []
            buttons = [c for c in children if c.get("type") == 2]
            selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
            if not children or len(buttons) > 5 or (selects and len(children) > 1):
                raise invalid("an action row holds 1-5 buttons or exactly one select")
    seen: set[str] = set()
    for component in _walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(str(custom_id)) <= 100:
                raise invalid(f"custom_id {custom_id!r} must be 1-100 characters")
            if custom_id in seen:
                raise invalid(f"custom_id {custom_id!r} twice (COMPONENT_CUSTOM_ID_DUPLICATED)")
            seen.add(str(custom_id))
        if component.get("type") == 2:
            if len(component.get("label") or "") > 80:
                raise invalid("button label over 80 characters")
            if not component.get("label") and not component.get("emoji"):
                raise invalid("a button needs a label or an emoji")
            if (component.get("style") == 5) != ("url" in component):
                raise invalid("link buttons (style 5) need a url, others a custom_id")
        if component.get("type") == 3:
            options = component.get("options") or []
            if not 1 <= len(options) <= 25:
                raise invalid(f"a select has {len(options)} options, 1-25 allowed")
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                raise invalid("select option values must be unique")
            for option in options:
                if not 1 <= len(option.get("label") or "") <= 100:
                    raise invalid("select option label must be 1-100 characters")
    if check_files:
        for name, data in files:
            if len(data) > ATTACHMENT_SIZE_LIMIT:
                raise FakeHTTPError(413, f"Request entity too large: {name}", 40005)


# --------------------------------------------------------------------------------------------
# Sending interactions: shared by the in-process fake and the gateway fake
# --------------------------------------------------------------------------------------------


class FakeDiscordBase:
    """World access plus the interaction helpers; subclasses deliver and wait."""

    #: Default seconds an interaction may take (all its tasks) before the helper gives up.
    settle_timeout: ClassVar[float] = 10.0

    def __init__(self, world: World | None = None, **world_options: Any) -> None:
        self.world = world if world is not None else World(**world_options)

    # ---- the world, re-exported ----
    @property
    def guild_id(self) -> int:
        return self.world.guild_id

    @property
    def channel(self) -> FakeChannel:
        """The first text channel ("general")."""
        return self.world.text_channels[0]

    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot_user

    @property
    def recorded(self) -> list[Request]:
        return self.world.recorded

    @property
    def errors(self) -> list[str]:
        """Problems a test should fail on: exceptions, unanswered or late interactions, ..."""
        return self.world.errors

    @property
    def threads(self) -> list[FakeChannel]:
        return self.world.threads

    def add_user(
        self, name: str, *, permissions: discord.Permissions | None = None, dms_open: bool = True
    ) -> FakeUser:
        return self.world.add_user(name, permissions=permissions, dms_open=dms_open)

    def set_permissions(self, user: FakeUser, permissions: discord.Permissions) -> None:
        self.world.set_permissions(user, permissions)

    def add_channel(self, name: str) -> FakeChannel:
        return self.world.add_channel(name)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between `user` and the bot (where `dms(user)` are read)."""
        return self.world._dm_channel(user)

    def join_guild(self, name: str) -> int:
        return self.world.join_guild(name)

    def leave_guild(self, guild_id: int) -> None:
        self.world.leave_guild(guild_id)

    def inject(self, route: str, status: int | None = None, **options: Any) -> Fault:
        """Fail the next matching requests (see ``World.inject``)."""
        return self.world.inject(route, status, **options)

    def deny_bot(self, channel: FakeChannel, permissions: discord.Permissions) -> None:
        self.world.deny_bot(channel, permissions)

    def archive(self, thread: FakeChannel) -> None:
        self.world.archive(thread)

    def delete_channel(self, channel: FakeChannel) -> None:
        self.world.delete_channel(channel)

    def messages_in(
        self, channel: FakeChannel | int, *, include_ephemeral: bool = False
    ) -> list[FakeMessage]:
        """Messages in a channel or thread, oldest first (deleted ones left out)."""
        return self.world.messages_in(channel, include_ephemeral=include_ephemeral)

    def dms(self, user: FakeUser) -> list[FakeMessage]:
        return self.world.dms(user)

    def requests(self, route: str | None = None) -> list[Request]:
        """Recorded requests; ``route`` filters on e.g. ``"POST /channels/{id}/messages"``."""
        return self.world.requests(route)

    def channel_by_id(self, channel_id: int) -> FakeChannel:
        return self.world.channels[channel_id]

    def as_shown(self, content: str, locale: str) -> str:
        """`content` as a Discord client in `locale` shows it: a command mention
        (`</montana game new:ID>`) of a synced command becomes the command's path in that
        locale's names (`/montana partie nouvelle`); one whose id or path Discord does not
        know stays raw text, as a client leaves it."""
        return COMMAND_MENTION.sub(lambda found: self._mention_shown(found, locale), content)

    def _mention_shown(self, found: re.Match[str], locale: str) -> str:
        world = self.world
        synced = [*world.global_commands, *(c for cs in world.guild_commands.values() for c in cs)]
        command = next((c for c in synced if c["id"] == found.group(2)), None)
        names = found.group(1).split()
        if command is None or command["name"] != names[0]:
            return found.group(0)
        shown, level = [command], command
        for name in names[1:]:
            found_sub = next(
                (o for o in level.get("options", []) if o["type"] in (1, 2) and o["name"] == name),
                None,
            )
            if found_sub is None:
                return found.group(0)
            shown.append(found_sub)
            level = found_sub
        return "/" + " ".join(
            (part.get("name_localizations") or {}).get(locale, part["name"]) for part in shown
        )

    # ---- interactions ----
    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        *path: str,
        options: Mapping[str, Any] | None = None,
        timeout: float | None = None,
        expect_response: bool = True,
        until: Until | None = None,
    ) -> InteractionResult:
        """Run a slash command: ``slash(ana, ch, "montana", "build", options={"field": "C4"})``.

        ``path`` is the command, then subcommand group / subcommand names (or one string
        "montana build"). Option types come from the synced schema; pass FakeUser/FakeChannel
        for user/channel options, a role's id (``user.role_id``, or ``guild_id`` for @everyone)
        for a role option.
        """
        data = self.world.command_data(
            channel, path, options or {}, fallback=self._tree_commands(), user=user
        )
        record = self.world.new_interaction(2, user, channel, data)
        return await self._run(record, timeout, expect_response, until)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        *path: str,
        options: Mapping[str, Any] | None = None,
        focused: str,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Ask for autocomplete choices of option ``focused`` (its partial text in ``options``)."""
        data = self.world.command_data(
            channel,
            path,
            options or {},
            focused=focused,
            fallback=self._tree_commands(),
            user=user,
        )
        record = self.world.new_interaction(4, user, channel, data)
        return await self._run(record, timeout, True)

    async def press(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        timeout: float | None = None,
        expect_response: bool = True,
        until: Until | None = None,
    ) -> InteractionResult:
        """Press a button that is on ``message`` (by custom_id or by label)."""
        component = self._component(user, message, custom_id, label)
        if component.get("type") != 2:
            raise AssertionError(f"{component.get('custom_id')!r} is not a button")
        data = {"custom_id": component["custom_id"], "component_type": 2}
        record = self._component_interaction(user, message, data)
        return await self._run(record, timeout, expect_response, until)

    async def press_forged(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        *,
        values: Sequence[str] | None = None,
        timeout: float | None = None,
        expect_response: bool = True,
        until: Until | None = None,
    ) -> InteractionResult:
        """A tampered client: click ``custom_id`` on ``message`` even though it is not shown.

        For hostile-input tests (random, huge or foreign custom_ids). The interaction carries a
        copy of the message with the forged button (or, with ``values``, a string select) added,
        so discord.py dispatches it like a real click; the stored message is unchanged.
        """
        if values is None:
            forged: Json = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
            data: Json = {"custom_id": custom_id, "component_type": 2}
        else:
            options = [{"label": str(v)[:100] or "?", "value": str(v)} for v in values]
            forged = {"type": 3, "custom_id": custom_id, "options": options, "max_values": 25}
            data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        payload = json.loads(json.dumps(message.payload))
        payload["components"] = [
            *payload.get("components", []),
            {"type": 1, "components": [forged]},
        ]
        carrier = FakeMessage(payload, dict(message.files))
        record = self._component_interaction(user, carrier, data)
        return await self._run(record, timeout, expect_response, until)

    async def wait_for_message(
        self,
        channel: FakeChannel | int,
        predicate: Callable[[FakeMessage], bool] = lambda message: True,
        *,
        after: int = 0,
        timeout: float = 10.0,
    ) -> FakeMessage:
        """The first message in ``channel`` with id > ``after`` matching ``predicate``; waits
        for it (e.g. posted by a background task, or by a bot process after the answer)."""
        deadline = time.monotonic() + timeout
        while True:
            for message in self.world.messages_in(channel, include_ephemeral=True):
                if message.id > after and predicate(message):
                    return message
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no matching message in channel {channel} after {timeout}s")
            await self.world.wait_for_change(min(remaining, 0.05))

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str | None = None,
        values: Sequence[str] = (),
        *,
        label: str | None = None,
        timeout: float | None = None,
        expect_response: bool = True,
        until: Until | None = None,
    ) -> InteractionResult:
        """Choose ``values`` in a select on ``message`` (by custom_id or placeholder)."""
        component = self._component(user, message, custom_id, label)
        component_type = int(component.get("type", 0))
        if component_type not in (3, 5, 6, 7, 8):
            raise AssertionError(f"{component.get('custom_id')!r} is not a select")
        values = [str(v) for v in values]
        if component_type == 3:
            allowed = [o["value"] for o in component.get("options") or []]
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise AssertionError(f"select has no option {unknown}; options are {allowed}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise AssertionError(f"select takes {low}..{high} values, got {len(values)}")
        data: Json = {
            "custom_id": component["custom_id"],
            "component_type": component_type,
            "values": values,
        }
        if component_type == 5:
            data["resolved"] = {
                "users": {v: self.world.users[int(v)].payload() for v in values},
            }
        record = self._component_interaction(user, message, data)
        return await self._run(record, timeout, expect_response, until)

    async def submit_modal(
        self,
        user: FakeUser,
        channel: FakeChannel,
        modal: Json,
        values: Mapping[str, str],
        *,
        message: FakeMessage | None = None,
        timeout: float | None = None,
        until: Until | None = None,
    ) -> InteractionResult:
        """Submit a modal the bot opened (``result.modal``) with text input values by custom_id;
        ``message`` is the message whose button opened it, if any."""
        rows: list[Json] = []
        for component in _walk_components(modal.get("components") or []):
            if component.get("type") == 4:
                value = values.get(component["custom_id"], "")
                rows.append(
                    {
                        "type": 1,
                        "components": [
                            {"type": 4, "custom_id": component["custom_id"], "value": value}
                        ],
                    }
                )
        data = {"custom_id": modal["custom_id"], "components": rows}
        record = self.world.new_interaction(5, user, channel, data, message=message)
        return await self._run(record, timeout, True, until)

    def _component(
        self, user: FakeUser, message: FakeMessage, custom_id: str | None, label: str | None
    ) -> Json:
        if message.deleted:
            raise AssertionError(f"message {message.id} was deleted; nobody can press on it")
        if message.ephemeral and message.interaction_id is not None:
            owner = self.world.interactions[message.interaction_id].user
            if owner is not user:
                raise AssertionError(
                    f"message {message.id} is ephemeral: only {owner.name} sees it, "
                    f"{user.name} cannot press on it"
                )
        if custom_id is None and label is None:
            raise ValueError("give a custom_id or a label")
        component = message.find_component(custom_id, label=label)
        if component.get("disabled"):
            raise AssertionError(f"{component['custom_id']!r} is disabled on message {message.id}")
        return component

    def _component_interaction(
        self, user: FakeUser, message: FakeMessage, data: Json
    ) -> InteractionRecord:
        channel = self.world.channels[message.channel_id]
        return self.world.new_interaction(3, user, channel, data, message=message)

    async def _run(
        self,
        record: InteractionRecord,
        timeout: float | None,
        expect_response: bool,
        until: Until | None = None,
    ) -> InteractionResult:
        seconds = self.settle_timeout if timeout is None else timeout
        result = InteractionResult(self.world, record)
        await self._deliver(record)
        try:
            await self._settle(record, seconds)
            deadline = time.monotonic() + seconds
            while until is not None and not until(result):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(f"until-condition still false after {seconds}s: {result!r}")
                await self.world.wait_for_change(min(remaining, 0.05))
        finally:
            if record in self.world.in_flight:
                self.world.in_flight.remove(record)
        if record.response_type is None and expect_response:
            kind = {2: "slash command", 3: "component", 4: "autocomplete", 5: "modal"}[record.type]
            problem = (
                f"{kind} interaction {record.id} was never answered ({record.payload['data']})"
            )
            record.errors.append(problem)
            self.world.errors.append(problem)
        return result

    def _tree_commands(self) -> list[Json]:
        return []

    async def _deliver(self, record: InteractionRecord) -> None:
        raise NotImplementedError

    async def _settle(self, record: InteractionRecord, timeout: float) -> None:
        raise NotImplementedError


# --------------------------------------------------------------------------------------------
# In-process fake
# --------------------------------------------------------------------------------------------


@dataclass
class _Scope:
    record: InteractionRecord
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)


_SCOPE: contextvars.ContextVar[_Scope | None] = contextvars.ContextVar(
    "fakediscord_interaction", default=None
)
#: Coroutine names of tasks that legitimately outlive an interaction (timers, loops).
_LONG_LIVED = {"__timeout_task_impl", "inner_call", "delete", "do_typing", "_loop"}
_ACTIVE: list[FakeDiscord] = []
_original_webhook_request: Any = None


async def _patched_webhook_request(
    adapter: AsyncWebhookAdapter, route: Route, session: Any = None, **kwargs: Any
) -> Any:
    token = route.webhook_token
    for fake in reversed(_ACTIVE):
        if token in fake.world.interactions_by_token:
            return await fake._serve(route, kwargs, webhook=True)
    if _ACTIVE:
        return await _ACTIVE[-1]._serve(route, kwargs, webhook=True)
    return await _original_webhook_request(adapter, route, session, **kwargs)


class _NullWebSocket:
    """Stands in for the gateway socket in-process (presence changes are accepted)."""

    open = False
    latency = 0.0

    async def change_presence(self, **_: Any) -> None:
        return None

    def is_ratelimited(self) -> bool:
        return False


class _ErrorLogHandler(logging.Handler):
    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(logging.ERROR)
        self.fake = fake

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        self.fake._record_error(f"logged by {record.name}: {record.getMessage()}", exc)


class FakeDiscord(FakeDiscordBase):
    """Runs real discord.py clients against the fake world inside the test's event loop.

    ``expected_errors`` are the ``app_commands`` errors that are refusals rather than bugs when
    the bot's ``tree.on_error`` receives them (by default failed checks and bad option values);
    anything else raised in a command, view, dynamic item or event handler ends up in
    ``errors``, as does any record logged at ERROR level while the fake runs.
    """

    def __init__(
        self,
        world: World | None = None,
        *,
        expected_errors: tuple[type[Exception], ...] = (
            app_commands.CheckFailure,
            app_commands.TransformerError,
        ),
        **world_options: Any,
    ) -> None:
        super().__init__(world, **world_options)
        self.expected_errors = expected_errors
        self.clients: list[discord.Client] = []
        self._log_handler = _ErrorLogHandler(self)
        self._seen_exceptions: set[int] = set()
        self._previous_factory: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._scopes: dict[int, _Scope] = {}
        self.world.event_sinks.append(self._push_event)

    @property
    def client(self) -> discord.Client:
        """The client interactions go to: the most recently started one still open."""
        open_clients = [c for c in self.clients if not c.is_closed()]
        if not open_clients:
            raise RuntimeError("no client started; await fake.start(client) first")
        return open_clients[-1]

    async def start(self, client: discord.Client, *, token: str = "fake-bot-token") -> None:
        """Log ``client`` in against the fake (runs its ``setup_hook``) and make it READY."""
        self._install()
        client.http.request = self._rest_for(client)  # type: ignore[method-assign]
        client.ws = _NullWebSocket()  # type: ignore[assignment]
        self.clients.append(client)
        await client.login(token)
        self._hook_errors(client)
        state = client._connection
        state.guild_ready_timeout = 0.01
        ready: Any = self.world.ready_payload("fake-session", "wss://fake.invalid")
        guild: Any = self.world.guild_payload()
        state.parse_ready(ready)
        state.parse_guild_create(guild)
        for other in self.world.other_guilds:
            state.parse_guild_create(self.world.other_guild_payload(other))
        await asyncio.wait_for(client.wait_until_ready(), timeout=5)

    async def stop(self, client: discord.Client) -> None:
        """Close one client (as if its process ended); the world and other clients stay."""
        await client.close()

    async def close(self) -> None:
        """Close every client and restore discord.py's network code."""
        for client in self.clients:
            if not client.is_closed():
                await client.close()
        self._uninstall()

    async def __aenter__(self) -> FakeDiscord:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- patching ----
    def _install(self) -> None:
        global _original_webhook_request
        if self in _ACTIVE:
            return
        if not _ACTIVE:
            _original_webhook_request = AsyncWebhookAdapter.request
            AsyncWebhookAdapter.request = _patched_webhook_request  # type: ignore[method-assign,assignment]
        _ACTIVE.append(self)
        logging.getLogger().addHandler(self._log_handler)
        self._loop = asyncio.get_running_loop()
        self._previous_factory = self._loop.get_task_factory()
        self._loop.set_task_factory(self._task_factory)

    def _uninstall(self) -> None:
        if self not in _ACTIVE:
            return
        _ACTIVE.remove(self)
        if not _ACTIVE:
            AsyncWebhookAdapter.request = _original_webhook_request  # type: ignore[method-assign]
        logging.getLogger().removeHandler(self._log_handler)
        if self._loop is not None:
            self._loop.set_task_factory(self._previous_factory)

    def _task_factory(
        self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any
    ) -> asyncio.Task[Any]:
        if self._previous_factory is not None:
            task: asyncio.Task[Any] = self._previous_factory(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        context = kwargs.get("context")
        scope = context.get(_SCOPE) if context is not None else _SCOPE.get()
        if scope is not None:
            scope.tasks.append(task)
        return task

    def _rest_for(self, client: discord.Client) -> Callable[..., Any]:
        async def request(route: Route, **kwargs: Any) -> Any:
            return await self._serve(route, kwargs, webhook=False)

        return request

    async def _serve(self, route: Route, kwargs: dict[str, Any], *, webhook: bool) -> Any:
        scope = _SCOPE.get()
        path = api_path(route.url)
        query = {k: str(v) for k, v in (kwargs.get("params") or {}).items()}
        body: Any = kwargs.get("payload") if webhook else kwargs.get("json")
        files: list[tuple[str, bytes]] = []
        form = kwargs.get("multipart") if webhook else kwargs.get("form")
        for part in form or []:
            if part["name"] == "payload_json":
                body = json.loads(part["value"])
            else:
                files.append((part.get("filename") or part["name"], _read_file(part["value"])))
        record = scope.record if scope else None
        for tries in range(5):
            status, response = await self.world.serve(
                route.method, path, query, body, files, record
            )
            if webhook or status < 400 or tries == 4:
                break
            # discord.py's HTTPClient.request tries these again by itself, the same request
            # (files and nonce alike), sleeping 1 + 2 * tries seconds (skipped here)
            if status == 429:
                await asyncio.sleep(float(response.get("retry_after") or 0))
            elif status not in RETRIED_BY_DISCORD_PY:
                break
        if status >= 400:
            raise _discord_exception(FakeHTTPError(status, response["message"], response["code"]))
        return response

    # ---- gateway events ----
    def _push_event(self, event: str, data: Json) -> None:
        for client in self.clients:
            if client.is_closed() or not client.is_ready():
                continue
            parser = client._connection.parsers.get(event)
            if parser is not None:
                parser(data)

    # ---- errors ----
    def _hook_errors(self, client: discord.Client) -> None:
        fake = self
        original_client_error = client.on_error

        async def on_error(event_method: str, /, *args: Any, **kwargs: Any) -> None:
            fake._record_error(f"exception in event {event_method}", sys.exc_info()[1])
            await original_client_error(event_method, *args, **kwargs)

        client.on_error = on_error  # type: ignore[method-assign]
        tree = client._connection._command_tree
        if tree is None:
            return
        original_tree_error = tree.on_error

        async def on_tree_error(
            interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
        ) -> None:
            if not isinstance(error, fake.expected_errors):
                name = interaction.command.qualified_name if interaction.command else "?"
                fake._record_error(f"exception in command {name!r}", error)
            await original_tree_error(interaction, error)

        tree.on_error = on_tree_error  # type: ignore[method-assign]

    def _record_error(self, what: str, exc: BaseException | None) -> None:
        if exc is not None:
            if id(exc) in self._seen_exceptions:
                return
            self._seen_exceptions.add(id(exc))
            original = getattr(exc, "original", None)
            if isinstance(original, BaseException):
                self._seen_exceptions.add(id(original))
            what = f"{what}: {type(exc).__name__}: {exc}"
        self.world.errors.append(what)
        scope = _SCOPE.get()
        if scope is not None:
            scope.record.errors.append(what)

    # ---- interactions ----
    def _tree_commands(self) -> list[Json]:
        tree = self.client._connection._command_tree
        if tree is None:
            return []
        return [c.to_dict(tree) for c in tree.get_commands()]

    async def _deliver(self, record: InteractionRecord) -> None:
        client = self.client
        scope = _Scope(record)
        token = _SCOPE.set(scope)
        try:
            client._connection.parse_interaction_create(record.payload)  # type: ignore[arg-type]
        finally:
            _SCOPE.reset(token)
        self._scopes[record.id] = scope

    async def _settle(self, record: InteractionRecord, timeout: float) -> None:
        scope = self._scopes.pop(record.id)
        deadline = time.monotonic() + timeout
        while True:
            pending = [t for t in scope.tasks if not t.done() and not _long_lived(t)]
            if not pending:
                await asyncio.sleep(0)
                if all(t.done() or _long_lived(t) for t in scope.tasks):
                    return
                continue
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                names = [t.get_name() for t in pending]
                raise TimeoutError(
                    f"interaction {record.id} still running after {timeout}s: {names}"
                )
            await asyncio.wait(pending, timeout=remaining)


def _long_lived(task: asyncio.Task[Any]) -> bool:
    coro = task.get_coro()
    code = getattr(coro, "cr_code", None)
    name = code.co_name if code is not None else ""
    return name in _LONG_LIVED or name.endswith("__timeout_task_impl")


def _read_file(value: Any) -> bytes:
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, io.IOBase) or hasattr(value, "read"):
        position = value.tell()
        data = value.read()
        value.seek(position)
        return bytes(data)
    raise TypeError(f"cannot read file part {value!r}")


__all__ = [
    "AUTOCOMPLETE",
    "DEFERRED_MESSAGE",
    "DEFERRED_UPDATE",
    "EPHEMERAL",
    "MESSAGE",
    "MODAL",
    "UPDATE",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordBase",
    "FakeHTTPError",
    "FakeMessage",
    "FakeUser",
    "Fault",
    "InteractionRecord",
    "InteractionResult",
    "Request",
    "Until",
    "World",
    "api_path",
    "new_snowflake",
]
