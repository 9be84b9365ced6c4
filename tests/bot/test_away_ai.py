"""Away with the AI playing for you (issue 11 point 5: "while away, the player's deadlines
are paused (or the AI plays for them, once AI seats exist, as they chose)"), through real
discord.py and the fake Discord, the AI deciding in its worker process.

What a player expects: with `/montana me away ai: True` the AI takes their seat in each
game under way and in each game that starts meanwhile, nobody waits for them and
nobody pings them; the others are told; `/montana me back`, the end of the away time or
an away without the AI gives back exactly the seats the away handed over (never one the
others voted over, nor one the player took back meanwhile); and all of it holds after a
restart, also one between saving the away and handing the seats over.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import ai
from bot.core.play.service import AWAY_AI_WORDS
from bot.core.store import AWAY_AI, Away, GameRow, MoveRow
from bot.core.wording import words
from bot.discord_app.client import MontanaBot
from i18n import translator
from rules import Action, Game
from tests.bot.driver import Table, make_bot, play_until, to_main_decision
from tests.bot.fakediscord import FakeDiscord, FakeMessage
from tests.bot.test_deadlines import driver_at
from tests.bot.test_presence import NotesRenderer, away_until, three_players


def stamp(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:f>"


async def moves_of(bot: MontanaBot, game_id: int, player: str, after: int = 0) -> list[MoveRow]:
    return [m for m in await bot.store.moves(game_id) if m.player == player and m.version > after]


async def play_others(table: Table, game_id: int, away: str, until_moves_of_away: int) -> None:
    """The other players move and the AI answers for `away`, until the AI has made
    `until_moves_of_away` moves for them; the game never waits for `away` meanwhile."""
    _, game = await table.game(game_id)
    start = len(game.log)

    def reached(game: Game) -> bool:
        assert game.awaiting != away, "the game waits for a player the AI plays for"
        return [pid for pid, _ in game.log[start:]].count(away) >= until_moves_of_away

    await play_until(table, game_id, reached)


def pinging(messages: list[FakeMessage], user: str) -> list[FakeMessage]:
    return [m for m in messages if int(user) in m.pinged_ids]


async def test_away_with_the_ai_hands_each_seat_over_until_back(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    renderer = NotesRenderer()
    table, game_id, thread, seats = await three_players(
        fake_discord, tmp_path / "m.sqlite3", renderer
    )
    bot = table.bot
    row, game = await table.game(game_id)
    away = game.awaiting
    assert away is not None
    other = next(p for p in seats if p != away)
    name = row.names[away]
    # Ana would hear of her turns by DM: while the AI plays for her, she hears nothing
    await fake_discord.slash(
        table.user(away), fake_discord.channel, "montana", "me", "notify", options={"mode": "dm"}
    )
    dms_before = len(fake_discord.dms(table.user(away)))
    before = fake_discord.messages_in(thread)[-1]
    await bot.ai.stop()  # the AI holds back for a moment: her own press comes first
    went = await fake_discord.slash(
        table.user(away),
        fake_discord.channel,
        "montana",
        "me",
        "away",
        options={"days": 2, "ai": True},
    )
    until = await away_until(bot, away)
    assert went.ephemeral
    assert f"You are away until {stamp(until)}" in went.content
    assert "the AI plays for you in your 1 game under way" in went.content
    row = await table.row(game_id)
    assert row.taken_over == (away,) and row.names[away] == f"{name} (AI)"
    assert await bot.store.away_seats(away) == {game_id: False}
    # her own move is refused, and says how to play it herself
    pressed = await fake_discord.slash(table.user(away), thread, "montana", "recruit")
    assert pressed.ephemeral and translator("en").translate(AWAY_AI_WORDS) in pressed.content
    # the AI plays her decision
    await bot.ai.start()
    await bot.ai.idle()
    assert await moves_of(bot, game_id, away, row.version - 1), "the AI moved for her"
    # the others are told in the thread, nobody pinged; the picture and status say it
    told = [m for m in fake_discord.messages_in(thread) if m.id > before.id]
    notice = words.went_away_line(name, stamp(until), ai=True)
    (away_line,) = [m for m in told if m.content == notice]
    assert away_line.pinged_ids == []
    assert renderer.notes[-1][away] == words.away_note(until, ai=True)
    status = await fake_discord.slash(table.user(other), thread, "montana", "status")
    assert words.away_line(name, stamp(until), ai=True) in status.content
    # her seat keeps being played: nobody waits for her, nobody pings her, no DM
    await play_others(table, game_id, away, until_moves_of_away=4)
    assert pinging([m for m in fake_discord.messages_in(thread) if m.id > before.id], away) == []
    assert len(fake_discord.dms(table.user(away))) == dms_before
    # back: her seat is hers again, and the others are told
    last = fake_discord.messages_in(thread)[-1]
    back = await fake_discord.slash(table.user(away), thread, "montana", "me", "back")
    assert back.ephemeral and "The AI gives you back your seat in 1 game." in back.content
    row = await table.row(game_id)
    assert row.taken_over == () and row.names[away] == name
    assert await bot.store.away_seats(away) == {} and await bot.store.aways() == {}
    # within the hour of the away line, the back line replaces it (issue 21.2)
    assert [m for m in fake_discord.messages_in(thread) if m.id > last.id] == []
    assert away_line.content == words.back_line(name, ai=True) and away_line.pinged_ids == []
    # and when her turn comes, the game waits for her again
    row, game = await play_until(table, game_id, lambda game: game.awaiting == away)
    await bot.ai.idle()
    assert (await table.row(game_id)).version == row.version, "the AI left her seat alone"


async def test_the_end_of_an_away_gives_back_only_the_seats_it_handed_over(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread, _ = await three_players(fake_discord, tmp_path / "m.sqlite3")
    bot = table.bot
    row, game = await table.game(game_id)
    ana = game.awaiting
    assert ana is not None
    ben, cleo = (p for p in game.player_ids if p != ana)
    # Ben, away, has his seat voted over to the AI by the two others (issue 14)
    await fake_discord.slash(
        table.user(ben), fake_discord.channel, "montana", "me", "away", options={"hours": 2}
    )
    await bot.ai.vote_takeover(game_id, ana, ben)
    assert (await bot.ai.vote_takeover(game_id, cleo, ben)).done
    # then Ben and Ana go away, both with the AI
    for user, length in ((ben, {"days": 1, "hours": 6}), (ana, {"hours": 5})):
        await fake_discord.slash(
            table.user(user),
            fake_discord.channel,
            "montana",
            "me",
            "away",
            options={**length, "ai": True},
        )
    await bot.ai.idle()
    assert (await table.row(game_id)).taken_over == tuple(sorted((ana, ben)))
    assert await bot.store.away_seats(ben) == {}, "the vote handed Ben's seat over, not his away"
    assert await bot.store.away_seats(ana) == {game_id: False}
    # Ana takes this game back while away; neither a start-up nor a sweep takes it again
    taken = await fake_discord.slash(table.user(ana), thread, "montana", "me", "reclaim")
    assert "takes their seat back" in taken.text
    await bot.service.presence.stand_in_everyone()
    await bot.ai.sweep()
    await bot.ai.idle()
    assert (await table.row(game_id)).taken_over == (ben,)
    assert await bot.store.away_seats(ana) == {game_id: True}
    # both away times end: nothing is given back — Ben's seat stays with the AI (the
    # vote), Ana's is hers already
    driver = await driver_at(bot, datetime.now(UTC) + timedelta(hours=31))
    await driver.run_due()
    assert await bot.store.aways() == {}
    assert (await table.row(game_id)).taken_over == (ben,)
    assert await bot.store.away_seats(ana) == {} and await bot.store.away_seats(ben) == {}
    # (each replaces, by an edit, the line about the same player within the hour)
    said = [m.content for m in fake_discord.messages_in(thread)]
    names = row.names
    assert words.back_line(names[ana]) in said and words.back_line(names[ben]) in said
    # away again, without the AI: his seat is still the vote's, and that is what is said
    await fake_discord.slash(
        table.user(ben), fake_discord.channel, "montana", "me", "away", options={"hours": 2}
    )
    status = await fake_discord.slash(table.user(ana), thread, "montana", "status")
    until = await away_until(bot, ben)
    assert words.away_line(names[ben], stamp(until), ai=True) in status.content


async def test_a_game_started_while_away_with_the_ai_is_played_by_it_from_the_start(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=5)
    await fake_discord.start(bot)
    channel = fake_discord.channel
    ana, ben = fake_discord.add_user("ana"), fake_discord.add_user("ben")
    alone = await fake_discord.slash(ana, channel, "montana", "me", "away", options={"ai": True})
    assert alone.ephemeral and "Say how long" in alone.content  # no away to change
    went = await fake_discord.slash(
        ana, channel, "montana", "me", "away", options={"hours": 6, "ai": True}
    )
    assert "the AI plays for you in every game that starts meanwhile" in went.content
    # a longer away, said without `ai:`, keeps the AI playing for her
    await fake_discord.slash(ana, channel, "montana", "me", "away", options={"hours": 8})
    asked = await fake_discord.slash(ana, channel, "montana", "me", "away")
    assert "the AI plays for you" in asked.content
    lobby = (await fake_discord.slash(ben, channel, "montana", "game", "new")).original
    assert lobby is not None
    await fake_discord.press(ana, lobby, label="Join")
    await fake_discord.press(ben, lobby, label="Start")
    row = await bot.store.open_game_in(channel.id)
    assert row is not None and row.taken_over == (str(ana.id),)
    table = Table(fake_discord, bot, {str(ana.id): ana, str(ben.id): ben})
    thread = fake_discord.channel_by_id(row.play_channel_id)
    await bot.ai.idle()
    await to_main_decision(table, row.id)
    await play_others(table, row.id, str(ana.id), until_moves_of_away=3)
    assert pinging(fake_discord.messages_in(thread), str(ana.id)) == []


async def test_the_ai_stands_in_after_a_restart_and_leaves_when_the_away_stops_asking(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread, _ = await three_players(fake_discord, db)
    row, game = await table.game(game_id)
    away = game.awaiting
    assert away is not None
    # as if the bot died right after saving Ana's away, before the AI took her seat
    since = datetime.now(UTC)
    await table.bot.store.set_away(Away(away, since, since + timedelta(days=3), AWAY_AI), [])
    assert (await table.row(game_id)).taken_over == ()
    await fake_discord.stop(table.bot)
    table.bot = make_bot(db, seed=2)
    await fake_discord.start(table.bot)
    bot = table.bot
    await bot.ai.idle()
    assert (await table.row(game_id)).taken_over == (away,)
    assert await moves_of(bot, game_id, away, row.version - 1), "the AI moved for her"
    # the same away without the AI: the end stays, the seat is hers again
    until = await away_until(bot, away)
    changed = await fake_discord.slash(
        table.user(away), thread, "montana", "me", "away", options={"ai": False}
    )
    assert "your deadlines are paused in your 1 game under way" in changed.content
    assert await away_until(bot, away) == until
    assert (await table.row(game_id)).taken_over == ()
    assert await bot.store.away_seats(away) == {}
    # another bot process (another shard) hands her seat over when the game waits for
    # her: this one hears of it by its sweep
    row, game = await play_until(table, game_id, lambda game: game.awaiting == away)
    await bot.store.set_away(Away(away, since, until, AWAY_AI), [])
    assert await bot.store.hand_away_seats(away, [row], [])
    await bot.ai.idle()
    assert (await table.row(game_id)).version == row.version, "nobody told this process"
    assert await bot.ai.sweep() == 1
    await bot.ai.idle()
    assert (await table.row(game_id)).version > row.version
    assert await moves_of(bot, game_id, away, row.version)


async def test_an_ai_move_decided_before_back_is_not_saved_after_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The AI's decision takes a moment: a return (or a reclaim) saved meanwhile wins,
    and the player makes their own move."""
    table, game_id, thread, _ = await three_players(fake_discord, tmp_path / "m.sqlite3")
    bot = table.bot
    _, game = await table.game(game_id)
    away = game.awaiting
    assert away is not None
    await bot.ai.stop()  # its move is made below, step by step
    await fake_discord.slash(
        table.user(away), thread, "montana", "me", "away", options={"days": 1, "ai": True}
    )
    row = await table.row(game_id)
    assert row.taken_over == (away,)
    deciding = bot.ai.decide
    decided: list[Action] = []

    async def decide_while_she_comes_back(
        row: GameRow, player: str, *, hint: bool = False
    ) -> ai.Decision:
        decision = await deciding(row, player, hint=hint)
        assert await bot.service.presence.come_back(player) is not None
        decided.append(decision.action)
        return decision

    bot.ai.decide = decide_while_she_comes_back  # type: ignore[method-assign]
    assert await bot.ai.play_once(game_id), "its move was out of date: it looks again"
    assert decided and (await table.row(game_id)).version == row.version
    assert not await bot.ai.play_once(game_id), "the seat is hers again"
    assert (await table.row(game_id)).taken_over == ()
    assert await table.tap_move(game_id, decided[0]) is not None
    assert (await table.row(game_id)).version > row.version
