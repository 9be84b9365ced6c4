"""Passes in advance (issue 11.3): who may say now that they will pass in the running
city auction, and which auction such a pass is bound to.

A player still queued to answer the auction later (not the one it awaits now, not its
active player) may pass in advance, and change their mind until the auction reaches
them; it is then applied in the same save as the move that reached them, without
asking. The pass is bound to one auction, named by the version of the move that opened
it (the `city` action), so a later auction starts with none. The store keeps them
(`Store.advance_passes`, `Store.set_advance_pass`); the service applies them.
"""

from __future__ import annotations

from rules import Game


def auction_opened_at(game: Game) -> int | None:
    """The version of the move that opened the running city auction (None: none runs)."""
    if game.auction is None:
        return None
    for index in range(len(game.log) - 1, -1, -1):
        if game.log[index][1].startswith("city "):
            return index + 1
    return None


def queued_later(game: Game) -> list[str]:
    """The players who may pass in advance now: queued to answer the running auction
    after the one it awaits (none once it is over or being paid)."""
    auction = game.auction
    if auction is None or game.pending.kind != "bid":
        return []
    now = game.pending.seat
    return [game.players[seat].id for seat in auction.queue if seat != now]


def due_pass(game: Game, passing: set[str]) -> str | None:
    """The player the game awaits now who passed in advance (their pass is to be applied)."""
    awaited = game.awaiting
    if game.pending.kind == "bid" and awaited in passing:
        return awaited
    return None


__all__ = ["auction_opened_at", "due_pass", "queued_later"]
