"""Which queued players make a table (issue 25 point 5, `bot.core.community.matchmaking`): same
pace and language, a player count every one of them accepts, the largest game possible,
first queued first; expired entries and players at their limit of games left out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.core.community.matchmaking import QUEUE_DAYS, find_table
from bot.core.store import QueuedPlayer, stamp_of

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def queued(
    user: str,
    minutes_ago: float,
    counts: tuple[int, ...] = (2, 3, 4),
    *,
    pace: str = "normal",
    language: str = "en",
) -> QueuedPlayer:
    return QueuedPlayer(
        guild_id=1,
        user_id=user,
        name=user,
        counts=counts,
        pace=pace,
        language=language,
        channel_id=int(minutes_ago * 10) + 1,
        queued_at=stamp_of(NOW - timedelta(minutes=minutes_ago)),
    )


def players_of(queue: list[QueuedPlayer], **kwargs: object) -> list[str] | None:
    table = find_table(queue, at=NOW, **kwargs)  # type: ignore[arg-type]
    return None if table is None else [p.user_id for p in table.players]


def test_three_players_for_a_three_player_game_make_a_table() -> None:
    queue = [queued("a", 30, (3,)), queued("b", 20, (3,)), queued("c", 10, (3, 4))]
    table = find_table(queue, at=NOW)
    assert table is not None
    assert [p.user_id for p in table.players] == ["a", "b", "c"]
    assert (table.pace, table.language) == ("normal", "en")
    assert table.last_queued.user_id == "c"  # its channel is the fallback


def test_two_who_accept_only_three_wait_for_a_third() -> None:
    assert players_of([queued("a", 30, (3,)), queued("b", 20, (3,))]) is None
    assert players_of([queued("a", 30, (3,)), queued("b", 20, (2,))]) is None


def test_pace_and_language_must_be_the_same() -> None:
    queue = [
        queued("a", 40, pace="fast"),
        queued("b", 30, language="fr"),
        queued("c", 20, pace="slow"),
    ]
    assert players_of(queue) is None
    assert players_of([*queue, queued("d", 10, pace="slow")]) == ["c", "d"]


def test_the_largest_game_possible_is_preferred_then_the_first_queued() -> None:
    queue = [
        queued("a", 50, (2,)),
        queued("b", 40),
        queued("c", 30, (3, 4)),
        queued("d", 20),
        queued("e", 10, (4,)),
    ]
    # a 2-player game (a, b) was possible; four accept 4
    assert players_of(queue) == ["b", "c", "d", "e"]
    # among those who accept the size, the first queued
    queue = [
        queued("a", 50, (3,)),
        queued("b", 40, (3,)),
        queued("c", 30, (3,)),
        queued("d", 20, (3,)),
    ]
    assert players_of(queue) == ["a", "b", "c"]
    # two groups able to play the same size: the one whose first player waited longest
    queue = [queued("f1", 60, (2,), language="fr"), queued("e1", 50, (2,)), queued("e2", 40, (2,))]
    queue.append(queued("f2", 10, (2,), language="fr"))
    assert players_of(queue) == ["f1", "f2"]


def test_expired_entries_and_players_at_their_limit_are_not_matched() -> None:
    week = QUEUE_DAYS * 24 * 60
    queue = [queued("old", week + 1), queued("b", 30), queued("c", 20)]
    assert players_of(queue) == ["b", "c"]
    assert players_of(queue, at_limit={"b"}) is None
    assert players_of([queued("a", week - 1), queued("b", 1)]) == ["a", "b"]
