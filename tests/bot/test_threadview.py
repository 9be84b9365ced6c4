"""The view of a fake Discord thread (issue 39.5): a short game's whole thread as Discord
lays it out, in HTML and in headless Chromium's screenshots at a desktop and a phone
width; and a Components V2 card drawn with its parts."""

from __future__ import annotations

import base64
import html
import random
import re
from pathlib import Path

import pytest
from PIL import Image

from render import icon_set
from rules.simulate import choose_action
from tests.bot import threadview
from tests.bot.driver import Table, make_bot, open_game
from tests.bot.fakediscord import COMPONENTS_V2, FakeDiscord, World


async def test_a_short_game_viewed_as_a_whole_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    rng = random.Random(5)
    for _ in range(4):
        _, game = await table.game(game_id)
        _, action = choose_action(game, rng)
        await table.tap_move(game_id, action) or await table.type_move(
            thread, str(game.awaiting), action
        )
    shown = threadview.shown_messages(fake_discord.world, thread)
    assert len(shown) >= 3
    page = threadview.thread_html(fake_discord.world, thread)
    for message in shown:
        assert f'id="m{message.id}"' in page
        first_line = message.content.split("\n")[0]
        # the words as the page writes them (mentions become names)
        words = re.sub(r"<@!?\d+>|\*\*", "", first_line)[:30].strip()
        assert words.split(" ")[0] in page, words
    assert page.count('class="msg"') == len(shown)
    # the prompt's buttons, with the uploaded icons as images
    prompt = table.prompt_message(await table.row(game_id))
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    for label in prompt.button_labels():
        assert label in text, label
    assert 'class="emoji"' in page
    assert page.count("data:image/png;base64,") >= len(shown)

    if threadview.chromium() is None:
        pytest.skip("chromium is missing (Debian's package: chromium)")
    for width in (threadview.DESKTOP, threadview.PHONE):
        path = threadview.screenshot(page, tmp_path / f"thread-{width}.png", width=width)
        with Image.open(path) as picture:
            assert picture.width == width
            # every message with its picture is there: a picture is over 150 px high
            assert 150 * len(shown) < picture.height < threadview.MAX_HEIGHT
            # not cut short: the page ends in the background under the last message
            bottom = picture.convert("RGB").crop((0, picture.height - 4, width, picture.height))
            assert [colour for _, colour in bottom.getcolors() or []] == [threadview.BACKGROUND]


def test_a_components_v2_card_is_drawn_with_its_parts(tmp_path: Path) -> None:
    world = World()
    channel = world.text_channels[0]
    png = icon_set.png("cow")
    image = "data:image/png;base64," + base64.b64encode(png).decode()
    _, emoji = world.handle(
        "POST",
        f"/applications/{world.application_id}/emojis",
        {},
        {"name": "mt_cow", "image": image},
        [],
    )
    ana = world.add_user("ana")
    card = {
        "type": 17,
        "accent_color": 0x2864D7,
        "components": [
            {"type": 10, "content": f"## <@{ana.id}> must **build** <:mt_cow:{emoji['id']}>"},
            {
                "type": 9,
                "components": [{"type": 10, "content": "-# the last turn's words"}],
                "accessory": {"type": 11, "media": {"url": "attachment://montana.png"}},
            },
            {"type": 14, "divider": True, "spacing": 1},
            {"type": 12, "items": [{"media": {"url": "attachment://montana.png"}}]},
            {
                "type": 1,
                "components": [
                    {
                        "type": 2,
                        "style": 1,
                        "label": "Trade a cow…",
                        "custom_id": "x",
                        "emoji": {"id": emoji["id"], "name": "mt_cow"},
                    },
                    {"type": 2, "style": 4, "label": "Pass", "custom_id": "y", "disabled": True},
                ],
            },
        ],
    }
    status, _ = world.handle(
        "POST",
        f"/channels/{channel.id}/messages",
        {},
        {
            "flags": COMPONENTS_V2,
            "components": [card],
            "attachments": [{"id": 0, "filename": "montana.png"}],
        },
        [("montana.png", png)],
    )
    assert status == 200, world.errors
    page = threadview.thread_html(world, channel)
    assert 'class="card"><div class="bar" style="background:#2864d7"' in page
    assert "<h2>" in page and "<strong>build</strong>" in page
    assert '<span class="mention">@Ana</span>' in page
    assert page.count('class="emoji"') == 2  # in the words and on the button
    assert '<div class="sub">' in page and '<hr class="sep">' in page
    assert 'class="section"' in page and 'class="gallery"' in page
    assert 'class="button primary"' in page and 'class="button danger disabled"' in page
    embedded = base64.b64encode(png).decode()
    assert page.count(embedded) == 4  # two emojis, the thumbnail and the gallery
    if threadview.chromium() is None:
        pytest.skip("chromium is missing (Debian's package: chromium)")
    path = threadview.screenshot(page, Path(tmp_path) / "card.png", width=threadview.PHONE)
    with Image.open(path) as picture:
        colours = {colour for _, colour in picture.convert("RGB").getcolors(1 << 20) or []}
    assert (0x28, 0x64, 0xD7) in colours, "the accent bar in the awaited player's colour"
