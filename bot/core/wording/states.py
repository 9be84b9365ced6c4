"""What comes next and where the game stands: the prompt, what a player may do now,
whom the game waits for, refusals worded from the state, the seats, the standings and
the status, the move log.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import render.words as render_words
from bot.core.wording.phrasing import (
    UNDO_MARK,
    Mention,
    either,
    goods_text,
    row_reward,
    series,
    workers_text,
)
from i18n import Translator, translatable_in
from render.vocabulary import AREAS, GOODS, PIECES, PLAYER_COLOURS
from render.words import ENGLISH
from rules import Game, IllegalAction, data, parse_action


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


def log_lines(moves: Iterable[tuple[int, str, str]], names: Mapping[str, str]) -> list[str]:
    """`(version, player, notation)` -> "12. Ana: build C4" (notation on purpose)."""
    return [
        f"{version}. {names.get(player, player)}: {notation}" for version, player, notation in moves
    ]
