"""The bot's PNG compressed by bands of rows, the bands of kept parts compressed once
(issue 37.4): the pictures are the pictures drawn whole, whatever was kept before."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

import render
from render import caches, compose, palette, pngbands
from render.replay import turn_states

from .helpers import game_at


def test_two_checksums_combine_into_the_checksum_of_both() -> None:
    chance = random.Random(37)
    for _ in range(200):
        first = chance.randbytes(chance.randrange(0, 3000))
        length = chance.choice([0, 1, 65520, 65521, 65522, chance.randrange(70000)])
        second = chance.randbytes(length)
        combined = pngbands.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
        assert combined == zlib.adler32(first + second)


def _pixels(png: bytes) -> tuple[tuple[int, int], bytes, list[int]]:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.mode == "P"
    return image.size, image.tobytes(), image.getpalette() or []


@pytest.mark.parametrize("size", [(1, 1), (7, 33), (640, 17), (300, 200)])
def test_a_palette_picture_reads_back_as_it_was(size: tuple[int, int]) -> None:
    chance = random.Random(size[0] * size[1])
    image = Image.frombytes("P", size, chance.randbytes(size[0] * size[1]))
    image.putpalette(palette.png_palette().getpalette() or [])
    png = pngbands.encode(image)
    assert _pixels(png) == (size, image.tobytes(), image.getpalette())
    with pytest.raises(ValueError, match="palette picture"):
        pngbands.encode(image.convert("RGB"))


def test_every_turns_png_is_the_whole_drawings_whatever_was_kept() -> None:
    """Every turn of a game drawn in turn, as the bot draws them (most bands kept from
    the turn before, some from other games), is the PNG of the picture drawn whole:
    the same bytes, so the same pixels."""
    caches.clear_all()
    game = game_at(2, "end", seed=5)
    other = game_at(3, "mid", seed=7)
    names = {pid: f"{pid.title()} Longname" for pid in game.player_ids}
    differing = []
    for index, state in enumerate(turn_states(game)):
        whole = compose.snapshot(state.game, names=names, language="fr")
        expected = render.to_png(whole.image)
        if render.render_game(state.game, names=names, language="fr") != expected:
            differing.append(state.frame.turn)
        if index % 7 == 0:
            render.render_game(other, language="fr")
    assert differing == []
    assert len(pngbands.BANDS) > 0
    assert caches.memory()["png bands"][1] <= pngbands.BAND_BYTES
