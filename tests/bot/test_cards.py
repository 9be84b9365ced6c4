"""The game's messages as cards (issue 39, points 1, 3 and 4), through real discord.py and
the fake Discord, which refuses what Discord refuses of a Components V2 message.

A whole game in each language and each pictures mode posts only cards (the lobby, every
move, the results, the summary): in the awaited player's colour, the picture inside with
its alt text in the game's language, the buttons under the words; and every request the
bot made is valid under Discord's official OpenAPI spec (`fakediscord.spec`).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.core.delivery.pictures import SampledRenderer
from bot.core.store import PICTURES_END_OF_TURN, PICTURES_EVERY_MOVE, PICTURES_ON_REQUEST
from bot.discord_app.delivery.announce import PICTURE_ALT
from i18n import translator
from render.palette import PLAYER_RGB, seat_colour
from rules import Game
from rules.simulate import choose_action
from tests.bot.driver import Table, make_bot
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage
from tests.bot.fakediscord.spec import checked_routes, spec_problems

LANGUAGES = ("en", "fr", "pl", "ja")
MODES = (PICTURES_EVERY_MOVE, PICTURES_END_OF_TURN, PICTURES_ON_REQUEST)
GALLERY, CONTAINER, ROW, TEXT = 12, 17, 1, 10


def colour_of(game: Game, player_id: str) -> int:
    red, green, blue = PLAYER_RGB[seat_colour(game.seat_of(player_id))]
    return (red << 16) | (green << 8) | blue


def galleries(message: FakeMessage) -> list[dict[str, object]]:
    return [
        item
        for component in message.walk_components()
        if component.get("type") == GALLERY
        for item in component.get("items") or []
    ]


def public_posts(fake: FakeDiscord, *places: FakeChannel) -> list[FakeMessage]:
    bot_id = str(fake.bot_user.id)
    return [
        m
        for place in places
        for m in fake.messages_in(place)
        if not m.ephemeral and m.payload["author"]["id"] == bot_id
    ]


async def open_game(
    fake: FakeDiscord, table: Table, language: str, pictures: str
) -> tuple[int, FakeChannel]:
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    for user in (ana, ben):
        table.users[str(user.id)] = user
    options = {"language": language, "pictures": pictures}
    created = await fake.slash(ana, fake.channel, "montana", "game", "new", options=options)
    lobby = created.original
    assert lobby is not None and lobby.card and lobby.custom_ids()
    await fake.press(ben, lobby, custom_id=lobby.custom_ids()[0])  # Join, in any language
    start = [c for c in lobby.custom_ids() if c.endswith(":start")]
    await fake.press(ana, lobby, custom_id=start[0])
    row = await table.bot.store.open_game_in(fake.channel.id)
    assert row is not None and row.language == language and row.pictures == pictures
    return row.id, fake.channel_by_id(row.play_channel_id)


@pytest.mark.parametrize("pictures", MODES)
@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_whole_game_posts_only_cards_valid_under_discords_spec(
    fake_discord: FakeDiscord, tmp_path: Path, language: str, pictures: str
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3", SampledRenderer(), seed=4)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread = await open_game(fake_discord, table, language, pictures)
    t = translator(language)
    rng = random.Random(7)
    prompts_seen = pictures_seen = 0
    while True:
        row, game = await table.game(game_id)
        if game.is_over:
            break
        pid, action = choose_action(game, rng)
        await table.type_move(thread, pid, action)
        row, game = await table.game(game_id)
        if game.is_over or game.awaiting is None:
            continue
        prompt = table.prompt_message(row)
        (container,) = prompt.components
        # the prompt: one card in the awaited player's colour, the buttons inside it
        assert container["type"] == CONTAINER
        assert container["accent_color"] == colour_of(game, game.awaiting)
        assert prompt.custom_ids() and not prompt.content.startswith("…")
        assert any(c["type"] == ROW for c in container["components"])
        if game.awaiting in row.names and not row.ai_plays(game.awaiting):
            assert f"<@{game.awaiting}>" in prompt.content
        prompts_seen += 1
        for item in galleries(prompt):
            # the picture is the message's own attachment, described in the game's language
            media = item["media"]
            assert isinstance(media, dict) and media["url"] == "attachment://montana.png"
            assert "montana.png" in prompt.files
            alt = str(item["description"])
            assert alt.startswith(t.translate(PICTURE_ALT, version=0).split("0")[0])
            pictures_seen += 1
    posts = public_posts(fake_discord, fake_discord.channel, thread)
    plain = [m for m in posts if not m.card]
    assert not plain, f"plain messages: {[m.content[:60] for m in plain]}"
    assert all(m.raw_content == "" or m.payload["content"] == "" for m in posts)
    *_, final, summary = fake_discord.messages_in(thread)
    assert (
        final.card
        and summary.card
        and final.files == ({} if pictures == PICTURES_ON_REQUEST else final.files)
    )
    assert prompts_seen > 20
    if pictures == PICTURES_ON_REQUEST:
        assert pictures_seen == 0 and "montana.png" not in final.files
    else:
        assert pictures_seen > 0
    # every request of the routes the spec covers is valid under it
    checked = [r for r in fake_discord.requests() if r.route in checked_routes()]
    assert len(checked) > prompts_seen
    assert spec_problems(fake_discord.requests()) == []
