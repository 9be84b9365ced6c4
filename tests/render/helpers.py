"""Games to draw and a recorder of the text handed to the drawing layer."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

import pytest
from PIL import Image

from render import fonts
from render.__main__ import play
from rules import Game


@cache
def _played(players: int, phase: str, seed: int) -> str:
    moves = {"start": 0, "mid": 120, "end": 0}[phase]
    game, _ = play(players, seed, moves, final=phase == "end")
    return json.dumps(game.to_dict())


def game_at(players: int, phase: str, seed: int = 5) -> Game:
    """A fresh copy of a random game at "start", "mid"(dle) or "end"."""
    return Game.from_dict(json.loads(_played(players, phase, seed)))


def decode(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def rgb(image: Image.Image, xy: tuple[float, float]) -> tuple[int, int, int]:
    """The colour of the pixel at `xy` (rounded), as (r, g, b)."""
    pixel = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(pixel, tuple)
    return (int(pixel[0]), int(pixel[1]), int(pixel[2]))


def close(actual: tuple[int, ...], expected: tuple[int, ...], tolerance: int = 10) -> bool:
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expected, strict=True))


@dataclass(frozen=True)
class DrawnText:
    text: str
    x: float
    y: float
    size: int
    anchor: str
    bold: bool

    @property
    def left_right(self) -> tuple[float, float]:
        width = fonts.text_width(self.text, self.size, self.bold)
        left = {"l": self.x, "m": self.x - width / 2, "r": self.x - width}[self.anchor[0]]
        return (left, left + width)


@contextmanager
def record_text(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[DrawnText]]:
    """Collect every text drawn while the block runs (cached static art is not redrawn)."""
    drawn: list[DrawnText] = []
    original = fonts.draw_text

    def recording(draw, xy, text, size, **kwargs):
        drawn.append(
            DrawnText(
                text, xy[0], xy[1], size, kwargs.get("anchor", "la"), kwargs.get("bold", False)
            )
        )
        return original(draw, xy, text, size, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(fonts, "draw_text", recording)
        yield drawn
