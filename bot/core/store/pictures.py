"""The store's statements about a game's `pictures` setting (issue 25.3), mixed into
`base.Store`: when the game's messages carry its picture (`bot.core.delivery.picture_modes`).
The setting is read with the game's row (`GameRow.pictures`)."""

from __future__ import annotations

from .model import PICTURE_MODES
from .parts import StoreParts


class PictureTables(StoreParts):
    """Mixed into `Store`: these use its `transaction` (guarded)."""

    async def set_pictures(self, game_id: int, mode: str) -> None:
        """Game `game_id`'s messages carry its picture as `mode` says (`PICTURE_MODES`)."""
        if mode not in PICTURE_MODES:
            raise ValueError(f"pictures must be one of {PICTURE_MODES}, not {mode!r}")
        await self.transaction([("UPDATE games SET pictures = ? WHERE id = ?", (mode, game_id))])


__all__ = ["PictureTables"]
