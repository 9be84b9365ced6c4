"""Where each text of a picture was drawn, and in which panel: what the overflow test
checks in every language (issue 13.5: longer French and Polish words and Japanese text
must not leave their panels).

    with textboxes.recording() as drawn:
        compose.snapshot(game, language="pl")
    outside = [box for box in drawn if not box.inside]

The drawing code names the panel it is drawing in (`with textboxes.panel("bank",
box):`), in the coordinates it draws in (a cached sprite's own, or the picture's), and
`fonts.draw_text` notes every text while a recording is on. Art kept in the caches is
not drawn again: empty them first (`caches.clear_all()`) to see its texts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

Box = tuple[float, float, float, float]
"""left, top, right, bottom."""


@dataclass(frozen=True)
class TextBox:
    """One drawn text: the box its glyphs cover on the picture (or sprite) it was drawn
    on, and the panel it belongs to (None when it was drawn outside any named panel)."""

    text: str
    size: int
    box: Box
    panel: str | None
    panel_box: Box | None

    @property
    def inside(self) -> bool:
        """The text lies within its panel (half a pixel of rounding allowed)."""
        if self.panel_box is None:
            return False
        left, top, right, bottom = self.box
        p_left, p_top, p_right, p_bottom = self.panel_box
        slack = 0.5
        return (
            left >= p_left - slack
            and top >= p_top - slack
            and right <= p_right + slack
            and bottom <= p_bottom + slack
        )


_RECORDED: ContextVar[list[TextBox] | None] = ContextVar("text boxes", default=None)
_PANEL: ContextVar[tuple[str, Box] | None] = ContextVar("panel", default=None)


@contextmanager
def recording() -> Iterator[list[TextBox]]:
    """Collect the text boxes drawn while the block runs."""
    drawn: list[TextBox] = []
    token = _RECORDED.set(drawn)
    try:
        yield drawn
    finally:
        _RECORDED.reset(token)


@contextmanager
def panel(name: str, box: Box) -> Iterator[None]:
    """The texts drawn in the block belong to the panel `name` lying at `box`."""
    token = _PANEL.set((name, box))
    try:
        yield
    finally:
        _PANEL.reset(token)


def is_recording() -> bool:
    return _RECORDED.get() is not None


def union(boxes: list[Box]) -> Box:
    """The smallest box holding every box that has an area (a space has none)."""
    inked = [b for b in boxes if b[2] > b[0] and b[3] > b[1]] or boxes[:1] or [(0, 0, 0, 0)]
    return (
        min(b[0] for b in inked),
        min(b[1] for b in inked),
        max(b[2] for b in inked),
        max(b[3] for b in inked),
    )


def note(text: str, size: int, box: Box) -> None:
    """Record a drawn text (nothing happens unless a recording is on)."""
    drawn = _RECORDED.get()
    if drawn is None:
        return
    current = _PANEL.get()
    name, panel_box = current if current is not None else (None, None)
    drawn.append(TextBox(text, size, box, name, panel_box))
