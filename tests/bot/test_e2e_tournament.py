"""A Swiss tournament through real discord.py and the fake Discord (issue 40): organised
with `/montana-tournament new`, signed up with the Join/Leave buttons, started by the
organiser; each round's tables opened in threads of the server's games channel, their
players mentioned once, and checked against the pure seating function; a drop-out not
seated again; a bye where the count does not divide; the standings embed in the pure
standings' order; the champion announced once."""

from __future__ import annotations

from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from bot.core.community import tournaments as core
from bot.web.app import make_app
from tests.bot.driver import embed_of, make_bot, original
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


async def test_a_swiss_of_ten_over_three_rounds_with_a_drop_out(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    games = fake_discord.add_channel("games")
    await fake_discord.slash(
        admin, fake_discord.channel, "montana server settings", options={"games_channel": games}
    )
    players = [fake_discord.add_user(f"p{i}") for i in range(10)]
    users: dict[str, FakeUser] = {str(u.id): u for u in players}
    tournament_id, signup = await new_tournament(
        fake_discord, admin, name="Autumn Cup", format="swiss", tables="3-4", rounds=3
    )
    assert "Autumn Cup" in signup.content and "Swiss, 3 rounds" in signup.content
    assert signup.button_labels() == ["Join", "Leave"]
    await sign_up(fake_discord, signup, players)
    # Leave takes a sign-up back, Join again puts the player last in sign-up order
    left = await fake_discord.press(players[0], signup, label="Leave")
    assert left.response_type == 7
    await sign_up(fake_discord, signup, players[:1])
    again = await fake_discord.press(players[0], signup, label="Join")
    assert again.ephemeral and "You are signed up already" in again.text
    record = await record_of(bot, tournament_id)
    assert [e.user_id for e in record.entrants] == [str(u.id) for u in players[1:] + players[:1]]
    assert "10 players signed up" in fake_discord.world.messages[signup.id].content
    # only the organiser (or a manager) starts it
    refused = await fake_discord.slash(
        players[1],
        fake_discord.channel,
        "montana-tournament start",
        options={"tournament": str(tournament_id)},
    )
    assert "Only the tournament's organiser" in refused.text
    started = await fake_discord.slash(
        admin,
        fake_discord.channel,
        "montana-tournament start",
        options={"tournament": str(tournament_id)},
    )
    assert "The tournament has started" in original(started).content
    await bot.tournament_watch.idle()
    assert fake_discord.world.messages[signup.id].button_labels() == []  # sign-up closed
    late = fake_discord.add_user("late")
    dropped: set[str] = set()
    for number in (1, 2, 3):
        record = await record_of(bot, tournament_id)
        assert record.last_round == number
        expected = expected_seating(record, number, dropped)
        tables = record.tables[number]
        assert tuple(t.players for t in tables) == expected.tables
        assert sorted(record.byes.get(number, ())) == sorted(expected.byes)
        assert not dropped & {p for t in tables for p in t.players}
        for t in tables:
            row = await game_of(bot, t.game_id)
            assert row.status == "active" and row.thread_id is not None
            assert fake_discord.channel_by_id(row.thread_id).parent_id == games.id
            assert {s.user_id for s in row.players} == set(t.players)
            said = announcements(fake_discord, f"round {number}, table {t.number}:")
            assert len(said) == 1 and set(said[0].pinged_ids) == {int(p) for p in t.players}
        if number == 2:
            # a player drops out: their game of this round goes on; not seated again
            quitter = players[3]
            dropping = await fake_discord.slash(
                quitter,
                fake_discord.channel,
                "montana-tournament drop",
                options={"tournament": str(tournament_id)},
            )
            assert "dropped out of Autumn Cup" in dropping.text
            dropped.add(str(quitter.id))
        await finish_round(fake_discord, bot, record, users)
    del late
    record = await record_of(bot, tournament_id)
    assert record.tournament.status == "finished"
    entrants = [e.user_id for e in record.entrants]
    plan = core.plan_from(record.tournament)
    played = core.played_of(record)
    winner = pure().champion(plan, entrants, played, dropped)
    assert winner is not None and record.tournament.champion_id == winner
    await bot.service.delivery.run_due()
    over = announcements(fake_discord, "is over. Champion:")
    assert len(over) == 1 and f"<@{winner}>" in over[0].content
    assert over[0].pinged_ids == [int(winner)]
    # the standings: the pure function's order, in an embed
    shown = await fake_discord.slash(
        players[5],
        fake_discord.channel,
        "montana-tournament standings",
        options={"tournament": str(tournament_id)},
    )
    embed = embed_of(shown)
    assert embed["title"] == "🏆 Autumn Cup — standings"
    names = {e.user_id: e.name for e in record.entrants}
    lines = pure().standings(plan, entrants, played, dropped)
    text = embed["description"]
    positions = [text.index(f"  {names[s.user_id]}") for s in lines]
    assert positions == sorted(positions)
    assert "✗" in text  # the drop-out marked
    # the server's web page lists it; its page shows the same standings
    token = await bot.store.server_web_token(fake_discord.guild_id, "Montana Test")
    server = TestServer(make_app(bot.store), host="127.0.0.1")
    async with TestClient(server) as http:
        page = await (await http.get(f"/s/{token}")).text()
        assert f'href="/s/{token}/t/{tournament_id}?lang=en">Autumn Cup</a>' in page
        answer = await http.get(f"/s/{token}/t/{tournament_id}")
        assert answer.status == 200
        web = await answer.text()
        standings = web[web.index('<pre id="standings">') :]
        positions = [standings.index(f"  {names[s.user_id]}") for s in lines]
        assert positions == sorted(positions)
        assert f"Champion: {names[winner]}." in web
        assert (await http.get(f"/s/{token}/t/{tournament_id + 1}")).status == 404
        assert (await http.get(f"/s/nothing/t/{tournament_id}")).status == 404


async def test_a_full_sign_up_the_standings_before_the_start_and_a_cancel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    admin = fake_discord.add_user("admin", permissions=ADMIN)
    ana, ben, cleo, dan = (fake_discord.add_user(n) for n in ("ana", "ben", "cleo", "dan"))
    tournament_id, signup = await new_tournament(
        fake_discord, admin, name="Small", tables="3", size=3, signup_hours=48
    )
    assert "Sign-up closes <t:" in signup.content
    await sign_up(fake_discord, signup, [ana, ben, cleo])
    assert "3 of 3 places taken: Ana, Ben, Cleo" in fake_discord.world.messages[signup.id].content
    full = await fake_discord.press(dan, signup, label="Join")
    assert full.ephemeral and "This tournament is full" in full.text
    option = {"tournament": str(tournament_id)}
    early = await fake_discord.slash(
        dan, fake_discord.channel, "montana-tournament standings", options=option
    )
    assert "Sign-up is open" in embed_of(early)["description"]
    outsider = await fake_discord.slash(
        dan, fake_discord.channel, "montana-tournament drop", options=option
    )
    assert f"<@{dan.id}> is not signed up" in outsider.text
    refused = await fake_discord.slash(
        ana, fake_discord.channel, "montana-tournament cancel", options=option
    )
    assert "Only the tournament's organiser" in refused.text
    other = await fake_discord.slash(
        ana, fake_discord.channel, "montana-tournament standings", options={"tournament": "999"}
    )
    assert "There is no such tournament on this server" in other.text
    cancelled = await fake_discord.slash(
        admin, fake_discord.channel, "montana-tournament cancel", options=option
    )
    assert "Small is cancelled" in cancelled.text
    shown = fake_discord.world.messages[signup.id]
    assert "This tournament was cancelled." in shown.content and shown.button_labels() == []
    row = await bot.store.tournament(tournament_id)
    assert row is not None and row.status == "cancelled"
    again = await fake_discord.slash(
        admin, fake_discord.channel, "montana-tournament start", options=option
    )
    assert "This tournament was cancelled." in again.text
    assert await bot.store.query("SELECT id FROM games") == []
