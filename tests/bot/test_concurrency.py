"""Twenty games in twenty channels, driven at once through real discord.py.

Every game is played by its own players at the same time as the others (a few
hundred interactions in all), and now and then the awaited player presses the same
button twice at the same instant. Afterwards: every interaction was answered exactly
once, every accepted move is in its game's log exactly once and nothing else is,
each game's saved state is what replaying its own log gives, and every picture and
message went to its own game's thread.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, PngImagePlugin

from bot.core.store import GameRow
from rules import Action, Game
from rules.simulate import choose_action
from tests.bot.driver import Table, codes_on, make_bot, path_to
from tests.bot.fakediscord import (
    DEFERRED_UPDATE,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionResult,
)

GAMES = 20
MOVES_PER_GAME = 12
DOUBLE_PRESS_EVERY = 3
"""Every third move of a game is pressed twice at once."""


class LabelledRenderer:
    """A tiny PNG that says which game (players) and which state version it shows."""

    def game_picture(
        self,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        return _png({"players": ",".join(game.player_ids), "version": str(game.version)})

    def board_picture(
        self, game: Game, player_id: str, *, names: Mapping[str, str], language: str = "en"
    ) -> bytes:
        return _png({"players": ",".join(game.player_ids), "board": player_id})


def _png(text: Mapping[str, str]) -> bytes:
    info = PngImagePlugin.PngInfo()
    for key, value in text.items():
        info.add_text(key, value)
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 180, 120)).save(buffer, format="PNG", pnginfo=info)
    return buffer.getvalue()


def png_text(data: bytes) -> dict[str, str]:
    with Image.open(io.BytesIO(data)) as image:
        return dict(getattr(image, "text", {}))


@dataclass
class Played:
    """One game of the run and what its players did."""

    channel: FakeChannel
    users: list[FakeUser]
    game_id: int = 0
    thread: FakeChannel | None = None
    accepted: list[tuple[int, str, str]] = field(default_factory=list)
    """(version before, player, notation) of every move the bot confirmed."""
    double_presses: int = 0
    stale_answers: int = 0
    raced: int = 0
    """Double presses where both got past the first check (both deferred): the lock and
    the store's version check had to stop the second."""


async def open_game(fake: FakeDiscord, table: Table, played: Played) -> None:
    first, *others = played.users
    created = await fake.slash(first, played.channel, "montana", "game", "new")
    lobby = created.original
    assert lobby is not None and not lobby.ephemeral, created
    for user in others:
        joined = await fake.press(user, lobby, label="Join")
        assert joined.responded
    await fake.press(first, lobby, label="Start")
    row = await table.bot.store.open_game_in(played.channel.id)
    assert row is not None and row.status == "active"
    played.game_id = row.id
    played.thread = fake.channel_by_id(row.play_channel_id)


async def press_code(
    fake: FakeDiscord, user: FakeUser, message: FakeMessage, code: str
) -> InteractionResult:
    kind, custom_id = codes_on(message)[code]
    if kind == "button":
        return await fake.press(user, message, custom_id)
    return await fake.select(user, message, custom_id, [code])


async def play_moves(fake: FakeDiscord, table: Table, played: Played, seed: int) -> None:
    """The game's players tap through their moves; some final taps are doubled."""
    rng = random.Random(seed)
    for move_number in range(MOVES_PER_GAME):
        row, game = await table.game(played.game_id)
        if game.is_over:
            return
        pid, action = choose_action(game, rng)
        message = table.prompt_message(row)
        path = path_to(game, pid, row.names, list(codes_on(message)), f"a:{action}")
        if path is None:  # a build beyond the 25 cheapest: typed instead
            assert played.thread is not None
            await table.type_move(played.thread, pid, action)
            await confirm(table, played, row, game, pid, action)
            continue
        user = table.user(pid)
        for code in path[:-1]:
            opened = await press_code(fake, user, message, code)
            assert opened.original is not None and opened.original.ephemeral, opened
            message = opened.original
        if move_number % DOUBLE_PRESS_EVERY == DOUBLE_PRESS_EVERY - 1:
            played.double_presses += 1
            results = await asyncio.gather(
                press_code(fake, user, message, path[-1]),
                press_code(fake, user, message, path[-1]),
            )
            stale = [r for r in results if "out of date" in r.text]
            assert len(stale) == 1, f"game {played.game_id}: one of two presses must be stale"
            played.stale_answers += 1
            played.raced += all(r.response_type == DEFERRED_UPDATE for r in results)
        else:
            await press_code(fake, user, message, path[-1])
        await confirm(table, played, row, game, pid, action)


async def confirm(
    table: Table, played: Played, row: GameRow, game: Game, pid: str, action: Action
) -> None:
    """The move applied exactly once: the saved state is the old one plus this one move."""
    expected = game.copy()
    expected.apply(pid, action)
    new_row, _ = await table.game(played.game_id)
    assert new_row.state == expected.to_dict(), (
        f"game {played.game_id}: {pid} {action} at version {row.version} was not applied once "
        f"(saved version {new_row.version}, expected {expected.version})"
    )
    played.accepted.append((row.version, pid, str(action)))


def saved_record(db: Path, game_id: int) -> tuple[dict[str, object], list[tuple[int, str, str]]]:
    import sqlite3

    with sqlite3.connect(db) as connection:
        (state_text,) = connection.execute(
            "SELECT state FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        moves = connection.execute(
            "SELECT version, player, notation FROM moves WHERE game_id = ? ORDER BY version",
            (game_id,),
        ).fetchall()
    state = json.loads(state_text)
    # saved without its move log, which the moves table holds: put back as the store does
    state.setdefault("log", [[str(p), str(n)] for _, p, n in moves])
    return state, [(int(v), str(p), str(n)) for v, p, n in moves]


async def test_twenty_games_at_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite3"
    bot = make_bot(db, LabelledRenderer(), seed=21)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    sam = fake_discord.add_user("sam")  # plays in several games at once
    games: list[Played] = []
    for index in range(GAMES):
        channel = fake_discord.add_channel(f"table-{index}")
        users = [fake_discord.add_user(f"g{index}-{seat}") for seat in "ab"[: 2 + index % 2]]
        if index < 4:
            users.append(sam)
        games.append(Played(channel, users))
        for user in users:
            table.users[str(user.id)] = user
    await asyncio.gather(*(open_game(fake_discord, table, played) for played in games))
    await asyncio.gather(
        *(play_moves(fake_discord, table, played, seed) for seed, played in enumerate(games))
    )

    # every interaction answered exactly once
    interactions = fake_discord.world.interactions.values()
    assert len(interactions) >= 300, len(interactions)
    unanswered = [r.id for r in interactions if r.response_type is None]
    assert not unanswered
    callbacks = Counter(
        r.interaction_id for r in fake_discord.requests("POST /interactions/{id}/{token}/callback")
    )
    assert set(callbacks.values()) == {1} and len(callbacks) == len(interactions)

    assert sum(played.raced for played in games) > 0
    ids = {played.game_id for played in games}
    assert len(ids) == GAMES
    threads = {played.thread.id for played in games if played.thread is not None}
    assert len(threads) == GAMES
    for played in games:
        assert played.thread is not None
        state, log = saved_record(db, played.game_id)
        game = Game.from_dict(state)
        # the log is complete and contiguous, and replays to the saved state
        assert [version for version, _, _ in log] == list(range(1, game.version + 1))
        record = {**game.record(), "actions": [[p, n] for _, p, n in log]}
        assert Game.replay(record).to_dict() == state
        # each confirmed move is in the log once, at the version it was made on
        for version_before, pid, notation in played.accepted:
            assert log[version_before][1:] == (pid, notation), (played.game_id, version_before)
        assert played.stale_answers == played.double_presses > 0
        # every picture sent to the thread (new prompts, and prompts updated in place while
        # the same player decides on) shows this game, in order, up to its last state
        sent = [
            png_text(data)
            for request in fake_discord.requests()
            if request.path.startswith(f"/channels/{played.thread.id}/messages")
            for data in request.files.values()
        ]
        assert {p["players"] for p in sent} == {",".join(game.player_ids)}
        versions = [int(p["version"]) for p in sent]
        assert versions == sorted(versions) and versions[-1] == game.version
        assert len(sent) == 1 + len(played.accepted)
        posted = fake_discord.messages_in(played.thread)
        players = {int(pid) for pid in game.player_ids}
        for message in posted:
            assert set(message.mentioned_ids) <= players, message
            for custom_id in message.custom_ids():
                assert int(custom_id.split(":")[1]) == played.game_id, custom_id
        # the lobby channel holds only the lobby message
        assert len(fake_discord.messages_in(played.channel)) == 1
