"""The discord.py client: opens the store, assembles the features, syncs the commands.

Each feature module adds its subcommands to the `/montana` group (`group.py`) and
names the `DynamicItem`s it answers (`DYNAMIC_ITEMS`); the client registers them all,
and the few top-level commands besides `/montana` (`TOP_LEVEL`). It also hands a lower
feature what it shows of a higher one (the folders import only downwards): the Replay
buttons under a game's end to the announcer, the Hint press to `presses`, the takeover
vote's button to the deadline poster. The features see the client only as
`app.MontanaApp`, which `MontanaBot` meets; nothing but `run` imports this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import discord
from aiohttp import web
from discord import app_commands

from bot.core.ai_players.ai_seats import AiPlayers
from bot.core.assembly import game_service
from bot.core.clock.deadlines import DeadlineDriver
from bot.core.clock.my_games import DigestTask
from bot.core.community.ratings import SUMMARY, rate_past_games
from bot.core.community.replays import Replays
from bot.core.delivery.live import LivePromptSweep
from bot.core.delivery.pictures import ProcessRenderer
from bot.core.play.repeats import PresenceLines
from bot.core.play.service import GameService, Refusal, Renderer
from bot.core.server.limits import LobbyExpiry, PictureRate
from bot.core.server.settings import Settings
from bot.core.wording.commands import DiscordCommands, SyncedCommand
from bot.discord_app import components, emojis
from bot.discord_app.ai_players import aiplayers
from bot.discord_app.clock import deadlines, hours, mine
from bot.discord_app.clock.mine import games_everywhere_command
from bot.discord_app.community import (
    matchmaking,
    past_games,
    records,
    replay,
    stats,
    tournament_rounds,
    tournaments,
)
from bot.discord_app.community.tournaments import tournament_group
from bot.discord_app.delivery import launch, notify, picture_modes, presence
from bot.discord_app.delivery.announce import DiscordAnnouncer
from bot.discord_app.play import history, lobby, looking, moves, presses
from bot.discord_app.server import server
from bot.discord_app.server.monitoring import discord_trace
from i18n import translatable
from i18n.commands import command_namer, name_commands_with

from ..core.community.tournament_deadlines import ROUND_DEADLINE
from ..core.store import Store, StoreError
from ..core.store.tournaments import TOURNAMENT_END
from ..web.app import make_app
from ..web.serve import start_site
from ..web.signin import oauth_of
from .components import UNKNOWN_BUTTON, reply, user_t
from .group import montana
from .guard import went_wrong
from .translator import CommandTranslator

log = logging.getLogger(__name__)

FEATURES = (
    components,
    lobby,
    moves,
    looking,
    deadlines,
    notify,
    presence,
    history,
    past_games,
    hours,
    aiplayers,
    records,
    replay,
    mine,
    picture_modes,
    launch,
    server,
    stats,
    hours,
    matchmaking,
    tournaments,
)
"""The modules whose commands (on `montana`) and components make up the bot."""
TOP_LEVEL: tuple[app_commands.Command[Any, ..., Any] | app_commands.Group, ...] = (
    montana,
    games_everywhere_command,  # `/montana` is for servers only; this one also in DMs
    tournament_group,  # a command of its own: `/montana` is full
)
"""The top-level commands (`i18n.commands.TOP_LEVEL_COMMANDS` names them in messages)."""
NOT_ACCEPTED = translatable(
    "This command cannot be used like that here (an option's value is not one it "
    "accepts). Nothing was changed; the options Discord suggests are the ones allowed."
)
DYNAMIC_ITEMS: components.DynamicItems = tuple(
    item for feature in FEATURES for item in feature.DYNAMIC_ITEMS
)


class MontanaTree(app_commands.CommandTree["MontanaBot"]):
    async def sync(
        self, *, guild: discord.abc.Snowflake | None = None
    ) -> list[app_commands.AppCommand]:
        """discord.py's sync, with the app's entry point command among the global ones
        when the Activity is on (`launch.entry_point_payload`: discord.py knows no such
        command, and Discord refuses a bulk overwrite that leaves it out)."""
        if guild is not None or not self.client.settings.activity:
            return await super().sync(guild=guild)
        application_id = self.client.application_id
        if application_id is None:
            raise app_commands.MissingApplicationID
        commands = self._get_all_commands()
        translator = self.translator
        payload = [
            await command.get_translated_payload(self, translator)
            if translator is not None
            else command.to_dict(self)
            for command in commands
        ]
        payload.append(launch.entry_point_payload())
        try:
            data = await self._http.bulk_upsert_global_commands(application_id, payload=payload)
        except discord.HTTPException as error:
            if error.status == 400 and error.code == 50035:
                raise app_commands.CommandSyncFailure(error, commands) from None
            raise
        return [app_commands.AppCommand(data=item, state=self._state) for item in data]

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """What `group.tracked` did not answer: an option's value Discord should have
        refused (a tampered client), a failed check, or an error outside the command."""
        if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            log.info("command refused in channel %s: %s", interaction.channel_id, error)
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, user_t(interaction).translate(NOT_ACCEPTED))
            return
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await went_wrong(interaction, original)


class MontanaBot(discord.Client):
    """`MontanaBot(settings)`; `service` is ready once `setup_hook` has run."""

    service: GameService
    store: Store
    deadlines: DeadlineDriver
    digests: DigestTask
    ai: AiPlayers
    replays: Replays
    lobby_expiry: LobbyExpiry
    queue_watch: matchmaking.QueueWatch
    tournament_watch: tournament_rounds.TournamentWatch

    def __init__(
        self,
        settings: Settings,
        *,
        renderer: Renderer | None = None,
        sync_commands: bool = True,
        seed_source: random.Random | None = None,
    ) -> None:
        # no privileged intent: slash commands and buttons need only the guild events
        super().__init__(
            intents=discord.Intents(guilds=True),
            http_trace=discord_trace(),  # Discord's errors, for the operators' metrics
            **self.shard_options(settings),
        )
        self.settings = settings
        self.tree = MontanaTree(self)
        for command in TOP_LEVEL:
            self.tree.add_command(command)
        self._renderer = renderer
        self.picture_rate = PictureRate()
        """Each member's replays and steps in the last minute (issue 35.4)."""
        self._pictures: ProcessRenderer | None = None
        self._web: web.AppRunner | None = None
        """The games' web pages served inside the bot (`MONTANA_WEB_PORT`), if asked."""
        """The worker processes drawing pictures, when the settings ask for them."""
        self._sync_commands = sync_commands
        self._seed_source = seed_source
        self.accepting = True
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._locales: dict[str, str] = {}
        """The Discord locale each user was last seen in (as saved in the store)."""
        self.commands = DiscordCommands()
        """The commands' ids, for the mentions in every message (`bot.core.wording.commands`)."""

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, Any]:
        """What `ShardedMontanaBot` passes to `discord.AutoShardedClient`."""
        return {}

    async def setup_hook(self) -> None:
        # the only bot on this file, or on these shards of the database (`StartupError`
        # otherwise, and for a database that cannot be used): two would both answer
        # every interaction; the background tasks read only the games of these shards
        self.store = await Store.open(
            self.settings.db_path, exclusive=True, shards=self.settings.shards
        )
        notifier = notify.Notifier(self, self.store)
        if self._renderer is None and self.settings.picture_processes > 0:
            self._pictures = ProcessRenderer(self.settings.picture_processes)
            self._renderer = self._pictures
        announcer = DiscordAnnouncer(self, game_over=replay.replay_view)
        self.service = game_service(
            self.store,
            renderer=self._renderer,
            announcer=announcer,
            notifier=notifier,
            notices=presence.DiscordNotices(self, notifier, PresenceLines(self.store)),
            seed_source=self._seed_source,
        )
        # one drawing per version (issue 37.3): the posts' pictures are kept for the
        # replay's steps and the web pages, within the bound of the settings
        shelf = self.service.announcing.shelf
        shelf.bound = self.settings.picture_store_bytes
        self.replays = Replays(
            self._pictures.executor if self._pictures is not None else None, shelf=shelf
        )
        self.deadlines = DeadlineDriver(
            self.service,
            deadlines.DiscordDeadlinePoster(self, notifier, seat_vote=aiplayers.TakeoverButton),
            poll_seconds=self.settings.deadline_poll_seconds,
        )
        self.service.after_announce.append(self.deadlines.on_announced)
        self.ai = AiPlayers(
            self.service,
            delay=self.settings.ai_delay_seconds,
            workers=self.settings.ai_processes,
        )
        self.service.after_announce.append(self.ai.on_announced)
        self.service.presence.after_hand_over.append(self.ai.wake)
        # a game's end frees its players' seats under way: the server's queue may match
        self.queue_watch = matchmaking.QueueWatch(self)
        self.service.after_game_over.append(self.queue_watch.game_over)
        # a tournament game's end may complete its round: the next one is seated
        self.tournament_watch = tournament_rounds.TournamentWatch(self)
        self.service.after_game_over.append(self.tournament_watch.game_over)
        self.deadlines.at_deadline = self.ai.at_deadline
        self.ai.absence_of = self.deadlines.absence_of
        if self.settings.web_port is not None:
            # the one-process default: the web pages on the bot's own store
            self._web = await start_site(
                make_app(
                    self.store,
                    shelf=self.service.announcing.shelf,
                    # board play: signing in and the page's moves through this service
                    service=self.service,
                    oauth=oauth_of(self.settings),
                    hinter=self.ai.hint,  # the same hint and limit as the Discord one
                ),
                self.settings.web_host,
                self.settings.web_port,
            )
        # the end-of-game summaries the outbox owes (`bot.core.community.ratings`)
        self.service.delivery.senders[SUMMARY] = stats.SummarySender(self)
        self.service.delivery.senders[TOURNAMENT_END] = tournament_rounds.TournamentEndSender(
            self, self.store
        )
        self.service.delivery.senders[ROUND_DEADLINE] = tournament_rounds.RoundDeadlineSender(
            self, self.store
        )
        self.lobby_expiry = LobbyExpiry(
            self.store,
            lambda row, limits: lobby.say_lobby_closed(self, row, limits),
            clock=lambda: datetime.now(UTC),
        )
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        # games that ended before ratings existed are rated once, in the order they
        # ended, before any new game can end
        rated = await rate_past_games(self.store)
        if rated:
            log.info("rated %d games that ended before ratings existed", rated)
        self.deadlines.start()
        self.lobby_expiry.start()  # lobbies left unfilled too long close (also after a restart)
        self.digests = DigestTask(self.deadlines, mine.DigestSender(self, notifier))
        self.digests.start()
        # messages owed by moves a previous run saved but could not show (Discord
        # failed, or the process was killed) go out now, and failures are retried
        self.service.delivery.start()
        await self.tree.set_translator(CommandTranslator())
        name_commands_with(self.commands)
        await self.learn_command_ids()
        # the game's icons as the application's emojis, before any message shows them
        self.app_emojis = (await emojis.sync(self)).emojis
        emojis.install(self.app_emojis)
        # REST works once logged in: show moves saved but never posted before taking
        # any interaction
        await self.repost_missing_prompts()
        # games waiting for an AI (a restart) go on by themselves, also those of a
        # player who went away with the AI playing for them just before a crash
        await self.service.presence.stand_in_everyone()
        await self.ai.start()
        self.queue_watch.start()  # tables a restart left unmatched
        self.tournament_watch.start()  # rounds a restart left half seated
        # older prompts a previous run left with live buttons (before the clear records
        # existed, or by a way no record shows): looked for once, in the background
        self.live_sweep = LivePromptSweep(self.store, announcer, self.service.delivery.wake)
        self.live_sweep.start()
        # What exists now (modules, discord.py's state) lives as long as the bot: keep it
        # out of full garbage collections, each of which would otherwise stall the event
        # loop for tens of milliseconds (measured by `python -m bot.bench`).
        gc.freeze()

    async def learn_command_ids(self) -> None:
        """Sync the commands (when asked to) and keep the ids Discord answers with, or
        fetch them: every message then names a command by a mention. Without them (a
        fetch that fails) messages name commands in plain text; nothing else suffers."""
        guild = None if self.settings.guild_id is None else discord.Object(self.settings.guild_id)
        if self._sync_commands:
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            where = "globally (may take up to an hour)" if guild is None else f"to {guild.id}"
            log.info("synced %d commands %s", len(synced), where)
        else:
            try:
                synced = await self.tree.fetch_commands(guild=guild)
            except discord.HTTPException as error:
                log.warning("could not fetch the commands' ids (%s); named in plain text", error)
                return
        self.commands.remember(SyncedCommand(command.name, command.id) for command in synced)

    async def remember_locale(self, interaction: discord.Interaction[Any]) -> None:
        """Save the user's Discord locale when it is new: what is sent to them later,
        outside an interaction (a DM, a reminder), is in its language."""
        user_id, locale = str(interaction.user.id), str(interaction.locale)
        if self._locales.get(user_id) == locale:
            return
        try:
            await self.store.remember_locale(user_id, locale)
        except StoreError as error:
            log.warning("the locale of %s was not saved: %s", user_id, error)
            return
        self._locales[user_id] = locale

    @contextlib.asynccontextmanager
    async def busy(self) -> AsyncIterator[None]:
        """Mark an interaction in progress, so a shutdown lets it finish."""
        if not self.accepting:
            raise Refusal(translatable("The bot is restarting; please try again in a minute."))
        self._in_flight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()

    async def shutdown(self, timeout: float = 10.0) -> None:
        """Stop taking interactions, let those in flight finish, then close."""
        self.accepting = False
        if self._in_flight:
            log.info("waiting for %d interaction(s) in flight", self._in_flight)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._idle.wait(), timeout)
        await self.close()

    async def handle_choice(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        version: int,
        code: str,
        epoch: int = 0,
    ) -> None:
        """A press on a game's button or select (`components.ChoiceButton`/`ChoiceSelect`)."""
        await presses.handle_choice(
            interaction, game_id, version, code, epoch, served=aiplayers.PRESSES
        )

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a component no handler of ours would take (another bot's, or tampered):
        discord.py drops those silently and the presser would see "interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if any(
            item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS
        ):
            return
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, user_t(interaction).translate(UNKNOWN_BUTTON))

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, getattr(self.user, "id", "?"))

    async def repost_missing_prompts(self) -> None:
        """Post the prompt of every game whose last saved move was never shown.

        A crash between saving a move and posting it leaves the players with the
        previous prompt, whose buttons are stale; the fresh one mentions whoever must act.
        """
        for game_id in await self.store.games_missing_their_prompt():
            try:
                outcome = await self.service.repost(game_id)
            except Refusal as refusal:
                log.warning("game %s: no prompt re-posted: %s", game_id, refusal.message)
                continue
            except Exception:
                # one game's trouble must not keep the bot (and the other games) down
                log.exception("game %s: re-posting its prompt failed", game_id)
                continue
            log.info(
                "game %s channel %s: re-posted the prompt of version %s after a restart",
                game_id,
                outcome.row.play_channel_id,
                outcome.version,
            )

    async def close(self) -> None:
        if command_namer() is self.commands:
            name_commands_with(None)
        if emojis.installed() is getattr(self, "app_emojis", None):
            emojis.install(emojis.AppEmojis())  # the next bot of this process uploads its own
        digests = getattr(self, "digests", None)
        if digests is not None:
            await digests.stop()
        deadlines = getattr(self, "deadlines", None)
        if deadlines is not None:
            await deadlines.stop()  # a reminder or pass in progress finishes first
        lobby_expiry = getattr(self, "lobby_expiry", None)
        if lobby_expiry is not None:
            await lobby_expiry.stop()
        queue_watch = getattr(self, "queue_watch", None)
        if queue_watch is not None:
            await queue_watch.stop()
        tournament_watch = getattr(self, "tournament_watch", None)
        if tournament_watch is not None:
            await tournament_watch.stop()
        live_sweep = getattr(self, "live_sweep", None)
        if live_sweep is not None:
            await live_sweep.stop()
        ai_players = getattr(self, "ai", None)
        if ai_players is not None:
            await ai_players.stop()
        service = getattr(self, "service", None)
        if service is not None:
            await service.delivery.stop()  # what is still owed is kept for the next run
        replays = getattr(self, "replays", None)
        if replays is not None:
            await replays.close()
        if self._pictures is not None:
            await asyncio.to_thread(self._pictures.close)
            self._pictures = None
        if self._web is not None:
            await self._web.cleanup()
            self._web = None
        if service is not None:
            await service.announcing.shelf.settled()  # the pictures still being kept
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


class ShardedMontanaBot(MontanaBot, discord.AutoShardedClient):
    """The bot as `discord.AutoShardedClient`, running the shards the settings name
    (`MONTANA_SHARD_COUNT`, `MONTANA_SHARDS`); other processes run the others."""

    @staticmethod
    def shard_options(settings: Settings) -> dict[str, Any]:
        shards = settings.shards
        assert shards is not None
        return {"shard_count": shards.count, "shard_ids": list(shards.ids)}


def make_bot(settings: Settings, **options: Any) -> MontanaBot:
    """The client the settings ask for: sharded when a shard count is set."""
    kind = ShardedMontanaBot if settings.shards is not None else MontanaBot
    return kind(settings, **options)
