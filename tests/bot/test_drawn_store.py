"""The pictures kept per game version (issue 37.3, `store.drawn`), on SQLite and on
PostgreSQL alike: kept and replaced by key, bounded with the games that are over and the
least used evicted first, forgotten with a player, and written by the web process's
read-only store (this table only)."""

from __future__ import annotations

import pytest

from bot.core.store import FINISHED, DrawnKey, Seat, Store, StoreError, open_store
from rules import Game

ANA = Seat("111", "Ana")
BEN = Seat("222", "Ben")
KIB = 1024


async def started(store: Store, channel: int, seats: tuple[Seat, ...] = (ANA, BEN)) -> int:
    row = await store.create_lobby(
        guild_id=1 << 22, channel_id=channel, thread_id=None, creator=seats[0]
    )
    await store.set_players(row.id, list(seats), expected=[seats[0]])
    game = Game.new([seat.user_id for seat in seats], seed=4)
    await store.start(row.id, list(seats), game.to_dict(), game.log)
    return row.id


def png(size: int, mark: int = 0) -> bytes:
    return bytes([mark % 256]) * size


async def test_a_picture_is_kept_by_game_epoch_version_and_language(store: Store) -> None:
    game_id = await started(store, 10)
    key = DrawnKey(game_id, 0, 5, "en")
    assert await store.drawn_picture(key) is None
    evicted = await store.keep_drawn(key, png(3 * KIB, 1), "posted", bound=1 << 20)
    assert evicted == 0
    kept = await store.drawn_picture(key)
    assert kept is not None and kept.png == png(3 * KIB, 1) and kept.inputs == "posted"
    for other in (
        DrawnKey(game_id, 1, 5, "en"),  # after an undo, version 5 is another state
        DrawnKey(game_id, 0, 6, "en"),
        DrawnKey(game_id, 0, 5, "fr"),
    ):
        assert await store.drawn_picture(other) is None, other
    # drawn again from other inputs (the notes changed): the one picture of the key
    await store.keep_drawn(key, png(2 * KIB, 2), "notes changed", bound=1 << 20)
    kept = await store.drawn_picture(key)
    assert kept is not None and kept.png == png(2 * KIB, 2) and kept.inputs == "notes changed"
    assert await store.drawn_totals() == (1, 2 * KIB)
    await store.touch_drawn(key)
    touched = await store.drawn_picture(key)
    assert touched is not None and touched.used_at >= kept.used_at


async def test_the_bound_evicts_games_over_first_then_the_least_used(store: Store) -> None:
    under_way = await started(store, 10)
    over = await started(store, 11)
    assert await store.set_status(over, FINISHED, only_from=("active",))
    bound = 10 * KIB
    for version in range(4):  # 8 KiB of the game under way, the oldest first
        await store.keep_drawn(DrawnKey(under_way, 0, version, "en"), png(2 * KIB), "", bound=bound)
    await store.keep_drawn(DrawnKey(over, 0, 1, "en"), png(2 * KIB), "", bound=bound)
    assert await store.drawn_totals() == (5, 10 * KIB), "at the bound, nothing goes"
    # one more: over the bound, down to 90 % of it: the game over's picture first, then
    # the least recently used of the game under way
    evicted = await store.keep_drawn(DrawnKey(under_way, 0, 4, "en"), png(2 * KIB), "", bound=bound)
    assert evicted == 4 * KIB
    count, total = await store.drawn_totals()
    assert total <= bound and count == 4
    assert await store.drawn_picture(DrawnKey(over, 0, 1, "en")) is None
    assert await store.drawn_picture(DrawnKey(under_way, 0, 0, "en")) is None
    for version in (1, 2, 3, 4):
        assert await store.drawn_picture(DrawnKey(under_way, 0, version, "en")) is not None
    # a picture used lately stays: version 1 is touched, version 2 goes next
    await store.touch_drawn(DrawnKey(under_way, 0, 1, "en"))
    await store.keep_drawn(DrawnKey(under_way, 0, 5, "en"), png(4 * KIB), "", bound=bound)
    assert await store.drawn_picture(DrawnKey(under_way, 0, 1, "en")) is not None
    assert await store.drawn_picture(DrawnKey(under_way, 0, 2, "en")) is None
    assert (await store.drawn_totals())[1] <= bound
    # a picture larger than the bound is kept alone (the one just drawn always stays)
    await store.keep_drawn(DrawnKey(under_way, 0, 9, "en"), png(12 * KIB), "", bound=bound)
    assert await store.drawn_totals() == (1, 12 * KIB)


async def test_forgetting_a_player_drops_the_pictures_of_their_games(store: Store) -> None:
    theirs = await started(store, 10)
    others = await started(store, 11, (Seat("333", "Cy"), Seat("444", "Di")))
    for game_id in (theirs, others):
        await store.keep_drawn(DrawnKey(game_id, 0, 1, "en"), png(KIB), "", bound=1 << 20)
    await store.forget_player(ANA.user_id)
    assert await store.drawn_picture(DrawnKey(theirs, 0, 1, "en")) is None, "it shows their name"
    assert await store.drawn_picture(DrawnKey(others, 0, 1, "en")) is not None


async def test_the_web_process_read_only_store_keeps_pictures_and_writes_nothing_else(
    database: str,
) -> None:
    bot = await open_store(database)
    web = await open_store(database, read_only=True)
    try:
        game_id = await started(bot, 10)
        key = DrawnKey(game_id, 0, 1, "fr")
        await web.keep_drawn(key, png(KIB, 7), "web", bound=1 << 20)
        seen = await bot.drawn_picture(key)
        assert seen is not None and seen.png == png(KIB, 7), "the bot sees what the web drew"
        await web.touch_drawn(key)
        with pytest.raises(StoreError):
            await web.set_pictures(game_id, "on-request")
        row = await bot.get(game_id)
        assert row is not None and row.pictures == "every-move"
    finally:
        await web.close()
        await bot.close()
