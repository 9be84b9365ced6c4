"""Why a message could not be delivered, as the front end raises it: `TryAgain` (Discord
or the network failed for now), `Blocked` (people must act), `Dropped` (never). Each
carries words saying why, for the players, kept by the outbox so that they can be said
in the game's language again after a restart (`DeliveryProblem.from_stored`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping

from bot.core.runtime import incidents
from i18n import SOURCE_LANGUAGE, Message, Translator, translator

log = logging.getLogger(__name__)


class DeliveryProblem(Exception):
    """A message could not be delivered; `words` say why, for the players (in English:
    the logs and the outbox keep them), `text(t)` in a reader's language. Made from
    words already said, a marked `Message` and its fields, or a wording `lambda t: ...`."""

    def __init__(
        self,
        words: str | Message | Callable[[Translator], str],
        *,
        retry_after: float | None = None,
        fields: Mapping[str, object] | None = None,
    ) -> None:
        wording: Callable[[Translator], str]
        if isinstance(words, str):
            said = words
            wording = lambda t: said  # noqa: E731
        elif isinstance(words, Message):
            marked, filled = words, dict(fields or {})
            wording = lambda t: (  # noqa: E731
                t.gettext(marked.id, **filled)
                if marked.context is None
                else t.pgettext(marked.context, marked.id, **filled)
            )
        else:
            wording = words
        self._given = (words, fields)
        english = wording(translator(SOURCE_LANGUAGE))
        super().__init__(english)
        self.words = english
        self._wording = wording
        self.retry_after = retry_after
        self.stored = _stored(words, fields) or english
        """What the outbox keeps (`last_error`): a marked sentence as its English and
        fields (`STORED_MARK` + JSON), so that read back after a restart it is said in
        the game's language again (`from_stored`); other words as they are."""

    def text(self, t: Translator) -> str:
        return self._wording(t)

    @classmethod
    def from_stored(cls, stored: str) -> DeliveryProblem:
        """The problem the outbox kept (`stored`), to be said in any language again."""
        if stored.startswith(STORED_MARK):
            try:
                kept = json.loads(stored[len(STORED_MARK) :])
                marked = Message(kept["id"], context=kept.get("context"))
                return cls(marked, fields=dict(kept.get("fields") or {}))
            except (ValueError, KeyError, TypeError):
                pass
        return cls(stored)


STORED_MARK = "i18n:"


def _stored(words: object, fields: Mapping[str, object] | None) -> str | None:
    if not isinstance(words, Message) or words.plural is not None:
        return None
    kept = {"id": words.id, "context": words.context, "fields": dict(fields or {})}
    try:
        return STORED_MARK + json.dumps(kept, ensure_ascii=False)
    except (TypeError, ValueError):  # a field JSON cannot keep: the English words
        return None


class TryAgain(DeliveryProblem):
    """Discord (or the network) failed for now: try again soon."""


class CannotLook(TryAgain):
    """A retry could not look whether an earlier attempt at its message reached Discord
    (reading where the game plays failed for now), so it waits instead of posting. The
    outbox keeps when the first such look failed (`Owed.looks_failing_since`, given back
    as `Ticket.looks_failing_since`): the front end's bound on that wait, after which it
    posts with the identity and a `RECHECK` removes a duplicate, counts from it, also
    across restarts."""

    @classmethod
    def of(cls, problem: DeliveryProblem) -> CannotLook:
        """`problem` (how reading failed, in its words) as a failed look."""
        words, fields = problem._given
        return cls(words, retry_after=problem.retry_after, fields=fields)


class Blocked(DeliveryProblem):
    """Only people can fix it (a permission, a deleted channel): try again now and then."""


class Dropped(DeliveryProblem):
    """It can never be delivered (closed DMs): give up on this message."""


def unexpected(
    error: BaseException, what: str, kind: type[DeliveryProblem] = TryAgain
) -> DeliveryProblem:
    """An error no one foresaw, logged with its traceback under an id; the players read
    only that id ("something went wrong (error `a1b2c3`) ...")."""
    incident = incidents.record(log, error, what)
    return kind(lambda t: incidents.went_wrong(incident, t))
