"""What can be touched on a picture (issue 38.1): each region's centre lies on what
the picture draws there, a tap at a centre finds that region, and the regions name
every place the engine's decisions choose, over whole games."""

from __future__ import annotations

import json
import random

import pytest
from PIL import Image

from i18n import translator
from render import compose, landscape, render_game
from render.palette import BOARD_GROUND, INK, PANEL, WHITE
from render.targets import Region, landscape_targets, snapshot_targets, target_of
from rules import Game
from rules.recent import last_turn
from rules.simulate import choose_action
from tests.render.helpers import decode, game_at

PIECES_ON = {"bank", "harvest", "small", "city", "row"}
"""Kinds whose boxes are white until a piece stands on them."""


def _pixel(image: Image.Image, point: tuple[float, float]) -> tuple[int, int, int]:
    value = image.getpixel((round(point[0]), round(point[1])))
    assert isinstance(value, tuple)
    return (int(value[0]), int(value[1]), int(value[2]))


def _printed_around(
    game: Game, radius: int, label: str, centre: tuple[float, float]
) -> Image.Image:
    """What the field's own printed sprite shows around its centre (its label above
    left out), were the field drawn with its centre at `centre`."""
    f = game.fields[label]
    sprite = landscape._sprite_of(f, landscape._tile_shade(game, f.tile), radius)
    left, top = landscape._top_left(centre[0], centre[1], sprite)
    return sprite.convert("RGB").crop(_around(centre, radius, (left, top)))


def _around(
    centre: tuple[float, float], radius: int, less: tuple[int, int] = (0, 0)
) -> tuple[int, int, int, int]:
    """A box inside the field round its centre, below its label (moved by -`less`)."""
    x, y = round(centre[0]) - less[0], round(centre[1]) - less[1]
    # clear of the label above and of a neighbour's ring of the last turn round its edge
    half = round(0.35 * radius)
    return (x - half, y - round(0.3 * radius), x + half, y + round(0.42 * radius))


def _check_edges(image: Image.Image, region: Region) -> None:
    """An empty box's rectangle is the box drawn: white just inside each side's middle,
    not white just outside it (the panel between the boxes)."""
    (left, top), (right, bottom) = region.points
    cx, cy = region.centre
    for inside, outside in (
        ((left + 4, cy), (left - 2, cy)),
        ((right - 4, cy), (right + 2, cy)),
        ((cx, top + 4), (cx, top - 2)),
        ((cx, bottom - 4), (cx, bottom + 2)),
    ):
        assert _pixel(image, inside) == WHITE, f"{region.key} at {inside}"
        assert _pixel(image, outside) != WHITE, f"{region.key} at {outside}"


def _occupied(game: Game, region: Region) -> bool:
    """Whether a piece stands on the region's box, or the last turn's pale one."""
    parts = region.key.split(":")
    turn = last_turn(game)
    if turn is not None:
        used = {f"city:{row}:{col}" for row, col in turn.auction_result.values()}
        used |= {f"row:{row}" for row, col in turn.auction_result.values() if col == 1}
        used |= {
            f"bank:{p.space}"
            if p.space is not None
            else f"{'harvest' if p.box == 'large' else 'small'}:{p.area}:{p.place}"
            for p in turn.placements
        }
        if region.key in used:
            return True
    if region.kind == "bank":
        return bool(game.bank[int(parts[1]) - 1])
    if region.kind in ("harvest", "small"):
        place = game.harvest[parts[1]][int(parts[2]) - 1]
        return bool(place.large if region.kind == "harvest" else place.small)
    if region.kind == "city":
        return (int(parts[1]), int(parts[2])) in game.representatives
    if region.kind == "row":
        return (int(parts[1]), 1) in game.representatives
    return False


def _check_fields(
    game: Game,
    image: Image.Image,
    regions: list[Region],
    geo: landscape.LandscapeGeometry,
) -> None:
    fields = [r for r in regions if r.kind == "field"]
    assert {r.key for r in fields} == {f"field:{label}" for label in game.fields}
    for region in fields:
        label = region.key.split(":")[1]
        f = game.fields[label]
        point = (round(region.centre[0]), round(region.centre[1]))
        seen = _pixel(image, point)
        if f.settlements or f.cow or f.canteen:
            # a house, a cow or a canteen stands on the field: drawn over its print
            assert seen != BOARD_GROUND, region.key
        else:
            # the field's print lies round the region's centre, pixel for pixel (a
            # centre a few pixels off finds the cost's icons elsewhere)
            printed = _printed_around(game, geo.radius, label, region.centre)
            drawn = image.crop(_around(region.centre, geo.radius))
            assert drawn.tobytes() == printed.tobytes(), region.key
        hits = [r.key for r in fields if r.contains(region.centre)]
        assert hits == [region.key], f"a tap at {region.key}'s centre finds {hits}"


@pytest.mark.parametrize(
    ("players", "phase", "language"),
    [(2, "start", "en"), (3, "mid", "ja"), (4, "mid", "fr"), (4, "end", "pl"), (2, "end", "en")],
)
def test_each_region_of_the_snapshot_lies_on_what_the_picture_draws_there(
    players: int, phase: str, language: str
) -> None:
    game = game_at(players, phase)
    names = {pid: f"Player {pid} with a long name" for pid in game.player_ids}
    drawn = compose.snapshot(game, names=names, language=language)  # type: ignore[arg-type]
    regions = snapshot_targets(game, names=names, language=language)  # type: ignore[arg-type]
    png = decode(render_game(game, names=names, language=language))
    assert png.size == drawn.image.size, "the regions are laid out on the picture's own size"
    image = drawn.image
    _check_fields(game, image, regions, drawn.geometry)
    for region in regions:
        seen = _pixel(image, region.centre)
        assert region.contains(region.centre), region.key
        if region.kind == "wheel":
            assert seen == INK, "the wheel's centre is its hub"
        elif region.kind in PIECES_ON:
            if _occupied(game, region):
                assert seen not in (PANEL, BOARD_GROUND), region.key
            else:
                assert seen == WHITE, f"{region.key}: its empty box, not {seen}"
                if region.kind != "row":
                    _check_edges(image, region)
        elif region.kind != "field":
            # a panel (the bank's, the city's, the supply, a player's board)
            assert seen != BOARD_GROUND, f"{region.key}: {seen} is the ground between panels"
    keys = [r.key for r in regions]
    assert len(keys) == len(set(keys))
    json.dumps([r.to_json() for r in regions])  # JSON-able as served


@pytest.mark.parametrize(("players", "phase"), [(2, "start"), (4, "end")])
def test_each_field_of_the_landscape_picture_lies_on_its_field(players: int, phase: str) -> None:
    game = game_at(players, phase)
    geo = landscape.geometry(game)
    image = landscape.landscape_picture(game, [], translator("en")).convert("RGB")
    regions = landscape_targets(game)
    _check_fields(game, image, regions, geo)


CHOSEN_ON_THE_PICTURE = {
    "build",
    "bank",
    "harvest",
    "extra",
    "city",
    "place",
    "recruit",
    "take",
    "trade",
}


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (4, 12)])
def test_every_place_a_decision_chooses_has_its_region_over_whole_games(
    players: int, seed: int
) -> None:
    game = Game.new(["ana", "ben", "cleo", "dan"][:players], seed=seed)
    rng = random.Random(seed)
    verbs: set[str] = set()
    while not game.is_over:
        keys = {r.key for r in snapshot_targets(game)}
        pid = game.awaiting
        assert pid is not None
        for action in game.legal_actions(pid):
            key = target_of(game, action)
            if action.verb in CHOSEN_ON_THE_PICTURE:
                assert key in keys, f"{action} chooses {key}, which the picture lacks"
                verbs.add(action.verb)
            else:
                assert key is None, action
        game.apply(*choose_action(game, rng))
    assert {"build", "bank", "harvest", "city", "recruit"} <= verbs
