"""The page's words kept per game and extended by each move (issue 37.5) are the words
worded from scratch (`bot.web.pages.game_words`), byte for byte: at every version of
played games, in the four languages, and when a page asks for an older version, after
an undo, and once a player of a game that is over is forgotten."""

from __future__ import annotations

import json
import random
from dataclasses import asdict, replace

import pytest

from bot.core.store import FORGOTTEN_NAME, GameRow, Seat
from bot.web.pages import game_words
from bot.web.turn_words import AT_ONCE, KeptWords
from i18n import LANGUAGES, Language, translator
from render.__main__ import PLAYER_IDS
from rules import Game
from rules.simulate import choose_action

NAMES = ("Ana", "Ben", "Cléo", "Dan")


def versions(players: int, seed: int, moves: int) -> list[str]:
    """The game's state as the store saves it (JSON) at each version: after each move
    of a random game, up to `moves` moves or its end."""
    game = Game.new(PLAYER_IDS[:players], seed=seed)
    rng = random.Random(seed)
    saved = [json.dumps(game.to_dict())]
    while not game.is_over and len(saved) <= moves:
        game.apply(*choose_action(game, rng))
        saved.append(json.dumps(game.to_dict()))
    return saved


def row_of(game: Game, version: int, *, epoch: int = 0, status: str = "active") -> GameRow:
    return GameRow(
        id=7,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        creator_id=PLAYER_IDS[0],
        status=status,
        players=tuple(Seat(pid, name) for pid, name in zip(game.player_ids, NAMES, strict=False)),
        state_json=None,
        version=version,
        message_id=None,
        lobby_message_id=None,
        created_at="2030-01-01T00:00:00",
        updated_at="2030-01-01T00:00:00",
        undo_epoch=epoch,
    )


def from_scratch(row: GameRow, game: Game, language: Language) -> str:
    """The words as the page said them before they were kept: the whole record worded,
    every field encoded as `dataclasses.asdict` gives it."""
    return json.dumps(asdict(game_words(row, game, translator(language))), ensure_ascii=False)


async def kept_words(kept: KeptWords, row: GameRow, game: Game, language: Language) -> str:
    return (await kept.words(row, game, language)).to_json()


@pytest.mark.parametrize(("players", "seed", "moves"), [(2, 1, 1000), (3, 2, 90), (4, 3, 70)])
async def test_every_version_in_every_language_says_what_the_whole_record_says(
    players: int, seed: int, moves: int
) -> None:
    kept = KeptWords()
    saved = versions(players, seed, moves)
    assert len(saved) > 60
    for version, state in enumerate(saved, start=1):
        game = Game.from_dict(json.loads(state))
        row = row_of(game, version, status="active" if not game.is_over else "ended")
        for language in LANGUAGES:
            assert await kept_words(kept, row, game, language) == from_scratch(
                row, game, language
            ), f"version {version} in {language}"


async def test_an_older_version_an_undo_and_a_forgotten_player_worded_as_from_scratch() -> None:
    kept = KeptWords()
    saved = versions(2, 4, 1000)
    games = [Game.from_dict(json.loads(state)) for state in saved]
    for version in range(1, 41):
        await kept_words(kept, row_of(games[version], version), games[version], "en")
    # a page opened late asks for a version behind the kept one
    for version in (40, 39, 12, 1):
        row = row_of(games[version], version)
        for language in LANGUAGES:
            said = await kept_words(kept, row, games[version], language)
            assert said == from_scratch(row, games[version], language)
    # taken back to version 30, then played on along the same line in the new epoch
    for version in range(30, 45):
        row = row_of(games[version], version, epoch=1)
        for language in ("en", "ja"):
            said = await kept_words(kept, row, games[version], language)
            assert said == from_scratch(row, games[version], language)
    # a game over whose player asked to be forgotten: renamed without a new version
    over = games[-1]
    assert over.is_over
    row = row_of(over, len(games), status="ended")
    for language in LANGUAGES:
        await kept_words(kept, row, over, language)
    seats = (Seat(row.players[0].user_id, FORGOTTEN_NAME), *row.players[1:])
    forgotten = replace(row, players=seats)
    for language in LANGUAGES:
        said = await kept_words(kept, forgotten, over, language)
        assert said == from_scratch(forgotten, over, language)
        assert NAMES[0] not in said


async def test_a_move_words_only_its_own_entries_and_a_far_jump_is_folded_afresh() -> None:
    kept = KeptWords()
    saved = versions(3, 6, 200)
    games = [Game.from_dict(json.loads(state)) for state in saved]
    await kept.words(row_of(games[0], 1), games[0], "fr")
    # the next version, from the kept fold: no thread, no replay from the start
    assert kept.at_once(row_of(games[1], 2), games[1], "fr") is not None
    # a version far ahead is more than a move's work: folded from scratch elsewhere
    far = next(n for n, game in enumerate(games) if len(game.log) > len(games[1].log) + AT_ONCE)
    assert kept.at_once(row_of(games[far], far + 1), games[far], "fr") is None
    row = row_of(games[far], far + 1)
    assert await kept_words(kept, row, games[far], "fr") == from_scratch(row, games[far], "fr")
    # the fold kept by then takes the next move at once again
    nxt = row_of(games[far + 1], far + 2)
    said = kept.at_once(nxt, games[far + 1], "fr")
    assert said is not None and said.to_json() == from_scratch(nxt, games[far + 1], "fr")


async def test_the_folds_kept_are_bounded_the_least_recent_game_going_first() -> None:
    kept = KeptWords(size=2)
    games = [Game.from_dict(json.loads(versions(2, seed, 0)[0])) for seed in (1, 2, 3)]
    rows = [replace(row_of(game, 1), id=n) for n, game in enumerate(games)]
    for row, game in zip(rows, games, strict=True):
        await kept.words(row, game, "en")
    assert kept.at_once(rows[0], games[0], "en") is None, "the first game's fold went"
    assert kept.at_once(rows[2], games[2], "en") is not None
