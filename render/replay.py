"""A game played again: an animated GIF, one frame per turn, from the game's move log.

    replay = render_replay(game, names={"123": "Ana"}, language="fr")
    replay.gif  # bytes, at most MAX_BYTES whatever the game's length

Each frame is the snapshot of the game at the end of one turn (`render.compose`: the
turn marked on the boards and said in the header), under a band that says which turn
of how many it is and whose, with a bar of the game's progress; the setup is one
frame (the position the game started from); the last frame is the game as it stands
(its final ranking when it is over) and is held longer. A game under way is replayed
up to now. `turns=(FROM, TO)` replays a part (turn 0 is the setup).

Size: Discord animates a GIF in the chat, and takes 10 MB from a server without
boosts. The frames share one palette (the snapshot's fixed palette, one index kept
for "unchanged"), so each frame after the first stores only the pixels its turn
changed. A replay that comes out larger than `max_bytes` is shrunk and then given
fewer frames (an even spread, the last frame always kept), so a game of
any length fits.

Pure: a `Game` in, bytes out; the drawing reuses the snapshot's caches (every field,
sprite and word mask is drawn once per process) and its kept parts (`render.layers`:
a frame draws only what its turn changed), and the state is folded forward turn by
turn from the record rather than rebuilt for each frame.

Memory (issue 37.1): flat whatever the game's length. Each frame is written to the GIF
as soon as it is drawn (`render.gifwriter`, Pillow's bytes) and dropped; the tallest
frame's height (a turn said on more lines makes the header taller) is known at the end,
when the GIF's beginning and first frame are written in front of the rest, so the
record is played through once. Only a
replay that grows past `max_bytes` is drawn again, its frames kept zlib-compressed
(`FrameStore`, ~80 KB a frame) to be shrunk or thinned out: the same GIF as before,
byte for byte, in every case.
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import overload

from PIL import Image, ImageDraw

from i18n import LANGUAGES, Translator, translator
from rules import Event, Game
from rules.recent import last_turn, turn_starts

from . import _DRAWING, _language, compose, fonts, icons, layers, textboxes
from .gifwriter import ByteCounter, GifWriter, padded
from .palette import BOARD_GROUND, GOLD, HEADER_MUTED, INK, WHITE, png_palette, seat_colour
from .words import display_name

MAX_BYTES = 8 * 1024 * 1024
"""Discord takes 10 MiB per file from a server without boosts; a margin for the rest."""
REDUCTIONS = (2, 3, 4)
"""Frame sizes tried: the snapshot's 2000 px divided by these (a box average, 2.5 ms a
frame where a resampling to any other size costs 12-18 ms). Half size keeps the header
readable in the chat's preview and the boards when the picture is opened."""
MIN_FRAMES = 12
FRAME_MS = 700
FIRST_MS = 1500
LAST_MS = 6000
"""How long the last frame (the final ranking, or where the game stands) is held before
the GIF plays again."""
BAND_HEIGHT = 72
"""A multiple of each of REDUCTIONS, so the band and the snapshot reduce apart."""
TRANSPARENT = 255
"""The palette index that means "as in the previous frame"."""

Progress = Callable[[float], None]


@dataclass(frozen=True)
class TurnFrame:
    """What one frame shows: the game at the end of a turn."""

    turn: int
    """The game's turn number (0: the setup)."""
    player: str | None
    """The turn's player (None for the setup)."""


@dataclass(frozen=True)
class Replay:
    gif: bytes
    frames: int
    """Frames in the GIF."""
    turns: tuple[int, int]
    """The first and last turn shown."""
    width: int
    height: int
    scale: float
    """The frames' size as a part of the snapshot's."""


def parse_turns(text: str) -> tuple[int, int]:
    """`"10-20"` -> (10, 20); `"7"` -> (7, 7). Raises ValueError for anything else."""
    parts = text.replace(" ", "").replace("–", "-").split("-")
    if len(parts) == 1 and parts[0].isdigit():
        return int(parts[0]), int(parts[0])
    if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
        first, last = int(parts[0]), int(parts[1])
        if first <= last:
            return first, last
    raise ValueError(text)


@dataclass(frozen=True)
class TurnState:
    """The game at the end of one turn, and what happened in that turn."""

    frame: TurnFrame
    game: Game
    """Folded forward after the caller is done with it (except the last: the game
    itself): draw it, or copy it, before asking for the next."""
    events: tuple[Event, ...]
    """The engine's events of the turn's entries (words: `bot.core.wording.words.describe`)."""


def turn_states(game: Game) -> Iterator[TurnState]:
    """The game at the end of the setup and of every turn, oldest first, ending with
    `game` itself (its turn in progress, if any)."""
    record = game.record()
    actions = record["actions"]
    starts = turn_starts(game)
    replayed = Game.replay_start(record)
    boundaries = set(starts[1:])
    events: list[Event] = []
    for index, (player, notation) in enumerate(actions):
        if index in boundaries:
            yield TurnState(turn_frame(replayed), replayed, tuple(events))
            events = []
        events += replayed.replay_action(player, notation)
    yield TurnState(turn_frame(game), game, tuple(events))


def turn_state(game: Game, turn: int) -> TurnState:
    """The game at the end of turn `turn` (0: the setup; past the last: the game now)."""
    state = None
    for state in turn_states(game):
        if state.frame.turn >= turn:
            return state
    assert state is not None
    return state


def turn_frame(game: Game) -> TurnFrame:
    """The turn `game` is at: its last turn with moves (0 and no player: the setup)."""
    turn = last_turn(game)
    if turn is None or turn.setup or turn.number is None:
        return TurnFrame(0, None)
    return TurnFrame(turn.number, turn.player)


def turn_count(game: Game) -> int:
    """The highest turn number a replay of `game` shows (0 before the first turn)."""
    return turn_frame(game).turn


def _band(
    width: int,
    frame: TurnFrame,
    last: int,
    game: Game,
    names: Mapping[str, str],
    t: Translator,
) -> Image.Image:
    """The replay's own line above the snapshot: turn N of M, whose, and a progress bar."""
    band = Image.new("RGB", (width, BAND_HEIGHT), INK)
    draw = ImageDraw.Draw(band)
    if frame.player is None:
        text = t.gettext("Replay · setup")
    else:
        text = t.gettext(
            "Replay · turn {number} of {count} · {player}",
            number=frame.turn,
            count=last,
            player=display_name(frame.player, names),
        )
    x = 24
    if frame.player is not None:
        icons.paste(band, icons.house(seat_colour(game.seat_of(frame.player)), 40), (x + 20, 36))
        x += 52
    bar = (width * 0.55, 27, width - 24, 45)
    text = fonts.fit(text, fonts.HEADLINE, bar[0] - x - 24, bold=True)
    fonts.draw_text(draw, (x, 36), text, fonts.HEADLINE, fill=WHITE, bold=True, anchor="lm")
    draw.rounded_rectangle(bar, radius=9, fill=HEADER_MUTED)
    done = frame.turn / last if last else 1.0
    if done > 0:
        draw.rounded_rectangle(
            (bar[0], bar[1], bar[0] + (bar[2] - bar[0]) * done, bar[3]), radius=9, fill=GOLD
        )
    draw.line((0, BAND_HEIGHT - 2, width, BAND_HEIGHT - 2), fill=BOARD_GROUND, width=2)
    return band


class FrameStore(Sequence[Image.Image]):
    """The drawn frames, each kept zlib-compressed (a half-size frame of 0.7 MB in
    about 40 KB): a replay's memory stays flat whatever the game's length, and the
    frames are there to be shrunk or thinned out if the GIF comes out too large.
    Reading one decompresses it (a fresh image each time)."""

    def __init__(self) -> None:
        self._frames: list[tuple[tuple[int, int], bytes]] = []
        self._palette: list[int] = []

    def append(self, image: Image.Image) -> None:
        if not self._palette:
            self._palette = image.getpalette() or []
        self._frames.append((image.size, zlib.compress(image.tobytes(), 1)))

    def size(self, index: int) -> tuple[int, int]:
        return self._frames[index][0]

    @property
    def nbytes(self) -> int:
        """The compressed frames' bytes."""
        return sum(len(data) for _, data in self._frames)

    def __len__(self) -> int:
        return len(self._frames)

    @overload
    def __getitem__(self, index: int) -> Image.Image: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Image.Image]: ...
    def __getitem__(self, index: int | slice) -> Image.Image | Sequence[Image.Image]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        size, data = self._frames[index]
        image = Image.frombytes("P", size, zlib.decompress(data))
        image.putpalette(self._palette)
        return image


class _Lazy(Sequence[Image.Image]):
    """Frames made on demand from a store's (shrunk, or some of them): nothing held."""

    def __init__(
        self,
        store: FrameStore,
        indices: Sequence[int] | None = None,
        scale: float | None = None,
    ) -> None:
        self.store = store
        self.indices = list(indices) if indices is not None else list(range(len(store)))
        self.scale = scale

    def size(self, index: int) -> tuple[int, int]:
        width, height = self.store.size(self.indices[index])
        if self.scale is None:
            return width, height
        return _scaled((width, height), self.scale)

    def __len__(self) -> int:
        return len(self.indices)

    @overload
    def __getitem__(self, index: int) -> Image.Image: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Image.Image]: ...
    def __getitem__(self, index: int | slice) -> Image.Image | Sequence[Image.Image]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        image = self.store[self.indices[index]]
        return image if self.scale is None else _shrunk(image, self.scale)

    def subset(self, chosen: Sequence[int]) -> _Lazy:
        return _Lazy(self.store, [self.indices[i] for i in chosen], self.scale)


@dataclass
class _Frames:
    images: FrameStore
    shown: list[TurnFrame]


@lru_cache(maxsize=1)
def _gif_palette() -> Image.Image:
    """The snapshot's fixed palette without its last colour (the "unchanged" index)."""
    colours = png_palette().getpalette() or []
    image = Image.new("P", (1, 1))
    image.putpalette([*colours[: 3 * TRANSPARENT], 0, 0, 0])
    return image


def _shown(game: Game, turns: tuple[int, int] | None) -> Iterator[TurnState]:
    """The turns a replay shows, as `turn_states` folds them."""
    first_turn, last_turn_shown = turns if turns is not None else (0, turn_count(game))
    for turn in turn_states(game):
        frame, state = turn.frame, turn.game
        is_last = state is game
        if frame.turn < first_turn or (frame.turn > last_turn_shown and not is_last):
            continue
        if frame.turn > last_turn_shown:
            break
        yield turn


def _frame_images(
    game: Game,
    names: Mapping[str, str],
    seat_notes: Mapping[str, str],
    language: str,
    turns: tuple[int, int] | None,
    reduction: int,
    reuse: bool = True,
    tallest: Callable[[], int] | None = None,
) -> Iterator[tuple[TurnFrame, Image.Image]]:
    """Each shown turn's frame as it is drawn, `reduction` times smaller than the
    snapshot, on the GIF's palette; `reuse`: the snapshot's unchanged parts pasted as kept
    (`render.layers`), not drawn again; `tallest()`: how tall a frame is drawn at least
    (the board's ground below it)."""
    code = _language(language)
    t = translator(code)
    last = turn_count(game)
    gif_palette = _gif_palette()
    shown_names = {pid: display_name(pid, names) for pid in game.player_ids}
    for turn in _shown(game, turns):
        frame, state = turn.frame, turn.game
        with _DRAWING:
            keep = reuse and not textboxes.is_recording()
            drawn = compose.snapshot(
                state,
                names=shown_names,
                seat_notes=seat_notes,
                language=code,
                reuse=keep,
                drawn_only=keep,
                align=reduction,
            )
            picture = drawn.image
            band = _band(drawn.size[0], frame, last, state, shown_names, t)
        # each part reduced on its own (BAND_HEIGHT is a multiple of every reduction):
        # no copy of the whole picture at full size
        top = band.reduce(reduction)
        if drawn.kept is None:
            body = picture.reduce(reduction)
            small = Image.new("RGB", (body.width, top.height + body.height))
            small.paste(top, (0, 0))
            small.paste(body, (0, top.height))
            yield frame, small.quantize(palette=gif_palette, dither=Image.Dither.NONE)
            continue
        # the kept parts come reduced and mapped already; a colour maps alone, so the
        # band and the body are mapped apart
        indexed = layers.reduced_picture(
            drawn.size,
            drawn.kept,
            reduction,
            gif_palette,
            _ground_index(),
            above=top.height,
            height=0 if tallest is None else tallest(),
        )
        del picture, drawn
        indexed.paste(top.quantize(palette=gif_palette, dither=Image.Dither.NONE), (0, 0))
        yield frame, indexed


def _total(game: Game, turns: tuple[int, int] | None) -> int:
    """What the progress counts frames against (the range's turns)."""
    last = turn_count(game)
    first_turn, last_turn_shown = turns if turns is not None else (0, last)
    return max(1, min(last, last_turn_shown) - first_turn + 1)


def _draw_frames(
    game: Game,
    names: Mapping[str, str],
    seat_notes: Mapping[str, str],
    language: str,
    turns: tuple[int, int] | None,
    reduction: int,
    progress: Progress | None,
    reuse: bool = True,
) -> _Frames:
    """Every shown turn's frame (`_frame_images`), kept compressed."""
    frames = _Frames(FrameStore(), [])
    total = _total(game, turns)
    for frame, image in _frame_images(game, names, seat_notes, language, turns, reduction, reuse):
        frames.images.append(image)
        frames.shown.append(frame)
        if progress is not None:
            progress(min(1.0, len(frames.shown) / total))
    return frames


@lru_cache(maxsize=1)
def _ground_index() -> int:
    """The palette index of the board's ground (what a shorter frame is extended with)."""
    ground = _gif_palette().getpalette() or []
    rgb = BOARD_GROUND
    return next((i for i in range(TRANSPARENT) if tuple(ground[3 * i : 3 * i + 3]) == rgb), 0)


def _same_size(images: Sequence[Image.Image]) -> list[Image.Image]:
    """The frames on one canvas as tall as the tallest (a turn said on more lines makes
    the header taller; a GIF's frames cannot be larger than its first): the shorter
    ones extended at the bottom with the board's ground."""
    height = max(image.height for image in images)
    return [padded(image, height, _ground_index()) for image in images]


def _scaled(size: tuple[int, int], scale: float) -> tuple[int, int]:
    return (max(1, round(size[0] * scale)), max(1, round(size[1] * scale)))


def _shrunk(image: Image.Image, scale: float) -> Image.Image:
    """A frame `scale` times its size, on the same palette."""
    smaller = image.convert("RGB").resize(_scaled(image.size, scale), Image.Resampling.BOX)
    return smaller.quantize(palette=_gif_palette(), dither=Image.Dither.NONE)


def _height(images: Sequence[Image.Image]) -> int:
    """The tallest frame's height (read without drawing a lazy frame)."""
    if isinstance(images, (FrameStore, _Lazy)):
        return max(images.size(i)[1] for i in range(len(images)))
    return max(image.height for image in images)


def _encode(images: Sequence[Image.Image]) -> bytes:
    """The GIF of `images`."""
    gif = _encode_within(images, 2**62)
    assert isinstance(gif, bytes)
    return gif


def _encode_within(images: Sequence[Image.Image], max_bytes: int) -> bytes | int:
    """The GIF of `images` (each made when it is written, none held), or beyond
    `max_bytes` only its length (counted, not kept)."""
    height = _height(images)
    out = ByteCounter(max_bytes)
    with GifWriter(out, transparency=TRANSPARENT, disposal=1) as writer:
        for index in range(len(images)):
            writer.add(
                padded(images[index], height, _ground_index()), _duration(index, len(images))
            )
    return out.count if out.overflowed else out.getvalue()


def _size(gif: bytes | int) -> int:
    return gif if isinstance(gif, int) else len(gif)


def _spread(count: int, keep: int) -> list[int]:
    """`keep` indices out of `count`, evenly spread, the first and last always kept."""
    if keep >= count:
        return list(range(count))
    step = (count - 1) / (keep - 1)
    return sorted({round(i * step) for i in range(keep)})


def render_replay(
    game: Game,
    *,
    names: Mapping[str, str] | None = None,
    seat_notes: Mapping[str, str] | None = None,
    language: str = "en",
    turns: tuple[int, int] | None = None,
    max_bytes: int = MAX_BYTES,
    progress: Progress | None = None,
) -> Replay:
    """The replay of `game` (up to now if it is under way) as an animated GIF of at
    most `max_bytes`. `turns` = (FROM, TO) keeps those turns only (0 is the setup);
    a range past the game's end stops at its last turn. `progress(part)` is called
    as frames are drawn, `part` rising to 1.0."""
    drawn = REDUCTIONS[0]
    names, seat_notes = names or {}, seat_notes or {}
    # most replays fit at the first size: written as they are drawn, nothing kept
    streamed = _stream(game, names, seat_notes, language, turns, drawn, max_bytes, progress)
    if streamed is None:
        raise ValueError("no turn in that range")
    if isinstance(streamed, Replay):
        return streamed
    # too large: drawn again and kept (compressed), to be shrunk or thinned out
    reached = [0.0]

    def again(part: float) -> None:
        if progress is not None and part > reached[0]:
            reached[0] = part
            progress(part)

    frames = _draw_frames(game, names, seat_notes, language, turns, drawn, again)
    images = _Lazy(frames.images)
    gif: bytes | int = _encode_within(images, max_bytes)
    reduction = drawn
    for smaller in REDUCTIONS[1:]:
        if _size(gif) <= max_bytes:
            break
        # shrunk from the frames drawn (a fraction of the cost of drawing them again)
        reduction = smaller
        images = _Lazy(frames.images, scale=drawn / smaller)
        gif = _encode_within(images, max_bytes)
    shown = frames.shown
    while _size(gif) > max_bytes and len(images) > MIN_FRAMES:
        keep = max(MIN_FRAMES, int(len(images) * max_bytes / _size(gif) * 0.9))
        chosen = _spread(len(images), keep)
        images = images.subset(chosen)
        shown = [shown[i] for i in chosen]
        gif = _encode_within(images, max_bytes)
    while _size(gif) > max_bytes and len(images) > 1:
        images, shown = images.subset([len(images) - 1]), shown[-1:]
        gif = _encode_within(images, max_bytes)
    assert isinstance(gif, bytes), "a single frame fits"
    width, height = images.size(0)[0], _height(images)
    return Replay(gif, len(images), (shown[0].turn, shown[-1].turn), width, height, 1 / reduction)


class _TooLarge:
    """A replay streamed past its limit."""


def _stream(
    game: Game,
    names: Mapping[str, str],
    seat_notes: Mapping[str, str],
    language: str,
    turns: tuple[int, int] | None,
    reduction: int,
    max_bytes: int,
    progress: Progress | None,
) -> Replay | _TooLarge | None:
    """The replay of every shown turn at `reduction`, each frame written as soon as it
    is drawn (the tallest frame's height known only at the end: the GIF's beginning is
    written last, `GifWriter(ground=...)`); `_TooLarge` as soon as it grows past
    `max_bytes`, None if no turn is shown."""
    out = ByteCounter(max_bytes)
    writer = GifWriter(out, transparency=TRANSPARENT, disposal=1, ground=_ground_index())

    def writer_height() -> int:
        return writer.height

    total = _total(game, turns)
    first: int | None = None
    last = 0
    for index, (frame, image) in enumerate(
        # each frame drawn as tall as the tallest yet: the writer does not pad it again
        _frame_images(game, names, seat_notes, language, turns, reduction, True, writer_height)
    ):
        # the last frame's duration is set when it is known to be the last
        writer.add(image, FIRST_MS if index == 0 else FRAME_MS)
        if out.overflowed:
            return _TooLarge()
        first = frame.turn if first is None else first
        last = frame.turn
        if progress is not None:
            progress(min(1.0, (index + 1) / total))
    if first is None:
        return None
    writer.close(last_duration=LAST_MS)
    if out.overflowed:
        return _TooLarge()
    width = _scaled_width(game, reduction)
    return Replay(out.getvalue(), writer.frames, (first, last), width, writer.height, 1 / reduction)


def _duration(index: int, count: int) -> int:
    """How long frame `index` of `count` is shown: the first a little longer, the last
    (the final ranking, or the game as it stands) much longer."""
    if index == count - 1:
        return LAST_MS
    return FIRST_MS if index == 0 else FRAME_MS


def _scaled_width(game: Game, reduction: int) -> int:
    """The frames' width: the snapshot's, reduced."""
    width = compose.picture_width(game)
    return Image.new("L", (width, 1)).reduce(reduction).width


def write_replay(
    game: Game,
    out: Path,
    *,
    turns: tuple[int, int] | None,
    language: str,
    max_bytes: int,
    names: Mapping[str, str] | None = None,
) -> str:
    """Draw `game`'s replay into `out`; the line the command prints: frames, size, wall
    and CPU time (the benchmark's figures: the first replay in a process draws the
    shared art too, as a picture worker does once)."""
    started, cpu_started = time.perf_counter(), time.process_time()
    replay = render_replay(game, names=names, language=language, turns=turns, max_bytes=max_bytes)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    out.write_bytes(replay.gif)
    first, last = replay.turns
    return (
        f"{out}: {replay.frames} frames (turns {first}-{last}), "
        f"{len(replay.gif) / 2**20:.2f} MiB, {replay.width}x{replay.height} px "
        f"(scale {replay.scale:.2f}); wall {wall:.2f} s, CPU {cpu:.2f} s"
    )


def _from_record(path: Path) -> tuple[Game, dict[str, str], str | None]:
    """The game of a record file, its players' names (the seat tags) and its language."""
    from rules.record import loads

    game, tags = loads(path.read_text(encoding="utf-8"))
    names = {
        tags[f"Seat{seat}Id"]: tags[f"Seat{seat}"]
        for seat in range(1, len(game.players) + 1)
        if f"Seat{seat}Id" in tags and f"Seat{seat}" in tags
    }
    return game, names, tags.get("Language")


def main(argv: list[str] | None = None) -> int:
    """`python -m render.replay --players 4 --seed 1 --out replay.gif [--turns 10-20]`:
    a random game played to its end (or `--moves` actions in), then its replay;
    `--record FILE` replays a game record (`/montana game export`) instead."""
    from rules.record import RecordError

    from .__main__ import play

    parser = argparse.ArgumentParser(prog="python -m render.replay", description=main.__doc__)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", type=int, default=0, help="stop after N actions (0: the end)")
    parser.add_argument("--record", type=Path, help="a game record to replay (not a random game)")
    parser.add_argument("--turns", type=str, default=None, help="FROM-TO: a part of the game")
    parser.add_argument(
        "--language", choices=LANGUAGES, help="the pictures' words (default: the record's, or en)"
    )
    parser.add_argument("--max-bytes", type=int, default=MAX_BYTES)
    parser.add_argument("--out", type=Path, required=True, help="GIF file to write")
    args = parser.parse_args(argv)
    try:
        turns = parse_turns(args.turns) if args.turns else None
    except ValueError:
        parser.error(f"--turns takes FROM-TO (e.g. 10-20), not {args.turns!r}")
    names: dict[str, str] = {}
    language = args.language
    if args.record is not None:
        try:
            game, names, recorded = _from_record(args.record)
        except (OSError, RecordError) as error:
            parser.error(f"{args.record}: {error}")
        if language is None and recorded in LANGUAGES:
            language = recorded
    else:
        game, _ = play(args.players, args.seed, args.moves, final=args.moves == 0)
    try:
        line = write_replay(
            game,
            args.out,
            turns=turns,
            language=language or "en",
            max_bytes=args.max_bytes,
            names=names,
        )
    except ValueError:
        parser.error(f"--turns {args.turns}: the game has turns 0 to {turn_count(game)}")
    print(line)
    return 0


__all__ = [
    "MAX_BYTES",
    "Replay",
    "TurnFrame",
    "TurnState",
    "parse_turns",
    "render_replay",
    "turn_count",
    "turn_frame",
    "turn_state",
    "turn_states",
    "write_replay",
]


if __name__ == "__main__":
    sys.exit(main())
