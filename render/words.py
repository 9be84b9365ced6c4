"""The pictures' words: labels, whose turn, who must answer, the last turn, the results,
the legend's lines, and the rules engine's refusal reasons, in the reader's language.

Names of things come from `render.vocabulary`; this module builds the phrases and
sentences around them through a `Translator` (`i18n`): whole sentences with named
fields, never fragments glued in English order, and every count through the
language's plural forms. Every word the pictures draw comes from here or from that
table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from i18n import Translator, translator
from rules import Action, Game, IllegalAction, data, parse_action
from rules.actions import Goods, Named, Reason, Workers, WorkersHeld
from rules.recent import Move, RecentTurn

from .vocabulary import (
    ACTIONS,
    AREAS,
    GOODS,
    LABELS,
    PIECES,
    PLAYER_COLOURS,
    WORKER_COLOURS,
    WORKERS,
    Term,
)

ENGLISH = translator("en")

GOOD_WORDS = {good: (term.one, term.many) for good, term in GOODS.items()}
"""good -> English (singular, plural), e.g. "bigcopper" -> ("large copper", "large copper")
(the bot's English words until it speaks every language)."""
AREA_WORDS = {area: f"the {term.one}" for area, term in AREAS.items()}
"""area -> its English name in a sentence, e.g. "wheatfield" -> "the grain field"."""


def capitalised(text: str) -> str:
    """ "grain field" -> "Grain field" (titles and labels)."""
    return text[:1].upper() + text[1:]


def display_name(player_id: str, names: Mapping[str, str] | None) -> str:
    """The name to show for a player: `names[player_id]`, else the id itself."""
    if names and names.get(player_id):
        return names[player_id]
    return player_id


def joined(parts: Sequence[str], t: Translator) -> str:
    """["a", "b", "c"] -> "a, b and c" in `t`'s language."""
    if not parts:
        return ""
    text = parts[0]
    for index, part in enumerate(parts[1:], start=2):
        if index == len(parts):
            # Translators: the last item of a list: "Ana, Ben and Cleo", "C4 and C5".
            text = t.gettext("{list} and {last}", list=text, last=part)
        else:
            # Translators: an item in the middle of a list: "Ana, Ben".
            text = t.gettext("{list}, {next}", list=text, next=part)
    return text


def goods_phrase(goods: Sequence[str], t: Translator) -> str:
    """("copper", "copper", "grain") -> "1 grain + 2 small copper"."""
    return goods_count_phrase(Counter(goods), t)


def goods_count_phrase(counts: Mapping[str, int], t: Translator = ENGLISH) -> str:
    """{"bigstone": 1, "grain": 2} -> "2 grain + 1 large stone" ("" when empty)."""
    return " + ".join(
        GOODS[good].count_in(t, counts[good]) for good in data.GOODS if counts.get(good, 0)
    )


def workers_phrase(colours: Sequence[str], t: Translator) -> str:
    """("copper", "grain") -> "a copper worker and a grain worker"; ("stone", "stone") ->
    "2 stone workers" (each count agrees with its own noun)."""
    counts = Counter(colours)
    return joined([WORKERS[c].phrase(t, counts[c]) for c in data.COLOURS if counts[c]], t)


def _segment_workers(segment: int, t: Translator) -> str:
    left, right = data.WHEEL[segment - 1]
    if left == data.WILD:
        return WORKERS[data.WILD].phrase(t, 2)
    return workers_phrase((left, right), t)


def _coins(n: int, t: Translator) -> str:
    return PIECES["coin"].count_in(t, n)


def _area(area: str, t: Translator) -> str:
    return AREAS[area].name_in(t)


def action_phrase(action: Action, t: Translator) -> str:
    """What a player did, without the subject: "built on C4", "passed in the city auction".

    The phrases follow a player's name ("{who} {did}"), so each language words them as
    a predicate of its own (French and Polish in the present tense, which needs no
    gender; Japanese as a short noun phrase).
    """
    verb, args = action.verb, action.args
    if verb == "recruit":
        # Translators: the phrases below follow a player's name: "Ana recruited: ...".
        return t.gettext("recruited: spun the wheel")
    if verb == "spin":
        segment = int(args[0])
        return t.gettext(
            "got segment {segment} of the wheel ({workers})",
            segment=segment,
            workers=_segment_workers(segment, t),
        )
    if verb == "take":
        return t.gettext("took {workers}", workers=workers_phrase(args, t))
    if verb == "advance":
        steps = int(args[0])
        if steps == 0:
            return t.gettext("did not move the arrow")
        return t.ngettext(
            "paid {n} grain to move the arrow {n} segment",
            "paid {n} grain to move the arrow {n} segments",
            steps,
        )
    if verb == "return":
        return t.gettext(
            "gave back {workers} ({limit} at most)",
            workers=workers_phrase(args, t),
            limit=data.MAX_WORKERS,
        )
    if verb == "bank":
        space = int(args[0])
        return t.gettext(
            "put {workers} on bank space {space} (+{coins})",
            workers=workers_phrase(args[1:], t),
            space=space,
            coins=_coins(data.BANK[space - 1][1], t),
        )
    if verb == "harvest":
        area, place = args[0], int(args[1])
        coins, amount = data.HARVEST_PLACES[area][place - 1]
        return t.gettext(
            "worked the {area}, place {place}: paid {coins} for {goods}",
            area=_area(area, t),
            place=place,
            coins=_coins(coins, t),
            goods=goods_phrase([data.AREA_GOOD[area]] * amount, t),
        )
    if verb == "extra":
        return t.gettext(
            "also filled the extra box with {workers}", workers=workers_phrase(args, t)
        )
    if verb == "noextra":
        return t.gettext("left the extra box empty")
    if verb == "city":
        return t.gettext(
            "went to the city: row {row}, column {column}", row=args[0], column=args[1]
        )
    if verb == "place":
        return t.gettext(
            "stepped into the city: row {row}, column {column}", row=args[0], column=args[1]
        )
    if verb == "pass":
        return t.gettext("passed in the city auction")
    if verb == "upgrade":
        if not args:
            return t.gettext("took no upgrade")
        return t.gettext("upgraded {goods} to large", goods=goods_phrase(args, t))
    if verb == "goods":
        return t.gettext("took {goods} from the city", goods=goods_phrase(args, t))
    if verb == "build":
        return t.gettext("built on {fields}", fields=args[0])
    if verb == "stop":
        return t.gettext("stopped building")
    if verb == "trade":
        if args[0] == "coins":
            return t.gettext("traded a cow for {coins}", coins=_coins(data.COW_TRADE_COINS, t))
        if args[0] == "worker":
            return t.gettext("traded a cow for {worker}", worker=WORKERS[args[1]].phrase(t, 1))
        return t.gettext("traded a cow for {goods}", goods=goods_phrase(args, t))
    if verb == "canteen":
        return t.gettext("used a canteen: another turn")
    if verb == "end":
        return t.gettext("ended the turn")
    return str(action)


def _subject(who: str, did: str, t: Translator) -> str:
    # Translators: a player's name and what they did ("Ana built on C4"); {did} is one
    # of the phrases that follow a name, or several joined by "{earlier}, {later}".
    return t.gettext("{who} {did}", who=who, did=did)


def describe_action(
    game: Game,
    player_id: str,
    notation: str,
    names: Mapping[str, str] | None = None,
    t: Translator = ENGLISH,
) -> str:
    """One logged action in words, e.g. "Ana built on C4"."""
    del game  # the action alone says it; kept for the callers' uniform signature
    who = display_name(player_id, names)
    try:
        action = parse_action(notation)
    except IllegalAction:
        return f"{who}: {notation}"
    return _subject(who, action_phrase(action, t), t)


def _turn_phrases(turn: RecentTurn, t: Translator) -> list[tuple[str, str]]:
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
            segment = int(args[0])
            phrase = t.gettext(
                "recruited: segment {segment} of the wheel ({workers})",
                segment=segment,
                workers=_segment_workers(segment, t),
            )
            phrases.append((player, phrase))
            continue
        if verb == "build":
            if builds and args[0] == builds[0]:
                phrase = t.gettext("built on {fields}", fields=joined(builds, t))
                phrases.append((move.player, phrase))
            continue
        if verb == "pass":
            phrase = t.gettext("passed")
        elif verb == "stop" and turn.unused_build_coins:
            phrase = t.gettext(
                "stopped building (+{coins})", coins=_coins(turn.unused_build_coins, t)
            )
        else:
            phrase = action_phrase(move.action, t)
        phrases.append((move.player, phrase))
    return phrases


def turn_summary(
    turn: RecentTurn, names: Mapping[str, str] | None = None, t: Translator = ENGLISH
) -> str:
    """The whole turn in one sentence: "Ana built on C4 and C5, stopped building (+1 coin)".

    Consecutive moves of one player share their subject; another player's answer
    (the city auction) starts a new clause after a semicolon.
    """
    clauses: list[tuple[str, str]] = []
    for player, phrase in _turn_phrases(turn, t):
        if clauses and clauses[-1][0] == player:
            # Translators: two things one player did, the second after the first.
            did = t.gettext("{earlier}, {later}", earlier=clauses[-1][1], later=phrase)
            clauses[-1] = (player, did)
        else:
            clauses.append((player, phrase))
    text = ""
    for player, did in clauses:
        clause = _subject(display_name(player, names), did, t)
        # Translators: what another player did next in the same turn (a city auction).
        text = t.gettext("{sentence}; {clause}", sentence=text, clause=clause) if text else clause
    return text


def turn_line(
    turn: RecentTurn | None, names: Mapping[str, str] | None = None, t: Translator = ENGLISH
) -> str:
    """The header's sentence about the last turn (what the picture marks on the boards)."""
    if turn is None:
        return t.gettext("Nothing played yet")
    summary = turn_summary(turn, names, t)
    if turn.setup:
        return t.gettext("Setup: {summary}", summary=summary)
    if turn.in_progress:
        return t.gettext("Turn {number} so far: {summary}", number=turn.number, summary=summary)
    return t.gettext("Last turn ({number}): {summary}", number=turn.number, summary=summary)


def awaited_task(game: Game, t: Translator = ENGLISH) -> str:
    """What the awaited player must do, worded to follow "<name> must" (an infinitive)."""
    pending = game.pending
    kind = pending.kind
    if kind == "take":
        # Translators: what a player must do next; the phrases follow "must" ("{task}").
        return t.gettext("choose the colours of 2 wild workers")
    if kind == "advance":
        return t.gettext("choose whether to pay grain to move the arrow")
    if kind == "return":
        return t.gettext("give back workers down to {limit}", limit=data.MAX_WORKERS)
    if kind == "main":
        return t.gettext("recruit, work or build")
    if kind == "extra":
        area = _area(pending.area, t) if pending.area in AREAS else pending.area
        return t.gettext("choose whether to fill the extra box in the {area}", area=area)
    if kind == "bid":
        auction = game.auction
        if auction is not None and auction.displaced == pending.seat:
            return t.gettext("move to another city space or pass (overtaken)")
        return t.gettext("take a city space or pass (city auction)")
    if kind == "reward":
        return t.gettext("choose the reward of city row {row}", row=pending.row)
    if kind == "build":
        return t.gettext("build again or stop")
    if kind == "end":
        return t.gettext("use a canteen or end the turn")
    return t.gettext("decide ({kind})", kind=kind)


def title_task(game: Game, t: Translator = ENGLISH) -> str:
    """The header's big line after the awaited player's name: "must recruit, work or
    build"."""
    # Translators: drawn right after the awaited player's name, in a box of its own.
    return t.gettext("must {task}", task=awaited_task(game, t))


def game_over_title(
    game: Game, names: Mapping[str, str] | None = None, t: Translator = ENGLISH
) -> str:
    winners = [display_name(pid, names) for pid in game.result().winners]
    # Translators: {winners} is one name, or several joined as a list.
    return t.ngettext(
        "Game over: {winners} wins",
        "Game over: {winners} win",
        len(winners),
        winners=joined(winners, t),
    )


def status_line(
    game: Game,
    names: Mapping[str, str] | None = None,
    notes: Mapping[str, str] | None = None,
    t: Translator = ENGLISH,
) -> str:
    """Whose turn it is (which may not be the awaited player: a city auction), with the
    turn player's seat note."""
    if game.is_over:
        return t.gettext("Game over after turn {number}", number=game.turn_number)
    if game.in_setup:
        return t.gettext("Setup: everyone spins the wheel twice")
    line = t.gettext(
        "Turn {number}: {name}'s turn",
        number=game.turn_number,
        name=display_name(game.turn_player, names),
    )
    note = (notes or {}).get(game.turn_player)
    if note:
        line = with_note(line, note, t)
    if game.final_round:
        line = with_note(line, t.translate(LABELS["final_round"]), t)
    return line


def with_note(text: str, note: str, t: Translator) -> str:
    """ "Turn 5: Ana's turn (AI plays)": a note in brackets after a text."""
    # Translators: a short note in brackets after a text, as "(AI plays)".
    return t.gettext("{text} ({note})", text=text, note=note)


def header_lines(
    game: Game,
    turn: RecentTurn | None,
    names: Mapping[str, str] | None = None,
    notes: Mapping[str, str] | None = None,
    t: Translator = ENGLISH,
) -> list[str]:
    """The header: the awaited player's task (or the winner), the turn, the last turn.

    The first line is drawn after the awaited player's name in their colour (when the
    game is not over): "must recruit, work or build".
    """
    title = game_over_title(game, names, t) if game.is_over else title_task(game, t)
    return [title, status_line(game, names, notes, t), turn_line(turn, names, t)]


def settlements_left(count: int, t: Translator) -> str:
    """ "4 left", beside the settlement on a player board."""
    # Translators: settlements a player has left to build, beside a settlement icon.
    return t.ngettext("{n} left", "{n} left", count)


def workers_held(count: int, t: Translator) -> str:
    """ "workers 2/8": the workers a player holds and the most they may keep."""
    return t.gettext("workers {held}/{limit}", held=count, limit=data.MAX_WORKERS)


def upgrade_label(good: str, t: Translator) -> str:
    """ "small copper → large copper"."""
    return f"{GOODS[good].name_in(t)} → {GOODS[data.UPGRADES[good]].name_in(t)}"


def result_lines(
    game: Game, names: Mapping[str, str] | None = None, t: Translator = ENGLISH
) -> list[tuple[int, str, str]]:
    """Ranking rows as (place, name, figures), the figures in tie-break order:
    "3 settlements · 1 cow or canteen · 12 goods, coins and workers"."""
    rows = []
    for standing in game.result().ranking:
        figures = (
            PIECES["settlement"].count_in(t, standing.settlements),
            # Translators: cows and canteens counted together (a tie-break).
            t.ngettext("{n} cow or canteen", "{n} cows and canteens", standing.cows_and_canteens),
            # Translators: goods, coins and workers counted together (the last tie-break).
            t.ngettext(
                "{n} good, coin or worker", "{n} goods, coins and workers", standing.holdings
            ),
        )
        rows.append((standing.place, display_name(standing.player, names), " · ".join(figures)))
    return rows


# --- the legend ------------------------------------------------------------------------


def legend_entry(term: Term, t: Translator, hint: str | None = None) -> str:
    """ "Cow: trade for a good, a worker or 3 coins": a name and its hint (the term's
    own, unless `hint` is given)."""
    name = capitalised(term.name_in(t))
    hint = hint if hint is not None else term.hint_in(t)
    if not hint:
        return name
    # Translators: an entry of the picture's legend, a name and a few words about it.
    return t.gettext("{name}: {hint}", name=name, hint=hint)


def _lettered(terms: Mapping[str, Term], keys: Sequence[str], t: Translator) -> str:
    """ "C copper, S stone, G grain, P pumpkin": each letter with the colour it stands for."""
    text = ""
    for key in keys:
        # Translators: a letter drawn on the pieces and the colour it stands for: "C copper".
        item = t.gettext(
            "{letter} {colour}", letter=terms[key].letter, colour=terms[key].name_in(t)
        )
        text = t.gettext("{list}, {next}", list=text, next=item) if text else item
    return text


def workers_legend(t: Translator) -> str:
    """ "Workers: C copper, S stone, G grain, P pumpkin": the letters on the workers."""
    return t.gettext("Workers: {colours}", colours=_lettered(WORKER_COLOURS, data.COLOURS, t))


def players_legend(t: Translator) -> str:
    """ "Players: B blue, Y yellow, G green, R red": the letters on the settlements."""
    return t.gettext(
        "Players: {colours}", colours=_lettered(PLAYER_COLOURS, data.PLAYER_COLOURS, t)
    )


def upgrade_legend(good: str, t: Translator) -> str:
    """ "Upgrade: small copper → large copper"."""
    return legend_entry(ACTIONS["upgrade"], t, upgrade_label(good, t))


# --- the rules engine's refusals -------------------------------------------------------


def reason_text(
    reason: Reason, t: Translator = ENGLISH, names: Mapping[str, str] | None = None
) -> str:
    """A refusal of the rules engine (`IllegalAction.reason`) in `t`'s language.

    The template comes from the catalogue (its English is the engine's own), and each
    field is worded for the reader: areas, goods and worker colours by the vocabulary,
    a player id by `names` (the id itself when it has none), counts of goods and
    workers as the pictures count them, a clause (another reason) in turn; numbers,
    notation and field labels stay as they are.
    """
    fields = {name: _reason_field(value, t, names) for name, value in reason.fields}
    if reason.plural is None:
        return t.gettext(reason.text, **fields)
    count = reason.count
    fields.pop("n", None)
    return t.ngettext(reason.text, reason.plural, count if count is not None else 0, **fields)


def _reason_field(
    value: int | str | Named | Goods | Workers | WorkersHeld | Reason,
    t: Translator,
    names: Mapping[str, str] | None,
) -> str:
    if isinstance(value, Reason):
        return reason_text(value, t, names)
    if isinstance(value, Named):
        if value.kind == "player":
            return display_name(value.key, names)
        table: Mapping[str, Term] = {"area": AREAS, "good": GOODS, "colour": WORKER_COLOURS}[
            value.kind
        ]
        return table[value.key].name_in(t) if value.key in table else value.key
    if isinstance(value, Goods):
        return " + ".join(GOODS[good].count_in(t, n) for good, n in value.counts)
    if isinstance(value, Workers):
        return " + ".join(WORKER_COLOURS[colour].name_in(t) for colour in value.colours)
    if isinstance(value, WorkersHeld):
        if not value.counts:
            return t.gettext("no workers")
        return ", ".join(WORKERS[colour].phrase(t, n) for colour, n in value.counts)
    return str(value)
