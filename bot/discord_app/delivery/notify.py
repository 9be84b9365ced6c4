"""Direct messages to players who asked for them: "it is your move", with a link.

`/montana me notify` stores each user's choice (`bot.core.delivery.notify`): the mode, and whether
they want a heads-up when the player before them starts a turn (said by
`discord_app.presence`, by DM through `send_owed` in the DM mode). The DM carries a link
to the game's newest message (or its channel while that message is not posted yet).
"It is your move" is owed by the move like its post (`bot.core.delivery.outbox`): retried
while Discord fails, given up when the DMs are closed (the move goes on regardless).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.core.delivery.notify import ALSO_DM, CHANNEL_ONLY, MODES, NotifyPrefs
from bot.core.store import GameRow, Store
from bot.core.wording import words
from bot.discord_app.components import DynamicItems, bot_of, delivery_problem, reply, user_t
from bot.discord_app.group import me_group, tracked
from i18n import Translator, language_for_locale, translatable, translator
from rules import Game

log = logging.getLogger(__name__)


DM_REFUSED = translatable("Discord refused the direct message")


def message_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """The https link that opens a message in Discord."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


class Notifier:
    """Sends the DMs: "the game waits for you" owed by a move (`notify_turn`, the core's
    `TurnNotifier`), and the deadline reminders (`send_dm`)."""

    def __init__(self, client: discord.Client, store: Store) -> None:
        self.client = client
        self.store = store
        self.prefs = NotifyPrefs(store)

    async def words_for(self, user_id: str) -> Translator:
        """The language of what only `user_id` reads outside an interaction (a DM): that
        of their Discord client when last seen, else English."""
        locales = await self.store.locales([user_id])
        return translator(language_for_locale(locales.get(user_id)))

    async def notify_turn(
        self, user_id: str, row: GameRow, game: Game, message_id: int | None, key: str
    ) -> None:
        t = await self.words_for(user_id)
        name = row.names.get(user_id, user_id)
        text = "Montana — " + words.prompt_line(game, lambda _: name, t)
        await self.send_owed(user_id, row, text, message_id, key)

    async def send_owed(
        self, user_id: str, row: GameRow, text: str, message_id: int | None, key: str
    ) -> None:
        """DM a message the outbox owes (`key`: the same nonce at every attempt) with a
        link to the game; a failure is raised as the core's `DeliveryProblem`."""
        try:
            await self._send(user_id, row, text, message_id, nonce=key)
        except (discord.DiscordException, OSError, TimeoutError) as error:
            raise delivery_problem(error, DM_REFUSED) from error

    async def send_dm(
        self, user_id: str, row: GameRow, text: str, *, message_id: int | None = None
    ) -> bool:
        """DM `text` and a link to the game if the user asked for DMs; False if not sent."""
        if not await self.prefs.wants_dm(user_id):
            return False
        try:
            await self._send(user_id, row, text, message_id or row.message_id)
        except discord.HTTPException as error:
            log.info("DM to %s skipped: %s", user_id, error)
            return False
        return True

    async def _send(
        self,
        user_id: str,
        row: GameRow,
        text: str,
        link_to: int | None,
        *,
        nonce: str = discord.utils.MISSING,
    ) -> None:
        """DM `text` with a link to the game's message `link_to` (or to its channel)."""
        where = (
            message_link(row.guild_id, row.play_channel_id, link_to)
            if link_to is not None
            else f"<#{row.play_channel_id}>"
        )
        channel = await self.client.create_dm(discord.Object(int(user_id)))
        await channel.send(
            f"{text}\n{where}"[:2000],
            allowed_mentions=discord.AllowedMentions.none(),
            nonce=nonce,
        )


def heads_up_text(wanted: bool, dm: bool, t: Translator) -> str:
    if not wanted:
        return t.gettext("Heads-up: off.")
    if dm:
        return t.gettext(
            "Heads-up: on — when the player before you starts their turn (in games of 3 or "
            "4 players), I tell you by direct message that you are next."
        )
    return t.gettext(
        "Heads-up: on — when the player before you starts their turn (in games of 3 or 4 "
        "players), I tell you in the game's thread that you are next."
    )


def digest_text(wanted: bool, t: Translator) -> str:
    if not wanted:
        return t.gettext("Daily digest: off.")
    return t.gettext(
        "Daily digest: on — each day at 08:00 UTC when a game waits for you, one direct "
        "message lists them."
    )


@me_group.command(name="notify", description="Choose how you hear that a game waits for you")
@app_commands.describe(
    mode="Channel mentions only, or also a direct message",
    heads_up="Also tell me when the player before me starts their turn",
    digest="A direct message each morning (08:00 UTC) listing the games waiting for me",
)
@app_commands.choices(
    mode=[app_commands.Choice(name=label, value=value) for value, label in MODES.items()]
)
@tracked
async def notify_command(
    interaction: discord.Interaction[Any],
    mode: app_commands.Choice[str] | None = None,
    heads_up: bool | None = None,
    digest: bool | None = None,
) -> None:
    prefs = NotifyPrefs(bot_of(interaction).store)
    user_id = str(interaction.user.id)
    if mode is not None:
        await prefs.set_dm(user_id, mode.value == ALSO_DM)
    if heads_up is not None:
        await prefs.set_heads_up(user_id, heads_up)
    if digest is not None:
        await prefs.set_digest(user_id, digest)
    dm = await prefs.wants_dm(user_id)
    t = user_t(interaction)
    current = t.pgettext("option choice", MODES[ALSO_DM if dm else CHANNEL_ONLY])
    told = heads_up_text(await prefs.wants_heads_up(user_id), dm, t)
    told += " " + digest_text(await prefs.wants_digest(user_id), t)
    if mode is None and heads_up is None and digest is None:
        await reply(
            interaction,
            t.gettext(
                "You get {mode}. {heads_up} Change it with {/me notify} "
                "({/me notify:mode}, {/me notify:heads_up}).",
                mode=current,
                heads_up=told,
            ),
        )
        return
    if dm:
        said = t.gettext(
            "Done: you will get {mode}. (If your DMs are closed to this server, I cannot "
            "reach you there and only mention you in the channel.) {heads_up}",
            mode=current,
            heads_up=told,
        )
    else:
        said = t.gettext("Done: you will get {mode}. {heads_up}", mode=current, heads_up=told)
    await reply(interaction, said)


DYNAMIC_ITEMS: DynamicItems = ()
"""This feature answers no component of its own."""

__all__ = ["DYNAMIC_ITEMS", "Notifier", "message_link"]
