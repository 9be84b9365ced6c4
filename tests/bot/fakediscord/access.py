"""The fakes' access to their world (`WorldAccess`, the base of `FakeDiscordBase`): the
world's guild, channels, users, threads, recorded requests and errors, its building methods
and queries re-exported for tests, and a message's command mentions as a Discord client in
a given locale shows them (`as_shown`)."""

from __future__ import annotations

import re
from typing import Any

import discord

from tests.bot.fakediscord.model import COMMAND_MENTION, FakeChannel, FakeMessage, FakeUser
from tests.bot.fakediscord.recording import Fault, Request
from tests.bot.fakediscord.world import World


class WorldAccess:
    """A fake's world, and the world's methods tests call on the fake."""

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

    def grant(self, user: FakeUser, channel: FakeChannel, permissions: discord.Permissions) -> None:
        """A member overwrite: ``permissions`` for ``user`` in ``channel`` and its threads."""
        self.world.grant(user, channel, permissions)

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
