"""Settings from the environment and `.env`; the token never shows in a repr."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.clock.deadlines import period_text
from bot.core.server.settings import DEFAULT_DB, SettingsError, load_settings
from bot.discord_app.client import MontanaBot
from i18n import translator
from tests.bot.fakediscord import FakeDiscord


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


def test_fractions_of_hours_are_kept() -> None:
    """Issue 12.6: MONTANA_TURN_HOURS=0.3 silently became 0."""
    settings = load_settings({"MONTANA_TURN_HOURS": "0.3", "MONTANA_AUCTION_HOURS": " 1.5 "}, None)
    assert settings.turn_hours == pytest.approx(0.3)
    assert settings.auction_hours == pytest.approx(1.5)


@pytest.mark.parametrize(
    "name, value, allowed",
    [
        ("MONTANA_TURN_HOURS", "0", "from 0.1 to 720"),
        ("MONTANA_TURN_HOURS", "soon", "from 0.1 to 720"),
        ("MONTANA_TURN_HOURS", "nan", "from 0.1 to 720"),
        ("MONTANA_AUCTION_HOURS", "1000", "from 0.1 to 720"),
        ("MONTANA_AUCTION_HOURS", "-2", "from 0.1 to 720"),
        ("MONTANA_DEADLINE_POLL_SECONDS", "0", "from 1 to 3600"),
        ("MONTANA_GUILD_ID", "my server", "whole number"),
        ("MONTANA_GUILD_ID", "-5", "whole number"),
        ("MONTANA_DISCORD_API_BASE", "127.0.0.1:9", "http://"),
        ("MONTANA_DISCORD_GATEWAY", "http://127.0.0.1:9", "ws://"),
        ("DISCORD_TOKEN", "abc def", "no spaces"),
        ("MONTANA_PICTURE_PROCESSES", "17", "from 0"),
        ("MONTANA_PICTURE_PROCESSES", "two", "from 0"),
        ("MONTANA_AI_PROCESSES", "0", "from 1 to 16"),
        ("MONTANA_AI_PROCESSES", "many", "from 1 to 16"),
        ("MONTANA_METRICS_PORT", "0", "from 1 to 65535"),
        ("MONTANA_METRICS_PORT", "http", "from 1 to 65535"),
        ("MONTANA_METRICS_HOST", "every", "IP address"),
    ],
)
def test_every_setting_is_checked_with_one_line_naming_it(
    name: str, value: str, allowed: str
) -> None:
    with pytest.raises(SettingsError) as refused:
        load_settings({name: value}, None)
    message = str(refused.value)
    assert message.startswith(name + " ") and allowed in message
    assert "\n" not in message
    if name == "DISCORD_TOKEN":
        assert value not in message, "a token, even a wrong one, is never repeated"
    else:
        assert repr(value) in message


def test_a_misspelt_setting_is_named_with_the_one_meant(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("MONTANA_TURN_HOUR=12\nDISCORD_TOKN=abc\n", encoding="utf-8")
    settings = load_settings({"MONTANA_GUILDID": "1", "HOME": "/root"}, dotenv)
    assert settings.turn_hours == 48
    assert settings.warnings == (
        "DISCORD_TOKN is not a setting of the bot and is ignored (did you mean DISCORD_TOKEN?)",
        "MONTANA_GUILDID is not a setting of the bot and is ignored "
        "(did you mean MONTANA_GUILD_ID?)",
        "MONTANA_TURN_HOUR is not a setting of the bot and is ignored "
        "(did you mean MONTANA_TURN_HOURS?)",
    )


def test_the_example_file_lists_every_setting_and_is_valid() -> None:
    example = Path(__file__).resolve().parents[2] / ".env.example"
    settings = load_settings({}, example)
    assert settings.warnings == ()
    text = example.read_text(encoding="utf-8")
    for name in (
        "DISCORD_TOKEN",
        "MONTANA_DB",
        "MONTANA_GUILD_ID",
        "MONTANA_TURN_HOURS",
        "MONTANA_AUCTION_HOURS",
        "MONTANA_DEADLINE_POLL_SECONDS",
        "MONTANA_DISCORD_API_BASE",
        "MONTANA_DISCORD_GATEWAY",
    ):
        assert f"{name}=" in text


async def test_a_fraction_of_an_hour_becomes_the_new_games_deadline(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    settings = load_settings(
        {"MONTANA_TURN_HOURS": "0.3", "MONTANA_DB": str(tmp_path / "m.sqlite3")}, None
    )
    bot = MontanaBot(settings)
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")
    await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new")
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None and row.turn_seconds == 18 * 60
    shown = await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "settings")
    assert "turn deadline 18 minutes" in shown.content


def test_shards_are_read_as_numbers_and_ranges_and_checked_against_the_count() -> None:
    from bot.core.store import Shards
    from bot.discord_app.client import ShardedMontanaBot, make_bot

    sharded = load_settings({"MONTANA_SHARD_COUNT": "4", "MONTANA_SHARDS": "0, 2-3"}, None)
    assert sharded.shards == Shards(4, (0, 2, 3))
    assert load_settings({"MONTANA_SHARD_COUNT": "2"}, None).shards == Shards(2, (0, 1))
    assert load_settings({}, None).shards is None
    assert isinstance(make_bot(sharded), ShardedMontanaBot)
    assert not isinstance(make_bot(load_settings({}, None)), ShardedMontanaBot)
    refusals = {
        "MONTANA_SHARDS needs MONTANA_SHARD_COUNT": {"MONTANA_SHARDS": "1"},
        "from 0 to 1 .* not '2'": {"MONTANA_SHARD_COUNT": "2", "MONTANA_SHARDS": "2"},
        "MONTANA_SHARD_COUNT must be .* not '0'": {"MONTANA_SHARD_COUNT": "0"},
        "numbers and ranges, e.g. 0,1 or 0-3, not 'a-'": {
            "MONTANA_SHARD_COUNT": "2",
            "MONTANA_SHARDS": "a-",
        },
        "not '0-99999999'": {"MONTANA_SHARD_COUNT": "2", "MONTANA_SHARDS": "0-99999999"},
    }
    for why, environ in refusals.items():
        with pytest.raises(SettingsError, match=why):
            load_settings(environ, None)


def test_pictures_are_drawn_in_two_worker_processes_unless_told() -> None:
    # drawing in a thread of the bot starves its event loop (issue 15.7): the bot started
    # from the environment draws in processes; 0 keeps the thread
    assert load_settings({}, None).picture_processes == 2
    assert load_settings({"MONTANA_PICTURE_PROCESSES": "0"}, None).picture_processes == 0
    assert load_settings({"MONTANA_PICTURE_PROCESSES": "4"}, None).picture_processes == 4


def test_the_ai_seats_worker_pool_size_is_a_setting() -> None:
    assert load_settings({}, None).ai_processes == 1
    assert load_settings({"MONTANA_AI_PROCESSES": "3"}, None).ai_processes == 3


def test_deadline_lengths_are_worded_by_babel_in_the_readers_language() -> None:
    """Issue 24.3: a deadline's length comes from CLDR in the reader's language, never
    as a unit built in the code ("48 h" read "48 h以内" in Japanese)."""
    lengths = {
        language: [period_text(s, translator(language)) for s in (48 * 3600, 5400, 1)]
        for language in ("en", "fr", "pl", "ja")
    }
    assert lengths == {
        "en": ["48 hours", "1 hour 30 minutes", "1 minute"],
        "fr": ["48\u00a0heures", "1\u00a0heure 30 minutes", "1 minute"],
        "pl": ["48 godzin", "1 godzina 30 minut", "1 minuta"],
        "ja": ["48時間", "1時間30分", "1分"],
    }


def test_metrics_are_served_only_when_a_port_is_given() -> None:
    assert load_settings({}, None).metrics_port is None
    served = load_settings({"MONTANA_METRICS_PORT": "9464"}, None)
    assert (served.metrics_host, served.metrics_port) == ("127.0.0.1", 9464)
    everywhere = {"MONTANA_METRICS_PORT": "9464", "MONTANA_METRICS_HOST": "0.0.0.0"}
    assert load_settings(everywhere, None).metrics_host == "0.0.0.0"
