"""The parts of a snapshot kept as drawn, keyed by what they show (issue 37).

A snapshot is the header band, the landscape, the supply strip, the worker board, one
board per player and the legend, side by side and never overlapping. Most of them do not
change from one move to the next: the landscape changes when someone builds, a player's
board when their holdings change, the worker board's printed art and titles never.
`compose.snapshot(..., reuse=True)` takes each such part from here when its inputs are
the same as when it was drawn, and draws only the rest (the header, the marks of the
last turn, the representatives): the bot's move pictures and every replay frame. With
`drawn_only`, those are drawn on a scratch canvas over the parts laid in their boxes
alone, and the picture is never put together at full size: the PNG (`render.pngbands`)
and the replay's frame (`reduced_picture`) are made of the parts and the boxes.

The parts are cut where what they show changes apart (each cut where nothing drawn
crosses it): the landscape's print (the fields' sprites and the tiles' outlines, once a
game) under its labels and pieces; each worker board panel; a player's board as its
head (name, tags), its holdings row by row (counts, goods, workers) and the rims of its
ring (the tags and the ring move with the turn, a row of holdings only for the player
who played, when it changed); the supply strip as its title and each count with its
icon (`players.supply_cuts`: a turn that takes from the supply or gives back to it
redraws the counts that changed). The header's title is
kept here too, pasted in the header drawn over the parts (`compose._kept_title`), and
its rows above the status line are a part of the picture (`compose._title_part`).

A part is drawn alone on its own small picture of the board's ground, its top-left
corner at (0, 0), then pasted where it goes: every position of the drawing code is a
whole-pixel shift of the full picture's (`fonts.pixel`, Pillow's rounding of
coordinates), so the pixels are the same as drawing it in place
(`tests/render/test_layers.py` compares them for whole games).

The parts are keyed by their inputs (a player's holdings and tags, not the game's id),
so games that look alike share them; the cache is bounded like the others
(`render.caches`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from PIL import Image

from .caches import BoundedCache, image_size
from .palette import BOARD_GROUND

Box = tuple[int, int, int, int]


Parts = list[tuple[Hashable, Image.Image, tuple[int, int]]]


@dataclass
class Kept:
    """What a snapshot drawn with `reuse` took from the kept parts: `parts` pasted
    (key, the part, where), and `drawn`: the boxes drawn over them (the header, the
    marks, the worker board's moves), each with its pixels as drawn; everything else is
    the board's ground."""

    parts: Parts = field(default_factory=list)
    drawn: list[tuple[Box, Image.Image]] = field(default_factory=list)


LAYER_BYTES = 32 * 1024 * 1024
LAYERS: BoundedCache[Image.Image] = BoundedCache("snapshot layers", LAYER_BYTES)


def layer(
    key: Hashable,
    size: tuple[int, int],
    draw: Callable[[Image.Image], None],
    ground: Image.Image | None = None,
) -> Image.Image:
    """The part `key` (`size` pixels, drawn by `draw` on the board's ground, or on a copy
    of `ground`, with its top-left corner at (0, 0)), drawn now if it is not kept.
    Shared: paste it, never draw on it."""
    image = LAYERS.get(key)
    if image is None:
        image = Image.new("RGB", size, BOARD_GROUND) if ground is None else ground.copy()
        draw(image)
        LAYERS.put(key, image, image_size(image))
    return image


INDEXED_BYTES = 12 * 1024 * 1024
INDEXED: BoundedCache[Image.Image] = BoundedCache("snapshot layers on the palette", INDEXED_BYTES)


def indexed(key: Hashable, image: Image.Image, palette: Image.Image) -> Image.Image:
    """The part `key` (drawn as `image`) mapped onto `palette`, kept: mapping a colour to
    the palette depends on the colour alone, so a part mapped alone is the same as the
    part of a picture mapped whole."""
    mapped = INDEXED.get(key)
    if mapped is None:
        mapped = image.quantize(palette=palette, dither=Image.Dither.NONE)
        INDEXED.put(key, mapped, image_size(mapped))
    return mapped


REDUCED_BYTES = 8 * 1024 * 1024
REDUCED: BoundedCache[Image.Image] = BoundedCache("snapshot layers reduced", REDUCED_BYTES)


def reduced(
    key: Hashable, image: Image.Image, phase: tuple[int, int], factor: int, palette: Image.Image
) -> Image.Image:
    """The part `key` (drawn as `image`) reduced `factor` times (`Image.reduce`: a box
    average) and mapped onto `palette`, kept, as it lies in the reduced picture: the part
    is put `phase` pixels into a canvas of the board's ground that starts on a multiple
    of `factor` (each part has at least a pixel of ground all round it in the picture,
    so every block of the canvas is the picture's block)."""
    full = (key, phase, factor)
    small = REDUCED.get(full)
    if small is None:
        dx, dy = phase
        width = -(-(dx + image.width) // factor) * factor
        height = -(-(dy + image.height) // factor) * factor
        canvas = Image.new("RGB", (width, height), BOARD_GROUND)
        canvas.paste(image, phase)
        small = canvas.reduce(factor).quantize(palette=palette, dither=Image.Dither.NONE)
        REDUCED.put(full, small, image_size(small))
    return small


def reduced_picture(
    size: tuple[int, int],
    kept: Kept,
    factor: int,
    palette: Image.Image,
    ground: int,
    above: int = 0,
    height: int = 0,
) -> Image.Image:
    """The picture (`size` large) `reduce`d `factor` times and mapped onto `palette`
    (`ground`: the board's ground's index), from the kept parts (each reduced and mapped
    once) and the boxes drawn over them (widened to multiples of `factor` when drawn,
    `compose.snapshot(align=factor)`): a replay frame, `above` rows of ground above it
    (for the caller's band), at least `height` tall in all (ground below)."""
    width, tall = -(-size[0] // factor), -(-size[1] // factor)
    small = Image.new("P", (width, max(height, above + tall)), ground)
    small.putpalette(palette.getpalette() or [])
    for key, part, (x, y) in kept.parts:
        phase = (x % factor, y % factor)
        small.paste(reduced(key, part, phase, factor, palette), (x // factor, above + y // factor))
    for (left, top, _, _), drawn in kept.drawn:
        if left % factor or top % factor:
            raise ValueError(f"a box drawn at ({left}, {top}) is not aligned to {factor}")
        mapped = drawn.reduce(factor).quantize(palette=palette, dither=Image.Dither.NONE)
        small.paste(mapped, (left // factor, above + top // factor))
    return small
