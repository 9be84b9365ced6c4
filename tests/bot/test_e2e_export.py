"""`/montana game export` (issue 23 points 3 and 5): the game's record attached as a
text file, through real discord.py and the fake Discord; `rules.record.parse` reads the
file back to the very game the store holds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.console import load_record
from bot.core.clock.deadlines import result_record
from bot.core.store import FINISHED, Seat
from rules import Game
from rules.record import parse, ranking_text
from rules.simulate import choose_action
from tests.bot.driver import game_at_main, make_bot
from tests.bot.fakediscord import FakeChannel, FakeDiscord, InteractionResult
from tests.bot.test_e2e_undo import a_bank_move


def attached(result: InteractionResult) -> tuple[str, str]:
    """The one file of an ephemeral answer: its name and its text."""
    assert result.ephemeral, result
    ((name, data),) = result.files.items()
    return name, data.decode("utf-8")


async def test_a_game_under_way_is_exported_with_its_taken_back_move(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The record holds the game as the store has it (the same state, move for move, each
    with its moment), the server's and players' names, and the move taken back."""
    table, game_id, thread = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    _, game = await table.game(game_id)
    mover = game.awaiting
    assert mover is not None
    move = a_bank_move(game)
    await table.tap_move(game_id, move)
    await fake_discord.slash(table.user(mover), thread, "montana", "undo")
    await table.tap_move(game_id, move)
    row, game = await table.game(game_id)

    exported = await fake_discord.slash(table.user(mover), thread, "montana", "game", "export")
    name, text = attached(exported)
    assert name == f"montana-{game_id}.txt"
    assert f"The record of game #{game_id}." in exported.content
    assert f"console --record montana-{game_id}.txt" in exported.content
    record = parse(text)
    assert record.game.visible_dict() == game.visible_dict()  # all but the secret seed
    assert record.tags["Server"] == "Montana Test"
    seats = {record.tags[f"Seat{n}Id"]: record.tags[f"Seat{n}"] for n in (1, 2)}
    assert seats == {pid: row.names[pid] for pid in game.player_ids}
    assert sorted(seats.values()) == ["Ana", "Ben"]
    assert record.tags["Result"] == "under way" and "Ended" not in record.tags
    assert record.tags["TurnDeadline"] == "48h" and record.tags["Language"] == "en"
    stored = await table.bot.store.moves(game_id)
    assert [m.at for m in record.moves] == [m.at for m in stored]
    assert record.tags["Started"] == stored[0].at
    (undone,) = record.undone
    assert (undone.player, undone.notation, undone.by) == (mover, str(move), mover)
    # the same from the channel the game was opened in
    again = await fake_discord.slash(
        table.user(mover), fake_discord.channel, "montana", "game", "export"
    )
    assert attached(again)[1] == text


def spins_to_come(game: Game, count: int) -> list[str]:
    """The next `count` spins of `game` played on by the random policy (seeded alike
    for every game it is asked of)."""
    rng = random.Random(9)
    start = len(game.log)
    while sum(n.startswith("spin ") for _, n in game.log[start:]) < count:
        game.apply(*choose_action(game, rng))
    return [n for _, n in game.log[start:] if n.startswith("spin ")][:count]


async def test_a_record_under_way_foretells_no_spin(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 35.3: a spectator's export of a game under way has no seed, says that the
    wheel spins afresh from there, and continued offline (the console's `--record`,
    with `--seed 77`) its next spins are not the real game's (RULES.md 5.1: "the arrow
    stops on one of the 8 segments uniformly at random"). The pair is fixed (the bot
    deals from its seed source 3, the console spins from 77), so this is no accident of
    a draw: with the seed in the record the continuation was the real game, spin for
    spin, whatever the pair."""
    table, game_id, thread = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    row, game = await table.game(game_id)
    spectator = fake_discord.add_user("cleo")
    exported = await fake_discord.slash(spectator, thread, "montana", "game", "export")
    _, text = attached(exported)
    header = text.split("\n1. ")[0]
    assert "[Seed " not in header and str(game.seed) not in header
    assert "the wheel spins afresh" in header
    path = tmp_path / f"montana-{game_id}.txt"
    path.write_text(text, encoding="utf-8")
    offline = load_record(path, None, seed=77).game
    assert offline.visible_dict() == game.visible_dict()  # the game as it stands
    real = spins_to_come(game.copy(), 10)
    assert spins_to_come(offline, 10) != real
    # the real game goes on with the spins it would have had: the export changed nothing
    assert spins_to_come((await table.game(game_id))[1], 10) == real
    assert (await table.game(game_id))[0].version == row.version


async def a_past_game(
    fake: FakeDiscord, db: Path, channel: FakeChannel, *, ended_at: int | None = None
) -> tuple[int, Game]:
    """A finished game written by the store alone, as games finished before records
    existed are: seats, state, the move log and a note on a pass; then a new lobby here.
    With `ended_at`: a game ended by a vote after that many log entries instead."""
    bot = make_bot(db)
    await fake.start(bot)
    ana, ben = fake.add_user("ana"), fake.add_user("ben")
    seats = [Seat(str(ana.id), "Ana *the* Great"), Seat(str(ben.id), "Ben")]
    game = Game.new([s.user_id for s in seats], seed=5)
    rng = random.Random(5)
    while not game.is_over and (ended_at is None or len(game.log) < ended_at):
        game.apply(*choose_action(game, rng))
    store = bot.store
    row = await store.create_lobby(
        guild_id=fake.guild_id, channel_id=channel.id, thread_id=None, creator=seats[0]
    )
    await store.set_players(row.id, seats)
    await store.start(row.id, seats, game.to_dict(), game.log, at="2026-01-02T10:00:00+00:00")
    if ended_at is None:
        assert await store.set_status(row.id, FINISHED, only_from=["active"])
    else:
        voters = [seats[0].user_id]
        assert await store.end_game(row.id, game.version, result_record(game, voters))
    chosen_pass = next(i for i, (_, n) in enumerate(game.log) if n == "pass" and i not in game.auto)
    await store.note_move(row.id, chosen_pass + 1, "advance")
    await fake.slash(ana, channel, "montana", "game", "new")  # the next game's lobby
    return row.id, game


async def test_a_game_finished_before_records_is_exported_from_its_stored_log(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Point 5: every past game can be exported. With a lobby open in the channel the
    last game played is exported; by its number too; its result is the ranking."""
    game_id, game = await a_past_game(fake_discord, tmp_path / "m.sqlite3", fake_discord.channel)
    cleo = fake_discord.add_user("cleo")
    for options in ({}, {"game": game_id}):
        exported = await fake_discord.slash(
            cleo, fake_discord.channel, "montana", "game", "export", options=options
        )
        name, text = attached(exported)
        assert name == f"montana-{game_id}.txt"
        record = parse(text)
        assert record.game == game and record.game.is_over
        assert record.tags["Seat1"] == "Ana the Great"  # the name cleaned of markdown
        assert record.tags["Result"] == "finished" and record.tags["Ranking"].startswith("1 ")
        assert record.tags["Started"] == "2026-01-02T10:00:00+00:00" and "Ended" in record.tags
        assert [m.note for m in record.moves].count("advance") == 1


async def test_a_game_ended_by_a_vote_says_so_with_its_standings(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A game stopped early by a vote: its record's result says so, with the standings
    when it ended, and reads back to the game as it stood (not over by the rules)."""
    _, game = await a_past_game(
        fake_discord, tmp_path / "m.sqlite3", fake_discord.channel, ended_at=150
    )
    exported = await fake_discord.slash(
        fake_discord.add_user("cleo"), fake_discord.channel, "montana", "game", "export"
    )
    record = parse(attached(exported)[1])
    assert record.game.visible_dict() == game.visible_dict() and not game.is_over
    assert record.tags["Result"] == "ended by a vote"
    assert record.tags["Ranking"] == ranking_text(game) and "Ended" in record.tags


TEXTS = {
    "en": ("The record of game #", "There is no Montana game here.", "was not played in"),
    "fr": ("Le relevé de la partie n°", "Il n’y a pas de partie de Montana ici.", "n’a pas été"),
    "pl": ("Zapis gry #", "Nie ma tu gry Montana.", "nie była grana na tym kanale"),
    "ja": ("ゲーム #", "ここにはモンタナのゲームがありません。", "遊ばれたゲームではありません"),
}


@pytest.mark.parametrize("language", ["en", "fr", "pl", "ja"])
async def test_export_answers_in_the_askers_language_and_refuses_in_words(
    fake_discord: FakeDiscord, tmp_path: Path, language: str
) -> None:
    """The answer, and the refusals (a channel without a game, a game of another
    channel), in the asker's Discord language; nothing is attached to a refusal."""
    game_id, _ = await a_past_game(fake_discord, tmp_path / "m.sqlite3", fake_discord.channel)
    reader = fake_discord.add_user("dan")
    reader.locale = language
    done, nothing, elsewhere = TEXTS[language]
    exported = await fake_discord.slash(reader, fake_discord.channel, "montana", "game", "export")
    assert exported.content.startswith(done) and exported.files
    empty = fake_discord.add_channel("empty")
    refused = await fake_discord.slash(reader, empty, "montana", "game", "export")
    assert refused.ephemeral and nothing in refused.content and not refused.files
    other = await fake_discord.slash(
        reader, empty, "montana", "game", "export", options={"game": game_id}
    )
    assert other.ephemeral and elsewhere in other.content and not other.files
