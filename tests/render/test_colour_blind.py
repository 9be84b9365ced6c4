"""Colour-blind players tell the player colours apart, and the worker colours too.

Each colour is passed through the simulation of protanopia, deuteranopia and
tritanopia of Machado, Oliveira & Fernandes (2009), severity 1.0 (their published
matrices, applied to linear sRGB), then compared pairwise with the CIEDE2000 colour
difference (Sharma, Wu & Dalal 2005; the implementation is checked on their test data).

Threshold: CIEDE2000 >= 20 for every pair, in normal vision and under each simulation.
About 2 is the smallest difference seen between two large patches side by side; the
pieces here are small (a settlement is about 12 px wide in the chat preview, a worker on
a phone a few millimetres), seldom side by side, and on coloured ground, where a
difference must be several times larger to be named at a glance. 20 keeps a wide margin
and is reachable with recognisable blue, yellow, green and red (the palette before this
test had green and red 6 apart for deuteranopes). The letters on the pieces stay as the
second clue.
"""

from __future__ import annotations

import itertools
import math

import pytest

from render.palette import PLAYER_RGB, WORKER_RGB

THRESHOLD = 20.0

MACHADO_2009 = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}

Lab = tuple[float, float, float]


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def simulate(rgb: tuple[int, int, int], vision: str) -> tuple[float, float, float]:
    """Linear sRGB as seen with `vision` (clipped to the displayable range)."""
    linear = [_linear(c) for c in rgb]
    matrix = MACHADO_2009[vision]
    out = [sum(matrix[i][j] * linear[j] for j in range(3)) for i in range(3)]
    return (min(1.0, max(0.0, out[0])), min(1.0, max(0.0, out[1])), min(1.0, max(0.0, out[2])))


def lab(linear: tuple[float, float, float]) -> Lab:
    """CIELAB (D65) of a linear sRGB colour."""
    r, g, b = linear
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(first: Lab, second: Lab) -> float:
    l1, a1, b1 = first
    l2, a2, b2 = second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    big_dh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    rotation = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = -math.sin(math.radians(2 * rotation)) * rc
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (big_dh / sh) ** 2 + rt * (dc / sc) * (big_dh / sh)
    )


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [  # Sharma, Wu & Dalal (2005), table 1, pairs 1, 7, 17 and 25
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_the_colour_difference_matches_the_published_test_data(first, second, expected):
    assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)


def test_an_unchanged_colour_under_normal_vision_and_a_known_confusion():
    assert simulate((40, 100, 215), "normal") == pytest.approx(
        tuple(_linear(c) for c in (40, 100, 215))
    )
    # the classic red/green confusion: a deuteranope barely tells these apart
    red, green = (
        lab(simulate((200, 60, 40), "deuteranopia")),
        lab(simulate((110, 110, 40), "deuteranopia")),
    )
    assert ciede2000(red, green) < 10


@pytest.mark.parametrize("vision", list(MACHADO_2009))
@pytest.mark.parametrize(("what", "colours"), [("player", PLAYER_RGB), ("worker", WORKER_RGB)])
def test_every_pair_of_colours_stays_clearly_apart(vision, what, colours):
    seen = {name: lab(simulate(rgb, vision)) for name, rgb in colours.items()}
    for (name1, lab1), (name2, lab2) in itertools.combinations(seen.items(), 2):
        difference = ciede2000(lab1, lab2)
        assert difference >= THRESHOLD, f"{what} {name1}/{name2} for {vision}: {difference:.1f}"
