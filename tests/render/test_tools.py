"""The command line, the benchmark script and the renderer's allowed imports."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import render
from render import __main__ as cli
from render import bench, examples

from .helpers import decode

RENDER_DIR = Path(render.__file__).parent


def test_the_command_line_renders_a_random_game(tmp_path, capsys):
    out = tmp_path / "game.png"
    assert cli.main(["--players", "3", "--seed", "2", "--moves", "40", "--out", str(out)]) == 0
    image = decode(out.read_bytes())
    assert 1.3 <= image.width / image.height <= 1.8 and image.width <= 2000
    assert "awaiting" in capsys.readouterr().out


def test_the_command_line_plays_to_the_end_with_final(tmp_path, capsys):
    out = tmp_path / "final.png"
    assert cli.main(["--players", "2", "--seed", "2", "--final", "--out", str(out)]) == 0
    decode(out.read_bytes())
    assert "over" in capsys.readouterr().out
    game, last_build = cli.play(2, 2, 0, final=True)
    assert game.is_over and last_build in game.fields


def test_the_benchmark_prints_its_figures(capsys):
    # a short game replayed (2 players, seed 5: 81 turns), the default being a long one
    args = ["--renders", "2", "--games", "2", "--moves", "40"]
    assert bench.main([*args, "--replay-players", "2", "--replay-seed", "5"]) == 0
    printed = capsys.readouterr().out
    for words in ("median", "min", "max", "KiB", "px", "first render in a fresh process"):
        assert words in printed
    for words in ("different games", "render caches", "MiB", "wall", "CPU"):
        assert words in printed
    assert "replay of 82 frames" in printed and "peak memory" in printed


def test_the_benchmark_measures_another_checkout_beside_this_one(capsys):
    here = str(RENDER_DIR.parent)
    args = ["--renders", "2", "--games", "1", "--moves", "20", "--no-replay", "--against", here]
    assert bench.main(args) == 0
    printed = capsys.readouterr().out
    assert printed.count("snapshot to PNG") == 2 and f"{here}: snapshot" in printed


def test_the_readme_pictures_are_drawn_at_their_moments(tmp_path, capsys):
    assert examples.main([str(tmp_path)]) == 0
    for name, (players, seed, stop) in examples.EXAMPLES.items():
        decode((tmp_path / name).read_bytes())
        game = examples.play_until(players, seed, stop)
        assert stop(game) or game.is_over, name
    assert "over" in capsys.readouterr().out


def test_render_imports_only_rules_i18n_pillow_zlib_ng_and_the_standard_library():
    # zlib-ng deflates the PNG's rows (render.pngbands), twice as fast as zlib
    allowed = set(sys.stdlib_module_names) | {"rules", "i18n", "PIL", "render", "zlib_ng"}
    for path in RENDER_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                assert module.split(".")[0] in allowed, f"{path.name} imports {module}"


def test_importing_render_loads_no_discord():
    code = "import sys, render; render.render_game; print('discord' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "False"
