"""Montana's rules: a pure, replayable engine (no Discord, no pictures, no I/O)."""

from . import data
from .actions import Action, IllegalAction, NotYourTurn, parse_action
from .board import Field
from .game import SCHEMA_VERSION, Game
from .state import BuildGains, Event, Pending, Player, Result, Standing, Supply

__all__ = [
    "SCHEMA_VERSION",
    "Action",
    "BuildGains",
    "Event",
    "Field",
    "Game",
    "IllegalAction",
    "NotYourTurn",
    "Pending",
    "Player",
    "Result",
    "Standing",
    "Supply",
    "data",
    "parse_action",
]
