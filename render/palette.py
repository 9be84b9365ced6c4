"""Colours and the letters that go with them (colour is never the only clue)."""

from __future__ import annotations

from typing import Final

from rules import data

RGB = tuple[int, int, int]

PLAYER_RGB: Final[dict[str, RGB]] = {
    "blue": (38, 104, 214),
    "yellow": (247, 200, 24),
    "green": (40, 158, 72),
    "red": (214, 48, 48),
}
PLAYER_TINT: Final[dict[str, RGB]] = {
    name: (
        round(rgb[0] + (255 - rgb[0]) * 0.62),
        round(rgb[1] + (255 - rgb[1]) * 0.62),
        round(rgb[2] + (255 - rgb[2]) * 0.62),
    )
    for name, rgb in PLAYER_RGB.items()
}
"""Built fields are washed in their owner's colour."""
PLAYER_LETTER: Final[dict[str, str]] = {"blue": "B", "yellow": "Y", "green": "G", "red": "R"}
PLAYER_INK: Final[dict[str, RGB]] = {
    "blue": (255, 255, 255),
    "yellow": (20, 20, 20),
    "green": (255, 255, 255),
    "red": (255, 255, 255),
}
"""Text colour drawn on top of each player colour."""

WORKER_RGB: Final[dict[str, RGB]] = {
    "copper": (158, 86, 38),
    "stone": (150, 150, 150),
    "grain": (236, 217, 160),
    "pumpkin": (245, 134, 22),
}
WORKER_LETTER: Final[dict[str, str]] = {"copper": "C", "stone": "S", "grain": "G", "pumpkin": "P"}
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
GOLD: Final = (240, 190, 40)
GOLD_EDGE: Final = (150, 110, 10)


def seat_colour(seat: int) -> str:
    """The settlement colour name of a seat (0 = start player)."""
    return data.PLAYER_COLOURS[seat]
