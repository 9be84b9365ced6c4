"""Ratings and statistics of a server, written once when a game ends (issue 22).

Each server (guild) rates its players with OpenSkill's Plackett–Luce model (the
`openskill` library), from a game's final ranking (the rulebook's tie-breaks; a complete
tie shares the place). The rating is written in the same transaction as the game's end
(`end_hook`, given to `Store.commit_move` / `Store.end_game`): a crash never rates a game
twice or not at all. The policy (docs/players.md, "Ratings, leaderboard and statistics"):

* a game that reaches its end: rated from its ranking;
* a game ended by the vote to end: rated from the standings of that moment, the overdue
  player placed last alone (as a quitter);
* an abandoned game: not rated (it never reaches a game end);
* a seat the AI played for a person, for part or all of the game: rated as that person's
  (they, or their away with the AI, left it to the AI); their row counts the AI's moves;
* an AI seat: rated as its level's pseudo-player of the server (`ai-level:normal`), so
  the ladder has anchors; several seats of one level in a game each play with the
  level's rating, and the level takes the mean of their results; never on the people's
  leaderboard nor in the records;
* a player who left the server keeps their rating and their line (the bot is not told
  who leaves: that needs a privileged intent); `/montana me forget` deletes it.

The number shown is the conservative estimate μ − 3σ scaled to start at 1000
(`shown`), provisional until `PROVISIONAL_GAMES` rated games.

Statistics: one row per game and seat (`game_results`) with the seat's place, its
answer times (from the stored move times: from the move before theirs, when it was
another player's, to their own; moves made for them — forced, passed in advance or on a
deadline, or by the AI — are left out) and its main actions; `/montana stats` reads a
player's rows, never the moves.

`install` hooks the rating into the game flow's end (`at_end` of `bot.core.play.hooks`), for
a game's last move and for the vote that ends it (`bot.core.clock.deadlines`).
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from openskill.models import PlackettLuce

from bot.core.play.service import AI_MOVE_NOTE, GameService
from bot.core.store import GameRow, Seat, Store, ai_seat_level, is_ai_seat, moment_of
from bot.core.store.model import OwedMessage
from bot.core.store.ratings import (
    AI_LEVEL_PREFIX,
    PlayerRating,
    RatedGame,
    RatingInputs,
    RatingTx,
    SeatResult,
)
from rules import Game, Result

MODEL = PlackettLuce()
"""OpenSkill's Plackett–Luce model with its defaults (μ 25, σ 25/3)."""
BASE = 1000
SCALE = 20
PROVISIONAL_GAMES = 5
"""A rating is marked provisional until its player has finished this many rated games."""
SUMMARY = "summary"
"""The outbox kind of a game's end-of-game summary (`body["where"]`: "thread" or
"channel", the short line in the parent channel)."""
NOT_ANSWERED = frozenset({"forced", "advance", "deadline", AI_MOVE_NOTE})
"""Notes of moves nobody answered for themselves (left out of the answer times)."""
AUCTION_VERBS = frozenset({"place", "pass"})
"""The answers to a city auction (RULES.md 6: take a space or pass)."""
MAIN_VERBS = ("recruit", "bank", "harvest", "city", "build")
WORK_VERBS = frozenset({"bank", "harvest", "city"})
"""The notation's verbs of the main action Work (the bank, a harvest, the city)."""


STATISTICS = "statistics"
"""The server setting (`guild_settings`) that switches statistics and ratings on or off."""
ON, OFF = "on", "off"


async def statistics_enabled(store: Store, guild_id: int | None) -> bool:
    """Whether a server's games count in statistics and ratings (on unless the server
    turned them off in `/montana server settings`; a game outside any server counts)."""
    if guild_id is None:
        return True
    return (await store.guild_settings(guild_id)).get(STATISTICS, ON).strip().lower() != OFF


def ai_level_of(row: GameRow, seat: Seat) -> str:
    """The level of an AI seat (`ai:<n>:<level>`; `ai:<n>` plays normal): each level is
    a pseudo-player of its own."""
    return ai_seat_level(seat.user_id)


def rating_player(row: GameRow, seat: Seat) -> str:
    """Whose rating a seat plays for: the person, or its AI level's pseudo-player."""
    if seat.is_ai:
        return AI_LEVEL_PREFIX + ai_level_of(row, seat)
    return seat.user_id


def is_ai_level(player: str) -> bool:
    return player.startswith(AI_LEVEL_PREFIX)


def level_name(player: str) -> str:
    """How an AI level's pseudo-player is called: "AI (normal)"."""
    return f"AI ({player.removeprefix(AI_LEVEL_PREFIX)})"


def shown(mu: float, sigma: float) -> int:
    """The rating people read: the conservative estimate μ − 3σ, scaled (1000 at start)."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def provisional(rating: PlayerRating | None) -> bool:
    return rating is None or rating.games < PROVISIONAL_GAMES


# ------------------------------------------------------------------ a game's end


class EndedGame(Protocol):
    """What a game's rating reads of the engine's state (`rules.Game`)."""

    @property
    def version(self) -> int: ...

    @property
    def turn_number(self) -> int: ...

    def result(self) -> Result: ...


@dataclass(frozen=True)
class Placing:
    seat: Seat
    place: int
    settlements: int
    cows_and_canteens: int
    holdings: int
    quit: bool = False


def placings(row: GameRow, game: EndedGame, quitter: str | None = None) -> list[Placing]:
    """The final ranking (RULES.md 10: settlements, then cows and canteens, then
    holdings; a complete tie shares the place); a `quitter` (the overdue player of a game
    ended by a vote) is placed last, alone, and the others keep their order."""
    seats = {seat.user_id: seat for seat in row.players}
    ranking = [s for s in game.result().ranking if s.player in seats]
    others = [s for s in ranking if s.player != quitter]
    found = [
        Placing(
            seats[s.player],
            1 + sum(1 for o in others if o.place < s.place),
            s.settlements,
            s.cows_and_canteens,
            s.holdings,
        )
        for s in others
    ]
    found += [
        Placing(seats[s.player], len(ranking), s.settlements, s.cows_and_canteens, s.holdings, True)
        for s in ranking
        if s.player == quitter
    ]
    return found


def rate(
    players: Sequence[str], places: Sequence[int], before: dict[str, PlayerRating]
) -> list[tuple[float, float]]:
    """Each seat's (μ, σ) after the game: seats in the order given, each a team of one
    playing with its player's current rating (a new player: the model's default)."""
    teams = []
    for player in players:
        known = before.get(player)
        teams.append(
            [MODEL.rating() if known is None else MODEL.rating(mu=known.mu, sigma=known.sigma)]
        )
    after = MODEL.rate(teams, ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in after]


@dataclass
class SeatTimes:
    answers: list[int]
    auction_answers: list[int]
    actions: Counter[str]
    ai_moves: int = 0


def away_seconds(aways: Sequence[tuple[str, str]], start: datetime, end: datetime) -> float:
    """How long of `start`..`end` the player was away (`aways`: since, back; back ""
    while still away)."""
    total = 0.0
    for since, back in aways:
        left = max(start, moment_of(since))
        right = min(end, moment_of(back)) if back else end
        total += max(0.0, (right - left).total_seconds())
    return total


def seat_times(moves: RatingInputs, seat_ids: Sequence[str]) -> dict[str, SeatTimes]:
    """Each seat's answer times and main actions, from the game's stored moves."""
    found = {seat: SeatTimes([], [], Counter()) for seat in seat_ids}
    before: tuple[str, str, datetime] | None = None
    for move, note in moves.moves:
        at = moment_of(move.at)
        times = found.get(move.player)
        verb = move.notation.split(" ", 1)[0]
        if times is not None:
            if note == AI_MOVE_NOTE:
                times.ai_moves += 1
            answered = note not in NOT_ANSWERED and not is_ai_seat(move.player)
            # further builds of the same action are no action of their own
            more_builds = (
                verb == "build"
                and before is not None
                and before[:2]
                == (
                    move.player,
                    "build",
                )
            )
            if answered and verb in MAIN_VERBS and not more_builds:
                times.actions[verb] += 1
            if answered and before is not None and before[0] != move.player and verb != "spin":
                away = away_seconds(moves.aways.get(move.player, ()), before[2], at)
                seconds = max(0, round((at - before[2]).total_seconds() - away))
                (times.auction_answers if verb in AUCTION_VERBS else times.answers).append(seconds)
        before = (move.player, verb, at)
    return found


def rated_game(
    row: GameRow,
    game: EndedGame,
    inputs: RatingInputs,
    *,
    ended_at: str,
    quitter: str | None = None,
    counted: bool = True,
    hidden: frozenset[str] = frozenset(),
) -> RatedGame:
    """What a game's end writes: pure, from what its transaction read. A game outside
    a server (the console's), or of a server that switched statistics off (`counted`
    False), is only marked seen: ratings and statistics are a server's."""
    rated = row.guild_id is not None and counted
    if not rated:
        return RatedGame(row.id, None, False, [], [], [], game.version)
    ranking = placings(row, game, quitter)
    players = [rating_player(row, p.seat) for p in ranking]
    after = rate(players, [p.place for p in ranking], inputs.ratings) if rated else []
    # an AI level with several seats takes the mean of their results
    by_player: dict[str, list[tuple[float, float]]] = {}
    for player, seat_after in zip(players, after, strict=True):
        by_player.setdefault(player, []).append(seat_after)
    new_ratings: dict[str, PlayerRating] = {}
    for index, placing in enumerate(ranking):
        player = players[index]
        if not rated or player in new_ratings:
            continue
        level_results = by_player[player]
        mu = statistics.fmean(r[0] for r in level_results)
        sigma = statistics.fmean(r[1] for r in level_results)
        old = inputs.ratings.get(player)
        won = min(p.place for p, who in zip(ranking, players, strict=True) if who == player) == 1
        streak = (old.streak if old else 0) + 1 if won else 0
        name = level_name(player) if is_ai_level(player) else placing.seat.name
        new_ratings[player] = PlayerRating(
            player=player,
            name=name,
            mu=mu,
            sigma=sigma,
            rating=shown(mu, sigma),
            games=(old.games if old else 0) + 1,
            wins=(old.wins if old else 0) + int(won),
            streak=streak,
            best_streak=max(streak, old.best_streak if old else 0),
            last_game_at=ended_at,
        )
    times = seat_times(inputs, [p.seat.user_id for p in ranking])
    started_at = inputs.moves[0][0].at if inputs.moves else row.created_at
    game_seconds = max(0, round((moment_of(ended_at) - moment_of(started_at)).total_seconds()))
    results = []
    for index, placing in enumerate(ranking):
        player = players[index]
        seat_id = placing.seat.user_id
        old = inputs.ratings.get(player)
        new = new_ratings.get(player)
        results.append(
            SeatResult(
                game_id=row.id,
                seat=seat_id,
                player=player,
                name=placing.seat.name,
                place=placing.place,
                seats=len(ranking),
                settlements=placing.settlements,
                quit=placing.quit,
                finished=quitter is None,
                ai_moves=times[seat_id].ai_moves,
                rated=rated,
                rating_before=(old.rating if old else shown(MODEL.mu, MODEL.sigma))
                if rated
                else None,
                rating_after=new.rating if new else None,
                answers=tuple(times[seat_id].answers),
                auction_answers=tuple(times[seat_id].auction_answers),
                actions=dict(times[seat_id].actions),
                turns=game.turn_number,
                game_seconds=game_seconds,
                started_at=started_at,
                ended_at=ended_at,
            )
        )
    return RatedGame(
        game_id=row.id,
        guild_id=row.guild_id,
        rated=rated,
        results=results,
        ratings=list(new_ratings.values()),
        owed=summary_owed(row, game.version, results, new_ratings, ranking, hidden=hidden),
        version=game.version,
    )


def summary_owed(
    row: GameRow,
    version: int,
    results: Sequence[SeatResult],
    after: dict[str, PlayerRating],
    ranking: Sequence[Placing],
    *,
    hidden: frozenset[str] = frozenset(),
) -> list[OwedMessage]:
    """The summary in the game's thread and, when it plays in a thread, the short line
    in the parent channel: the figures; the front end words them in the game's language.
    A player who hid their statistics (`hidden`) keeps their place and settlements, but
    none of their figures: no rating, change or answer times (not even the fastest or
    slowest answer)."""
    seats = [
        {
            "seat": r.seat,
            "name": r.name,
            "place": r.place,
            "settlements": r.settlements,
            "cows": placing.cows_and_canteens,
            "holdings": placing.holdings,
            "quit": r.quit,
            "ai": is_ai_level(r.player),
            "level": r.player.removeprefix(AI_LEVEL_PREFIX) if is_ai_level(r.player) else None,
            "before": r.rating_before,
            "after": r.rating_after,
            "provisional": provisional(after.get(r.player)),
            "median": round(statistics.median(r.answers)) if r.answers else None,
            "ai_moves": r.ai_moves,
        }
        for r, placing in zip(results, ranking, strict=True)
    ]
    for seat in seats:
        if seat["seat"] in hidden:
            seat.update(hidden=True, before=None, after=None, provisional=False, median=None)
    every = [
        (seconds, r.seat)
        for r in results
        if r.seat not in hidden
        for seconds in r.answers + r.auction_answers
    ]
    first = results[0] if results else None
    body = {
        "seats": seats,
        "rated": bool(results and results[0].rated),
        "finished": bool(first and first.finished),
        "seconds": first.game_seconds if first else 0,
        "turns": first.turns if first else 0,
        "fastest": list(min(every)) if every else None,
        "slowest": list(max(every)) if every else None,
    }
    owed = [OwedMessage(SUMMARY, version, {**body, "where": "thread"})]
    if row.thread_id is not None and row.thread_id != row.channel_id:
        owed.append(OwedMessage(SUMMARY, version, {**body, "where": "channel"}))
    return owed


async def rate_in(
    tx: RatingTx,
    row: GameRow,
    game: Game,
    *,
    ended_at: str,
    quitter: str | None = None,
    counted: bool = True,
    hidden: frozenset[str] = frozenset(),
) -> RatedGame | None:
    """Rate a game inside the transaction of its end: None if it was rated already."""
    players = list(dict.fromkeys(rating_player(row, seat) for seat in row.players))
    inputs = await Store.rating_inputs(tx, row.guild_id, row.id, players)
    if inputs is None:
        return None
    rated = rated_game(
        row, game, inputs, ended_at=ended_at, quitter=quitter, counted=counted, hidden=hidden
    )
    await Store.save_rated_game(tx, rated)
    return rated


def end_hook(
    row: GameRow,
    game: Game,
    *,
    ended_at: str,
    quitter: str | None = None,
    counted: bool = True,
    hidden: frozenset[str] = frozenset(),
) -> Callable[[RatingTx], Awaitable[None]]:
    """What a game's end writes in its own transaction (its rating, statistics and
    summary): for `Store.commit_move(at_end=)` and `Store.end_game(at_end=)`; `counted`:
    the server's statistics are on (`statistics_enabled`); `hidden`: the seats whose
    players hid their statistics (`hidden_seats`), without figures in the summary."""

    async def write(tx: RatingTx) -> None:
        await rate_in(
            tx, row, game, ended_at=ended_at, quitter=quitter, counted=counted, hidden=hidden
        )

    return write


async def hidden_seats(store: Store, row: GameRow) -> frozenset[str]:
    """The seats of `row` whose players hid their statistics (`/montana me stats`)."""
    return frozenset(
        [
            seat.user_id
            for seat in row.players
            if not seat.is_ai and await store.stats_hidden(seat.user_id)
        ]
    )


def install(service: GameService) -> None:
    """Rate each game's end in the transaction that saves it; a server that switched
    statistics off has its games' ends seen, not rated."""
    store = service.store

    async def at_end(
        row: GameRow, game: Game, ended_at: str, quitter: str | None
    ) -> Callable[[RatingTx], Awaitable[None]]:
        counted = await statistics_enabled(store, row.guild_id)
        hidden = await hidden_seats(store, row)
        return end_hook(
            row, game, ended_at=ended_at, quitter=quitter, counted=counted, hidden=hidden
        )

    service.hooks.at_end.append(at_end)


async def rate_past_games(store: Store) -> int:
    """Rate, once and in the order they ended, the finished and ended games no rating
    has seen (those that ended before ratings existed); how many there were. A game
    whose state does not load is marked seen and left unrated."""
    count = 0
    for game_id in await store.games_to_rate():
        row = await store.get(game_id)
        if row is None or row.state_json is None:
            continue
        try:
            game = Game.from_dict(row.state or {})
        except Exception:
            continue
        quitter = None
        if row.result_json is not None:
            quitter = json.loads(row.result_json).get("awaited")
        counted = await statistics_enabled(store, row.guild_id)
        hidden = await hidden_seats(store, row)
        await store.in_transaction(
            end_hook(
                row,
                game,
                ended_at=row.updated_at,
                quitter=quitter,
                counted=counted,
                hidden=hidden,
            )
        )
        count += 1
    return count


# ------------------------------------------------------------------ what is read back


@dataclass(frozen=True)
class PlayerStats:
    """A player's record on one server, from their rows (`Store.results_of`)."""

    rating: PlayerRating | None
    games: int
    wins: int
    average_place: float | None
    median_answer: float | None
    median_auction_answer: float | None
    favourite_action: str | None
    best_game: SeatResult | None
    streak: int
    best_streak: int
    history: list[tuple[datetime, int]]
    """(when the game ended, the rating after it), oldest first."""
    ai_moves: int

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


def player_stats(rating: PlayerRating | None, results: Sequence[SeatResult]) -> PlayerStats:
    answers = [s for r in results for s in r.answers]
    auction = [s for r in results for s in r.auction_answers]
    actions: Counter[str] = Counter()
    for r in results:
        actions.update(r.actions)
    seen_games = {r.game_id: r for r in results}
    best = max(
        seen_games.values(), key=lambda r: (r.settlements, -r.place, r.ended_at), default=None
    )
    wins = sum(1 for r in seen_games.values() if r.place == 1)
    history = [
        (moment_of(r.ended_at), r.rating_after)
        for r in seen_games.values()
        if r.rated and r.rating_after is not None
    ]
    return PlayerStats(
        rating=rating,
        games=len(seen_games),
        wins=wins,
        average_place=statistics.fmean(r.place for r in seen_games.values())
        if seen_games
        else None,
        median_answer=statistics.median(answers) if answers else None,
        median_auction_answer=statistics.median(auction) if auction else None,
        favourite_action=favourite_of(actions),
        best_game=best,
        streak=rating.streak if rating else 0,
        best_streak=rating.best_streak if rating else 0,
        history=history,
        ai_moves=sum(r.ai_moves for r in seen_games.values()),
    )


def favourite_of(actions: Mapping[str, int]) -> str | None:
    """The main action chosen most often: "recruit", "work" (the bank, a harvest or the
    city together) or "build"."""
    grouped: Counter[str] = Counter()
    for verb, count in actions.items():
        grouped["work" if verb in WORK_VERBS else verb] += count
    return max(grouped, key=lambda k: (grouped[k], k)) if grouped else None


def month_ago(now: datetime | None = None) -> str:
    """The stamp 30 days back (the leaderboard's change over the last 30 days)."""
    moment = (now or datetime.now(UTC)) - timedelta(days=30)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


__all__ = [
    "AI_MOVE_NOTE",
    "BASE",
    "MODEL",
    "PROVISIONAL_GAMES",
    "SUMMARY",
    "PlayerStats",
    "ai_level_of",
    "end_hook",
    "hidden_seats",
    "install",
    "is_ai_level",
    "level_name",
    "month_ago",
    "placings",
    "player_stats",
    "provisional",
    "rate",
    "rate_in",
    "rate_past_games",
    "rated_game",
    "rating_player",
    "shown",
    "statistics_enabled",
]
