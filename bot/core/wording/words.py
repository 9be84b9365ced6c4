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

from babel.dates import format_skeleton

import render.words as render_words
from ai import Reason as AiReason
from i18n import SOURCE_LANGUAGE, Translator, translatable, translatable_in
from render.vocabulary import ACTIONS, AREAS, BOARD, GOODS, PIECES, PLAYER_COLOURS, WORKER_COLOURS
from render.words import ENGLISH
from rules import Event, Game, IllegalAction, data, parse_action

Mention = Callable[[str], str]
"""Turns a player id into how they are addressed (a Discord mention, or a name)."""

GOOD_NAMES = {good: singular for good, (singular, _plural) in render_words.GOOD_WORDS.items()}
AREA_NAMES = render_words.AREA_WORDS
CLEARED = {
    "bank": translatable_in("cleared", "the bank"),
    "mine": translatable_in("cleared", "the mine"),
    "quarry": translatable_in("cleared", "the quarry"),
    "wheatfield": translatable_in("cleared", "the grain field"),
    "garden": translatable_in("cleared", "the pumpkin garden"),
}
"""The places a clean-up clears, as they stand in "the bank and the mine were cleared"."""
EXTRA_BOX: Final = BOARD["small_box"].one
"""The small box of a harvest place, by its one name ("extra box")."""
MOVE_THE_ARROW: Final = ACTIONS["advance"].phrase
GIVE_BACK: Final = ACTIONS["return"].phrase
UNDO_MARK: Final = "↩"
"""Starts the line that says a move was taken back."""


def is_english(t: Translator) -> bool:
    return t.language == SOURCE_LANGUAGE


def row_reward(row: int, t: Translator = ENGLISH) -> str:
    """What a city row gives, from the rules' values: "1 cow + up to 3 upgrades",
    "3 goods: small copper, small stone or grain"."""
    reward = data.CITY_REWARDS[row]
    parts = []
    if reward["cows"]:
        parts.append(PIECES["cow"].count_in(t, reward["cows"]))
    if reward["coins"]:
        parts.append(PIECES["coin"].count_in(t, reward["coins"]))
    if reward["goods"]:
        goods = either([GOODS[good].name_in(t) for good in data.CITY_GOODS], t)
        parts.append(t.gettext("{n} goods: {goods}", n=reward["goods"], goods=goods))
    if reward["upgrades"]:
        upgrades = ACTIONS["upgrade"].count_in(t, reward["upgrades"])
        parts.append(t.gettext("up to {upgrades}", upgrades=upgrades))
    return " + ".join(parts)


def plural(count: int, word: str, many: str | None = None) -> str:
    """A count and its English noun agreeing: `plural(1, "coin")` -> "1 coin",
    `plural(0, "coin")` -> "0 coins"; `many` is the plural when it is not `word` + "s"."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def join_words(parts: Iterable[str], conjunction: str = "and") -> str:
    """A list as a person writes it in English: "a", "a and b", "a, b, and c"."""
    items = [part for part in parts if part]
    if len(items) <= 2:
        return f" {conjunction} ".join(items)
    return ", ".join(items[:-1]) + f", {conjunction} " + items[-1]


def _head(items: Sequence[str], t: Translator) -> str:
    """All but the last item of a list of three or more, joined: "a, b"."""
    text = items[0]
    for item in items[1:-1]:
        text = t.gettext("{list}, {next}", list=text, next=item)
    return text


def listed(parts: Iterable[str], t: Translator = ENGLISH) -> str:
    """["a", "b", "c"] -> "a, b, and c" in `t`'s language (the sentences' lists)."""
    items = [part for part in parts if part]
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        # Translators: a list of two in a sentence: "recruited and took 2 workers".
        return t.pgettext("list", "{first} and {last}", first=items[0], last=items[1])
    # Translators: the end of a list of three or more: "a, b, and c".
    return t.pgettext("list", "{list}, and {last}", list=_head(items, t), last=items[-1])


def one_after_another(clauses: Iterable[str], t: Translator = ENGLISH) -> str:
    """What one player did, clause after clause, after their name: "recruited, took 2
    workers and passed". Its own joints, apart from a list of things: Japanese ends each
    clause in the polite past and makes it a sentence of its own (…しました。…しました)."""
    items = [clause for clause in clauses if clause]
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        # Translators: two things one player did, after their name: "recruited and took
        # 2 workers".
        return t.pgettext("clauses", "{first} and {last}", first=items[0], last=items[1])
    text = items[0]
    for item in items[1:-1]:
        # Translators: things one player did, one after the other: "recruited, took …".
        text = t.pgettext("clauses", "{list}, {next}", list=text, next=item)
    # Translators: the last of three or more things one player did: "…, and passed".
    return t.pgettext("clauses", "{list}, and {last}", list=text, last=items[-1])


def series(parts: Iterable[str], t: Translator = ENGLISH) -> str:
    """Longer items one after the other: "1. Ana — blue, 3 coins; 2. Ben — ..."."""
    items = [part for part in parts if part]
    text = items[0] if items else ""
    for item in items[1:]:
        # Translators: joins longer items (each with commas of its own) in one line.
        text = t.pgettext("list", "{list}; {next}", list=text, next=item)
    return text


def either(parts: Iterable[str], t: Translator = ENGLISH) -> str:
    """["a", "b", "c"] -> "a, b, or c" in `t`'s language."""
    items = [part for part in parts if part]
    if len(items) <= 1:
        return "".join(items)
    if len(items) == 2:
        # Translators: a choice between two things: "build or pass".
        return t.gettext("{first} or {last}", first=items[0], last=items[1])
    # Translators: the end of a choice among three or more: "recruit, build, or pass".
    return t.gettext("{list}, or {last}", list=_head(items, t), last=items[-1])


def goods_text(goods: Mapping[str, int], t: Translator = ENGLISH) -> str:
    """`{"bigstone": 1, "grain": 1}` -> "1 grain + 1 large stone"."""
    return render_words.goods_count_phrase(goods, t) or t.gettext("nothing")


def count_list(items: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def workers_text(workers: Mapping[str, int] | Sequence[str], t: Translator = ENGLISH) -> str:
    """["copper", "grain"] -> "a copper and a grain worker"; {"copper": 2} -> "2 copper workers";
    {"copper": 2, "grain": 1} -> "2 copper workers and a grain worker" (other languages:
    the pictures' phrase, each count with its own noun)."""
    counts = count_list(workers) if not isinstance(workers, Mapping) else dict(workers)
    if not is_english(t):
        held = [c for c in data.COLOURS for _ in range(counts.get(c, 0))]
        return render_words.workers_phrase(held, t) or t.gettext("no workers")
    held_names = [(WORKER_COLOURS[c].one, counts[c]) for c in data.COLOURS if counts.get(c)]
    worker = PIECES["worker"]
    if not held_names:
        return f"no {worker.many}"
    if all(n == 1 for _, n in held_names):
        return join_words(f"a {c}" for c, _ in held_names) + f" {worker.one}"
    return join_words(
        f"a {c} {worker.one}" if n == 1 else f"{n} {c} {worker.many}" for c, n in held_names
    )


def colours_text(colours: Sequence[str], t: Translator = ENGLISH) -> str:
    """["copper", "grain"] -> "copper + grain" (the wheel's segments, the buttons)."""
    if list(colours) == [data.WILD, data.WILD]:
        return t.gettext("two wild workers")
    return " + ".join(WORKER_COLOURS[c].name_in(t) for c in colours)


def gained_text(gained: Mapping[str, int], t: Translator = ENGLISH) -> str:
    """{"cows": 1, "coins": 2} -> "1 cow and 2 coins" (goods among them as in a cost)."""
    parts = []
    if gained.get("cows"):
        parts.append(PIECES["cow"].count_in(t, gained["cows"]))
    if gained.get("coins"):
        parts.append(PIECES["coin"].count_in(t, gained["coins"]))
    goods = {g: n for g, n in gained.items() if g in data.GOODS}
    if goods:
        parts.append(goods_text(goods, t))
    return listed(parts, t) or t.gettext("nothing")


def _build_clause(d: Mapping[str, Any], t: Translator) -> str:
    extras = []
    bonuses = list(d.get("bonuses", []))
    if "double" in bonuses:
        extras.append(t.gettext("a second settlement on the double field"))
    lines = bonuses.count("line")
    if lines:
        extras.append(
            t.gettext("a bonus settlement for a line of 4")
            if lines == 1
            else t.ngettext(
                "{n} bonus settlement for lines of 4", "{n} bonus settlements for lines of 4", lines
            )
        )
    gained = d.get("gained", {})
    if gained.get("cows"):
        extras.append(t.gettext("the cow"))
    if gained.get("canteens"):
        extras.append(
            t.gettext("the canteen") if gained["canteens"] == 1 else t.gettext("both canteens")
        )
    paid = goods_text(d["paid"], t)
    if extras:
        return t.gettext(
            "built on {field} (paid {paid}), took {extras}",
            field=d["field"],
            paid=paid,
            extras=listed(extras, t),
        )
    return t.gettext("built on {field} (paid {paid})", field=d["field"], paid=paid)


def _stopped(coins: int, t: Translator) -> str:
    if coins:
        return t.gettext("stopped building (+{coins})", coins=PIECES["coin"].count_in(t, coins))
    return t.gettext("stopped building")


def _clause(event: Event, t: Translator) -> str | None:
    """The part of a sentence after the player's name, or None for a standalone event.

    Each is a predicate of its own in every language ("{who} {did}"): French and Polish
    in the present tense, Japanese a short past phrase (as the pictures word them)."""
    d = event.data
    kind = event.kind
    if kind == "said":
        silent = SILENT.get(str(d.get("move", "")))
        return t.translate(silent) if silent is not None else str(d["text"])
    if kind == "recruit":
        # Translators: this and the phrases below follow a player's name: "Ana recruited".
        return t.gettext("recruited")
    if kind == "spin":
        return t.gettext("spun {colours}", colours=colours_text(d["shows"], t))
    if kind == "workers":
        return t.gettext("took {workers}", workers=workers_text(d["workers"], t))
    if kind == "advance":
        return t.gettext(
            "paid {grain} to move the arrow {segments} on to {colours}",
            grain=GOODS["grain"].count_in(t, d["grain"]),
            segments=BOARD["segment"].count_in(t, d["steps"]),
            colours=colours_text(d["shows"], t),
        )
    if kind == "return":
        return t.gettext(
            "gave back {workers} ({limit} workers at most)",
            workers=workers_text(d["workers"], t),
            limit=data.MAX_WORKERS,
        )
    if kind == "bank":
        return t.gettext(
            "put {workers} on bank space {space} for {coins}",
            workers=workers_text(d["workers"], t),
            space=d["space"],
            coins=PIECES["coin"].count_in(t, d["coins"]),
        )
    if kind == "harvest":
        return t.gettext(
            "worked the {area} (place {place}) with {workers}, paid {coins} and took {goods}",
            area=AREAS[d["area"]].name_in(t),
            place=d["place"],
            workers=workers_text(d["workers"], t),
            coins=PIECES["coin"].count_in(t, d["coins"]),
            goods=goods_text(d["goods"], t),
        )
    if kind == "extra":
        return t.gettext(
            "put {workers} on the extra box for {goods} more",
            workers=workers_text(d["workers"], t),
            goods=goods_text(d["goods"], t),
        )
    if kind == "city":
        if d.get("free_pumpkin"):
            return t.gettext(
                "went to the city: took the free pumpkin and stands in row {row}, column {column}",
                row=d["row"],
                column=d["column"],
            )
        return t.gettext(
            "went to the city: stands in row {row}, column {column}",
            row=d["row"],
            column=d["column"],
        )
    if kind == "place":
        return t.gettext(
            "took row {row}, column {column} in the city", row=d["row"], column=d["column"]
        )
    if kind == "pass":
        return t.gettext("passed")
    if kind == "pay":
        return t.ngettext(
            "paid {n} pumpkin for city row {row}",
            "paid {n} pumpkins for city row {row}",
            d["pumpkins"],
            row=d["row"],
        )
    if kind == "reward":
        if d.get("upgraded"):
            return t.gettext(
                "took {gained} (upgrading {upgraded})",
                gained=gained_text(d["gained"], t),
                upgraded=goods_text(count_list(d["upgraded"]), t),
            )
        if not any(d["gained"].values()):
            return t.gettext("took no upgrade")
        return t.gettext("took {gained}", gained=gained_text(d["gained"], t))
    if kind == "build":
        return _build_clause(d, t)
    if kind == "stop":
        return _stopped(d["coins"], t)
    if kind == "trade":
        got = workers_text(d["gained"], t) if d.get("worker") else gained_text(d["gained"], t)
        return t.gettext("traded a cow for {got}", got=got)
    if kind == "canteen":
        return t.gettext("used a canteen for another turn")
    return None


def _standalone(event: Event, name: Callable[[str | None], str], t: Translator) -> str | None:
    d = event.data
    kind = event.kind
    if kind == "note":
        return str(d["text"])
    if kind == "overtaken":
        return t.gettext(
            "{who} overtook {other} in row {row}.",
            who=name(d["by"]),
            other=name(event.player),
            row=d["row"],
        )
    if kind == "shortage":
        if d["pool"] == "workers":
            colour = (
                WORKER_COLOURS[d["name"]].name_in(t) if d["name"] in WORKER_COLOURS else d["name"]
            )
            what = t.gettext("{colour} workers", colour=colour)
        else:
            what = GOODS[d["name"]].name_in(t) if d["name"] in GOODS else d["name"]
        returned = listed(
            (
                t.gettext("{who} returned {n}", who=name(pid), n=count)
                for pid, count in d["returned"].items()
            ),
            t,
        )
        return t.gettext(
            "The supply ran short of {what}: {returned}.", what=what, returned=returned
        )
    if kind == "cleanup":
        cleared = [t.translate(CLEARED[c]) if c in CLEARED else c for c in d["cleared"]]
        text = t.ngettext(
            "{places} was cleared.",
            "{places} were cleared.",
            len(cleared),
            places=listed(cleared, t),
        )
        return text[:1].upper() + text[1:]
    if kind == "final_round":
        return t.gettext(
            "{who} placed their last settlement: this is the final round.",
            who=name(event.player),
        )
    if kind == "auction_end":
        return t.gettext("The city auction is over.")
    if kind == "game_over":
        winners = [name(w) for w in d.get("winners", [])]
        return t.ngettext(
            "The game is over: {winners} wins!",
            "The game is over: {winners} share the win!",
            len(winners),
            winners=listed(winners, t),
        )
    return None


SILENT = {
    "noextra": translatable("left the extra box empty"),
    "end": translatable("ended the turn"),
    "advance 0": translatable("did not move the arrow"),
}
"""Actions that change nothing worth an event, and how to say them."""
SILENT_ACTIONS = {move: message.id for move, message in SILENT.items()}


IN_ADVANCE_EVENT: Final = "in_advance"
"""The bot's own event: the next `pass` of its player was their pass in advance."""
FORCED_STEP_EVENT: Final = {"bid": "pass", "return": "return", "reward": "reward", "build": "stop"}
"""A forced step's decision -> the event of the step itself, which its sentence words
(the forced `advance 0` and `noextra` leave none: their sentence stands alone)."""


def in_advance(player_id: str) -> Event:
    """Says that `player_id`'s pass that follows was given in advance (issue 11.3)."""
    return Event(IN_ADVANCE_EVENT, player_id, {})


def _forced_clause(cause: Event, step: Event | None, t: Translator) -> str:
    """What a player did without being asked: a forced step (RULES.md 7.3) or a pass
    in advance; `step` is the step's own event, when it has one."""
    if cause.kind == IN_ADVANCE_EVENT:
        return t.gettext("passed in advance")
    decision = cause.data.get("decision")
    d = step.data if step is not None else {}
    if decision == "bid":
        return t.gettext("could pay for no free space in the city and passed")
    if decision == "return":
        return t.gettext(
            "had to give back {workers} ({limit} at most)",
            workers=workers_text(d["workers"], t),
            limit=data.MAX_WORKERS,
        )
    if decision == "advance":
        return t.gettext("had no grain to move the arrow")
    if decision == "extra":
        return t.gettext("had no workers for the extra box")
    if decision == "reward":
        smalls = either([GOODS[small].name_in(t) for small in data.UPGRADES], t)
        gained = d.get("gained", {})
        if any(gained.values()):
            return t.gettext(
                "had no {smalls} to upgrade and took {gained}",
                smalls=smalls,
                gained=gained_text(gained, t),
            )
        return t.gettext("had no {smalls} to upgrade", smalls=smalls)
    if decision == "build":
        return t.gettext(
            "could build nothing more and {stopped}", stopped=_stopped(d.get("coins", 0), t)
        )
    try:
        phrase = render_words.action_phrase(parse_action(str(cause.data.get("action", ""))), t)
    except IllegalAction:
        phrase = str(cause.data.get("action", ""))
    return t.gettext("had only one choice: {what}", what=phrase)


def with_silent_action(events: Sequence[Event], actor: str | None, move: str | None) -> list[Event]:
    """`events`, preceded by a "said" event for an action that leaves none of its own
    (the move is kept, so the event is worded in the language it is told in)."""
    if move in SILENT_ACTIONS and actor is not None:
        return [Event("said", actor, {"text": SILENT_ACTIONS[move], "move": move}), *events]
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
    t: Translator = ENGLISH,
) -> str:
    """Sentences for what `events` did: one per player's run of actions, in `t`'s language.

    `actor` and `move` (notation) name the action that caused the events, for the actions
    that leave no event of their own (skipping the small box, ending the turn).
    """
    events = with_silent_action(events, actor, move)

    def name(pid: str | None) -> str:
        return names.get(pid, pid) if pid is not None else t.gettext("someone")

    sentences: list[str] = []
    current: str | None = None
    clauses: list[str] = []

    def flush() -> None:
        nonlocal current, clauses
        if current is not None and clauses:
            # Translators: one player's actions in a row: "Ana recruited and took 2 workers."
            did = one_after_another(clauses, t)
            sentences.append(t.gettext("{who} {did}.", who=name(current), did=did))
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
            clause: str | None = _forced_clause(event, None, t)
        elif event.player in unasked and unasked[event.player][0] == event.kind:
            clause = _forced_clause(unasked.pop(event.player)[1], event, t)
        else:
            clause = _clause(event, t)
        if clause is not None:
            if event.player != current:
                flush()
                current = event.player
            clauses.append(clause)
            continue
        standalone = _standalone(event, name, t)
        if standalone is not None:
            flush()
            sentences.append(standalone)
    flush()
    text = sentences[0] if sentences else ""
    for sentence in sentences[1:]:
        # Translators: one sentence after another (Japanese needs no space between).
        text = t.pgettext("sentences", "{text} {next}", text=text, next=sentence)
    return text


# ---------------------------------------------------------------- what comes next


def prompt_line(game: Game, mention: Mention, t: Translator = ENGLISH) -> str:
    """Who must act now and on what, addressing them with `mention`."""
    pid = game.awaiting
    if pid is None:
        return t.gettext("The game is over.")
    who = mention(pid)
    pending = game.pending
    player = game.player(pid)
    kind = pending.kind
    if kind == "main":
        return t.gettext("{who}, your turn: recruit, work or build.", who=who)
    if kind == "take":
        return t.gettext("{who}, choose the colours of your two wild workers.", who=who)
    if kind == "advance":
        return t.gettext("{who}, pay grain to move the arrow, or keep what you have.", who=who)
    if kind == "return":
        return t.gettext(
            "{who}, you have {n} workers: give back {excess} ({limit} at most).",
            who=who,
            n=player.worker_count,
            excess=game.workers_over_limit(pid),
            limit=data.MAX_WORKERS,
        )
    if kind == "extra":
        return t.gettext(
            "{who}, put workers on the extra box for 1 more {good}, or not.",
            who=who,
            good=GOODS[data.AREA_GOOD[pending.area]].name_in(t),
        )
    if kind == "bid":
        auction = game.auction
        if auction is not None and auction.displaced == pending.seat:
            return t.gettext("{who}, you were overtaken in the city — move or pass.", who=who)
        return t.gettext("{who}, the city auction: take a space or pass.", who=who)
    if kind == "reward":
        return t.gettext(
            "{who}, choose your city reward for row {row} ({reward}).",
            who=who,
            row=pending.row,
            reward=row_reward(pending.row, t),
        )
    if kind == "build":
        return t.gettext("{who}, build again or stop building.", who=who)
    if kind == "end":
        return t.gettext("{who}, use a canteen for another turn, or end your turn.", who=who)
    return t.gettext("{who}, it is your move.", who=who)


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


def took_back(name: str, notation: str, t: Translator = ENGLISH) -> str:
    """The public line of an undo: "↩ Ana took back: built on C4."."""
    try:
        what = render_words.action_phrase(parse_action(notation), t)
    except IllegalAction:
        what = notation
    return UNDO_MARK + " " + t.gettext("{who} took back: {what}.", who=name, what=what)


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


def seat_colour(game: Game, player_id: str, t: Translator = ENGLISH) -> str:
    return PLAYER_COLOURS[data.PLAYER_COLOURS[game.seat_of(player_id)]].name_in(t)


def seating(game: Game, names: Mapping[str, str], t: Translator = ENGLISH) -> str:
    """ "Seat order, drawn at random: 1. Ana — blue, starts, 3 coins; ..." """
    parts = []
    for seat, player in enumerate(game.players):
        fields = {
            "place": seat + 1,
            "who": names.get(player.id, player.id),
            "colour": PLAYER_COLOURS[data.PLAYER_COLOURS[seat]].name_in(t),
            "coins": PIECES["coin"].count_in(t, data.START_COINS[seat]),
        }
        if seat == 0:
            parts.append(t.gettext("{place}. {who} — {colour}, starts, {coins}", **fields))
        else:
            parts.append(t.gettext("{place}. {who} — {colour}, {coins}", **fields))
    return t.gettext("Seat order, drawn at random: {seats}.", seats=series(parts, t))


def results(game: Game, names: Mapping[str, str], t: Translator = ENGLISH) -> str:
    result = game.result()
    lines = [
        t.gettext("**Final ranking**") if result.finished else t.gettext("**Standings so far**")
    ]
    for standing in result.ranking:
        lines.append(
            t.gettext(
                "{place}. {who} ({colour}) — {settlements}, {cows}, {holdings}",
                place=standing.place,
                who=names.get(standing.player, standing.player),
                colour=seat_colour(game, standing.player, t),
                settlements=PIECES["settlement"].count_in(t, standing.settlements),
                cows=t.ngettext(
                    "{n} cow or canteen", "{n} cows and canteens", standing.cows_and_canteens
                ),
                holdings=t.ngettext(
                    "{n} good, coin or worker", "{n} goods, coins and workers", standing.holdings
                ),
            )
        )
    return "\n".join(lines)


def status(game: Game, names: Mapping[str, str], t: Translator = ENGLISH) -> str:
    """A text summary of the whole game for `/montana status`."""
    lines = [waiting_for(game, names, t)]
    if game.final_round and not game.is_over:
        lines.append(t.gettext("This is the final round."))
    for seat, player in enumerate(game.players):
        marker = "▶ " if player.id == game.awaiting else ""
        lines.append(
            marker
            + t.gettext(
                "**{who}** ({colour}): {coins}, {cows}, {canteens}, {settlements} left; "
                "goods: {goods}; workers: {workers}",
                who=names.get(player.id, player.id),
                colour=PLAYER_COLOURS[data.PLAYER_COLOURS[seat]].name_in(t),
                coins=PIECES["coin"].count_in(t, player.coins),
                cows=PIECES["cow"].count_in(t, player.cows),
                canteens=PIECES["canteen"].count_in(t, player.canteens),
                settlements=PIECES["settlement"].count_in(t, player.settlements_left),
                goods=goods_text(player.goods, t),
                workers=workers_text(player.workers, t),
            )
        )
    lines.append(results(game, names, t))
    return "\n".join(lines)


# ---------------------------------------------------------------- heads-up and away


def away_note(until: datetime, t: Translator = ENGLISH, *, ai: bool = False) -> str:
    """By an away player's name on the picture: "away until 3 Dec" (the date in UTC: a
    picture knows no reader's time zone; the messages give the moment itself), or "away
    until 3 Dec, AI plays" while the AI plays their seat."""
    moment = until.astimezone(UTC)
    # the language's own order and month: 3 Dec, 3 déc., 3 gru, 12月3日 ("d MMM" gave
    # the Japanese "3 12月")
    day = format_skeleton("MMMd", moment.date(), locale=t.language)
    if ai:
        return t.gettext("away until {date}, AI plays", date=day)
    return t.gettext("away until {date}", date=day)


def length_text(length: timedelta, t: Translator = ENGLISH) -> str:
    """timedelta(days=3, hours=12) -> "3 days 12 hours"."""
    hours = round(length.total_seconds() / 3600)
    days, hours = divmod(hours, 24)
    parts = [t.ngettext("{n} day", "{n} days", days)] if days else []
    if hours or not days:
        parts.append(t.ngettext("{n} hour", "{n} hours", hours))
    return " ".join(parts)


def away_line(name: str, until: str, t: Translator = ENGLISH, *, ai: bool = False) -> str:
    """Said with the prompt and in the status while a player is away (`until`: the moment
    as the front end shows it); `ai`: the AI plays their seat in this game meanwhile."""
    if ai:
        return t.gettext(
            "{who} is away until {until} — the AI plays for them.", who=name, until=until
        )
    return t.gettext(
        "{who} is away until {until} — their deadlines are paused.", who=name, until=until
    )


def went_away_line(name: str, until: str, t: Translator = ENGLISH, *, ai: bool = False) -> str:
    """Told to a game's players when one of them goes away (or changes the end)."""
    if ai:
        return t.gettext(
            "{who} is away until {until}; the AI plays their seat in this game until they "
            "are back.",
            who=name,
            until=until,
        )
    return t.gettext(
        "{who} is away until {until}; their deadlines in this game are paused until they are back.",
        who=name,
        until=until,
    )


def back_line(name: str, t: Translator = ENGLISH, *, ai: bool = False) -> str:
    """Told to a game's players when an away player is back; `ai`: the AI, which played
    their seat meanwhile, gives it back."""
    if ai:
        return t.gettext(
            "{who} is back and plays their own seat again; their deadlines run from now.",
            who=name,
        )
    return t.gettext("{who} is back; their deadlines run again from now.", who=name)


def heads_up_line(who: str, starting: str, t: Translator = ENGLISH) -> str:
    """The heads-up: `who` (as addressed) is next after `starting` (a name)."""
    return t.gettext(
        "{who}, heads-up: {starting} has started their turn — you are next.",
        who=who,
        starting=starting,
    )


# ---------------------------------------------------------------- the AI's reasons


def _good(key: str, t: Translator) -> str:
    return GOODS[key].name_in(t) if key in GOODS else key


def _goods_counted(key: str, n: int, t: Translator) -> str:
    return GOODS[key].count_in(t, n) if key in GOODS else f"{n} {key}"


def reason_words(
    reason: AiReason, t: Translator = ENGLISH, names: Mapping[str, str] | None = None
) -> str:
    """One reason of the AI's (`ai.Reason`, data) in `t`'s language: "4 points now",
    "takes the cow on C4", "gets 2 small copper"."""
    r, kind = reason, reason.kind
    if kind == "only_option":
        return t.gettext("the only possible move")
    if kind == "points_now":
        return t.ngettext("{n} point now", "{n} points now", r.value)
    if kind == "double_field":
        return t.gettext("{field} is a double field", field=r.field)
    if kind == "line_bonus":
        if r.value == 1:
            return t.gettext("completes a line of four")
        return t.ngettext("completes {n} line of four", "completes {n} lines of four", r.value)
    if kind == "takes_cow":
        return t.gettext("takes the cow on {field}", field=r.field)
    if kind == "takes_canteen":
        return t.gettext("takes {canteens}", canteens=PIECES["canteen"].count_in(t, r.value))
    if kind == "gains_goods":
        return t.gettext("gets {goods}", goods=_goods_counted(r.good, r.value, t))
    if kind == "gains_coins":
        return t.gettext("gets {coins}", coins=PIECES["coin"].count_in(t, r.value))
    if kind == "gains_workers":
        workers = render_words.workers_phrase([r.good] * r.value, t) if r.good in WORKERS_OK else ""
        return t.gettext("gets {workers}", workers=workers or str(r.value))
    if kind == "gains_cow":
        return t.gettext("gets {cows}", cows=PIECES["cow"].count_in(t, r.value))
    if kind == "upgrades":
        return t.gettext("upgrades {goods}", goods=_goods_counted(r.good, r.value, t))
    if kind == "pays_goods":
        return t.gettext("pays {goods}", goods=_goods_counted(r.good, r.value, t))
    if kind == "city_row":
        return t.gettext("city row {row} for its reward", row=r.row)
    if kind == "overtakes":
        who = (names or {}).get(r.player, r.player)
        return t.gettext("pushes {who} out of row {row}", who=who, row=r.row)
    if kind == "extra_turn":
        return t.gettext("another turn at once")
    if kind == "enables_build":
        return t.gettext("then the goods pay for {field}", field=r.field)
    if kind == "closer_to_build":
        if r.missing:
            missing = " + ".join(_good(good, t) for good in r.missing)
            return t.gettext(
                "closer to {field} (missing {missing})", field=r.field, missing=missing
            )
        return t.gettext("closer to {field}", field=r.field)
    if kind == "keeps_good_for":
        return t.gettext("it leaves you {good} for {field}", good=_good(r.good, t), field=r.field)
    if kind == "recruits":
        return t.gettext(
            "about {workers} from the wheel", workers=PIECES["worker"].count_in(t, r.value)
        )
    if kind == "best_immediate_gain":
        return t.gettext("best immediate gain ({score})", score=f"{r.value / 10:g}")
    if kind == "random_choice":
        return t.gettext("picked at random")
    return kind.replace("_", " ")


def reasons_words(
    reasons: Iterable[AiReason], t: Translator = ENGLISH, names: Mapping[str, str] | None = None
) -> str:
    """The AI's reasons for a move, as one list: "4 points now, and takes the cow on C4"."""
    return listed([reason_words(reason, t, names) for reason in reasons], t)


WORKERS_OK: Final = frozenset(data.COLOURS)
"""Worker colours the pictures' phrase can word (the AI's `gains_workers` good)."""


def log_lines(moves: Iterable[tuple[int, str, str]], names: Mapping[str, str]) -> list[str]:
    """`(version, player, notation)` -> "12. Ana: build C4" (notation on purpose)."""
    return [
        f"{version}. {names.get(player, player)}: {notation}" for version, player, notation in moves
    ]


def rules_lines(t: Translator = ENGLISH) -> list[str]:
    """The rules in short, a paragraph a line; the last line names the slash commands."""
    return [
        t.gettext("**Montana in a nutshell** — build the most settlements on the landscape."),
        t.gettext("On your turn take **one** action:"),
        t.gettext(
            "• **Recruit**: spin the wheel and take the 2 workers it shows (wild: any "
            "colours); you may then pay grain to move the arrow, 1 grain a segment, and take "
            "that segment's 2 workers too. Keep at most {limit} workers.",
            limit=data.MAX_WORKERS,
        ),
        t.gettext(
            "• **Work**: put workers on a free bank space (take its coins), on the harvest "
            "box of a harvest place (1 worker of the area's colour or 2 of any; pay its "
            "coins, take its goods; then optionally its extra box for 1 more), or go to the "
            "**city**: take a free pumpkin and a space; the others answer in turn — taking "
            "a space, or passing (or passing in advance, before their turn to answer "
            "comes). Entering an occupied row means standing to the right, and the one "
            "overtaken must move or pass. At the end each pays the column's pumpkins and "
            "takes the row's reward; an upgrade gives back a small copper or small stone "
            "for a large copper or large stone."
        ),
        t.gettext(
            "• **Build** 1 to 3 times: pay the goods printed on a free field touching a "
            "settlement or the start tile. Cows and canteens on it or next to it are yours; "
            "double fields and lines of exactly 4 give bonus settlements. Each unused build "
            "pays 1 coin (1 build: +2)."
        ),
        t.gettext(
            "Any time in your own turn: a **cow trade**: 1 cow for 1 good, {coins} coins or "
            "1 worker. At the end of your turn you may spend a **canteen** for another turn.",
            coins=data.COW_TRADE_COINS,
        ),
        t.gettext(
            "When someone places their last settlement the round is played to its end. Most "
            "settlements wins; ties: most cows and canteens, then most goods, coins and "
            "workers."
        ),
        t.gettext(
            "A step with only one possible choice is made for you, and said. You may take "
            "back your last moves until another player moves or the wheel is spun."
        ),
        t.gettext(
            "Use the buttons under the latest picture, or type: {/build} ({/build:field}), "
            "{/recruit}, {/play} ({/play:move}), {/undo}. The game itself "
            "(lobby, deadlines, log, history): {/game …}; your notifications and "
            "holidays: {/me …}."
        ),
    ]


def rules_help(t: Translator = ENGLISH) -> str:
    """The answer of `/montana game rules`, in `t`'s language."""
    return "\n".join(rules_lines(t))


RULES_HELP = rules_help()
ROW_REWARDS: Final = {row: row_reward(row) for row in data.CITY_REWARDS}
"""What each city row gives, in words (the menus show it)."""
