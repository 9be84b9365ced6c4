"""Issue 35.6, the options left: page numbers, replay turn ranges and time zones are
checked by the bot itself, not only by Discord's schema. A value outside what exists
(typed, or forged past the schema) is refused to the asker alone with what may be
asked for, quoting at most 40 characters of what was typed, and changes nothing."""

from __future__ import annotations

from pathlib import Path

from tests.bot.driver import embed_of, game_at_main
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_fair_hours import slash_forged
from tests.bot.test_hostile_input import every_table

LONG = "Europe/" + "x" * 5000
REPLAY = ("montana", "game", "replay")


async def test_pages_turns_and_time_zones_outside_what_exists_are_refused_in_words(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "m.sqlite3"
    table, game_id, thread = await game_at_main(fake_discord, db, "ana", "ben")
    ana = table.user((await table.game(game_id))[1].player_ids[0])
    before = every_table(db)

    for page in (0, -3, 2, 10**15):
        log = await fake_discord.slash(ana, thread, "montana game log", options={"page": page})
        assert log.ephemeral
        assert "That page does not exist: choose a page from 1 to 1." in log.content, page
        board = await fake_discord.slash(
            ana, fake_discord.channel, "montana leaderboard", options={"page": page}
        )
        assert board.ephemeral and not embed_of(board)
        assert "That page does not exist: choose a page from 1 to 1." in board.content, page
    # a page that exists is shown as before
    shown = await fake_discord.slash(ana, thread, "montana game log", options={"page": 1})
    assert "Moves, page 1 of 1" in shown.content

    for turns in ("99999999999999999999-3", "3-1", "x" * 5000, "7-99999999999999999999999"):
        replay = await slash_forged(
            fake_discord, ana, thread, REPLAY, {"turns": "1"}, {"turns": turns}
        )
        assert replay.ephemeral and not replay.files, turns
        assert "is not a part of this game" in replay.content, turns
        assert "this game has turns 0 to 0" in replay.content
        assert turns[:41] not in replay.content or len(turns) <= 40

    zone = await slash_forged(
        fake_discord,
        ana,
        thread,
        ("montana", "me", "hours"),
        {"from": "23:00", "to": "07:00", "timezone": "Europe/Warsaw"},
        {"timezone": LONG},
    )
    assert zone.ephemeral
    assert "is not a time zone I know: choose one from the list" in zone.content
    assert f"“{LONG[:40]}”" in zone.content and LONG[:41] not in zone.content
    assert "Nothing was changed" in zone.content
    assert every_table(db) == before
