"""A season's ratings (issue 40 point 5), on SQLite and PostgreSQL: computed from the
season's rated games from the initial rating while the all-time rating goes on, written
once in the transaction of the game's end, and nothing without a season or a rated game;
a season's name checked before anything is saved."""

from __future__ import annotations

import pytest

from bot.core.community import ratings, seasons
from bot.core.play.service import Refusal
from bot.core.store import SeatResult, Store
from tests.bot.test_ratings import ANA, BEN, CAT, GUILD, library, play_to_the_end, stamp, store

__all__ = ["store"]  # the fixture, on both databases


async def rate_again(store: Store, game_id: int) -> None:
    """What the season's hook writes at a game's end, after its all-time rating
    (`play_to_the_end` writes that one); asked again, as a retry after a crash."""
    row = await store.get(game_id)
    assert row is not None
    await store.in_transaction(seasons.season_hook(row))


async def test_a_season_rates_from_the_initial_rating_while_all_time_goes_on(
    store: Store,
) -> None:
    # before any season: rated all time only, nothing in a season
    first, _ = await play_to_the_end(store, [ANA, BEN, CAT], seed=3)
    await rate_again(store, first)
    assert await store.seasons_of(GUILD) == []
    await seasons.start_season(store, GUILD, "  Spring   2027 ", ANA.user_id)
    (season,) = await store.seasons_of(GUILD)
    assert (season.number, season.name) == (1, "Spring 2027")
    second, game = await play_to_the_end(store, [ANA, BEN, CAT], seed=5, start_minute=900)
    await rate_again(store, second)
    await rate_again(store, second)  # once only, whatever asks again
    ranking = game.result().ranking
    fresh = library([s.place for s in ranking])
    for standing, expected in zip(ranking, fresh, strict=True):
        in_season = await store.season_rating_of(GUILD, 1, standing.player)
        all_time = await store.rating_of(GUILD, standing.player)
        assert in_season is not None and all_time is not None
        assert (in_season.rating, in_season.games) == (expected, 1)
        assert all_time.games == 2
        (row,) = await store.season_results_of(GUILD, 1, standing.player)
        assert (row.game_id, row.rating_before, row.rating_after) == (second, 1000, expected)
        assert row.place == standing.place
    # the all-time rows keep their all-time figures
    all_rows = await store.results_of(GUILD, ANA.user_id)
    assert [r.game_id for r in all_rows] == [first, second]
    since = await store.season_ratings_since(GUILD, 1, [ANA.user_id], stamp(-60))
    assert since == {ANA.user_id: 1000}


async def test_no_season_or_no_rated_game_writes_nothing_in_a_season(store: Store) -> None:
    await seasons.start_season(store, GUILD, "One", ANA.user_id)
    unrated, _ = await play_to_the_end(store, [ANA, BEN], rate=False)
    await rate_again(store, unrated)
    elsewhere, _ = await play_to_the_end(store, [ANA, BEN], guild=None, channel=11)
    await rate_again(store, elsewhere)
    other_server, _ = await play_to_the_end(store, [ANA, BEN], guild=99, channel=12)
    await rate_again(store, other_server)
    assert await store.season_results_of(GUILD, 1, ANA.user_id) == []
    assert await store.season_rating_of(GUILD, 1, ANA.user_id) is None


def test_season_rated_is_the_all_time_rule_from_a_fresh_start() -> None:
    def seat(player: str, place: int) -> SeatResult:
        return SeatResult(
            1, player, player, player.upper(), place, 2, 5, False, True, 0, True, 0, 0,
            (), (), {}, 10, 60, "2026-01-01", "2026-01-02",
        )  # fmt: skip

    seats, after = seasons.season_rated([seat("a", 1), seat("b", 2)], {}, "2026-01-02")
    assert [s.rating_before for s in seats] == [1000, 1000]
    assert [s.rating_after for s in seats] == library([1, 2])
    assert [(p.games, p.wins, p.streak) for p in after] == [(1, 1, 1), (1, 0, 0)]
    assert ratings.provisional(after[0])


@pytest.mark.parametrize("bad", ["", "   ", "x" * 41, "two\nlines"])
def test_a_bad_season_name_is_refused_with_what_is_allowed(bad: str) -> None:
    with pytest.raises(Refusal) as refused:
        seasons.season_name(bad)
    assert "1 to 40 characters on one line" in refused.value.message
    assert "Nothing was changed" in refused.value.message
