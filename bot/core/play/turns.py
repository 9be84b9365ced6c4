"""Turns, the game flow's part that applies moves: the checks a press passes before a slow
defer (`check_turn`: its game, its version and undo epoch, its player, a seat the AI plays),
a move applied, saved with the steps nobody is asked for and announced (`play`), the passes
in advance of the city auction (`bot.core.play.passes`), and the engine's refusals in words.

Every move runs under the game's lock and is saved with the store's optimistic version
check, so two presses of the same button can never both apply: the second one finds the
version moved on and gets `Refusal(STALE_WORDS)`. A move whose save fails is refused
(`NotSaved`) with nothing written. Steps nobody is asked for are saved with the move that
led to them and said in its message: the engine's forced steps (RULES.md 7.3, noted
"forced" in the move log) and passes in advance (noted "advance"). A game's end writes
what the `at_end` hooks give in the same transaction (`bot.core.play.hooks`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.core.delivery.outbox import Outcome
from bot.core.play import passes
from bot.core.play.announcing import Announcing
from bot.core.play.games import STALE_WORDS, Games, events_json, events_of
from bot.core.play.hooks import Hooks
from bot.core.runtime import metrics
from bot.core.store import (
    ACTIVE,
    FINISHED,
    GameRow,
    StaleVersion,
    StoreError,
    is_ai_seat,
    now,
)
from bot.core.wording import words
from bot.core.wording.refusals import Refusal, game_words, not_saved
from i18n import SOURCE_LANGUAGE, Translator, translatable, translator
from render.words import reason_text
from rules import Action, Event, Game, IllegalAction, NotYourTurn, parse_action

log = logging.getLogger(__name__)

TAKEN_OVER_WORDS = translatable(
    "The AI plays your seat in this game now. Take it back with {/me reclaim}, then make your move."
)
TAKEN_OVER = TAKEN_OVER_WORDS.id
AWAY_AI_WORDS = translatable(
    "You are away and the AI plays for you. {/me back} gives you all your games "
    "again, or {/me reclaim} this one; then make your move."
)
"""A press refused because the AI plays for its presser while they are away."""
FORCED_NOTE = "forced"
"""The move log's note for a step the engine applied because it was the only choice."""
IN_ADVANCE_NOTE = "advance"
"""The move log's note for a pass given in advance."""
AI_MOVE_NOTE = "ai"
"""The move log's note of a move the AI made for a person's seat."""


@dataclass(frozen=True)
class Turn:
    """A game read once for one press: its row and the engine's state, checked for the
    presser (`Turns.check_turn`)."""

    row: GameRow
    game: Game
    expected_version: int | None


def all_seats_ai(row: GameRow) -> bool:
    """Whether the AI plays every seat of the game (it must not run alone)."""
    return bool(row.players) and all(row.ai_plays(seat.user_id) for seat in row.players)


def highlight_of(events: Sequence[Event]) -> str | None:
    """The field built last in `events` (the picture marks it), if any."""
    for event in reversed(events):
        if event.kind == "build":
            field_label = event.data.get("field")
            return str(field_label) if field_label else None
    return None


def reason_of(error: IllegalAction, names: Mapping[str, str], t: Translator) -> str:
    """The engine's reason in the vocabulary's words, with names instead of ids, as a
    sentence in `t`'s language."""
    if t.language == SOURCE_LANGUAGE:
        reason = words.engine_reason(str(error).split(". Allowed now:")[0].rstrip("."))
        for pid, name in names.items():
            reason = reason.replace(pid, name)
    else:
        reason = reason_text(error.reason, t, names)
    return t.gettext("{reason}.", reason=reason[:1].upper() + reason[1:])


class Turns:
    """Moves and passes in advance, each checked, saved and announced."""

    def __init__(self, games: Games, announcing: Announcing, hooks: Hooks) -> None:
        self.games = games
        self.store = games.store
        self.announcing = announcing
        self.hooks = hooks

    async def check_turn(
        self,
        game: int | GameRow,
        user_id: str,
        expected_version: int | None,
        expected_epoch: int | None = None,
        *,
        by_ai: bool = False,
    ) -> Turn:
        """Refuse early (before a slow defer) a press that cannot possibly apply.

        Given a game id the row is read here; given a row already read, nothing is read
        again. The `Turn` returned is what `play` needs, so a press reads its game once.
        `expected_epoch`: the undo epoch the button was made in (None: not checked).
        `by_ai`: the AI answers for the seat (`bot.core.ai_players.ai_seats`); a person may not
        while the AI plays their seat.
        """
        row = await self.games.row_of(game)
        checked = self._check(row, user_id, expected_version, expected_epoch)
        if not by_ai and row.ai_plays(user_id):
            if checked.awaiting == user_id and all_seats_ai(row):
                # a game paused with the AI alone: the person's move takes their seat back
                row = await self._resume_paused(row, user_id)
                checked = self._check(row, user_id, expected_version, expected_epoch)
            else:
                away = await self.announcing.presence.away_of(user_id)
                raise Refusal(
                    AWAY_AI_WORDS if away is not None and away.ai_plays else TAKEN_OVER_WORDS
                )
        return Turn(row, checked, expected_version)

    async def _resume_paused(self, row: GameRow, user_id: str) -> GameRow:
        """`user_id` takes their seat back from the AI, which played every seat."""
        seats = [p for p in row.taken_over if p != user_id]
        if not await self.store.set_taken_over(row.id, seats, expected=row.taken_over):
            row = await self.games.get(row.id)  # taken back meanwhile (this same press, twice)
            if user_id in row.taken_over:
                raise Refusal(STALE_WORDS)
            return row
        log.info("game %s: %s moves, taking their seat back from the AI", row.id, user_id)
        return replace(row, taken_over=tuple(seats))

    def _check(
        self,
        row: GameRow,
        user_id: str,
        expected_version: int | None,
        expected_epoch: int | None = None,
    ) -> Game:
        game = self.games.current(row, expected_version, expected_epoch)
        if not row.has_player(user_id):
            raise Refusal(
                lambda t: t.gettext(
                    "You are not playing in this game — only its players can press its "
                    "buttons. {waiting} Open your own game with {/game new} in another "
                    "channel.",
                    waiting=words.waiting_for(game, row.names, t),
                )
            )
        if game.awaiting != user_id:
            raise Refusal(lambda t: words.not_your_move(game, row.names, t))
        return game

    def refusal_text(
        self,
        error: IllegalAction,
        game: Game,
        user_id: str,
        names: Mapping[str, str],
        t: Translator | None = None,
    ) -> str:
        """The engine's reason in words, and what is allowed now (English unless `t`)."""
        t = t or translator(SOURCE_LANGUAGE)
        allowed = words.allowed_now(game, user_id, t)
        return f"{reason_of(error, names, t)} {allowed}".strip()

    async def play(
        self,
        game: int | Turn,
        user_id: str,
        move: str | Action,
        *,
        expected_version: int | None = None,
        expected_epoch: int | None = None,
        note: str = "",
        by_ai: bool = False,
        expected_taken_over: Sequence[str] | None = None,
    ) -> Outcome:
        """Apply one move for `user_id`, save it, render and announce it.

        `game` is the game's id, or the `Turn` that `check_turn` returned for this
        press (the game is then not read again). `expected_version` (and
        `expected_epoch`, its undo epoch) is the state the player saw (from a button);
        None for typed commands, which apply to the current state. `note` is said before
        the move's words (e.g. that the bot passed for a player on a deadline; for a move
        `by_ai`, it stays with the moves told while the same player goes on). The
        store's version and epoch check is the guard against a move saved meanwhile: the
        press is then refused as out of date. `expected_taken_over`: the seats the AI
        played in the state it decided on, when it moves for a person's seat; the move
        is out of date, too, if they changed (the person took the seat back meanwhile).
        """
        if not isinstance(game, Turn):
            game = await self.check_turn(
                game, user_id, expected_version, expected_epoch, by_ai=by_ai
            )
        async with self.games.lock(game.row.id):
            row = self.announcing.delivery.latest(game.row)
            return await self._play(
                row,
                game.game,
                user_id,
                move,
                note,
                by_ai=by_ai,
                expected_taken_over=expected_taken_over,
            )

    async def _play(
        self,
        row: GameRow,
        game: Game,
        user_id: str,
        move: str | Action,
        note: str,
        *,
        by_ai: bool = False,
        expected_taken_over: Sequence[str] | None = None,
    ) -> Outcome:
        game_id = row.id
        names = row.names
        if isinstance(move, str):
            try:
                move = parse_action(move)
            except IllegalAction as error:
                failure = error
                raise Refusal(
                    lambda t: self.refusal_text(failure, game, user_id, names, t)
                ) from None
        awaited_before, turn_player_before = game.awaiting, game.turn_player
        try:
            events = game.apply(user_id, move)
        except NotYourTurn:
            raise Refusal(lambda t: words.not_your_move(game, names, t)) from None
        except IllegalAction as error:
            failure = error
            raise Refusal(lambda t: self.refusal_text(failure, game, user_id, names, t)) from None
        events = words.with_silent_action(events, user_id, str(move))
        if note and by_ai:
            # told with the moves (kept while the same player's prompt is edited in place)
            events = [words.note(note), *events]
            note = ""
        passed_in_advance = await self._apply_passes_in_advance(row, game, events)
        new_moves = game.log[row.version :]
        notes = {index + 1: FORCED_NOTE for index in game.auto if index >= row.version}
        notes.update(dict.fromkeys(passed_in_advance, IN_ADVANCE_NOTE))
        if by_ai and not is_ai_seat(user_id):
            # the AI's moves for a person's seat (left out of their answer times)
            for version, (player, _) in enumerate(new_moves, start=row.version + 1):
                if player == user_id and version not in notes:
                    notes[version] = AI_MOVE_NOTE
        new_events = events
        # While the same player goes on deciding, their prompt message is updated and
        # tells their moves so far; when someone else must act, a new message tells
        # the whole sequence of the player who just finished.
        continuing = game.awaiting == awaited_before and row.message_id is not None
        header = events_of(row.turn_events.get("header", []))
        own = events_of(row.turn_events.get("own", [])) + new_events
        told = (
            {"header": events_json(header), "own": events_json(own)}
            if continuing
            else {"header": events_json(own), "own": []}
        )
        text = words.describe(header + own if continuing else own, names, t=game_words(row))
        if note:
            text = f"{note}\n{text}" if text else note
        state_json = json.dumps(game.to_dict())
        stamp = now()
        # the same player's prompt is updated in place only while it is the game's newest
        # message (no move's message is still owed before it)
        in_place = row.message_id if continuing and row.prompt_version == row.version else None
        # a move taken back and made again pings the player it hands over to once
        handover = not continuing and self.announcing.first_ping(game_id, game)
        owed = await self.announcing.owed(
            game,
            text,
            actor=user_id,
            handover=handover,
            turn_player_before=turn_player_before,
            in_place=in_place,
            highlight=highlight_of(events),
        )
        # a game's end is written in the same transaction (its rating, `bot.core.play.hooks`)
        at_end = await self.hooks.ending(row, game, ended_at=stamp) if game.is_over else None
        try:
            await self.store.commit_move(
                game_id,
                row.version,
                state_json,
                game.version,
                new_moves,
                finished=game.is_over,
                turn_events=told,
                at=stamp,
                owed=owed,
                expected_epoch=row.undo_epoch,
                notes=notes,
                expected_taken_over=expected_taken_over,
                at_end=at_end,
            )
        except StaleVersion:
            raise Refusal(STALE_WORDS) from None
        except StoreError as error:
            log.warning("game %s: a move could not be saved: %s", game_id, error)
            raise not_saved(error) from error
        log.info(
            "game %s channel %s: %s played %r (version %s -> %s)",
            game_id,
            row.play_channel_id,
            user_id,
            str(move),
            row.version,
            game.version,
        )
        metrics.move_saved(row.guild_id, by_ai=by_ai)
        new_row = replace(
            row,
            state_json=state_json,
            version=game.version,
            status=FINISHED if game.is_over else ACTIVE,
            updated_at=stamp,
            turn_events=told,
        )
        outcome = Outcome(
            row=new_row,
            game=game,
            actor=user_id,
            events=events,
            text=text,
            picture=b"",
            previous_message_id=row.message_id,
            awaited_changed=not continuing,
            in_place=in_place is not None,
        )
        outcome = await self.announcing.announce(outcome)
        # the ping counts once it reached the player: a post still owed when its move is
        # taken back (Discord down) is dropped with its ping, so the move made again pings
        if handover and outcome.announced and game.awaiting is not None:
            self.announcing.pings.note(game_id, game.version, game.awaiting)
        return outcome

    async def _apply_passes_in_advance(
        self, row: GameRow, game: Game, events: list[Event]
    ) -> list[int]:
        """Pass for every player the auction has reached who passed in advance (one pass
        may reach the next such player); their events are added to `events`. The
        versions of those passes."""
        if game.pending.kind != "bid":
            return []
        auction = passes.auction_opened_at(game)
        if auction is None:
            return []
        passing = await self.store.advance_passes(row.id, auction)
        applied: list[int] = []
        while (player := passes.due_pass(game, passing)) is not None:
            applied.append(game.version + 1)
            events += [words.in_advance(player), *game.apply(player, "pass")]
        return applied

    async def pass_in_advance(
        self,
        target: int | GameRow,
        user_id: str,
        *,
        wanted: bool | None = None,
        expected_version: int | None = None,
        expected_epoch: int | None = None,
    ) -> bool:
        """Record `user_id`'s pass in advance in the running city auction (`wanted`
        True), withdraw it (False) or toggle it (None); whether it stands now. Only a
        player queued to answer later may (not the one it awaits, not its active player)."""
        row = await self.games.row_of(target)
        async with self.games.lock(row.id):
            game = self.games.current(row, expected_version, expected_epoch)
            names = row.names
            if not row.has_player(user_id):
                raise Refusal(translatable("You are not playing in this game."))
            auction = passes.auction_opened_at(game)
            if auction is None:
                raise Refusal(
                    translatable("No city auction is running now: there is nothing to pass.")
                )
            if user_id not in passes.queued_later(game):
                raise Refusal(lambda t: words.cannot_pass_in_advance(game, user_id, names, t))
            standing = user_id in await self.store.advance_passes(row.id, auction)
            wanted = not standing if wanted is None else wanted
            if wanted != standing:
                try:
                    done = await self.store.set_advance_pass(
                        row.id,
                        user_id,
                        auction,
                        wanted,
                        version=row.version,
                        undo_epoch=row.undo_epoch,
                    )
                except StoreError as error:
                    raise not_saved(error) from error
                if not done:
                    raise Refusal(STALE_WORDS)
            log.info(
                "game %s: %s %s in advance",
                row.id,
                user_id,
                "passes" if wanted else "withdrew the pass",
            )
            return wanted


__all__ = [
    "AI_MOVE_NOTE",
    "AWAY_AI_WORDS",
    "FORCED_NOTE",
    "IN_ADVANCE_NOTE",
    "TAKEN_OVER",
    "TAKEN_OVER_WORDS",
    "Turn",
    "Turns",
    "all_seats_ai",
    "highlight_of",
    "reason_of",
]
