"""Playing the bot through the fake Discord the way a person would: read, tap, repeat.

`Table` wraps a started bot and its players. To make a move it looks at the prompt
message the bot posted, finds the buttons (and selects) leading to the chosen move
— opening the ephemeral panels on the way, as a player taps through them — and
presses them. Which button leads where is read from the message's components and
`bot.core.play.prompts` (what each panel would offer), never by building custom_ids.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.core.play import prompts
from bot.core.play.service import Renderer
from bot.core.server.settings import Settings
from bot.core.store import GameRow
from bot.discord_app.client import MontanaBot
from rules import Action, Game
from rules.simulate import choose_action
from tests.bot.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionResult

PNG = b"\x89PNG\r\n\x1a\n"


def make_bot(
    db_path: Path, renderer: Renderer | None = None, seed: int = 1, ai_delay: float = 0.0
) -> MontanaBot:
    """A bot on `db_path` whose games are dealt from `seed` (tests stay repeatable); its
    AI players move `ai_delay` seconds after their turn comes (at once by default)."""
    return MontanaBot(
        Settings(token=None, db_path=str(db_path), ai_delay_seconds=ai_delay),
        renderer=renderer,
        seed_source=random.Random(seed),
    )


def original(result: InteractionResult) -> FakeMessage:
    """The message an interaction answered with (it must have one)."""
    message = result.original
    assert message is not None, f"no response message: {result}"
    return message


def embed_of(shown: InteractionResult | FakeMessage) -> dict[str, Any]:
    """What a card made of an embed says (`bot.discord_app.cards.from_embed`), read back
    as the embed's parts: ``title``, ``description``, ``fields`` (name, value) and
    ``footer`` (its ``text``); empty when the message is no such card."""
    message = original(shown) if isinstance(shown, InteractionResult) else shown
    displays = message.displays()
    if not message.card or not displays or not displays[0].startswith("### "):
        return {}
    title, _, description = displays[0].removeprefix("### ").partition("\n")
    footer = [d.removeprefix("-# ") for d in displays[1:] if d.startswith("-# ")]
    return {
        "title": title,
        "description": description,
        "fields": [{"name": n, "value": v} for n, v in message.card_fields().items()],
        "footer": {"text": footer[-1] if footer else ""},
    }


def codes_on(message: FakeMessage) -> dict[str, tuple[str, str]]:
    """code -> ("button" | "select", custom_id) for every enabled choice on a message."""
    found: dict[str, tuple[str, str]] = {}
    for component in message.interactive_components():
        custom_id = component.get("custom_id", "")
        if component.get("disabled"):
            continue
        if component.get("type") == 2 and custom_id.startswith("mt:"):
            found[custom_id.split(":", 3)[3]] = ("button", custom_id)
        elif component.get("type") == 3 and custom_id.startswith("ms:"):
            for option in component.get("options") or []:
                found[option["value"]] = ("select", custom_id)
    return found


path_to = prompts.tap_path


@dataclass
class Table:
    fake: FakeDiscord
    bot: MontanaBot
    users: dict[str, FakeUser] = field(default_factory=dict)
    """Engine player id (Discord user id) -> the fake user."""
    taps: int = 0
    typed: int = 0

    def user(self, pid: str) -> FakeUser:
        return self.users[pid]

    async def row(self, game_id: int) -> GameRow:
        row = await self.bot.store.get(game_id)
        assert row is not None
        return row

    async def game(self, game_id: int) -> tuple[GameRow, Game]:
        row = await self.row(game_id)
        assert row.state is not None
        return row, Game.from_dict(row.state)

    def prompt_message(self, row: GameRow) -> FakeMessage:
        assert row.message_id is not None
        return self.fake.world.messages[row.message_id]

    async def tap_move(self, game_id: int, action: Action) -> InteractionResult | None:
        """Make `action` for the awaited player by pressing buttons; None if no path."""
        row, game = await self.game(game_id)
        pid = game.awaiting
        assert pid is not None
        user = self.user(pid)
        message = self.prompt_message(row)
        on_message = codes_on(message)
        path = path_to(game, pid, row.names, list(on_message), f"a:{action}")
        if path is None:
            return None
        result: InteractionResult | None = None
        for code in path:
            on_message = codes_on(message)
            kind, custom_id = on_message[code]
            if kind == "button":
                result = await self.fake.press(user, message, custom_id)
            else:
                result = await self.fake.select(user, message, custom_id, [code])
            self.taps += 1
            if code.startswith("p:"):
                assert result.original is not None, f"{code} opened no panel: {result}"
                message = result.original
                assert message.ephemeral, "step panels are for the presser only"
        return result

    async def type_move(self, channel: FakeChannel, pid: str, action: Action) -> InteractionResult:
        user = self.user(pid)
        self.typed += 1
        if action.verb == "build":
            return await self.fake.slash(
                user, channel, "montana", "build", options={"field": action.args[0]}
            )
        if action.verb == "recruit":
            return await self.fake.slash(user, channel, "montana", "recruit")
        return await self.fake.slash(
            user, channel, "montana", "play", options={"move": str(action)}
        )


async def play_until(
    table: Table, game_id: int, reached: Callable[[Game], bool], *, moves: int = 200
) -> tuple[GameRow, Game]:
    """Legal random moves for whoever is awaited (tapped, or typed where no button leads
    there), the AI answering for the seats it plays, until `reached` holds for the game
    (at most `moves` moves): the row and the game then."""
    for _ in range(moves):
        await table.bot.ai.idle()
        row, game = await table.game(game_id)
        if reached(game):
            return row, game
        _, action = choose_action(game, random.Random(len(game.log)))
        channel = table.fake.channel_by_id(row.play_channel_id)
        await table.tap_move(game_id, action) or await table.type_move(
            channel, str(game.awaiting), action
        )
    raise AssertionError(f"not reached within {moves} moves")


async def open_game(
    fake: FakeDiscord, table: Table, channel: FakeChannel, *names: str
) -> tuple[int, FakeChannel, dict[str, Any]]:
    """`/montana game new` by the first, Join by the others, Start: the game id and its thread."""
    users = [fake.add_user(name) for name in names]
    for user in users:
        table.users[str(user.id)] = user
    created = await fake.slash(users[0], channel, "montana", "game", "new")
    lobby = created.original
    assert lobby is not None and not lobby.ephemeral
    for user in users[1:]:
        await fake.press(user, lobby, label="Join")
    started = await fake.press(users[0], lobby, label="Start")
    row = await table.bot.store.open_game_in(channel.id)
    assert row is not None
    play_channel = fake.channel_by_id(row.play_channel_id)
    return row.id, play_channel, {"created": created, "lobby": lobby, "started": started}


def edit_state(db_path: Path, game_id: int, change: Callable[[dict[str, Any]], None]) -> None:
    """Test set-up: `change` the saved state in place (same version), as if the game had
    gone that way; the bot reads the game from the store at every press."""
    import json
    import sqlite3

    with sqlite3.connect(db_path) as db:
        (text,) = db.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
        state = json.loads(text)
        change(state)
        db.execute("UPDATE games SET state = ? WHERE id = ?", (json.dumps(state), game_id))


def _set_goods(state: dict[str, Any], good: str, counts: Mapping[str, int]) -> None:
    for player in state["players"]:
        if player["id"] in counts:
            state["supply"]["goods"][good] -= counts[player["id"]] - player["goods"][good]
            player["goods"][good] = counts[player["id"]]


def give_goods(db_path: Path, game_id: int, good: str, counts: Mapping[str, int]) -> None:
    """Test set-up: the players named in `counts` (by id) hold that many of `good` (the
    supply gives or takes the difference)."""
    edit_state(db_path, game_id, lambda state: _set_goods(state, good, counts))


async def game_at_main(
    fake: FakeDiscord, db_path: Path, *names: str, seed: int = 3
) -> tuple[Table, int, FakeChannel]:
    """A bot on `db_path` dealing from `seed`, and a game of `names` opened, started and
    played (first choices) to its first "recruit, work or build": the table, the game's id
    and its thread."""
    bot = make_bot(db_path, seed=seed)
    await fake.start(bot)
    table = Table(fake, bot)
    game_id, thread, _ = await open_game(fake, table, fake.channel, *names)
    await to_main_decision(table, game_id)
    return table, game_id, thread


def give_pumpkins(db_path: Path, game_id: int, count: int) -> None:
    """Test set-up: every player holds `count` pumpkins (taken from the supply)."""
    edit_state(
        db_path,
        game_id,
        lambda state: _set_goods(state, "pumpkin", {p["id"]: count for p in state["players"]}),
    )


async def to_main_decision(table: Table, game_id: int) -> None:
    """Tap the first offered choice until a player faces their main action."""
    while True:
        _, game = await table.game(game_id)
        if game.pending.kind == "main":
            return
        pid = game.awaiting
        assert pid is not None
        result = await table.tap_move(game_id, game.legal_actions(pid)[0])
        assert result is not None
