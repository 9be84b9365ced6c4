"""The engine stays pure (issue 2 "Foundation"; ARCHITECTURE.md: rules/ has no Discord
and no Pillow)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys
import rules
import rules.actions, rules.board, rules.data, rules.game, rules.state
try:
    import rules.simulate
except ModuleNotFoundError as error:
    if error.name != "rules.simulate":
        raise
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("discord", "PIL", "aiosqlite"))
print(",".join(loaded))
"""


def test_importing_rules_loads_neither_discord_nor_pillow() -> None:
    """ARCHITECTURE.md "rules/": the game is pure Python, no Discord, no Pillow, no I/O."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == ""


def test_the_probe_would_notice_such_an_import() -> None:
    """The purity check above can fail: a module that pulls in PIL is reported."""
    probe = "import sys, PIL.Image\nprint(','.join(m for m in sys.modules if m.startswith('PIL')))"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert "PIL" in done.stdout
