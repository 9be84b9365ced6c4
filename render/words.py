"""The pictures' words: labels, whose turn, who must answer, the last turn, the results.

Names of things come from `render.vocabulary`; this module builds the phrases and
sentences around them. Every word the pictures draw comes from here or from that
table (a later issue translates them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from rules import Action, Game, IllegalAction, data, parse_action
from rules.recent import Move, RecentTurn

from .vocabulary import ACTIONS, AREAS, BOARD, GOODS, LABELS, PIECES, WORKER_COLOURS, Term

GOOD_WORDS = {good: (term.one, term.many) for good, term in GOODS.items()}
"""good -> (singular, plural), e.g. "bigcopper" -> ("large copper", "large copper")."""
AREA_WORDS = {area: f"the {term.one}" for area, term in AREAS.items()}
"""area -> its name in a sentence, e.g. "wheatfield" -> "the grain field"."""


def capitalised(text: str) -> str:
    """ "grain field" -> "Grain field" (titles and labels)."""
    return text[:1].upper() + text[1:]


def display_name(player_id: str, names: Mapping[str, str] | None) -> str:
    """The name to show for a player: `names[player_id]`, else the id itself."""
    if names and names.get(player_id):
        return names[player_id]
    return player_id


def goods_phrase(goods: Sequence[str]) -> str:
    """("copper", "copper", "grain") -> "1 grain + 2 small copper"."""
    return goods_count_phrase(Counter(goods))


def goods_count_phrase(counts: Mapping[str, int]) -> str:
    """{"bigstone": 1, "grain": 2} -> "2 grain + 1 large stone" ("" when empty)."""
    return " + ".join(GOODS[good].count(counts[good]) for good in data.GOODS if counts.get(good, 0))


def workers_phrase(colours: Sequence[str]) -> str:
    """("copper", "grain") -> "a copper worker and a grain worker"; ("stone", "stone") ->
    "2 stone workers" (each count agrees with its own noun)."""
    counts = Counter(colours)
    worker = PIECES["worker"]
    parts = [
        f"a {WORKER_COLOURS[c].one} {worker.one}"
        if counts[c] == 1
        else f"{counts[c]} {WORKER_COLOURS[c].one} {worker.many}"
        for c in data.COLOURS
        if counts[c]
    ]
    return _joined(parts)


def _segment_phrase(segment: int) -> str:
    left, right = data.WHEEL[segment - 1]
    if left == data.WILD:
        return f"2 {WORKER_COLOURS[data.WILD].one} {PIECES['worker'].many}"
    return workers_phrase((left, right))


def _stop_phrase(segment: int) -> str:
    """ "segment 3 of the wheel (2 wild workers)"."""
    return (
        f"{BOARD['segment'].one} {segment} of the {BOARD['wheel'].one} ({_segment_phrase(segment)})"
    )


def _coins(n: int) -> str:
    return PIECES["coin"].count(n)


def action_phrase(action: Action) -> str:
    """What a player did, without the subject: "built on C4", "passed in the city auction"."""
    verb, args = action.verb, action.args
    if verb == "recruit":
        return f"recruited: spun the {BOARD['wheel'].one}"
    if verb == "spin":
        segment = int(args[0])
        return f"got {_stop_phrase(segment)}"
    if verb == "take":
        return f"took {workers_phrase(args)}"
    if verb == "advance":
        steps = int(args[0])
        if steps == 0:
            return "did not move the arrow"
        return f"paid {steps} grain to move the arrow {BOARD['segment'].count(steps)}"
    if verb == "return":
        return f"gave back {workers_phrase(args)} ({data.MAX_WORKERS} at most)"
    if verb == "bank":
        space = int(args[0])
        coins = data.BANK[space - 1][1]
        return (
            f"put {workers_phrase(args[1:])} on {BOARD['bank_space'].one} {space} "
            f"(+{_coins(coins)})"
        )
    if verb == "harvest":
        area, place = args[0], int(args[1])
        coins, amount = data.HARVEST_PLACES[area][place - 1]
        good = data.AREA_GOOD[area]
        return (
            f"worked {AREA_WORDS[area]}, {BOARD['place'].one} {place}: paid {_coins(coins)} "
            f"for {goods_phrase([good] * amount)}"
        )
    if verb == "extra":
        return f"also filled the {BOARD['small_box'].one} with {workers_phrase(args)}"
    if verb == "noextra":
        return f"left the {BOARD['small_box'].one} empty"
    if verb == "city":
        return f"went to the {BOARD['city'].one}: {_city_space(args)}"
    if verb == "place":
        return f"stepped into the {BOARD['city'].one}: {_city_space(args)}"
    if verb == "pass":
        return f"passed in the {BOARD['city'].one} auction"
    if verb == "upgrade":
        if not args:
            return f"took no {ACTIONS['upgrade'].one}"
        return f"upgraded {goods_phrase(args)} to large"
    if verb == "goods":
        return f"took {goods_phrase(args)} from the {BOARD['city'].one}"
    if verb == "build":
        return f"built on {args[0]}"
    if verb == "stop":
        return "stopped building"
    if verb == "trade":
        if args[0] == "coins":
            return f"traded a {PIECES['cow'].one} for {_coins(data.COW_TRADE_COINS)}"
        if args[0] == "worker":
            return f"traded a {PIECES['cow'].one} for a {args[1]} {PIECES['worker'].one}"
        return f"traded a {PIECES['cow'].one} for {goods_phrase(args)}"
    if verb == "canteen":
        return f"used a {PIECES['canteen'].one}: another turn"
    if verb == "end":
        return "ended the turn"
    return str(action)


def _city_space(args: tuple[str, ...]) -> str:
    return f"{BOARD['row'].one} {args[0]}, {BOARD['column'].one} {args[1]}"


def describe_action(
    game: Game, player_id: str, notation: str, names: Mapping[str, str] | None = None
) -> str:
    """One logged action in words, e.g. "Ana built on C4"."""
    del game  # the action alone says it; kept for the callers' uniform signature
    who = display_name(player_id, names)
    try:
        action = parse_action(notation)
    except IllegalAction:
        return f"{who}: {notation}"
    return f"{who} {action_phrase(action)}"


def _joined(parts: Sequence[str]) -> str:
    """["a", "b", "c"] -> "a, b and c"."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _turn_phrases(turn: RecentTurn) -> list[tuple[str, str]]:
    """(player, phrase) for the moves of a turn, short: a spin joins its recruit, builds
    are listed together, "stop" says its coins, declining an option (the extra box, the
    arrow, the canteen) is left out, a pass in the auction is just "passed"."""
    phrases: list[tuple[str, str]] = []
    builds = turn.builds
    moves: list[Move] = list(turn.moves)
    for i, move in enumerate(moves):
        verb, args = move.action.verb, move.action.args
        if verb in ("noextra", "end") or (verb == "advance" and args[0] == "0"):
            continue
        if verb == "spin" and i > 0 and moves[i - 1].action.verb == "recruit":
            player, _ = phrases.pop()
            phrases.append((player, f"recruited: {_stop_phrase(int(args[0]))}"))
            continue
        if verb == "build":
            if builds and args[0] == builds[0]:
                phrases.append((move.player, f"built on {_joined(builds)}"))
            continue
        phrase = "passed" if verb == "pass" else action_phrase(move.action)
        if verb == "stop":
            coins = turn.unused_build_coins
            phrase += f" (+{_coins(coins)})" if coins else ""
        phrases.append((move.player, phrase))
    return phrases


def turn_summary(turn: RecentTurn, names: Mapping[str, str] | None = None) -> str:
    """The whole turn in one sentence: "Ana built on C4 and C5, stopped building (+1 coin)".

    Consecutive moves of one player share their subject; another player's answer
    (the city auction) starts a new clause after a semicolon.
    """
    clauses: list[str] = []
    current: str | None = None
    for player, phrase in _turn_phrases(turn):
        if player == current:
            clauses[-1] += f", {phrase}"
        else:
            clauses.append(f"{display_name(player, names)} {phrase}")
            current = player
    return "; ".join(clauses)


def turn_line(turn: RecentTurn | None, names: Mapping[str, str] | None = None) -> str:
    """The header's sentence about the last turn (what the picture marks on the boards)."""
    if turn is None:
        return "Nothing played yet"
    summary = turn_summary(turn, names)
    if turn.setup:
        return f"Setup: {summary}"
    if turn.in_progress:
        return f"Turn {turn.number} so far: {summary}"
    return f"{capitalised(LABELS['last_turn'])} ({turn.number}): {summary}"


def awaited_task(game: Game) -> str:
    """What the awaited player must do, worded to follow "<name> must"."""
    pending = game.pending
    kind = pending.kind
    if kind == "take":
        return "choose the colours of 2 wild workers"
    if kind == "advance":
        return "choose whether to pay grain to move the arrow"
    if kind == "return":
        return f"give back workers down to {data.MAX_WORKERS}"
    if kind == "main":
        return "recruit, work or build"
    if kind == "extra":
        area = AREA_WORDS.get(pending.area, pending.area)
        return f"choose whether to fill the {BOARD['small_box'].one} in {area}"
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


def title_task(game: Game) -> str:
    """The header's big line after the awaited player's name: "must recruit, work or
    build"."""
    return f"must {awaited_task(game)}"


def game_over_title(game: Game, names: Mapping[str, str] | None = None) -> str:
    winners = [display_name(pid, names) for pid in game.result().winners]
    return "Game over: " + _joined(winners) + (" win" if len(winners) > 1 else " wins")


def status_line(
    game: Game, names: Mapping[str, str] | None = None, notes: Mapping[str, str] | None = None
) -> str:
    """Whose turn it is (which may not be the awaited player: a city auction), with the
    turn player's seat note."""
    if game.is_over:
        return f"Game over after turn {game.turn_number}"
    if game.in_setup:
        return "Setup: everyone spins the wheel twice"
    line = f"Turn {game.turn_number}: {display_name(game.turn_player, names)}'s turn"
    note = (notes or {}).get(game.turn_player)
    if note:
        line += f" ({note})"
    if game.final_round:
        line += f" ({LABELS['final_round']})"
    return line


def header_lines(
    game: Game,
    turn: RecentTurn | None,
    names: Mapping[str, str] | None = None,
    notes: Mapping[str, str] | None = None,
) -> list[str]:
    """The header: the awaited player's task (or the winner), the turn, the last turn.

    The first line is drawn after the awaited player's name in their colour (when the
    game is not over): "must recruit, work or build".
    """
    title = game_over_title(game, names) if game.is_over else title_task(game)
    return [title, status_line(game, names, notes), turn_line(turn, names)]


def settlements_left(count: int) -> str:
    return f"{count} {LABELS['left']}"


def workers_held(count: int) -> str:
    return f"{count}/{data.MAX_WORKERS}"


def upgrade_label(good: str) -> str:
    """ "small copper → large copper"."""
    return f"{GOODS[good].one} → {GOODS[data.UPGRADES[good]].one}"


GOOD = Term("good", "goods")
"""Any of the six goods, counted together (the ranking's last tie-break)."""


def _either_count(n: int, *terms: Term) -> str:
    """A count of several kinds of things together: "1 cow or canteen", "3 cows and
    canteens", "1 good, coin or worker"."""
    if n == 1:
        names, joiner = [t.one for t in terms], " or "
    else:
        names, joiner = [t.many for t in terms], " and "
    return f"{n} " + ", ".join(names[:-1]) + joiner + names[-1]


def result_lines(game: Game, names: Mapping[str, str] | None = None) -> list[tuple[int, str, str]]:
    """Ranking rows as (place, name, figures), the figures in tie-break order."""
    rows = []
    for standing in game.result().ranking:
        rows.append(
            (
                standing.place,
                display_name(standing.player, names),
                " · ".join(
                    (
                        PIECES["settlement"].count(standing.settlements),
                        _either_count(standing.cows_and_canteens, PIECES["cow"], PIECES["canteen"]),
                        _either_count(
                            standing.holdings,
                            Term("good", "goods"),
                            PIECES["coin"],
                            PIECES["worker"],
                        ),
                    )
                ),
            )
        )
    return rows
