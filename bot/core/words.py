"""What happened and what comes next, in the words players use at the table.

Pure functions of engine events and state, shared by the Discord layer and the
console. Notation appears only in `log_lines` (the move log is for power users).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import render.words as render_words
from rules import Event, Game, data

Mention = Callable[[str], str]
"""Turns a player id into how they are addressed (a Discord mention, or a name)."""

GOOD_NAMES = {good: singular for good, (singular, _plural) in render_words.GOOD_WORDS.items()}
AREA_NAMES = render_words.AREA_WORDS
CLEARED_NAMES = {"bank": "the bank", **AREA_NAMES}
ROW_REWARDS = {
    1: "a cow + up to 3 upgrades",
    2: "3 goods: copper, stone or grain",
    3: "up to 2 upgrades",
    4: "2 coins + up to 1 upgrade",
}


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
    held = [(c, counts[c]) for c in data.COLOURS if counts.get(c)]
    if not held:
        return "no workers"
    if all(n == 1 for _, n in held):
        return join_words(f"a {c}" for c, _ in held) + " worker"
    return join_words(f"a {c} worker" if n == 1 else f"{n} {c} workers" for c, n in held)


def colours_text(colours: Sequence[str]) -> str:
    """["copper", "grain"] -> "copper + grain" (the wheel's segments, the buttons)."""
    if list(colours) == [data.WILD, data.WILD]:
        return "two wild workers"
    return " + ".join(colours)


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
            f"paid {d['grain']} grain to move the wheel {plural(d['steps'], 'segment')} on "
            f"to {colours_text(d['shows'])}"
        )
    if kind == "return":
        return f"returned {workers_text(d['workers'])} (8 workers at most)"
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
            f"put {workers_text(d['workers'])} on the small box for {goods_text(d['goods'])} more"
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
    "noextra": "left the small box empty",
    "end": "ended the turn",
    "advance 0": "kept the wheel where it stopped",
}
"""Actions that change nothing worth an event, and how to say them."""


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

    for event in events:
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
        return f"{who}, pay grain to move the wheel on, or keep what you have."
    if kind == "return":
        excess = game.workers_over_limit(pid)
        return f"{who}, you have {player.worker_count} workers: return {excess} (8 at most)."
    if kind == "extra":
        good = GOOD_NAMES[data.AREA_GOOD[pending.area]]
        return f"{who}, add workers on the small box for 1 more {good}, or not."
    if kind == "bid":
        auction = game.auction
        if auction is not None and auction.displaced == pending.seat:
            return f"{who}, you were overtaken in the city — move or pass."
        return f"{who}, the city auction: take a space or pass."
    if kind == "reward":
        reward = ROW_REWARDS.get(pending.row, "")
        return f"{who}, choose your city reward for row {pending.row} ({reward})."
    if kind == "build":
        return f"{who}, build again or stop building."
    if kind == "end":
        return f"{who}, use a canteen for another turn, or end your turn."
    return f"{who}, it is your move."


VERB_WORDS = {
    "recruit": "recruit",
    "bank": "work at the bank",
    "harvest": "harvest",
    "city": "go to the city",
    "build": "build",
    "trade": "trade a cow",
    "take": "choose the wild colours",
    "advance": "move the wheel on (or not)",
    "return": "return workers",
    "extra": "use the small box",
    "noextra": "skip the small box",
    "place": "take a city space",
    "pass": "pass",
    "upgrade": "choose your upgrades",
    "goods": "choose 3 goods",
    "stop": "stop building",
    "canteen": "use a canteen",
    "end": "end your turn",
}


def allowed_now(game: Game, player_id: str) -> str:
    """ "You may now: recruit, work at the bank or build." for the awaited player."""
    verbs: list[str] = []
    for action in game.legal_actions(player_id):
        if action.verb not in verbs:
            verbs.append(action.verb)
    if not verbs:
        return ""
    return "You may now: " + join_words((VERB_WORDS.get(v, v) for v in verbs), "or") + "."


def task_of(game: Game) -> str:
    """What the awaited player is to do, in the third person ("to take a city space ...")."""
    return "to " + render_words.awaited_task(game)


def waiting_for(game: Game, names: Mapping[str, str]) -> str:
    """ "The game is waiting for Ana to answer the city auction (take a space or pass)." """
    pid = game.awaiting
    if pid is None:
        return "The game is over."
    return f"The game is waiting for {names.get(pid, pid)} {task_of(game)}."


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


def away_line(name: str, until: str) -> str:
    """Said with the prompt and in the status while a player is away (`until`: the moment
    as the front end shows it)."""
    return f"{name} is away until {until} — their deadlines are paused."


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


RULES_HELP = "\n".join(
    (
        "**Montana in a nutshell** — build the most settlements on the landscape.",
        "On your turn take **one** action:",
        "• **Recruit**: spin the wheel and take the 2 workers it shows (wild: any "
        "colours); you may then pay grain to move the wheel on, 1 grain a segment, and "
        "take that segment's 2 workers too. Keep at most 8 workers.",
        "• **Work**: put workers on a free bank space (take its coins), on a harvest "
        "place (1 worker of the area's colour or 2 of any; pay its coins, take its goods;"
        " then optionally the small box for 1 more), or go to the **city**: take a free "
        "pumpkin and a space; the others answer in turn — taking a space, or passing. "
        "Entering an occupied row means standing to the right, and the one overtaken must"
        " move or pass. At the end each pays the column's pumpkins and takes the row's "
        "reward (cow + upgrades, 3 goods, upgrades, coins + upgrade).",
        "• **Build** 1 to 3 times: pay the goods printed on a free field touching a "
        "settlement or the start tile. Cows and canteens on it or next to it are yours; "
        "double fields and lines of exactly 4 give bonus settlements. Each unused build "
        "pays 1 coin (1 build: +2).",
        "Any time in your own turn: trade a **cow** for 1 good, 3 coins or 1 worker. At "
        "the end of your turn you may spend a **canteen** for another turn.",
        "When someone places their last settlement the round is played to its end. Most "
        "settlements wins; ties: most cows and canteens, then most goods, coins and workers.",
        "Use the buttons under the latest picture, or type: `/montana build field:`, "
        "`/montana recruit`, `/montana play <move>`. The game itself (lobby, deadlines, "
        "log, history): `/montana game …`; your notifications and holidays: `/montana me …`.",
    )
)
