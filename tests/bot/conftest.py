"""Fixtures for end-to-end bot tests through real discord.py (see ``fakediscord/``).

* ``fake_discord``: an in-process :class:`FakeDiscord` (one guild, channel "general"). Start your
  client with ``await fake_discord.start(client)``. At teardown every client is closed and the
  test fails if ``fake_discord.errors`` is not empty (exceptions in commands, views, dynamic
  items or events; unanswered, late or doubly answered interactions; messages Discord would
  reject). Clear ``errors`` in a test that provokes one on purpose, after asserting on it.
* ``fake_gateway``: a :class:`FakeGateway` serving a websocket gateway and REST on 127.0.0.1,
  for bots running as a separate process (give it ``fake_gateway.env()``); same teardown check.
* ``database``: each test twice, on a SQLite file and on the test PostgreSQL server (its URL);
  ``store``: the store opened on it, closed after the test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.store import Store, open_store
from tests.bot.fakediscord import FakeDiscord
from tests.bot.fakegateway import FakeGateway


def _fail_on_errors(errors: list[str]) -> None:
    if errors:
        listing = "\n".join(f"  - {e}" for e in errors)
        pytest.fail(f"the fake Discord recorded {len(errors)} problem(s):\n{listing}")


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    try:
        yield fake
    finally:
        await fake.close()
    _fail_on_errors(fake.errors)


@pytest.fixture
async def fake_gateway() -> AsyncIterator[FakeGateway]:
    async with FakeGateway() as gateway:
        yield gateway
    _fail_on_errors(gateway.errors)


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "m.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    store = await open_store(database)
    yield store
    await store.close()
