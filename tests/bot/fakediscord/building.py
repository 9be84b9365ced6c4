"""What tests change in the fake world from outside the bot, each change told to connected
clients as the gateway would: members and their permissions, channels, other servers the
bot joins or leaves, a moderator's overwrite denying the bot, an archived or deleted thread,
and Discord misbehaving (`inject` a `Fault`, met by the next matching requests)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from tests.bot.fakediscord.model import FakeChannel, FakeUser, new_snowflake
from tests.bot.fakediscord.payloads import WorldPayloads
from tests.bot.fakediscord.recording import Fault


class WorldBuilding(WorldPayloads):
    """Changes to the world made by tests: users, permissions, channels, guilds, faults."""

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

    def grant(self, user: FakeUser, channel: FakeChannel, permissions: discord.Permissions) -> None:
        """Allow ``user`` ``permissions`` in ``channel`` (a text channel) and its threads,
        as a member overwrite there would (a moderator of one channel: Manage Channels)."""
        channel.member_allowed[user.id] = permissions.value
        if not permissions.value:
            del channel.member_allowed[user.id]
        self.emit("CHANNEL_UPDATE", channel.payload())

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
