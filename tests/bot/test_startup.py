"""Starting `python -m bot` as a newcomer does (issue 12): what it says when it cannot start."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (DEBUG|INFO|WARNING|ERROR|CRITICAL) ")


def start_bot(cwd: Path, settings: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """`python -m bot` in `cwd`, with only `settings` of the bot's own in its environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MONTANA_", "DISCORD_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env={**env, **settings, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=90,
    )


def closed_port() -> int:
    """A loopback port nothing listens on (connecting to it is refused)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def the_one_error_line(stderr: str) -> str:
    """The last line of stderr, which must be the only line that is not a log line at
    INFO or WARNING, and must carry no traceback."""
    lines = stderr.strip().splitlines()
    assert lines, "nothing said"
    assert "Traceback" not in stderr
    others = [line for line in lines[:-1] if not LOG_LINE.match(line) or " ERROR " in line]
    assert not others, f"more than one line about the failure: {others}"
    return lines[-1]


def test_discord_refusing_the_connection_is_one_line_naming_the_address(tmp_path: Path) -> None:
    api = f"http://127.0.0.1:{closed_port()}/api/v10"
    done = start_bot(
        tmp_path,
        {
            "DISCORD_TOKEN": "not-a-real-token",
            "MONTANA_DB": str(tmp_path / "m.sqlite3"),
            "MONTANA_DISCORD_API_BASE": api,
        },
    )
    assert done.returncode == 1
    line = the_one_error_line(done.stderr)
    assert line.startswith(f"Cannot reach Discord at {api} (connection refused); check ")
    assert "network connection" in line and "MONTANA_DISCORD_API_BASE" in line
    assert "--debug" in line
    assert "not-a-real-token" not in done.stderr


def test_a_name_that_does_not_resolve_is_said_as_dns_and_debug_shows_the_traceback(
    tmp_path: Path,
) -> None:
    settings = {
        "DISCORD_TOKEN": "not-a-real-token",
        "MONTANA_DB": str(tmp_path / "m.sqlite3"),
        # .invalid never resolves (RFC 2606), with or without a network
        "MONTANA_DISCORD_API_BASE": "http://discord.invalid/api/v10",
    }
    done = start_bot(tmp_path, settings)
    assert done.returncode == 1
    line = the_one_error_line(done.stderr)
    assert line.startswith("Cannot reach Discord: the name discord.invalid cannot be resolved")
    assert "DNS" in line
    debugged = start_bot(tmp_path, settings, "--debug")
    assert debugged.returncode == 1
    assert "Traceback" in debugged.stderr and "gaierror" in debugged.stderr
    assert debugged.stderr.strip().splitlines()[-1].startswith("Cannot reach Discord: the name")
    assert "not-a-real-token" not in debugged.stderr


def test_a_setting_it_cannot_use_stops_it_with_one_line(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=not-a-real-token\nMONTANA_TURN_HOURS=two days\n", encoding="utf-8"
    )
    done = start_bot(tmp_path, {})
    assert done.returncode == 2
    line = the_one_error_line(done.stderr)
    assert line == (
        "Setting error: MONTANA_TURN_HOURS must be a number of hours from 0.1 to 720 "
        "(fractions allowed, e.g. 0.5 = 30 minutes), not 'two days'"
    )


def test_without_a_token_the_guide_names_every_permission_and_the_env_file(
    tmp_path: Path,
) -> None:
    (tmp_path / ".env").write_text("MONTANA_TURN_HOUR=12\n", encoding="utf-8")
    done = start_bot(tmp_path, {})
    assert done.returncode == 2
    guide = " ".join(done.stderr.split())
    assert "DISCORD_TOKEN is not set" in guide
    for permission in (
        "View Channels",
        "Send Messages,",
        "Send Messages in Threads",
        "Create Public Threads",
        "Attach Files",
        "Embed Links",
        "Read Message History",
    ):
        assert permission in guide
    assert asks_for_the_permissions_named(guide)
    # the .env the bot reads is the one of the folder it was started in, named exactly
    assert f"{tmp_path.resolve() / '.env'}" in done.stderr
    assert "bash scripts/run-bot.sh console --players ana,ben" in guide
    # and a misspelt setting is pointed out, not silently ignored
    assert "MONTANA_TURN_HOUR is not a setting of the bot and is ignored" in done.stderr
    assert "(did you mean MONTANA_TURN_HOURS?)" in done.stderr


def asks_for_the_permissions_named(text: str) -> bool:
    """Whether the invite link in `text` asks for exactly the permissions the guide names."""
    import discord

    (value,) = re.findall(r"permissions=(\d+)", text)
    return discord.Permissions(int(value)) == discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
        create_public_threads=True,
        attach_files=True,
        embed_links=True,
        read_message_history=True,
    )


def test_the_admins_guide_invite_link_asks_for_the_permissions_it_names() -> None:
    assert asks_for_the_permissions_named(
        (ROOT / "docs" / "server-admins.md").read_text(encoding="utf-8")
    )
