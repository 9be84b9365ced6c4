"""A game's pace (issue 25 point 4-5): named presets of its deadlines, shared by
`/montana game new pace:` and the matchmaking queue (`bot.core.matchmaking`).

Each preset is (hours for a turn, hours to answer a city auction).
"""

from __future__ import annotations

FAST, NORMAL, SLOW = "fast", "normal", "slow"
PACES: dict[str, tuple[int, int]] = {FAST: (2, 1), NORMAL: (24, 12), SLOW: (72, 24)}


def pace_of(turn_hours: float, auction_hours: float) -> str | None:
    """The preset these deadlines are, or None (hours of the player's own choosing)."""
    for name, (turn, auction) in PACES.items():
        if turn_hours == turn and auction_hours == auction:
            return name
    return None


__all__ = ["FAST", "NORMAL", "PACES", "SLOW", "pace_of"]
