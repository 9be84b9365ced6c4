"""What is not said twice on demand (issue 21.2): `/montana board` re-posts, at most
one per game state; the pings of a decision, one per decision; away and back lines, one
per game and player an hour.

A player who cannot find the game's prompt may have it posted again; asking again
before the game moves on gets a link to the re-posted message instead of another copy
(a flood of posts and pictures on demand). A move taken back and made again reaches the
same decision of the same player again: they were pinged for it the first time, so
the next times the move's message mentions them without a ping (nor a direct message).

Re-posts and pings are kept in memory, per process: each game is served by one
process, and after a restart one more re-post, or one more ping, of the same state is
allowed. A player toggling `/montana me away` and `back` would post a line in each of
their games each time: within an hour of the line about them in a game, the next one
replaces it by editing it (`PresenceLines`, in the store, so a restart changes nothing).
A replay is posted for everyone at most once per game state and part of the game
(`ReplayPosts`): asked again, it is linked to the asker alone.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.store import GameRow, Store, moment_of, stamp_of

LINE_EVERY = timedelta(hours=1)
"""At most one new away/back line per game and player in this time; later ones edit it."""


@dataclass(frozen=True)
class Reposted:
    version: int
    undo_epoch: int
    message_id: int


class Reposts:
    def __init__(self) -> None:
        self._done: dict[int, Reposted] = {}

    def newest(self, row: GameRow, *, prompt: bool = True) -> int | None:
        """The message re-posted for the game's current state (None: the state was not
        re-posted yet). `prompt`: only while it still carries the game's prompt (else,
        e.g. moved to a new thread, it may be posted again)."""
        done = self._done.get(row.id)
        if done is None or (done.version, done.undo_epoch) != (row.version, row.undo_epoch):
            return None
        return done.message_id if not prompt or done.message_id == row.message_id else None

    def note(self, row: GameRow, message_id: int) -> None:
        """`message_id` re-posted the game's state of `row`."""
        self._done[row.id] = Reposted(row.version, row.undo_epoch, message_id)


@dataclass(frozen=True)
class PostedReplay:
    """Where a replay was posted for everyone."""

    channel_id: int
    message_id: int


ReplayPost = asyncio.Future[PostedReplay | None]
"""A replay's public post, made or being made: where it is once posted (None: it could
not be posted)."""


class ReplayPosts:
    """The replays posted for everyone: one per game state (version and undo epoch) and
    part of the game (the turns shown, FROM and TO). A game that moves on has a new
    state, so its replay may be posted again; a finished game's, once. One person posts
    one replay per game state (another part of the game asked by them is theirs alone):
    a hundred parts asked one after the other are not a hundred posts."""

    KEPT = 256
    """Posts (and states) remembered: the oldest are forgotten (then one more may be
    posted)."""

    def __init__(self) -> None:
        self._posts: OrderedDict[tuple[int, int, int, int, int], ReplayPost] = OrderedDict()
        self._posters: OrderedDict[tuple[int, int, int], set[str]] = OrderedDict()

    @staticmethod
    def _key(row: GameRow, turns: tuple[int, int]) -> tuple[int, int, int, int, int]:
        return (row.id, row.version, row.undo_epoch, *turns)

    def find(self, row: GameRow, turns: tuple[int, int]) -> ReplayPost | None:
        """The post of this replay of `row`'s state, made or under way (None: none, or
        the one tried could not be posted)."""
        post = self._posts.get(self._key(row, turns))
        if post is None or (post.done() and (post.cancelled() or post.result() is None)):
            return None
        return post

    def posted_by(self, row: GameRow, user_id: str) -> bool:
        """Whether `user_id` posted a replay (of any part) of `row`'s state already."""
        return user_id in self._posters.get((row.id, row.version, row.undo_epoch), ())

    def start(self, row: GameRow, turns: tuple[int, int], user_id: str) -> ReplayPost:
        """`user_id`'s post of this replay begins (`find` found none): the caller sets
        its result, where it posted or None, whatever happens."""
        post: ReplayPost = asyncio.get_running_loop().create_future()
        self._posts[self._key(row, turns)] = post
        self._posters.setdefault((row.id, row.version, row.undo_epoch), set()).add(user_id)
        for kept in (self._posts, self._posters):
            while len(kept) > self.KEPT:
                kept.popitem(last=False)
        return post


class Pings:
    """The decisions each game pinged its awaited player for, recently."""

    KEPT = 32
    """Per game: an undo reaches back only over one player's own moves, so a few
    dozen decisions cover every one a move taken back and made again can reach."""

    def __init__(self) -> None:
        self._done: dict[int, dict[tuple[int, str], None]] = {}

    def first(self, game_id: int, version: int, player: str) -> bool:
        """Whether `player` is awaited at `version` for the first time (not pinged yet)."""
        return (version, player) not in self._done.get(game_id, {})

    def note(self, game_id: int, version: int, player: str) -> None:
        """`player` was pinged for the decision the game awaits at `version`."""
        done = self._done.setdefault(game_id, {})
        done[(version, player)] = None
        while len(done) > self.KEPT:
            del done[next(iter(done))]


class PresenceLines:
    """The away and back lines said in each game, so that they are coalesced."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def to_edit(self, game_id: int, user_id: str, at: datetime) -> int | None:
        """The message of the line about `user_id` in the game to edit at `at` (posted
        less than `LINE_EVERY` before), or None: a new line is posted."""
        found = await self.store.presence_line(game_id, user_id)
        if found is None:
            return None
        message_id, posted_at = found
        return message_id if at - moment_of(posted_at) < LINE_EVERY else None

    async def posted(self, game_id: int, user_id: str, message_id: int, at: datetime) -> None:
        """A new line about `user_id` was posted in the game at `at`."""
        await self.store.set_presence_line(game_id, user_id, message_id, stamp_of(at))


__all__ = [
    "LINE_EVERY",
    "Pings",
    "PostedReplay",
    "PresenceLines",
    "ReplayPost",
    "ReplayPosts",
    "Reposts",
]
