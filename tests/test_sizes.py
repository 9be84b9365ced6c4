"""No class over 500 lines, no module over 900 (issue 34, point 2).

The issue: "No class in bot/ over 500 lines, no module over 900 (the rules' rules/game.py
may stay as it is); a test says so, listing the exceptions it allows with their reason."

The same limits hold in every package of the product: `bot/`, `ai/`, `render/`, `i18n/`
and `rules/`. A file that grows past them is split by what changes together, in the same
folder (as `bot/core/wording/words.py`, `bot/core/delivery/outbox.py` and the console,
now `bot/console/`, were), keeping the names callers import where they import them. An
exception is listed in `ALLOWED` with its reason, and leaves the list once the file is
under the limits again (`test_every_allowed_exception_is_still_needed`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "ai", "render", "i18n", "rules")
MODULE_LIMIT = 900
"""Lines a module may have."""
CLASS_LIMIT = 500
"""Lines a class may have (from its first decorator to its last line)."""

Place = tuple[str, str | None]
"""A module's path from the repository root, and a class in it (None: the module)."""

ALLOWED: dict[Place, str] = {
    ("rules/game.py", None): (
        "the rules engine's game state and every transition of it, kept whole as issue 34 "
        "allows: one pure, replayable state machine, read beside RULES.md"
    ),
    ("rules/game.py", "Game"): (
        "the same: the state machine is the class, its steps share the state's invariants"
    ),
}
"""The places allowed over the limits, each with its reason."""


def classes(tree: ast.AST, outer: str = "") -> Iterator[tuple[str, int]]:
    """Every class in `tree`, nested ones too (`Outer.Inner`), with its length in lines."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            name = f"{outer}{node.name}"
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            yield name, (node.end_lineno or node.lineno) - first + 1
            yield from classes(node, f"{name}.")
        else:
            yield from classes(node, outer)


def sizes(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[Place, int]:
    """The length in lines of every module of `packages` under `root`, and of every class
    in them."""
    found: dict[Place, int] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            text = path.read_text(encoding="utf-8")
            found[(relative, None)] = len(text.splitlines())
            for name, length in classes(ast.parse(text, filename=relative)):
                found[(relative, name)] = length
    return found


def limit(place: Place) -> int:
    return MODULE_LIMIT if place[1] is None else CLASS_LIMIT


def where(place: Place) -> str:
    path, name = place
    return path if name is None else f"{path}: class {name}"


def described(place: Place, length: int) -> str:
    return f"{where(place)}: {length} lines (limit {limit(place)})"


def too_long(found: dict[Place, int]) -> list[str]:
    """The places over their limit that `ALLOWED` does not list, in words."""
    return [
        described(place, length)
        for place, length in sorted(found.items(), key=lambda item: (item[0][0], item[0][1] or ""))
        if length > limit(place) and place not in ALLOWED
    ]


def test_no_module_over_900_lines_and_no_class_over_500() -> None:
    """Issue 34.2: split what is too long by what changes together (or, with a good
    reason, list it in `ALLOWED`)."""
    long = too_long(sizes(ROOT))
    assert not long, "over the limit, and not in ALLOWED:\n" + "\n".join(long)


def test_every_allowed_exception_is_still_needed() -> None:
    """An exception whose file or class is gone, or is under the limit now, leaves the
    list (so that the list says only what is true)."""
    found = sizes(ROOT)
    stale = [
        described(place, found[place]) if place in found else f"{where(place)}: gone"
        for place in ALLOWED
        if found.get(place, 0) <= limit(place)
    ]
    assert not stale, "no longer needed in ALLOWED:\n" + "\n".join(stale)
    assert all(reason.strip() for reason in ALLOWED.values())


def test_the_check_notices_a_long_module_a_long_class_and_a_nested_one(tmp_path: Path) -> None:
    package = tmp_path / "bot"
    package.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(CLASS_LIMIT))
    (package / "long.py").write_text(
        f"import dataclasses\n\n\n@dataclasses.dataclass\nclass Long:\n{body}\n"
        + "\n" * (MODULE_LIMIT - CLASS_LIMIT)
        + "class Outer:\n    class Inner:\n"
        + "\n".join(f"        y{i} = {i}" for i in range(CLASS_LIMIT))
        + "\n",
        encoding="utf-8",
    )
    (package / "short.py").write_text("class Short:\n    pass\n", encoding="utf-8")
    found = sizes(tmp_path, ("bot",))
    assert found[("bot/long.py", "Long")] == CLASS_LIMIT + 2  # the decorator counts
    assert found[("bot/short.py", "Short")] == 2
    assert too_long(found) == [
        f"bot/long.py: {found[('bot/long.py', None)]} lines (limit {MODULE_LIMIT})",
        f"bot/long.py: class Long: {CLASS_LIMIT + 2} lines (limit {CLASS_LIMIT})",
        f"bot/long.py: class Outer: {CLASS_LIMIT + 2} lines (limit {CLASS_LIMIT})",
        f"bot/long.py: class Outer.Inner: {CLASS_LIMIT + 1} lines (limit {CLASS_LIMIT})",
    ]
