"""Which choices to offer the awaited player, as plain data (no Discord here).

A `Panel` is a short instruction plus buttons and select menus, each a `Choice`
carrying a *code*: `a:<notation>` applies an action, `p:<panel>[:args]` opens a
follow-up panel, `board` shows the presser's own board, `undo` takes back the last
mover's move (only they may press it), `inadvance` passes in advance in the running
city auction (only players queued to answer later may press it). Every action offered
comes from `game.legal_actions`, so this module holds no rule of the game; it only
groups the legal actions into steps a person can tap through, with a sensible default
first. The Discord layer turns panels into components (`bot.discord_app.components`);
the console can number the same choices. Names of things come from the vocabulary
(`render.vocabulary`), as in the pictures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from render.vocabulary import AREAS, GOODS, WORKER_COLOURS
from rules import Action, Game, IllegalAction, data

from . import passes, words

Style = Literal["primary", "secondary", "success", "danger"]

BOARD = "board"
UNDO = "undo"
UNDO_LABEL = "↩ Undo"
IN_ADVANCE = "inadvance"
HINT = "hint"
HINT_LABEL = "💡 Hint"
MAX_BUTTONS = 25
MAX_OPTIONS = 25
AREA_TITLES = {area: term.one[:1].upper() + term.one[1:] for area, term in AREAS.items()}
ROW_REWARDS = words.ROW_REWARDS
EXTRA_BOX_TITLE = words.EXTRA_BOX[:1].upper() + words.EXTRA_BOX[1:]
DECLINING = frozenset({"stop", "pass", "noextra", "advance 0", "end", "upgrade"})
"""The moves that say "no" to a step (stop building, pass, no extra box, not moving the
arrow, end the turn, no upgrade): always offered last, so no other choice moves around them,
and numbered 0 in the console."""


class UnknownChoice(ValueError):
    """A code this module never produces (tampered or from an older bot)."""


@dataclass(frozen=True)
class Choice:
    code: str
    label: str
    style: Style = "secondary"
    disabled: bool = False
    row: int | None = None
    description: str | None = None
    """Second line of a select option."""


@dataclass(frozen=True)
class Menu:
    name: str
    """Short id of the menu inside its panel (part of the custom_id)."""
    placeholder: str
    options: tuple[Choice, ...]


@dataclass(frozen=True)
class Panel:
    text: str
    """The instruction, for a panel shown on its own (ephemeral, console)."""
    buttons: tuple[Choice, ...] = ()
    menus: tuple[Menu, ...] = ()
    hint: str = ""
    """What the public message adds under its own prompt line (often nothing)."""

    @property
    def choices(self) -> list[Choice]:
        """Every enabled choice (buttons, then menu options) — what a console would number."""
        items = [b for b in self.buttons if not b.disabled]
        for menu in self.menus:
            items.extend(menu.options)
        return items


def act(action: Action) -> str:
    return f"a:{action}"


def declines(choice: Choice) -> bool:
    """Whether `choice` is the "no" of its step (see `DECLINING`)."""
    return choice.code.startswith("a:") and choice.code[2:] in DECLINING


def _bottom_row(buttons: Sequence[Choice], adding: int = 1) -> int | None:
    """The row `adding` more buttons go to so they come last: the lowest row in use if it
    has room, else the next (None: the buttons are laid out by Discord, in order)."""
    if all(b.row is None for b in buttons):
        return None
    rows = [b.row or 0 for b in buttons]  # Discord puts the others in the first rows
    bottom = max(rows)
    return bottom if rows.count(bottom) + adding <= 5 else bottom + 1


def _declining_last(buttons: Sequence[Choice]) -> tuple[Choice, ...]:
    """`buttons` with the declining one moved to the end (and the last row)."""
    others = [b for b in buttons if not declines(b)]
    last = [b for b in buttons if declines(b)]
    if not last or not others:
        return tuple(buttons)
    row = _bottom_row(others, len(last))
    return (*others, *(replace(b, row=row) for b in last))


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _legal(game: Game, player_id: str) -> list[Action]:
    return game.legal_actions(player_id)


def _by_verb(actions: Sequence[Action], *verbs: str) -> list[Action]:
    return [a for a in actions if a.verb in verbs]


def cost_total(cost: Mapping[str, int]) -> int:
    return sum(cost.values())


def build_options(game: Game, player_id: str) -> list[Choice]:
    """Legal builds now, cheapest first, as select options (at most 25)."""
    actions = _by_verb(_legal(game, player_id), "build")
    fields = [game.fields[a.args[0]] for a in actions]
    fields.sort(key=lambda f: (cost_total(f.cost), f.label))
    options = []
    for f in fields[:MAX_OPTIONS]:
        gains = game.build_gains(player_id, f.label)
        extras = []
        if "double" in gains.bonuses:
            extras.append("double field: 2 settlements")
        lines = gains.bonuses.count("line")
        if lines:
            extras.append(
                f"completes {'a line' if lines == 1 else f'{lines} lines'} of 4: "
                f"+{words.plural(lines, 'settlement')}"
            )
        if gains.cow:
            extras.append("a cow")
        if gains.canteen_lakes:
            canteens = len(gains.canteen_lakes)
            extras.append("a canteen" if canteens == 1 else f"{canteens} canteens")
        options.append(
            Choice(
                code=act(Action("build", (f.label,))),
                label=_short(f"{f.label} — {words.goods_text(f.cost)}"),
                description=_short(words.join_words(extras)) if extras else None,
            )
        )
    return options


def _trade_button(actions: Sequence[Action], row: int) -> list[Choice]:
    if _by_verb(actions, "trade"):
        return [Choice("p:trade", "Trade a cow…", row=row)]
    return []


def _board_button(row: int) -> Choice:
    return Choice(BOARD, "My board", row=row)


def stop_label(game: Game) -> str:
    coins = game.unused_build_coins()
    return f"Stop building (+{words.plural(coins, 'coin')})" if coins else "Stop building"


def public_panel(game: Game, names: Mapping[str, str], *, hint: bool = False) -> Panel:
    """The buttons under the public picture, for whoever the game awaits (with `hint`,
    a Hint button that asks the AI, when there is room)."""
    pid = game.awaiting
    if pid is None:
        return Panel(text="")
    actions = _legal(game, pid)
    panel = _public_panel(game, pid, actions, names)
    buttons = panel.buttons
    extras = []
    if _by_verb(actions, "trade") and not any(b.code == "p:trade" for b in buttons):
        # cows may be traded at any moment of one's own turn: keep the door open
        extras.append(Choice("p:trade", "Trade a cow…"))
    if passes.queued_later(game):
        extras.append(Choice(IN_ADVANCE, "Pass in advance"))
    undo = undo_choice(game, names)
    if undo is not None:
        extras.append(undo)
    if hint and len(actions) > 1:
        extras.append(Choice(HINT, HINT_LABEL))
    for extra in extras:
        row = _bottom_row(buttons)
        if row is None or row < 5 - len(panel.menus):
            buttons = (*buttons, replace(extra, row=row))
    return replace(panel, buttons=_declining_last(buttons))


def last_mover(game: Game) -> str | None:
    """The player who may take back their last move now (the Undo button's), if anyone:
    the last player who chose a move (forced steps are nobody's choice), while no other
    player has chosen one and no wheel result has been revealed since."""
    forced = set(game.auto)
    for index in range(len(game.log) - 1, -1, -1):
        if index in forced:
            continue
        player, notation = game.log[index]
        if notation.startswith("spin "):
            return None
        return player if game.undoable(player) else None
    return None


def undo_choice(game: Game, names: Mapping[str, str]) -> Choice | None:
    """The Undo button for the last mover, if they may still take their move back; it
    names them when the game awaits someone else."""
    mover = last_mover(game)
    if mover is None:
        return None
    label = UNDO_LABEL if mover == game.awaiting else f"{UNDO_LABEL} ({names.get(mover, mover)})"
    return Choice(UNDO, _short(label))


def _public_panel(
    game: Game, pid: str, actions: Sequence[Action], names: Mapping[str, str]
) -> Panel:
    kind = game.pending.kind
    if kind == "main":
        return _main_panel(game, pid, actions)
    if kind == "take":
        return Panel(
            "Choose the colours of the two wild workers:",
            tuple(_take_choices(actions)) + tuple(_trade_button(actions, 2)) + (_board_button(2),),
        )
    if kind == "advance":
        return Panel(
            f"{words.MOVE_THE_ARROW.capitalize()}? Each segment costs 1 grain and gives that "
            "segment's workers.",
            tuple(_advance_choices(game, pid, actions))
            + tuple(_trade_button(actions, 2))
            + (_board_button(2),),
        )
    if kind == "return":
        return _return_panel(game, pid, actions, ())
    if kind == "extra":
        return _extra_panel(game, actions)
    if kind == "bid":
        return _named_city_panel(game, actions, "place", names)
    if kind == "reward":
        return _reward_panel(game, pid, actions)
    if kind == "build":
        buttons = [*_trade_button(actions, 1), _board_button(1)]
        buttons.append(Choice(act(Action("stop")), stop_label(game), "primary", row=1))
        # the same list, in the same order, as the first "Build…" menu
        options = build_options(game, pid)
        menus = (Menu("build", "Build again on…", tuple(options)),) if options else ()
        return Panel("Build again, or stop building:", tuple(buttons), menus)
    if kind == "end":
        player = game.player(pid)
        buttons = [
            Choice(
                act(Action("canteen")),
                f"Use a canteen: another turn ({player.canteens} left)",
                "success",
            ),
            *_trade_button(actions, 0),
            _board_button(0),
            Choice(act(Action("end")), "End turn", "primary"),
        ]
        return Panel("Use a canteen for another turn, or end your turn:", tuple(buttons))
    return Panel("Choose your move:", (_board_button(0),))


def _main_panel(game: Game, pid: str, actions: Sequence[Action]) -> Panel:
    work = _by_verb(actions, "bank", "harvest", "city")
    builds = _by_verb(actions, "build")
    trades = _by_verb(actions, "trade")
    player = game.player(pid)
    buttons = [
        Choice(act(Action("recruit")), "Recruit", "primary", row=0),
        Choice(
            "p:work",
            "Work…" if work else "Work (no free space you can use)",
            "primary",
            disabled=not work,
            row=0,
        ),
        Choice(
            "p:build",
            "Build…" if builds else "Build (no field you can pay for)",
            "success",
            disabled=not builds,
            row=0,
        ),
        Choice(
            "p:trade",
            "Trade a cow…" if trades else "Trade a cow (no cow)",
            disabled=not trades,
            row=1,
        ),
        _board_button(1),
    ]
    reasons = []
    if not work:
        reasons.append("Work: every space you could use is taken or too dear")
    if not builds:
        reasons.append(
            "Build: you have no settlements left"
            if player.settlements_left <= 0
            else "Build: no free field next to a settlement matches your goods"
        )
    hint = "; ".join(reasons)
    text = "Choose your action:" + (f" ({hint})" if hint else "")
    return Panel(text, tuple(buttons), hint=hint)


def _take_choices(actions: Sequence[Action]) -> list[Choice]:
    return [
        Choice(act(a), words.colours_text(a.args), row=index // 5)
        for index, a in enumerate(_by_verb(actions, "take"))
    ]


def _advance_choices(game: Game, pid: str, actions: Sequence[Action]) -> list[Choice]:
    """+1 grain, +2 grain ... (5 a row), and "No" (the default) after them."""
    choices = []
    keep = None
    advances = sorted(_by_verb(actions, "advance"), key=lambda a: int(a.args[0]))
    for action in advances:
        steps = int(action.args[0])
        if steps == 0:
            keep = Choice(act(action), "No, keep what I have", "primary")
            continue
        shows = preview_wheel(game, pid, action)
        choices.append(
            Choice(act(action), _short(f"+{steps} grain → {shows}"), row=(steps - 1) // 5)
        )
    if keep is not None:
        choices.append(replace(keep, row=_bottom_row(choices)))
    return choices


def preview_wheel(game: Game, pid: str, action: Action) -> str:
    """What the wheel would show after `action` (by trying it on a copy of the game)."""
    try:
        events = game.copy().apply(pid, action)
    except IllegalAction:
        return "?"
    for event in events:
        if event.kind == "advance":
            return words.colours_text(event.data["shows"])
    return "?"


def _return_panel(
    game: Game, pid: str, actions: Sequence[Action], picked: tuple[str, ...]
) -> Panel:
    returns = _by_verb(actions, "return")
    player = game.player(pid)
    excess = game.workers_over_limit(pid)
    buttons: list[Choice] = []
    if not picked and returns:
        # default: give back the colours held most
        best = max(returns, key=lambda a: sum(player.workers[c] for c in a.args))
        buttons.append(
            Choice(
                act(best),
                _short(f"{words.GIVE_BACK.capitalize()} {words.workers_text(list(best.args))}"),
                "primary",
                row=0,
            )
        )
    left = dict(player.workers)
    for colour in picked:
        left[colour] -= 1
    for colour in data.COLOURS:
        if left[colour] <= 0:
            continue
        chosen = (*picked, colour)
        code = (
            act(Action("return", tuple(sorted(chosen, key=data.COLOURS.index))))
            if len(chosen) == excess
            else "p:ret:" + ",".join(chosen)
        )
        buttons.append(
            Choice(
                code,
                f"{words.GIVE_BACK.capitalize()} {words.workers_text([colour])} "
                f"({left[colour]} held)",
                row=1,
            )
        )
    if picked:
        buttons.append(Choice("p:ret:", "Start over", "danger", row=2))
    buttons = _unique(buttons)
    so_far = f" Chosen so far: {words.workers_text(list(picked))}." if picked else ""
    return Panel(
        f"You hold {player.worker_count} workers: {words.GIVE_BACK} {excess} to keep "
        f"{data.MAX_WORKERS}.{so_far}",
        tuple(buttons),
    )


def _unique(buttons: list[Choice]) -> list[Choice]:
    """The buttons without repeats of a code (the first, usually the default, stays)."""
    seen: set[str] = set()
    unique = []
    for button in buttons:
        if button.code not in seen:
            seen.add(button.code)
            unique.append(button)
    return unique


def _extra_panel(game: Game, actions: Sequence[Action]) -> Panel:
    good = words.GOOD_NAMES[data.AREA_GOOD[game.pending.area]]
    extras = _by_verb(actions, "extra")
    buttons = [
        Choice(
            act(action),
            _short(f"{EXTRA_BOX_TITLE}: {words.workers_text(list(action.args))}"),
            "primary" if index == 0 else "secondary",
            row=index // 5,
        )
        for index, action in enumerate(extras[: MAX_BUTTONS - 5])
    ]
    last_row = (len(buttons) + 4) // 5
    buttons += _trade_button(actions, last_row)
    buttons.append(_board_button(last_row))
    buttons.append(Choice(act(Action("noextra")), f"No {words.EXTRA_BOX}", row=last_row))
    return Panel(f"Put workers on the {words.EXTRA_BOX} for 1 more {good}?", tuple(buttons))


def _city_panel(game: Game, actions: Sequence[Action], verb: str) -> Panel:
    """The 4x4 city grid (labelled with costs; occupied or unaffordable spaces disabled)."""
    allowed = {(int(a.args[0]), int(a.args[1])) for a in _by_verb(actions, verb)}
    grid = game.city_grid()
    buttons: list[Choice] = []
    for row in range(1, data.CITY_ROWS + 1):
        for col, cost in enumerate(data.CITY_COSTS, start=1):
            occupant = grid.get((row, col))
            label = f"R{row} · {cost} 🎃"
            if occupant is not None:
                label = f"R{row} · {_short(occupant, 10)}"
            buttons.append(
                Choice(
                    act(Action(verb, (str(row), str(col)))),
                    label,
                    "success" if (row, col) in allowed else "secondary",
                    disabled=(row, col) not in allowed,
                    row=row - 1,
                )
            )
    extra_row = [*_trade_button(actions, 4), _board_button(4)]
    if verb == "place":
        extra_row.append(Choice(act(Action("pass")), "Pass", "danger", row=4))
    rewards = " · ".join(f"R{r}: {text}" for r, text in ROW_REWARDS.items())
    costs = "/".join(str(n) for n in data.CITY_COSTS)
    legend = f"Rows — {rewards}. Columns cost {costs} pumpkins; green = yours to take."
    return Panel(f"The city. {legend}", tuple(buttons + extra_row), hint=legend)


def _named_city_panel(
    game: Game, actions: Sequence[Action], verb: str, names: Mapping[str, str]
) -> Panel:
    panel = _city_panel(game, actions, verb)
    buttons = []
    for choice in panel.buttons:
        label = choice.label
        for pid, name in names.items():
            label = label.replace(pid, _short(name, 10))
        buttons.append(Choice(choice.code, label, choice.style, choice.disabled, choice.row))
    return Panel(panel.text, tuple(buttons), panel.menus, panel.hint)


def _reward_panel(game: Game, pid: str, actions: Sequence[Action]) -> Panel:
    row = game.pending.row
    options = _by_verb(actions, "upgrade", "goods")
    # the best default first: the most upgrades / goods in the scarcest-looking order
    options.sort(key=lambda a: -len(a.args))
    buttons = []
    for index, action in enumerate(options[: MAX_BUTTONS - 1]):
        if action.verb == "goods":
            label = "Take " + words.goods_text(words.count_list(action.args))
        elif action.args:
            label = "Upgrade " + words.goods_text(words.count_list(action.args))
        else:
            label = "No upgrade"
        buttons.append(
            Choice(
                act(action), _short(label), "primary" if index == 0 else "secondary", row=index // 5
            )
        )
    buttons.append(_board_button(min(4, len(buttons) // 5 + (1 if len(buttons) % 5 else 0))))
    return Panel(f"Your reward for city row {row} ({ROW_REWARDS.get(row, '')}):", tuple(buttons))


# ---------------------------------------------------------------- follow-up panels


def sub_panel(game: Game, player_id: str, code: str, names: Mapping[str, str]) -> Panel:
    """The ephemeral panel a `p:...` code opens, for the awaited `player_id`."""
    actions = _legal(game, player_id)
    parts = code.split(":")
    if parts[0] != "p" or len(parts) < 2:
        raise UnknownChoice(code)
    name, args = parts[1], parts[2:]
    if name == "work":
        return _work_panel(game, player_id, actions)
    if name == "bank" and len(args) == 1:
        return _bank_workers_panel(game, player_id, actions, args[0])
    if name == "harv" and len(args) == 2:
        return _harvest_workers_panel(game, player_id, actions, args[0], args[1])
    if name == "city":
        return _named_city_panel(game, actions, "city", names)
    if name == "build":
        options = build_options(game, player_id)
        if not options:
            return Panel("There is no field you can build on now.")
        return Panel(
            "Build on which field? (cheapest first; up to 3 builds this action)",
            (),
            (Menu("build", "Choose a field…", tuple(options)),),
        )
    if name == "trade":
        return _trade_panel(actions)
    if name == "ret" and len(args) <= 1:
        picked = tuple(c for c in (args[0].split(",") if args and args[0] else []) if c)
        if any(c not in data.COLOURS for c in picked):
            raise UnknownChoice(code)
        return _return_panel(game, player_id, actions, picked)
    raise UnknownChoice(code)


def _work_panel(game: Game, pid: str, actions: Sequence[Action]) -> Panel:
    options: list[Choice] = []
    banks = sorted({int(a.args[0]) for a in _by_verb(actions, "bank")})
    for space in banks:
        needed, coins = data.BANK[space - 1]
        options.append(
            Choice(
                f"p:bank:{space}",
                f"Bank space {space}: {words.plural(needed, 'worker')} → "
                f"{words.plural(coins, 'coin')}",
            )
        )
    places = sorted(
        {(a.args[0], int(a.args[1])) for a in _by_verb(actions, "harvest")},
        key=lambda p: (data.AREAS.index(p[0]), p[1]),
    )
    for area, place in places:
        coins, amount = data.HARVEST_PLACES[area][place - 1]
        good = data.AREA_GOOD[area]
        options.append(
            Choice(
                f"p:harv:{area}:{place}",
                _short(
                    f"{AREA_TITLES[area]}, place {place}: pay {words.plural(coins, 'coin')} → "
                    f"{words.goods_text({good: amount})}"
                ),
                description=(
                    f"1 {WORKER_COLOURS[data.AREA_COLOUR[area]].one} worker or any 2; "
                    f"{words.EXTRA_BOX} +1 after"
                ),
            )
        )
    if _by_verb(actions, "city"):
        options.append(Choice("p:city", "The city: a free pumpkin, then a space (auction)"))
    if not options:
        return Panel("There is nowhere you can work now.")
    return Panel(
        "Work where?", (), (Menu("work", "Bank, harvest place or city…", tuple(options[:25])),)
    )


def _workers_default_key(player_workers: Mapping[str, int], combo: Sequence[str]) -> int:
    return -sum(player_workers[c] for c in combo)


def _bank_workers_panel(game: Game, pid: str, actions: Sequence[Action], space: str) -> Panel:
    player = game.player(pid)
    combos = [a for a in _by_verb(actions, "bank") if a.args[0] == space]
    if not combos:
        return Panel(f"Bank space {space} is not available to you now.")
    combos.sort(key=lambda a: _workers_default_key(player.workers, a.args[1:]))
    buttons = tuple(
        Choice(
            act(a),
            _short(words.workers_text(list(a.args[1:]))),
            "primary" if i == 0 else "secondary",
            row=i // 5,
        )
        for i, a in enumerate(combos[:MAX_BUTTONS])
    )
    needed, coins = data.BANK[int(space) - 1]
    which = "which worker" if needed == 1 else f"which {needed} workers"
    return Panel(f"Bank space {space} ({words.plural(coins, 'coin')}): {which}?", buttons)


def _harvest_workers_panel(
    game: Game, pid: str, actions: Sequence[Action], area: str, place: str
) -> Panel:
    combos = [a for a in _by_verb(actions, "harvest") if a.args[0] == area and a.args[1] == place]
    if not combos:
        return Panel("That harvest place is not available to you now.")
    colour = data.AREA_COLOUR.get(area, "")
    # default: the single worker of the area's colour, then pairs
    combos.sort(key=lambda a: (len(a.args), a.args[2:] != (colour,)))
    buttons = tuple(
        Choice(
            act(a),
            _short(words.workers_text(list(a.args[2:]))),
            "primary" if i == 0 else "secondary",
            row=i // 5,
        )
        for i, a in enumerate(combos[:MAX_BUTTONS])
    )
    return Panel(f"{AREA_TITLES.get(area, area)}, place {place}: which workers go?", buttons)


def _trade_panel(actions: Sequence[Action]) -> Panel:
    trades = _by_verb(actions, "trade")
    if not trades:
        return Panel("You have no cow to trade now.")
    buttons = []
    for index, action in enumerate(trades):
        if action.args[0] == "coins":
            label = words.plural(data.COW_TRADE_COINS, "coin")
        elif action.args[0] == "worker":
            label = words.workers_text([action.args[1]])
        else:
            label = f"1 {GOODS[action.args[0]].one}"
        buttons.append(Choice(act(action), label, row=index // 5))
    return Panel("Trade one cow for:", tuple(buttons))


def tap_path(
    game: Game, pid: str, names: Mapping[str, str], start: Sequence[str], target: str
) -> list[str] | None:
    """The shortest run of codes to tap, from those on a message (`start`), to reach
    `target` (e.g. "a:build C4"), opening sub-panels on the way; None if none leads there."""
    frontier: list[tuple[list[str], list[str]]] = [([], list(start))]
    seen: set[str] = set()
    while frontier:
        path, codes = frontier.pop(0)
        if target in codes:
            return [*path, target]
        for code in codes:
            if code.startswith("p:") and code not in seen:
                seen.add(code)
                panel = sub_panel(game, pid, code, names)
                frontier.append(([*path, code], [c.code for c in panel.choices]))
    return None
