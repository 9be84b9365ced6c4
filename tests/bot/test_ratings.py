"""Ratings and statistics written at a game's end (issue 22), on SQLite and PostgreSQL:
the library's own amounts, a shared place, once only, the policy of docs/players.md
("Ratings, leaderboard and statistics") and the rating of past games."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta

import pytest
from openskill.models import PlackettLuce

from bot.core.community import ratings, stats
from bot.core.community.ratings import AI_MOVE_NOTE, SUMMARY, shown
from bot.core.store import ENDED, FINISHED, Away, Seat, Store, open_store
from i18n import translator
from rules import Game
from rules.simulate import choose_action
from rules.state import Result, Standing

GUILD = 1_234_567_890_123_456_789
START = datetime.now(UTC).replace(microsecond=0)
ANA, BEN, CAT, DAN = (
    Seat(i, n) for i, n in (("11", "Ana"), ("22", "Ben"), ("33", "Cat"), ("44", "Dan"))
)
AI_1, AI_2 = Seat("ai:1", "AI 1"), Seat("ai:2", "AI 2")


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    store = await open_store(database)
    yield store
    await store.close()


def stamp(minutes: float, origin: datetime = START) -> str:
    return (origin + timedelta(minutes=minutes)).isoformat(timespec="seconds")


async def play_to_the_end(
    store: Store,
    seats: Sequence[Seat],
    *,
    seed: int = 3,
    guild: int | None = GUILD,
    channel: int = 10,
    rate: bool = True,
    minutes_per_move: float = 1.0,
    start_minute: float = 0.0,
    result: Result | None = None,
) -> tuple[int, Game]:
    """A game of `seats` started and played to its end with random moves, each saved as
    a move `minutes_per_move` after the one before; its last move rated (`rate`). With
    `result`, the final ranking is that one (a tie the random game would rarely reach)."""
    row = await store.create_lobby(
        guild_id=guild, channel_id=channel, thread_id=None, creator=seats[0]
    )
    await store.set_players(row.id, seats, expected=[seats[0]])
    game = Game.new([s.user_id for s in seats], seed=seed)
    await store.start(row.id, seats, game.to_dict(), game.log)
    origin = datetime.now(UTC).replace(microsecond=0)
    rng = random.Random(seed)
    minute = start_minute
    while True:
        before = game.version
        game.apply(*choose_action(game, rng))
        minute += minutes_per_move
        last = game.is_over
        at_end = None
        if last and result is not None:
            game.result = lambda: result  # type: ignore[method-assign]
        if last and rate:
            saved = await store.get(row.id)
            assert saved is not None
            at_end = ratings.end_hook(saved, game, ended_at=stamp(minute, origin))
        await store.commit_move(
            row.id,
            before,
            game.to_dict(),
            game.version,
            game.log[before:],
            finished=last,
            at=stamp(minute, origin),
            # as the service notes them: steps the engine took for their player
            notes={index + 1: "forced" for index in game.auto if index >= before},
            at_end=at_end,
        )
        if last:
            return row.id, game


def library(ranks: Sequence[int], before: Sequence[tuple[float, float] | None] = ()) -> list[int]:
    """The shown ratings after one game, computed by a direct call of the library."""
    model = PlackettLuce()
    teams = []
    for index in range(len(ranks)):
        known = before[index] if index < len(before) else None
        teams.append([model.rating() if known is None else model.rating(*known)])
    rated = model.rate(teams, ranks=list(ranks))
    return [shown(team[0].mu, team[0].sigma) for team in rated]


async def test_a_four_player_game_moves_ratings_by_the_librarys_amounts(store: Store) -> None:
    game_id, game = await play_to_the_end(store, [ANA, BEN, CAT, DAN])
    standings = game.result().ranking
    results = {r.seat: r for r in await store.game_results(game_id)}
    expected = library([s.place for s in standings])
    for standing, after in zip(standings, expected, strict=True):
        row = results[standing.player]
        assert (row.place, row.rating_before, row.rating_after) == (standing.place, 1000, after)
        rating = await store.rating_of(GUILD, standing.player)
        assert rating is not None and rating.rating == after and rating.games == 1
        assert rating.wins == int(standing.place == 1)
    # the right direction: the winner gains most, the last gains least
    afters = [results[s.player].rating_after or 0 for s in standings]
    assert afters == sorted(afters, reverse=True) and afters[0] > afters[-1]
    # a second game goes on from the first game's ratings (μ and σ, not the shown number)
    known = {}
    for seat in (DAN, ANA):
        rating = await store.rating_of(GUILD, seat.user_id)
        assert rating is not None
        known[seat.user_id] = (rating.mu, rating.sigma)
    second_id, second = await play_to_the_end(store, [DAN, ANA], seed=5, start_minute=900)
    ranking = second.result().ranking
    before = [known[s.player] for s in ranking]
    expected_second = library([s.place for s in ranking], before)
    now_rated = {r.seat: r.rating_after for r in await store.game_results(second_id)}
    assert [now_rated[s.player] for s in ranking] == expected_second


async def test_a_complete_tie_shares_the_place(store: Store) -> None:
    tie = Result(
        finished=True,
        ranking=[
            Standing(ANA.user_id, 1, 7, 2, 10),
            Standing(BEN.user_id, 1, 7, 2, 10),
            Standing(CAT.user_id, 3, 5, 1, 8),
        ],
    )
    game_id, _ = await play_to_the_end(store, [ANA, BEN, CAT], result=tie)
    results = {r.seat: r for r in await store.game_results(game_id)}
    assert [results[p].place for p in ("11", "22", "33")] == [1, 1, 3]
    ana, ben, cat = library([1, 1, 3])
    assert results["11"].rating_after == results["22"].rating_after == ana == ben
    assert results["33"].rating_after == cat < ana
    # both count it as a win
    for player in ("11", "22"):
        rating = await store.rating_of(GUILD, player)
        assert rating is not None and rating.wins == 1


async def test_a_game_is_rated_once_whatever_asks_again(store: Store) -> None:
    game_id, game = await play_to_the_end(store, [ANA, BEN])
    row = await store.get(game_id)
    assert row is not None and row.status == FINISHED
    before = await store.rating_of(GUILD, ANA.user_id)
    # the end written again (a retry after a crash), and the rating of past games
    await store.in_transaction(ratings.end_hook(row, game, ended_at=stamp(10_000)))
    assert await ratings.rate_past_games(store) == 0
    assert await store.rating_of(GUILD, ANA.user_id) == before
    assert len(await store.game_results(game_id)) == 2
    summaries = [o for o in await store.owed(game_id) if o.kind == SUMMARY]
    assert [o.body["where"] for o in summaries] == ["thread"]


async def test_answer_times_and_actions_come_from_the_stored_move_times(store: Store) -> None:
    game_id, game = await play_to_the_end(store, [ANA, BEN], minutes_per_move=2)
    results = {r.seat: r for r in await store.game_results(game_id)}
    ana = results[ANA.user_id]
    # every answer was saved two minutes after the move before it (the first after the
    # setup, saved at the time the test ran, within a few seconds of that)
    assert ana.answers and all(abs(seconds - 120) <= 5 for seconds in ana.answers)
    assert all(abs(seconds - 120) <= 5 for seconds in ana.auction_answers)
    assert sum(ana.actions.values()) > 5 and set(ana.actions) <= set(ratings.MAIN_VERBS)
    assert ana.turns == game.turn_number and ana.game_seconds > 0


async def test_time_away_is_left_out_of_answer_times(store: Store) -> None:
    # Ana was away from minute 10 to minute 70 of the game (it ended before the game did)
    origin = datetime.now(UTC).replace(microsecond=0)
    away = Away(ANA.user_id, origin + timedelta(minutes=10), origin + timedelta(days=1))
    await store.set_away(away, [])
    assert await store.end_away(ANA.user_id, origin + timedelta(minutes=70))
    game_id, _ = await play_to_the_end(store, [ANA, BEN], minutes_per_move=2)
    results = {r.seat: r for r in await store.game_results(game_id)}
    ana = results[ANA.user_id].answers + results[ANA.user_id].auction_answers
    ben = results[BEN.user_id].answers + results[BEN.user_id].auction_answers
    # Ben's answers all took their two minutes; Ana's that overlapped her away took less
    assert all(abs(seconds - 120) <= 5 for seconds in ben)
    assert min(ana) < 60 and sum(1 for seconds in ana if abs(seconds - 120) <= 5) > 10
    # the time left out is no more than the away itself
    assert sum(120 - seconds for seconds in ana if seconds < 115) <= 60 * 60


async def test_the_ais_moves_for_a_person_are_counted_apart(store: Store) -> None:
    row = await store.create_lobby(guild_id=GUILD, channel_id=10, thread_id=None, creator=ANA)
    await store.set_players(row.id, [ANA, BEN], expected=[ANA])
    game = Game.new([ANA.user_id, BEN.user_id], seed=3)
    await store.start(row.id, [ANA, BEN], game.to_dict(), game.log)
    rng = random.Random(3)
    minute = 0
    while not game.is_over:
        before = game.version
        player, action = choose_action(game, rng)
        game.apply(player, action)
        minute += 1
        # as the service notes the AI's moves for a person's seat
        noted = {
            version: AI_MOVE_NOTE
            for version, (mover, _) in enumerate(game.log[before:], start=before + 1)
            if mover == BEN.user_id
        }
        saved = await store.get(row.id)
        assert saved is not None
        await store.commit_move(
            row.id,
            before,
            game.to_dict(),
            game.version,
            game.log[before:],
            finished=game.is_over,
            at=stamp(minute),
            notes=noted,
            at_end=ratings.end_hook(saved, game, ended_at=stamp(minute)) if game.is_over else None,
        )
    results = {r.seat: r for r in await store.game_results(row.id)}
    # Ben's seat is rated as his, his answer times leave out what the AI played
    assert results[BEN.user_id].rated and results[BEN.user_id].ai_moves > 10
    assert results[BEN.user_id].answers == () and results[BEN.user_id].actions == {}
    assert (await store.rating_of(GUILD, BEN.user_id)) is not None


async def test_ai_seats_rate_their_level_and_never_appear_among_people(store: Store) -> None:
    game_id, game = await play_to_the_end(store, [ANA, AI_1, AI_2, BEN])
    results = {r.seat: r for r in await store.game_results(game_id)}
    assert results["ai:1"].player == results["ai:2"].player == "ai-level:normal"
    level = await store.rating_of(GUILD, "ai-level:normal")
    assert level is not None and level.name == "AI (normal)" and level.games == 1
    # the level takes the mean of its two seats' results
    model = PlackettLuce()
    ranking = game.result().ranking
    rated = model.rate([[model.rating()] for _ in ranking], ranks=[s.place for s in ranking])
    seats = [s.player for s in ranking]
    ai = [rated[seats.index(seat)][0] for seat in ("ai:1", "ai:2")]
    mu, sigma = (ai[0].mu + ai[1].mu) / 2, (ai[0].sigma + ai[1].sigma) / 2
    assert level.rating == shown(mu, sigma)
    board = await store.leaderboard(GUILD, min_games=0, offset=0, limit=10)
    assert {r.player for r in board} == {ANA.user_id, BEN.user_id}
    assert await store.leaderboard_size(GUILD, min_games=0) == 2
    records = await store.server_records(GUILD)
    assert all(not r.player.startswith("ai") for r in records.values())
    # the summary says an AI seat's rating is its level's
    (owed,) = [o for o in await store.owed(game_id) if o.kind == SUMMARY]
    text = stats.summary_text(owed.body, game_id, translator("en"))
    ai_lines = [line for line in text.splitlines() if "AI 1 —" in line or "AI 2 —" in line]
    assert len(ai_lines) == 2
    assert all(f"rating of AI (normal) {level.rating}?" in line for line in ai_lines)


async def test_a_game_ended_by_vote_places_the_overdue_player_last(store: Store) -> None:
    row = await store.create_lobby(guild_id=GUILD, channel_id=10, thread_id=None, creator=ANA)
    await store.set_players(row.id, [ANA, BEN, CAT], expected=[ANA])
    game = Game.new([s.user_id for s in (ANA, BEN, CAT)], seed=3)
    await store.start(row.id, [ANA, BEN, CAT], game.to_dict(), game.log)
    rng = random.Random(1)
    for _ in range(120):
        before = game.version
        game.apply(*choose_action(game, rng))
        await store.commit_move(row.id, before, game.to_dict(), game.version, game.log[before:])
    saved = await store.get(row.id)
    assert saved is not None
    overdue = game.awaiting
    assert overdue is not None
    hook = ratings.end_hook(saved, game, ended_at=stamp(500), quitter=overdue)
    assert await store.end_game(
        row.id, game.version, {"ranking": [], "awaited": overdue}, at_end=hook
    )
    results = {r.seat: r for r in await store.game_results(row.id)}
    assert results[overdue].place == 3 and results[overdue].quit
    others = [s for s in game.result().ranking if s.player != overdue]
    assert sorted(results[s.player].place for s in others) == sorted(
        1 + sum(1 for o in others if o.place < s.place) for s in others
    )
    assert not any(r.finished for r in results.values())


async def test_an_abandoned_game_changes_no_rating(store: Store) -> None:
    row = await store.create_lobby(guild_id=GUILD, channel_id=10, thread_id=None, creator=ANA)
    await store.set_players(row.id, [ANA, BEN], expected=[ANA])
    game = Game.new([ANA.user_id, BEN.user_id], seed=3)
    await store.start(row.id, [ANA, BEN], game.to_dict(), game.log)
    assert await store.set_status(row.id, "abandoned", only_from=("active",))
    assert await ratings.rate_past_games(store) == 0
    assert await store.rating_of(GUILD, ANA.user_id) is None
    assert await store.game_results(row.id) == []


async def test_past_games_are_rated_once_in_the_order_they_ended(store: Store) -> None:
    # two games finished before ratings existed (no hook), the later one first in id
    late_id, late = await play_to_the_end(store, [ANA, BEN], seed=4, rate=False, channel=11)
    early_id, early = await play_to_the_end(store, [ANA, BEN], seed=5, rate=False, channel=12)
    await store.transaction(
        [
            ("UPDATE games SET updated_at = ? WHERE id = ?", (stamp(2000), late_id)),
            ("UPDATE games SET updated_at = ? WHERE id = ?", (stamp(1000), early_id)),
        ]
    )
    assert await ratings.rate_past_games(store) == 2
    assert await ratings.rate_past_games(store) == 0
    ana = await store.results_of(GUILD, ANA.user_id)
    assert [r.game_id for r in ana] == [early_id, late_id]
    # each rated from the ratings the one before left
    assert ana[1].rating_before == ana[0].rating_after
    first = early.result().ranking
    expected = dict(zip([s.player for s in first], library([s.place for s in first]), strict=True))
    assert ana[0].rating_after == expected[ANA.user_id]
    assert late.is_over


async def test_forget_deletes_statistics_and_the_name_in_finished_games(store: Store) -> None:
    game_id, _ = await play_to_the_end(store, [ANA, BEN])
    await store.set_stats_hidden(ANA.user_id, True)
    assert await store.stats_hidden(ANA.user_id)
    assert await store.forget_player(ANA.user_id) == 1
    assert await store.rating_of(GUILD, ANA.user_id) is None
    assert await store.results_of(GUILD, ANA.user_id) == []
    assert not await store.stats_hidden(ANA.user_id)
    row = await store.get(game_id)
    assert row is not None
    assert [s.name for s in row.players] == ["(a former player)", "Ben"]
    assert [s.user_id for s in row.players] == [ANA.user_id, BEN.user_id]
    # Ben's rating and rows stay; the game is not rated again
    assert await store.rating_of(GUILD, BEN.user_id) is not None
    assert await ratings.rate_past_games(store) == 0


async def test_leaderboard_pages_places_and_the_last_30_days(store: Store) -> None:
    for index, seed in enumerate((3, 4, 5)):
        await play_to_the_end(store, [ANA, BEN, CAT], seed=seed, start_minute=1000 * index)
    board = await store.leaderboard(GUILD, min_games=3, offset=0, limit=2)
    assert len(board) == 2 and board[0].rating >= board[1].rating
    rest = await store.leaderboard(GUILD, min_games=3, offset=2, limit=2)
    assert len(rest) == 1
    for place, rating in enumerate([*board, *rest], start=1):
        assert await store.leaderboard_place(GUILD, rating, 3) == (place, 3)
    await store.set_stats_hidden(board[0].player, True)
    assert await store.leaderboard_size(GUILD, min_games=3) == 2
    since = await store.ratings_since(GUILD, [ANA.user_id], stamp(1500))
    ana = await store.results_of(GUILD, ANA.user_id)
    assert since == {ANA.user_id: ana[2].rating_before}
    assert json.dumps(since)  # plain numbers
    assert ENDED != FINISHED
