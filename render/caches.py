"""Bounded caches of drawn art (sprites, text masks, board backgrounds), measured.

The bot draws for hundreds of games in one process, so nothing here may grow with the
number of games: every cache holds art shared by all games (a printed field, an icon
of a size, the mask of a word) and evicts its least recently used entries beyond a
byte budget. `memory()` reports what each holds; `python -m render.bench` prints it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import wraps
from typing import Any, Generic, ParamSpec, TypeVar

from PIL import Image

P = ParamSpec("P")
V = TypeVar("V")

REGISTRY: dict[str, BoundedCache[Any]] = {}
"""Every cache by name (for `memory` and `clear_all`)."""


class BoundedCache(Generic[V]):
    """A least-recently-used mapping whose values' sizes add up to at most `max_bytes`."""

    def __init__(self, name: str, max_bytes: int) -> None:
        self.name = name
        self.max_bytes = max_bytes
        self.bytes = 0
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        REGISTRY[name] = self

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._entries[key] = (value, size)
            self.bytes += size
            while self.bytes > self.max_bytes and len(self._entries) > 1:
                _, (_, evicted) = self._entries.popitem(last=False)
                self.bytes -= evicted

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._entries)


def image_size(image: Image.Image) -> int:
    """Bytes of pixel data Pillow holds for `image` (4 per pixel for RGB and RGBA)."""
    bands = 4 if image.mode in ("RGB", "RGBA", "RGBX") else len(image.getbands())
    return image.width * image.height * bands


def cached_image(
    name: str, max_bytes: int
) -> Callable[[Callable[P, Image.Image]], Callable[P, Image.Image]]:
    """Decorator: keep the images pure drawing functions return, per argument tuple, in
    the cache `name` (functions decorated with the same name share it and its budget).

    Callers must not draw on a returned image (copy it first): it is shared.
    """
    cache: BoundedCache[Image.Image] = (
        REGISTRY[name] if name in REGISTRY else BoundedCache(name, max_bytes)
    )

    def decorate(function: Callable[P, Image.Image]) -> Callable[P, Image.Image]:
        @wraps(function)
        def cached(*args: P.args, **kwargs: P.kwargs) -> Image.Image:
            key = (function.__qualname__, args, tuple(sorted(kwargs.items())))
            image = cache.get(key)
            if image is None:
                image = function(*args, **kwargs)
                cache.put(key, image, image_size(image))
            return image

        return cached

    return decorate


def memory() -> dict[str, tuple[int, int]]:
    """Cache name -> (entries, bytes held)."""
    return {name: (len(cache), cache.bytes) for name, cache in sorted(REGISTRY.items())}


def clear_all() -> None:
    """Forget all drawn art (tests: the next render draws everything again)."""
    for cache in REGISTRY.values():
        cache.clear()
