"""The game's icons that words and buttons name, each under one neutral name, as a square
PNG drawn by the same sprite code as the pictures (`render.icons`), with the Unicode emoji
that stands in for it where the picture cannot be shown (the console, the web, a chat
whose copy of the icon is missing).

The Discord side uploads `png(name)` as an application emoji (`bot.discord_app.emojis`);
words carry the neutral name (`bot.core.wording.icons`), never Discord's syntax.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Final

from PIL import Image

from . import icons
from .vocabulary import PLAYER_COLOURS, WORKER_COLOURS

EMOJI_SIZE: Final = 128
"""Discord shows an emoji at most 48 px wide (96 on dense screens): 128 px is sharp
everywhere and stays far below the 256 KiB an application emoji may weigh."""
PAD: Final = 0.06
"""The margin around the sprite, as a share of the size (the picture's sprites touch
their box's edges; an emoji beside text reads better with a little air)."""


@dataclass(frozen=True)
class Icon:
    name: str
    """The neutral name: "grain", "worker_copper", "house_blue"."""
    unicode: str
    """The emoji that stands in for the icon where it cannot be shown."""
    sprite: Callable[[int], Image.Image]
    """The renderer's sprite at a size (pixels)."""


def _good(name: str) -> Callable[[int], Image.Image]:
    return lambda size: icons.good(name, size)


def _worker(colour: str) -> Callable[[int], Image.Image]:
    if colour == "wild":
        return icons.wild_worker
    return lambda size: icons.worker(colour, size)


def _house(colour: str) -> Callable[[int], Image.Image]:
    return lambda size: icons.house(colour, size)


_GOODS = {
    "grain": "🌾",
    "pumpkin": "🎃",
    "copper": "🥉",
    "stone": "🪨",
    "bigcopper": "🟫",
    "bigstone": "🧱",
}
_WORKERS = {"copper": "🟤", "stone": "⚪", "grain": "🟡", "pumpkin": "🟠", "wild": "❔"}
_HOUSES = {"blue": "🟦", "yellow": "🟨", "green": "🟩", "red": "🟥"}

ICONS: Final[dict[str, Icon]] = {
    **{name: Icon(name, emoji, _good(name)) for name, emoji in _GOODS.items()},
    "coin": Icon("coin", "🪙", icons.coin),
    "cow": Icon("cow", "🐄", icons.cow),
    "canteen": Icon("canteen", "🥤", icons.canteen),
    **{
        f"worker_{colour}": Icon(f"worker_{colour}", emoji, _worker(colour))
        for colour, emoji in _WORKERS.items()
    },
    **{
        f"house_{colour}": Icon(f"house_{colour}", emoji, _house(colour))
        for colour, emoji in _HOUSES.items()
    },
}
"""Every icon words or buttons may name: the six goods, coins, cows, canteens, the
workers of each colour and the wild one, the settlements of each player colour."""

assert set(_WORKERS) == set(WORKER_COLOURS) and set(_HOUSES) == set(PLAYER_COLOURS)


def worker(colour: str) -> str:
    """The icon of a worker of `colour` ("copper", …, "wild")."""
    return f"worker_{colour}"


def house(colour: str) -> str:
    """The icon of a settlement of player colour `colour`."""
    return f"house_{colour}"


@cache
def png(name: str, size: int = EMOJI_SIZE) -> bytes:
    """The icon `name` as a square transparent PNG of `size` pixels, the sprite centred
    with a small margin (the same bytes every time for the same code)."""
    icon = ICONS[name]
    inner = max(1, round(size * (1 - 2 * PAD)))
    sprite = icon.sprite(inner)
    canvas = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    canvas.alpha_composite(sprite, ((size - sprite.width) // 2, (size - sprite.height) // 2))
    out = io.BytesIO()
    canvas.save(out, format="PNG", optimize=True)
    return out.getvalue()


def digest(name: str, size: int = EMOJI_SIZE) -> str:
    """A short hash of the icon's image: a changed drawing gets another one."""
    return hashlib.sha256(png(name, size)).hexdigest()[:8]


__all__ = ["EMOJI_SIZE", "ICONS", "Icon", "digest", "house", "png", "worker"]
