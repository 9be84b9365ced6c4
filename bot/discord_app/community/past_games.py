"""The past games of a channel: `/montana game history` lists the finished, ended and
abandoned games of the channel (or thread) with their date, players and winner, and a
Replay button for each that was played (`replay.ReplayButton`).
"""

from __future__ import annotations

import json
from typing import Any

import discord

from bot.core.clock.pace import pace_label
from bot.core.play.service import GameService
from bot.core.store import ENDED, FINISHED, GameRow
from bot.core.wording import words
from bot.discord_app.community.replay import replay_button
from bot.discord_app.components import Components, DynamicItems, reply, service_of, user_t
from bot.discord_app.group import game_group, tracked
from i18n import Translator

HISTORY_LIMIT = 15
MAX_BUTTONS = 25
"""Discord's limit of components on a message (5 rows of 5): a Replay button per line."""


def _winners(names: dict[str, str], ranking: list[dict[str, Any]], t: Translator) -> str:
    first = [names.get(s["player"], s["player"]) for s in ranking if s["place"] == 1]
    return words.listed(first, t) or t.gettext("nobody")


async def history_lines(service: GameService, channel_id: int, t: Translator) -> list[str]:
    """One line per past game of this channel (or thread), newest first."""
    return [line for _, line in await history_entries(service, channel_id, t)]


async def history_entries(
    service: GameService, channel_id: int, t: Translator
) -> list[tuple[GameRow, str]]:
    """Each past game of this channel (or thread), newest first, and its line."""
    lines = []
    for row in await service.store.past_games(channel_id, HISTORY_LIMIT):
        names = words.names_worded(row.names, t)
        players = ", ".join(words.forgotten_worded(s.name, t) for s in row.players)
        date = row.updated_at[:10]
        status = row.status
        if status == FINISHED and row.state_json is not None:
            result = GameService.game_of(row).result()
            ranking = [{"player": s.player, "place": s.place} for s in result.ranking]
            outcome = t.gettext("won by {who}", who=_winners(names, ranking, t))
        elif status == ENDED and row.result_json:
            ranking = json.loads(row.result_json).get("ranking", [])
            outcome = t.gettext(
                "ended early by a vote, {who} leading", who=_winners(names, ranking, t)
            )
        else:
            outcome = t.gettext("abandoned")
        pace = pace_label(row.turn_seconds, row.auction_seconds, t)
        lines.append((row, f"#{row.id} · {date} · {players} · {pace} · {outcome}"))
    return lines


@game_group.command(name="history", description="The past games of this channel, with winners")
@tracked
async def history_command(interaction: discord.Interaction[Any]) -> None:
    service = service_of(interaction)
    t = user_t(interaction)
    if interaction.channel_id is None:
        await reply(interaction, t.gettext("Use this command in a server channel."))
        return
    entries = await history_entries(service, interaction.channel_id, t)
    lines = [line for _, line in entries]
    if not lines:
        await reply(
            interaction,
            t.gettext("No finished game here yet. Start one with {/game new}."),
        )
        return
    text = t.gettext("**Past games here** (newest first):")
    view = Components()
    for shown, (row, line) in enumerate(entries):
        if len(text) + len(line) + 40 > 2000:
            text += "\n" + t.ngettext("… and {n} older.", "… and {n} older.", len(lines) - shown)
            break
        text += "\n" + line
        if row.state_json is not None and len(view.children) < MAX_BUTTONS:
            view.add_item(replay_button(row.id, t, numbered=True))
    await reply(interaction, text, **({"view": view} if view.children else {}))


DYNAMIC_ITEMS: DynamicItems = ()  # the Replay buttons are `replay`'s

__all__ = ["DYNAMIC_ITEMS", "history_entries", "history_lines"]
