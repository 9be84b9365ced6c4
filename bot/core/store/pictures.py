"""The store's statements about a game's `pictures` setting (issue 25.3), mixed into
`base.Store`: when the game's messages carry its picture (`bot.core.picture_modes`).
The setting is read with the game's row (`GameRow.pictures`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .model import PICTURE_MODES


class PictureTables:
    """Mixed into `Store`: these use its `transaction` (guarded)."""

    if TYPE_CHECKING:

        async def transaction(
            self, statements: Sequence[tuple[str, tuple[Any, ...]]]
        ) -> list[int]: ...

    async def set_pictures(self, game_id: int, mode: str) -> None:
        """Game `game_id`'s messages carry its picture as `mode` says (`PICTURE_MODES`)."""
        if mode not in PICTURE_MODES:
            raise ValueError(f"pictures must be one of {PICTURE_MODES}, not {mode!r}")
        await self.transaction([("UPDATE games SET pictures = ? WHERE id = ?", (mode, game_id))])


__all__ = ["PictureTables"]
