"""Announcing, the game flow's part that tells the players: the messages a saved version
owes them (its post, a direct message, a heads-up; `bot.core.delivery.outbox`), their
delivery under the game's lock with the outcome saying whether it was shown, the
`after_announce` and `after_game_over` hooks (`bot.core.play.hooks`), the re-post of the
current state, the game's pictures (with the notes by the seats' names) and the move log's
pages.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import replace

from bot.core.delivery.kept_pictures import PictureShelf, inputs_of
from bot.core.delivery.notify import NotifyPrefs
from bot.core.delivery.outbox import (
    NOT_POSTED_YET,
    Announcer,
    Backoff,
    Delivery,
    NoticeSender,
    Outcome,
    Posted,
    QuietEnd,
    Report,
    TurnNotifier,
)
from bot.core.delivery.picture_modes import ends_turn
from bot.core.delivery.presence import Presence, seat_notes
from bot.core.delivery.renderer import Renderer
from bot.core.play.games import Games, events_of
from bot.core.play.hooks import Hooks
from bot.core.play.repeats import Pings, Reposts
from bot.core.store import (
    DM,
    OPEN_STATUSES,
    POST,
    Away,
    DrawnKey,
    GameRow,
    OwedMessage,
    StoreError,
)
from bot.core.wording import words
from bot.core.wording.pages import page_within
from bot.core.wording.refusals import Refusal, game_words, why_not_saved
from i18n import Translator, translatable
from rules import Game

log = logging.getLogger(__name__)

NO_BOARD = translatable("You are not playing in this game, so you have no board here.")
AI_PLAYS = translatable("AI plays")
"""The picture's note by the name of a seat the AI plays for its owner (taken over)."""
AI_PLAYS_NOTE = AI_PLAYS.id


class Announcing:
    """What a saved version owes the players, and its delivery."""

    def __init__(
        self,
        games: Games,
        hooks: Hooks,
        *,
        renderer: Renderer,
        announcer: Announcer,
        notifier: TurnNotifier | None,
        notices: NoticeSender | None,
        quiet_end: QuietEnd,
        backoff: Backoff | None,
    ) -> None:
        self.games = games
        self.store = games.store
        self.hooks = hooks
        self.renderer = renderer
        self.shelf = PictureShelf(self.store)
        """The pictures drawn for each version, kept for every surface (issue 37.3)."""
        self.notifier = notifier
        self.prefs = NotifyPrefs(self.store)
        self.reposts = Reposts()
        """What {/board} re-posted (at most once per state)."""
        self.pings = Pings()
        """The decisions whose player was pinged (once per decision, also after an undo)."""
        self.presence = Presence(self.store, load_game=games.game_of)
        """Heads-ups owed by moves; players away and back (`bot.core.delivery.presence`)."""
        self.delivery = Delivery(
            self.store,
            announcer,
            notifier=notifier,
            notices=notices,
            away_in=self.presence.away_in,
            quiet_end=quiet_end,
            render=self.picture,
            load_game=games.game_of,
            lock=games.lock,
            backoff=backoff,
        )
        """Delivers the messages moves owe; a front end that runs for long `start`s it,
        so what failed is tried again (and what a previous run left is delivered)."""
        self.presence.deliver = self.delivery.deliver

    # ------------------------------------------------------------------ pictures

    async def game_picture(self, row: GameRow, game: Game) -> bytes:
        return await self.picture(row, game, None, await self.presence.away_in(row))

    async def picture(
        self, row: GameRow, game: Game, highlight: str | None, away: Mapping[str, Away]
    ) -> bytes:
        """The picture of `game` as its post shows it: drawn once per version and what it
        shows (the highlight, the names and notes), kept for the other surfaces."""
        names = row.seat_names
        notes = {
            **await self.hooks.notes(row, game, away),
            **dict.fromkeys(row.taken_over, game_words(row).translate(AI_PLAYS)),
            **seat_notes(away, row, game_words(row)),
        }

        async def draw() -> bytes:
            return await asyncio.to_thread(
                self.renderer.game_picture,
                game,
                highlight=highlight,
                names=names,
                seat_notes=notes,
                language=row.language,
            )

        key = DrawnKey(row.id, row.undo_epoch, game.version, row.language)
        return await self.shelf.picture(key, draw, inputs=inputs_of(highlight, names, notes))

    async def board_picture(self, row: GameRow, user_id: str, language: str = "en") -> bytes:
        """`user_id`'s own board, in their language (only they see it)."""
        game = self.games.game_of(row)
        if not row.has_player(user_id):
            raise Refusal(NO_BOARD)
        return await asyncio.to_thread(
            self.renderer.board_picture, game, user_id, names=row.seat_names, language=language
        )

    # ------------------------------------------------------------------ what a move owes

    def first_ping(self, game_id: int, game: Game) -> bool:
        """Whether the player `game` awaits is to be pinged: not when they were for this
        decision already (the move that reached it was taken back and made again)."""
        awaited = game.awaiting
        return awaited is None or self.pings.first(game_id, game.version, awaited)

    async def owed(
        self,
        game: Game,
        text: str,
        *,
        actor: str | None,
        handover: bool,
        turn_player_before: str | None,
        in_place: int | None = None,
        highlight: str | None = None,
    ) -> list[OwedMessage]:
        """The messages a saved version owes the players: its post, a direct message for
        the player it now waits for if they asked for one, and a heads-up for the player
        after the one whose turn it started (`turn_player_before`: the turn's player
        before the move; `bot.core.delivery.presence`)."""
        owed = [
            OwedMessage(
                POST,
                game.version,
                {
                    "text": text,
                    "actor": actor,
                    "handover": handover,
                    "in_place": in_place,
                    "highlight": highlight,
                    # the `pictures` setting draws at the end of a turn (`picture_modes`)
                    "turn_ended": ends_turn(game, turn_player_before),
                },
            )
        ]
        awaited = game.awaiting
        if (
            self.notifier is not None
            and handover
            and awaited is not None
            and await self.prefs.wants_dm(awaited)
        ):
            owed.append(OwedMessage(DM, game.version, {"user": awaited}))
        return owed + await self.presence.heads_up_owed(game, turn_player_before)

    async def announce(self, outcome: Outcome) -> Outcome:
        """Deliver what the game owes now (this version's message last); the caller holds
        the game's lock. The outcome says whether it was shown, and if not, why."""
        try:
            report = await self.delivery.deliver_held(outcome.row, outcome.game)
        except Exception:
            # the move is saved and its message owed: the delivery task tries again
            log.exception(
                "game %s channel %s: delivering version %s failed",
                outcome.row.id,
                outcome.row.play_channel_id,
                outcome.version,
            )
            report = Report(outcome.row)
        outcome = self.reported(outcome, report)
        await self.hooks.announced(outcome)
        if outcome.row.status not in OPEN_STATUSES:
            await self.hooks.game_over(outcome.row)
        return outcome

    @staticmethod
    def reported(outcome: Outcome, report: Report) -> Outcome:
        """`outcome` as its delivery went: shown (where, with what left out) or not (why)."""
        posted: Posted | None = report.posted.get(outcome.version)
        if posted is None:
            problem = report.problem.words if report.problem is not None else ""
            return replace(
                outcome,
                row=report.row,
                announced=False,
                problem=problem or NOT_POSTED_YET.id,
                problem_words=report.problem if problem else None,
            )
        return replace(
            outcome,
            row=report.row,
            message_id=posted.message_id,
            announced=True,
            notes=posted.notes,
        )

    # ------------------------------------------------------------------ shown again

    async def repost(self, target: int | GameRow, *, ping: bool = True, note: str = "") -> Outcome:
        """Announce the current state again (a fresh prompt; the old one goes stale),
        after whatever the game still owes. `ping`: mention the awaited player (a prompt
        that was never shown); not when shown again on demand (`/montana board`). `note`:
        words said first (why)."""
        row = await self.games.row_of(target)
        async with self.games.lock(row.id):
            row = self.delivery.latest(row)
            game = self.games.game_of(row)
            text = words.describe(
                events_of(row.turn_events.get("header", []))
                + events_of(row.turn_events.get("own", [])),
                row.names,
                t=game_words(row),
            )
            text = f"{note}\n{text}" if note and text else note or text
            owed = [
                OwedMessage(POST, row.version, {"text": text, "handover": ping, "repost": True})
            ]
            try:
                await self.store.owe(row.id, owed)
            except StoreError as error:
                failure = error
                raise Refusal(
                    lambda t: t.gettext(
                        "I could not post the game just now ({why}); please try again in a moment.",
                        why=why_not_saved(failure, t),
                    )
                ) from error
            outcome = Outcome(
                row=row,
                game=game,
                actor=None,
                events=[],
                text=text,
                picture=b"",
                previous_message_id=row.message_id,
            )
            return await self.announce(outcome)

    async def log_page(
        self,
        game: int | GameRow,
        page: int,
        per_page: int = 20,
        t: Translator | None = None,
        *,
        typed: bool = False,
    ) -> tuple[list[str], int]:
        """Lines of the move log (notation) for `page` (1 = the latest) and the page
        count; a page that does not exist is the nearest one, or refused if `typed`
        (`pages.page_within`)."""
        row = await self.games.row_of(game)
        game_id = row.id
        total = await self.store.move_count(game_id)
        pages = max(1, -(-total // per_page))
        page = page_within(page, pages, typed=typed)
        offset = max(0, total - page * per_page)
        limit = total - (page - 1) * per_page - offset
        moves = await self.store.moves(game_id, offset=offset, limit=max(limit, 0))
        names = row.names if t is None else words.names_worded(row.names, t)
        lines = words.log_lines(((m.version, m.player, m.notation) for m in moves), names)
        return lines, pages


__all__ = ["AI_PLAYS", "AI_PLAYS_NOTE", "NO_BOARD", "Announcing"]
