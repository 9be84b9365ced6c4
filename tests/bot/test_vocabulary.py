"""One vocabulary (issue 15.4): the bot's menus, sentences, refusals, rules text and the
console name every good, worker colour, area, board part and action as the table
`render.vocabulary` does, which is also what the pictures' labels and legend say
(tests/render/test_vocabulary.py checks the pictures against the same table)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import render.words as render_words
from bot import console
from bot.core.play import prompts
from bot.core.wording import words
from render.vocabulary import ACTIONS, AREAS, BOARD, GOODS, WORKER_COLOURS
from rules import Game, data
from rules.simulate import choose_action
from tests.bot.driver import edit_state, game_at_main
from tests.bot.fakediscord import FakeDiscord

OTHER_NAMES = {
    "small box": BOARD["small_box"].one,
    "large box": BOARD["large_box"].one,
    "wheatfield": AREAS["wheatfield"].one,
    "wheat field": AREAS["wheatfield"].one,
    "move the wheel": ACTIONS["advance"].phrase,
    "bigcopper": GOODS["bigcopper"].one,
    "bigstone": GOODS["bigstone"].one,
}
"""Names the rulebook or the notation use, and the table's name players meet instead."""
GOOD_WITHOUT_ITS_SIZE = re.compile(r"\b\d+ (?:copper|stone)\b(?! worker)")
"""A count of copper or stone as a good must say small or large ("1 small copper")."""


def texts_of(panel: prompts.Panel) -> Iterator[str]:
    yield panel.text
    yield panel.hint
    for choice in [*panel.buttons, *(o for m in panel.menus for o in m.options)]:
        yield choice.label
        yield choice.description or ""
    for menu in panel.menus:
        yield menu.placeholder


def everything_said(players: int, seed: int) -> Iterator[str]:
    """Every menu (public and follow-up), prompt and sentence of a random game."""
    game = Game.new(["ana", "ben", "cleo", "dan"][:players], seed=seed)
    names = {pid: pid.capitalize() for pid in game.player_ids}
    rng = random.Random(seed)
    while not game.is_over:
        pid = game.awaiting
        assert pid is not None
        todo = [prompts.public_panel(game, names)]
        opened: set[str] = set()
        while todo:
            panel = todo.pop()
            yield from texts_of(panel)
            for choice in panel.choices:
                if choice.code.startswith("p:") and choice.code not in opened:
                    opened.add(choice.code)
                    todo.append(prompts.sub_panel(game, pid, choice.code, names))
        yield words.prompt_line(game, names.__getitem__)
        yield words.waiting_for(game, names)
        yield words.allowed_now(game, pid)
        player, action = choose_action(game, rng)
        yield words.describe(game.apply(player, action), names, actor=player, move=str(action))
    yield words.status(game, names)


def named_otherwise(text: str) -> list[str]:
    lowered = text.lower()
    found = [f"{name!r} (say {ours!r})" for name, ours in OTHER_NAMES.items() if name in lowered]
    found += [f"{m!r} (small or large?)" for m in GOOD_WITHOUT_ITS_SIZE.findall(lowered)]
    return found


@pytest.mark.parametrize("players, seed", [(2, 31), (3, 32), (4, 33)])
def test_menus_prompts_and_sentences_use_the_tables_names(players: int, seed: int) -> None:
    said = 0
    for text in everything_said(players, seed):
        assert not named_otherwise(text), f"{text!r}: {named_otherwise(text)}"
        said += 1
    assert said > 5000


def test_the_rules_text_and_the_console_help_use_the_tables_names() -> None:
    # the console's help shows moves in notation (e.g. "harvest mine 1 copper"): those
    # examples are the notation's words, on purpose
    examples = re.compile(r"e\.g\. recruit[^\n]*\n[^\n]*")
    assert examples.search(console.HELP)
    help_in_words = examples.sub("", console.HELP)
    for text in (words.RULES_HELP, help_in_words, *words.ROW_REWARDS.values()):
        assert not named_otherwise(text), named_otherwise(text)
    assert BOARD["small_box"].one in words.RULES_HELP
    assert ACTIONS["advance"].phrase in words.RULES_HELP
    assert f"no {BOARD['small_box'].one}" in console.HELP
    assert words.ROW_REWARDS[2] == (
        f"3 goods: {GOODS['copper'].one}, {GOODS['stone'].one}, or {GOODS['grain'].one}"
    )


def test_each_thing_has_the_same_name_in_menus_sentences_and_pictures() -> None:
    """The bot reads its names from the table the pictures draw with."""
    assert {good: term.one for good, term in GOODS.items()} == words.GOOD_NAMES
    assert words.AREA_NAMES == render_words.AREA_WORDS
    assert BOARD["small_box"].one == words.EXTRA_BOX
    assert {
        area: render_words.capitalised(term.one) for area, term in AREAS.items()
    } == prompts.AREA_TITLES
    assert words.workers_text(["copper", "grain"]) == (
        f"a {WORKER_COLOURS['copper'].one} and a {WORKER_COLOURS['grain'].one} worker"
    )
    # the menus that name goods and boxes
    game = Game.new(["ana", "ben"], seed=5)
    while game.pending.kind != "extra":
        pid, action = choose_action(game, random.Random(game.version))
        if action.verb == "harvest" or game.pending.kind != "main":
            game.apply(pid, action)
        else:
            harvest = [a for a in game.legal_actions(pid) if a.verb == "harvest"]
            game.apply(pid, harvest[0] if harvest else action)
    panel = prompts.public_panel(game, {})
    extra_box = render_words.capitalised(BOARD["small_box"].one)
    assert all(b.label.startswith(extra_box) for b in panel.buttons if b.code.startswith("a:extra"))
    assert f"No {BOARD['small_box'].one}" in [b.label for b in panel.buttons]
    trade = prompts.sub_panel(game, game.turn_player, "p:trade", {})
    goods = {b.code.split()[-1]: b.label for b in trade.buttons if b.code.count(" ") == 1}
    assert all(label == f"1 {GOODS[good].one}" for good, label in goods.items() if good in GOODS)


async def test_a_refusal_names_the_goods_as_the_table_does(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A player holding a large copper who lacks the small copper a field costs is told
    "you lack 1 small copper": never just "copper", which they might think they hold."""
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await game_at_main(fake_discord, db, "a", "b", seed=6)
    _, game = await table.game(game_id)
    pid = game.awaiting
    assert pid is not None
    field = next(
        game.fields[label]
        for label in sorted(candidate_fields(game, pid))
        if game.fields[label].cost.get("copper")
    )

    def large_copper_no_small(state: dict[str, Any]) -> None:
        for player in state["players"]:
            if player["id"] == pid:
                goods = player["goods"]
                for good in data.GOODS:
                    goods[good] = 5
                goods["copper"] = 0
                goods["bigcopper"] = 1

    edit_state(db, game_id, large_copper_no_small)
    said = await fake_discord.slash(
        table.user(pid), thread, "montana", "build", options={"field": field.label}
    )
    copper = GOODS["copper"]
    assert f"you lack {copper.count(field.cost['copper'])}" in said.content, said.content
    assert not named_otherwise(said.content), said.content


def candidate_fields(game: Game, pid: str) -> set[str]:
    """The fields the player could build on if they held every good (the frontier)."""
    player = game.player(pid)
    held = dict(player.goods)
    for good in data.GOODS:
        player.goods[good] = 9
    try:
        return set(game.buildable_fields(pid))
    finally:
        player.goods.update(held)
