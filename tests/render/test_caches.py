"""The drawn art is shared by every game: the caches do not grow with the number of
games the bot draws for, stay within their budgets, and never change a picture."""

from __future__ import annotations

from render import caches, compose, landscape
from render.palette import MEADOWS
from rules import data
from rules.board import parse_field_spec

from .helpers import game_at


def _printed_fields() -> int:
    """Different printed fields: terrain, cost and symbol (and the start tile's field)."""
    specs = [parse_field_spec(spec) for tile in data.TILES for spec in tile]
    return len({(kind, tuple(sorted(cost.items())), double) for kind, cost, double, _ in specs}) + 1


def test_every_drawing_cache_is_measured_and_emptied_by_clear_all():
    compose.snapshot(game_at(4, "mid"))
    caches.clear_all()
    assert all(size == 0 for _, size in caches.memory().values())
    compose.snapshot(game_at(4, "mid"))
    held = caches.memory()
    for name in ("icons", "landscape fields", "text masks", "worker board", "wheel", "legend"):
        assert held[name][1] > 0, f"{name}: what the render drew is in the measured cache"
    assert held["landscape fields"][0] > 10, "the field sprites, not only the hex mask"


def test_many_games_share_the_landscape_art_instead_of_adding_their_own():
    caches.clear_all()
    radii = set()
    for seed in range(1, 9):
        for count in (2, 3, 4):
            game = game_at(count, "start", seed)
            compose.snapshot(game)
            radii.add(landscape.geometry(game).radius)
    entries, _ = caches.memory()["landscape fields"]
    # one sprite per printed field, meadow shade and hex size (and a mask per size)
    assert 0 < entries <= (_printed_fields() * len(MEADOWS) + 1) * len(radii)
    for name, (_, held) in caches.memory().items():
        assert held <= caches.REGISTRY[name].max_bytes, name


def test_a_cache_over_its_budget_forgets_the_oldest_entries_first():
    cache: caches.BoundedCache[str] = caches.BoundedCache("test budget", 100)
    for key in range(5):
        cache.put(key, f"value {key}", 30)
        assert cache.bytes <= 100
    assert cache.get(0) is None and cache.get(1) is None
    assert cache.get(4) == "value 4"
    caches.REGISTRY.pop("test budget")


def test_pictures_drawn_after_evictions_are_the_same_bytes():
    game = game_at(3, "mid")
    first = compose.snapshot(game).image.tobytes()
    for cache in caches.REGISTRY.values():
        cache.max_bytes, budget = 1, cache.max_bytes
        try:
            assert compose.snapshot(game).image.tobytes() == first, cache.name
        finally:
            cache.max_bytes = budget
