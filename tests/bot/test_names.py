"""Issue 21.7: one name-cleaning for every name the bot writes.

Players whose display names carry mentions, masked and bare links and layout markdown
play through every kind of message that names people — the lobby's answers, the
settings, the prompts, the log page, the status, an away notice, a takeover vote, DMs,
the abandon notice, the history, the thread's name and the pictures' names — and none
of it reaches any of them: each is named by its cleaned form only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from bot.core.delivery.pictures import BlankRenderer
from bot.core.runtime.names import clean_name
from rules import Game
from tests.bot.driver import Table, make_bot, original, to_main_decision
from tests.bot.fakediscord import FakeDiscord

HOSTILE = {
    "ana": "[Ana](https://evil.example/a) <@&777> @everyone",
    "ben": "# Ben\n> quote <#888> www.evil.example/b",
    "cleo": "- ```Cleo``` @here <@1234> https://evil.example/c",
}
LEAKS = ("evil.example", "@&777", "#888", "@1234", "@everyone", "@here", "```cleo", "](")
"""What no message may carry (case aside): the names' links and mention syntax."""
LAYOUT = re.compile(r"^\s*(?:#{1,3}\s|>|[-*+]\s+`)", re.MULTILINE)
"""A line a name could have turned into a heading, a block quote or a code list item."""


class NamesSeen(BlankRenderer):
    """Blank pictures; remembers every name the pictures would have drawn."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def game_picture(
        self,
        game: Game,
        *,
        highlight: str | None,
        names: Mapping[str, str],
        seat_notes: Mapping[str, str] | None = None,
        language: str = "en",
    ) -> bytes:
        self.names.update(names.values())
        return super().game_picture(
            game, highlight=highlight, names=names, seat_notes=seat_notes, language=language
        )

    def board_picture(
        self, game: Game, player_id: str, *, names: Mapping[str, str], language: str = "en"
    ) -> bytes:
        self.names.update(names.values())
        return super().board_picture(game, player_id, names=names, language=language)


def test_the_cleaning_strips_mentions_links_and_layout_and_keeps_the_name() -> None:
    assert clean_name("[Ana](https://evil.example/a) <@&777> @everyone") == "Ana"
    assert clean_name("# Ben\n> quote <#888> www.evil.example/b") == "Ben quote"
    assert clean_name("- ```Cleo``` @here <@1234> https://evil.example/c") == "Cleo"
    assert clean_name("1. Dan <@!5> </montana board:9> <t:1:R>") == "Dan"
    assert clean_name("-# Eve\u202e\u200b") == "Eve"
    assert clean_name("<@&1>") == "player"  # never empty
    assert clean_name("Zoë (FR) 🎲") == "Zoë (FR) 🎲"  # a plain name stays as it is
    for name in HOSTILE.values():
        assert clean_name(clean_name(name)) == clean_name(name)


async def test_hostile_display_names_reach_no_message_of_any_kind(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    pictures = NamesSeen()
    bot = make_bot(tmp_path / "m.sqlite3", pictures, seed=5)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    channel = fake_discord.channel
    ana, ben, cleo = (fake_discord.add_user(HOSTILE[n]) for n in ("ana", "ben", "cleo"))
    for user in (ana, ben, cleo):
        table.users[str(user.id)] = user
        await fake_discord.slash(user, channel, "montana", "me", "notify", options={"mode": "dm"})
    # the lobby: opened, joined by command and by button, started
    lobby = original(await fake_discord.slash(ana, channel, "montana", "game", "new"))
    await fake_discord.slash(ben, channel, "montana", "game", "join")
    await fake_discord.press(cleo, lobby, label="Join")
    await fake_discord.press(ana, lobby, label="Start")
    row = await bot.store.open_game_in(channel.id)
    assert row is not None
    thread = fake_discord.channel_by_id(row.play_channel_id)
    # the settings, moves and their prompts and DMs, the log, the status, a board
    settings = await fake_discord.slash(
        ana, thread, "montana", "game", "settings", options={"turn_hours": 30}
    )
    await to_main_decision(table, row.id)
    log_page = await fake_discord.slash(ben, thread, "montana", "game", "log")
    status = await fake_discord.slash(cleo, thread, "montana", "status")
    await fake_discord.slash(ben, thread, "montana", "board")
    # an away notice, and a vote to hand the away player's seat to the AI
    _, game = await table.game(row.id)
    absent = table.user(game.awaiting or "")
    voter = next(u for u in (ana, ben, cleo) if u is not absent)
    await fake_discord.slash(absent, channel, "montana", "me", "away", options={"days": 1})
    vote = await fake_discord.slash(
        voter, thread, "montana", "game", "takeover", options={"player": absent}
    )
    await bot.ai.idle()
    # the end: abandoned, and listed in the channel's history
    abandoned = await fake_discord.slash(ana, thread, "montana", "game", "abandon")
    history = await fake_discord.slash(ben, channel, "montana", "game", "history")

    cleaned = {user.id: clean_name(user.payload()["global_name"]) for user in (ana, ben, cleo)}
    assert set(cleaned.values()) == {"Ana", "Ben Quote", "Cleo"}  # Discord shows them titled
    # every kind of message names them, cleaned
    assert cleaned[ana.id] in settings.text and cleaned[ana.id] in abandoned.text
    assert all(name in history.text for name in cleaned.values())
    assert all(name in thread.name for name in cleaned.values())
    assert any(name in log_page.text for name in cleaned.values())
    assert any(name in status.text for name in cleaned.values())
    assert cleaned[voter.id] in vote.text or vote.ephemeral
    said = [m for m in fake_discord.world.messages.values() if not m.deleted]
    assert any(cleaned[absent.id] in m.text and "away" in m.text for m in said)
    dms = [m for user in (ana, ben, cleo) for m in fake_discord.dms(user)]
    assert dms and all(any(n in m.text for n in cleaned.values()) for m in dms)
    assert pictures.names and pictures.names <= {*cleaned.values(), f"{cleaned[absent.id]} (AI)"}
    # and nothing of the hostile parts anywhere: messages, DMs, thread names, pictures
    texts = [m.text for m in said] + [c.name for c in fake_discord.threads] + [*pictures.names]
    for text in texts:
        lowered = text.lower()
        assert not any(leak in lowered for leak in LEAKS), text
        assert not LAYOUT.search(text), text
