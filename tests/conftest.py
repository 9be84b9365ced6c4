"""Fixtures shared by every test folder: a throwaway PostgreSQL server (`tests.pgserver`).

`postgres_server` starts one server for the whole session; `postgres_url` gives each
test a database of its own. Without PostgreSQL installed the tests using them are
skipped, except under CI (`CI=true`), where that is a failure: `scripts/test.sh`
installs PostgreSQL first, so CI never skips them silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.pgserver import ThrowawayPostgres, find_bin


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[ThrowawayPostgres]:
    if find_bin() is None:
        message = "PostgreSQL is not installed (initdb not found); scripts/test.sh installs it"
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    with ThrowawayPostgres() as server:
        yield server


@pytest.fixture
def postgres_url(postgres_server: ThrowawayPostgres) -> str:
    """The URL of a new, empty database of the session's server."""
    return postgres_server.create_database()
