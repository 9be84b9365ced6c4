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

from bot.core.play import passes
from bot.core.wording import words
from i18n import Translator
from render import icon_set
from render.vocabulary import AREAS, GOODS, PIECES, WORKER_COLOURS
from render.words import ENGLISH
from rules import Action, Game, IllegalAction, data

Style = Literal["primary", "secondary", "success", "danger"]

BOARD = "board"
UNDO = "undo"
IN_ADVANCE = "inadvance"
HINT = "hint"
HINT_LABEL = "💡 Hint"
MAX_BUTTONS = 25
MAX_OPTIONS = 25
AREA_TITLES = {area: term.one[:1].upper() + term.one[1:] for area, term in AREAS.items()}
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
    icon: str | None = None
    """The game's icon shown beside the label (`render.icon_set.ICONS`): the emoji of a
    button or select option on Discord, its Unicode stand-in in the console."""


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


def player_colour(game: Game, player_id: str) -> str:
    """The player colour of a seat (blue, yellow, green, red, in seat order)."""
    seats = [p.id for p in game.players]
    return data.PLAYER_COLOURS[seats.index(player_id)] if player_id in seats else ""


def _house(game: Game, player_id: str) -> str | None:
    colour = player_colour(game, player_id)
    return icon_set.house(colour) if colour else None


def _worker(colours: Sequence[str]) -> str | None:
    """The icon of the first of `colours`' workers (None for no worker)."""
    if not colours or icon_set.worker(colours[0]) not in icon_set.ICONS:
        return None
    return icon_set.worker(colours[0])


def build_options(game: Game, player_id: str, t: Translator = ENGLISH) -> list[Choice]:
    """Legal builds now, cheapest first, as select options (at most 25)."""
    actions = _by_verb(_legal(game, player_id), "build")
    fields = [game.fields[a.args[0]] for a in actions]
    fields.sort(key=lambda f: (cost_total(f.cost), f.label))
    options = []
    for f in fields[:MAX_OPTIONS]:
        gains = game.build_gains(player_id, f.label)
        extras = []
        if "double" in gains.bonuses:
            extras.append(t.gettext("double field: 2 settlements"))
        lines = gains.bonuses.count("line")
        if lines:
            extras.append(
                t.ngettext(
                    "completes a line of 4: +{n} settlement",
                    "completes {n} lines of 4: +{n} settlements",
                    lines,
                )
            )
        if gains.cow:
            extras.append(t.gettext("a cow"))
        if gains.canteen_lakes:
            canteens = len(gains.canteen_lakes)
            extras.append(
                t.gettext("a canteen") if canteens == 1 else t.gettext("{n} canteens", n=canteens)
            )
        options.append(
            Choice(
                code=act(Action("build", (f.label,))),
                label=_short(f"{f.label} — {words.goods_text(f.cost, t)}"),
                description=_short(words.listed(extras, t)) if extras else None,
                icon=_house(game, player_id),
            )
        )
    return options


def _trade_button(actions: Sequence[Action], row: int, t: Translator) -> list[Choice]:
    if _by_verb(actions, "trade"):
        return [Choice("p:trade", t.pgettext("button", "Trade a cow…"), row=row, icon="cow")]
    return []


def _board_button(row: int, t: Translator) -> Choice:
    return Choice(BOARD, t.pgettext("button", "My board"), row=row)


def stop_label(game: Game, t: Translator = ENGLISH) -> str:
    coins = game.unused_build_coins()
    if coins:
        return t.pgettext(
            "button", "Stop building (+{coins})", coins=PIECES["coin"].count_in(t, coins)
        )
    return t.pgettext("button", "Stop building")


def public_panel(
    game: Game, names: Mapping[str, str], t: Translator = ENGLISH, *, hint: bool = False
) -> Panel:
    """The buttons under the public picture, for whoever the game awaits, in the game's
    language `t` (with `hint`, a Hint button that asks the AI, when there is room)."""
    pid = game.awaiting
    if pid is None:
        return Panel(text="")
    actions = _legal(game, pid)
    panel = _public_panel(game, pid, actions, names, t)
    buttons = panel.buttons
    extras = []
    if _by_verb(actions, "trade") and not any(b.code == "p:trade" for b in buttons):
        # cows may be traded at any moment of one's own turn: keep the door open
        extras.append(Choice("p:trade", t.pgettext("button", "Trade a cow…"), icon="cow"))
    if passes.queued_later(game):
        extras.append(Choice(IN_ADVANCE, t.pgettext("button", "Pass in advance")))
    undo = undo_choice(game, names, t)
    if undo is not None:
        extras.append(undo)
    if hint and len(actions) > 1:
        extras.append(Choice(HINT, "💡 " + t.pgettext("button", "Hint")))
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


def undo_label(t: Translator = ENGLISH) -> str:
    return "↩ " + t.pgettext("button", "Undo")


def undo_choice(game: Game, names: Mapping[str, str], t: Translator = ENGLISH) -> Choice | None:
    """The Undo button for the last mover, if they may still take their move back; it
    names them when the game awaits someone else."""
    mover = last_mover(game)
    if mover is None:
        return None
    label = undo_label(t)
    if mover != game.awaiting:
        label = f"{label} ({names.get(mover, mover)})"
    return Choice(UNDO, _short(label))


def _public_panel(
    game: Game, pid: str, actions: Sequence[Action], names: Mapping[str, str], t: Translator
) -> Panel:
    kind = game.pending.kind
    if kind == "main":
        return _main_panel(game, pid, actions, t)
    if kind == "take":
        return Panel(
            t.gettext("Choose the colours of the two wild workers:"),
            tuple(_take_choices(actions, t))
            + tuple(_trade_button(actions, 2, t))
            + (_board_button(2, t),),
        )
    if kind == "advance":
        return Panel(
            t.gettext(
                "Move the arrow? Each segment costs 1 grain and gives that segment's workers."
            ),
            tuple(_advance_choices(game, pid, actions, t))
            + tuple(_trade_button(actions, 2, t))
            + (_board_button(2, t),),
        )
    if kind == "return":
        return _return_panel(game, pid, actions, (), t)
    if kind == "extra":
        return _extra_panel(game, actions, t)
    if kind == "bid":
        return _named_city_panel(game, actions, "place", names, t)
    if kind == "reward":
        return _reward_panel(game, pid, actions, t)
    if kind == "build":
        buttons = [*_trade_button(actions, 1, t), _board_button(1, t)]
        buttons.append(Choice(act(Action("stop")), stop_label(game, t), "primary", row=1))
        # the same list, in the same order, as the first "Build…" menu
        options = build_options(game, pid, t)
        menus = (Menu("build", t.gettext("Build again on…"), tuple(options)),) if options else ()
        return Panel(t.gettext("Build again, or stop building:"), tuple(buttons), menus)
    if kind == "end":
        player = game.player(pid)
        buttons = [
            Choice(
                act(Action("canteen")),
                t.pgettext("button", "Use a canteen: another turn ({n} left)", n=player.canteens),
                "success",
                icon="canteen",
            ),
            *_trade_button(actions, 0, t),
            _board_button(0, t),
            Choice(act(Action("end")), t.pgettext("button", "End turn"), "primary"),
        ]
        return Panel(t.gettext("Use a canteen for another turn, or end your turn:"), tuple(buttons))
    return Panel(t.gettext("Choose your move:"), (_board_button(0, t),))


def _main_panel(game: Game, pid: str, actions: Sequence[Action], t: Translator) -> Panel:
    work = _by_verb(actions, "bank", "harvest", "city")
    builds = _by_verb(actions, "build")
    trades = _by_verb(actions, "trade")
    player = game.player(pid)
    buttons = [
        Choice(act(Action("recruit")), t.pgettext("button", "Recruit"), "primary", row=0),
        Choice(
            "p:work",
            t.pgettext("button", "Work…")
            if work
            else t.pgettext("button", "Work (no free space you can use)"),
            "primary",
            disabled=not work,
            row=0,
        ),
        Choice(
            "p:build",
            t.pgettext("button", "Build…")
            if builds
            else t.pgettext("button", "Build (no field you can pay for)"),
            "success",
            disabled=not builds,
            row=0,
        ),
        Choice(
            "p:trade",
            t.pgettext("button", "Trade a cow…")
            if trades
            else t.pgettext("button", "Trade a cow (no cow)"),
            disabled=not trades,
            row=1,
            icon="cow",
        ),
        _board_button(1, t),
    ]
    reasons = []
    if not work:
        reasons.append(t.gettext("Work: every space you could use is taken or too dear"))
    if not builds:
        reasons.append(
            t.gettext("Build: you have no settlements left")
            if player.settlements_left <= 0
            else t.gettext("Build: no free field next to a settlement matches your goods")
        )
    hint = "; ".join(reasons)
    if hint:
        text = t.gettext("Choose your action: ({hint})", hint=hint)
    else:
        text = t.gettext("Choose your action:")
    return Panel(text, tuple(buttons), hint=hint)


def _take_choices(actions: Sequence[Action], t: Translator) -> list[Choice]:
    return [
        Choice(act(a), words.colours_text(a.args, t), row=index // 5, icon=_worker(a.args))
        for index, a in enumerate(_by_verb(actions, "take"))
    ]


def _advance_choices(
    game: Game, pid: str, actions: Sequence[Action], t: Translator
) -> list[Choice]:
    """+1 grain, +2 grain ... (5 a row), and "No" (the default) after them."""
    choices = []
    keep = None
    advances = sorted(_by_verb(actions, "advance"), key=lambda a: int(a.args[0]))
    for action in advances:
        steps = int(action.args[0])
        if steps == 0:
            keep = Choice(act(action), t.pgettext("button", "No, keep what I have"), "primary")
            continue
        shows = preview_wheel(game, pid, action, t)
        grain = GOODS["grain"].name_in(t)
        choices.append(
            Choice(
                act(action),
                _short(f"+{steps} {grain} → {shows}"),
                row=(steps - 1) // 5,
                icon="grain",
            )
        )
    if keep is not None:
        choices.append(replace(keep, row=_bottom_row(choices)))
    return choices


def preview_wheel(game: Game, pid: str, action: Action, t: Translator = ENGLISH) -> str:
    """What the wheel would show after `action` (by trying it on a copy of the game)."""
    try:
        events = game.copy().apply(pid, action)
    except IllegalAction:
        return "?"
    for event in events:
        if event.kind == "advance":
            return words.colours_text(event.data["shows"], t)
    return "?"


def _return_panel(
    game: Game, pid: str, actions: Sequence[Action], picked: tuple[str, ...], t: Translator
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
                _short(
                    t.pgettext(
                        "button",
                        "Give back {workers}",
                        workers=words.workers_text(list(best.args), t),
                    )
                ),
                "primary",
                row=0,
                icon=_worker(best.args),
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
                t.pgettext(
                    "button",
                    "Give back {workers} ({n} held)",
                    workers=words.workers_text([colour], t),
                    n=left[colour],
                ),
                row=1,
                icon=icon_set.worker(colour),
            )
        )
    if picked:
        buttons.append(Choice("p:ret:", t.pgettext("button", "Start over"), "danger", row=2))
    buttons = _unique(buttons)
    text = t.gettext(
        "You hold {n} workers: give back {excess} to keep {limit}.",
        n=player.worker_count,
        excess=excess,
        limit=data.MAX_WORKERS,
    )
    if picked:
        text += " " + t.gettext(
            "Chosen so far: {workers}.", workers=words.workers_text(list(picked), t)
        )
    return Panel(text, tuple(buttons))


def _unique(buttons: list[Choice]) -> list[Choice]:
    """The buttons without repeats of a code (the first, usually the default, stays)."""
    seen: set[str] = set()
    unique = []
    for button in buttons:
        if button.code not in seen:
            seen.add(button.code)
            unique.append(button)
    return unique


def _extra_panel(game: Game, actions: Sequence[Action], t: Translator) -> Panel:
    good = GOODS[data.AREA_GOOD[game.pending.area]].name_in(t)
    extras = _by_verb(actions, "extra")
    buttons = [
        Choice(
            act(action),
            _short(
                t.pgettext(
                    "button",
                    "Extra box: {workers}",
                    workers=words.workers_text(list(action.args), t),
                )
            ),
            "primary" if index == 0 else "secondary",
            row=index // 5,
            icon=_worker(action.args),
        )
        for index, action in enumerate(extras[: MAX_BUTTONS - 5])
    ]
    last_row = (len(buttons) + 4) // 5
    buttons += _trade_button(actions, last_row, t)
    buttons.append(_board_button(last_row, t))
    buttons.append(
        Choice(act(Action("noextra")), t.pgettext("button", "No extra box"), row=last_row)
    )
    return Panel(
        t.gettext("Put workers on the extra box for 1 more {good}?", good=good), tuple(buttons)
    )


def city_legend(t: Translator = ENGLISH) -> str:
    """What the city's rows give and its columns cost, under the city's buttons."""
    rewards = " · ".join(
        t.gettext("R{row}: {reward}", row=r, reward=words.row_reward(r, t))
        for r in data.CITY_REWARDS
    )
    costs = "/".join(str(n) for n in data.CITY_COSTS)
    return t.gettext(
        "Rows — {rewards}. Columns cost {costs} pumpkins; green = yours to take.",
        rewards=rewards,
        costs=costs,
    )


def _city_panel(game: Game, actions: Sequence[Action], verb: str, t: Translator) -> Panel:
    """The 4x4 city grid (labelled with costs; occupied or unaffordable spaces disabled)."""
    allowed = {(int(a.args[0]), int(a.args[1])) for a in _by_verb(actions, verb)}
    grid = game.city_grid()
    buttons: list[Choice] = []
    for row in range(1, data.CITY_ROWS + 1):
        for col, cost in enumerate(data.CITY_COSTS, start=1):
            occupant = grid.get((row, col))
            label = f"R{row} · {cost}"
            icon: str | None = "pumpkin"
            if occupant is not None:
                label, icon = f"R{row} · {_short(occupant, 10)}", _house(game, occupant)
            buttons.append(
                Choice(
                    act(Action(verb, (str(row), str(col)))),
                    label,
                    "success" if (row, col) in allowed else "secondary",
                    disabled=(row, col) not in allowed,
                    row=row - 1,
                    icon=icon,
                )
            )
    extra_row = [*_trade_button(actions, 4, t), _board_button(4, t)]
    if verb == "place":
        extra_row.append(Choice(act(Action("pass")), t.pgettext("button", "Pass"), "danger", row=4))
    legend = city_legend(t)
    return Panel(
        t.gettext("The city. {legend}", legend=legend), tuple(buttons + extra_row), hint=legend
    )


def _named_city_panel(
    game: Game, actions: Sequence[Action], verb: str, names: Mapping[str, str], t: Translator
) -> Panel:
    panel = _city_panel(game, actions, verb, t)
    buttons = []
    for choice in panel.buttons:
        label = choice.label
        for pid, name in names.items():
            label = label.replace(pid, _short(name, 10))
        buttons.append(replace(choice, label=label))
    return Panel(panel.text, tuple(buttons), panel.menus, panel.hint)


def _reward_panel(game: Game, pid: str, actions: Sequence[Action], t: Translator) -> Panel:
    row = game.pending.row
    options = _by_verb(actions, "upgrade", "goods")
    # the best default first: the most upgrades / goods in the scarcest-looking order
    options.sort(key=lambda a: -len(a.args))
    buttons = []
    for index, action in enumerate(options[: MAX_BUTTONS - 1]):
        goods = words.goods_text(words.count_list(action.args), t)
        if action.verb == "goods":
            label = t.pgettext("button", "Take {goods}", goods=goods)
        elif action.args:
            label = t.pgettext("button", "Upgrade {goods}", goods=goods)
        else:
            label = t.pgettext("button", "No upgrade")
        buttons.append(
            Choice(
                act(action),
                _short(label),
                "primary" if index == 0 else "secondary",
                row=index // 5,
                icon=action.args[0] if action.args and action.args[0] in GOODS else None,
            )
        )
    buttons.append(_board_button(min(4, len(buttons) // 5 + (1 if len(buttons) % 5 else 0)), t))
    reward = words.row_reward(row, t) if row in data.CITY_REWARDS else ""
    return Panel(
        t.gettext("Your reward for city row {row} ({reward}):", row=row, reward=reward),
        tuple(buttons),
    )


# ---------------------------------------------------------------- follow-up panels


def sub_panel(
    game: Game, player_id: str, code: str, names: Mapping[str, str], t: Translator = ENGLISH
) -> Panel:
    """The ephemeral panel a `p:...` code opens, for the awaited `player_id` (in their
    language `t`)."""
    actions = _legal(game, player_id)
    parts = code.split(":")
    if parts[0] != "p" or len(parts) < 2:
        raise UnknownChoice(code)
    name, args = parts[1], parts[2:]
    if name == "work":
        return _work_panel(game, player_id, actions, t)
    if name == "bank" and len(args) == 1:
        return _bank_workers_panel(game, player_id, actions, args[0], t)
    if name == "harv" and len(args) == 2:
        return _harvest_workers_panel(game, player_id, actions, args[0], args[1], t)
    if name == "city":
        return _named_city_panel(game, actions, "city", names, t)
    if name == "build":
        options = build_options(game, player_id, t)
        if not options:
            return Panel(t.gettext("There is no field you can build on now."))
        return Panel(
            t.gettext("Build on which field? (cheapest first; up to 3 builds this action)"),
            (),
            (Menu("build", t.gettext("Choose a field…"), tuple(options)),),
        )
    if name == "trade":
        return _trade_panel(actions, t)
    if name == "ret" and len(args) <= 1:
        picked = tuple(c for c in (args[0].split(",") if args and args[0] else []) if c)
        if any(c not in data.COLOURS for c in picked):
            raise UnknownChoice(code)
        return _return_panel(game, player_id, actions, picked, t)
    raise UnknownChoice(code)


def _work_panel(game: Game, pid: str, actions: Sequence[Action], t: Translator) -> Panel:
    options: list[Choice] = []
    banks = sorted({int(a.args[0]) for a in _by_verb(actions, "bank")})
    for space in banks:
        needed, coins = data.BANK[space - 1]
        options.append(
            Choice(
                f"p:bank:{space}",
                t.gettext(
                    "Bank space {space}: {workers} → {coins}",
                    space=space,
                    workers=PIECES["worker"].count_in(t, needed),
                    coins=PIECES["coin"].count_in(t, coins),
                ),
                icon="coin",
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
                    t.gettext(
                        "{area}, place {place}: pay {coins} → {goods}",
                        area=area_title(area, t),
                        place=place,
                        coins=PIECES["coin"].count_in(t, coins),
                        goods=words.goods_text({good: amount}, t),
                    )
                ),
                description=t.gettext(
                    "1 {colour} worker or any 2; extra box +1 after",
                    colour=WORKER_COLOURS[data.AREA_COLOUR[area]].name_in(t),
                ),
                icon=good,
            )
        )
    if _by_verb(actions, "city"):
        options.append(
            Choice(
                "p:city",
                t.gettext("The city: a free pumpkin, then a space (auction)"),
                icon="pumpkin",
            )
        )
    if not options:
        return Panel(t.gettext("There is nowhere you can work now."))
    return Panel(
        t.gettext("Work where?"),
        (),
        (Menu("work", t.gettext("Bank, harvest place or city…"), tuple(options[:25])),),
    )


def area_title(area: str, t: Translator = ENGLISH) -> str:
    """ "Grain field": an area's name as a title."""
    if area not in AREAS:
        return area
    name = AREAS[area].name_in(t)
    return name[:1].upper() + name[1:]


def _workers_default_key(player_workers: Mapping[str, int], combo: Sequence[str]) -> int:
    return -sum(player_workers[c] for c in combo)


def _bank_workers_panel(
    game: Game, pid: str, actions: Sequence[Action], space: str, t: Translator
) -> Panel:
    player = game.player(pid)
    combos = [a for a in _by_verb(actions, "bank") if a.args[0] == space]
    if not combos:
        return Panel(t.gettext("Bank space {space} is not available to you now.", space=space))
    combos.sort(key=lambda a: _workers_default_key(player.workers, a.args[1:]))
    buttons = tuple(
        Choice(
            act(a),
            _short(words.workers_text(list(a.args[1:]), t)),
            "primary" if i == 0 else "secondary",
            row=i // 5,
            icon=_worker(a.args[1:]),
        )
        for i, a in enumerate(combos[:MAX_BUTTONS])
    )
    needed, coins = data.BANK[int(space) - 1]
    fields = {"space": space, "coins": PIECES["coin"].count_in(t, coins)}
    if needed == 1:
        return Panel(t.gettext("Bank space {space} ({coins}): which worker?", **fields), buttons)
    return Panel(
        t.ngettext(
            "Bank space {space} ({coins}): which {n} worker?",
            "Bank space {space} ({coins}): which {n} workers?",
            needed,
            **fields,
        ),
        buttons,
    )


def _harvest_workers_panel(
    game: Game, pid: str, actions: Sequence[Action], area: str, place: str, t: Translator
) -> Panel:
    combos = [a for a in _by_verb(actions, "harvest") if a.args[0] == area and a.args[1] == place]
    if not combos:
        return Panel(t.gettext("That harvest place is not available to you now."))
    colour = data.AREA_COLOUR.get(area, "")
    # default: the single worker of the area's colour, then pairs
    combos.sort(key=lambda a: (len(a.args), a.args[2:] != (colour,)))
    buttons = tuple(
        Choice(
            act(a),
            _short(words.workers_text(list(a.args[2:]), t)),
            "primary" if i == 0 else "secondary",
            row=i // 5,
            icon=_worker(a.args[2:]),
        )
        for i, a in enumerate(combos[:MAX_BUTTONS])
    )
    return Panel(
        t.gettext(
            "{area}, place {place}: which workers go?", area=area_title(area, t), place=place
        ),
        buttons,
    )


def _trade_panel(actions: Sequence[Action], t: Translator) -> Panel:
    trades = _by_verb(actions, "trade")
    if not trades:
        return Panel(t.gettext("You have no cow to trade now."))
    buttons = []
    for index, action in enumerate(trades):
        icon: str | None
        if action.args[0] == "coins":
            label, icon = PIECES["coin"].count_in(t, data.COW_TRADE_COINS), "coin"
        elif action.args[0] == "worker":
            label, icon = words.workers_text([action.args[1]], t), _worker(action.args[1:])
        else:
            label, icon = GOODS[action.args[0]].count_in(t, 1), action.args[0]
        buttons.append(Choice(act(action), label, row=index // 5, icon=icon))
    return Panel(t.gettext("Trade one cow for:"), tuple(buttons))


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
