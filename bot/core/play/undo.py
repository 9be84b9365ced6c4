"""Undo, the game flow's part that takes a player's last move back (`Game.undo`): the
earlier state is saved in the next undo epoch, which every button carries beside the
version, so no button made before the undo ever applies again; the prompt shown again
tells the moves of that player so far. The deadline steps its decision had taken count
as done (the `undo_steps` hook, `bot.core.play.hooks`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import replace

from bot.core.delivery.outbox import Outcome
from bot.core.play.announcing import Announcing
from bot.core.play.games import STALE_WORDS, Games, events_json
from bot.core.play.hooks import Hooks
from bot.core.play.turns import reason_of
from bot.core.store import OPEN_STATUSES, GameRow, StaleVersion, StoreError, now
from bot.core.wording import words
from bot.core.wording.refusals import NotSaved, Refusal, game_words, why_not_saved
from i18n import translatable
from rules import Event, Game, IllegalAction

log = logging.getLogger(__name__)

UNDO_TAKEN_OVER = translatable(
    "The AI plays your seat in this game now, so you cannot take its moves back. Take "
    "your seat back with {/me reclaim} first."
)


class Undo:
    """A player's last move taken back."""

    def __init__(self, games: Games, announcing: Announcing, hooks: Hooks) -> None:
        self.games = games
        self.store = games.store
        self.announcing = announcing
        self.hooks = hooks

    async def undo(
        self,
        target: int | GameRow,
        user_id: str,
        *,
        expected_version: int | None = None,
        expected_epoch: int | None = None,
    ) -> Outcome:
        """Take back `user_id`'s last move (`Game.undo`), save the earlier state and show
        it again: a fresh prompt saying what was taken back, the previous prompt's
        buttons removed. Refused, with the reason, once another player has moved since,
        the wheel has been spun since, or the game is over."""
        row = await self.games.row_of(target)
        async with self.games.lock(row.id):
            row = self.announcing.delivery.latest(row)
            if row.status not in OPEN_STATUSES:
                raise Refusal(
                    translatable("This game is over: its moves can no longer be taken back.")
                )
            game = self.games.current(row, expected_version, expected_epoch)
            names = row.names
            if not row.has_player(user_id):
                raise Refusal(
                    translatable(
                        "You are not playing in this game: there is no move of yours here."
                    )
                )
            if user_id in row.taken_over:
                raise Refusal(UNDO_TAKEN_OVER)
            try:
                earlier = await asyncio.to_thread(game.undo, user_id)
            except IllegalAction as error:
                failure = error
                raise Refusal(lambda t: reason_of(failure, names, t)) from None
            _, taken = game.log[earlier.version]
            line = words.took_back(names.get(user_id, user_id), taken, game_words(row))
            header = [words.note(line)]
            own = await asyncio.to_thread(self._moves_so_far, earlier, user_id)
            told = {"header": events_json(header), "own": events_json(own)}
            text = words.describe(header + own, names, t=game_words(row))
            sent = await self.hooks.steps_done_at_undo(row, earlier)
            state_json = json.dumps(earlier.to_dict())
            owed = await self.announcing.owed(
                earlier,
                text,
                actor=user_id,
                handover=False,
                turn_player_before=earlier.turn_player,
            )
            stamp = now()
            try:
                await self.store.undo_moves(
                    row.id,
                    row.version,
                    row.undo_epoch,
                    state_json,
                    earlier.version,
                    undone_by=user_id,
                    turn_events=told,
                    reminders_sent=sent,
                    owed=owed,
                    at=stamp,
                )
            except StaleVersion:
                raise Refusal(STALE_WORDS) from None
            except StoreError as error:
                log.warning("game %s: an undo could not be saved: %s", row.id, error)
                trouble = error
                raise NotSaved(
                    lambda t: t.gettext(
                        "Nothing was taken back: I could not save it just now ({why}). "
                        "Please try again in a moment.",
                        why=why_not_saved(trouble, t),
                    )
                ) from error
            self.announcing.delivery.forget(row.id)
            log.info(
                "game %s channel %s: %s took back %r (version %s -> %s, epoch %s)",
                row.id,
                row.play_channel_id,
                user_id,
                taken,
                row.version,
                earlier.version,
                row.undo_epoch + 1,
            )
            new_row = replace(
                row,
                state_json=state_json,
                version=earlier.version,
                undo_epoch=row.undo_epoch + 1,
                updated_at=stamp,
                turn_events=told,
                prompt_version=None,
            )
            outcome = Outcome(
                row=new_row,
                game=earlier,
                actor=user_id,
                events=[],
                text=text,
                picture=b"",
                previous_message_id=row.message_id,
                awaited_changed=False,
            )
            return await self.announcing.announce(outcome)

    @staticmethod
    def _moves_so_far(game: Game, player_id: str) -> list[Event]:
        """The events of `player_id`'s moves at the end of the game's log (what their
        prompt message tells while they go on deciding), replayed from the record."""
        log_ = game.log
        start = len(log_)
        while start > 0 and log_[start - 1][0] == player_id:
            start -= 1
        if start == len(log_):
            return []
        forced = set(game.auto)
        replayed = Game.replay_start(game.record())
        events: list[Event] = []
        for index, (pid, notation) in enumerate(log_):
            step = replayed.replay_action(pid, notation)
            if index == start - 1:
                # the forced steps after another player's move are the player's own
                marks = [i for i, event in enumerate(step) if event.kind == "forced"]
                events += step[marks[0] :] if marks else []
            elif index >= start:
                chosen = index not in forced and not notation.startswith("spin ")
                events += words.with_silent_action(step, pid, notation) if chosen else step
        return events


__all__ = ["UNDO_TAKEN_OVER", "Undo"]
