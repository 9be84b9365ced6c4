"""What happened: engine events in the sentences players use at the table ("Ana
recruited and took 2 workers."), forced steps and passes in advance among them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import render.words as render_words
from bot.core.wording.phrasing import (
    colours_text,
    count_list,
    either,
    gained_text,
    goods_text,
    listed,
    one_after_another,
    workers_text,
)
from i18n import Translator, translatable, translatable_in
from render.vocabulary import AREAS, BOARD, GOODS, PIECES, WORKER_COLOURS
from render.words import ENGLISH
from rules import Event, IllegalAction, data, parse_action

CLEARED = {
    "bank": translatable_in("cleared", "the bank"),
    "mine": translatable_in("cleared", "the mine"),
    "quarry": translatable_in("cleared", "the quarry"),
    "wheatfield": translatable_in("cleared", "the grain field"),
    "garden": translatable_in("cleared", "the pumpkin garden"),
}
"""The places a clean-up clears, as they stand in "the bank and the mine were cleared"."""


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
