"""The tournament standings' table (issue 40 point 4) reads in every language: its columns
stay under their headers whatever the players' names and the labels' letters (a Japanese
label or name takes two columns a letter in Discord's monospace block)."""

from __future__ import annotations

import pytest

from bot.core.community.tournament_pairing import Standing
from bot.core.community.tournaments import display_width, standings_table
from i18n import LANGUAGES, translator


def standing(rank: int, points: float, user: str, *, dropped: bool = False) -> Standing:
    return Standing(
        user_id=user,
        rank=rank,
        points=points,
        opponents_points=points * 2.5,
        settlements=7 + rank,
        games=3,
        byes=0,
        dropped=dropped,
        eliminated=False,
    )


LINES = [
    (standing(1, 2.5, "1"), "さくら"),
    (standing(2, 1.83, "2"), "Zoë Łukasiewicz-Brzęczyszczykiewicz"),
    (standing(3, 0.5, "3", dropped=True), "Ana"),
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_figure_ends_under_its_header_and_the_names_start_in_one_column(
    language: str,
) -> None:
    table = standings_table(LINES, translator(language)).splitlines()
    header, rows = table[0], table[1:]
    assert len(rows) == len(LINES)
    # the names, wide letters or long, come last and start where the header's last label does
    name_column = display_width(header) - display_width(header.split("  ")[-1])
    for row, (_, name) in zip(rows, LINES, strict=True):
        start = row.index(name[:20])
        assert display_width(row[:start]) == name_column, (language, row)
    # every figure column ends where its label ends
    for row in rows:
        assert word_ends(row)[:5] == word_ends(header)[:5], (language, header, row)


def word_ends(line: str) -> list[int]:
    """The display columns where each word of `line` ends."""
    return [
        display_width(line[: i + 1])
        for i, char in enumerate(line)
        if char != " " and (i + 1 == len(line) or line[i + 1] == " ")
    ]


def test_a_dropped_player_is_marked_after_their_name() -> None:
    rows = standings_table(LINES, translator("en")).splitlines()
    assert rows[3].endswith("Ana ✗")
    assert "さくら" in rows[1] and "✗" not in rows[1]
