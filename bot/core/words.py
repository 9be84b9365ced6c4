"""What happened and what comes next, in the words players use at the table.

Pure functions of engine events and state, shared by the Discord layer and the
console. Notation appears only in `log_lines` (the move log is for power users).
Every name of a thing of the game (goods, worker colours, areas, board parts, actions,
pieces) comes from the one vocabulary, `render.vocabulary`, which the pictures use too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Final

import render.words as render_words
from i18n import Translator, translatable_in
from render.vocabulary import ACTIONS, AREAS, BOARD, GOODS, PIECES, WORKER_COLOURS
from render.words import ENGLISH
from rules import Event, Game, IllegalAction, data, parse_action

Mention = Callable[[str], str]
"""Turns a player id into how they are addressed (a Discord mention, or a name)."""

GOOD_NAMES = {good: singular for good, (singular, _plural) in render_words.GOOD_WORDS.items()}
AREA_NAMES = render_words.AREA_WORDS
CLEARED_NAMES = {"bank": f"the {BOARD['bank'].one}", **AREA_NAMES}
EXTRA_BOX: Final = BOARD["small_box"].one
"""The small box of a harvest place, by its one name ("extra box")."""
MOVE_THE_ARROW: Final = ACTIONS["advance"].phrase
GIVE_BACK: Final = ACTIONS["return"].phrase
UNDO_MARK: Final = "↩"
"""Starts the line that says a move was taken back."""


def row_reward(row: int) -> str:
    """What a city row gives, from the rules' values: "1 cow + up to 3 upgrades",
    "3 goods: small copper, small stone or grain"."""
    reward = data.CITY_REWARDS[row]
    parts = []
    if reward["cows"]:
        parts.append(PIECES["cow"].count(reward["cows"]))
    if reward["coins"]:
        parts.append(PIECES["coin"].count(reward["coins"]))
    if reward["goods"]:
        goods = join_words((GOODS[good].one for good in data.CITY_GOODS), "or")
        parts.append(f"{reward['goods']} goods: {goods}")
    if reward["upgrades"]:
        parts.append(f"up to {ACTIONS['upgrade'].count(reward['upgrades'])}")
    return " + ".join(parts)


def plural(count: int, word: str, many: str | None = None) -> str:
    """A count and its noun agreeing: `plural(1, "coin")` -> "1 coin", `plural(0, "coin")`
    -> "0 coins"; `many` is the plural when it is not `word` + "s" ("cows and canteens")."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def join_words(parts: Iterable[str], conjunction: str = "and") -> str:
    """A list as a person writes it: "a", "a and b", "a, b, and c" (`conjunction` "or" too)."""
    items = [part for part in parts if part]
    if len(items) <= 2:
        return f" {conjunction} ".join(items)
    return ", ".join(items[:-1]) + f", {conjunction} " + items[-1]


def goods_text(goods: Mapping[str, int]) -> str:
    """`{"bigstone": 1, "grain": 1}` -> "1 grain + 1 large stone"."""
    return render_words.goods_count_phrase(goods) or "nothing"


def count_list(items: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def workers_text(workers: Mapping[str, int] | Sequence[str]) -> str:
    """["copper", "grain"] -> "a copper and a grain worker"; {"copper": 2} -> "2 copper workers";
    {"copper": 2, "grain": 1} -> "2 copper workers and a grain worker"."""
    counts = count_list(workers) if not isinstance(workers, Mapping) else dict(workers)
    held = [(WORKER_COLOURS[c].one, counts[c]) for c in data.COLOURS if counts.get(c)]
    worker = PIECES["worker"]
    if not held:
        return f"no {worker.many}"
    if all(n == 1 for _, n in held):
        return join_words(f"a {c}" for c, _ in held) + f" {worker.one}"
    return join_words(
        f"a {c} {worker.one}" if n == 1 else f"{n} {c} {worker.many}" for c, n in held
    )


def colours_text(colours: Sequence[str]) -> str:
    """["copper", "grain"] -> "copper + grain" (the wheel's segments, the buttons)."""
    if list(colours) == [data.WILD, data.WILD]:
        return f"two {WORKER_COLOURS[data.WILD].one} {PIECES['worker'].many}"
    return " + ".join(WORKER_COLOURS[c].one for c in colours)


def gained_text(gained: Mapping[str, int]) -> str:
    """{"cows": 1, "coins": 2} -> "1 cow and 2 coins" (goods among them as in a cost)."""
    parts = []
    if gained.get("cows"):
        parts.append(plural(gained["cows"], "cow"))
    if gained.get("coins"):
        parts.append(plural(gained["coins"], "coin"))
    goods = {g: n for g, n in gained.items() if g in data.GOODS}
    if goods:
        parts.append(goods_text(goods))
    return join_words(parts) or "nothing"


def _build_clause(d: Mapping[str, Any]) -> str:
    text = f"built on {d['field']} (paid {goods_text(d['paid'])})"
    extras = []
    bonuses = list(d.get("bonuses", []))
    if "double" in bonuses:
        extras.append("a second settlement on the double field")
    lines = bonuses.count("line")
    if lines:
        extras.append(
            "a bonus settlement for a line of 4"
            if lines == 1
            else f"{lines} bonus settlements for lines of 4"
        )
    gained = d.get("gained", {})
    if gained.get("cows"):
        extras.append("the cow")
    if gained.get("canteens"):
        extras.append("the canteen" if gained["canteens"] == 1 else "both canteens")
    if extras:
        text += ", took " + join_words(extras)
    return text


def _gave_back(workers: Sequence[str]) -> str:
    """ "gave back a copper worker"."""
    return f"gave back {workers_text(workers)}"


def _more(goods: Mapping[str, int]) -> str:
    """{"stone": 1} -> "one more small stone"."""
    if sum(goods.values()) == 1:
        (good,) = [g for g, n in goods.items() if n]
        return f"one more {GOOD_NAMES[good]}"
    return f"{goods_text(goods)} more"


def _clause(event: Event) -> str | None:
    """The part of a sentence after the player's name, or None for a standalone event."""
    d = event.data
    kind = event.kind
    if kind == "said":
        return str(d["text"])
    if kind == "recruit":
        return "recruited"
    if kind == "spin":
        return f"spun {colours_text(d['shows'])}"
    if kind == "workers":
        return f"took {workers_text(d['workers'])}"
    if kind == "advance":
        return (
            f"paid {GOODS['grain'].count(d['grain'])} to {MOVE_THE_ARROW} "
            f"{BOARD['segment'].count(d['steps'])} on to {colours_text(d['shows'])}"
        )
    if kind == "return":
        return f"{_gave_back(d['workers'])} ({data.MAX_WORKERS} workers at most)"
    if kind == "bank":
        return (
            f"put {workers_text(d['workers'])} on bank space {d['space']} "
            f"for {plural(d['coins'], 'coin')}"
        )
    if kind == "harvest":
        return (
            f"worked {AREA_NAMES[d['area']]} (place {d['place']}) with "
            f"{workers_text(d['workers'])}, paid {plural(d['coins'], 'coin')} "
            f"and took {goods_text(d['goods'])}"
        )
    if kind == "extra":
        return (
            f"put {workers_text(d['workers'])} on the {EXTRA_BOX} for {goods_text(d['goods'])} more"
        )
    if kind == "city":
        pumpkin = "took the free pumpkin and " if d.get("free_pumpkin") else ""
        return f"went to the city: {pumpkin}stands in row {d['row']}, column {d['column']}"
    if kind == "place":
        return f"took row {d['row']}, column {d['column']} in the city"
    if kind == "pass":
        return "passed"
    if kind == "pay":
        return f"paid {plural(d['pumpkins'], 'pumpkin')} for city row {d['row']}"
    if kind == "reward":
        text = f"took {gained_text(d['gained'])}"
        if d.get("upgraded"):
            text += f" (upgrading {goods_text(count_list(d['upgraded']))})"
        elif not any(d["gained"].values()):
            text = "took no upgrade"
        return text
    if kind == "build":
        return _build_clause(d)
    if kind == "stop":
        coins = d["coins"]
        return f"stopped building (+{plural(coins, 'coin')})" if coins else "stopped building"
    if kind == "trade":
        got = workers_text(d["gained"]) if d.get("worker") else gained_text(d["gained"])
        return f"traded a cow for {got}"
    if kind == "canteen":
        return "used a canteen for another turn"
    return None


def _standalone(event: Event, name: Callable[[str | None], str]) -> str | None:
    d = event.data
    kind = event.kind
    if kind == "note":
        return str(d["text"])
    if kind == "overtaken":
        return f"{name(d['by'])} overtook {name(event.player)} in row {d['row']}."
    if kind == "shortage":
        what = (
            f"{d['name']} workers"
            if d["pool"] == "workers"
            else GOOD_NAMES.get(d["name"], d["name"])
        )
        returned = join_words(
            f"{name(pid)} returned {count}" for pid, count in d["returned"].items()
        )
        return f"The supply ran short of {what}: {returned}."
    if kind == "cleanup":
        cleared = [CLEARED_NAMES.get(c, c) for c in d["cleared"]]
        text = join_words(cleared)
        verb = "was" if len(cleared) == 1 else "were"
        return f"{text[0].upper()}{text[1:]} {verb} cleared."
    if kind == "final_round":
        return f"{name(event.player)} placed their last settlement: this is the final round."
    if kind == "auction_end":
        return "The city auction is over."
    if kind == "game_over":
        winners = [name(w) for w in d.get("winners", [])]
        verb = "wins" if len(winners) == 1 else "share the win"
        return f"The game is over: {join_words(winners)} {verb}!"
    return None


SILENT_ACTIONS = {
    "noextra": f"left the {EXTRA_BOX} empty",
    "end": "ended the turn",
    "advance 0": f"did not {MOVE_THE_ARROW}",
}
"""Actions that change nothing worth an event, and how to say them."""


IN_ADVANCE_EVENT: Final = "in_advance"
"""The bot's own event: the next `pass` of its player was their pass in advance."""
FORCED_STEP_EVENT: Final = {"bid": "pass", "return": "return", "reward": "reward", "build": "stop"}
"""A forced step's decision -> the event of the step itself, which its sentence words
(the forced `advance 0` and `noextra` leave none: their sentence stands alone)."""


def in_advance(player_id: str) -> Event:
    """Says that `player_id`'s pass that follows was given in advance (issue 11.3)."""
    return Event(IN_ADVANCE_EVENT, player_id, {})


def _forced_clause(cause: Event, step: Event | None) -> str:
    """What a player did without being asked: a forced step (RULES.md 7.3) or a pass
    in advance; `step` is the step's own event, when it has one."""
    if cause.kind == IN_ADVANCE_EVENT:
        return "passed in advance"
    decision = cause.data.get("decision")
    d = step.data if step is not None else {}
    if decision == "bid":
        return f"could pay for no free space in the {BOARD['city'].one} and passed"
    if decision == "return":
        return f"had to {GIVE_BACK} {workers_text(d['workers'])} ({data.MAX_WORKERS} at most)"
    if decision == "advance":
        return f"had no grain to {MOVE_THE_ARROW}"
    if decision == "extra":
        return f"had no {PIECES['worker'].many} for the {EXTRA_BOX}"
    if decision == "reward":
        smalls = join_words((GOODS[small].one for small in data.UPGRADES), "or")
        text = f"had no {smalls} to {ACTIONS['upgrade'].phrase}"
        gained = d.get("gained", {})
        return f"{text} and took {gained_text(gained)}" if any(gained.values()) else text
    if decision == "build":
        coins = d.get("coins", 0)
        stopped = f"stopped building (+{plural(coins, 'coin')})" if coins else "stopped building"
        return f"could build nothing more and {stopped}"
    try:
        phrase = render_words.action_phrase(
            parse_action(str(cause.data.get("action", ""))), render_words.ENGLISH
        )
    except IllegalAction:
        phrase = str(cause.data.get("action", ""))
    return f"had only one choice: {phrase}"


def with_silent_action(events: Sequence[Event], actor: str | None, move: str | None) -> list[Event]:
    """`events`, preceded by a "said" event for an action that leaves none of its own."""
    if move in SILENT_ACTIONS and actor is not None:
        return [Event("said", actor, {"text": SILENT_ACTIONS[move]}), *events]
    return list(events)


def note(text: str) -> Event:
    """An event that is only a sentence (the seat draw, for instance)."""
    return Event("note", None, {"text": text})


def describe(
    events: Sequence[Event],
    names: Mapping[str, str],
    *,
    actor: str | None = None,
    move: str | None = None,
) -> str:
    """Sentences for what `events` did: one per player's run of actions.

    `actor` and `move` (notation) name the action that caused the events, for the actions
    that leave no event of their own (skipping the small box, ending the turn).
    """
    events = with_silent_action(events, actor, move)

    def name(pid: str | None) -> str:
        return names.get(pid, pid) if pid is not None else "someone"

    sentences: list[str] = []
    current: str | None = None
    clauses: list[str] = []

    def flush() -> None:
        nonlocal current, clauses
        if current is not None and clauses:
            sentences.append(f"{name(current)} {join_words(clauses)}.")
        current, clauses = None, []

    unasked: dict[str | None, tuple[str, Event]] = {}
    """player -> (the event that words it, what made the step): steps nobody was asked"""
    for event in events:
        if event.kind in ("forced", IN_ADVANCE_EVENT):
            step_kind = (
                "pass"
                if event.kind == IN_ADVANCE_EVENT
                else FORCED_STEP_EVENT.get(event.data["decision"])
            )
            if step_kind is not None:
                unasked[event.player] = (step_kind, event)
                continue
            clause: str | None = _forced_clause(event, None)
        elif event.player in unasked and unasked[event.player][0] == event.kind:
            clause = _forced_clause(unasked.pop(event.player)[1], event)
        else:
            clause = _clause(event)
        if clause is not None:
            if event.player != current:
                flush()
                current = event.player
            clauses.append(clause)
            continue
        standalone = _standalone(event, name)
        if standalone is not None:
            flush()
            sentences.append(standalone)
    flush()
    return " ".join(sentences)


# ---------------------------------------------------------------- what comes next


def prompt_line(game: Game, mention: Mention) -> str:
    """Who must act now and on what, addressing them with `mention`."""
    pid = game.awaiting
    if pid is None:
        return "The game is over."
    who = mention(pid)
    pending = game.pending
    player = game.player(pid)
    kind = pending.kind
    if kind == "main":
        return f"{who}, your turn: recruit, work or build."
    if kind == "take":
        return f"{who}, choose the colours of your two wild workers."
    if kind == "advance":
        return f"{who}, pay grain to {MOVE_THE_ARROW}, or keep what you have."
    if kind == "return":
        excess = game.workers_over_limit(pid)
        return (
            f"{who}, you have {player.worker_count} workers: {GIVE_BACK} {excess} "
            f"({data.MAX_WORKERS} at most)."
        )
    if kind == "extra":
        good = GOOD_NAMES[data.AREA_GOOD[pending.area]]
        return f"{who}, put workers on the {EXTRA_BOX} for 1 more {good}, or not."
    if kind == "bid":
        auction = game.auction
        if auction is not None and auction.displaced == pending.seat:
            return f"{who}, you were overtaken in the city — move or pass."
        return f"{who}, the city auction: take a space or pass."
    if kind == "reward":
        return f"{who}, choose your city reward for row {pending.row} ({row_reward(pending.row)})."
    if kind == "build":
        return f"{who}, build again or stop building."
    if kind == "end":
        return f"{who}, use a canteen for another turn, or end your turn."
    return f"{who}, it is your move."


VERB_MESSAGES = {
    # Translators: what a player may do now, listed after "You may now:".
    "recruit": translatable_in("may now", "recruit"),
    "bank": translatable_in("may now", "work at the bank"),
    "harvest": translatable_in("may now", "harvest"),
    "city": translatable_in("may now", "go to the city"),
    "build": translatable_in("may now", "build"),
    "trade": translatable_in("may now", "cow trade"),
    "take": translatable_in("may now", "choose the wild colours"),
    "advance": translatable_in("may now", "move the arrow (or not)"),
    "return": translatable_in("may now", "give back workers"),
    "extra": translatable_in("may now", "fill the extra box"),
    "noextra": translatable_in("may now", "leave the extra box empty"),
    "place": translatable_in("may now", "take a city space"),
    "pass": translatable_in("may now", "pass"),
    "upgrade": translatable_in("may now", "choose your upgrades"),
    "goods": translatable_in("may now", "choose 3 goods"),
    "stop": translatable_in("may now", "stop building"),
    "canteen": translatable_in("may now", "use a canteen"),
    "end": translatable_in("may now", "end the turn"),
}
"""What each verb of the notation lets a player do, after "You may now:"."""
VERB_WORDS = {verb: message.id for verb, message in VERB_MESSAGES.items()}


def either(parts: Sequence[str], t: Translator) -> str:
    """["a", "b", "c"] -> "a, b, or c" in `t`'s language."""
    if len(parts) <= 1:
        return "".join(parts)
    if len(parts) == 2:
        # Translators: a choice between two things: "build or pass".
        return t.gettext("{first} or {last}", first=parts[0], last=parts[1])
    # Translators: a choice among three or more: "recruit, build, or pass".
    return t.gettext("{list}, or {last}", list=", ".join(parts[:-1]), last=parts[-1])


def allowed_now(game: Game, player_id: str, t: Translator = ENGLISH) -> str:
    """ "You may now: recruit, work at the bank, or build." for the awaited player."""
    verbs: list[str] = []
    for action in game.legal_actions(player_id):
        if action.verb not in verbs:
            verbs.append(action.verb)
    if not verbs:
        return ""
    said = [t.translate(VERB_MESSAGES[v]) if v in VERB_MESSAGES else v for v in verbs]
    return t.gettext("You may now: {choices}.", choices=either(said, t))


COST_IN_REASON = re.compile(r"(?:(?<=costs )|(?<=lack ))\d+ [a-z]+(?: \+ \d+ [a-z]+)*")
"""A cost as the engine writes it in a refusal ("C4 costs 1 copper + 1 grain; you lack 1
copper"), in its notation's names of goods."""
COUNTED_GOOD = re.compile(r"(\d+) ([a-z]+)")
AREA_IN_REASON = re.compile(r"\bthe (" + "|".join(data.AREAS) + r")\b")


def engine_reason(reason: str) -> str:
    """An engine's refusal with its names of goods and areas (the notation's) replaced
    by the vocabulary's: "you lack 1 copper" -> "you lack 1 small copper", "the
    wheatfield" -> "the grain field"."""

    def good(match: re.Match[str]) -> str:
        count, name = match.groups()
        return GOODS[name].count(int(count)) if name in GOODS else match.group()

    def cost(match: re.Match[str]) -> str:
        return COUNTED_GOOD.sub(good, match.group())

    reason = COST_IN_REASON.sub(cost, reason)
    return AREA_IN_REASON.sub(lambda m: f"the {AREAS[m.group(1)].one}", reason)


def took_back(name: str, notation: str) -> str:
    """The public line of an undo: "↩ Ana took back: built on C4."."""
    try:
        what = render_words.action_phrase(parse_action(notation), render_words.ENGLISH)
    except IllegalAction:
        what = notation
    return f"{UNDO_MARK} {name} took back: {what}."


def cannot_pass_in_advance(
    game: Game, player_id: str, names: Mapping[str, str], t: Translator = ENGLISH
) -> str:
    """Why `player_id` may not pass in advance in the running auction (they are not queued
    to answer it later)."""
    auction = game.auction
    if game.awaiting == player_id:
        return t.gettext("The auction is waiting for your answer now: take a space or press Pass.")
    if auction is not None and game.players[auction.active].id == player_id:
        return t.gettext("You opened this city auction: you do not answer it.")
    return t.gettext(
        "You have answered this city auction already, so there is nothing to pass in "
        "advance. {waiting}",
        waiting=waiting_for(game, names, t),
    )


def pass_in_advance_said(standing: bool, t: Translator = ENGLISH) -> str:
    """The answer to a press of "Pass in advance" (only its presser sees it)."""
    if standing:
        return t.gettext(
            "You will pass in this city auction: when it reaches you, I pass for you "
            "without asking. Changed your mind? Press **Pass in advance** again before "
            "your turn to answer comes."
        )
    return t.gettext(
        "Your pass in advance is withdrawn: you will be asked when the auction reaches "
        "you. Press **Pass in advance** again to pass after all."
    )


def not_your_undo(mover: str, names: Mapping[str, str], t: Translator = ENGLISH) -> str:
    """The answer to an Undo button pressed by someone else than the last mover."""
    return t.gettext(
        "This button takes back {name}'s last move: only {name} can press it. You can "
        "take back your own moves while no other player has moved since.",
        name=names.get(mover, mover),
    )


def task_of(game: Game) -> str:
    """What the awaited player is to do, in the third person ("to take a city space ...")."""
    return "to " + render_words.awaited_task(game)


def waiting_for(game: Game, names: Mapping[str, str], t: Translator = ENGLISH) -> str:
    """ "The game is waiting for Ana to answer the city auction (take a space or pass)." """
    pid = game.awaiting
    if pid is None:
        return t.gettext("The game is over.")
    return t.gettext(
        "The game is waiting for {who} to {task}.",
        who=names.get(pid, pid),
        task=render_words.awaited_task(game, t),
    )


def not_your_move(game: Game, names: Mapping[str, str], t: Translator = ENGLISH) -> str:
    """The refusal of a move by someone the game is not waiting for."""
    return t.gettext("It is not your move. {waiting}", waiting=waiting_for(game, names, t))


def seat_colour(game: Game, player_id: str) -> str:
    return data.PLAYER_COLOURS[game.seat_of(player_id)]


def seating(game: Game, names: Mapping[str, str]) -> str:
    """ "Seats (drawn at random): 1. Ana — blue, starts with 3 coins; ..." """
    parts = []
    for seat, player in enumerate(game.players):
        start = ", starts" if seat == 0 else ""
        parts.append(
            f"{seat + 1}. {names.get(player.id, player.id)} — {data.PLAYER_COLOURS[seat]}"
            f"{start}, {plural(data.START_COINS[seat], 'coin')}"
        )
    return "Seat order, drawn at random: " + "; ".join(parts) + "."


def results(game: Game, names: Mapping[str, str]) -> str:
    result = game.result()
    lines = ["**Final ranking**" if result.finished else "**Standings so far**"]
    for standing in result.ranking:
        lines.append(
            f"{standing.place}. {names.get(standing.player, standing.player)} "
            f"({seat_colour(game, standing.player)}) — "
            f"{plural(standing.settlements, 'settlement')}, "
            f"{plural(standing.cows_and_canteens, 'cow or canteen', 'cows and canteens')}, "
            f"{plural(standing.holdings, 'good, coin or worker', 'goods, coins and workers')}"
        )
    return "\n".join(lines)


def status(game: Game, names: Mapping[str, str]) -> str:
    """A text summary of the whole game for `/montana status`."""
    lines = [waiting_for(game, names)]
    if game.final_round and not game.is_over:
        lines.append("This is the final round.")
    for seat, player in enumerate(game.players):
        marker = "▶ " if player.id == game.awaiting else ""
        goods = goods_text(player.goods)
        lines.append(
            f"{marker}**{names.get(player.id, player.id)}** ({data.PLAYER_COLOURS[seat]}): "
            f"{plural(player.coins, 'coin')}, {plural(player.cows, 'cow')}, "
            f"{plural(player.canteens, 'canteen')}, "
            f"{plural(player.settlements_left, 'settlement')} left; goods: {goods}; "
            f"workers: {workers_text(player.workers)}"
        )
    lines.append(results(game, names))
    return "\n".join(lines)


# ---------------------------------------------------------------- heads-up and away

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def away_note(until: datetime) -> str:
    """By an away player's name on the picture: "away until 3 Dec" (the date in UTC: a
    picture knows no reader's time zone; the messages give the moment itself)."""
    moment = until.astimezone(UTC)
    return f"away until {moment.day} {MONTHS[moment.month - 1]}"


def length_text(length: timedelta) -> str:
    """timedelta(days=3, hours=12) -> "3 days 12 hours"."""
    hours = round(length.total_seconds() / 3600)
    days, hours = divmod(hours, 24)
    parts = [plural(days, "day")] if days else []
    if hours or not days:
        parts.append(plural(hours, "hour"))
    return " ".join(parts)


def away_line(name: str, until: str, t: Translator = ENGLISH) -> str:
    """Said with the prompt and in the status while a player is away (`until`: the moment
    as the front end shows it)."""
    return t.gettext(
        "{who} is away until {until} — their deadlines are paused.", who=name, until=until
    )


def went_away_line(name: str, until: str) -> str:
    """Told to a game's players when one of them goes away (or changes the end)."""
    return (
        f"{name} is away until {until}; their deadlines in this game are paused until "
        "they are back."
    )


def back_line(name: str) -> str:
    """Told to a game's players when an away player is back."""
    return f"{name} is back; their deadlines run again from now."


def heads_up_line(who: str, starting: str) -> str:
    """The heads-up: `who` (as addressed) is next after `starting` (a name)."""
    return f"{who}, heads-up: {starting} has started their turn — you are next."


def log_lines(moves: Iterable[tuple[int, str, str]], names: Mapping[str, str]) -> list[str]:
    """`(version, player, notation)` -> "12. Ana: build C4" (notation on purpose)."""
    return [
        f"{version}. {names.get(player, player)}: {notation}" for version, player, notation in moves
    ]


_SMALL = join_words((GOODS[small].one for small in data.UPGRADES), "or")
_LARGE = join_words((GOODS[large].one for large in data.UPGRADES.values()), "or")
RULES_HELP = "\n".join(
    (
        f"**Montana in a nutshell** — build the most {PIECES['settlement'].many} on the "
        f"{BOARD['landscape'].one}.",
        "On your turn take **one** action:",
        f"• **{ACTIONS['recruit'].one}**: spin the {BOARD['wheel'].one} and take "
        f"the 2 {PIECES['worker'].many} it shows ({WORKER_COLOURS[data.WILD].one}: any "
        f"colours); you may then pay grain to {MOVE_THE_ARROW}, 1 grain a "
        f"{BOARD['segment'].one}, and take that {BOARD['segment'].one}'s 2 "
        f"{PIECES['worker'].many} too. Keep at most {data.MAX_WORKERS} {PIECES['worker'].many}.",
        f"• **{ACTIONS['work'].one}**: put {PIECES['worker'].many} on a free "
        f"{BOARD['bank_space'].one} (take its {PIECES['coin'].many}), on the "
        f"{BOARD['large_box'].one} of a harvest {BOARD['place'].one} (1 {PIECES['worker'].one} "
        f"of the area's colour or 2 of any; pay its {PIECES['coin'].many}, take its goods; "
        f"then optionally its {EXTRA_BOX} for 1 more), or go to the **{BOARD['city'].one}**: "
        f"take a free pumpkin and a space; the others answer in turn — taking a space, or "
        f"passing (or passing in advance, before their turn to answer comes). Entering an "
        f"occupied {BOARD['row'].one} means standing to the right, and the one overtaken "
        f"must move or pass. At the end each pays the {BOARD['column'].one}'s pumpkins and "
        f"takes the {BOARD['row'].one}'s reward; an {ACTIONS['upgrade'].phrase} gives back a "
        f"{_SMALL} for a {_LARGE}.",
        f"• **{ACTIONS['build'].one}** 1 to 3 times: pay the goods printed on a "
        f"free field touching a {PIECES['settlement'].one} or the {BOARD['start_tile'].one} "
        f"tile. {PIECES['cow'].many.capitalize()} and {PIECES['canteen'].many} on it or next "
        f"to it are yours; double fields and lines of exactly 4 give bonus "
        f"{PIECES['settlement'].many}. Each unused build pays 1 {PIECES['coin'].one} "
        f"(1 build: +2).",
        f"Any time in your own turn: a **{ACTIONS['trade'].phrase}**: 1 cow for 1 good, "
        f"{data.COW_TRADE_COINS} {PIECES['coin'].many} or 1 {PIECES['worker'].one}. At the "
        f"end of your turn you may spend a **{PIECES['canteen'].one}** for another turn.",
        "When someone places their last settlement the round is played to its end. Most "
        "settlements wins; ties: most cows and canteens, then most goods, coins and workers.",
        "A step with only one possible choice is made for you, and said. You may take back "
        f"your last moves until another player moves or the {BOARD['wheel'].one} is spun.",
        "Use the buttons under the latest picture, or type: `/montana build field:`, "
        "`/montana recruit`, `/montana play <move>`, `/montana undo`. The game itself "
        "(lobby, deadlines, log, history): `/montana game …`; your notifications and "
        "holidays: `/montana me …`.",
    )
)
ROW_REWARDS: Final = {row: row_reward(row) for row in data.CITY_REWARDS}
"""What each city row gives, in words (the menus show it)."""
