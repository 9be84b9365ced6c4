"""The AI's levels in the bot (issue 27.3): the lobby's Add AI buttons seat an AI of
the level chosen, each level plays and is rated as its own pseudo-player, a seat
taken over plays the level the opener chose, and a hint asks the hard level."""

from __future__ import annotations

from pathlib import Path

import ai
from bot.core.community.ratings import rating_player
from bot.core.community.stats import level_text
from bot.core.store import AI_LEVELS, GameRow
from bot.discord_app.client import MontanaBot
from i18n.translator import translator
from tests.bot.driver import make_bot, original
from tests.bot.fakediscord import FakeDiscord


async def lobby_with_ai(
    fake_discord: FakeDiscord, tmp_path: Path, labels: list[str]
) -> tuple[MontanaBot, GameRow]:
    """A lobby opened by ana, who presses the buttons `labels`: the bot, the lobby."""
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    lobby = original(await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new"))
    assert {"Add AI (easy)", "Add AI", "Add AI (hard)"} <= set(lobby.button_labels())
    for label in labels:
        pressed = await fake_discord.press(ana, lobby, label=label)
        assert not pressed.ephemeral, pressed.content
    row = await bot.store.latest_game_in(fake_discord.channel.id)
    assert row is not None
    return bot, row


async def test_the_lobby_seats_an_ai_of_the_level_pressed(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot, row = await lobby_with_ai(
        fake_discord, tmp_path, ["Add AI (hard)", "Add AI (easy)", "Add AI", "Remove AI"]
    )
    lobby = fake_discord.messages_in(fake_discord.channel)[-1]
    assert "AI 1 (hard), AI 2 (easy)" in lobby.content
    ais = [seat for seat in row.players if seat.is_ai]
    assert [(s.user_id, s.name) for s in ais] == [
        ("ai:1:hard", "AI 1 (hard)"),
        ("ai:2:easy", "AI 2 (easy)"),
    ]
    ai_players = bot.ai
    assert [ai_players.policy_for(row, s.user_id, hint=False) for s in ais] == ["hard", "easy"]
    assert [rating_player(row, s) for s in ais] == ["ai-level:hard", "ai-level:easy"]
    # two levels chosen: a seat taken over plays normal; a hint always asks hard
    human = row.humans[0].user_id
    assert ai_players.policy_for(row, human, hint=False) == "normal"
    assert ai_players.policy_for(row, human, hint=True) == "hard"


async def test_a_seat_taken_over_plays_the_one_level_the_opener_chose(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot, row = await lobby_with_ai(fake_discord, tmp_path, ["Add AI (easy)", "Add AI (easy)"])
    assert [seat.user_id for seat in row.players if seat.is_ai] == ["ai:1:easy", "ai:2:easy"]
    assert bot.ai.policy_for(row, row.humans[0].user_id, hint=False) == "easy"


async def test_the_plain_add_ai_seats_the_normal_level(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot, row = await lobby_with_ai(fake_discord, tmp_path, ["Add AI"])
    assert [(s.user_id, s.name) for s in row.players if s.is_ai] == [("ai:1", "AI 1")]
    assert bot.ai.policy_for(row, "ai:1", hint=False) == "normal"
    assert bot.ai.policy_for(row, row.humans[0].user_id, hint=False) == "normal"


def test_each_level_is_named_as_a_rated_player_in_every_language() -> None:
    """`/montana stats` names a level's pseudo-player "AI (hard)", in the reader's words."""
    assert AI_LEVELS == ai.LEVEL_NAMES  # the bot offers exactly the levels ai/ has
    assert [level_text(level, translator("en")) for level in AI_LEVELS] == [
        "AI (easy)",
        "AI (normal)",
        "AI (hard)",
    ]
    assert level_text("hard", translator("fr")) == "IA (difficile)"
    for language in ("fr", "pl", "ja"):
        names = {level_text(level, translator(language)) for level in AI_LEVELS}
        assert len(names) == 3 and not names & {"AI (easy)", "AI (hard)"}, names
