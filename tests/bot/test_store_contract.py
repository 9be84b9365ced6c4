"""The store contract beyond `test_store.py`, on SQLite and on PostgreSQL alike: every
store method the bot uses, the same answers from both databases (issue 16.1, 16.3)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.core.runtime.errors import StartupError
from bot.core.store import (
    ABANDONED,
    ABSENT_AI_SEAT,
    ABSENT_WAIT,
    ACTIVE,
    AWAY_AI,
    DM,
    ENDED,
    FINISHED,
    LOBBY,
    MIGRATIONS,
    NOTICE,
    PICTURES_END_OF_TURN,
    PICTURES_EVERY_MOVE,
    PICTURES_ON_REQUEST,
    POST,
    SCHEMA_VERSION,
    Away,
    GameRow,
    Native,
    OwedMessage,
    PlayerRating,
    Seat,
    Shards,
    StaleVersion,
    Store,
    is_postgres,
    open_store,
)
from rules import Game

ANA = Seat("111", "Ana")
BEN = Seat("222", "Ben")
BIG_GUILD = 1_234_567_890_123_456_789
"""A real-sized snowflake (beyond 32 bits)."""


async def started(
    store: Store, channel: int = 10, guild: int | None = BIG_GUILD, seed: int = 4
) -> tuple[int, Game]:
    row = await store.create_lobby(guild_id=guild, channel_id=channel, thread_id=None, creator=ANA)
    await store.set_players(row.id, [ANA, BEN], expected=[ANA])
    game = Game.new([ANA.user_id, BEN.user_id], seed=seed)
    await store.start(row.id, [ANA, BEN], game.to_dict(), game.log)
    return row.id, game


async def play_one(
    store: Store,
    game_id: int,
    game: Game,
    *,
    owed: Sequence[OwedMessage] = (),
    expected_epoch: int | None = None,
    notes: Mapping[int, str] | None = None,
) -> None:
    before = game.version
    player = game.awaiting
    assert player is not None
    game.apply(player, game.legal_actions(player)[0])
    await store.commit_move(
        game_id,
        before,
        game.to_dict(),
        game.version,
        game.log[before:],
        owed=owed,
        expected_epoch=expected_epoch,
        notes=notes,
    )


async def test_snowflakes_and_lobby_fields_round_trip(store: Store) -> None:
    row = await store.create_lobby(
        guild_id=BIG_GUILD, channel_id=BIG_GUILD + 1, thread_id=None, creator=ANA
    )
    await store.set_lobby_message(row.id, BIG_GUILD + 2)
    await store.set_thread(row.id, BIG_GUILD + 3)
    with pytest.raises(StaleVersion):  # the lobby does not seat Ben yet
        await store.set_players(row.id, [ANA], expected=[ANA, BEN])
    got = await store.get(row.id)
    assert got is not None
    assert (got.guild_id, got.channel_id, got.lobby_message_id, got.thread_id) == (
        BIG_GUILD,
        BIG_GUILD + 1,
        BIG_GUILD + 2,
        BIG_GUILD + 3,
    )
    assert await store.open_game_in(BIG_GUILD + 3) == got
    assert await store.latest_game_in(BIG_GUILD + 1) == got
    assert await store.get(row.id + 1000) is None
    # the opener leaves: the seats and the opener change together (issue 21.5)
    await store.set_players(row.id, [ANA, BEN], expected=[ANA])
    await store.set_players(row.id, [BEN], expected=[ANA, BEN], creator=BEN.user_id)
    moved = await store.get(row.id)
    assert moved is not None and (moved.creator_id, moved.players) == (BEN.user_id, (BEN,))
    await store.set_players(row.id, [BEN, ANA], expected=[BEN])
    moved = await store.get(row.id)
    assert moved is not None and moved.creator_id == BEN.user_id


async def test_a_move_saves_state_log_notes_and_owed_messages_at_once(store: Store) -> None:
    game_id, game = await started(store)
    before = game.version
    owed = [OwedMessage(POST, before + 1, {"text": "moved"}), OwedMessage(DM, before + 1, {})]
    await play_one(store, game_id, game, owed=owed, expected_epoch=0, notes={before + 1: "forced"})
    row = await store.get(game_id)
    assert row is not None and row.version == game.version > before
    assert await store.move_count(game_id) == game.version
    assert [m.notation for m in await store.moves(game_id)] == [n for _, n in game.log]
    assert await store.move_time(game_id, game.version) is not None
    assert await store.move_notes(game_id) == {before + 1: "forced"}
    assert [(o.kind, o.body) for o in await store.owed(game_id)] == [
        (POST, {"text": "moved"}),
        (DM, {}),
    ]
    # a stale epoch is refused like a stale version, and writes nothing
    with pytest.raises(StaleVersion):
        await store.commit_move(
            game_id, game.version, {}, game.version + 1, [("111", "x")], expected_epoch=3
        )
    assert await store.move_count(game_id) == game.version


async def test_an_undo_restores_the_state_in_a_new_epoch_and_drops_what_was_owed(
    store: Store,
) -> None:
    game_id, game = await started(store)
    start_version, start_state = game.version, game.to_dict()
    await play_one(store, game_id, game, owed=[OwedMessage(POST, start_version + 1, {})])
    await play_one(store, game_id, game)
    await store.undo_moves(
        game_id,
        game.version,
        0,
        start_state,
        start_version,
        undone_by=BEN.user_id,
        turn_events={"header": []},
        reminders_sent=1,
    )
    row = await store.get(game_id)
    assert row is not None
    assert (row.version, row.undo_epoch, row.state) == (start_version, 1, start_state)
    assert row.prompt_version is None
    assert await store.move_count(game_id) == start_version
    undone = await store.undone_moves(game_id)
    assert [(u.undo_epoch, u.version, u.undone_by) for u in undone] == [
        (1, version, BEN.user_id) for version in range(start_version + 1, game.version + 1)
    ]
    assert await store.owed(game_id) == []  # the move's post was taken back with it
    (clock,) = await store.clocks(game_id)
    assert (clock.version, clock.sent, clock.undo_epoch) == (start_version, 1, 1)
    # the same undo again finds the game moved on
    with pytest.raises(StaleVersion):
        await store.undo_moves(
            game_id,
            game.version,
            0,
            start_state,
            start_version,
            undone_by=BEN.user_id,
            turn_events={},
            reminders_sent=0,
        )


async def test_the_outbox_delivers_each_message_once(store: Store) -> None:
    game_id, game = await started(store)
    await store.owe(game_id, [OwedMessage(POST, game.version, {"n": 1})])
    await store.owe(game_id, [OwedMessage(NOTICE, game.version, {"n": 2})])
    first, second = await store.owed(game_id)
    assert await store.next_owed_at() is not None
    later = datetime.now(UTC) + timedelta(minutes=5)
    await store.delivery_failed(first.id, later, "503")
    (retry, _) = await store.owed(game_id)
    assert (retry.attempts, retry.last_error) == (1, "503")
    assert abs(retry.next_at - later) < timedelta(milliseconds=2)
    # due now: only games with a message due by then (this one: the notice is due)
    assert {o.id for o in await store.owed(due_by=datetime.now(UTC))} == {first.id, second.id}
    await store.delivered(first, BIG_GUILD, prompt=True, moved_to=10)
    await store.delivered(second, None)
    assert await store.owed(game_id) == []
    assert await store.next_owed_at() is None
    row = await store.get(game_id)
    assert row is not None
    assert (row.message_id, row.prompt_version, row.thread_id) == (BIG_GUILD, game.version, None)


async def test_a_game_whose_newest_state_was_never_shown_is_found(store: Store) -> None:
    game_id, game = await started(store)
    assert await store.games_missing_their_prompt() == [game_id]
    assert await store.set_prompt_message(game_id, game.version, 555)
    assert not await store.set_prompt_message(game_id, game.version - 1, 556)
    assert await store.games_missing_their_prompt() == []
    await play_one(store, game_id, game, owed=[OwedMessage(POST, game.version + 1, {})])
    assert await store.games_missing_their_prompt() == []  # its post is owed
    (owed,) = await store.owed(game_id)
    await store.delivered(owed, None)
    assert await store.games_missing_their_prompt() == [game_id]


async def test_preferences_away_and_restarted_clocks(store: Store) -> None:
    game_id, game = await started(store)
    assert not await store.dm_wanted(ANA.user_id)
    await store.set_dm(ANA.user_id, True)
    await store.set_heads_up(ANA.user_id, True)
    assert await store.dm_wanted(ANA.user_id) and await store.heads_up_wanted(ANA.user_id)
    await store.set_dm(ANA.user_id, False)
    assert not await store.dm_wanted(ANA.user_id) and await store.heads_up_wanted(ANA.user_id)

    since = datetime(2026, 11, 1, tzinfo=UTC)
    away = Away(ANA.user_id, since, since + timedelta(days=3))
    await store.set_away(away, [(game_id, OwedMessage(NOTICE, game.version, {"away": 1}))])
    assert await store.aways() == {ANA.user_id: away}
    assert await store.aways([BEN.user_id]) == {}
    assert [g.id for g in await store.active_games_of(ANA.user_id)] == [game_id]
    assert await store.active_games_of("11") == []  # a part of an id is no player
    back = since + timedelta(days=1)
    assert not await store.end_away(ANA.user_id, back, only_until=since)  # changed since
    assert await store.end_away(
        ANA.user_id, back, only_until=away.until, restarts=[(game_id, game.version)]
    )
    assert await store.aways() == {}
    assert await store.deadline_restarts() == {game_id: (game.version, back)}
    assert len(await store.owed(game_id)) == 1


async def test_deadlines_votes_and_history(store: Store) -> None:
    game_id, game = await started(store)
    assert await store.deadline_seconds(game_id) == (48 * 3600, 24 * 3600)
    await store.set_deadline_seconds(game_id, 3600, 600)
    assert await store.deadline_seconds(game_id) == (3600, 600)
    assert await store.deadline_seconds(game_id + 99) is None
    await store.record_deadline_step(game_id, game.version, 2, "2026-11-23T10:00:00+00:00")
    (clock,) = await store.clocks()
    assert (clock.game_id, clock.guild_id, clock.sent) == (game_id, BIG_GUILD, 2)
    assert (clock.turn_seconds, clock.auction_seconds) == (3600, 600)
    await store.note_move(game_id, game.version, "deadline")
    assert await store.move_notes(game_id) == {game.version: "deadline"}

    assert await store.add_end_vote(game_id, game.version, "222", "2026-11-23T10:00:00") == ["222"]
    assert await store.add_end_vote(game_id, game.version, "111", "2026-11-23T10:01:00") == [
        "222",
        "111",
    ]
    assert await store.end_voters(game_id, game.version) == ["222", "111"]
    assert await store.end_voters(game_id, game.version - 1) == []
    assert not await store.end_game(game_id, game.version - 1, {"ranking": []})
    assert await store.end_game(game_id, game.version, {"ranking": [{"player": "111"}]})
    (past,) = await store.past_games(10, 5)
    assert (past.id, past.status, past.result_json) == (
        game_id,
        ENDED,
        '{"ranking": [{"player": "111"}]}',
    )
    assert await store.clocks() == []


async def test_background_reads_see_only_the_shards_of_the_process(database: str) -> None:
    # guild ids on shard 0 and shard 1 of 2: (guild_id >> 22) % 2
    on_0, on_1 = 4 << 22, 5 << 22
    store = await open_store(database)
    try:
        game_0, _ = await started(store, channel=10, guild=on_0)
        game_1, _ = await started(store, channel=11, guild=on_1)
        await store.owe(game_0, [OwedMessage(POST, 1, {})])
        await store.owe(game_1, [OwedMessage(POST, 1, {})])
        store.shards = Shards(2, (1,))
        assert [c.game_id for c in await store.clocks()] == [game_1]
        assert await store.games_missing_their_prompt() == []  # both owe their post
        assert {o.game_id for o in await store.owed(due_by=datetime.now(UTC))} == {game_1}
        store.shards = Shards(2, (0,))
        assert [c.game_id for c in await store.clocks()] == [game_0]
        # a press (by id) still reads any game
        assert (await store.get(game_1)) is not None
    finally:
        await store.close()


async def test_a_database_of_a_newer_bot_is_refused(database: str) -> None:
    store = await open_store(database)
    assert await store.schema_version() == SCHEMA_VERSION
    await store.transaction([("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))])
    await store.close()
    with pytest.raises(StartupError, match="newer than this bot"):
        await open_store(database)


async def test_reopening_keeps_the_games_and_runs_no_migration_again(database: str) -> None:
    store = await open_store(database)
    game_id, game = await started(store)
    await store.close()
    again = await open_store(database)
    try:
        assert await again.schema_version() == SCHEMA_VERSION
        row = await again.get(game_id)
        assert row is not None and row.status == ACTIVE
        assert Game.from_dict(row.state or {}) == game
    finally:
        await again.close()


async def test_two_stores_on_one_postgres_apply_a_move_once(postgres_url: str) -> None:
    """Two processes' stores race for the same version: the row lock and the version
    check let exactly one of them write."""
    one, two = await open_store(postgres_url), await open_store(postgres_url)
    try:
        game_id, game = await started(one)
        before = game.version
        player = game.awaiting
        assert player is not None
        game.apply(player, game.legal_actions(player)[0])
        lines = game.log[before:]
        results = await asyncio.gather(
            *(
                store.commit_move(game_id, before, game.to_dict(), game.version, lines)
                for store in (one, two, one, two)
            ),
            return_exceptions=True,
        )
        assert sum(r is None for r in results) == 1
        assert all(isinstance(r, StaleVersion) for r in results if r is not None)
        assert await two.move_count(game_id) == game.version
    finally:
        await one.close()
        await two.close()


async def test_two_processes_may_not_serve_the_same_shard(postgres_url: str) -> None:
    first = await open_store(postgres_url, exclusive=True, shards=Shards(2, (0,)))
    try:
        with pytest.raises(StartupError, match=r"shard 0 .* already served"):
            await open_store(postgres_url, exclusive=True, shards=Shards(2, (0, 1)))
        with pytest.raises(StartupError, match="shard count of 2"):
            await open_store(postgres_url, exclusive=True, shards=Shards(3, (2,)))
        other = await open_store(postgres_url, exclusive=True, shards=Shards(2, (1,)))
        await other.close()
    finally:
        await first.close()
    # the locks went with the first store's connection
    again = await open_store(postgres_url, exclusive=True, shards=Shards(2, (0, 1)))
    await again.close()


async def test_sqlite_refuses_shards_left_to_another_process(tmp_path: Path) -> None:
    with pytest.raises(StartupError, match="SQLite file serves one process"):
        await open_store(str(tmp_path / "m.sqlite3"), exclusive=True, shards=Shards(2, (0,)))
    whole = await open_store(str(tmp_path / "m.sqlite3"), exclusive=True, shards=Shards(2, (0, 1)))
    await whole.close()


async def test_a_postgres_server_that_is_not_there_is_a_clear_startup_error() -> None:
    with pytest.raises(StartupError, match="cannot be reached") as refused:
        await open_store("postgresql://bot:secret@127.0.0.1:1/montana")
    assert "secret" not in str(refused.value)


async def test_the_state_is_saved_without_its_log_and_read_back_whole(store: Store) -> None:
    """Issue 16.4: a move writes the state without its move log (the moves table holds
    the log, appended); reading puts it back, so the engine gets its whole state."""
    game_id, game = await started(store)
    for _ in range(3):
        await play_one(store, game_id, game)
    ((stored,),) = await store.query("SELECT state FROM games WHERE id = ?", (game_id,))
    assert '"log"' not in stored and len(stored) < len(json.dumps(game.to_dict()))
    row = await store.get(game_id)
    assert row is not None and Game.from_dict(row.state or {}) == game
    assert (await store.open_game_in(10)) == row
    # a state written whole (by an older bot) is read as it is
    whole = json.dumps(game.to_dict())
    await store.transaction([("UPDATE games SET state = ? WHERE id = ?", (whole, game_id))])
    again = await store.get(game_id)
    assert again is not None and again.state == game.to_dict()


async def test_ai_seats_taken_over_seats_and_their_votes(store: Store) -> None:
    """The AI players' methods (issue 14), on both stores."""
    game_id, _ = await started(store, guild=4 << 22)
    other, _ = await started(store, channel=11, guild=5 << 22)
    row = await store.get(game_id)
    assert row is not None and (row.absent, row.taken_over) == (ABSENT_WAIT, ())
    await store.set_absent(game_id, ABSENT_AI_SEAT)
    with pytest.raises(ValueError, match="absent must be one of"):
        await store.set_absent(game_id, "never")
    assert await store.add_takeover_vote(game_id, BEN.user_id, ANA.user_id, "2026-11-23T1") == [
        ANA.user_id
    ]
    assert await store.add_takeover_vote(game_id, BEN.user_id, ANA.user_id, "2026-11-23T2") == [
        ANA.user_id
    ]  # once per voter
    assert await store.takeover_voters(game_id, BEN.user_id) == [ANA.user_id]
    # a vote from an earlier absence lapses (issue 21.1); one cast since stays
    await store.lapse_takeover_votes(game_id, BEN.user_id, "2026-11-23T1")
    assert await store.takeover_voters(game_id, BEN.user_id) == [ANA.user_id]
    await store.lapse_takeover_votes(game_id, BEN.user_id, "2026-11-23T2")
    assert await store.takeover_voters(game_id, BEN.user_id) == []
    await store.add_takeover_vote(game_id, BEN.user_id, ANA.user_id, "2026-11-23T2")
    assert not await store.set_taken_over(game_id, [BEN.user_id], expected=[ANA.user_id])
    assert await store.set_taken_over(game_id, [BEN.user_id], expected=[])
    row = await store.get(game_id)
    assert row is not None and (row.absent, row.taken_over) == (ABSENT_AI_SEAT, (BEN.user_id,))
    assert row.names[BEN.user_id] == "Ben (AI)" and row.ai_plays(BEN.user_id)
    # the votes about a seat whose hands changed are gone
    assert await store.add_takeover_vote(game_id, BEN.user_id, ANA.user_id, "2026-11-23T3") == [
        ANA.user_id
    ]
    assert await store.active_game_ids() == [game_id, other]
    store.shards = Shards(2, (1,))
    assert await store.active_game_ids() == [other]


async def test_the_seats_an_away_hands_to_the_ai_and_gives_back(store: Store) -> None:
    """Away with the AI (issue 11.5): the seats handed over are recorded, given back at
    the end of the away, and a change meanwhile writes nothing; on both stores."""
    game_id, game = await started(store, guild=4 << 22)
    other, _ = await started(store, channel=11, guild=5 << 22)
    rows = await store.active_games_of(ANA.user_id)
    since = datetime(2026, 11, 1, tzinfo=UTC)
    await store.set_away(Away(ANA.user_id, since, since + timedelta(days=3), AWAY_AI), [])
    assert (await store.aways())[ANA.user_id].ai_plays
    assert await store.hand_away_seats(ANA.user_id, rows, ())
    assert await store.away_seats(ANA.user_id) == {game_id: False, other: False}
    assert await store.users_with_away_seats() == [ANA.user_id]
    assert await store.games_with_seats_taken_over() == [game_id, other]
    store.shards = Shards(2, (1,))
    assert await store.games_with_seats_taken_over() == [other]
    store.shards = None
    # a move of the AI for Ana is saved only while it still plays her seat
    with pytest.raises(StaleVersion):
        await store.commit_move(
            game_id, game.version, {}, game.version + 1, [("111", "x")], expected_taken_over=[]
        )
    assert await store.move_count(game_id) == game.version
    # rows read before the hand-over are stale: nothing is written, in any game
    assert not await store.hand_away_seats(ANA.user_id, (), rows)
    assert [r.taken_over for r in await store.active_games_of(ANA.user_id)] == [
        (ANA.user_id,),
        (ANA.user_id,),
    ]
    # Ana takes one game back (as `/montana me reclaim` does); Ben's seat goes to a vote
    assert await store.set_taken_over(game_id, [], expected=[ANA.user_id])
    assert await store.away_seats(ANA.user_id) == {game_id: True, other: False}
    assert await store.set_taken_over(game_id, [BEN.user_id], expected=[])
    # her away ends: the seat it still holds is hers again, the others' stay as they are
    fresh = await store.active_games_of(ANA.user_id)
    held = [row for row in fresh if row.id == other]
    back = since + timedelta(days=1)
    assert await store.end_away(
        ANA.user_id,
        back,
        restarts=[(game_id, game.version)],
        owed=[(game_id, OwedMessage(NOTICE, game.version, {"back": 1}))],
        give_back=held,
    )
    assert [r.taken_over for r in await store.active_games_of(ANA.user_id)] == [
        (BEN.user_id,),
        (),
    ]
    assert await store.away_seats(ANA.user_id) == {} and await store.aways() == {}
    # a give-back from a stale row ends nothing: still away, nothing written
    await store.set_away(Away(ANA.user_id, since, since + timedelta(days=3), AWAY_AI), [])
    assert not await store.end_away(ANA.user_id, back, give_back=held)
    assert ANA.user_id in await store.aways()
    assert await store.deadline_restarts() == {game_id: (game.version, back)}


async def test_a_games_language_and_each_users_locale(store: Store) -> None:
    """The languages' methods (issue 13), on both stores."""
    row = await store.create_lobby(
        guild_id=1, channel_id=30, thread_id=None, creator=ANA, language="fr"
    )
    assert row.language == "fr"
    await store.set_language(row.id, "ja")
    again = await store.get(row.id)
    assert again is not None and again.language == "ja"
    assert await store.locales([ANA.user_id]) == {}
    await store.remember_locale(ANA.user_id, "pl")
    await store.remember_locale(ANA.user_id, "fr")
    await store.remember_locale(BEN.user_id, "ja")
    assert await store.locales([ANA.user_id, BEN.user_id, "999"]) == {
        ANA.user_id: "fr",
        BEN.user_id: "ja",
    }
    assert await store.locales([]) == {}


async def test_each_players_quiet_hours_set_changed_and_cleared(store: Store) -> None:
    """Issue 25.1: a player's quiet hours and time zone, read for several players at
    once (the deadlines' one read), replaced by the next, cleared; on both stores."""
    assert await store.quiet_hours_of([ANA.user_id]) == {}
    assert await store.quiet_hours_of([]) == {}
    await store.set_quiet_hours(ANA.user_id, "23:00", "08:00", "Europe/Warsaw", "2026-11-25")
    await store.set_quiet_hours(BEN.user_id, "01:00", "09:30", "Asia/Tokyo", "2026-11-25")
    await store.set_quiet_hours(ANA.user_id, "22:30", "07:00", "Europe/Paris", "2026-11-26")
    assert await store.quiet_hours_of([ANA.user_id, BEN.user_id, "999"]) == {
        ANA.user_id: ("22:30", "07:00", "Europe/Paris"),
        BEN.user_id: ("01:00", "09:30", "Asia/Tokyo"),
    }
    assert await store.clear_quiet_hours(ANA.user_id)
    assert not await store.clear_quiet_hours(ANA.user_id)
    assert await store.quiet_hours_of([ANA.user_id]) == {}
    await store.forget_player(BEN.user_id)
    assert await store.quiet_hours_of([BEN.user_id]) == {}


async def test_the_away_lines_said_in_a_game_per_player(store: Store) -> None:
    """Issue 21.2: the last away/back line about a player in a game (its message and
    when it was posted), replaced by the next one posted; on both stores."""
    game_id, _ = await started(store, guild=4 << 22)
    other, _ = await started(store, channel=11, guild=5 << 22)
    assert await store.presence_line(game_id, ANA.user_id) is None
    await store.set_presence_line(game_id, ANA.user_id, BIG_GUILD + 7, "2026-11-25T10:00:00")
    await store.set_presence_line(other, ANA.user_id, 9, "2026-11-25T10:05:00")
    assert await store.presence_line(game_id, ANA.user_id) == (
        BIG_GUILD + 7,
        "2026-11-25T10:00:00",
    )
    assert await store.presence_line(game_id, BEN.user_id) is None
    await store.set_presence_line(game_id, ANA.user_id, 8, "2026-11-25T11:30:00")
    assert await store.presence_line(game_id, ANA.user_id) == (8, "2026-11-25T11:30:00")
    assert await store.presence_line(other, ANA.user_id) == (9, "2026-11-25T10:05:00")


async def test_the_outbox_keeps_the_first_failure_and_postpones_what_waits(store: Store) -> None:
    """Issue 29: the back-off runs from a message's first failed attempt; the messages
    waiting behind a failing post wait as long (never brought forward); the next moment
    owed can leave out the messages the delivery holds itself."""
    game_id, game = await started(store)
    await store.owe(
        game_id, [OwedMessage(POST, game.version, {"n": 1}), OwedMessage(POST, game.version, {})]
    )
    first, second = await store.owed(game_id)
    assert first.failing_since is None
    failed = datetime.now(UTC).replace(microsecond=0)
    await store.delivery_failed(first.id, failed + timedelta(seconds=2), "503", failed_at=failed)
    later = failed + timedelta(seconds=12)
    await store.delivery_failed(first.id, later, "503", failed_at=failed + timedelta(seconds=5))
    first, second = await store.owed(game_id)
    assert (first.attempts, first.failing_since, first.next_at) == (2, failed, later)
    await store.postpone_owed([second.id], later)
    await store.postpone_owed([second.id], failed)  # never brought forward
    _, second = await store.owed(game_id)
    assert (second.next_at, second.attempts, second.failing_since) == (later, 0, None)
    assert await store.owed(due_by=failed + timedelta(seconds=11)) == []
    assert await store.next_owed_at() == later
    assert await store.next_owed_at(besides=[first.id, second.id]) is None
    await store.postpone_owed([], later)  # nothing to postpone: nothing written
    # Discord answers again: all the game owes is due now (none is put back)
    await store.bring_owed_forward([game_id], failed)
    assert [o.next_at for o in await store.owed(due_by=failed)] == [failed, failed]
    await store.bring_owed_forward([game_id], later)
    assert [o.next_at for o in await store.owed(game_id)] == [failed, failed]


async def test_the_outbox_keeps_when_a_look_for_an_earlier_attempt_first_failed(
    store: Store,
) -> None:
    """Issue 41: while a retry cannot look whether its message went out, the moment of
    the first failed look is kept (the bound on waiting counts from it after a restart);
    an attempt that failed after looking forgets it."""
    game_id, game = await started(store)
    await store.owe(game_id, [OwedMessage(POST, game.version, {})])
    (entry,) = await store.owed(game_id)
    assert entry.looks_failing_since is None
    failed = datetime.now(UTC).replace(microsecond=0)
    later = failed + timedelta(seconds=30)
    await store.delivery_failed(entry.id, later, "502", failed_at=failed)
    (entry,) = await store.owed(game_id)
    assert entry.looks_failing_since is None  # it could look (or had no need)
    looked = failed + timedelta(seconds=2)
    await store.delivery_failed(entry.id, later, "503", failed_at=looked, could_not_look=True)
    await store.delivery_failed(
        entry.id, later, "503", failed_at=looked + timedelta(seconds=9), could_not_look=True
    )
    (entry,) = await store.owed(game_id)
    assert (entry.looks_failing_since, entry.failing_since, entry.attempts) == (looked, failed, 3)
    await store.delivery_failed(entry.id, later, "502", failed_at=looked + timedelta(seconds=20))
    (entry,) = await store.owed(game_id)
    assert entry.looks_failing_since is None


async def test_the_places_each_game_under_way_was_delivered_in_and_a_clear_owed_for_one(
    store: Store,
) -> None:
    """Issue 41: where a game's messages were delivered (its thread, the channel it moved
    to), for every game under way, in one read; a clear owed of a message found live."""
    game_id, game = await started(store, channel=10)
    other, _ = await started(store, channel=20)
    await store.owe(game_id, [OwedMessage(POST, game.version, {}), OwedMessage(POST, 1, {})])
    first, second = await store.owed(game_id)
    await store.delivered(first, BIG_GUILD + 1, channel_id=BIG_GUILD + 2)
    await store.delivered(second, BIG_GUILD + 3, channel_id=10)
    assert await store.places_of_games_under_way() == {game_id: {BIG_GUILD + 2, 10}}
    await store.owe_clear(game_id, BIG_GUILD + 1, BIG_GUILD + 2)
    (clear,) = await store.owed(game_id)
    assert (clear.kind, clear.version) == ("clear", 0)
    assert clear.body == {"message_id": BIG_GUILD + 1, "channel_id": BIG_GUILD + 2}
    assert await store.end_game(game_id, game.version, {"ended": True})
    assert await store.places_of_games_under_way() == {}
    assert other in await store.active_game_ids()


async def test_a_servers_settings_and_the_counts_its_limits_use(store: Store) -> None:
    """Issue 21.3: each server's settings by name (a server that set none has none),
    changed and put back to the default; the open lobbies a member opened and the games
    under way they sit in, per server."""
    assert await store.guild_settings(BIG_GUILD) == {}
    await store.set_guild_settings(BIG_GUILD, {"open_lobbies": "3", "lobby_days": "2"})
    await store.set_guild_settings(BIG_GUILD, {"open_lobbies": "4", "language": "fr"})
    await store.set_guild_settings(7, {"open_lobbies": "1"})
    assert await store.guild_settings(BIG_GUILD) == {
        "open_lobbies": "4",
        "lobby_days": "2",
        "language": "fr",
    }
    await store.set_guild_settings(BIG_GUILD, {"lobby_days": None})
    assert await store.guild_settings(BIG_GUILD) == {"open_lobbies": "4", "language": "fr"}
    assert await store.guild_settings(7) == {"open_lobbies": "1"}

    await store.create_lobby(guild_id=BIG_GUILD, channel_id=1, thread_id=None, creator=ANA)
    await store.create_lobby(guild_id=BIG_GUILD, channel_id=2, thread_id=None, creator=ANA)
    await store.create_lobby(guild_id=7, channel_id=3, thread_id=None, creator=ANA)
    await store.create_lobby(guild_id=None, channel_id=4, thread_id=None, creator=BEN)
    assert await store.open_lobbies_by(BIG_GUILD, ANA.user_id) == 2
    assert await store.open_lobbies_by(7, ANA.user_id) == 1
    assert await store.open_lobbies_by(BIG_GUILD, BEN.user_id) == 0
    assert await store.open_lobbies_by(None, BEN.user_id) == 1
    assert [row.channel_id for row in await store.open_lobbies()] == [1, 2, 3, 4]

    await started(store, channel=5)
    await started(store, channel=6)
    assert await store.games_under_way_of(BIG_GUILD, ANA.user_id) == 2
    assert await store.games_under_way_of(BIG_GUILD, BEN.user_id) == 2
    assert await store.games_under_way_of(7, BEN.user_id) == 0
    # an id inside another's is no seat
    assert await store.games_under_way_of(BIG_GUILD, ANA.user_id[:2]) == 0


async def test_a_servers_games_under_way_and_open_lobbies(store: Store) -> None:
    """Issue 26.2: a server's moderators see its games under way and open lobbies,
    oldest first, and none of another server's, nor its ended or abandoned games."""
    assert await store.games_open_in_guild(BIG_GUILD) == []
    lobby = await store.create_lobby(guild_id=BIG_GUILD, channel_id=11, thread_id=None, creator=ANA)
    await store.create_lobby(guild_id=7, channel_id=12, thread_id=None, creator=ANA)
    playing, _ = await started(store, channel=13)
    ended, _ = await started(store, channel=14)
    await store.set_status(ended, ABANDONED, only_from=(ACTIVE,))
    found = await store.games_open_in_guild(BIG_GUILD)
    assert [(row.id, row.status) for row in found] == [(lobby.id, LOBBY), (playing, ACTIVE)]
    assert [row.channel_id for row in await store.games_open_in_guild(7)] == [12]
    assert len(await store.games_open_in_guild(BIG_GUILD, limit=1)) == 1
    # closing the lobby takes it off the list; a second close changes nothing
    assert await store.set_status(lobby.id, ABANDONED, only_from=(LOBBY, ACTIVE))
    assert not await store.set_status(lobby.id, ABANDONED, only_from=(LOBBY, ACTIVE))
    assert [row.id for row in await store.games_open_in_guild(BIG_GUILD)] == [playing]


async def test_a_games_pictures_setting(store: Store) -> None:
    """`pictures` (issue 25.3), on both stores: every move by default, kept per game."""
    game_id, _ = await started(store, guild=6 << 22)
    other, _ = await started(store, channel=12, guild=6 << 22)
    row = await store.get(game_id)
    assert row is not None and row.pictures == PICTURES_EVERY_MOVE
    await store.set_pictures(game_id, PICTURES_END_OF_TURN)
    with pytest.raises(ValueError, match="pictures must be one of"):
        await store.set_pictures(game_id, "sometimes")
    row, untouched = await store.get(game_id), await store.get(other)
    assert row is not None and row.pictures == PICTURES_END_OF_TURN
    assert untouched is not None and untouched.pictures == PICTURES_EVERY_MOVE
    await store.set_pictures(game_id, PICTURES_ON_REQUEST)
    assert (await store.open_game_in(row.channel_id)) == replace(row, pictures=PICTURES_ON_REQUEST)


async def test_the_games_a_player_is_seated_in_by_server_or_all(store: Store) -> None:
    """Issue 25.2: `game_seats` follows `players` in the same transaction."""
    other_guild = BIG_GUILD + 1
    here, _ = await started(store, channel=10)
    lobby = await store.create_lobby(
        guild_id=other_guild, channel_id=20, thread_id=None, creator=BEN
    )
    await store.set_players(lobby.id, [BEN, ANA], expected=[BEN])
    over = await store.create_lobby(guild_id=BIG_GUILD, channel_id=30, thread_id=None, creator=ANA)
    assert await store.set_status(over.id, ABANDONED, only_from=[LOBBY])
    shorter = Seat("11", "Eleven")  # a prefix of Ana's id: never taken for hers
    await store.create_lobby(guild_id=BIG_GUILD, channel_id=40, thread_id=None, creator=shorter)

    def ids(rows: Sequence[GameRow]) -> list[int]:
        return [row.id for row in rows]

    assert ids(await store.seated_games(ANA.user_id, BIG_GUILD)) == [here]
    assert ids(await store.seated_games(ANA.user_id)) == [here, lobby.id]
    assert ids(await store.seated_games(ANA.user_id, statuses=[ABANDONED])) == [over.id]
    # a stale seat change changes no seat; a real one does
    with pytest.raises(StaleVersion):
        await store.set_players(lobby.id, [BEN], expected=[BEN])
    assert ids(await store.seated_games(ANA.user_id)) == [here, lobby.id]
    await store.set_players(lobby.id, [BEN], expected=[BEN, ANA])
    assert ids(await store.seated_games(ANA.user_id)) == [here]
    assert ids(await store.seated_games(BEN.user_id)) == [here, lobby.id]


async def test_the_seats_of_games_made_before_them_are_filled(database: str) -> None:
    """The migration that adds `game_seats` fills it from the games already there."""
    store = await open_store(database)
    try:
        game_id, _ = await started(store)
        await store.transaction([("DELETE FROM game_seats", ())])
        assert await store.seated_games(BEN.user_id) == []
        step = next(s for s in MIGRATIONS if any("CREATE TABLE game_seats" in str(e) for e in s))
        fill = next(entry for entry in step if isinstance(entry, Native))
        kind = "postgres" if is_postgres(database) else "sqlite"
        await store.transaction([(sql, ()) for sql in getattr(fill, kind)])
        assert [row.id for row in await store.seated_games(BEN.user_id)] == [game_id]
    finally:
        await store.close()


async def test_the_daily_digest_is_claimed_once_a_day(store: Store) -> None:
    assert not await store.digest_wanted(ANA.user_id)
    await store.set_digest(ANA.user_id, True, "2026-11-25T08:00:00+00:00")
    await store.set_digest(BEN.user_id, False, "2026-11-25T08:00:00+00:00")
    assert await store.digest_wanted(ANA.user_id)
    assert await store.digest_due([], "2026-11-25") == [ANA.user_id]
    assert await store.claim_digest(ANA.user_id, "2026-11-25")
    assert not await store.claim_digest(ANA.user_id, "2026-11-25")
    assert await store.digest_due([ANA.user_id], "2026-11-25") == []
    assert await store.digest_due([ANA.user_id], "2026-11-26") == [ANA.user_id]
    assert await store.claim_digest(ANA.user_id, "2026-11-26")
    await store.set_digest(ANA.user_id, False, "2026-11-26T09:00:00+00:00")
    assert await store.digest_due([], "2026-11-27") == []


async def test_a_games_web_token_is_random_kept_and_finds_only_its_game(store: Store) -> None:
    first, _ = await started(store, channel=10)
    second, game = await started(store, channel=11)
    token = await store.web_token(first)
    assert await store.web_token(first) == token, "made once, then kept"
    other = await store.web_token(second)
    assert other != token and len(token) >= 24 and str(first) not in (token, other)
    found = await store.game_by_web_token(token)
    assert found is not None and found.id == first and found.players == (ANA, BEN)
    assert await store.game_by_web_token(str(first)) is None
    assert await store.game_by_web_token("") is None
    await play_one(store, second, game)
    assert await store.game_versions([first, second, 999]) == {
        first: (len(Game.new([ANA.user_id, BEN.user_id], seed=4).log), 0),
        second: (game.version, 0),
    }
    assert await store.game_versions([]) == {}


async def test_a_servers_web_token_is_random_kept_and_finds_only_its_server(store: Store) -> None:
    token = await store.server_web_token(BIG_GUILD, "Ranch")
    assert await store.server_web_token(BIG_GUILD, "Big Ranch") == token, "made once, then kept"
    other = await store.server_web_token(7, "Saloon")
    assert other != token and len(token) >= 24 and str(BIG_GUILD) not in token
    assert await store.server_by_web_token(token) == (BIG_GUILD, "Big Ranch"), "the newest name"
    assert await store.server_by_web_token(other) == (7, "Saloon")
    assert await store.server_by_web_token(str(BIG_GUILD)) is None
    assert await store.server_by_web_token("") is None


async def test_a_servers_games_over_latest_first_with_the_tokens_made(store: Store) -> None:
    first, first_game = await started(store, channel=10)
    second, _ = await started(store, channel=11)
    under_way, _ = await started(store, channel=12)
    elsewhere, elsewhere_game = await started(store, channel=13, guild=7)
    assert await store.games_over_in_guild(BIG_GUILD, 10) == []
    assert await store.end_game(first, first_game.version, {"ranking": []})
    assert await store.set_status(second, FINISHED, only_from=[ACTIVE])
    assert await store.end_game(elsewhere, elsewhere_game.version, {"ranking": []})
    over = await store.games_over_in_guild(BIG_GUILD, 10)
    assert [(r.id, r.status) for r in over] == [(second, FINISHED), (first, ENDED)]
    assert [r.id for r in await store.games_over_in_guild(BIG_GUILD, 1)] == [second]
    # the latest to end comes first, though opened first
    later = "2099-01-01T00:00:00+00:00"
    await store.transaction([("UPDATE games SET updated_at = ? WHERE id = ?", (later, first))])
    assert [r.id for r in await store.games_over_in_guild(BIG_GUILD, 10)] == [first, second]
    token = await store.web_token(first)
    assert await store.web_tokens_of([first, second, under_way]) == {first: token}
    assert await store.web_tokens_of([]) == {}


async def test_seasons_started_ended_with_their_champion_and_forgotten(store: Store) -> None:
    assert await store.current_season(BIG_GUILD) is None and await store.seasons_of(BIG_GUILD) == []
    first, ended = await store.start_season(
        BIG_GUILD, "One", ANA.user_id, "2026-11-01T00:00:00+00:00", min_games=5
    )
    assert (first.number, first.name, first.current, ended) == (1, "One", True, None)
    cat, ai = Seat("333", "Cat"), "ai-level:hard"

    def rated(player: str, name: str, rating: int, games: int) -> PlayerRating:
        return PlayerRating(player, name, 25.0, 3.0, rating, games, 1, 0, 1, "2026-11-02")

    season_ratings = [
        rated(ANA.user_id, "Ana", 1200, 6),
        rated(BEN.user_id, "Ben", 1300, 6),  # hides their statistics
        rated(cat.user_id, "Cat", 1500, 3),  # provisional
        rated(ai, "AI (hard)", 1600, 10),  # never a person
    ]
    await store.in_transaction(
        lambda tx: Store.save_season_rated(tx, BIG_GUILD, 1, 1, "2026-11-02", [], season_ratings)
    )
    await store.set_stats_hidden(BEN.user_id, True)
    # another server's season is its own
    await store.start_season(7, "Elsewhere", ANA.user_id, "2026-11-01T00:00:00+00:00", min_games=5)
    second, ended = await store.start_season(
        BIG_GUILD, "Two", ANA.user_id, "2026-11-10T00:00:00+00:00", min_games=5
    )
    assert second.number == 2 and second.current
    assert ended is not None and not ended.current and ended.number == 1
    assert (ended.ended_at, ended.champion, ended.champion_name) == (
        "2026-11-10T00:00:00+00:00",
        ANA.user_id,
        "Ana",
    )
    assert (ended.champion_rating, ended.champion_games) == (1200, 6)
    assert [s.number for s in await store.seasons_of(BIG_GUILD)] == [2, 1]
    assert await store.current_season(BIG_GUILD) == second
    assert [s.name for s in await store.seasons_of(7)] == ["Elsewhere"]
    board = await store.season_leaderboard(BIG_GUILD, 1, min_games=5, offset=0, limit=10)
    assert [r.player for r in board] == [ANA.user_id]
    assert await store.season_leaderboard_size(BIG_GUILD, 1, min_games=1) == 2
    assert await store.season_leaderboard(BIG_GUILD, 2, min_games=1, offset=0, limit=10) == []
    # a season nobody finished enough games in ends without a champion
    _, empty = await store.start_season(
        BIG_GUILD, "Three", ANA.user_id, "2026-11-20T00:00:00+00:00", min_games=5
    )
    assert empty is not None and empty.number == 2 and empty.champion is None
    # a champion who asks to be forgotten stays the champion, unnamed
    await store.forget_player(ANA.user_id)
    (one,) = [s for s in await store.seasons_of(BIG_GUILD) if s.number == 1]
    assert (one.champion, one.champion_name) == (ANA.user_id, "(a former player)")
    assert await store.season_rating_of(BIG_GUILD, 1, ANA.user_id) is None
