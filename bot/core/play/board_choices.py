"""The choices of a decision laid on the picture (issue 38.2): the prompts' own menus
(`prompts.public_panel` and the sub-panels its codes open), each move placed on the
picture's region it chooses (`render.targets.target_of`), so the game page and the
Discord buttons offer the same moves under the same words.

    decision = board_decision(game, viewer, names, t)
    decision.targets    # per region key: its label and the moves it offers
    decision.beside     # what the picture does not draw: pass, end turn, undo, …

Every move is a prompt's code (`a:<notation>`, `undo`, `inadvance`), the vocabulary the
page posts back (`bot.web.moves`). A move's label is the steps a Discord player taps
through to reach it ("Build… › C4 — 3 coins"). A viewer the game does not await gets
what they may do meanwhile (their own undo, passing in advance in the city auction),
else nothing: they watch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from i18n import Translator
from render.targets import target_of
from render.words import ENGLISH
from rules import Game, parse_action

from . import passes, prompts

STEP = " › "
"""Between the steps of a move's label (the buttons a Discord player taps, in order)."""
PANELS = 400
"""At most this many sub-panels opened for one decision (the city auction's and the
workers' panels are a handful each; a bound all the same)."""


@dataclass(frozen=True)
class BoardChoice:
    code: str
    """A prompt's code: what the page posts (`bot.web.moves`)."""
    label: str
    """The move in words: the steps to it in the prompts, " › " between them."""
    heading: str
    """The instruction of the panel it was found in."""

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "label": self.label, "heading": self.heading}


@dataclass(frozen=True)
class BoardTarget:
    key: str
    """The region's key (`render.targets`)."""
    label: str
    """What a screen reader says of the region: its one move, or its panel's instruction."""
    choices: tuple[BoardChoice, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "choices": [choice.to_json() for choice in self.choices],
        }


@dataclass(frozen=True)
class BoardDecision:
    awaited: bool
    """Whether the game awaits the viewer."""
    prompt: str
    """The decision's instruction (the public panel's), "" when not awaited."""
    targets: tuple[BoardTarget, ...]
    beside: tuple[BoardChoice, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "awaited": self.awaited,
            "prompt": self.prompt,
            "targets": [target.to_json() for target in self.targets],
            "beside": [choice.to_json() for choice in self.beside],
        }


def _walk(
    game: Game, pid: str, names: Mapping[str, str], t: Translator
) -> tuple[str, list[BoardChoice]]:
    """Every code the prompts offer `pid` now, breadth first (the fewest taps first)."""
    panel = prompts.public_panel(game, names, t)
    found: dict[str, BoardChoice] = {}
    frontier: list[tuple[tuple[str, ...], prompts.Panel]] = [((), panel)]
    seen: set[str] = set()
    while frontier:
        path, shown = frontier.pop(0)
        for choice in shown.choices:
            label = choice.label
            if choice.description:
                label = f"{label} ({choice.description})"
            if choice.code.startswith("p:"):
                if choice.code not in seen and len(seen) < PANELS:
                    seen.add(choice.code)
                    opened = prompts.sub_panel(game, pid, choice.code, names, t)
                    frontier.append(((*path, choice.label), opened))
            elif choice.code not in found and (
                choice.code.startswith("a:") or choice.code in (prompts.UNDO, prompts.IN_ADVANCE)
            ):
                found[choice.code] = BoardChoice(choice.code, STEP.join((*path, label)), shown.text)
    return panel.text, list(found.values())


def board_decision(
    game: Game,
    viewer: str | None,
    names: Mapping[str, str],
    t: Translator = ENGLISH,
    *,
    hint: bool = False,
) -> BoardDecision:
    """What `viewer` (a player's id; None: signed out) may choose on the board now
    (`hint`: the awaited player may ask the AI, as with the prompts' Hint button)."""
    pid = game.awaiting
    if viewer is None or pid is None or game.is_over:
        return BoardDecision(False, "", (), ())
    if viewer != pid:
        beside: list[BoardChoice] = []
        if viewer in passes.queued_later(game):
            label = t.pgettext("button", "Pass in advance")
            beside.append(BoardChoice(prompts.IN_ADVANCE, label, ""))
        undo = prompts.undo_choice(game, names, t)
        if undo is not None and prompts.last_mover(game) == viewer:
            beside.append(BoardChoice(undo.code, prompts.undo_label(t), ""))
        return BoardDecision(False, "", (), tuple(beside))
    prompt, found = _walk(game, pid, names, t)
    on: dict[str, list[BoardChoice]] = {}
    beside = []
    for choice in found:
        if choice.code == prompts.UNDO and prompts.last_mover(game) != pid:
            continue  # the other player's undo: theirs to press, on their page
        key = None
        if choice.code.startswith("a:"):
            key = target_of(game, parse_action(choice.code[2:]))
        if key is None:
            beside.append(choice)
        else:
            on.setdefault(key, []).append(choice)
    if hint and len(game.legal_actions(pid)) > 1:
        beside.append(BoardChoice(prompts.HINT, "💡 " + t.pgettext("button", "Hint"), ""))
    targets = tuple(
        BoardTarget(key, moves[0].label if len(moves) == 1 else moves[0].heading, tuple(moves))
        for key, moves in on.items()
    )
    return BoardDecision(True, prompt, targets, tuple(beside))


__all__ = ["BoardChoice", "BoardDecision", "BoardTarget", "board_decision"]
