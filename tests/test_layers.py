"""The rooms of the project and the directions their imports may take (issue 9;
ARCHITECTURE.md "The shape"): adapter -> core -> render -> rules, front ends -> core;
the message catalogues (`i18n`, issue 13) import no room and every room but the rules
engine may use them. Inside the core and inside the Discord adapter, each capability's
folder imports only those below it (issue 34).

Every import statement counts, also those inside functions; only imports under
`if TYPE_CHECKING:` (annotations, never executed) are left out of the rooms' check. No
import circle may exist either, not even one closed by such type-only imports.
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
# what the Discord adapter may import outside itself
ADAPTER_OUTSIDE = ("bot.core", "bot.web", "render", "rules", "ai", "i18n")
# the adapter's modules beside its folders, which every folder may import
ADAPTER_BASE = tuple(
    f"bot.discord_app.{module}"
    for module in ("app", "cards", "components", "emojis", "group", "guard", "translator")
)
# the adapter's folders, lowest first: the core's order (issue 34; bot/discord_app/__init__.py)
ADAPTER_FOLDERS = ("delivery", "play", "clock", "community", "server", "ai_players")
ROOMS: dict[str, tuple[str, ...]] = {
    # room (a module prefix)   -> the project rooms it may import, besides itself
    "rules": (),
    "i18n": (),
    "render": ("rules", "i18n"),
    "ai": ("rules",),
    "bot.core": ("render", "rules", "ai", "i18n"),
    # the service as front ends build it: the game flow with every capability's hooks
    "bot.core.assembly": ("render", "rules", "ai", "i18n", "bot.core"),
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
    "bot.discord_app": ADAPTER_OUTSIDE,
    **{
        # the adapter's base modules, under every feature (bot/discord_app/__init__.py)
        f"bot.discord_app.{module}": (*ADAPTER_OUTSIDE, *(f"bot.discord_app.{m}" for m in below))
        for module, below in {
            "app": (),  # the protocol of what the features use of the bot
            "translator": (),
            "cards": ("emojis",),  # messages as cards (Components V2), icons in their words
            "emojis": (),  # the game's icons as the application's emojis
            "components": ("app", "cards", "emojis"),
            "guard": ("app", "cards", "components", "emojis"),
            "group": ("app", "cards", "components", "emojis", "guard"),
        }.items()
    },
    **{
        # the adapter's folders, layered like the core's: each above those it names
        f"bot.discord_app.{folder}": (
            *ADAPTER_OUTSIDE,
            *ADAPTER_BASE,
            *(f"bot.discord_app.{f}" for f in ADAPTER_FOLDERS[:i]),
        )
        for i, folder in enumerate(ADAPTER_FOLDERS)
    },
    # the top: the client assembles every feature, `run` runs the client
    "bot.discord_app.client": (
        *ADAPTER_OUTSIDE,
        "bot.discord_app",  # `from bot.discord_app import components`
        *ADAPTER_BASE,
        *(f"bot.discord_app.{f}" for f in ADAPTER_FOLDERS),
    ),
    "bot.discord_app.run": (
        *ADAPTER_OUTSIDE,
        "bot.discord_app",
        *ADAPTER_BASE,
        *(f"bot.discord_app.{f}" for f in ADAPTER_FOLDERS),
        "bot.discord_app.client",
    ),
    "bot.console": ("bot.core", "render", "rules", "ai", "i18n"),
    "bot.web": ("bot.core", "render", "rules", "i18n"),
    "bot.__main__": ("bot.core", "bot.discord_app", "bot.console", "bot.web"),
    "bot.bench": ("bot.core", "bot.discord_app", "bot.__main__", "rules", "tests"),
    "bot.chaos": ("bot.core", "bot.discord_app", "bot.__main__", "rules", "tests"),
    "bot.aibench": ("bot.core", "rules"),
    "bot.webbench": (
        "bot.core",
        "bot.bench",
        "bot.discord_app",
        "bot.web",
        "bot.webplaybench",
        "tests",
    ),
    "bot.webplaybench": ("bot.core", "bot.bench", "bot.discord_app", "bot.web", "rules", "tests"),
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


def imported_modules(path: Path, root: Path = ROOT, *, types: bool = False) -> set[str]:
    """Absolute names of everything `path` imports (relative imports resolved); those
    under `if TYPE_CHECKING:` only with `types`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if not types and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
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
    adapter = tmp_path / "bot" / "discord_app"
    (adapter / "delivery").mkdir(parents=True)
    (adapter / "delivery" / "announce.py").write_text(
        "from ..community.replay import replay_view\nfrom ..components import reply\n"
    )
    (adapter / "components.py").write_text("from .play import presses\n")
    found = violations(tmp_path)
    assert (
        "bot.core.play.service imports bot.discord_app.client "
        "(bot.core.play -> bot.discord_app.client)" in found
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
    # the adapter's folders are layered like the core's, above its base modules
    assert (
        "bot.discord_app.delivery.announce imports bot.discord_app.community.replay "
        "(bot.discord_app.delivery -> bot.discord_app.community)" in found
    )
    assert not any("imports bot.discord_app.components" in line for line in found)
    assert (
        "bot.discord_app.components imports bot.discord_app.play.presses "
        "(bot.discord_app.components -> bot.discord_app.play)" in found
    )


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


def import_cycle(folder: str, root: Path = ROOT, *, types: bool = False) -> list[str]:
    """An import cycle among the modules of `folder` (a package), as module -> ... ->
    the same module; none: []. With `types`, imports under `if TYPE_CHECKING:` count."""
    graph: dict[str, set[str]] = {}
    for path in (root / folder).rglob("*.py"):
        graph[module_name(path, root)] = imported_modules(path, root, types=types)
    for module in graph:
        graph[module] = {
            t
            for t in graph[module]
            # a package's __init__ importing itself is no cycle
            if t in graph and t != module and not module.startswith(t + ".")
        }
    visiting: list[str] = []
    done: set[str] = set()

    def visit(module: str) -> list[str]:
        if module in visiting:
            return [*visiting[visiting.index(module) :], module]
        if module in done:
            return []
        visiting.append(module)
        for target in sorted(graph[module]):
            cycle = visit(target)
            if cycle:
                return cycle
        visiting.pop()
        done.add(module)
        return []

    for module in sorted(graph):
        cycle = visit(module)
        if cycle:
            return cycle
    return []


@pytest.mark.parametrize("folder", ["bot", "rules", "render"])
def test_no_import_cycle(folder: str) -> None:
    """No import cycle among a package's modules, imports inside functions included."""
    assert import_cycle(folder) == []


@pytest.mark.parametrize("folder", ["bot", "i18n", "rules", "render"])
def test_no_import_cycle_even_for_types(folder: str) -> None:
    """Issue 34: no circle of imports, not even one closed by imports for type hints
    only (a feature of the adapter naming the client class that imports it): a reader
    need not hold a circle in their head. The features use `bot.discord_app.app`'s
    protocol instead."""
    assert " -> ".join(import_cycle(folder, types=True)) == ""


def test_the_cycle_check_notices_a_circle_closed_for_types(tmp_path: Path) -> None:
    """A feature importing the client that imports it, under `if TYPE_CHECKING:`, is a
    cycle for the type-aware check only."""
    package = tmp_path / "bot" / "discord_app"
    (package / "play").mkdir(parents=True)
    (package / "client.py").write_text("from .play import lobby\n")
    (package / "play" / "lobby.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
        "    from bot.discord_app.client import MontanaBot\n"
    )
    assert import_cycle("bot", tmp_path) == []
    assert import_cycle("bot", tmp_path, types=True) == [
        "bot.discord_app.client",
        "bot.discord_app.play.lobby",
        "bot.discord_app.client",
    ]
