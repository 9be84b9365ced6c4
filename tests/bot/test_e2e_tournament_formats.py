"""A knockout of 8, groups then a final table, and a Swiss whose count does not divide
(byes), through real discord.py and the fake Discord (issue 40): each round's tables and
byes as the pure seating function gives them, the champion announced once; and the
options refused with what is allowed, nothing created."""

from __future__ import annotations

from pathlib import Path

from bot.core.community import tournaments as core
from tests.bot.driver import make_bot
from tests.bot.fakediscord import FakeDiscord, FakeUser
from tests.bot.test_server_admin import ADMIN
from tests.bot.tournament_helpers import (
    announcements,
    expected_seating,
    finish_round,
    game_of,
    new_tournament,
    pure,
    record_of,
    sign_up,
)


async def run_to_the_end(
    fake: FakeDiscord, n: int, **options: object
) -> tuple[object, int, list[int]]:
    """Organise, sign `n` players up, start, and play every round; the bot, the
    tournament and each round's (tables, byes) sizes."""
    bot = make_bot(Path(options.pop("db")))  # type: ignore[arg-type]
    await fake.start(bot)
    admin = fake.add_user("admin", permissions=ADMIN)
    players = [fake.add_user(f"p{i}") for i in range(n)]
    users: dict[str, FakeUser] = {str(u.id): u for u in players}
    tournament_id, signup = await new_tournament(fake, admin, name="Cup", **options)
    await sign_up(fake, signup, players)
    await fake.slash(
        admin, fake.channel, "montana-tournament start", options={"tournament": str(tournament_id)}
    )
    await bot.tournament_watch.idle()
    rounds: list[int] = []
    while True:
        record = await record_of(bot, tournament_id)
        if record.tournament.status == "finished":
            break
        number = record.last_round
        expected = expected_seating(record, number, set())
        assert tuple(t.players for t in record.tables[number]) == expected.tables
        assert sorted(record.byes.get(number, ())) == sorted(expected.byes)
        for t in record.tables[number]:
            row = await game_of(bot, t.game_id)
            assert row.status == "active" and len(row.players) == len(t.players)
        rounds.append(len(record.tables[number]))
        await finish_round(fake, bot, record, users)
        assert len(rounds) < 10
    record = await record_of(bot, tournament_id)
    entrants = [e.user_id for e in record.entrants]
    played = core.played_of(record)
    winner = pure().champion(core.plan_from(record.tournament), entrants, played, set())
    assert winner is not None and record.tournament.champion_id == winner
    await bot.service.delivery.run_due()
    over = announcements(fake, "is over. Champion:")
    assert len(over) == 1 and f"<@{winner}>" in over[0].content
    return bot, tournament_id, rounds


async def test_a_knockout_of_eight(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    _, _, rounds = await run_to_the_end(
        fake_discord, 8, db=str(tmp_path / "m.sqlite3"), format="knockout", tables="4", advance=2
    )
    assert rounds == [2, 1]  # two tables of 4, the top 2 of each at the final table


async def test_groups_then_a_final_table(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    _, _, rounds = await run_to_the_end(
        fake_discord, 8, db=str(tmp_path / "m.sqlite3"), format="groups", tables="3-4"
    )
    assert rounds[-1] == 1  # the final table


async def test_a_swiss_at_tables_of_four_gives_byes(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Tables of 3 to 4 seat every field of 6 or more; tables of 4 leave 2 of 10 out."""
    bot, tournament_id, rounds = await run_to_the_end(
        fake_discord, 10, db=str(tmp_path / "m.sqlite3"), format="swiss", tables="4", rounds=2
    )
    record = await record_of(bot, tournament_id)
    assert rounds == [2, 2]
    assert [len(record.byes[n]) for n in (1, 2)] == [2, 2]
    assert not set(record.byes[1]) & set(record.byes[2])  # never twice while avoidable
    said = announcements(fake_discord, "A bye this round for")
    assert len(said) == 2
    assert set(said[0].pinged_ids) == {int(p) for p in record.byes[1]}


async def test_bad_options_are_answered_with_what_is_allowed(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    cases = [
        ({"name": "x", "format": "knockout", "rounds": 4}, "`rounds:` is for a Swiss"),
        ({"name": "x", "rounds": 40}, "`rounds:` is 1 to 15"),
        ({"name": "x", "format": "knockout", "tables": "3-4", "advance": 3}, "1 to 2"),
        ({"name": "x", "advance": 1}, "`advance:` is for a knockout only"),
        ({"name": "x", "signup_hours": 0}, "`signup_hours:` is 1 to 720"),
        ({"name": "x", "size": 1}, "`size:` is 3 to 256"),
        ({"name": " " * 3}, "1 to 60 characters"),
    ]
    for options, words in cases:
        assert isinstance(options, dict)
        said = await fake_discord.slash(
            admin, fake_discord.channel, "montana-tournament new", options=options
        )
        assert said.ephemeral and words in said.text and "Nothing was created" in said.text
    assert await bot.store.tournaments_of(fake_discord.guild_id) == []
    # organising needs the server's opener role, or Manage Server
    role = 4242
    await bot.store.set_guild_settings(fake_discord.guild_id, {"opener_role": str(role)})
    member = fake_discord.add_user("member")
    said = await fake_discord.slash(
        member, fake_discord.channel, "montana-tournament new", options={"name": "Mine"}
    )
    assert "only members with the role <@&4242>" in said.text
    assert await bot.store.tournaments_of(fake_discord.guild_id) == []


async def test_a_knockout_that_cannot_reach_a_final_table_is_not_started(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """8 at tables of 4 where only the winner goes on: its 2 winners make no table."""
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    players = [fake_discord.add_user(f"p{i}") for i in range(8)]
    tournament_id, signup = await new_tournament(
        fake_discord, admin, name="Cup", format="knockout", tables="4"
    )
    await sign_up(fake_discord, signup, players)
    refused = await fake_discord.slash(
        admin,
        fake_discord.channel,
        "montana-tournament start",
        options={"tournament": str(tournament_id)},
    )
    assert "8 players cannot play this tournament to its end at tables of 4" in refused.text
    row = await bot.store.tournament(tournament_id)
    assert row is not None and row.status == "signup"
    assert await bot.store.query("SELECT id FROM games") == []
