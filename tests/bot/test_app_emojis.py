"""The game's icons as application emojis (issue 39.2): uploaded once, replaced when an
icon changes, shown on the buttons and select options, and Unicode when Discord refused
them — the game goes on either way."""

from __future__ import annotations

import base64
import io
import random
from pathlib import Path

import pytest
from PIL import Image

from bot.core.wording import icons as tokens
from bot.discord_app import emojis
from render import icon_set
from render.palette import seat_colour
from rules.simulate import choose_action
from tests.bot.driver import Table, make_bot, open_game
from tests.bot.fakediscord import FakeDiscord, FakeMessage, Json

EMOJIS = "/applications/{id}/emojis"


def emoji_requests(fake: FakeDiscord, method: str) -> list[str]:
    return [r.route for r in fake.world.recorded if r.method == method and "/emojis" in r.path]


def button_emojis(message: FakeMessage) -> list[Json]:
    found = []
    for component in message.interactive_components():
        if isinstance(component.get("emoji"), dict):
            found.append(component["emoji"])
        found += [o["emoji"] for o in component.get("options") or [] if "emoji" in o]
    return found


async def test_first_start_uploads_every_icon_and_a_second_start_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    owned = fake_discord.world.app_emojis
    assert sorted(e["name"] for e in owned.values()) == sorted(
        emojis.emoji_name(icon) for icon in icon_set.ICONS
    )
    for emoji_id, image in fake_discord.world.app_emoji_images.items():
        picture = Image.open(io.BytesIO(image))
        assert picture.format == "PNG" and picture.size == (128, 128), owned[emoji_id]
    assert len(emoji_requests(fake_discord, "POST")) == len(icon_set.ICONS)
    # the buttons under a game's prompt show the uploaded icons
    table = Table(fake_discord, bot)
    game_id, _, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    prompt = table.prompt_message(await table.row(game_id))
    shown = button_emojis(prompt)
    assert shown and all(owned[int(e["id"])]["name"] == e["name"] for e in shown)
    # and its words: the line saying who must act starts with their settlement's emoji,
    # the colour their seat has in the picture
    _, game = await table.game(game_id)
    colour = seat_colour(game.seat_of(str(game.awaiting)))
    house = next(e for e in owned.values() if e["name"] == emojis.emoji_name(f"house_{colour}"))
    assert f"<:{house['name']}:{house['id']}> <@{game.awaiting}>" in prompt.content
    cow = next(e for e in owned.values() if e["name"] == emojis.emoji_name("cow"))
    # words say the icon as Discord writes a custom emoji
    assert emojis.installed().in_words(f"3 {tokens.token('cow')}") == (
        f"3 <:{cow['name']}:{cow['id']}>"
    )

    await fake_discord.stop(bot)
    before = len(fake_discord.world.recorded)
    again = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(again)
    after = [r for r in fake_discord.world.recorded[before:] if "/emojis" in r.path]
    assert [r.method for r in after] == ["GET"], "a second start only reads the emojis"
    assert emojis.installed().uploaded["cow"].id == int(cow["id"])


async def test_a_changed_icon_replaces_only_its_emoji(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an emoji of the operator's own, which the bot must leave alone
    fake_discord.world.handle(
        "POST",
        f"/applications/{fake_discord.world.application_id}/emojis",
        {},
        {
            "name": "party",
            "image": "data:image/png;base64," + base64.b64encode(icon_set.png("coin")).decode(),
        },
        [],
    )
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ids = {e["name"]: emoji_id for emoji_id, e in fake_discord.world.app_emojis.items()}
    old_grain = emojis.emoji_name("grain")
    await fake_discord.stop(bot)

    drawn = icon_set.png

    def redrawn(name: str, size: int = icon_set.EMOJI_SIZE) -> bytes:
        return drawn("pumpkin", size) if name == "grain" else drawn(name, size)

    monkeypatch.setattr(icon_set, "png", redrawn)
    before = len(fake_discord.world.recorded)
    await fake_discord.start(make_bot(tmp_path / "m.sqlite3"))
    made = [r for r in fake_discord.world.recorded[before:] if "/emojis" in r.path]
    assert [r.method for r in made] == ["GET", "DELETE", "POST"]
    assert made[1].path.endswith(f"/emojis/{ids[old_grain]}")
    assert made[2].json["name"] == emojis.emoji_name("grain") != old_grain
    now = {e["name"]: emoji_id for emoji_id, e in fake_discord.world.app_emojis.items()}
    assert old_grain not in now and "party" in now
    assert {n: i for n, i in now.items() if n != emojis.emoji_name("grain")} == {
        n: i for n, i in ids.items() if n != old_grain
    }


async def test_failed_uploads_fall_back_to_unicode_and_the_game_goes_on(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake_discord.inject("POST " + EMOJIS, 400, code=50035, times=len(icon_set.ICONS))
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    assert not fake_discord.world.app_emojis
    assert emojis.installed().text("cow") == "🐄"
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    prompt = table.prompt_message(await table.row(game_id))
    shown = button_emojis(prompt)
    assert shown and all(e.get("id") is None and e["name"] for e in shown)
    unicode = {icon.unicode for icon in icon_set.ICONS.values()}
    assert {e["name"] for e in shown} <= unicode
    _, game = await table.game(game_id)
    square = icon_set.ICONS[f"house_{seat_colour(game.seat_of(str(game.awaiting)))}"].unicode
    assert f"{square} <@{game.awaiting}>" in prompt.content, "the Unicode square instead"
    rng = random.Random(2)
    for _ in range(6):
        row, game = await table.game(game_id)
        _, action = choose_action(game, rng)
        await table.tap_move(game_id, action) or await table.type_move(
            thread, str(game.awaiting), action
        )
        assert (await table.row(game_id)).version > row.version


async def test_reading_the_emojis_failed_means_unicode_everywhere(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake_discord.inject("GET " + EMOJIS, 403, code=50001)
    await fake_discord.start(make_bot(tmp_path / "m.sqlite3"))
    assert emojis.installed().uploaded == {}
    assert not emoji_requests(fake_discord, "POST")
    assert emojis.installed().partial("grain").name == "🌾"


def test_the_fake_refuses_what_discord_refuses() -> None:
    from tests.bot.fakediscord import World

    world = World()
    path = f"/applications/{world.application_id}/emojis"
    png = "data:image/png;base64," + base64.b64encode(icon_set.png("cow")).decode()

    def post(name: str, image: str = png) -> tuple[int, Json]:
        return world.handle("POST", path, {}, {"name": name, "image": image}, [])

    assert post("a")[0] == 400  # too short
    assert post("has-dash")[0] == 400
    assert post("x" * 33)[0] == 400
    big = "data:image/png;base64," + base64.b64encode(b"\0" * (256 * 1024 + 1)).decode()
    assert post("big", big)[0] == 400
    assert post("cow")[0] == 201
    assert post("cow")[0] == 400  # the name is taken
    assert not world.app_emojis.keys() - {int(e["id"]) for e in world.app_emojis.values()}
    for n in range(1999):
        world.app_emojis[n] = {"id": str(n), "name": f"e{n}"}
    assert post("one_too_many")[1]["code"] == 30008
    world.errors.clear()
    # a component may only show an emoji the application owns
    channel = world.text_channels[0]
    button = {"type": 2, "style": 2, "label": "x", "custom_id": "c"}
    for emoji, status in (({"id": "1", "name": "e1"}, 200), ({"id": "99999999", "name": "n"}, 400)):
        body = {"components": [{"type": 1, "components": [{**button, "emoji": emoji}]}]}
        answer = world.handle("POST", f"/channels/{channel.id}/messages", {}, body, [])
        assert answer[0] == status, answer
    with pytest.raises(KeyError):
        tokens.token("dragon")


def test_every_emoji_name_fits_discord_and_words_keep_unicode_elsewhere() -> None:
    for icon in icon_set.ICONS:
        assert emojis.NAME.fullmatch(emojis.emoji_name(icon)), icon
        assert len(icon_set.png(icon)) < 256 * 1024
    text = f"{tokens.token('grain')} 2 · {tokens.token('worker_copper')}"
    assert tokens.plain(text) == "🌾 2 · 🟤"
    assert emojis.AppEmojis().in_words(text) == "🌾 2 · 🟤"


def test_the_console_shows_the_icons_as_unicode() -> None:
    from bot.console.prompt import Console
    from bot.console.text import plain
    from bot.core.play.prompts import Choice

    line = Console.menu_line(3, Choice("p:trade", "Trade a cow…", icon="cow"))
    assert line.startswith("   3. 🐄 Trade a cow…")
    assert plain(f"**2** {tokens.token('pumpkin')}") == "2 🎃"


async def test_an_upload_made_but_answered_with_an_error_is_found_again(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    # Discord made the first emoji, but its answer was an error (a proxy's, a race with
    # another process of the bot): the list read again shows it
    fake_discord.inject("POST " + EMOJIS, 400, code=50035, performed=True)
    await fake_discord.start(make_bot(tmp_path / "m.sqlite3"))
    names = [e["name"] for e in fake_discord.world.app_emojis.values()]
    assert sorted(names) == sorted(emojis.emoji_name(icon) for icon in icon_set.ICONS)
    assert set(emojis.installed().uploaded) == set(icon_set.ICONS)
    assert [r.method for r in fake_discord.world.recorded if "/emojis" in r.path].count("GET") == 2


async def test_never_more_than_discords_2000_emojis(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    room = 5
    for n in range(emojis.MAX_EMOJIS - room):  # the operator's own emojis
        fake_discord.world.app_emojis[n + 1] = {"id": str(n + 1), "name": f"own_{n}"}
    await fake_discord.start(make_bot(tmp_path / "m.sqlite3"))
    assert len(fake_discord.world.app_emojis) == emojis.MAX_EMOJIS
    assert len(emoji_requests(fake_discord, "POST")) == room
    assert len(emojis.installed().uploaded) == room
    left = set(icon_set.ICONS) - set(emojis.installed().uploaded)
    assert {emojis.installed().text(icon) for icon in left} <= {
        icon.unicode for icon in icon_set.ICONS.values()
    }


def test_the_choices_name_the_icons_the_picture_shows() -> None:
    from bot.core.play import prompts
    from tests.bot.games import at_first_main_decision

    game, pid = at_first_main_decision(["1", "2"], seed=3)
    work = prompts.sub_panel(game, pid, "p:work", {})
    options = work.menus[0].options
    assert {o.icon for o in options if o.code.startswith("p:bank")} == {"coin"}
    harvests = [o for o in options if o.code.startswith("p:harv")]
    assert harvests and all(o.icon in ("copper", "stone", "grain", "pumpkin") for o in harvests)
    city = prompts.sub_panel(game, pid, "p:city", {})
    grid = [b for b in city.buttons if b.code.startswith("a:city")]
    assert len(grid) == 16 and {b.icon for b in grid} == {"pumpkin"}
    assert all("🎃" not in b.label for b in grid), "the icon is the button's emoji, not a word"
    builds = prompts.build_options(game, pid)
    assert builds and {b.icon for b in builds} == {icon_set.house(prompts.player_colour(game, pid))}
    for choice in [*options, *grid, *builds]:
        assert choice.icon in icon_set.ICONS
