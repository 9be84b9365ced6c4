"""Hostile and random input: every command option and button custom_id, tampered.

Whatever a tampered client sends (empty, huge, unicode, SQL fragments, other games'
ids, stale or absurd versions, negative or huge numbers), the bot answers the presser
alone with a refusal in words, raises nothing (the fake records every exception and
unanswered interaction), posts nothing in public and leaves every game exactly as it
was: state, version, status and move log.
"""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord

from bot.core.delivery.pictures import BlankRenderer
from bot.core.store import GameRow
from rules import Game
from tests.bot.driver import Table, make_bot, open_game, original, to_main_decision
from tests.bot.fakediscord import (
    AUTOCOMPLETE,
    FakeChannel,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionResult,
)

SQL = "'; DROP TABLE games;--"
GENERIC_FAILURE = "Something went wrong"
HOSTILE_TEXTS = (
    SQL,
    "1; DELETE FROM moves WHERE 1=1",
    '" OR 1=1 --',
    "Robert'); DROP TABLE moves;--",
    " ",
    "\u200b",
    "🎲🐄🏔️",
    "ŕéçrûït",
    "ｒｅｃｒｕｉｔ",
    "recruit\nrecruit",
    "build A1; build A2",
    "<@&1> @everyone",
    "%s%s%n",
    "${jndi:ldap://x}",
    "\x00\x01",
    "-1",
    "999999999999999999999999",
)


def random_texts(rng: random.Random, count: int, longest: int) -> list[str]:
    """Random strings: ASCII noise, unicode from many planes (no surrogates), and huge ones."""
    alphabets = [
        [chr(c) for c in range(32, 127)],
        [chr(c) for c in range(0xA0, 0x2FFF)],
        [chr(c) for c in range(0x1F300, 0x1F64F)],
        list(":;'\"\\%_-*`|<>@#\n\t0123456789"),
    ]
    texts = []
    for _ in range(count):
        alphabet = rng.choice(alphabets)
        length = min(longest, rng.choice([1, 2, 5, 20, longest]))
        texts.append("".join(rng.choice(alphabet) for _ in range(length)))
    return texts


def applies(game: Game, player_id: str, notation: str) -> bool:
    try:
        game.copy().apply(player_id, notation)
    except ValueError:
        return False
    return True


@dataclass
class Scene:
    fake: FakeDiscord
    table: Table
    db: Path
    mine: int
    """The game under attack (channel "general" / its thread)."""
    theirs: int
    """Another game, in another channel, whose id the attackers borrow."""
    thread: FakeChannel
    other_thread: FakeChannel
    outsider: FakeUser

    async def users(self) -> tuple[FakeUser, FakeUser]:
        """The awaited player of our game, and the other player."""
        _, game = await self.table.game(self.mine)
        awaited = game.awaiting
        assert awaited is not None
        other = next(pid for pid in game.player_ids if pid != awaited)
        return self.table.user(awaited), self.table.user(other)

    async def row(self, game_id: int) -> GameRow:
        return await self.table.row(game_id)

    async def prompt(self) -> FakeMessage:
        return self.table.prompt_message(await self.row(self.mine))


def snapshot(db: Path) -> list[Any]:
    """Every saved game (state, version, status, players, prompt) and every move log line."""
    with sqlite3.connect(db) as connection:
        games = connection.execute(
            "SELECT id, status, version, state, players, message_id FROM games ORDER BY id"
        ).fetchall()
        moves = connection.execute(
            "SELECT game_id, version, player, notation FROM moves ORDER BY game_id, version"
        ).fetchall()
        tables = connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        ).fetchall()
    return [games, moves, tables]


async def scene(fake: FakeDiscord, tmp_path: Path) -> Scene:
    db = tmp_path / "m.sqlite3"
    bot = make_bot(db, BlankRenderer(), seed=11)
    await fake.start(bot)
    table = Table(fake, bot)
    mine, thread, _ = await open_game(fake, table, fake.channel, "ana", "ben")
    elsewhere = fake.add_channel("elsewhere")
    theirs, other_thread, _ = await open_game(fake, table, elsewhere, "cleo", "dan")
    await to_main_decision(table, mine)
    await to_main_decision(table, theirs)
    outsider = fake.add_user("eve")
    return Scene(fake, table, db, mine, theirs, thread, other_thread, outsider)


class Verdicts:
    """Collects every way an answer falls short, so one run reports them all."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.problems: list[str] = []

    def check(self, what: str, result: InteractionResult, public_before: str) -> None:
        record = result.record
        # what this interaction said (a deferred update names the pressed message, unchanged)
        said = [self.fake.world.messages[i] for i in (*record.message_ids, *record.followup_ids)]
        text = "\n".join(m.text for m in said).strip()
        if result.errors:
            self.problems.append(f"{what}: {result.errors}")
        if not result.responded:
            self.problems.append(f"{what}: no answer at all")
        elif not said or not all(m.ephemeral for m in said):
            self.problems.append(f"{what}: no ephemeral answer: {result!r}")
        elif not text:
            self.problems.append(f"{what}: empty answer")
        if GENERIC_FAILURE in text:
            self.problems.append(f"{what}: generic failure instead of a refusal: {text[:120]}")
        if self.public() != public_before:
            self.problems.append(f"{what}: a public message was posted or changed")

    def public(self) -> str:
        """Every message everyone sees, as they see it now."""
        shown = [
            (m.id, m.content, m.components, m.deleted, sorted(m.files))
            for m in self.fake.world.messages.values()
            if not m.ephemeral
        ]
        return json.dumps(shown, sort_keys=True)

    def assert_none(self) -> None:
        # the fake's own error list is checked again (and must be empty) at teardown
        assert not self.problems, "\n".join(self.problems[:40])


async def test_forged_button_ids_are_refused_and_change_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    s = await scene(fake_discord, tmp_path)
    mine_row, theirs_row = await s.row(s.mine), await s.row(s.theirs)
    v, theirs_v = mine_row.version, theirs_row.version
    awaited, other = await s.users()
    rng = random.Random(5)
    codes = [
        "a:",
        "a: ",
        f"a:{SQL}",
        "a:recruit; DROP TABLE moves",
        "a:build Z9",
        "a:build A1 A2",
        "a:bank 9 copper",
        "a:bank -1 copper",
        "a:bank 1 gold",
        "a:harvest mine 99 copper",
        "a:city 9 9",
        "a:city -1 0",
        "a:place 1 1",
        "a:pass",
        "a:take copper copper",
        "a:advance 7",
        "a:advance 99999999999999999999",
        "a:return copper",
        "a:upgrade copper",
        "a:goods grain grain grain",
        "a:stop",
        "a:end",
        "a:canteen",
        "a:noextra",
        "a:extra copper",
        "a:trade worker plutonium",
        "a:spin 3",
        "a:🎲",
        "a:" + "x" * 78,
        "p:",
        "p:nope",
        "p:bank:99",
        "p:bank:-1",
        "p:bank:",
        "p:harv:mine:99",
        f"p:harv:{SQL}:1",
        "p:ret:gold",
        "p:ret:" + ",".join(["copper"] * 12),
        "p:ret:,,,",
        "p:work:extra:args",
        "board:x",
        "join",
        "leave",
        "start",
        "🐄",
        SQL,
        *random_texts(rng, 12, 80),
    ]
    forged: list[tuple[str, FakeUser]] = []
    for code in codes:
        forged += [(f"mt:{s.mine}:{v}:{code}", awaited), (f"mt:{s.mine}:{v}:{code}", other)]
    for legal_code in ("a:recruit", "p:work", "p:build", "p:trade"):
        forged += [
            (f"mt:{s.mine}:{v}:{legal_code}", other),
            (f"mt:{s.mine}:{v}:{legal_code}", s.outsider),
            (f"mt:{s.mine}:{v - 1}:{legal_code}", awaited),  # stale
            (f"mt:{s.mine}:{v + 1}:{legal_code}", awaited),  # from the future
            (f"mt:{s.mine}:0:{legal_code}", awaited),
            (f"mt:{s.mine}:999999999:{legal_code}", awaited),
            (f"mt:{s.theirs}:{theirs_v}:{legal_code}", awaited),  # another game's id
            (f"mt:0:{v}:{legal_code}", awaited),
            (f"mt:{2**63 - 1}:{v}:{legal_code}", awaited),
            (f"mt:{'9' * 19}:{v}:{legal_code}", awaited),
            (f"mt:{s.mine + 1000}:{v}:{legal_code}", awaited),
        ]
    forged += [(f"mt:{s.theirs}:{theirs_v}:{code}", awaited) for code in ("join", "leave", "start")]
    # ids outside the bot's templates (a button from another bot or version, garbage)
    for custom_id in (
        "",
        "mt",
        "mt:",
        "mt:1",
        f"mt:{s.mine}:{v}",
        f"mt:{s.mine}:{v}:",
        f"mt:x:{v}:a:recruit",
        f"mt:-1:{v}:a:recruit",
        f"mt:{s.mine}:-1:a:recruit",
        f"mt:{'9' * 25}:{v}:a:recruit",
        f"mt:{s.mine}:{'9' * 12}:a:recruit",
        f"mt:{s.mine}:{v}:a:" + "x" * 90,
        f"mt:{s.mine}:{v}:a:recruit\nrecruit",
        f"ms:{s.mine}:{v}:work",  # a select's id on a button
        f"ms:{s.mine}:{v}:{SQL}",
        f"MT:{s.mine}:{v}:a:recruit",
        f" mt:{s.mine}:{v}:a:recruit",
        "x" * 100,
        SQL,
        "🎲" * 25,
        *random_texts(rng, 12, 100),
    ):
        forged.append((custom_id, awaited))
    verdicts = Verdicts(fake_discord)
    before = snapshot(s.db)
    for custom_id, user in forged:
        message = await s.prompt()
        public = verdicts.public()
        result = await fake_discord.press_forged(user, message, custom_id)
        verdicts.check(f"{user.name} pressed {custom_id!r}", result, public)
        if snapshot(s.db) != before:
            verdicts.problems.append(f"{user.name} pressed {custom_id!r}: a game changed")
            before = snapshot(s.db)
    verdicts.assert_none()
    assert (await s.row(s.mine)).version == v and (await s.row(s.theirs)).version == theirs_v


async def test_forged_select_values_are_refused_and_change_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    s = await scene(fake_discord, tmp_path)
    v = (await s.row(s.mine)).version
    theirs_v = (await s.row(s.theirs)).version
    awaited, other = await s.users()
    rng = random.Random(6)
    values: list[list[str]] = [
        [],
        [""],
        [SQL],
        ["a:build Z9"],
        ["a:" + SQL],
        ["p:bank:99"],
        ["p:harv:garden:-3"],
        ["a:city 5 5"],
        ["a:spin 8"],
        ["join"],
        ["a:" + "y" * 98],
        ["a:build Z9", "a:build Z8"],
        [str(2**64)],
        ["-1"],
        *([t] for t in random_texts(rng, 10, 100)),
    ]
    verdicts = Verdicts(fake_discord)
    before = snapshot(s.db)
    attempts: list[tuple[str, list[str], FakeUser]] = []
    for chosen in values:
        for menu in ("work", "build", "zzz"):
            attempts.append((f"ms:{s.mine}:{v}:{menu}", chosen, awaited))
    for legal in (["a:recruit"], ["p:work"]):
        attempts += [
            (f"ms:{s.mine}:{v}:work", legal, other),
            (f"ms:{s.mine}:{v}:work", legal, s.outsider),
            (f"ms:{s.mine}:{v - 1}:work", legal, awaited),
            (f"ms:{s.mine}:999999999:work", legal, awaited),
            (f"ms:{s.theirs}:{theirs_v}:work", legal, awaited),
            (f"ms:0:{v}:work", legal, awaited),
            (f"ms:{s.mine}:{v}:{SQL}", legal, awaited),
            (f"ms:{s.mine}:{v}:WORK", legal, awaited),
            (f"mt:{s.mine}:{v - 1}:a:recruit", legal, awaited),  # a button's id on a select
        ]
    for custom_id, chosen, user in attempts:
        message = await s.prompt()
        public = verdicts.public()
        result = await fake_discord.press_forged(user, message, custom_id, values=chosen)
        verdicts.check(f"{user.name} chose {chosen!r} in {custom_id!r}", result, public)
        if snapshot(s.db) != before:
            verdicts.problems.append(f"{user.name} chose {chosen!r} in {custom_id!r}: changed")
            before = snapshot(s.db)
    verdicts.assert_none()


async def test_hostile_command_options_are_refused_and_change_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    s = await scene(fake_discord, tmp_path)
    awaited, other = await s.users()
    rng = random.Random(7)
    moves = [
        *HOSTILE_TEXTS,
        "a:recruit",
        "spin 3",
        "build Z9",
        "build A1",
        "bank 1 copper copper copper copper",
        "city 0 0",
        "place 1 1",
        "pass",
        "take copper grain",
        "advance 3",
        "return stone",
        "upgrade",
        "goods bigcopper bigcopper bigcopper",
        "trade worker gold",
        "harvest wheatfield -1 grain",
        "x" * 100,
        "🎲" * 100,
        *random_texts(rng, 12, 100),
    ]
    fields = [
        *(t[:8] for t in HOSTILE_TEXTS if t.strip("\x00\x01")),
        "Z9",
        "A1",
        "a1 ",
        "🐄",
        SQL[:8],
    ]
    fields += random_texts(rng, 8, 8)
    # keep only what the awaited player may not do now (the rest would rightly apply)
    _, game = await s.table.game(s.mine)
    moves = [m for m in moves if not applies(game, str(awaited.id), m)]
    fields = [f for f in fields if not applies(game, str(awaited.id), f"build {f}")]
    pages = [0, -1, -(2**53), 2**53, 10**15, 7]
    verdicts = Verdicts(fake_discord)
    before = snapshot(s.db)
    calls: list[tuple[FakeUser, FakeChannel, tuple[str, ...], dict[str, Any]]] = []
    for where in (s.thread, s.other_thread, s.fake.channel):
        for user in (awaited, other, s.outsider):
            calls += [(user, where, ("montana", "play"), {"move": m}) for m in moves]
            calls += [(user, where, ("montana", "build"), {"field": f}) for f in fields]
    # moves that would be legal for the awaited player, by the wrong people or in the wrong place
    for user in (other, s.outsider):
        for name in ("recruit", "stop", "pass", "end", "work", "city"):
            calls.append((user, s.thread, ("montana", name), {}))
        for value in ("coins", "worker copper", "grain"):
            calls.append((user, s.thread, ("montana", "trade"), {"get": value}))
    for name in ("stop", "pass", "end"):  # not what the game awaits now
        calls.append((awaited, s.thread, ("montana", name), {}))
    for user in (awaited, other, s.outsider):
        for name in ("join", "leave", "start"):
            calls.append((user, s.thread, ("montana", "game", name), {}))
        calls.append((user, s.other_thread, ("montana", "game", "abandon"), {}))
    for index, (user, where, path, options) in enumerate(calls):
        public = verdicts.public()
        result = await fake_discord.slash(user, where, *path, options=options)
        what = f"#{index} {user.name} /{' '.join(path)} {json.dumps(options)} in {where.name}"
        verdicts.check(what, result, public)
        if snapshot(s.db) != before:
            verdicts.problems.append(f"{what}: a game changed")
            before = snapshot(s.db)
    # /montana game log only reads; a page that does not exist is refused with the
    # pages there are (issue 35.6)
    for page in pages:
        result = await fake_discord.slash(
            awaited, s.thread, "montana", "game", "log", options={"page": page}
        )
        verdicts.check(f"/montana game log page={page}", result, verdicts.public())
        assert "That page does not exist: choose a page from 1 to 1." in result.content
    verdicts.assert_none()
    assert snapshot(s.db) == before


async def test_hostile_autocomplete_text_gets_a_list(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    s = await scene(fake_discord, tmp_path)
    awaited, other = await s.users()
    rng = random.Random(8)
    before = snapshot(s.db)
    texts = [*HOSTILE_TEXTS, "", "x" * 100, *random_texts(rng, 10, 100)]
    for user in (awaited, other, s.outsider):
        for where in (s.thread, s.fake.channel):
            for text in texts:
                for command, option in (("play", "move"), ("build", "field")):
                    result = await fake_discord.autocomplete(
                        user, where, "montana", command, options={option: text}, focused=option
                    )
                    assert result.response_type == AUTOCOMPLETE, (command, text, result)
                    assert not result.errors
                    if user is not awaited:
                        assert result.choices == [], (user.name, where.name, text, result.choices)
    assert snapshot(s.db) == before


def every_table(db: Path) -> dict[str, list[Any]]:
    """Every saved row of every table but the users' remembered locales (the first
    interaction of a user records theirs, whatever it asks)."""
    with sqlite3.connect(db) as connection:
        names = [
            name
            for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
            if name != "user_locales"
        ]
        return {name: connection.execute(f"SELECT * FROM {name}").fetchall() for name in names}


async def test_a_press_is_honoured_only_on_a_message_of_its_game_that_offers_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 21.6: a lobby button pressed from another channel, a log page or a vote
    pressed on the public prompt, a takeover button pressed in another game's thread, a
    hint or a move pressed on another game's message or on the lobby message, a replay
    button (Replay, Turn by turn, a step, "go to turn") on a game under way's prompt, on
    an ephemeral answer or elsewhere: each is refused to the presser alone, in words
    saying where it belongs, and changes nothing."""
    s = await scene(fake_discord, tmp_path)
    mine = await s.row(s.mine)
    v = state_of(mine)
    awaited, other = await s.users()
    # a lobby waiting for players in a third channel, opened by Eve
    lobby_room = s.fake.add_channel("lobby-room")
    opened = await s.fake.slash(s.outsider, lobby_room, "montana", "game", "new")
    lobby_message = original(opened)
    lobby_id = (await s.table.bot.service.game_here(lobby_room.id)).id
    # public and ephemeral messages where the presses are forged
    my_prompt = await s.prompt()
    their_prompt = s.table.prompt_message(await s.row(s.theirs))
    my_lobby = s.fake.world.messages[mine.lobby_message_id or 0]
    rules_in_lobby_room = original(
        await s.fake.slash(awaited, lobby_room, "montana", "game", "rules")
    )
    log_in_my_thread = original(await s.fake.slash(awaited, s.thread, "montana", "game", "log"))
    elsewhere = "another channel or thread"
    lobby_only = "only on the game's lobby message"
    not_here = "That button is not on this message"
    votes_only = "Vote with the button of the vote's own message"
    log_only = "Log pages turn only on your own"
    replay_only = "The Replay button works under the message that ends a game"
    turn_by_turn_only = "The Turn by turn button works under the message that ends a game"
    step_only = "The replay's step buttons work only on your own step view"
    presses: list[tuple[FakeUser, FakeMessage, str, str]] = [
        # lobby buttons from another channel, or on an ephemeral answer in the lobby's own
        (awaited, my_prompt, f"mt:{lobby_id}:0:join", elsewhere),
        (other, their_prompt, f"mt:{lobby_id}:0:join", elsewhere),
        (s.outsider, my_prompt, f"mt:{lobby_id}:0:start", elsewhere),
        (s.outsider, my_prompt, f"mt:{lobby_id}:0:addai", elsewhere),
        (s.outsider, rules_in_lobby_room, f"mt:{lobby_id}:0:addai", lobby_only),
        (awaited, rules_in_lobby_room, f"mt:{lobby_id}:0:join", lobby_only),
        # a running game's lobby code on its own prompt
        (awaited, my_prompt, f"mt:{s.mine}:0:leave", lobby_only),
        # log pages on the public prompt, or on another game's
        (awaited, my_prompt, f"ml:{s.mine}:2:o", log_only),
        (awaited, their_prompt, f"ml:{s.mine}:1:l", elsewhere),
        # votes on the prompt, on a log page, or in another game's thread
        (other, my_prompt, f"mk:{s.mine}:{awaited.id}", votes_only),
        (other, log_in_my_thread, f"mk:{s.mine}:{awaited.id}", votes_only),
        (other, their_prompt, f"mk:{s.mine}:{awaited.id}", elsewhere),
        (other, my_prompt, f"mv:{s.mine}:{mine.version}", votes_only),
        (other, their_prompt, f"mv:{s.mine}:{mine.version}", elsewhere),
        # the prompt's own buttons (hint, play it, a step, the board) on the lobby
        # message, or in another game's thread
        (awaited, my_lobby, f"mt:{s.mine}:{v}:hint", not_here),
        (awaited, my_lobby, f"mt:{s.mine}:{v}:a:recruit", not_here),
        (awaited, their_prompt, f"mt:{s.mine}:{v}:a:recruit", elsewhere),
        (awaited, their_prompt, f"mt:{s.mine}:{v}:hint", elsewhere),
        (awaited, their_prompt, f"mt:{s.mine}:{v}:p:work", elsewhere),
        (awaited, their_prompt, f"mt:{s.mine}:{v}:board", elsewhere),
        (awaited, rules_in_lobby_room, f"mt:{s.mine}:{v}:a:recruit", elsewhere),
        # the replay's buttons: Replay and Turn by turn only under the end of a game (or
        # Replay on a history line), the step buttons only on one's own step view
        (awaited, my_prompt, f"rp:{s.mine}", replay_only),
        (other, my_lobby, f"rp:{s.mine}", replay_only),
        (awaited, log_in_my_thread, f"rp:{s.mine}", replay_only),
        (awaited, their_prompt, f"rp:{s.mine}", elsewhere),
        (s.outsider, rules_in_lobby_room, f"rp:{s.mine}", elsewhere),
        (awaited, my_prompt, f"rv:{s.mine}", turn_by_turn_only),
        (awaited, log_in_my_thread, f"rv:{s.mine}", turn_by_turn_only),
        (other, their_prompt, f"rv:{s.mine}", elsewhere),
        (awaited, my_prompt, f"rs:{s.mine}:{v}:1:n", step_only),
        (other, my_lobby, f"rs:{s.mine}:{v}:0:f", step_only),
        (awaited, their_prompt, f"rs:{s.mine}:{v}:1:n", elsewhere),
        (awaited, rules_in_lobby_room, f"rs:{s.mine}:{v}:1:l", elsewhere),
    ]
    verdicts = Verdicts(fake_discord)
    before = every_table(s.db)
    for user, message, custom_id, words in presses:
        public = verdicts.public()
        result = await fake_discord.press_forged(user, message, custom_id)
        what = f"{user.name} pressed {custom_id!r} on message {message.id}"
        verdicts.check(what, result, public)
        if words not in result.text:
            verdicts.problems.append(f"{what}: not told {words!r}: {result.text[:200]!r}")
        if every_table(s.db) != before:
            verdicts.problems.append(f"{what}: something saved changed")
            before = every_table(s.db)
    # a step's select, with a legal move, on the lobby message or in another game's
    # thread; the replay's "go to turn" select on the prompt or in another game's thread
    for message, custom_id, value, words in (
        (my_lobby, f"ms:{s.mine}:{v}:work", "a:recruit", not_here),
        (their_prompt, f"ms:{s.mine}:{v}:work", "a:recruit", elsewhere),
        (my_prompt, f"rt:{s.mine}:{v}", "1", step_only),
        (their_prompt, f"rt:{s.mine}:{v}", "1", elsewhere),
    ):
        public = verdicts.public()
        result = await fake_discord.press_forged(awaited, message, custom_id, values=[value])
        what = f"{awaited.name} chose {value} in {custom_id!r} on message {message.id}"
        verdicts.check(what, result, public)
        if words not in result.text:
            verdicts.problems.append(f"{what}: not told {words!r}: {result.text[:200]!r}")
    if every_table(s.db) != before:
        verdicts.problems.append("a forged select changed something saved")
    verdicts.assert_none()
    # the same buttons where they belong still work
    joined = await fake_discord.press(awaited, lobby_message, label="Join")
    assert not joined.errors and f"<@{awaited.id}>" in joined.text
    page = await fake_discord.press_forged(awaited, log_in_my_thread, f"ml:{s.mine}:1:l")
    assert "page 1 of" in page.text
    played = await fake_discord.press(awaited, await s.prompt(), label="Recruit")
    assert not played.errors and (await s.row(s.mine)).version > mine.version


def state_of(row: GameRow) -> str:
    """The state key a button of the row's current prompt carries."""
    return f"{row.version}.{row.undo_epoch}" if row.undo_epoch else str(row.version)


async def test_a_features_press_is_honoured_only_on_its_own_kind_of_message(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 35.5: the queue's Withdraw, a leaderboard page, the forget confirmation and
    the moderators' buttons forged on a game's prompt, its lobby, another's answer or a
    message of another feature — and a game's buttons forged on a feature's message —
    are refused to the presser alone and change nothing: the prompt keeps its buttons,
    the ephemeral answer pressed on keeps its words."""
    s = await scene(fake_discord, tmp_path)
    mine = await s.row(s.mine)
    v = state_of(mine)
    awaited, other = await s.users()
    admin = fake_discord.add_user("ad", permissions=discord.Permissions(manage_guild=True))
    my_prompt = await s.prompt()
    my_lobby = s.fake.world.messages[mine.lobby_message_id or 0]
    log_in_my_thread = original(await fake_discord.slash(awaited, s.thread, "montana game log"))
    queued = original(await fake_discord.slash(other, s.thread, "montana game find"))
    withdraw = f"mq:withdraw:{queued.interaction_id}"
    assert withdraw in queued.custom_ids()
    asked_forget = original(await fake_discord.slash(awaited, s.thread, "montana me forget"))
    admins_list = original(await fake_discord.slash(admin, s.thread, "montana server games"))
    ask = f"sv:ask:{s.mine}:{admins_list.interaction_id}"
    end = f"sv:end:{s.mine}:{admins_list.interaction_id}"
    assert ask in admins_list.custom_ids()
    not_here = "That button is not on this message"
    presses: list[tuple[FakeUser, FakeMessage, str]] = [
        (other, my_prompt, withdraw),
        (awaited, my_prompt, "lb:2:n"),
        (awaited, my_prompt, "lb:1:p"),
        (awaited, my_prompt, f"mf:{awaited.id}:y"),
        (awaited, my_prompt, f"mf:{awaited.id}:n"),
        (admin, my_prompt, ask),
        (admin, my_prompt, end),
        (other, my_lobby, withdraw),
        (awaited, my_lobby, f"mf:{awaited.id}:y"),
        (admin, my_lobby, end),
        # on another feature's message, one's own or another's
        (awaited, log_in_my_thread, f"mf:{awaited.id}:y"),
        (other, queued, "lb:2:n"),
        (other, queued, f"mf:{other.id}:y"),
        (admin, queued, end),
        (awaited, asked_forget, withdraw),
        (awaited, asked_forget, "lb:2:n"),
        (admin, admins_list, withdraw),
        (admin, admins_list, f"mf:{admin.id}:y"),
        (admin, admins_list, end),
        # a game's own buttons on a feature's ephemeral answer in its thread
        (other, queued, f"mt:{s.mine}:{v}:hint"),
        (awaited, asked_forget, f"mt:{s.mine}:{v}:a:recruit"),
    ]
    verdicts = Verdicts(fake_discord)
    before = every_table(s.db)
    for user, message, custom_id in presses:
        public = verdicts.public()
        shown = (message.content, json.dumps(message.components, sort_keys=True))
        result = await fake_discord.press_forged(user, message, custom_id)
        what = f"{user.name} pressed {custom_id!r} on message {message.id} {message.text[:60]!r}"
        verdicts.check(what, result, public)
        if not_here not in result.text:
            verdicts.problems.append(f"{what}: not told {not_here!r}: {result.text[:200]!r}")
        if (message.content, json.dumps(message.components, sort_keys=True)) != shown:
            verdicts.problems.append(f"{what}: the message pressed on changed")
        if every_table(s.db) != before:
            verdicts.problems.append(f"{what}: something saved changed")
            before = every_table(s.db)
    verdicts.assert_none()
    assert len(my_prompt.custom_ids()) >= 2  # the prompt keeps its buttons
    # where they belong they still work
    withdrawn = await fake_discord.press(other, queued, label="Withdraw")
    assert "You left this server's queue" in withdrawn.text
    kept = await fake_discord.press(awaited, asked_forget, label="Cancel")
    assert "Nothing was deleted." in kept.text
    played = await fake_discord.press(awaited, await s.prompt(), label="Recruit")
    assert not played.errors and (await s.row(s.mine)).version > mine.version


async def test_a_features_press_on_ones_own_buttonless_answer_changes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 35.5, the gap left: a press is honoured only on the message that shows it.
    The queue's Withdraw and the moderators' Abandon / "Yes, end it", their real custom
    ids replayed on the presser's own private answer that has no button at all (an
    export; a tampered client sends whatever components it likes with it), are refused
    to them alone in words: the member stays queued, the game goes on, nothing saved."""
    s = await scene(fake_discord, tmp_path)
    _, other = await s.users()
    admin = fake_discord.add_user("ad", permissions=discord.Permissions(manage_guild=True))
    queued = original(await fake_discord.slash(other, s.thread, "montana game find"))
    withdraw = f"mq:withdraw:{queued.interaction_id}"
    assert queued.custom_ids() == [withdraw]
    listing = original(await fake_discord.slash(admin, s.thread, "montana server games"))
    ask = f"sv:ask:{s.mine}:{listing.interaction_id}"
    assert ask in listing.custom_ids()
    plain_answers = {
        user.id: original(await fake_discord.slash(user, s.thread, "montana game export"))
        for user in (other, admin)
    }
    for message in plain_answers.values():
        assert message.ephemeral and message.custom_ids() == []
    verdicts = Verdicts(fake_discord)
    before = every_table(s.db)
    for user, custom_id in (
        (other, withdraw),
        (admin, ask),
        (admin, f"sv:end:{s.mine}:{listing.interaction_id}"),
    ):
        public = verdicts.public()
        result = await fake_discord.press_forged(user, plain_answers[user.id], custom_id)
        what = f"{user.name} pressed {custom_id!r} on their own export"
        verdicts.check(what, result, public)
        if "That button is not on this message" not in result.text:
            verdicts.problems.append(f"{what}: not refused in words: {result.text[:200]!r}")
        if every_table(s.db) != before:
            verdicts.problems.append(f"{what}: something saved changed")
            before = every_table(s.db)
    verdicts.assert_none()
    # the queue's own message still withdraws
    withdrawn = await fake_discord.press(other, queued, label="Withdraw")
    assert "You left this server's queue" in withdrawn.text
