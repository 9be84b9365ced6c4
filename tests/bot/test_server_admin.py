"""For server administrators and moderators (issue 26 points 1-2), through real
discord.py and the fake Discord: a server's own settings (refused to a non-admin, shown
with where each value comes from, in the admin's language), the defaults its new games
take (two servers on one bot differ), the role allowed to open games, and the
moderators' list of games whose abandon works once.
"""

from __future__ import annotations

import random
from pathlib import Path

import discord
import pytest

from bot.core.play.service import GameService, Refusal
from bot.core.server.server_settings import (
    change_server_settings,
    settings_of,
    statistics_enabled,
    validated,
)
from bot.core.server.settings import Settings
from bot.core.store import (
    ABANDONED,
    ABSENT_AI_MOVE,
    ACTIVE,
    LOBBY,
    PICTURES_EVERY_MOVE,
    PICTURES_ON_REQUEST,
    open_store,
)
from bot.discord_app.client import MontanaBot
from tests.bot.driver import game_at_main, make_bot, original
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_deadlines import manual_clock

ADMIN = discord.Permissions(manage_guild=True)
MODERATOR = discord.Permissions(manage_channels=True)


def sharded_bot(database: str, shard: int) -> MontanaBot:
    """A bot process serving shard `shard` of 2 on `database`."""
    settings = Settings(
        token=None, db_path=database, ai_delay_seconds=0.0, shard_count=2, shard_ids=(shard,)
    )
    return MontanaBot(settings, seed_source=random.Random(1))


async def test_a_non_admin_is_refused_the_settings_and_changes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    mod = fake_discord.add_user("mo", permissions=MODERATOR)
    for member in (ana, mod):
        refused = await fake_discord.slash(
            member,
            fake_discord.channel,
            "montana server settings",
            options={"turn_hours": 5},
        )
        assert refused.ephemeral
        assert "Only members allowed to manage this server" in refused.text
        assert "Nothing was changed" in refused.text
    assert await bot.store.guild_settings(fake_discord.guild_id) == {}


async def test_the_settings_show_each_value_and_where_it_comes_from(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    games = fake_discord.add_channel("games")
    shown = await fake_discord.slash(admin, fake_discord.channel, "montana server settings")
    assert shown.ephemeral
    assert "Hours for a turn: 48 hours (the bot's default)" in shown.text
    assert "Role allowed to open games: everyone (the bot's default)" in shown.text
    assert "Language of new games: the server's language (English)" in shown.text
    changed = await fake_discord.slash(
        admin,
        fake_discord.channel,
        "montana server settings",
        options={
            "turn_hours": 12,
            "games_channel": games,
            "open_lobbies": 3,
            "statistics": False,
            "language": "pl",
        },
    )
    assert "Saved." in changed.text
    assert "Hours for a turn: 12 hours (set by this server)" in changed.text
    assert f"Channel for new games and results: <#{games.id}> (set by this server)" in (
        changed.text
    )
    assert "Open lobbies per member: 3 (set by this server)" in changed.text
    assert "Statistics and ratings: off (set by this server)" in changed.text
    assert "Hours to answer the city auction: 24 hours (the bot's default)" in changed.text
    assert not await statistics_enabled(bot.store, fake_discord.guild_id)
    # in the admin's own language, whatever the server's
    admin.locale = "fr"
    french = await fake_discord.slash(admin, fake_discord.channel, "montana server settings")
    assert "Heures pour un tour" in french.text and "12 heures" in french.text
    # one put back to the bot's default
    reset = await fake_discord.slash(
        admin, fake_discord.channel, "montana server settings", options={"reset": "turn_hours"}
    )
    assert "48 heures" in reset.text
    saved = await bot.store.guild_settings(fake_discord.guild_id)
    assert "turn_hours" not in saved and saved["open_lobbies"] == "3"


async def test_two_servers_open_games_with_their_own_defaults(
    fake_discord: FakeDiscord, postgres_url: str
) -> None:
    """Two servers on one database, each served by its own bot process (the shards of
    a sharded bot): each server's settings are its own, and the options of
    `/montana game new` still win."""
    first_shard = (fake_discord.guild_id >> 22) % 2
    other_guild = fake_discord.guild_id + (1 << 22)  # the other shard
    first = sharded_bot(postgres_url, first_shard)
    await fake_discord.start(first)
    async with FakeDiscord(guild_name="Other server", guild_id=other_guild) as other_discord:
        other_discord.world.guild_locale = "ja"
        second = sharded_bot(postgres_url, 1 - first_shard)
        await other_discord.start(second)
        admin = fake_discord.add_user("admin", permissions=ADMIN)
        await fake_discord.slash(
            admin,
            fake_discord.channel,
            "montana server settings",
            options={"language": "fr", "turn_hours": 12, "auction_hours": 6, "absent": "ai-move"},
        )
        ana = fake_discord.add_user("ana")
        ben = other_discord.add_user("ben")
        lobby = original(await fake_discord.slash(ana, fake_discord.channel, "montana game new"))
        other = original(await other_discord.slash(ben, other_discord.channel, "montana game new"))
        row = await first.store.open_game_in(fake_discord.channel.id)
        row_other = await second.store.open_game_in(other_discord.channel.id)
        assert row is not None and row_other is not None
        assert (row.language, row.turn_seconds, row.auction_seconds, row.absent) == (
            "fr",
            12 * 3600,
            6 * 3600,
            ABSENT_AI_MOVE,
        )
        assert "Langue" in lobby.content
        # the other server set nothing: its own locale and the bot's defaults
        assert (row_other.language, row_other.turn_seconds, row_other.absent) == (
            "ja",
            48 * 3600,
            "wait",
        )
        assert "言語" in other.content
        # the explicit options of /montana game new win over the server's
        cleo = fake_discord.add_user("cleo")
        elsewhere = fake_discord.add_channel("elsewhere")
        await fake_discord.slash(
            cleo,
            elsewhere,
            "montana game new",
            options={"turn_hours": 3, "language": "en"},
        )
        chosen = await first.store.open_game_in(elsewhere.id)
        assert chosen is not None
        assert (chosen.language, chosen.turn_seconds, chosen.auction_seconds) == (
            "en",
            3 * 3600,
            6 * 3600,
        )
        await other_discord.stop(second)


async def test_only_the_servers_role_may_open_games(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    host = fake_discord.add_user("host", permissions=discord.Permissions(send_messages=True))
    guest = fake_discord.add_user("guest")
    assert host.role_id is not None
    await fake_discord.slash(
        admin,
        fake_discord.channel,
        "montana server settings",
        options={"opener_role": host.role_id},
    )
    refused = await fake_discord.slash(guest, fake_discord.channel, "montana game new")
    assert refused.ephemeral
    assert f"only members with the role <@&{host.role_id}> can open a game" in refused.text
    assert await bot.store.open_game_in(fake_discord.channel.id) is None
    opened = await fake_discord.slash(host, fake_discord.channel, "montana game new")
    assert not original(opened).ephemeral
    # @everyone as the role: everyone again
    await fake_discord.slash(
        admin,
        fake_discord.channel,
        "montana server settings",
        options={"opener_role": fake_discord.guild_id},
    )
    assert "opener_role" not in await bot.store.guild_settings(fake_discord.guild_id)
    lobby = await fake_discord.slash(guest, fake_discord.add_channel("two"), "montana game new")
    assert not original(lobby).ephemeral


async def test_the_moderators_list_shows_the_servers_games_and_ends_one_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    bot = table.bot
    ana = table.user((await table.row(game_id)).players[0].user_id)
    mod = fake_discord.add_user("mo", permissions=MODERATOR)
    lounge = fake_discord.add_channel("lounge")
    cleo = fake_discord.add_user("cleo")
    await fake_discord.slash(cleo, lounge, "montana game new")
    lobby = await bot.store.open_game_in(lounge.id)
    assert lobby is not None and lobby.status == LOBBY
    # a player is refused the list
    refused = await fake_discord.slash(ana, fake_discord.channel, "montana server games")
    assert refused.ephemeral and "Only members allowed to manage this server or its" in (
        refused.text
    )
    listing = original(await fake_discord.slash(mod, fake_discord.channel, "montana server games"))
    assert listing.ephemeral
    row = await table.row(game_id)
    awaiting = GameService.game_of(row).awaiting
    assert awaiting is not None
    waits = f"**#{game_id}** in <#{thread.id}>: waits for {row.names[awaiting]}, whose turn began"
    assert f"{waits} <t:" in listing.content
    assert "**overdue**" not in listing.content
    # past the 48 hours of the turn, the list says the game is overdue
    await manual_clock(bot, game_id, 49)
    late = original(await fake_discord.slash(mod, fake_discord.channel, "montana server games"))
    assert f"waits for {row.names[awaiting]}, whose turn began <t:" in late.content
    assert "**overdue** (due <t:" in late.content
    listing = late
    assert f"**#{lobby.id}** lobby in <#{lounge.id}>, opened by Cleo <t:" in listing.content
    assert "waits for players (1/4)" in listing.content
    assert f"https://discord.com/channels/{fake_discord.guild_id}/{thread.id}/" in (listing.content)
    # abandon the game: asked first, then done once
    asked = original(await fake_discord.press(mod, listing, label=f"Abandon #{game_id}"))
    assert asked.ephemeral and "It ends without a result" in asked.content
    assert (await table.row(game_id)).status == ACTIVE  # asking changed nothing
    # another moderator asks too, from their own list
    admin = fake_discord.add_user("ad", permissions=ADMIN)
    theirs = original(await fake_discord.slash(admin, fake_discord.channel, "montana server games"))
    asked_too = original(await fake_discord.press(admin, theirs, label=f"Abandon #{game_id}"))
    # the presser must still be allowed when confirming
    fake_discord.set_permissions(mod, discord.Permissions.none())
    denied = await fake_discord.press(mod, asked, label="Yes, end it")
    assert "Only members allowed to manage this server or its" in denied.text
    assert (await table.row(game_id)).status == ACTIVE
    fake_discord.set_permissions(mod, MODERATOR)
    done = await fake_discord.press(mod, asked, label="Yes, end it")
    assert f"The game **#{game_id}** is abandoned." in done.text
    assert (await table.row(game_id)).status == ABANDONED
    assert any(
        "a moderator of this server, abandoned the game" in m.content
        for m in fake_discord.messages_in(thread)
    )
    assert not asked.interactive_components()  # the question is answered
    # the other moderator's confirmation, pressed after, does nothing more
    again = await fake_discord.press(admin, asked_too, label="Yes, end it")
    assert again.ephemeral and "This game is already over." in again.text
    told = [
        m
        for m in fake_discord.messages_in(thread)
        if "a moderator of this server, abandoned" in m.content
    ]
    assert len(told) == 1
    # the list no longer shows it; the lobby closes alike
    listing = original(await fake_discord.slash(mod, fake_discord.channel, "montana server games"))
    assert f"**#{game_id}**" not in listing.content
    asked = original(await fake_discord.press(mod, listing, label=f"Close lobby #{lobby.id}"))
    closed = await fake_discord.press(mod, asked, label="Yes, end it")
    assert f"The lobby **#{lobby.id}** is closed." in closed.text
    assert (await table.row(lobby.id)).status == ABANDONED
    empty = await fake_discord.slash(mod, fake_discord.channel, "montana server games")
    assert "No game is under way or open in this server." in empty.text


def test_each_setting_refuses_a_value_it_does_not_take_in_words() -> None:
    assert validated("turn_hours", " 12 ") == "12"
    assert validated("absent", "AI-SEAT") == "ai-seat"
    with pytest.raises(Refusal, match="turn_hours must be a whole number from 1 to 720"):
        validated("turn_hours", "0")
    with pytest.raises(Refusal, match="language must be one of: en, fr, pl, ja; not de"):
        validated("language", "de")
    with pytest.raises(Refusal, match="statistics must be one of: on, off"):
        validated("statistics", "maybe")
    with pytest.raises(Refusal, match="There is no server setting colour"):
        validated("colour", "red")
    # a value saved by another bot that this one does not take keeps the default
    chosen = settings_of({"turn_hours": "9999", "open_lobbies": "4"})
    assert chosen.turn_hours == 48.0 and not chosen.from_server("turn_hours")
    assert chosen.limits.open_lobbies == 4 and chosen.from_server("open_lobbies")


async def test_a_refused_value_changes_none_of_the_others(tmp_path: Path) -> None:
    store = await open_store(str(tmp_path / "m.sqlite3"))
    try:
        with pytest.raises(Refusal, match="lobby_days must be a whole number from 1 to 90"):
            await change_server_settings(store, 5, {"turn_hours": "6", "lobby_days": "365"})
        assert await store.guild_settings(5) == {}
        assert await statistics_enabled(store, 5)
        await change_server_settings(store, 5, {"statistics": "off"})
        assert not await statistics_enabled(store, 5)
        assert await statistics_enabled(store, None)
    finally:
        await store.close()


async def test_a_servers_pictures_default_reaches_its_new_games(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 26.1 with 25.3: `pictures` is one of a server's game defaults; an option
    given to `/montana game new` still wins."""
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    admin = fake_discord.add_user("ada", permissions=ADMIN)
    changed = await fake_discord.slash(
        admin,
        fake_discord.channel,
        "montana server settings",
        options={"pictures": PICTURES_ON_REQUEST},
    )
    assert "Pictures of new games: a picture on request" in changed.text
    assert "(set by this server)" in changed.text
    ana = fake_discord.add_user("ana")
    await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new")
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None and row.pictures == PICTURES_ON_REQUEST
    other = fake_discord.add_channel("other")
    await fake_discord.slash(
        ana, other, "montana", "game", "new", options={"pictures": PICTURES_EVERY_MOVE}
    )
    row = await bot.store.open_game_in(other.id)
    assert row is not None and row.pictures == PICTURES_EVERY_MOVE
    with pytest.raises(Refusal, match="pictures must be one of"):
        validated("pictures", "sometimes")


async def test_a_channels_moderator_acts_on_its_games_only(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Manage Channels by a member overwrite in one channel reaches the games of that
    channel (and its threads) alone: the list shows only those, a press on another's is
    refused in words; Manage Server reaches every game."""
    table, game_id, thread = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    bot = table.bot
    lounge = fake_discord.add_channel("lounge")
    cleo = fake_discord.add_user("cleo")
    await fake_discord.slash(cleo, lounge, "montana game new")
    lobby = await bot.store.open_game_in(lounge.id)
    assert lobby is not None
    mod = fake_discord.add_user("mo")
    fake_discord.grant(mod, lounge, MODERATOR)
    # asked in the lounge or in the general channel: the lounge's lobby only
    for where in (lounge, fake_discord.channel):
        listing = original(await fake_discord.slash(mod, where, "montana server games"))
        assert listing.ephemeral
        assert "The games of the channels you manage" in listing.content
        assert f"**#{lobby.id}** lobby in <#{lounge.id}>" in listing.content
        assert f"**#{game_id}**" not in listing.content
        assert not any(i.startswith(f"sv:ask:{game_id}:") for i in listing.custom_ids())
    # a forged press on the general channel's game is refused in words
    answer = listing.interaction_id
    refused = await fake_discord.press_forged(mod, listing, f"sv:ask:{game_id}:{answer}")
    assert refused.ephemeral
    assert f"the game **#{game_id}** is in <#{thread.id}>" in refused.text
    assert "Nothing was changed" in refused.text
    forged_end = await fake_discord.press_forged(mod, listing, f"sv:end:{game_id}:{answer}")
    assert forged_end.ephemeral and "Nothing was changed" in forged_end.text
    assert (await table.row(game_id)).status == ACTIVE
    # the lounge's lobby is theirs to close
    asked = original(await fake_discord.press(mod, listing, label=f"Close lobby #{lobby.id}"))
    closed = await fake_discord.press(mod, asked, label="Yes, end it")
    assert f"The lobby **#{lobby.id}** is closed." in closed.text
    assert (await table.row(lobby.id)).status == ABANDONED
    # without any channel to manage, the list is refused
    nobody = fake_discord.add_user("nobody")
    denied = await fake_discord.slash(nobody, lounge, "montana server games")
    assert "Only members allowed to manage this server or its" in denied.text
    # a server manager reaches the general channel's game from the lounge
    admin = fake_discord.add_user("ad", permissions=ADMIN)
    theirs = original(await fake_discord.slash(admin, lounge, "montana server games"))
    assert f"**#{game_id}**" in theirs.content
    asked = original(await fake_discord.press(admin, theirs, label=f"Abandon #{game_id}"))
    done = await fake_discord.press(admin, asked, label="Yes, end it")
    assert f"The game **#{game_id}** is abandoned." in done.text
