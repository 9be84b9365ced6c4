"""How each player wants to hear that a game waits for them (table `notify_prefs`).

Channel mentions only (the default), or also a direct message whenever a game starts
waiting for them; and, apart, whether they want a heads-up when the player before them
starts a turn (`bot.core.delivery.presence`; by DM in the DM mode, else in the game's thread);
and whether they want the daily digest DM of the games waiting for them.
The front end sends the messages; this module keeps the choice.
"""

from __future__ import annotations

from bot.core.store import Store, now

CHANNEL_ONLY = "channel"
ALSO_DM = "dm"
MODES = {
    CHANNEL_ONLY: "channel mentions only",
    ALSO_DM: "channel mentions and a direct message when the game waits for you",
}


class NotifyPrefs:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def wants_dm(self, user_id: str) -> bool:
        return await self.store.dm_wanted(user_id)

    async def wants_heads_up(self, user_id: str) -> bool:
        return await self.store.heads_up_wanted(user_id)

    async def set_heads_up(self, user_id: str, wanted: bool) -> None:
        await self.store.set_heads_up(user_id, wanted)

    async def set_dm(self, user_id: str, dm: bool) -> None:
        await self.store.set_dm(user_id, dm)

    async def wants_digest(self, user_id: str) -> bool:
        """Whether the player asked for the daily digest (`bot.core.clock.my_games`)."""
        return await self.store.digest_wanted(user_id)

    async def set_digest(self, user_id: str, wanted: bool) -> None:
        await self.store.set_digest(user_id, wanted, now())


__all__ = ["ALSO_DM", "CHANNEL_ONLY", "MODES", "NotifyPrefs"]
