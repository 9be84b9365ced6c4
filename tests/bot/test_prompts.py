"""Every legal action is reachable from the panels, and nothing illegal is offered."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.core.play import prompts
from rules import Game
from rules.simulate import choose_action
from tests.bot.games import at_first_main_decision


def reachable_codes(game: Game, pid: str) -> set[str]:
    """All `a:` codes reachable by tapping through the public panel and its follow-ups."""
    names = {p.id: p.id.upper() for p in game.players}
    seen_panels: set[str] = set()
    actions: set[str] = set()
    todo = [prompts.public_panel(game, names)]
    while todo:
        panel = todo.pop()
        for choice in panel.choices:
            if choice.code.startswith("a:"):
                actions.add(choice.code[2:])
            elif choice.code.startswith("p:") and choice.code not in seen_panels:
                seen_panels.add(choice.code)
                todo.append(prompts.sub_panel(game, pid, choice.code, names))
    return actions


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3)])
def test_panels_offer_exactly_the_legal_actions(players: int, seed: int) -> None:
    game = Game.new(["ana", "ben", "cleo", "dan"][:players], seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over and steps < 400:
        pid = game.awaiting
        assert pid is not None
        legal = {str(a) for a in game.legal_actions(pid)}
        offered = reachable_codes(game, pid)
        assert offered <= legal, f"offered but illegal: {offered - legal}"
        missing = legal - offered
        # builds are capped at 25 options (cheapest first); nothing else may be missing
        assert all(m.startswith("build ") for m in missing), f"not reachable: {missing}"
        if game.pending.kind != "main":
            assert not missing
        player, action = choose_action(game, rng)
        game.apply(player, action)
        steps += 1
    assert steps > 50


def test_disabled_main_buttons_say_why() -> None:
    game, pid = at_first_main_decision(["ana", "ben"], 5)
    player = game.player(pid)
    for good in player.goods:
        player.goods[good] = 0
    player.cows = 0
    panel = prompts.public_panel(game, {})
    by_code = {b.code: b for b in panel.buttons}
    assert by_code["p:build"].disabled and "no field" in by_code["p:build"].label
    assert by_code["p:trade"].disabled and "no cow" in by_code["p:trade"].label
    assert not by_code["a:recruit"].disabled


def test_build_options_cheapest_first_with_costs() -> None:
    game, pid = at_first_main_decision(["ana", "ben"], 7)
    player = game.player(pid)
    for good in player.goods:
        player.goods[good] = 5
    options = prompts.build_options(game, pid)
    assert options, "rich player can build somewhere"
    labels = [o.code.split()[-1] for o in options]
    totals = [sum(game.fields[label].cost.values()) for label in labels]
    assert totals == sorted(totals)
    assert set(labels) == set(game.buildable_fields(pid))
    first = game.fields[labels[0]]
    assert options[0].label.startswith(first.label + " — ")
    assert all(len(o.label) <= 80 for o in options)


def test_custom_ids_fit_discord_limit() -> None:
    game = Game.new(["123456789012345678", "223456789012345678"], seed=3)
    rng = random.Random(3)
    for _ in range(150):
        if game.is_over:
            break
        pid = game.awaiting
        assert pid is not None
        for code in reachable_codes(game, pid):
            custom_id = f"mt:{2**40}:{game.version + 10000}:a:{code}"
            assert len(custom_id) <= 100
        player, action = choose_action(game, rng)
        game.apply(player, action)


def test_no_panel_repeats_a_code() -> None:
    """Discord refuses a message whose components share a custom_id."""
    for seed in range(4):
        game = Game.new(["ana", "ben", "cleo"], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            pid = game.awaiting
            assert pid is not None
            panels = [prompts.public_panel(game, {})]
            for choice in panels[0].choices:
                if choice.code.startswith("p:"):
                    panels.append(prompts.sub_panel(game, pid, choice.code, {}))
            for panel in panels:
                codes = [b.code for b in panel.buttons]
                assert len(codes) == len(set(codes)), panel
            game.apply(*choose_action(game, rng))


def test_tampered_codes_are_refused_or_harmless() -> None:
    game, pid = at_first_main_decision(["ana", "ben"], 2)
    for code in ("p:", "p:nope", "x:work", "p:ret:gold", "p:bank", "p:harv:mine"):
        with pytest.raises(prompts.UnknownChoice):
            prompts.sub_panel(game, pid, code, {})
    for code in ("p:bank:9", "p:bank:abc", "p:harv:mine:7", "p:harv:'; DROP TABLE games;--:1"):
        panel = prompts.sub_panel(game, pid, code, {})
        assert not panel.choices and "not available" in panel.text


def public_panels(players: int, seed: int) -> Iterator[tuple[Game, str, prompts.Panel]]:
    """Every public panel of a random game, with the game and the awaited player."""
    game = Game.new(["ana", "ben", "cleo", "dan"][:players], seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        pid = game.awaiting
        assert pid is not None
        yield game, pid, prompts.public_panel(game, {})
        game.apply(*choose_action(game, rng))


def test_the_choice_that_says_no_is_the_last_button_and_layouts_fit_discord() -> None:
    """Issue 12.4: "stop" came first in "build again"; now stop, pass and every other
    "no" are the last button (in the last row), so nothing moves around them."""
    declined_in: set[str] = set()
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        for game, _, panel in public_panels(players, seed):
            declining = [b for b in panel.buttons if prompts.declines(b)]
            assert len(declining) <= 1, panel
            if declining:
                declined_in.add(game.pending.kind)
                assert panel.buttons[-1] == declining[0], panel
                rows = [b.row for b in panel.buttons if b.row is not None]
                assert declining[0].row == (max(rows) if rows else None), panel
            rows_used = [b.row or 0 for b in panel.buttons]
            assert all(rows_used.count(r) <= 5 for r in rows_used), panel
            assert len(set(rows_used)) + len(panel.menus) <= 5, panel
            assert max(rows_used, default=0) < 5 - len(panel.menus), panel
    assert {"build", "bid", "extra", "advance", "end"} <= declined_in


def test_the_same_choice_keeps_its_place_from_step_to_step() -> None:
    """The main buttons never move (a disabled one keeps its place); the city is the same
    grid every time; "build again" lists the fields in the same order as "Build…"."""
    main_order: set[tuple[str, ...]] = set()
    city_order: set[tuple[str, ...]] = set()
    build_again_seen = 0
    for players, seed in ((2, 21), (3, 22), (4, 23)):
        for game, pid, panel in public_panels(players, seed):
            codes = tuple(b.code for b in panel.buttons)
            kind = game.pending.kind
            if kind == "main":
                # a cow trade and the previous mover's Undo come and go after the others
                main_order.add(tuple(c for c in codes if c not in ("p:trade", prompts.UNDO)))
            elif kind == "bid":
                city_order.add(codes[:16])
            elif kind == "build":
                build_again_seen += 1
                options = [o.code for menu in panel.menus for o in menu.options]
                assert options == [o.code for o in prompts.build_options(game, pid)]
                assert codes[-1] == "a:stop"
    assert main_order == {("a:recruit", "p:work", "p:build", "board")}
    assert len(city_order) == 1
    assert build_again_seen > 3
