"""The game service as every front end uses it: the game flow (`bot.core.play.service`)
with every capability that hooks into it installed (`bot.core.play.hooks`), so that no
front end forgets one. It sits beside the core's folders, above all of them: the one
module of the core that may import every folder (`tests/test_layers.py`).

- `bot.core.clock.flow`: quiet hours (the service's `hours`, the picture's notes) and the
  deadline steps an undo counts as done;
- `bot.core.community.ratings`: a game's end rated in the transaction that saves it;
- `bot.core.community.seasons`: then rated in the server's current season, in the same
  transaction;
- `bot.core.server.limits`: the server's limits before a lobby opens, a seat is taken
  and a lobby starts.

The hooks of long-running parts (the deadline clock, the AI seats, the matchmaking queue)
are added by the front end that runs them, on `after_announce` and `after_game_over`.
"""

from __future__ import annotations

import random

from bot.core.clock import flow
from bot.core.community import ratings, seasons, tournaments
from bot.core.delivery.outbox import Announcer, Backoff, NoticeSender, TurnNotifier
from bot.core.delivery.renderer import Renderer
from bot.core.play.service import GameService
from bot.core.server import limits
from bot.core.store import Store


def install_capabilities(service: GameService) -> GameService:
    """Hook every capability into `service`'s game flow (once); the service."""
    flow.install(service)
    ratings.install(service)
    tournaments.install(service)
    seasons.install(service)  # after the ratings: it reads the game's rated rows
    limits.install(service)
    return service


def game_service(
    store: Store,
    *,
    renderer: Renderer | None = None,
    announcer: Announcer | None = None,
    notifier: TurnNotifier | None = None,
    notices: NoticeSender | None = None,
    seed_source: random.Random | None = None,
    backoff: Backoff | None = None,
) -> GameService:
    """A `GameService` on `store` with every capability installed."""
    return install_capabilities(
        GameService(
            store,
            renderer=renderer,
            announcer=announcer,
            notifier=notifier,
            notices=notices,
            seed_source=seed_source,
            backoff=backoff,
        )
    )


__all__ = ["game_service", "install_capabilities"]
