"""Posting each move's message in the game's channel or thread, and what to do when
Discord refuses.

One message per move, a card (`bot.discord_app.cards`, in the awaited player's colour):
what happened in words, the picture, the mention of whoever must act now (pinged only
when the turn passed to them) and their buttons. The
previous prompt's buttons are removed, so only the current one is pressable. An older
move whose message was still owed (`Outcome.prompt` False) is posted in words alone.

The core keeps every message owed until this module reports it delivered
(`bot.core.delivery.outbox`); here Discord's answers are told apart and worked around:

* no Attach Files where the game plays: the message goes without its picture, and
  says why;
* no Send Messages in the game's thread: the game goes on in its channel (said there);
  refused there too: `Blocked`, naming the missing permission;
* the game's thread was deleted: a new thread is opened in its channel and the game
  goes on there;
* the thread auto-archived: its prompt cannot be edited (50083), so a new message is
  posted (which unarchives the thread);
* 5xx, 429, timeouts: `TryAgain` (discord.py itself retries 500/502/504/524 first).

Every attempt at one message carries the same nonce with `enforce_nonce`, and a retry
first looks at the newest messages where the game plays, so a message Discord created
though its answer was lost (or the bot was killed before recording it) is not posted
twice. It recognises the message by its identity alone (`identity_mark`: the owed
message's id in the outbox, written invisibly at the end of its words: of the card's
last text display, a card having no content; `cards.words_of` reads them), never by the
words, which repeat all the time ("Ana passed."): Discord gives the nonce back only to
the request that sent it, never to a later read, and a picture's file name or the
buttons' ids are only on the prompt, so the words themselves carry the identity.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import aiohttp
import discord

import bot.discord_app.cards as cards
from bot.core.delivery.outbox import Blocked, CannotLook, Dropped, Outcome, Posted, Ticket
from bot.core.play import prompts
from bot.core.server.limits import all_seats_ai
from bot.core.store import PICTURES_ON_REQUEST, GameRow
from bot.core.wording import words
from bot.discord_app.components import (
    MISSING_PERMISSIONS,
    PICTURE_NAME,
    THREAD_ARCHIVED,
    UNKNOWN_CHANNEL,
    away_words,
    delivery_problem,
    game_t,
    games_with_live_choices,
    is_transient,
    picture_file,
    quiet_note,
    row_view,
)
from bot.discord_app.delivery.launch import with_launch_button
from bot.discord_app.delivery.picture_modes import with_board_button
from bot.discord_app.delivery.weblinks import OPEN_LIVE_BOARD, live_link, with_link
from i18n import Translator, translatable
from render.words import ENGLISH

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
LOOK_BACK = 100
"""Messages looked at before posting a message again that may have reached Discord,
oldest first from when it was owed (one request: Discord gives up to 100 at a time); an
earlier attempt follows the posts owed before it, which a long outage makes many."""
INVALID_FORM = 50035
"""Discord's "Invalid Form Body": what it answers an edit it will not make of a message."""
PROBE_SECONDS = 5.0
"""How long to wait for Discord's answer when asking whether it answers again (discord.py
retries some server errors itself, for longer)."""
NO_PICTURE = translatable(
    "(No picture: I may not attach files in <#{channel}>. A server admin can give me "
    "**Attach Files** there; {/board} shows the picture.)"
)
THREAD_GONE = translatable("(The game's thread was deleted, so the game goes on here.)")
THREAD_LOCKED = translatable(
    "the game's thread <#{thread}> is locked. A moderator can unlock it; then "
    "{/board} shows the game."
)
THREAD_REFUSED = translatable(
    "(I may not post in the game's thread <#{thread}> ({missing}), so the game goes on "
    "here in the channel.)"
)


def thread_name(row: GameRow) -> str:
    """The name of a game's thread: its players (the lobby names the thread it opens so,
    and renames it when the seats change)."""
    return ("Montana — " + ", ".join(s.name for s in row.players))[:100]


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """At most `limit` characters (one message): the end is kept (the prompt and any
    notes)."""
    return text if len(text) <= limit else "…" + text[-(limit - 1) :]


# ------------------------------------------------------------------ a message's identity

IDENTITY_DIGITS = ("\u200b", "\u200c")
"""Zero width space and zero width non-joiner, the binary digits 0 and 1 of an identity:
characters no client shows, that Discord keeps as they are (neither is whitespace, so
not trimmed), and that join nothing (a zero width joiner could glue emoji together)."""
IDENTITY_START = "\u200c\u200b\u200b\u200c"
"""Where an identity begins, after the last visible character of a message."""
_IDENTITY = re.compile("\u200c\u200b\u200b\u200c([\u200b\u200c]{1,64})\\Z")


def identity_mark(owed_id: int) -> str:
    """The invisible end of the message delivering outbox message `owed_id`."""
    bits = format(owed_id, "b")
    return IDENTITY_START + "".join(IDENTITY_DIGITS[bit == "1"] for bit in bits)


def identity_of(content: str) -> int | None:
    """The outbox message a message's words say they deliver (None: no identity)."""
    found = _IDENTITY.search(content)
    if found is None:
        return None
    return int("".join("1" if digit == IDENTITY_DIGITS[1] else "0" for digit in found[1]), 2)


def marked(content: str, ticket: Ticket | None) -> str:
    """`content` (cut to fit) ending with the identity of the message it delivers."""
    if ticket is None or not ticket.owed_id:
        return fit(content)
    mark = identity_mark(ticket.owed_id)
    return fit(content.rstrip(), MESSAGE_LIMIT - len(mark)) + mark


GameOverView = Callable[[int, Translator], discord.ui.View]
"""The components under the message that ends game `id`, in the table's words: given by
the feature that owns them (the client passes `community.replay.replay_view`: Replay and
Turn by turn), since a feature above delivery may import it, never the reverse."""


PICTURE_ALT = translatable(
    "The game of Montana after move {version}: the landscape, each player's board and the wheel."
)
"""The picture's alt text (what a screen reader says of it), in the game's language."""


def compose(outcome: Outcome, game_over: GameOverView | None = None) -> cards.CardParts:
    """The parts of the card announcing `outcome` (`game_over`: the components under the
    message that ends the game, besides the Board button): the header says whom the
    game awaits and for what (or the results), the words what happened, the notes the
    small print; the card's accent is the awaited player's colour."""
    game = outcome.game
    names = outcome.row.names
    t = game_t(outcome.row)
    parts = cards.CardParts(words=outcome.text)
    parts.alt = t.translate(PICTURE_ALT, version=outcome.row.version)
    parts.colour = cards.player_colour(game, game.awaiting)
    if not outcome.prompt:
        parts.colour = cards.player_colour(game, outcome.actor)
        return parts  # an older move's words: the prompt is on the newest message
    if game.is_over or outcome.row.status != "active":
        parts.header = words.results(game, names, t)
        ended = game_over(outcome.row.id, t) if game_over is not None else None
        parts.rows = with_board_button(ended, outcome.row, t)
        return parts
    row = outcome.row
    # the awaited player's settlement first, the icon their seat has in the picture
    icon = cards.player_icon(game, game.awaiting)
    line = words.prompt_line(
        game, lambda pid: names.get(pid, pid) if row.ai_plays(pid) else mention(pid), t
    )
    parts.header = f"{icon} {line}" if icon else line
    notes = parts.notes
    away = outcome.away.get(game.awaiting or "")
    if away is not None:
        notes.append(away_words(row, away.user_id, away, t))
    quiet = outcome.quiet.get(game.awaiting or "")
    if quiet is not None:
        notes.append(
            t.gettext(
                "{who} is in their quiet hours ({quiet}): I will mention them then.",
                who=names.get(game.awaiting or "", ""),
                quiet=quiet_note(quiet, t),
            )
        )
    awaited = game.awaiting
    ai_turn = awaited is not None and row.ai_plays(awaited)
    if awaited is not None and ai_turn and not all_seats_ai(row):  # else: paused
        notes.append(t.gettext("{who} moves in a few seconds.", who=names.get(awaited, awaited)))
    panel = prompts.public_panel(game, names, t, hint=not ai_turn)
    if panel.hint:
        notes.append(panel.hint)
    parts.rows = with_board_button(row_view(outcome.row, panel), row, t)
    return parts


def card_of(
    parts: cards.CardParts, notes: list[str], ticket: Ticket | None, picture: str | None
) -> cards.Card:
    """The card of `parts` with the delivery's `notes`, showing the attached `picture`
    (its file name; None: none), ending with the ticket's identity."""
    mark = identity_mark(ticket.owed_id) if ticket is not None and ticket.owed_id else ""
    shown = replace(parts, notes=[*parts.notes, *notes], picture=picture)
    return cards.build(shown, mark)


BLIND_AFTER = 600.0
"""Seconds a retry waits (backing off) while Discord fails to show where the game plays,
before it posts without having looked whether an earlier attempt went out: with its
identity, so that a later look finds and deletes a duplicate (the core's `RECHECK`).
Counted from the first failed look (`Ticket.looks_failing_since`, kept in the outbox by
`CannotLook`), also across restarts."""


async def carrying(
    client: discord.Client, channel_id: int, guild_id: int | None, owed_id: int, since: datetime
) -> list[discord.Message]:
    """The bot's messages in `channel_id` carrying outbox message `owed_id`'s identity
    (`marked`), posted since `since`, oldest first; Discord's failure raised as it is."""
    channel = client.get_partial_messageable(channel_id, guild_id=guild_id)
    after = discord.Object(discord.utils.time_snowflake(since - timedelta(seconds=5)))
    me = client.user
    found = []
    async for message in channel.history(limit=LOOK_BACK, after=after):
        mine = me is not None and message.author.id == me.id
        if mine and identity_of(cards.words_of(message)) == owed_id:
            found.append(message)
    return found


async def look_for_posted(
    client: discord.Client, row: GameRow, ticket: Ticket | None
) -> tuple[discord.Message | None, bool]:
    """On a retry (`ticket.retry`): the bot's message carrying the ticket's identity that
    an earlier attempt posted where the game plays, if it went out; and whether it could
    look (False: looking failed for `BLIND_AFTER` seconds, or was refused: post anyway).
    While Discord fails to show the messages for less long, `CannotLook` is raised: the
    post waits."""
    if ticket is None or not ticket.retry or not ticket.owed_id:
        return None, True
    try:
        found = await carrying(
            client, row.play_channel_id, row.guild_id, ticket.owed_id, ticket.since
        )
    except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as error:
        if not is_transient(error):
            # refused (no right to read the history, say): waiting would not help; the
            # post goes out, and the recheck it owes removes a duplicate once a look can
            # be made, or the post itself says how it is refused
            log.info("may not look for an earlier attempt; posting, to check later: %s", error)
            return None, False
        now = datetime.now(UTC)
        waited = (now - (ticket.looks_failing_since or now)).total_seconds()
        if waited < BLIND_AFTER:
            log.info(
                "could not look for an earlier attempt (waiting, %.0f s so far): %s", waited, error
            )
            # transient: the refusal's words are never used
            raise CannotLook.of(delivery_problem(error, "")) from error
        log.warning(
            "could not look for an earlier attempt at %s for %.0f s; posting without",
            ticket.key,
            waited,
        )
        return None, False
    if found:
        log.info(
            "%s (version %s) was posted already (message %s)",
            ticket.key,
            ticket.version,
            found[0].id,
        )
        return found[0], True
    return None, True


async def find_posted(
    client: discord.Client, row: GameRow, ticket: Ticket | None
) -> discord.Message | None:
    """On a retry (`ticket.retry`): the bot's message carrying the ticket's identity
    (`marked`) that an earlier attempt posted where the game plays, if it went out
    (`look_for_posted`: while Discord fails to show the messages, raises)."""
    message, _ = await look_for_posted(client, row, ticket)
    return message


class DiscordAnnouncer:
    """Posts each move's message (`bot.core.delivery.outbox`'s announcer): `game_over` gives
    the components under the message that ends a game (`GameOverView`)."""

    def __init__(self, client: discord.Client, *, game_over: GameOverView | None = None) -> None:
        self.client = client
        self.game_over = game_over
        self.shown: cards.Shown = {}
        """The cards posted lately, without their rows (`cards.take_rows_off`)."""

    async def _with_live_link(
        self, row: GameRow, view: discord.ui.View | None
    ) -> discord.ui.View | None:
        """The prompt's view with "Open the live board" when `MONTANA_WEB_URL` is set,
        and "Play on the board" when the Activity is on (`MONTANA_ACTIVITY`)."""
        settings = getattr(self.client, "settings", None)
        if getattr(settings, "activity", False):
            view = with_launch_button(view, row, game_t(row))
        store = getattr(self.client, "store", None)
        web_url = getattr(settings, "web_url", None)
        if web_url is None or store is None:
            return view
        url = await live_link(store, web_url, row)
        if url is None:
            return view
        return with_link(view, game_t(row).translate(OPEN_LIVE_BOARD), url)

    async def probe(self, row: GameRow) -> bool:
        """Whether Discord answers a read of the game's channel or thread again (posts
        there failed for now): the core then tries them at once (`Prober`)."""
        try:
            await asyncio.wait_for(self.client.fetch_channel(row.play_channel_id), PROBE_SECONDS)
        except (discord.DiscordServerError, discord.RateLimited, OSError, TimeoutError):
            return False
        except discord.HTTPException:
            return True  # it answers, refusing: the next attempt says how
        return True

    async def announce(self, outcome: Outcome) -> Posted:
        row = outcome.row
        try:
            return await self._announce(outcome)
        except (discord.DiscordException, OSError, TimeoutError) as error:
            raise delivery_problem(error, self.refused(row)) from error

    async def _announce(self, outcome: Outcome) -> Posted:
        row = outcome.row
        parts = compose(outcome, self.game_over)
        if outcome.prompt:
            parts.rows = await self._with_live_link(row, parts.rows)
        if outcome.in_place and outcome.previous_message_id is not None:
            edited = await self._edit_prompt(outcome, parts)
            if edited is not None:
                return edited
        message, looked = await look_for_posted(self.client, row, outcome.ticket)
        place, notes = row.play_channel_id, list[str]()
        if message is None:
            message, place, notes = await self._post(outcome, parts)
        buttons_left = False
        if not outcome.prompt and cards.has_rows(message):
            # the nonce found an earlier attempt that went out as the prompt back then
            try:
                await cards.take_rows_off(self.client, message.channel.id, message.id, self.shown)
            except discord.NotFound:
                pass  # gone: no buttons left
            except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
                log.info("could not take the buttons off an earlier attempt (owed): %s", error)
                buttons_left = True
        # the previous prompt's buttons: owed by the core once this one is recorded
        # (`clear`), in the channel or thread that prompt was posted in
        moved_to = place if place != row.play_channel_id else None
        return Posted(
            message.id,
            moved_to=moved_to,
            notes=tuple(notes),
            unchecked=not looked,
            buttons_left=buttons_left,
        )

    async def carrying(
        self, row: GameRow, channel_id: int, owed_id: int, since: datetime
    ) -> list[int]:
        """The bot's messages in `channel_id` delivering outbox message `owed_id`, oldest
        first (`Rechecker`)."""
        try:
            found = await carrying(self.client, channel_id, row.guild_id, owed_id, since)
        except (discord.DiscordException, OSError, TimeoutError) as error:
            raise delivery_problem(error, self.refused(row)) from error
        return sorted(message.id for message in found)

    async def live_buttons(
        self, guild_id: int | None, channel_id: int, limit: int
    ) -> dict[int, list[int]]:
        """Among the newest `limit` messages of `channel_id`, the bot's own that carry
        live choices of a game: game id -> message ids (`live.LiveButtons`)."""
        channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
        me = self.client.user
        found: dict[int, list[int]] = {}
        try:
            async for message in channel.history(limit=limit):
                if me is None or message.author.id != me.id:
                    continue
                for game_id in sorted(games_with_live_choices(message)):
                    found.setdefault(game_id, []).append(message.id)
                    cards.remember_read(self.shown, message)  # to clear it without a read
        except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as error:
            raise delivery_problem(error, f"cannot read <#{channel_id}>") from error
        return found

    async def delete(self, row: GameRow, channel_id: int, message_id: int) -> None:
        """Delete the bot's message (`Rechecker`); gone already: done."""
        channel = self.client.get_partial_messageable(channel_id, guild_id=row.guild_id)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.NotFound:
            return
        except (discord.DiscordException, OSError, TimeoutError) as error:
            raise delivery_problem(error, self.refused(row)) from error

    async def clear(self, row: GameRow, channel_id: int, message_id: int) -> None:
        """Take the buttons off a stale prompt, in the channel or thread it was posted in
        (`Clearer`): given up (`Dropped`) only when Discord says it is not there."""
        try:
            try:
                await cards.take_rows_off(self.client, channel_id, message_id, self.shown)
            except discord.HTTPException as error:
                # in a thread Discord archived (a thread the game left, quiet for days):
                # taken out of the archive, as a post would, then cleared
                if error.code != THREAD_ARCHIVED or not await self._unarchived(channel_id):
                    raise
                await cards.take_rows_off(self.client, channel_id, message_id, self.shown)
        except discord.NotFound as error:
            log.info("the old prompt %s is gone from %s: %s", message_id, channel_id, error)
            raise Dropped("the old prompt is gone") from error
        except discord.HTTPException as error:
            if error.code == THREAD_ARCHIVED:  # locked by a moderator: presses are refused
                log.info("the old prompt %s is in a locked thread %s", message_id, channel_id)
                raise Dropped("the old prompt is in a locked thread") from error
            raise delivery_problem(error, self.refused(row)) from error
        except (discord.DiscordException, OSError, TimeoutError) as error:
            raise delivery_problem(error, self.refused(row)) from error

    def _has_picture(self, row: GameRow, message_id: int) -> bool:
        """Whether the prompt `message_id`, edited without a new picture, shows one: as
        last sent, or else as the game's pictures mode posts a turn's first message."""
        known = self.shown.get(message_id)
        if known is not None:
            return cards.shows_picture(known, PICTURE_NAME)
        return row.pictures != PICTURES_ON_REQUEST

    async def _unarchived(self, thread_id: int) -> bool:
        """Take a thread out of Discord's archive; whether that was done."""
        try:
            await self.client.http.edit_channel(thread_id, archived=False)
        except discord.HTTPException as error:
            log.info("could not take thread %s out of the archive: %s", thread_id, error)
            return False
        return True

    # ---- editing the same player's prompt

    async def _edit_prompt(self, outcome: Outcome, parts: cards.CardParts) -> Posted | None:
        """Update the prompt in place; None when a new message must be posted instead."""
        row = outcome.row
        assert outcome.previous_message_id is not None
        channel = self.client.get_partial_messageable(row.play_channel_id, guild_id=row.guild_id)
        message = channel.get_partial_message(outcome.previous_message_id)
        notes: list[str] = []
        picture = outcome.picture
        while True:
            # a refused picture also takes the outdated one off the message
            attachments = [picture_file(picture)] if picture else [] if notes else None
            # no new picture: the one the message has stays (the start of the turn's)
            kept = attachments is None and self._has_picture(row, message.id)
            card = card_of(parts, notes, outcome.ticket, PICTURE_NAME if picture or kept else None)
            try:
                await message.edit(
                    attachments=discord.utils.MISSING if attachments is None else attachments,
                    view=card,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                cards.remember(self.shown, message.id, card)
                return Posted(message.id, notes=tuple(notes))
            except discord.NotFound:
                log.warning("the prompt message is gone; posting a new one")
                return None
            except discord.HTTPException as error:
                if error.code == THREAD_ARCHIVED:
                    # a new message is accepted, and unarchives the thread
                    log.info("the game's thread is archived; posting a new prompt")
                    return None
                if error.code == INVALID_FORM:
                    # a prompt posted in the classic layout (before cards) cannot become
                    # a card while it keeps its content: a new card is posted instead
                    log.info("the prompt cannot be edited into a card (%s); posting", error)
                    return None
                if error.code != MISSING_PERMISSIONS or not picture:
                    raise
                picture = b""
                notes.append(game_t(row).translate(NO_PICTURE, channel=row.play_channel_id))

    # ---- posting a new message

    async def _post(
        self, outcome: Outcome, parts: cards.CardParts
    ) -> tuple[discord.Message, int, list[str]]:
        """Post where the game plays, or where it can go on; the message, where it went,
        and what it had to say about that."""
        row = outcome.row
        place = row.play_channel_id
        moved: list[str] = []
        opened_thread = False
        while True:
            try:
                message, notes = await self._post_in(place, outcome, parts, moved)
                return message, place, moved + notes
            except discord.NotFound as error:
                if error.code != UNKNOWN_CHANNEL or place == row.channel_id or opened_thread:
                    raise
                opened_thread = True
                log.warning("the game's thread %s is gone; opening a new one", place)
                place = await self._open_thread(row) or row.channel_id
                moved = [game_t(row).translate(THREAD_GONE)]
            except discord.Forbidden:
                if place == row.channel_id:
                    raise
                log.warning("may not post in the game's thread %s; going on in the channel", place)
                moved = [
                    game_t(row).translate(
                        THREAD_REFUSED, thread=place, missing=self.missing(place, True, game_t(row))
                    )
                ]
                place = row.channel_id
            except discord.HTTPException as error:
                if error.code == THREAD_ARCHIVED:  # locked by a moderator: theirs to undo
                    raise Blocked(THREAD_LOCKED, fields={"thread": place}) from error
                raise

    async def _post_in(
        self,
        place: int,
        outcome: Outcome,
        parts: cards.CardParts,
        notes: list[str],
    ) -> tuple[discord.Message, list[str]]:
        """Post in one channel or thread, without the picture if files are refused there."""
        row = outcome.row
        channel = self.client.get_partial_messageable(place, guild_id=row.guild_id)
        awaited = outcome.awaited
        ping = (
            [cards.user_ref(awaited)]
            if awaited
            and outcome.awaited_changed
            and outcome.prompt
            and not row.ai_plays(awaited)
            and awaited not in outcome.quiet  # their quiet hours: a notice is owed for later
            else []
        )
        nonce = outcome.ticket.key if outcome.ticket is not None else discord.utils.MISSING
        picture = outcome.picture
        added: list[str] = []
        while True:
            card = card_of(parts, notes + added, outcome.ticket, PICTURE_NAME if picture else None)
            try:
                message = await channel.send(
                    file=picture_file(picture) if picture else discord.utils.MISSING,
                    allowed_mentions=discord.AllowedMentions(
                        everyone=False, roles=False, users=ping, replied_user=False
                    ),
                    view=card,
                    nonce=nonce,
                )
                cards.remember(self.shown, message.id, card)
                return message, added
            except discord.Forbidden as error:
                if error.code != MISSING_PERMISSIONS or not picture:
                    raise
                picture = b""
                added = [game_t(row).translate(NO_PICTURE, channel=place)]

    async def _open_thread(self, row: GameRow) -> int | None:
        """A new thread for the game in its channel (None when that is refused)."""
        try:
            parent = self.client.get_channel(row.channel_id) or await self.client.fetch_channel(
                row.channel_id
            )
            if not isinstance(parent, discord.TextChannel):
                return None
            thread = await parent.create_thread(
                name=thread_name(row),
                auto_archive_duration=10080,
                type=discord.ChannelType.public_thread,
            )
        except discord.HTTPException as error:
            log.warning("could not open a new thread: %s", error)
            return None
        return thread.id

    # ---- saying what is refused

    def missing(self, place: int, picture: bool, t: Translator = ENGLISH) -> str:
        """The permissions the bot lacks in `place`, as Discord names them."""
        channel = self.client.get_channel(place)
        thread = isinstance(channel, discord.Thread)
        needed = {
            "view_channel": "View Channel",
            "send_messages_in_threads" if thread else "send_messages": (
                "Send Messages in Threads" if thread else "Send Messages"
            ),
        }
        if picture:
            needed["attach_files"] = "Attach Files"
        lacking: list[str] = []
        if isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            with contextlib.suppress(discord.ClientException):
                allowed = channel.permissions_for(channel.guild.me)
                lacking = [name for flag, name in needed.items() if not getattr(allowed, flag)]
        if not lacking:  # not known here: name what posting needs
            lacking = list(needed.values())[1:2]
        return t.gettext(
            "I lack {permissions} there", permissions=words.listed([f"**{n}**" for n in lacking], t)
        )

    def refused(self, row: GameRow) -> Callable[[Translator], str]:
        """Why nothing can be posted for the game, for the players and admins (a wording:
        each reader gets it in their language)."""
        places = [row.channel_id]
        if row.thread_id is not None and row.thread_id != row.channel_id:
            places.insert(0, row.thread_id)

        def said(t: Translator) -> str:
            where = [f"<#{place}> ({self.missing(place, False, t)})" for place in places]
            if len(where) == 1:
                return t.gettext(
                    "I cannot post in {where}. A server admin can grant it; then "
                    "{/board} shows the game.",
                    where=where[0],
                )
            return t.gettext(
                "I cannot post in {thread} nor in {channel}. A server admin can grant it; "
                "then {/board} shows the game.",
                thread=where[0],
                channel=where[1],
            )

        return said


__all__ = [
    "DiscordAnnouncer",
    "GameOverView",
    "carrying",
    "compose",
    "find_posted",
    "identity_mark",
    "identity_of",
    "look_for_posted",
    "marked",
    "mention",
    "thread_name",
]
