"""The landscape: hex fields, their labels and the random layout of tiles.

Labels (what players type and read on the picture): the landscape's tiles get the
letters A, B, C, ... in reading order of their centres (top row first, left to
right), and the seven fields of a tile are numbered 1 to 7 in reading order too:

        1 2
       3 4 5        4 is the tile's centre
        6 7

so `C4` is the centre of tile C. Labels describe where a field lies in the landscape,
not which printed tile it came from, so they stay the same whatever the rotation.

Coordinates are axial hex coordinates (q, r) of pointy-topped hexes: `r` grows
downwards, `q` to the right; a hex's centre is at x = sqrt(3) * (q + r / 2),
y = 1.5 * r in units of the hex's radius.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import data

Hex = tuple[int, int]


@dataclass
class Field:
    """One hex of the landscape and what lies on it."""

    label: str
    q: int
    r: int
    tile: str
    """The letter of the landscape tile the field belongs to."""
    kind: str
    """"plain" (buildable), "mountain" or "lake"."""
    cost: dict[str, int]
    """Goods returned to build here (empty for mountains and lakes)."""
    double: bool = False
    """The field shows two settlement symbols."""
    cow: bool = False
    """A cow stands on the field (taken by the first builder)."""
    canteen: bool = False
    """A lake still carrying its canteen."""
    start: bool = False
    """The start tile covers this field."""
    settlements: list[str] = field(default_factory=list)
    """Player ids, one entry per settlement standing here."""

    @property
    def hex(self) -> Hex:
        return (self.q, self.r)

    @property
    def buildable(self) -> bool:
        """A plain field without the start tile (occupied or not)."""
        return self.kind == "plain" and not self.start

    def copy(self) -> Field:
        """An independent copy; the printed `cost` is shared, as nothing changes it."""
        new = Field.__new__(Field)
        new.__dict__.update(self.__dict__)
        new.settlements = list(self.settlements)
        return new

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "q": self.q,
            "r": self.r,
            "tile": self.tile,
            "kind": self.kind,
            "cost": dict(self.cost),
            "double": self.double,
            "cow": self.cow,
            "canteen": self.canteen,
            "start": self.start,
            "settlements": list(self.settlements),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Field:
        return cls(
            label=d["label"],
            q=d["q"],
            r=d["r"],
            tile=d["tile"],
            kind=d["kind"],
            cost=dict(d["cost"]),
            double=d["double"],
            cow=d["cow"],
            canteen=d["canteen"],
            start=d["start"],
            settlements=list(d["settlements"]),
        )


def hex_centre(q: int, r: int) -> tuple[float, float]:
    """The pixel centre of hex (q, r) for a hex radius of 1."""
    return (math.sqrt(3) * (q + r / 2), 1.5 * r)


def parse_field_spec(spec: str) -> tuple[str, dict[str, int], bool, bool]:
    """(kind, cost, double, cow) of a field written as in `data.TILES`."""
    if spec == "L":
        return ("lake", {}, False, False)
    if spec == "M":
        return ("mountain", {}, False, False)
    double = spec.startswith("2:")
    cow = spec.endswith("*")
    letters = spec.removeprefix("2:").removesuffix("*")
    cost: dict[str, int] = {}
    for letter in letters:
        good = data.GOOD_LETTERS[letter]
        cost[good] = cost.get(good, 0) + 1
    return ("plain", cost, double, cow)


def tile_origin(a: int, b: int) -> Hex:
    """Axial coordinates of the centre of the tile at lattice position (a, b)."""
    return (
        a * data.TILE_STEP_A[0] + b * data.TILE_STEP_B[0],
        a * data.TILE_STEP_A[1] + b * data.TILE_STEP_B[1],
    )


def reading_key(h: Hex) -> tuple[float, float]:
    x, y = hex_centre(*h)
    return (round(y, 6), round(x, 6))


@dataclass(frozen=True)
class Placement:
    """Which printed tile lies on which landscape slot, turned how far."""

    letter: str
    tile_index: int
    rotation: int
    centre: Hex


def deal_tiles(players: int, rng: random.Random) -> list[Placement]:
    """Draw the landscape's tiles and rotations (RULES.md 2.1)."""
    slots = [tile_origin(a, b) for a, b in data.SHAPES[players]]
    slots.sort(key=reading_key)
    chosen = rng.sample(range(len(data.TILES)), len(slots))
    rotations = [rng.randrange(6) for _ in slots]
    return [
        Placement(chr(ord("A") + i), tile_index, rotation, centre)
        for i, (centre, tile_index, rotation) in enumerate(
            zip(slots, chosen, rotations, strict=True)
        )
    ]


def lay_tiles(players: int, tiles: Sequence[tuple[int, int]]) -> list[Placement]:
    """The landscape of `players` with the given (tile index, rotation) on its slots in
    letter order: a landscape dealt before, laid again without the generator that dealt
    it (a game record under way carries its landscape, not its seed). `ValueError` says
    what is wrong: a count that does not fit, a tile unknown or laid twice, a rotation
    outside 0 to 5."""
    slots = [tile_origin(a, b) for a, b in data.SHAPES[players]]
    slots.sort(key=reading_key)
    if len(tiles) != len(slots):
        raise ValueError(
            f"a landscape of {players} players has {len(slots)} tiles, not {len(tiles)}"
        )
    seen: set[int] = set()
    for tile_index, rotation in tiles:
        if not 0 <= tile_index < len(data.TILES):
            raise ValueError(f"tile {tile_index} does not exist: 0 to {len(data.TILES) - 1}")
        if tile_index in seen:
            raise ValueError(f"tile {tile_index} is laid twice")
        if not 0 <= rotation < 6:
            raise ValueError(f"a tile turns 0 to 5 steps, not {rotation}")
        seen.add(tile_index)
    return [
        Placement(chr(ord("A") + i), tile_index, rotation, centre)
        for i, (centre, (tile_index, rotation)) in enumerate(zip(slots, tiles, strict=True))
    ]


def build_fields(placements: list[Placement]) -> dict[str, Field]:
    """The landscape's fields keyed by label, in label order."""
    fields: dict[str, Field] = {}
    for placement in placements:
        spec = data.TILES[placement.tile_index]
        cq, cr = placement.centre
        # printed position -> hex: the centre stays, ring field i turns by `rotation`
        hexes: dict[Hex, str] = {(cq, cr): spec[0]}
        for i, ring_spec in enumerate(spec[1:]):
            dq, dr = data.HEX_DIRECTIONS[(i + placement.rotation) % 6]
            hexes[(cq + dq, cr + dr)] = ring_spec
        for position, h in enumerate(sorted(hexes, key=reading_key), start=1):
            kind, cost, double, cow = parse_field_spec(hexes[h])
            label = f"{placement.letter}{position}"
            fields[label] = Field(
                label=label,
                q=h[0],
                r=h[1],
                tile=placement.letter,
                kind=kind,
                cost=cost,
                double=double,
                cow=cow,
                canteen=kind == "lake",
            )
    return fields


def default_start_field(fields: dict[str, Field]) -> str:
    """The buildable field nearest the centre of the landscape (RULES.md 2.2)."""
    centres = {label: hex_centre(f.q, f.r) for label, f in fields.items()}
    mid_x = sum(x for x, _ in centres.values()) / len(centres)
    mid_y = sum(y for _, y in centres.values()) / len(centres)
    candidates = [label for label, f in fields.items() if f.kind == "plain"]
    return min(
        candidates,
        key=lambda label: (
            round((centres[label][0] - mid_x) ** 2 + (centres[label][1] - mid_y) ** 2, 6),
            label,
        ),
    )


def neighbours(h: Hex) -> list[Hex]:
    return [(h[0] + dq, h[1] + dr) for dq, dr in data.HEX_DIRECTIONS]
