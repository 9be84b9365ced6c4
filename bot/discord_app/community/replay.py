"""`/montana game replay`: a game played again, as an animated picture or step by step.

- `/montana game replay [turns: FROM-TO]` (and the **Replay** button under the end of a
  game and on each line of `/montana game history`): the deferred answer says how far
  the drawing is ("drawing the replay… 40 %"), then becomes the GIF, for the table to
  see. A second request for the same replay while it is drawn waits for that drawing.
  Nothing public repeats on demand (issue 21.2): a replay is posted for everyone once
  per game state and part of the game (`core.repeats.ReplayPosts`); asked again, it is
  linked to the asker alone, and someone not playing gets the replay for them alone.
- `/montana game replay step:True` (or the **Turn by turn** button beside Replay under
  the end of a game): only the asker sees the picture of turn 1, with ⏮ ◀ ▶ ⏭ and a "go
  to turn" select; each press shows that turn and what happened in it in words, in the
  asker's language.

Components (restart-proof `DynamicItem`s, the game read from the store at each press):
`rp:<game>` the Replay button, `rv:<game>` Turn by turn, `rs:<game>:<state>:<turn>:<tag>`
a step button (tag f, p, n or l: first, previous, next, last), `rt:<game>:<state>` the
select. `<state>` is the game's version and undo epoch when the view was drawn: after an
undo the turns may have changed, and the press says so rather than showing another
game's turn. Every press goes through `guard.run_press`, which checks that the
pressed message offers it: Replay under a game's end or on one's own history answer,
Turn by turn under a game's end, the steps on one's own step view.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord import app_commands

from bot.core.community.replays import Replays, StepPicture, turn_choices
from bot.core.community.turn_ranges import read_turns
from bot.core.play.repeats import PostedReplay, ReplayPost
from bot.core.play.service import GameService, Refusal
from bot.core.server.limits import DEFAULT_LIMITS
from bot.core.store import GameRow
from bot.core.wording import words
from bot.discord_app.components import (
    STATE,
    Components,
    DynamicItems,
    bot_of,
    epoch_of,
    game_t,
    picture_file,
    reply,
    service_of,
    state_key,
    user_language,
    user_t,
)
from bot.discord_app.delivery.notify import message_link
from bot.discord_app.group import channel_id_of, game_group, tracked
from bot.discord_app.guard import REPLAY_OFFER, STEP_OFFER, TURN_BY_TURN_OFFER, run_press
from i18n import Translator, translatable
from render.replay import Replay, turn_count
from rules import Game

log = logging.getLogger(__name__)

GIF_NAME = "montana-replay.gif"
STEP_NAME = "montana-turn.png"
PROGRESS_STEP = 0.1
"""The progress message is edited when the drawing has gone this much further."""


def replays_of(interaction: discord.Interaction[Any]) -> Replays:
    return bot_of(interaction).replays


def count_asked(interaction: discord.Interaction[Any]) -> None:
    """Count one replay or step asked for by the member (issue 35.4); past their limit
    (`limits.PictureRate`), the refusal saying how long to wait, before anything is drawn."""
    over = bot_of(interaction).picture_rate.take(str(interaction.user.id), DEFAULT_LIMITS)
    if over is not None:
        raise Refusal(over.message, **over.fields)


NO_SUCH_TURN = translatable(
    "Game #{game} has no turn {turn}: its turns go from 0 (the setup) to {last}."
)


# ------------------------------------------------------------------ the animated replay


async def post_replay(
    interaction: discord.Interaction[Any], row: GameRow, turns: tuple[int, int] | None
) -> None:
    """Answer with the replay of `row`'s game (turns FROM-TO, None: all): for everyone
    to see when a player asks for it first at this state of the game; for the asker
    alone otherwise (issue 21.2, nothing public repeats on demand): a link to it when it
    was posted already (or is being posted), the GIF itself for someone not playing or
    who posted another part of the game at this state already."""
    game = GameService.game_of(row)
    part = turns or (0, turn_count(game))
    count_asked(interaction)
    posts = replays_of(interaction).posts
    user_id = str(interaction.user.id)
    playing = row.has_player(user_id)
    post: ReplayPost | None = posts.find(row, part)
    if playing and post is None and not posts.posted_by(row, user_id):
        post = posts.start(row, part, user_id)
        posted = None
        try:
            posted = await _answer_replay(interaction, row, game, turns, public=True)
        finally:
            post.set_result(posted)
        return
    t = user_t(interaction)
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
    if post is not None:
        # the drawing under way is shared: its progress is shown to this asker too
        language = game_t(row).language
        if not post.done() and await _drawn(interaction, row, game, turns, language, t) is None:
            return
        posted = await post
        if posted is not None:
            link = message_link(row.guild_id, posted.channel_id, posted.message_id)
            await interaction.edit_original_response(
                content=t.gettext(
                    "This replay was posted already for this point of the game; it is here: {link}",
                    link=link,
                ),
                attachments=[],
            )
            return
    if not playing:
        why = t.gettext("Only you see it: you are not playing in game #{game}.", game=row.id)
    elif posts.posted_by(row, user_id):
        why = t.gettext("Only you see it: you posted a replay of this point of the game already.")
    else:
        why = None  # the post it waited for failed
    await _answer_replay(interaction, row, game, turns, public=False, alone=why)


async def _drawn(
    interaction: discord.Interaction[Any],
    row: GameRow,
    game: Game,
    turns: tuple[int, int] | None,
    language: str,
    t: Translator,
) -> Replay | None:
    """The replay drawn in `language` (or the drawing under way awaited), its progress
    said in `t`'s by editing the deferred answer; None, said, when the part holds no
    turn."""
    shown = -1.0

    async def on_progress(part: float) -> None:
        nonlocal shown
        if part - shown < PROGRESS_STEP:
            return
        shown = part
        text = t.gettext("Drawing the replay… {percent} %", percent=round(part * 100))
        try:
            await interaction.edit_original_response(content=text)
        except discord.HTTPException as error:
            log.info("could not show the replay's progress: %s", error)

    await on_progress(0.0)
    try:
        return await replays_of(interaction).replay(
            row, game, turns=turns, language=language, on_progress=on_progress
        )
    except ValueError:
        await interaction.edit_original_response(
            content=t.gettext("That part of the game has no turn to show.")
        )
        return None


async def _answer_replay(
    interaction: discord.Interaction[Any],
    row: GameRow,
    game: Game,
    turns: tuple[int, int] | None,
    *,
    public: bool,
    alone: str | None = None,
) -> PostedReplay | None:
    """Draw the replay (deferring the answer, then saying the progress in it) and answer
    with the GIF: `public`, in the game's language, for everyone in the channel; else
    in the asker's, for them alone (`alone`: why, in a line under the caption). Where
    it was posted, when public."""
    t = game_t(row) if public else user_t(interaction)
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=not public, thinking=True)
    replay = await _drawn(interaction, row, game, turns, t.language, t)
    if replay is None:
        return None
    first, last = replay.turns
    caption = t.ngettext(
        "Replay of game #{game}, turns {first} to {last} ({n} picture).",
        "Replay of game #{game}, turns {first} to {last} ({n} pictures).",
        replay.frames,
        game=row.id,
        first=first,
        last=last,
    )
    if alone:
        caption += f"\n-# {alone}"
    message = await interaction.edit_original_response(
        content=caption, attachments=[picture_file(replay.gif, GIF_NAME)]
    )
    if not public or interaction.channel_id is None:
        return None
    return PostedReplay(interaction.channel_id, message.id)


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"rp:(?P<game>[0-9]{1,19})",
):
    def __init__(self, game_id: int, label: str = "·") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                emoji="🎞️",
                style=discord.ButtonStyle.secondary,
                custom_id=f"rp:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReplayButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def act(row: GameRow) -> None:
            await post_replay(interaction, row, None)

        await run_press(interaction, self.game_id, REPLAY_OFFER, act)


def replay_button(game_id: int, t: Translator, *, numbered: bool = False) -> ReplayButton:
    label = t.pgettext("button", "Replay")
    if numbered:
        label = t.pgettext("button", "Replay #{game}", game=game_id)
    return ReplayButton(game_id, label)


def replay_view(game_id: int, t: Translator) -> discord.ui.View:
    """Replay and Turn by turn (under the message that ends a game)."""
    view = Components()
    view.add_item(replay_button(game_id, t))
    view.add_item(StepsButton(game_id, t.pgettext("button", "Turn by turn")))
    return view


class StepsButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"rv:(?P<game>[0-9]{1,19})",
):
    """Opens the step view of a game (as {/game replay} ({/game replay:step=True})), for the
    presser alone."""

    def __init__(self, game_id: int, label: str = "·") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                emoji="⏯️",
                style=discord.ButtonStyle.secondary,
                custom_id=f"rv:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> StepsButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def act(row: GameRow) -> None:
            last = turn_count(GameService.game_of(row))
            await show_step(interaction, row, min(1, last), edit=False)

        await run_press(interaction, self.game_id, TURN_BY_TURN_OFFER, act)


# ------------------------------------------------------------------ step by step


def step_text(row: GameRow, step: StepPicture, t: Translator) -> str:
    """The words above a step picture: which turn of how many, whose, what happened."""
    frame = step.frame
    names = words.names_worded(row.seat_names, t)
    if frame.player is None:
        head = t.gettext("**Setup** (turn 0 of {last})", last=step.last)
    else:
        head = t.gettext(
            "**Turn {number} of {last}**: {player}",
            number=frame.turn,
            last=step.last,
            player=names.get(frame.player, frame.player),
        )
    happened = words.describe(step.events, names, t=t) if step.events else ""
    return f"{head}\n{happened}"[:2000]


def step_view(row: GameRow, step: StepPicture, t: Translator) -> discord.ui.View:
    state = state_key(row.version, row.undo_epoch)
    turn, last = step.frame.turn, step.last
    view = Components()
    for tag, label, target in (
        ("f", "⏮", 0),
        ("p", "◀", turn - 1),
        ("n", "▶", turn + 1),
        ("l", "⏭", last),
    ):
        clamped = min(max(target, 0), last)
        view.add_item(StepButton(row.id, state, str(clamped), tag, label, disabled=clamped == turn))
    options = [
        discord.SelectOption(
            label=t.gettext("Setup") if choice == 0 else t.gettext("Turn {n}", n=choice),
            value=str(choice),
            default=choice == turn,
        )
        for choice in turn_choices(turn, last)
    ]
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=f"rt:{row.id}:{state}",
        placeholder=t.gettext("Go to turn…"),
        options=options,
        row=1,
    )
    view.add_item(TurnSelect(row.id, state, select))
    return view


async def show_step(
    interaction: discord.Interaction[Any], row: GameRow, turn: int, *, edit: bool
) -> None:
    """The picture of turn `turn` with its words and the step buttons, for the asker;
    a turn the game does not have, or a member past their limit, is refused before
    anything is drawn."""
    game = GameService.game_of(row)
    last = turn_count(game)
    if not 0 <= turn <= last:
        raise Refusal(NO_SUCH_TURN, game=row.id, turn=turn, last=last)
    count_asked(interaction)
    t = user_t(interaction)
    step = await replays_of(interaction).step(row, game, turn, user_language(interaction))
    file = picture_file(step.png, STEP_NAME)
    text, view = step_text(row, step, t), step_view(row, step, t)
    if edit:
        await interaction.response.edit_message(content=text, attachments=[file], view=view)
    else:
        await interaction.response.send_message(text, file=file, view=view, ephemeral=True)


async def _pressed(
    interaction: discord.Interaction[Any], game_id: int, epoch: int, turn: str
) -> None:
    async def act(row: GameRow) -> None:
        if row.undo_epoch != epoch:
            raise Refusal(
                translatable(
                    "Moves were taken back since this replay was opened, so its turns "
                    "have changed: open it again with {/game replay} "
                    "({/game replay:step=True})."
                )
            )
        await show_step(interaction, row, int(turn), edit=True)

    await run_press(interaction, game_id, STEP_OFFER, act)


class StepButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"rs:(?P<game>[0-9]{1,19}):" + STATE + r":(?P<turn>[0-9]{1,6}):(?P<tag>[fpnl])",
):
    def __init__(
        self,
        game_id: int,
        state: str,
        turn: str,
        tag: str,
        label: str = "·",
        *,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"rs:{game_id}:{state}:{turn}:{tag}",
                disabled=disabled,
            )
        )
        self.game_id = game_id
        self.epoch = int(state.partition(".")[2] or 0)
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> StepButton:
        state = state_key(int(match["version"]), epoch_of(match))
        return cls(int(match["game"]), state, match["turn"], match["tag"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _pressed(interaction, self.game_id, self.epoch, self.turn)


class TurnSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"rt:(?P<game>[0-9]{1,19}):" + STATE,
):
    def __init__(
        self, game_id: int, state: str, select: discord.ui.Select[discord.ui.View]
    ) -> None:
        super().__init__(select)
        self.game_id = game_id
        self.epoch = int(state.partition(".")[2] or 0)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> TurnSelect:
        state = state_key(int(match["version"]), epoch_of(match))
        select = item if isinstance(item, discord.ui.Select) else discord.ui.Select()
        return cls(int(match["game"]), state, select)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values if isinstance(self.item, discord.ui.Select) else []
        if not values or not values[0].isdigit():
            await reply(interaction, user_t(interaction).gettext("Pick one of the options."))
            return
        await _pressed(interaction, self.game_id, self.epoch, values[0])


# ------------------------------------------------------------------ the command


@game_group.command(
    name="replay", description="Watch the game again: an animated picture, or turn by turn"
)
@app_commands.describe(
    turns="A part of the game: FROM-TO, e.g. 10-20 (0 is the setup)",
    step="Step through the turns yourself (only you see it)",
)
@tracked
async def replay_command(
    interaction: discord.Interaction[Any], turns: str | None = None, step: bool = False
) -> None:
    service = service_of(interaction)
    row = await service.latest_here(channel_id_of(interaction))
    game = GameService.game_of(row)
    last = turn_count(game)
    chosen = read_turns(turns, last)
    if step:
        await show_step(interaction, row, chosen[0] if chosen else min(1, last), edit=False)
        return
    await post_replay(interaction, row, chosen)


DYNAMIC_ITEMS: DynamicItems = (ReplayButton, StepsButton, StepButton, TurnSelect)

__all__ = [
    "DYNAMIC_ITEMS",
    "ReplayButton",
    "StepButton",
    "StepsButton",
    "TurnSelect",
    "post_replay",
    "read_turns",
    "replay_button",
    "replay_view",
    "step_text",
]
