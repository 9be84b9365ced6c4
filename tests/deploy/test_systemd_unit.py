"""deploy/montana-bot.service: a unit systemd accepts, restarting what a restart can mend.

`systemd-analyze verify` checks it where systemd is installed (the test is skipped,
saying so, where it is not); the settings the operators' guide promises are checked everywhere.
"""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "montana-bot.service"
INSTALLED_AT = "/opt/montana"
"""Where the unit expects the repository (docs/operators.md: "Running under systemd")."""


def service_section() -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text(encoding="utf-8"))
    return dict(parser["Service"])


def test_a_restart_only_for_what_a_restart_can_mend() -> None:
    service = service_section()
    assert service["Restart"] == "on-failure"
    # status 1 (could not start) and 2 (a setting is wrong) need a person
    assert service["RestartPreventExitStatus"].split() == ["1", "2"]
    assert service["KillSignal"] == "SIGTERM"  # the bot's clean shutdown


def test_runs_as_its_own_user_with_its_settings_file() -> None:
    service = service_section()
    assert service["User"] not in ("", "root")
    assert service["EnvironmentFile"].startswith("/")
    assert service["ExecStart"] == f"{INSTALLED_AT}/.venv/bin/python -m bot"
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    # the one writable place is the state directory the database lives in
    assert service["WorkingDirectory"] == f"/var/lib/{service['StateDirectory']}"


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed here (apt-get install systemd)",
)
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    # verify wants the command to exist: point the unit at this checkout's interpreter
    unit = tmp_path / UNIT.name
    interpreter = Path(sys.executable)
    text = UNIT.read_text(encoding="utf-8")
    unit.write_text(
        text.replace(f"{INSTALLED_AT}/.venv/bin/python", str(interpreter)), encoding="utf-8"
    )
    verified = subprocess.run(
        ["systemd-analyze", "verify", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    complaints = [
        line for line in (verified.stdout + verified.stderr).splitlines() if unit.name in line
    ]
    assert verified.returncode == 0 and not complaints, verified.stdout + verified.stderr
