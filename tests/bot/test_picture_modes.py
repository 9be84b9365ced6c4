"""A game's `pictures` setting (issue 25.3), through real discord.py and the fake Discord:
each mode posts what it says, counted by the pictures the bot draws over a few turns;
the 🖼 Board button of `on request` shows the picture to the presser alone; a wrong
value is refused in words and changes nothing."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path

from bot.core.delivery.picture_modes import ends_turn, wants_picture
from bot.core.delivery.pictures import BlankRenderer
from bot.core.store import PICTURES_END_OF_TURN, PICTURES_EVERY_MOVE, PICTURES_ON_REQUEST
from rules import Action, Game
from rules.simulate import choose_action
from tests.bot.driver import (
    Table,
    give_pumpkins,
    make_bot,
    open_game,
    original,
    to_main_decision,
)
from tests.bot.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionResult,
)
from tests.bot.test_e2e_auction import grid_button


class CountingRenderer(BlankRenderer):
    """Counts the pictures of the game it is asked to draw."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn = 0

    def game_picture(
        self,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        self.drawn += 1
        return self.png


async def opened(
    fake: FakeDiscord, tmp_path: Path, pictures: str | None
) -> tuple[Table, CountingRenderer, int, FakeChannel]:
    """Ana opens a game (`/montana game new pictures:` unless None), Ben joins, Ana starts."""
    renderer = CountingRenderer()
    bot = make_bot(tmp_path / "m.sqlite3", renderer=renderer, seed=3)
    await fake.start(bot)
    table = Table(fake, bot)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    table.users.update({str(ana.id): ana, str(ben.id): ben})
    options = {"pictures": pictures} if pictures is not None else {}
    created = await fake.slash(ana, fake.channel, "montana", "game", "new", options=options)
    lobby = original(created)
    await fake.press(ben, lobby, label="Join")
    await fake.press(ana, lobby, label="Start")
    row = await bot.store.open_game_in(fake.channel.id)
    assert row is not None
    return table, renderer, row.id, fake.channel_by_id(row.play_channel_id)


async def play(table: Table, game_id: int, moves: int) -> int:
    """`moves` legal moves, tapped (or typed); how many of them ended a turn."""
    turns_ended = 0
    for _ in range(moves):
        row, game = await table.game(game_id)
        assert not game.is_over
        before = game.turn_player
        _, action = choose_action(game, random.Random(len(game.log)))
        channel = table.fake.channel_by_id(row.play_channel_id)
        await table.tap_move(game_id, action) or await table.type_move(
            channel, str(game.awaiting), action
        )
        _, after = await table.game(game_id)
        assert after.version > game.version, f"{action} was not accepted"
        turns_ended += after.turn_player != before or after.is_over
    return turns_ended


async def tampered_slash(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, pictures: str
) -> InteractionResult:
    """`/montana game settings pictures:` with a value outside the choices, as only a
    tampered client sends it (Discord's own client offers the choices alone)."""
    data = fake.world.command_data(
        channel,
        ("montana", "game", "settings"),
        {"pictures": PICTURES_EVERY_MOVE},
        fallback=fake._tree_commands(),
        user=user,
    )
    settings = data["options"][0]["options"][0]
    settings["options"] = [{"name": "pictures", "type": 3, "value": pictures}]
    record = fake.world.new_interaction(2, user, channel, data)
    return await fake._run(record, None, True, None)


async def prompt(table: Table, game_id: int) -> FakeMessage:
    return table.prompt_message(await table.row(game_id))


def test_the_decision_is_pure() -> None:
    assert wants_picture(PICTURES_EVERY_MOVE, turn_ended=False)
    assert not wants_picture(PICTURES_END_OF_TURN, turn_ended=False)
    assert wants_picture(PICTURES_END_OF_TURN, turn_ended=True)
    assert not wants_picture(PICTURES_ON_REQUEST, turn_ended=True)
    game = Game.new(["a", "b"], seed=1)
    assert ends_turn(game, None)  # the start
    assert not ends_turn(game, game.turn_player)
    other = next(p for p in game.player_ids if p != game.turn_player)
    assert ends_turn(game, other)


async def test_every_move_draws_a_picture_for_each_move(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, renderer, game_id, _ = await opened(fake_discord, tmp_path, None)
    assert (await table.row(game_id)).pictures == PICTURES_EVERY_MOVE
    await play(table, game_id, 12)
    assert renderer.drawn == 1 + 12  # the start and every move
    assert (await prompt(table, game_id)).files


async def test_end_of_turn_draws_once_a_turn_and_words_inside_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, renderer, game_id, _ = await opened(fake_discord, tmp_path, PICTURES_END_OF_TURN)
    assert renderer.drawn == 1  # the start
    moves = 24
    turns_ended = await play(table, game_id, moves)
    assert 0 < turns_ended < moves, "the moves must span several turns, with steps inside"
    assert renderer.drawn == 1 + turns_ended
    # the words are whole: whom the game awaits is said on the prompt
    row, game = await table.game(game_id)
    shown = table.prompt_message(row)
    assert game.awaiting is not None and f"<@{game.awaiting}>" in shown.content
    assert any("custom_id" in c for c in shown.interactive_components())


async def test_on_request_draws_nothing_until_the_board_button_is_pressed(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, renderer, game_id, _ = await opened(fake_discord, tmp_path, PICTURES_ON_REQUEST)
    await play(table, game_id, 8)
    assert renderer.drawn == 0
    message = await prompt(table, game_id)
    assert not message.files
    assert any(c.startswith("pb:") for c in message.custom_ids())
    row, game = await table.game(game_id)
    assert game.awaiting is not None and f"<@{game.awaiting}>" in message.content
    cleo = fake_discord.add_user("cleo")  # a spectator may look too
    shown = await fake_discord.press(cleo, message, label="Board")
    answer = original(shown)
    assert answer.ephemeral and answer.files and f"#{game_id}" in answer.content
    assert renderer.drawn == 1
    # the public message is as it was: still no picture, the same buttons
    assert not message.files and any(c.startswith("pb:") for c in message.custom_ids())
    assert (await table.row(game_id)).version == row.version


async def test_the_setting_is_changed_in_game_and_a_wrong_value_is_refused(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, renderer, game_id, thread = await opened(fake_discord, tmp_path, None)
    ana = next(iter(table.users.values()))
    refused = await tampered_slash(fake_discord, ana, thread, "sometimes")
    assert refused.ephemeral
    assert "“sometimes” is not a pictures setting" in refused.content
    assert (
        "choose “every move”, “end of turn: words inside a turn”, or “on request: a Board "
        "button” in" in refused.content
    )
    assert (await table.row(game_id)).pictures == PICTURES_EVERY_MOVE
    changed = await fake_discord.slash(
        ana, thread, "montana", "game", "settings", options={"pictures": PICTURES_ON_REQUEST}
    )
    said = original(changed)
    assert not said.ephemeral and "a picture on request" in said.content
    assert (await table.row(game_id)).pictures == PICTURES_ON_REQUEST
    drawn = renderer.drawn
    await play(table, game_id, 3)
    assert renderer.drawn == drawn
    shown = await fake_discord.slash(ana, thread, "montana", "game", "settings")
    assert "Pictures: a picture on request" in shown.content


async def test_on_request_keeps_the_auction_grid_and_its_board_button_survives_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db_path = tmp_path / "m.sqlite3"
    renderer = CountingRenderer()
    table = Table(fake_discord, make_bot(db_path, renderer=renderer, seed=2))
    await fake_discord.start(table.bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    opener = table.user((await table.row(game_id)).creator_id)
    await fake_discord.slash(
        opener, thread, "montana", "game", "settings", options={"pictures": PICTURES_ON_REQUEST}
    )
    await to_main_decision(table, game_id)
    give_pumpkins(db_path, game_id, 3)
    drawn = renderer.drawn
    assert await table.tap_move(game_id, Action("city", ("1", "1"))) is not None
    row, game = await table.game(game_id)
    assert game.auction is not None and game.awaiting is not None
    auction = table.prompt_message(row)
    assert grid_button(auction, 1, 2) and not auction.files and renderer.drawn == drawn
    # a new process: the old message's Board button still answers, to the presser alone
    await fake_discord.stop(table.bot)
    renderer = CountingRenderer()
    table.bot = make_bot(db_path, renderer=renderer, seed=99)
    await fake_discord.start(table.bot)
    shown = await fake_discord.press(table.user(game.awaiting), auction, label="Board")
    answer = original(shown)
    assert answer.ephemeral and answer.files and renderer.drawn == 1
    assert (await table.row(game_id)).version == row.version
