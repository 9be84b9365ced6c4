"""The rooms of the project and the directions their imports may take (issue 9;
ARCHITECTURE.md "The shape"): adapter -> core -> render -> rules, front ends -> core;
the message catalogues (`i18n`, issue 13) import no room and every room but the rules
engine may use them.

Every import statement counts, also those inside functions; only imports under
`if TYPE_CHECKING:` (annotations, never executed) are left out.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROJECT_PACKAGES = ("rules", "render", "ai", "i18n", "bot", "tests")
# what every folder of the core above the game flow's own may import
CORE_BASE = ("bot.core.runtime", "bot.core.store", "bot.core.wording", "bot.core.delivery")
ROOMS: dict[str, tuple[str, ...]] = {
    # room (a module prefix)   -> the project rooms it may import, besides itself
    "rules": (),
    "i18n": (),
    "render": ("rules", "i18n"),
    "ai": ("rules",),
    "bot.core": ("render", "rules", "ai", "i18n"),
    **{
        f"bot.core.{folder}": ("render", "rules", "ai", "i18n", *below)
        for folder, below in {
            # the core's folders, each above those it names (issue 34; bot/core/__init__.py)
            "runtime": (),
            "store": ("bot.core.runtime",),
            "wording": ("bot.core.runtime", "bot.core.store"),
            "delivery": ("bot.core.runtime", "bot.core.store", "bot.core.wording"),
            "play": ("bot.core.runtime", "bot.core.store", "bot.core.wording", "bot.core.delivery"),
            "clock": (*CORE_BASE, "bot.core.play"),
            "community": (*CORE_BASE, "bot.core.play", "bot.core.clock"),
            "server": (*CORE_BASE, "bot.core.play", "bot.core.clock", "bot.core.community"),
            "ai_players": (
                *CORE_BASE,
                "bot.core.play",
                "bot.core.clock",
                "bot.core.community",
                "bot.core.server",
            ),
        }.items()
    },
    "bot.discord_app": ("bot.core", "bot.web", "render", "rules", "ai", "i18n"),
    "bot.console": ("bot.core", "render", "rules", "ai", "i18n"),
    "bot.web": ("bot.core", "render", "rules", "i18n"),
    "bot.__main__": ("bot.core", "bot.discord_app", "bot.console", "bot.web"),
    "bot.bench": ("bot.core", "bot.discord_app", "bot.__main__", "rules", "tests"),
    "bot.aibench": ("bot.core", "rules"),
    "bot.webbench": ("bot.core", "bot.bench", "bot.discord_app", "bot.web", "tests"),
    "bot.replaybench": ("bot.core", "bot.discord_app", "rules", "tests"),
}
FORBIDDEN_LIBRARIES: dict[str, tuple[str, ...]] = {
    "rules": ("discord", "PIL", "aiosqlite", "asyncpg", "babel"),
    "i18n": ("discord", "PIL", "aiosqlite", "asyncpg"),
    "render": ("discord", "aiosqlite", "asyncpg"),
    "ai": ("discord", "PIL", "aiosqlite", "asyncpg"),
    "bot.core": ("discord",),
    "bot.console": ("discord",),
    "bot.web": ("discord",),
}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, root: Path = ROOT) -> set[str]:
    """Absolute names of everything `path` imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            found.add(stem)
            found.update(f"{stem}.{alias.name}" for alias in node.names)
    return found


def room_of(module: str) -> str | None:
    """The most specific room a module belongs to."""
    matches = [room for room in ROOMS if module == room or module.startswith(room + ".")]
    return max(matches, key=len, default=None)


def is_within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def violations(root: Path = ROOT) -> list[str]:
    found = []
    for package in PROJECT_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            module = module_name(path, root)
            room = room_of(module)
            if room is None:
                continue
            for target in sorted(imported_modules(path, root)):
                if target.split(".")[0] not in PROJECT_PACKAGES:
                    top = target.split(".")[0]
                    if any(
                        top in libraries
                        for outer, libraries in FORBIDDEN_LIBRARIES.items()
                        if is_within(room, outer)
                    ):
                        found.append(f"{module} imports {target} (not allowed in {room})")
                    continue
                target_room = room_of(target)
                if target_room in (None, room) or target == "bot":
                    continue
                if not any(is_within(target_room, allowed) for allowed in ROOMS[room]):
                    found.append(f"{module} imports {target} ({room} -> {target_room})")
    return found


def test_every_import_points_the_allowed_way() -> None:
    """adapter -> core -> render -> rules; ai -> rules; front ends -> core; the core
    never imports discord.py, the rules engine neither Pillow nor a database."""
    assert violations() == []


def test_the_check_notices_a_wrong_import(tmp_path: Path) -> None:
    """A core module importing the adapter, a function-level discord import and an
    engine module importing the renderer or the catalogues, and the catalogues importing
    the bot are all reported."""
    for package in PROJECT_PACKAGES:
        (tmp_path / package).mkdir()
    (tmp_path / "bot" / "core" / "play").mkdir(parents=True)
    (tmp_path / "bot" / "core" / "play" / "service.py").write_text(
        "from ...discord_app import client\nfrom ..clock import deadlines\n\n"
        "def f():\n    import discord\n"
    )
    (tmp_path / "rules" / "game.py").write_text("import render\nfrom i18n import translator\n")
    (tmp_path / "i18n" / "translator.py").write_text("from bot.core import words\n")
    found = violations(tmp_path)
    assert (
        "bot.core.play.service imports bot.discord_app.client "
        "(bot.core.play -> bot.discord_app)" in found
    )
    assert "bot.core.play.service imports discord (not allowed in bot.core.play)" in found
    # the game flow is below the clock: a deadline hooks into it, never the other way
    assert (
        "bot.core.play.service imports bot.core.clock.deadlines (bot.core.play -> bot.core.clock)"
        in found
    )
    assert "rules.game imports render (rules -> render)" in found
    assert "rules.game imports i18n (rules -> i18n)" in found
    assert "i18n.translator imports bot.core (i18n -> bot.core)" in found


CORE_WITHOUT_DISCORD = """
import importlib, pkgutil, sys
sys.modules["discord"] = None  # any `import discord` now fails
import bot.core
names = [m.name for m in pkgutil.walk_packages(bot.core.__path__, "bot.core.")]
for name in names:
    importlib.import_module(name)
import bot.console
print(len(names))
"""


def test_the_core_and_the_console_work_without_discord_py() -> None:
    """Issue 9: the core never imports discord.py — it loads with discord.py made
    unimportable, and so does the offline console built on it."""
    done = subprocess.run(
        [sys.executable, "-c", CORE_WITHOUT_DISCORD],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) >= 6


@pytest.mark.parametrize("folder", ["bot", "rules", "render"])
def test_no_import_cycle(folder: str) -> None:
    """No import cycle among a package's modules, imports inside functions included."""
    graph: dict[str, set[str]] = {}
    for path in (ROOT / folder).rglob("*.py"):
        graph[module_name(path)] = imported_modules(path)
    for module in graph:
        graph[module] = {t for t in graph[module] if t in graph and t != module}
    visiting: list[str] = []
    done: set[str] = set()

    def visit(module: str) -> None:
        if module in done:
            return
        assert module not in visiting, " -> ".join([*visiting, module])
        visiting.append(module)
        for target in graph[module]:
            if not module.startswith(target + "."):  # a package's __init__ importing itself
                visit(target)
        visiting.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)
