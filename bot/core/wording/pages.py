"""Pages a member asks for by number (issue 35.6): the game's log, the leaderboard.
A number typed outside the pages there are is refused with the pages one may ask
for; a page button (its page written by the bot, the list maybe shorter since) shows
the nearest page there is instead. Checked here, not trusted to Discord's schema."""

from __future__ import annotations

from bot.core.wording.refusals import Refusal
from i18n import translatable

NO_SUCH_PAGE = translatable("That page does not exist: choose a page from 1 to {pages}.")


def page_within(page: int, pages: int, *, typed: bool) -> int:
    """`page` if it is one of `pages` (1 to `pages`); else, `typed` by the member, a
    `Refusal` naming the pages there are, or the nearest page for a button."""
    if 1 <= page <= pages:
        return page
    if typed:
        raise Refusal(NO_SUCH_PAGE, pages=pages)
    return min(max(page, 1), pages)


__all__ = ["NO_SUCH_PAGE", "page_within"]
