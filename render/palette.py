"""Colours and the letters that go with them (colour is never the only clue)."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from PIL import Image

from rules import data

RGB = tuple[int, int, int]

PLAYER_RGB: Final[dict[str, RGB]] = {
    "blue": (40, 100, 215),
    "yellow": (250, 204, 20),
    "green": (36, 178, 128),
    "red": (215, 20, 30),
}
"""Chosen so that every pair stays apart for protan, deutan and tritan eyes too
(tests/render/test_colour_blind.py)."""
PLAYER_TINT: Final[dict[str, RGB]] = {
    name: (
        round(rgb[0] + (255 - rgb[0]) * 0.62),
        round(rgb[1] + (255 - rgb[1]) * 0.62),
        round(rgb[2] + (255 - rgb[2]) * 0.62),
    )
    for name, rgb in PLAYER_RGB.items()
}
"""Built fields are washed in their owner's colour."""
PLAYER_INK: Final[dict[str, RGB]] = {
    "blue": (255, 255, 255),
    "yellow": (20, 20, 20),
    "green": (20, 20, 20),
    "red": (255, 255, 255),
}
"""Text colour drawn on top of each player colour."""

WORKER_RGB: Final[dict[str, RGB]] = {
    "copper": (150, 80, 30),
    "stone": (152, 152, 152),
    "grain": (242, 226, 180),
    "pumpkin": (245, 132, 10),
}
WORKER_INK: Final[dict[str, RGB]] = {
    "copper": (255, 255, 255),
    "stone": (20, 20, 20),
    "grain": (20, 20, 20),
    "pumpkin": (20, 20, 20),
}

INK: Final = (28, 28, 28)
MUTED: Final = (95, 95, 95)
WHITE: Final = (255, 255, 255)
PAPER: Final = (246, 241, 228)
PANEL: Final = (255, 252, 244)
PANEL_EDGE: Final = (170, 155, 125)
HIGHLIGHT: Final = (230, 0, 200)

MEADOWS: Final = ((196, 219, 146), (178, 208, 132), (208, 224, 160))
"""Plain field colours; neighbouring tiles alternate so tiles stand apart."""
MOUNTAIN: Final = (152, 134, 116)
MOUNTAIN_ROCK: Final = (110, 96, 84)
SNOW: Final = (250, 250, 250)
LAKE: Final = (112, 176, 228)
LAKE_WAVE: Final = (225, 240, 252)
START_FIELD: Final = (252, 238, 200)
FIELD_EDGE: Final = (120, 140, 90)
TILE_EDGE: Final = (55, 50, 40)
BOARD_GROUND: Final = (233, 224, 200)
GOLD: Final = (240, 190, 40)
HEADER_MUTED: Final = (190, 190, 190)
RESULTS_GROUND: Final = (255, 246, 214)
GOLD_LIGHT: Final = (255, 236, 170)
GOLD_EDGE: Final = (150, 110, 10)


def seat_colour(seat: int) -> str:
    """The settlement colour name of a seat (0 = start player)."""
    return data.PLAYER_COLOURS[seat]


def _design_colours() -> list[RGB]:
    """Every colour defined above (flat colours the drawing paints), in order."""
    found: list[RGB] = []

    def add(value: object) -> None:
        if isinstance(value, tuple) and len(value) == 3 and all(isinstance(v, int) for v in value):
            if value not in found:
                found.append((value[0], value[1], value[2]))
        elif isinstance(value, tuple | list):
            for item in value:
                add(item)
        elif isinstance(value, dict):
            for item in value.values():
                add(item)

    for name, value in list(globals().items()):
        if name.isupper():
            add(value)
    return found


def _ramp(start: RGB, end: RGB, steps: int) -> list[RGB]:
    """Colours strictly between `start` and `end` (anti-aliased text edges)."""
    return [
        (
            round(start[0] + (end[0] - start[0]) * k / (steps + 1)),
            round(start[1] + (end[1] - start[1]) * k / (steps + 1)),
            round(start[2] + (end[2] - start[2]) * k / (steps + 1)),
        )
        for k in range(1, steps + 1)
    ]


@lru_cache(maxsize=1)
def png_palette() -> Image.Image:
    """The fixed 256-colour palette every PNG is mapped onto.

    The design's own colours come first so flat areas keep their exact colour; then
    the edges of dark text on the light grounds (and of light text on the header),
    a grey ramp, and a colour cube for everything else (icons, emoji, blends).
    """
    colours = _design_colours()
    for ground in (PAPER, PANEL, WHITE, BOARD_GROUND):
        colours += _ramp(INK, ground, 6)
    colours += [(v, v, v) for v in range(8, 256, 16)]
    levels = (0, 64, 128, 192, 255)
    colours += [(r, g, b) for r in levels for g in (0, 51, 102, 153, 204, 255) for b in levels]
    unique = list(dict.fromkeys(colours))[:256]
    flat = [channel for colour in unique for channel in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat + [0] * (768 - len(flat)))
    return image
