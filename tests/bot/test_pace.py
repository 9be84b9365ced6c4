"""Issue 25.4: a game's pace, a preset of its two deadlines, chosen and shown."""

from __future__ import annotations

from pathlib import Path

from bot.core.clock.pace import PACES, hours_for, pace_label, pace_of
from i18n import translator
from tests.bot.driver import Table, make_bot, open_game
from tests.bot.fakediscord import FakeDiscord

HOUR = 3600


def test_presets_and_exact_hours() -> None:
    assert hours_for("fast", None, None) == (2, 1)
    assert hours_for("slow", 48, None) == (48, 24), "exact hours win over the preset's"
    assert hours_for(None, None, 6) == (None, 6)
    assert pace_of(24 * HOUR, 12 * HOUR) is PACES["normal"]
    assert pace_of(24 * HOUR, 11 * HOUR) is None
    assert pace_label(72 * HOUR, 24 * HOUR, translator("fr")) == "lent"
    assert pace_label(30 * HOUR, 5 * HOUR, translator("en")) == "30 hours / 5 hours"


async def test_new_game_with_a_pace_sets_and_shows_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    created = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "game", "new", options={"pace": "fast"}
    )
    assert created.original is not None
    assert (
        "Pace: fast (turn deadline 2 hours, city auction answers 1 hour)."
        in created.original.content
    )
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None
    deadlines = await bot.deadlines.db.deadlines(row.id)
    assert (deadlines.turn_seconds, deadlines.auction_seconds) == (2 * HOUR, HOUR)
    # the creator changes the pace: the hours follow, and the name says it
    changed = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "game", "settings", options={"pace": "slow"}
    )
    assert "slow (turn deadline 72 hours, city auction answers 24 hours)" in changed.content
    deadlines = await bot.deadlines.db.deadlines(row.id)
    assert (deadlines.turn_seconds, deadlines.auction_seconds) == (72 * HOUR, 24 * HOUR)


async def test_exact_hours_beside_a_pace_show_as_hours(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    created = await fake_discord.slash(
        ana,
        fake_discord.channel,
        "montana",
        "game",
        "new",
        options={"pace": "slow", "turn_hours": 48},
    )
    assert created.original is not None
    text = created.original.content
    assert "Pace: turn deadline 48 hours, city auction answers 24 hours." in text
    assert "slow" not in text


async def test_status_and_history_show_the_pace(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", seed=3)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    ana = next(iter(table.users.values()))
    await fake_discord.slash(ana, thread, "montana", "game", "settings", options={"pace": "normal"})
    status = await fake_discord.slash(ana, thread, "montana", "status")
    assert status.ephemeral
    assert "Pace: normal (turn deadline 24 hours, city auction answers 12 hours)." in status.content
    ana.locale = "fr"
    in_french = await fake_discord.slash(ana, thread, "montana", "status")
    ana.locale = "en-US"
    assert "normal" in in_french.content and "Rythme" in in_french.content
    await fake_discord.slash(ana, thread, "montana", "game", "abandon")
    history = await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "history")
    assert f"#{game_id} · " in history.content and " · normal · abandoned" in history.content
