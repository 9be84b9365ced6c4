"""Settings from the environment and `.env`; the token never shows in a repr."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.settings import DEFAULT_DB, SettingsError, load_settings


def test_environment_wins_over_dotenv(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "# comment\nDISCORD_TOKEN='from-file'\nexport MONTANA_DB=/data/m.sqlite3\n"
        "MONTANA_GUILD_ID=42\n\nnot a setting\n",
        encoding="utf-8",
    )
    settings = load_settings({"DISCORD_TOKEN": "from-env"}, dotenv)
    assert settings.token == "from-env"
    assert settings.db_path == "/data/m.sqlite3"
    assert settings.guild_id == 42
    assert "from-env" not in repr(settings)


def test_defaults_and_bad_values(tmp_path: Path) -> None:
    settings = load_settings({}, tmp_path / "missing.env")
    assert settings.token is None and settings.db_path == DEFAULT_DB
    assert settings.guild_id is None and settings.api_base is None
    with pytest.raises(SettingsError, match="MONTANA_GUILD_ID"):
        load_settings({"MONTANA_GUILD_ID": "my server"}, None)
