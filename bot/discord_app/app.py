"""What the features need from the bot: `MontanaApp`, a protocol `client.MontanaBot` meets.

A command or a press reaches the bot as `interaction.client`; the feature modules and
the base modules (`components`, `group`, `guard`) read it through this protocol
(`components.bot_of`), never through the client class. So `client` may import every
feature, and no feature imports `client`, not even for its types: the protocol names
exactly what they use — the core's parts the client assembles (`service`, `store`,
`settings`, `deadlines`, `ai`, `replays`, `picture_rate`, `queue_watch`), the few things
the client does for every interaction (`busy`, `remember_locale`, `handle_choice`), and
the discord.py client methods they call. mypy checks that `MontanaBot` fits wherever the
client hands itself to a feature (`QueueWatch(self)`, `MonitoringServer(bot, ...)`).

Every member is read-only here: a feature reads the bot's parts, it never replaces one.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

import discord

from bot.core.ai_players.ai_seats import AiPlayers
from bot.core.clock.deadlines import DeadlineDriver
from bot.core.community.replays import Replays
from bot.core.play.service import GameService
from bot.core.server.limits import PictureRate
from bot.core.server.settings import Settings
from bot.core.store import Store


class QueueWatcher(Protocol):
    """The matchmaking queue's watch (`community.matchmaking.QueueWatch`), as the server
    settings see it: a change of settings may let the queue match again."""

    def look_again(self, guild_id: int) -> None: ...


class MontanaApp(Protocol):
    """The bot as its features see it (`client.MontanaBot` is one)."""

    # the core's parts, ready once the client's `setup_hook` has run
    @property
    def settings(self) -> Settings: ...

    @property
    def service(self) -> GameService: ...

    @property
    def store(self) -> Store: ...

    @property
    def deadlines(self) -> DeadlineDriver: ...

    @property
    def ai(self) -> AiPlayers: ...

    @property
    def replays(self) -> Replays: ...

    @property
    def picture_rate(self) -> PictureRate:
        """Each member's replays and steps in the last minute (`limits.PictureRate`)."""
        ...

    @property
    def queue_watch(self) -> QueueWatcher: ...

    # what the client does around every interaction
    def busy(self) -> AbstractAsyncContextManager[None]:
        """An interaction in progress (refused while the bot shuts down)."""
        ...

    async def remember_locale(self, interaction: discord.Interaction[Any]) -> None:
        """Keep the user's Discord locale for what is sent to them later."""
        ...

    async def handle_choice(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        version: int,
        code: str,
        epoch: int = 0,
    ) -> None:
        """A press on a game's button or select (`components.ChoiceButton`)."""
        ...

    # discord.py's client, as far as the features use it
    def is_ready(self) -> bool: ...

    async def wait_until_ready(self) -> None: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    def get_channel(
        self, id: int, /
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None: ...

    async def fetch_channel(
        self, channel_id: int, /
    ) -> discord.abc.GuildChannel | discord.abc.PrivateChannel | discord.Thread: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None
    ) -> discord.PartialMessageable: ...


__all__ = ["MontanaApp", "QueueWatcher"]
