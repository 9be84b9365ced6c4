"""A replay in flat memory (issue 37.1): the frames are written to the GIF as they come
(`render.gifwriter`), kept compressed in between, so that a game's length does not
decide the memory its replay takes."""

from __future__ import annotations

import io
import subprocess
import sys

from PIL import Image

from render import replay
from render.gifwriter import ByteCounter, GifWriter

from .helpers import game_at

LONG_GAME = (4, 1444)
"""(players, seed) of a random game of 323 turns (most last about 100)."""
PEAK_MIB = 200

MEASURE = """
from render.__main__ import play
from render.bench import peak_mib
from render.replay import render_replay, turn_count
game, _ = play({players}, {seed}, 0, final=True)
result = render_replay(game)
print(turn_count(game), result.frames, len(result.gif), round(peak_mib()))
"""
"""The child's own peak: `bench.peak_mib` reads the kernel's high-water mark of the
child's memory (ru_maxrss would also count the parent's, this test process's, as it
was when the child was started: Linux keeps the larger across exec)."""


def test_a_long_games_replay_peaks_under_200_mib_with_every_turn_a_frame() -> None:
    players, seed = LONG_GAME
    code = MEASURE.format(players=players, seed=seed)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=1200
    )
    turns, frames, size, peak_mib = map(int, result.stdout.split())
    assert turns >= 300
    assert frames == turns + 1
    assert size <= replay.MAX_BYTES
    assert peak_mib <= PEAK_MIB, f"a {turns}-turn replay peaked at {peak_mib} MiB"


def _pillow_gif(frames: list[Image.Image], durations: list[int]) -> bytes:
    """What `Image.save` writes for the same frames (holding them all)."""
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations if len(frames) > 1 else durations[0],
        loop=0,
        optimize=True,
        transparency=replay.TRANSPARENT,
        disposal=1,
    )
    return buffer.getvalue()


def _streamed(frames: list[Image.Image], durations: list[int]) -> bytes:
    out = io.BytesIO()
    with GifWriter(out, transparency=replay.TRANSPARENT, disposal=1) as writer:
        for frame, duration in zip(frames, durations, strict=True):
            writer.add(frame, duration)
    return out.getvalue()


def test_the_streamed_gif_has_pillows_bytes() -> None:
    game = game_at(2, "end", seed=7)
    drawn = replay._draw_frames(game, {}, {}, "en", (0, 8), 2, None)
    frames = replay._same_size(drawn.images)
    frames.insert(3, frames[2].copy())  # an unchanged turn: the frame before shows longer
    durations = [replay.FIRST_MS, *[replay.FRAME_MS] * (len(frames) - 2), replay.LAST_MS]
    assert _streamed(frames, durations) == _pillow_gif(frames, durations)
    small = [replay._shrunk(frame, 0.5) for frame in frames]  # palettes optimized apart
    assert _streamed(small, durations) == _pillow_gif(small, durations)
    assert _streamed(frames[:1], [replay.LAST_MS]) == _pillow_gif(frames[:1], [replay.LAST_MS])
    twice = [frames[0], frames[0].copy()]
    assert _streamed(twice, [700, 800]) == _pillow_gif(twice, [700, 800])


def test_a_gif_past_its_limit_is_measured_not_kept() -> None:
    counter = ByteCounter(10)
    counter.write(b"12345")
    assert counter.getvalue() == b"12345"
    counter.write(b"123456")
    assert counter.overflowed and counter.count == 11
    game = game_at(2, "end", seed=7)
    drawn = replay._draw_frames(game, {}, {}, "en", (0, 5), 2, None)
    full = replay._encode(drawn.images)
    assert replay._encode_within(drawn.images, len(full)) == full
    assert replay._encode_within(drawn.images, len(full) - 1) == len(full)
    assert drawn.images.nbytes < sum(len(image.tobytes()) for image in drawn.images) / 5


def _streamed_unmeasured(frames: list[Image.Image], durations: list[int]) -> bytes:
    """The frames as they are drawn, of different heights: the writer pads them."""
    out = ByteCounter(2**40)
    writer = GifWriter(
        out, transparency=replay.TRANSPARENT, disposal=1, ground=replay._ground_index()
    )
    for frame in frames:
        writer.add(frame, replay.FRAME_MS)
    writer.close(last_duration=durations[-1])  # the last frame known to be the last
    return out.getvalue()


def test_frames_of_different_heights_are_written_as_if_padded_to_the_tallest_first() -> None:
    """A replay does not measure its frames before drawing the first (the tallest is
    known at the end): the GIF is the same as Pillow's of the frames padded beforehand,
    whether the tallest frame comes first, last or in between."""
    game = game_at(2, "end", seed=7)
    drawn = list(replay._draw_frames(game, {}, {}, "en", (0, 6), 2, None).images)
    width = drawn[0].width

    def cut(image: Image.Image, rows: int) -> Image.Image:
        """`image` `rows` shorter, its last rows made ground (as a shorter frame pads)."""
        shorter = image.crop((0, 0, width, image.height - rows))
        shorter.putpalette(image.getpalette() or [])
        return shorter

    for heights in ([0, 30, 30, 12, 0, 30, 0], [30, 30, 12, 0, 30, 30, 0], [12, 0, 0, 0, 0, 0, 0]):
        frames = [cut(image, rows) for image, rows in zip(drawn, heights, strict=True)]
        frames.insert(2, frames[1].copy())  # an unchanged turn: the frame before shows longer
        durations = [replay.FRAME_MS] * (len(frames) - 1) + [replay.LAST_MS]
        padded = replay._same_size(frames)
        assert {frame.height for frame in frames} != {padded[0].height}
        expected = _pillow_gif(padded, durations)
        assert _streamed_unmeasured(frames, durations) == expected
        single = _streamed_unmeasured(frames[:1], [replay.LAST_MS])
        assert single == _pillow_gif(frames[:1], [replay.LAST_MS])
