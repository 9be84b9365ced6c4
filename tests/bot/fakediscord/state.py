"""The bottom of the fake world: `WorldState` holds its data (the guild, users, channels,
messages, synced commands, interactions, recorded requests, injected faults, errors) with the
lookups that answer Discord's 404s, the bot's permissions in a channel, the queries tests read
messages and requests with, the gateway events sent to connected clients (`emit`) and the
wait for the next served request. The REST routes are mixins on top of it (see `world.py`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

import discord

from tests.bot.fakediscord.model import (
    BOT_PERMISSIONS,
    FakeChannel,
    FakeHTTPError,
    FakeMessage,
    FakeUser,
    Json,
    new_snowflake,
)
from tests.bot.fakediscord.recording import Fault, InteractionRecord, Request

EventSink = Callable[[str, Json], None]


class WorldState:
    """The fake Discord's state, shared by the in-process and gateway fakes."""

    def __init__(
        self,
        *,
        guild_name: str = "Montana Test",
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
        self.app_emojis: dict[int, Json] = {}
        """The application's own emojis by id (`emojis.EmojiRoutes`)."""
        self.app_emoji_images: dict[int, bytes] = {}
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

    # ---- lookups -------------------------------------------------------------------------

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

    def bot_permissions(self, channel: FakeChannel) -> discord.Permissions:
        """What the bot may do in ``channel`` (a thread inherits its parent's overwrites)."""
        source = self.channels.get(channel.parent_id or 0) if channel.is_thread else channel
        denied = source.bot_denied if source is not None else 0
        allowed = discord.Permissions(BOT_PERMISSIONS.value & ~denied)
        if channel.is_thread and not allowed.send_messages_in_threads:
            allowed.attach_files = allowed.embed_links = False  # Discord's implicit rule
        return allowed

    def member_permissions(self, user: FakeUser, channel: FakeChannel) -> discord.Permissions:
        """What ``user`` may do in ``channel``: their server permissions and what a member
        overwrite there (or on a thread's parent) allows them (`grant`)."""
        total = user.total_permissions()
        source = self.channels.get(channel.parent_id or 0) if channel.is_thread else channel
        if source is not None and not total.administrator:
            total = discord.Permissions(total.value | source.member_allowed.get(user.id, 0))
        return total

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

    # ---- changes -------------------------------------------------------------------------

    def _notify(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def wait_for_change(self, timeout: float) -> None:
        """Wait until the next request is served (or ``timeout`` seconds pass)."""
        changed = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), timeout)
