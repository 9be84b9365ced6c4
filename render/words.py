"""The picture's sentences: whose turn, who must answer, the last action, the results."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from rules import Game, IllegalAction, data, parse_action

GOOD_WORDS = {
    "grain": ("grain", "grain"),
    "pumpkin": ("pumpkin", "pumpkins"),
    "copper": ("small copper", "small copper"),
    "stone": ("small stone", "small stone"),
    "bigcopper": ("large copper", "large copper"),
    "bigstone": ("large stone", "large stone"),
}
AREA_WORDS = {
    "mine": "the mine",
    "quarry": "the quarry",
    "wheatfield": "the grain field",
    "garden": "the pumpkin garden",
}


def display_name(player_id: str, names: Mapping[str, str] | None) -> str:
    """The name to show for a player: `names[player_id]`, else the id itself."""
    if names and names.get(player_id):
        return names[player_id]
    return player_id


def goods_phrase(goods: Sequence[str]) -> str:
    """("copper", "copper", "grain") -> "2 small copper + 1 grain"."""
    return goods_count_phrase(Counter(goods))


def goods_count_phrase(counts: Mapping[str, int]) -> str:
    """{"bigstone": 1, "grain": 2} -> "2 grain + 1 large stone" ("" when empty)."""
    parts = []
    for good in data.GOODS:
        count = counts.get(good, 0)
        if count:
            singular, plural = GOOD_WORDS[good]
            parts.append(f"{count} {singular if count == 1 else plural}")
    return " + ".join(parts)


def workers_phrase(colours: Sequence[str]) -> str:
    """("copper", "grain") -> "1 copper + 1 grain worker"; ("stone",) -> "1 stone worker"."""
    counts = Counter(colours)
    parts = [f"{counts[c]} {c}" for c in data.COLOURS if counts[c]]
    total = sum(counts.values())
    return " + ".join(parts) + (" worker" if total == 1 else " workers")


def _segment_phrase(segment: int) -> str:
    left, right = data.WHEEL[segment - 1]
    if left == data.WILD:
        return "2 wild workers"
    return workers_phrase((left, right))


def describe_action(
    game: Game, player_id: str, notation: str, names: Mapping[str, str] | None = None
) -> str:
    """One logged action in words, e.g. "Ana built on C4"."""
    who = display_name(player_id, names)
    try:
        action = parse_action(notation)
    except IllegalAction:
        return f"{who}: {notation}"
    verb, args = action.verb, action.args
    if verb == "recruit":
        return f"{who} recruits: spins the wheel"
    if verb == "spin":
        segment = int(args[0])
        return f"The wheel stopped on segment {segment} for {who} ({_segment_phrase(segment)})"
    if verb == "take":
        return f"{who} took {workers_phrase(args)}"
    if verb == "advance":
        steps = int(args[0])
        if steps == 0:
            return f"{who} did not move the arrow"
        return f"{who} paid {steps} grain to move the arrow {steps} segment" + (
            "s" if steps > 1 else ""
        )
    if verb == "return":
        return f"{who} gave back {workers_phrase(args)} (8 at most)"
    if verb == "bank":
        space = int(args[0])
        coins = data.BANK[space - 1][1]
        return f"{who} put {workers_phrase(args[1:])} on bank space {space} (+{coins} coins)"
    if verb == "harvest":
        area, place = args[0], int(args[1])
        coins, amount = data.HARVEST_PLACES[area][place - 1]
        good = data.AREA_GOOD[area]
        return (
            f"{who} worked {AREA_WORDS[area]}, place {place}: paid {coins} coin"
            f"{'s' if coins > 1 else ''} for {goods_phrase([good] * amount)}"
        )
    if verb == "extra":
        return f"{who} also filled the small box with {workers_phrase(args)}"
    if verb == "noextra":
        return f"{who} left the small box empty"
    if verb == "city":
        return f"{who} went to the city: row {args[0]}, column {args[1]}"
    if verb == "place":
        return f"{who} stepped into the city: row {args[0]}, column {args[1]}"
    if verb == "pass":
        return f"{who} passed in the city auction"
    if verb == "upgrade":
        if not args:
            return f"{who} took no upgrade"
        return f"{who} upgraded {goods_phrase(args)} to large"
    if verb == "goods":
        return f"{who} took {goods_phrase(args)} from the city"
    if verb == "build":
        return f"{who} built on {args[0]}"
    if verb == "stop":
        return f"{who} stopped building"
    if verb == "trade":
        if args[0] == "coins":
            return f"{who} traded a cow for {data.COW_TRADE_COINS} coins"
        if args[0] == "worker":
            return f"{who} traded a cow for a {args[1]} worker"
        return f"{who} traded a cow for {goods_phrase(args)}"
    if verb == "canteen":
        return f"{who} used a canteen: another turn"
    if verb == "end":
        return f"{who} ended the turn"
    return f"{who}: {notation}"


def last_action(game: Game, names: Mapping[str, str] | None = None) -> str:
    if not game.log:
        return "Nothing played yet"
    player_id, notation = game.log[-1]
    return describe_action(game, player_id, notation, names)


def awaited_task(game: Game) -> str:
    """What the awaited player must do, worded to follow "<name> must"."""
    pending = game.pending
    kind = pending.kind
    if kind == "take":
        return "choose the colours of 2 wild workers"
    if kind == "advance":
        return "choose whether to pay grain to move the arrow"
    if kind == "return":
        return "give back workers down to 8"
    if kind == "main":
        return "recruit, work or build"
    if kind == "extra":
        return (
            f"choose whether to fill the small box in {AREA_WORDS.get(pending.area, pending.area)}"
        )
    if kind == "bid":
        auction = game.auction
        if auction is not None and auction.displaced == pending.seat:
            return "move to another city space or pass (overtaken)"
        return "take a city space or pass (city auction)"
    if kind == "reward":
        return f"choose the reward of city row {pending.row}"
    if kind == "build":
        return "build again or stop"
    if kind == "end":
        return "use a canteen or end the turn"
    return f"decide ({kind})"


def header_lines(game: Game, names: Mapping[str, str] | None = None) -> list[str]:
    """The header: state of play, who must act now, the last action."""
    turn = display_name(game.turn_player, names)
    if game.is_over:
        winners = [display_name(pid, names) for pid in game.result().winners]
        title = "Game over: " + " and ".join(winners) + (" win" if len(winners) > 1 else " wins")
        return [title, f"Last: {last_action(game, names)}"]
    if game.in_setup:
        title = "Setup: everyone spins the wheel twice"
    else:
        title = f"Turn {game.turn_number}: {turn}'s turn"
        if game.final_round:
            title += " (final round)"
    lines = [title]
    awaiting = game.awaiting
    if awaiting is not None:
        lines.append(f"Now: {display_name(awaiting, names)} must {awaited_task(game)}")
    lines.append(f"Last: {last_action(game, names)}")
    return lines


def result_lines(game: Game, names: Mapping[str, str] | None = None) -> list[tuple[int, str, str]]:
    """Ranking rows as (place, name, figures), the figures in tie-break order."""
    rows = []
    for standing in game.result().ranking:
        rows.append(
            (
                standing.place,
                display_name(standing.player, names),
                f"{standing.settlements} settlements · "
                f"{standing.cows_and_canteens} cows + canteens · "
                f"{standing.holdings} goods + coins + workers",
            )
        )
    return rows
