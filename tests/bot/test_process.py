"""`python -m bot` as a separate process against a fake Discord on loopback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.bot.fakegateway import FakeGateway


def test_without_a_token_it_explains_how_to_get_one(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,  # no .env here
        env={**env, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "DISCORD_TOKEN is not set" in done.stderr
    assert "applications.commands" in done.stderr and "Reset Token" in done.stderr


async def test_the_bot_process_syncs_plays_and_stops_cleanly(
    fake_gateway: FakeGateway, tmp_path: Path
) -> None:
    ana, ben = fake_gateway.add_user("ana"), fake_gateway.add_user("ben")
    env = {
        **os.environ,
        "DISCORD_TOKEN": "fake-token-not-logged",
        "MONTANA_DB": str(tmp_path / "m.sqlite3"),
        "MONTANA_GUILD_ID": str(fake_gateway.guild_id),
    }
    bot = await fake_gateway.spawn(sys.executable, "-m", "bot", env=env)
    await fake_gateway.wait_connected(timeout=30)
    await fake_gateway.wait_until(
        lambda: fake_gateway.requests("PUT /applications/{id}/guilds/{id}/commands"), timeout=10
    )
    created = await fake_gateway.slash(ana, fake_gateway.channel, "montana", "game", "new")
    lobby = created.original
    assert lobby is not None and "Join" in lobby.button_labels()
    await fake_gateway.press(ben, lobby, label="Join")
    await fake_gateway.press(ana, lobby, label="Start")
    # the press is answered at once (deferred); the picture follows
    await fake_gateway.wait_until(
        lambda: fake_gateway.threads and fake_gateway.messages_in(fake_gateway.threads[-1]),
        timeout=20,
    )
    first = fake_gateway.messages_in(fake_gateway.threads[-1])[-1]
    assert first.files and "drawn at random" in first.content
    assert await bot.terminate() == 0, bot.stderr
    assert "fake-token-not-logged" not in bot.stderr
