"""Every printed value of the game in one place (RULES.md sections 1, 2 and 9).

The rules code reads these tables and never repeats a number; replacing a value
here (for instance with the numbers printed on the real boards) changes the game
without touching `rules/game.py`. The source of each value is in RULES.md section 9.
"""

from __future__ import annotations

from typing import Final

# --- names used everywhere (and in the notation) -----------------------------------

COLOURS: Final = ("copper", "stone", "grain", "pumpkin")
"""Worker colours, in the canonical order used when a list of workers is written."""

GOODS: Final = ("grain", "pumpkin", "copper", "stone", "bigcopper", "bigstone")
"""Goods kinds. `copper`/`stone` are the small pieces; the big ones are separate goods."""

AREAS: Final = ("mine", "quarry", "wheatfield", "garden")
"""The four harvest areas of the worker board."""

AREA_COLOUR: Final = {
    "mine": "copper",
    "quarry": "stone",
    "wheatfield": "grain",
    "garden": "pumpkin",
}
"""The worker colour that may stand alone on an area's box."""

AREA_GOOD: Final = {"mine": "copper", "quarry": "stone", "wheatfield": "grain", "garden": "pumpkin"}
"""The good an area yields."""

UPGRADES: Final = {"copper": "bigcopper", "stone": "bigstone"}
"""A city upgrade returns the small good (key) and takes the large one (value)."""

TRADE_GOODS: Final = ("grain", "pumpkin", "copper", "stone")
"""Goods a cow may be traded for (RULES.md 7.2)."""

CITY_GOODS: Final = ("copper", "stone", "grain")
"""Goods a row-2 city reward may be made of (RULES.md 6.3.5)."""

# --- components (section 1) ----------------------------------------------------------

PLAYER_COLOURS: Final = ("blue", "yellow", "green", "red")
"""Settlement colour of each seat, the start player first."""

WORKERS_PER_COLOUR: Final = 18
COWS_TOTAL: Final = 24
CANTEENS_TOTAL: Final = 6
GOODS_TOTAL: Final = {
    "grain": 24,
    "pumpkin": 24,
    "copper": 24,
    "stone": 24,
    "bigcopper": 12,
    "bigstone": 12,
}
MAX_WORKERS: Final = 8
COW_TRADE_COINS: Final = 3

# --- setup (section 2) ---------------------------------------------------------------

SUPPLY_GOODS: Final = {
    2: {"grain": 10, "pumpkin": 10, "copper": 10, "bigcopper": 6, "stone": 10, "bigstone": 6},
    3: {"grain": 15, "pumpkin": 15, "copper": 15, "bigcopper": 9, "stone": 15, "bigstone": 9},
    4: {"grain": 20, "pumpkin": 20, "copper": 20, "bigcopper": 12, "stone": 20, "bigstone": 12},
}
START_GOODS: Final = {"grain": 1, "pumpkin": 1, "copper": 1, "stone": 1}
"""Each player's starting goods, taken from the box (not the supply)."""
SETTLEMENTS: Final = {2: 12, 3: 10, 4: 8}
START_COWS: Final = 1
START_COINS: Final = (3, 4, 5, 6)
"""Coins by seat, the start player first."""
SETUP_SPINS: Final = 2

# --- the recruitment wheel (section 9) ------------------------------------------------

WILD: Final = "wild"
WHEEL: Final = (
    ("stone", "pumpkin"),
    ("copper", "grain"),
    (WILD, WILD),
    ("copper", "copper"),
    ("pumpkin", "pumpkin"),
    ("stone", "stone"),
    (WILD, WILD),
    ("grain", "grain"),
)
"""Segments 1..8 clockwise; each shows two workers."""
MAX_ADVANCE: Final = 7

# --- the worker board (section 9) -------------------------------------------------------

BANK: Final = ((1, 3), (1, 4), (2, 8), (3, 11))
"""Bank spaces 1..4 as (workers needed, coins taken)."""

HARVEST_PLACES: Final = {
    "mine": ((1, 1), (3, 2), (6, 3)),
    "quarry": ((1, 1), (3, 2), (6, 3)),
    "wheatfield": ((1, 1), (3, 2), (6, 4)),
    "garden": ((1, 1), (3, 2), (6, 3)),
}
"""Places 1..3 of each area as (coins paid, goods taken) for the large box."""
SMALL_BOX_YIELD: Final = 1
"""Goods taken for the small box of any place (no coins)."""
LARGE_BOX_SINGLE: Final = 1
"""Workers on a box: 1 of the area's colour, or this many of any colour."""
BOX_ANY_COLOUR: Final = 2

CITY_COSTS: Final = (1, 2, 3, 4)
"""Pumpkin cost of city columns 1..4, left to right."""
CITY_ROWS: Final = 4
CITY_REWARDS: Final = {
    1: {"cows": 1, "upgrades": 3, "coins": 0, "goods": 0},
    2: {"cows": 0, "upgrades": 0, "coins": 0, "goods": 3},
    3: {"cows": 0, "upgrades": 2, "coins": 0, "goods": 0},
    4: {"cows": 0, "upgrades": 1, "coins": 2, "goods": 0},
}
"""Row rewards (RULES.md 6.3.5): cows, up to N upgrades, coins, N goods of CITY_GOODS."""

# --- building (section 7) ----------------------------------------------------------------

BUILDS_PER_ACTION: Final = 3
LINE_BONUS_LENGTH: Final = 4
UNUSED_BUILD_COINS: Final = {0: 0, 1: 2, 2: 1, 3: 0}
"""Coins taken when stopping after N builds (RULES.md 7.1.4)."""

# --- landscape tiles (section 9, "ours") ---------------------------------------------------
#
# Each tile is seven fields: its centre, then the six fields around it clockwise
# starting east (east, south-east, south-west, west, north-west, north-east).
# A field is written as:
#   "L"      a lake with a canteen symbol
#   "M"      a mountain
#   "gpS"    a buildable field and its cost, one letter per good:
#            g grain, p pumpkin, c copper, s stone, C large copper, S large stone
#   prefix "2:"  the double-settlement symbol
#   suffix "*"   the cow symbol
GOOD_LETTERS: Final = {
    "g": "grain",
    "p": "pumpkin",
    "c": "copper",
    "s": "stone",
    "C": "bigcopper",
    "S": "bigstone",
}

TILES: Final = (
    ("L", "gp*", "csg", "2:gpcS", "pg", "sC", "ggp"),
    ("cs", "L", "M", "g*", "2:scgp", "pS", "ccs"),
    ("M", "L", "pp*", "gcp", "ssp", "2:Cgp", "s"),
    ("gS", "L", "c*", "pgs", "M", "psc", "2:ggcS"),
    ("2:psgc", "L", "gs", "Cs", "cp*", "sgp", "M"),
    ("pcs", "L", "sgg", "ccg", "M", "gp*", "2:sSp"),
    ("g*", "cS", "psg", "M", "2:gpsC", "ccp", "pgc"),
    ("sc", "2:pgcS", "gc", "Sp*", "cgs", "pp", "cc"),
    ("M", "gsc", "cpg", "Sg*", "pcs", "gC", "s"),
    ("pS", "cs", "gpc*", "ss", "Cg", "pgc", "sgp"),
    ("gcs", "pS*", "sp", "ggp", "ccc", "p", "sgc"),
    ("cp", "g*", "sS", "pgs", "ccp", "ggs", "cps"),
)

# --- landscape shapes (section 9, "ours") ----------------------------------------------------
#
# Tiles of seven hexes tile the plane; a tile's centre sits at a*(2, 1) + b*(-1, 3) in
# axial hex coordinates (q, r) for integer (a, b), and the six tiles around a tile are
# at (a, b) + the same six neighbour steps as single hexes. The shapes list (a, b).
TILE_STEP_A: Final = (2, 1)
TILE_STEP_B: Final = (-1, 3)
SHAPES: Final = {
    2: ((0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)),
    3: ((0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (2, -1), (2, -2)),
    4: (
        (0, 0),
        (1, 0),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (1, -1),
        (2, -1),
        (2, -2),
        (1, -2),
    ),
}

HEX_DIRECTIONS: Final = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
"""Axial steps east, south-east, south-west, west, north-west, north-east (clockwise)."""
LINE_AXES: Final = ((1, 0), (0, 1), (-1, 1))
"""The three straight lines through a hex."""
