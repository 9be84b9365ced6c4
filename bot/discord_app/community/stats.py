"""A server's memory on Discord (issue 22): `/montana leaderboard`, `/montana stats`,
`/montana records`, `/montana me stats`, `/montana me forget`, and the end-of-game
summary the outbox owes (`SummarySender`, for `ratings.SUMMARY`).

The leaderboard is an embed, not a picture: a table of text reads in the client's own
fonts and theme (names in any script), a screen reader reads it, it pages at once
(no drawing) and a name can be searched for. The rating's history is a picture: a curve
reads at a glance where a column of numbers does not (`render.charts`).

Every answer is for the asker only unless they choose `post: True`.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands

import bot.discord_app.cards as cards
from bot.core.community import standings as community
from bot.core.community import stats
from bot.core.community.ratings import PROVISIONAL_GAMES
from bot.core.community.seasons import ALL_TIME, SEASON
from bot.core.delivery.outbox import Ticket
from bot.core.play.service import Refusal
from bot.core.store import GameRow, Owed, Store, StoreError
from bot.core.wording import words
from bot.discord_app.components import (
    Components,
    DynamicItems,
    bot_of,
    database_trouble,
    delivery_problem,
    game_t,
    reply,
    user_t,
)
from bot.discord_app.delivery.weblinks import (
    OPEN_PLAYER_PAGE,
    OPEN_SERVER_PAGE,
    player_link,
    server_link,
    with_link,
)
from bot.discord_app.group import NO_PINGS, me_group, montana, tracked
from bot.discord_app.guard import FORGET_KIND, LEADERBOARD_KIND, check_kind, went_wrong
from i18n import Translator, translatable
from render.palette import GOLD
from rules import Game

log = logging.getLogger(__name__)

PAGE_SIZE = 10
CHART_NAME = "rating.png"
PERIOD_CHOICES = [
    app_commands.Choice(name="this season", value=SEASON),
    app_commands.Choice(name="all time", value=ALL_TIME),
]
"""The leaderboard's and the statistics' periods (`bot.core.community.seasons`)."""
PERIOD_DESCRIPTION = "This season (default) or all time"
NO_GAME_IN_SEASON = translatable(
    "{name} has no finished game in season {number} ({season}) yet; the period "
    "“all time” shows all their games."
)
LOOK_BACK = 20
CANNOT_POST_SUMMARY = translatable(
    "I cannot post the game's summary in {where} (deleted, or a permission is missing)."
)


async def answer_press(
    interaction: discord.Interaction[Any], work: Callable[[], Awaitable[None]]
) -> None:
    """Run a press of this feature (not bound to a game, so not `guard.run_press`): a
    refusal or a failing database answered to the presser in words, anything else told
    by an incident id (`guard.went_wrong`)."""
    try:
        await work()
    except Refusal as refusal:
        await reply(interaction, refusal.text(user_t(interaction)))
    except StoreError as error:
        await reply(interaction, database_trouble(error, user_t(interaction)))
    except Exception as error:
        await went_wrong(interaction, error)


def guild_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise Refusal(translatable("Use this command in a server channel."))
    return interaction.guild_id


# ------------------------------------------------------------------ the summary


SUMMARY_COLOUR = discord.Colour.from_rgb(*GOLD)
"""The summary card's accent: the board's gold (the game is over: nobody is awaited)."""


class SummarySender:
    """Says a game's owed summary (`Delivery.senders[ratings.SUMMARY]`): the summary in
    the game's thread, or the short line in its parent channel."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def __call__(self, owed: Owed, row: GameRow, game: Game, ticket: Ticket) -> int | None:
        t = game_t(row)
        if owed.body.get("where") == "channel":
            if row.thread_id is None:
                return None  # the game plays in its channel: the summary is there already
            channel_id = row.channel_id
            text = stats.summary_line(owed.body, row.id, row.thread_id, t)
        else:
            channel_id = row.play_channel_id
            text = stats.summary_text(owed.body, row.id, t)
        try:
            earlier = await self._posted(channel_id, row, text, ticket)
            if earlier is not None:
                return earlier
            channel = self.client.get_partial_messageable(channel_id, guild_id=row.guild_id)
            message = await channel.send(
                view=cards.simple(text, colour=SUMMARY_COLOUR),
                allowed_mentions=NO_PINGS,
                nonce=ticket.key,
            )
        except (discord.DiscordException, OSError, TimeoutError) as error:
            raise delivery_problem(error, CANNOT_POST_SUMMARY, where=f"<#{channel_id}>") from error
        return message.id

    async def _posted(self, channel_id: int, row: GameRow, text: str, ticket: Ticket) -> int | None:
        """On a retry: the summary an earlier attempt posted, if it went out."""
        if not ticket.retry:
            return None
        channel = self.client.get_partial_messageable(channel_id, guild_id=row.guild_id)
        since = discord.Object(discord.utils.time_snowflake(ticket.since - timedelta(seconds=5)))
        me = self.client.user
        start = text.strip()[:200]
        try:
            async for message in channel.history(limit=LOOK_BACK, after=since):
                if (
                    me is not None
                    and message.author.id == me.id
                    and cards.words_of(message).startswith(start)
                ):
                    return message.id
        except discord.HTTPException as error:
            log.info("could not look for an earlier summary: %s", error)
        return None


# ------------------------------------------------------------------ the leaderboard


async def leaderboard_embed(
    store: Store,
    guild_id: int,
    guild_name: str,
    user_id: str,
    page: int,
    t: Translator,
    *,
    typed: bool = False,
    period: str = SEASON,
) -> tuple[discord.Embed, int, int]:
    """One page of the server's leaderboard for `user_id`, of its current season or of
    all time (`period`; `typed`: a page that does not exist is refused, else the nearest
    is shown; their own line shown even off the page), with the past seasons'
    champions; the embed, the page shown and the page count."""
    read = await community.leaderboard_page(
        store, guild_id, page, PAGE_SIZE, besides=[user_id], typed=typed, period=period
    )
    page, pages, offset, board = read.page, read.pages, read.offset, read.board
    mine = await read.period.rating_of(user_id)
    hidden = await store.stats_hidden(user_id)
    lines = [stats.leaderboard_header(t)]
    lines += [
        stats.leaderboard_line(
            offset + index + 1, r, read.month.get(r.player, r.rating), you=r.player == user_id
        )
        for index, r in enumerate(board)
    ]
    embed = discord.Embed(
        title=stats.leaderboard_title(guild_name, read.period.season, bool(read.period.seasons), t),
        colour=discord.Colour.from_rgb(40, 100, 215),
    )
    if not board:
        embed.description = t.gettext(
            "Nobody has {n} rated games on this server yet: finish games to be rated.",
            n=PROVISIONAL_GAMES,
        )
    on_page = any(r.player == user_id for r in board)
    if not on_page:
        eligible = mine is not None and mine.games >= PROVISIONAL_GAMES and not hidden
        if mine is not None and eligible:
            place, _ = await read.period.leaderboard_place(mine, PROVISIONAL_GAMES)
            lines += [
                "  …",
                stats.leaderboard_line(place, mine, read.month.get(user_id, mine.rating), you=True),
            ]
        else:
            embed.add_field(
                name=t.gettext("You"), value=stats.not_on_board(mine, hidden, t), inline=False
            )
    if board:
        embed.description = "```\n" + "\n".join(lines) + "\n```"
    champions = stats.champions_lines(read.period.past, t)
    if champions:
        embed.add_field(
            name=t.gettext("Past seasons' champions"),
            value="\n".join(f"• {line}" for line in champions)[:1024],
            inline=False,
        )
    embed.set_footer(text=stats.leaderboard_footer(page, pages, t))
    return embed, page, pages


async def linked_leaderboard_view(
    interaction: discord.Interaction[Any],
    guild_id: int,
    page: int,
    pages: int,
    t: Translator,
    period: str = SEASON,
) -> discord.ui.View | None:
    """The leaderboard's page buttons, and the link to the server's web page when it has
    one (`weblinks.server_link`)."""
    view = leaderboard_view(page, pages, t, period)
    bot = bot_of(interaction)
    guild_name = interaction.guild.name if interaction.guild else ""
    url = await server_link(bot.store, bot.settings.web_url, guild_id, guild_name)
    return view if url is None else with_link(view, t.translate(OPEN_SERVER_PAGE), url)


def leaderboard_view(
    page: int, pages: int, t: Translator, period: str = SEASON
) -> discord.ui.View | None:
    if pages <= 1:
        return None
    view = Components()
    for tag, label, target in (
        ("p", "◀ " + t.pgettext("button", "Previous"), page - 1),
        ("n", t.pgettext("button", "Next") + " ▶", page + 1),
    ):
        clamped = min(max(target, 1), pages)
        view.add_item(
            LeaderboardButton(clamped, tag, label, disabled=clamped == page, period=period)
        )
    return view


class LeaderboardButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    # ":a": the all-time leaderboard (a button of before seasons pages the season's)
    template=r"lb:(?P<page>[0-9]{1,6}):(?P<tag>[a-z])(?P<all>:a)?",
):
    def __init__(
        self,
        page: int,
        tag: str,
        label: str = "·",
        *,
        disabled: bool = False,
        period: str = SEASON,
    ) -> None:
        more = ":a" if period == ALL_TIME else ""
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"lb:{page}:{tag}{more}",
                disabled=disabled,
            )
        )
        self.page = page
        self.period = period

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LeaderboardButton:
        return cls(int(match["page"]), match["tag"], period=ALL_TIME if match["all"] else SEASON)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def turn_page() -> None:
            check_kind(interaction, LEADERBOARD_KIND)
            t = user_t(interaction)
            guild_id = guild_of(interaction)
            guild_name = interaction.guild.name if interaction.guild else ""
            embed, page, pages = await leaderboard_embed(
                bot_of(interaction).store,
                guild_id,
                guild_name,
                str(interaction.user.id),
                self.page,
                t,
                period=self.period,
            )
            view = await linked_leaderboard_view(interaction, guild_id, page, pages, t, self.period)
            await interaction.response.edit_message(view=cards.from_embed(embed, view))

        await answer_press(interaction, turn_page)


@montana.command(name="leaderboard", description="The best players of this server, by rating")
@app_commands.describe(
    page="Which page (10 players each)",
    period=PERIOD_DESCRIPTION,
    post="Show it to the channel (default: only you)",
)
@app_commands.choices(period=PERIOD_CHOICES)
@tracked
async def leaderboard_command(
    interaction: discord.Interaction[Any],
    page: int = 1,
    period: app_commands.Choice[str] | None = None,
    post: bool = False,
) -> None:
    t = user_t(interaction)
    guild_id = guild_of(interaction)
    guild_name = interaction.guild.name if interaction.guild else ""
    store, user_id = bot_of(interaction).store, str(interaction.user.id)
    chosen = period.value if period else SEASON
    embed, page, pages = await leaderboard_embed(
        store, guild_id, guild_name, user_id, page, t, typed=True, period=chosen
    )
    view = await linked_leaderboard_view(interaction, guild_id, page, pages, t, chosen)
    await interaction.response.send_message(
        view=cards.from_embed(embed, view), ephemeral=not post, allowed_mentions=NO_PINGS
    )


# ------------------------------------------------------------------ one player's record


@montana.command(name="stats", description="A player's record on this server, with a chart")
@app_commands.describe(
    player="Whose record (default: yours)",
    period=PERIOD_DESCRIPTION,
    post="Show it to the channel (default: only you)",
)
@app_commands.choices(period=PERIOD_CHOICES)
@tracked
async def stats_command(
    interaction: discord.Interaction[Any],
    player: discord.User | None = None,
    period: app_commands.Choice[str] | None = None,
    post: bool = False,
) -> None:
    t = user_t(interaction)
    guild_id = guild_of(interaction)
    target = player or interaction.user
    embed, picture = await stats_embed(
        bot_of(interaction).store,
        guild_id,
        str(target.id),
        target.display_name,
        t,
        own=target.id == interaction.user.id,
        period=period.value if period else SEASON,
    )
    kwargs: dict[str, Any] = {}
    if picture is not None:
        kwargs["file"] = discord.File(io.BytesIO(picture), filename=CHART_NAME)
    bot = bot_of(interaction)
    guild_name = interaction.guild.name if interaction.guild else ""
    url = await player_link(bot.store, bot.settings.web_url, guild_id, guild_name, str(target.id))
    link = with_link(None, t.translate(OPEN_PLAYER_PAGE), url) if url is not None else None
    await interaction.response.send_message(
        view=cards.from_embed(embed, link), ephemeral=not post, allowed_mentions=NO_PINGS, **kwargs
    )


async def stats_embed(
    store: Store,
    guild_id: int,
    user_id: str,
    display_name: str,
    t: Translator,
    *,
    own: bool,
    chart: bool = True,
    period: str = SEASON,
) -> tuple[discord.Embed, bytes | None]:
    """A player's record on the server, in its current season or of all time (`period`),
    as an embed, and the chart of their rating (drawn in a thread; None without rated
    games or when `chart` is False). `Refusal` when the player hides their statistics
    from others, or has no finished game here (or in the season)."""
    record = await community.player_record(store, guild_id, user_id, period=period)
    if record.hidden and not own:
        raise Refusal(translatable("{name} keeps their statistics hidden."), name=display_name)
    name = record.name or display_name
    season = record.period.season if record.period else None
    if record.stats is None and season is not None:
        raise Refusal(NO_GAME_IN_SEASON, name=name, number=season.number, season=season.name)
    if record.stats is None:
        raise Refusal(translatable("{name} has no finished game on this server yet."), name=name)
    hidden, place, size = record.hidden, record.place, record.board_size
    seasons = bool(record.period and record.period.seasons)
    embed = discord.Embed(
        title=stats.stats_title(name, season, seasons, t),
        colour=discord.Colour.from_rgb(40, 100, 215),
    )
    for label, value in stats.stats_fields(record.stats, place, size, t):
        embed.add_field(name=label, value=value, inline=True)
    if hidden:
        # the description, not the footer: a footer shows no command mention
        embed.description = t.gettext("Hidden from the others ({/me stats}).")
    picture = await community.rating_chart_of(name, record.stats, place, t) if chart else None
    if picture is not None:
        embed.set_image(url=f"attachment://{CHART_NAME}")
    return embed, picture


@montana.command(
    name="records", description="This server's records: most settlements, fastest game"
)
@app_commands.describe(post="Show it to the channel (default: only you)")
@tracked
async def records_command(interaction: discord.Interaction[Any], post: bool = False) -> None:
    t = user_t(interaction)
    guild_id = guild_of(interaction)
    lines = stats.records_lines(await bot_of(interaction).store.server_records(guild_id), t)
    if not lines:
        raise Refusal(translatable("No records on this server yet: finish a game first."))
    text = (
        t.gettext("🏅 **Records of this server**") + "\n" + "\n".join(f"• {line}" for line in lines)
    )
    await interaction.response.send_message(
        text[:2000], ephemeral=not post, allowed_mentions=NO_PINGS
    )


# ------------------------------------------------------------------ privacy


@me_group.command(name="stats", description="Hide your statistics from the leaderboard and others")
@app_commands.describe(hidden="True: off the leaderboard and the records; False: shown again")
@tracked
async def me_stats_command(interaction: discord.Interaction[Any], hidden: bool) -> None:
    t = user_t(interaction)
    await bot_of(interaction).store.set_stats_hidden(str(interaction.user.id), hidden)
    if hidden:
        said = t.gettext(
            "Done: your statistics are hidden. You are off the leaderboard and the records, "
            "and others cannot look at your statistics; your games still count for the "
            "others' ratings."
        )
    else:
        said = t.gettext("Done: your statistics are shown again, on the leaderboard too.")
    await reply(interaction, said)


def forget_view(user_id: int, t: Translator) -> discord.ui.View:
    view = Components()
    view.add_item(
        ForgetButton(user_id, "y", t.pgettext("button", "Forget me"), discord.ButtonStyle.danger)
    )
    view.add_item(ForgetButton(user_id, "n", t.pgettext("button", "Cancel")))
    return view


class ForgetButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"mf:(?P<user>[0-9]{1,20}):(?P<choice>[yn])",
):
    def __init__(
        self,
        user_id: int,
        choice: str,
        label: str = "·",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"mf:{user_id}:{choice}")
        )
        self.user_id = user_id
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ForgetButton:
        return cls(int(match["user"]), match["choice"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await answer_press(interaction, lambda: self.answer(interaction))

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        check_kind(interaction, FORGET_KIND)
        t = user_t(interaction)
        if interaction.user.id != self.user_id:
            raise Refusal(translatable("Only the player who asked can answer this."))
        if self.choice != "y":
            await interaction.response.edit_message(
                content=t.gettext("Nothing was deleted."), view=None
            )
            return
        games = await bot_of(interaction).store.forget_player(str(self.user_id))
        await interaction.response.edit_message(
            content=t.ngettext(
                "Done: your preferences, ratings and statistics are deleted, and your name is "
                "gone from {n} finished game.",
                "Done: your preferences, ratings and statistics are deleted, and your name is "
                "gone from {n} finished games.",
                games,
            ),
            view=None,
        )


@me_group.command(name="forget", description="Delete your preferences and statistics")
@tracked
async def forget_command(interaction: discord.Interaction[Any]) -> None:
    t = user_t(interaction)
    await reply(
        interaction,
        t.gettext(
            "This deletes your preferences (direct messages, heads-up, language), your ratings "
            "and statistics on every server, and writes {forgotten} for your name in "
            "the games that are over. Kept: your moves in those games' logs, under your "
            "Discord id (a game's record needs them), the messages already posted, and the "
            "games under way. It cannot be undone.",
            forgotten=words.quoted(t.translate(words.FORGOTTEN_WORDS), t),
        ),
        view=forget_view(interaction.user.id, t),
    )


DYNAMIC_ITEMS: DynamicItems = (LeaderboardButton, ForgetButton)

__all__ = [
    "DYNAMIC_ITEMS",
    "ForgetButton",
    "LeaderboardButton",
    "SummarySender",
    "leaderboard_embed",
    "stats_embed",
]
