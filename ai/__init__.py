"""AI players for Montana: a search policy, a greedy baseline, a random one, the arena.

Imports only `rules` and the standard library. See ai/README.md.
"""

from .decision import Decision, Reason, explain, explain_reason
from .policies import LEVEL_NAMES, NAMES, Policy, decide_from_state, get

__all__ = [
    "LEVEL_NAMES",
    "NAMES",
    "Decision",
    "Policy",
    "Reason",
    "decide_from_state",
    "explain",
    "explain_reason",
    "get",
]
