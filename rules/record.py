"""Game records: a whole game as text, like a PGN file for chess (rules/README.md,
"Game records").

    text = dumps(game, {"Game": "42", "Server": "Prairie Club"}, names={"123": "Ana"})
    game, tags = loads(text)  # the identical game; every move checked by replaying it

Pure: no I/O, no clock. The moments of the moves and the notes on them (forced,
passed in advance, on a deadline) are whatever the caller passes, kept as written.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from . import board, data
from .actions import IllegalAction, Reason, parse_action
from .game import SCHEMA_VERSION, Game
from .recent import turn_starts

FORMAT = "Montana game record 1"
"""The first tag of every record: which format (and which version of it) follows."""
FORCED = "forced"
"""The note of a step the game applied itself (RULES.md 7.3: one legal action)."""

_TAG_ORDER = (
    "Format",
    "Game",
    "Server",
    "Channel",
    "Language",
    "TurnDeadline",
    "AuctionDeadline",
    "Started",
    "Ended",
)
_DERIVED = ("Seed", "Landscape", "StartField", "Rules", "Schema1Moves")
"""Tags `dumps` writes from the game itself (a caller's value is ignored)."""
_SEAT_TAG = re.compile(r"Seat([1-4])(Id|Colour)?")
_TAG_LINE = re.compile(r'\[([A-Za-z][A-Za-z0-9]*) "((?:[^"\\]|\\.)*)"\]')
_MOVE_LINE = re.compile(r"(undone )?([0-9]+)\. (\S+) ([^#]*?)\s*(?:#(.*))?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
UNDER_WAY = "under way"
FINISHED = "finished"
_LANDSCAPE_TILE = re.compile(r"([A-Z])=([0-9]{1,3})/([0-9]{1,3})")
FRESH = "; No seed while the game is under way: played on from here, the wheel spins afresh."
"""The comment under the header of a record written before the game's end: the seed
(which decides every spin to come) is secret until then (issue 35 point 3)."""


class RecordError(ValueError):
    """A record that cannot be read: `line` (1 = the first line of the text) and `what`
    is wrong there; `reason` is the engine's refusal when a move is illegal."""

    def __init__(self, line: int, what: str, reason: Reason | None = None) -> None:
        self.line = line
        self.what = what
        self.reason = reason
        super().__init__(f"line {line}: {what}")


@dataclass(frozen=True)
class Move:
    """One line of the record: an entry of the game's log and what is known of it."""

    player: str
    notation: str
    at: str | None = None
    """When it was made, as the caller wrote it (ISO 8601 in the bot)."""
    note: str | None = None
    """Why it was made for its player: `forced`, or the caller's word (`advance`,
    `deadline`, `ai`…)."""


@dataclass(frozen=True)
class Undone:
    """A move taken back (issue 11): not part of the line played, kept for the story."""

    number: int
    """Its place in the log when it was made (1 = the first entry)."""
    player: str
    notation: str
    at: str | None = None
    note: str | None = None
    by: str | None = None
    """Who took it back."""
    undone_at: str | None = None


@dataclass
class Record:
    """A record read back: the game, its tags, its moves with their moments and notes,
    and the moves taken back."""

    game: Game
    tags: dict[str, str]
    moves: list[Move] = field(default_factory=list)
    undone: list[Undone] = field(default_factory=list)
    turn_starts: dict[int, int] = field(default_factory=dict)
    """Turn number -> how many moves were played when that turn began."""

    def at_turn(self, turn: int) -> Game:
        """The game as it stood when turn `turn` began (its forced steps applied);
        `ValueError` when the game never reached that turn."""
        if turn not in self.turn_starts:
            last = max(self.turn_starts, default=0)
            raise ValueError(f"turn {turn} is not in the record: it has turns 1 to {last}")
        record = self.game.record()
        record["actions"] = [[m.player, m.notation] for m in self.moves[: self.turn_starts[turn]]]
        return Game.replay(record)


def turns_begun(game: Game) -> dict[int, int]:
    """Turn number -> how many of `game`'s log entries were played when that turn began:
    the turns a replay shows (`recent.turn_starts`, the setup left out), and the turn
    now awaited if it has no entry yet (a record can be opened where it stopped)."""
    starts = {number: start for number, start in enumerate(turn_starts(game)) if number}
    if not game.is_over and game.turn_number == len(starts) + 1:
        starts[game.turn_number] = len(game.log)
    return starts


# ------------------------------------------------------------------ writing


def _quoted(value: str) -> str:
    value = _CONTROL.sub(" ", value).strip()
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _word(value: str | None) -> str:
    """A moment or a note as one word (spaces would end it)."""
    return re.sub(r"\s+", "_", _CONTROL.sub(" ", value or "").strip())


def landscape_text(game: Game) -> str:
    """The landscape as the `Landscape` tag writes it: `LETTER=TILE/ROTATION` per tile
    in letter order, TILE the printed tile's index in `data.TILES` (0 to 11) and
    ROTATION how many sixths of a turn it was dealt turned (RULES.md 2.1)."""
    return " ".join(f"{t.letter}={t.tile_index}/{t.rotation}" for t in game.tiles)


def ranking_text(game: Game) -> str:
    """The ranking as the `Ranking` tag writes it: `PLACE COLOUR S/C/H` per seat, best
    first (settlements, cows and canteens, holdings: RULES.md 10)."""
    colours = {p.id: data.PLAYER_COLOURS[seat] for seat, p in enumerate(game.players)}
    return ", ".join(
        f"{s.place} {colours[s.player]} {s.settlements}/{s.cows_and_canteens}/{s.holdings}"
        for s in game.result().ranking
    )


def dumps(
    game: Game,
    tags: Mapping[str, str] | None = None,
    *,
    names: Mapping[str, str] | None = None,
    moments: Sequence[str | None] = (),
    notes: Mapping[int, str] | None = None,
    undone: Iterable[Undone] = (),
) -> str:
    """The record of `game` as text.

    `tags`: the caller's header (game, server, language, deadlines, dates, a `Result`
    and `Ranking` of a game ended otherwise than by its rules); the seats, landscape,
    start field, rules version and the result of a finished game come from the game.
    The seed is written only once the game is over: before, it would foretell every
    spin to come; the record carries the landscape and the spins made instead, all a
    replay needs.
    `names`: player id -> name for the seat tags. `moments[i]`: when log entry i was
    made; `notes[i]`: why it was made for its player (forced steps are noted
    `forced` without it). `undone`: the moves taken back, written where they were.
    """
    given = {k: v for k, v in (tags or {}).items() if not _SEAT_TAG.fullmatch(k)}
    header: dict[str, str] = {"Format": FORMAT}
    for key in _TAG_ORDER[1:]:
        if key in given:
            header[key] = given[key]
    names = names or {}
    for seat, player in enumerate(game.players):
        header[f"Seat{seat + 1}"] = names.get(player.id, player.id)
        header[f"Seat{seat + 1}Colour"] = data.PLAYER_COLOURS[seat]
        header[f"Seat{seat + 1}Id"] = player.id
    if game.is_over:
        header["Seed"] = str(game.seed)
    header["Landscape"] = landscape_text(game)
    header["StartField"] = game.start_field
    header["Rules"] = str(SCHEMA_VERSION)
    if game.schema1_moves:
        header["Schema1Moves"] = str(game.schema1_moves)
    if game.is_over:
        header["Result"] = FINISHED
        header["Ranking"] = ranking_text(game)
    else:
        header["Result"] = given.get("Result", UNDER_WAY)
        if "Ranking" in given:
            header["Ranking"] = given["Ranking"]
    for key in sorted(given):
        if key not in header and key not in _DERIVED and _TAG_LINE.fullmatch(f'[{key} ""]'):
            header[key] = given[key]
    lines = [f'[{key} "{_quoted(value)}"]' for key, value in header.items()]
    if not game.is_over:
        lines.append(FRESH)
    lines.append("")

    colour = {p.id: data.PLAYER_COLOURS[seat] for seat, p in enumerate(game.players)}
    forced = set(game.auto)
    notes = notes or {}
    # one undo takes back a run of moves (numbered on): written before the move that
    # now stands where the run's first one stood
    by_place: dict[int, list[Undone]] = {}
    previous: Undone | None = None
    place = 0
    for taken_back in undone:
        if previous is None or (taken_back.number, taken_back.by, taken_back.undone_at) != (
            previous.number + 1,
            previous.by,
            previous.undone_at,
        ):
            place = taken_back.number - 1
        by_place.setdefault(place, []).append(taken_back)
        previous = taken_back

    def undone_lines(place: int) -> None:
        for u in by_place.pop(place, []):
            comment = _comment(u.at, u.note, by=colour.get(u.by or "", u.by), when=u.undone_at)
            lines.append(
                f"undone {u.number}. {colour.get(u.player, u.player)} {u.notation}{comment}"
            )

    # where each turn begins: what a replay shows one frame of (`recent.turn_starts`)
    turns = {start: number for number, start in enumerate(turn_starts(game)) if number}
    for index, (player_id, notation) in enumerate(game.log):
        undone_lines(index)
        if index in turns:
            lines.append(f"; turn {turns[index]}: {colour[player_id]}")
        at = moments[index] if index < len(moments) else None
        note = FORCED if index in forced else notes.get(index)
        lines.append(f"{index + 1}. {colour[player_id]} {notation}{_comment(at, note)}")
    for place in sorted(by_place):
        undone_lines(place)
    return "\n".join(lines) + "\n"


def _comment(
    at: str | None, note: str | None, *, by: str | None = None, when: str | None = None
) -> str:
    parts = [f"{key}={_word(value)}" for key, value in (("at", at), ("note", note)) if value]
    parts += [f"{key}={_word(value)}" for key, value in (("by", by), ("undone_at", when)) if value]
    return "  # " + " ".join(parts) if parts else ""


# ------------------------------------------------------------------ reading


def _unquoted(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _fields(comment: str | None, line: int) -> dict[str, str]:
    fields: dict[str, str] = {}
    for part in (comment or "").split():
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise RecordError(line, f"'{part}' after '#' is not KEY=VALUE (at=…, note=…)")
        fields[key] = value
    return fields


def loads(text: str, *, fresh_seed: int | None = None) -> tuple[Game, dict[str, str]]:
    """The game a record describes and its tags; `RecordError` names the first line
    that cannot be read or holds a move the rules refuse."""
    record = parse(text, fresh_seed=fresh_seed)
    return record.game, record.tags


def parse(text: str, *, fresh_seed: int | None = None) -> Record:
    """`loads` with all the record holds: the moves' moments and notes, the moves
    taken back, where each turn began.

    A record without a seed (one of a game under way) replays all the same, its spins
    being in it; played on, its wheel spins from `fresh_seed`, or from a seed drawn
    afresh from the system when None: never the real game's next spins."""
    lines = text.splitlines()
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    body = 0
    while body < len(lines):
        line = lines[body].strip()
        if line and not line.startswith(";"):
            if not line.startswith("["):
                break
            match = _TAG_LINE.fullmatch(line)
            if match is None:
                raise RecordError(body + 1, 'expected a tag: [Name "value"] (\\" for a quote)')
            if match[1] in tags:
                raise RecordError(body + 1, f"the tag {match[1]} is given twice")
            tags[match[1]] = _unquoted(match[2])
            tag_lines[match[1]] = body + 1
        body += 1
    if tags.get("Format") != FORMAT:
        raise RecordError(
            tag_lines.get("Format", 1), f'not a Montana game record: expected [Format "{FORMAT}"]'
        )
    game, colours = _start(tags, tag_lines, fresh_seed)
    record = Record(game=game, tags=tags)
    # each line is one log entry (a record of schema 1 may leave forced steps out)
    exact = "Schema1Moves" not in tags and tags["Rules"] != "1"
    for number, raw in enumerate(lines[body:], start=body + 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("["):
            raise RecordError(number, "a tag after the moves: the header ends at the first move")
        match = _MOVE_LINE.fullmatch(line)
        if match is None:
            raise RecordError(number, "expected a move such as '12. blue build C4  # at=…'")
        undone, index, colour, notation, comment = match.groups()
        fields = _fields(comment, number)
        if colour not in colours:
            raise RecordError(number, f"'{colour}' is no seat of this game: {', '.join(colours)}")
        player = colours[colour]
        if undone:
            try:
                parse_action(notation)
            except IllegalAction as error:
                raise RecordError(number, f"taken back move '{notation}': {error}") from error
            by = fields.get("by")
            record.undone.append(
                Undone(
                    int(index),
                    player,
                    notation,
                    fields.get("at"),
                    fields.get("note"),
                    colours.get(by, by) if by else None,
                    fields.get("undone_at"),
                )
            )
            continue
        if int(index) != len(record.moves) + 1:
            raise RecordError(
                number, f"move number {index} out of order: expected {len(record.moves) + 1}"
            )
        note = fields.get("note")
        try:
            game.replay_action(player, notation)
        except IllegalAction as error:
            inner = error.__cause__ if isinstance(error.__cause__, IllegalAction) else error
            raise RecordError(number, f"'{notation}' is refused: {inner}", inner.reason) from error
        if exact and note == FORCED and len(record.moves) not in game.auto:
            raise RecordError(
                number, f"'{notation}' is noted forced but its player had other choices"
            )
        record.moves.append(Move(player, notation, fields.get("at"), note))
    game.replay_finish()
    record.turn_starts = turns_begun(game)
    _check_result(game, tags, tag_lines)
    return record


def _start(
    tags: dict[str, str], tag_lines: dict[str, int], fresh_seed: int | None
) -> tuple[Game, dict[str, str]]:
    """The game before its first move, from the header; seat colour -> player id."""

    def needed(key: str) -> str:
        if key not in tags:
            raise RecordError(max(tag_lines.values(), default=1), f"the tag {key} is missing")
        return tags[key]

    def number(key: str) -> int:
        value = needed(key)
        if not re.fullmatch(r"-?[0-9]+", value):
            raise RecordError(tag_lines[key], f"{key} must be a whole number, not '{value}'")
        return int(value)

    rules = number("Rules")
    if rules not in (1, SCHEMA_VERSION):
        raise RecordError(tag_lines["Rules"], f"rules version {rules} is not read here (1 or 2)")
    players: list[str] = []
    colours: dict[str, str] = {}
    for seat in range(1, 5):
        if f"Seat{seat}Id" not in tags:
            break
        pid = tags[f"Seat{seat}Id"]
        colour = data.PLAYER_COLOURS[seat - 1]
        if tags.get(f"Seat{seat}Colour", colour) != colour:
            raise RecordError(
                tag_lines[f"Seat{seat}Colour"], f"seat {seat} plays {colour}, not another colour"
            )
        players.append(pid)
        colours[colour] = pid
    if "Seed" in tags:
        seed = number("Seed")
    elif "Landscape" not in tags:
        raise RecordError(max(tag_lines.values(), default=1), "the tag Landscape is missing")
    else:
        seed = fresh_seed if fresh_seed is not None else random.SystemRandom().randrange(2**31)
    record: dict[str, object] = {
        "version": rules,
        "players": players,
        "seed": seed,
        "start_field": needed("StartField"),
        "actions": [],
    }
    if "Landscape" in tags:
        record["tiles"] = _landscape(tags["Landscape"], tag_lines["Landscape"], len(players))
    if "Schema1Moves" in tags:
        record["schema1_moves"] = number("Schema1Moves")
    try:
        return Game.replay_start(record), colours
    except ValueError as error:
        line = tag_lines.get("Seat1Id", tag_lines.get("StartField", 1))
        raise RecordError(line, f"the game cannot be set up: {error}") from error


def _landscape(text: str, line: int, players: int) -> list[tuple[int, int]]:
    """[(tile index, rotation)] of a `Landscape` tag, in letter order."""
    tiles: list[tuple[int, int]] = []
    for number, part in enumerate(text.split()):
        match = _LANDSCAPE_TILE.fullmatch(part)
        letter = chr(ord("A") + number)
        if match is None or match[1] != letter:
            expected = f"'{letter}=TILE/ROTATION' such as '{letter}=3/5'"
            raise RecordError(line, f"Landscape: expected {expected}, not '{part}'")
        tiles.append((int(match[2]), int(match[3])))
    if players in data.SHAPES:
        try:
            board.lay_tiles(players, tiles)
        except ValueError as error:
            raise RecordError(line, f"Landscape: {error}") from error
    return tiles


def _check_result(game: Game, tags: dict[str, str], tag_lines: dict[str, int]) -> None:
    result = tags.get("Result")
    if result == FINISHED and not game.is_over:
        raise RecordError(tag_lines["Result"], "the result says finished but the moves stop early")
    if game.is_over:
        if result != FINISHED:
            raise RecordError(
                tag_lines.get("Result", 1), f"the game is over: its Result is '{FINISHED}'"
            )
        if "Ranking" in tags and tags["Ranking"] != ranking_text(game):
            raise RecordError(
                tag_lines["Ranking"], f"the moves give the ranking '{ranking_text(game)}'"
            )


def renamed(game: Game, player_ids: Sequence[str]) -> Game:
    """The same game with other player ids, seat by seat (replayed from its record):
    a record's game seated in another front end (the console's players)."""
    mapping = dict(zip(game.player_ids, player_ids, strict=True))
    record = game.record()
    record["players"] = list(player_ids)
    record["actions"] = [[mapping[pid], notation] for pid, notation in record["actions"]]
    return Game.replay(record)
