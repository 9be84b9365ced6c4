"""What can be touched on a picture, and where: the regions beside the PNG.

    regions = snapshot_targets(game, names=names, language="fr")   # render_game's picture
    regions = landscape_targets(game)                               # render_landscape's
    [r.to_json() for r in regions]       # {"kind", "key", "shape", "points", "centre"}
    target_of(game, action)              # the key of the region an action chooses, or None

Every position comes from the layout the picture is drawn with (`compose.layout`,
`landscape.LandscapeGeometry`, `workerboard.layout` and its boxes), never from numbers
of its own, so a page laying touch targets over the picture and the picture never
disagree. A region's points are in the picture's pixels: a rectangle's two corners
(left top, right bottom), a hex's or a polygon's corners in order; its centre is a
point on what the picture draws there.

The keys (what a decision chooses, `target_of`):

    field:<label>             a field of the landscape (build)
    bank:<space>              a bank space, 1..6 (bank)
    harvest:<area>:<place>    a harvest place's large box (harvest)
    small:<area>:<place>      its small box (the extra box)
    city:<row>:<column>       a space in the city (city, and the auction's place)
    row:<row>                 a row of the city
    wheel                     the recruitment wheel (recruit, the wild workers' colours)
    bank                      the bank panel
    city                      the city panel
    supply                    the general supply (a cow's trade takes from it)
    board:<player id>         a player's board

What the picture does not draw (the arrow's steps, workers returned, upgrades, the
city's goods, passing, stopping, the canteen, ending the turn) has no region:
`target_of` gives None and the page offers it beside the picture.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from i18n import Language
from rules import Action, Game, data

from . import compose, landscape, players, workerboard

Shape = Literal["rect", "hex", "polygon", "circle"]
Point = tuple[float, float]


@dataclass(frozen=True)
class Region:
    """A part of the picture a tap may choose."""

    kind: str
    """field, bank, harvest, small, city, row, wheel, panel, supply, board."""
    key: str
    shape: Shape
    points: tuple[Point, ...]
    """rect: (left, top), (right, bottom); hex and polygon: the corners in order;
    circle: the centre and a point on the rim."""
    centre: Point

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "key": self.key,
            "shape": self.shape,
            "points": [[round(x, 1), round(y, 1)] for x, y in self.points],
            "centre": [round(self.centre[0], 1), round(self.centre[1], 1)],
        }

    def contains(self, point: Point) -> bool:
        """Whether `point` lies in the region (what the page's hit test does)."""
        x, y = point
        if self.shape == "rect":
            (x0, y0), (x1, y1) = self.points
            return x0 <= x <= x1 and y0 <= y <= y1
        if self.shape == "circle":
            (cx, cy), (rx, ry) = self.points
            return math.dist((x, y), (cx, cy)) <= math.dist((rx, ry), (cx, cy))
        return _in_polygon(point, self.points)


def _in_polygon(point: Point, corners: Sequence[Point]) -> bool:
    x, y = point
    inside = False
    for (x0, y0), (x1, y1) in zip(corners, (*corners[1:], corners[0]), strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _rect(kind: str, key: str, box: workerboard.Box, origin: tuple[int, int]) -> Region:
    ox, oy = origin
    left, top, right, bottom = box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy
    return Region(
        kind, key, "rect", ((left, top), (right, bottom)), _middle(left, top, right, bottom)
    )


def _middle(left: float, top: float, right: float, bottom: float) -> Point:
    return ((left + right) / 2, (top + bottom) / 2)


def _fields(game: Game, geo: landscape.LandscapeGeometry, origin: tuple[int, int]) -> list[Region]:
    ox, oy = origin
    regions = []
    for f in game.fields.values():
        corners = tuple((x + ox, y + oy) for x, y in geo.corners(f.q, f.r))
        cx, cy = geo.centre(f.q, f.r)
        regions.append(Region("field", f"field:{f.label}", "hex", corners, (cx + ox, cy + oy)))
    return regions


def _worker_board(origin: tuple[int, int]) -> list[Region]:
    spots = workerboard.layout()
    ox, oy = origin
    cx, cy = workerboard.WHEEL_CENTRE
    centre = (cx + ox, cy + oy)
    regions = [
        Region(
            "wheel",
            "wheel",
            "circle",
            (centre, (centre[0] + workerboard.WHEEL_RADIUS, centre[1])),
            centre,
        ),
        _rect("panel", "bank", workerboard.BANK_BOX, origin),
        _rect("panel", "city", workerboard.CITY_BOX, origin),
    ]
    regions.extend(
        _rect("bank", f"bank:{space}", cell, origin)
        for space, cell in enumerate(spots.bank_cells, start=1)
    )
    for (area, place, box), rect in spots.harvest_boxes.items():
        kind = "harvest" if box == "large" else "small"
        regions.append(_rect(kind, f"{kind}:{area}:{place}", rect, origin))
    half_w, half_h = workerboard.CITY_CELL[0] / 2 - 3, workerboard.CITY_CELL[1] / 2
    for (row, col), (x, y) in spots.city_cells.items():
        cell = (x - half_w, y - half_h, x + half_w, y + half_h)
        regions.append(_rect("city", f"city:{row}:{col}", cell, origin))
    for row in range(1, data.CITY_ROWS + 1):
        left = spots.city_cells[(row, 1)]
        right = spots.city_cells[(row, len(data.CITY_COSTS))]
        # the row from its number to its last space; its centre on its first space
        row_region = _rect(
            "row",
            f"row:{row}",
            (workerboard.CITY_BOX[0] + 4, left[1] - half_h, right[0] + half_w, left[1] + half_h),
            origin,
        )
        regions.append(
            Region(
                row_region.kind,
                row_region.key,
                row_region.shape,
                row_region.points,
                (left[0] + ox, left[1] + oy),
            )
        )
    return regions


def snapshot_targets(
    game: Game,
    *,
    names: Mapping[str, str] | None = None,
    seat_notes: Mapping[str, str] | None = None,
    language: Language = "en",
) -> list[Region]:
    """The regions of `render_game`'s picture of `game` (the same arguments)."""
    laid = compose.picture_layout(game, names=names, seat_notes=seat_notes, language=language)
    regions = _fields(game, laid.geometry, laid.landscape_origin)
    regions.extend(_worker_board(laid.worker_board_origin))
    sx, sy = laid.supply_origin
    regions.append(
        _rect("supply", "supply", (0, 0, laid.geometry.width, players.SUPPLY_HEIGHT), (sx, sy))
    )
    for player, origin in zip(game.players, laid.player_board_origins, strict=True):
        box = (0, 0, players.BOARD_WIDTH, players.BOARD_HEIGHT)
        regions.append(_rect("board", f"board:{player.id}", box, origin))
    return regions


def landscape_targets(game: Game) -> list[Region]:
    """The regions of `render_landscape`'s picture of `game` (its fields)."""
    return _fields(game, landscape.geometry(game), (0, 0))


def target_of(game: Game, action: Action) -> str | None:
    """The key of the region `action` chooses on the picture of `game` now (None: the
    picture draws nothing it chooses)."""
    verb, args = action.verb, action.args
    if verb == "build":
        return f"field:{args[0]}"
    if verb == "bank":
        return f"bank:{args[0]}"
    if verb == "harvest":
        return f"harvest:{args[0]}:{args[1]}"
    if verb == "extra":
        return f"small:{game.pending.area}:{game.pending.place}"
    if verb in ("city", "place"):
        return f"city:{args[0]}:{args[1]}"
    if verb in ("recruit", "take"):
        return "wheel"
    if verb == "trade":
        return "supply"
    return None


__all__ = ["Region", "landscape_targets", "snapshot_targets", "target_of"]
