"""Who sees which language (issue 13 point 4), through real discord.py and the fake Discord.

What only one player sees (a refusal, an ephemeral answer) is in their Discord client's
language (`interaction.locale`); what everyone at the table sees (the lobby, the thread's
messages) is in the game's language, by default the server's preferred locale, chosen with
`/montana game new language:` and changed by the opener in `/montana game settings`.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.core.clock.deadlines import parse_time
from tests.bot.driver import (
    Table,
    game_at_main,
    make_bot,
    open_game,
    original,
    to_main_decision,
)
from tests.bot.fakediscord import FakeDiscord
from tests.bot.fakediscord.model import iter_components


def localized(item: dict[str, Any], name: str) -> dict[str, Any]:
    """The option or subcommand `name` of a synced command payload."""
    return next(option for option in item["options"] if option["name"] == name)


async def test_a_french_player_in_a_polish_game_is_answered_in_french_and_the_table_in_polish(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake_discord.world.guild_locale = "pl"
    bot = make_bot(tmp_path / "m.sqlite3", seed=3)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    ana = fake_discord.add_user("ana")
    ana.locale = "pl"
    ben = fake_discord.add_user("ben")
    ben.locale = "fr"
    # the game takes the server's preferred locale: its lobby is Polish, for everyone
    created = await fake_discord.slash(ana, fake_discord.channel, "montana", "game", "new")
    lobby = created.original
    assert lobby is not None and not lobby.ephemeral
    assert "otwarta jest nowa gra" in lobby.content and "Język: Polski" in lobby.content
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None and row.language == "pl"
    await fake_discord.press(ben, lobby, label="Dołącz")
    # Ben's own answers are French, whatever the game's language
    again = await fake_discord.press(ben, lobby, label="Dołącz")
    assert again.ephemeral
    assert again.content == "Vous avez déjà rejoint cette partie."
    shown = await fake_discord.slash(ben, fake_discord.channel, "montana", "game", "settings")
    assert shown.ephemeral and shown.content.startswith("Délais de cette partie\u202f: ")
    assert "Sa langue\u202f: Polski." in shown.content
    # only the opener may change the language: Ben is told so in French, nothing changes
    refused = await fake_discord.slash(
        ben, fake_discord.channel, "montana", "game", "settings", options={"language": "ja"}
    )
    assert refused.ephemeral
    assert refused.content.startswith("Seul le joueur qui a ouvert la partie")
    assert (await table.row(row.id)).language == "pl"
    # the lobby's buttons were drawn in Polish; the game starts from them
    await fake_discord.press(ana, lobby, label="Start")
    row = await table.row(row.id)
    assert row.status == "active"
    # the public outcome of a Polish game is Polish; the store remembers who speaks what
    assert "gra toczy się w" in (fake_discord.world.messages[lobby.id].content)
    assert await bot.store.locales([str(ana.id), str(ben.id)]) == {
        str(ana.id): "pl",
        str(ben.id): "fr",
    }
    thread = fake_discord.channel_by_id(row.play_channel_id)
    # the game's own messages are Polish: the seat draw, then a move and the next prompt
    first = fake_discord.messages_in(thread)[0]
    assert first.content.startswith("Kolejność miejsc, wylosowana: ")
    table.users = {str(ana.id): ana, str(ben.id): ben}
    await to_main_decision(table, row.id)
    row, game = await table.game(row.id)
    awaited = game.awaiting
    assert awaited is not None
    prompt = table.prompt_message(row)
    assert f"<@{awaited}>, twoja tura: zatrudnianie, praca lub budowa." in prompt.content
    # Ben's panel, opened from that Polish message, is French; so is his receipt
    if awaited == str(ben.id):
        panel = await fake_discord.press(ben, prompt, label="Praca…")
        assert panel.ephemeral and panel.content.startswith("Récolter où\u202f?")
    else:
        wrong = await fake_discord.press(ben, prompt, label="Zatrudnianie")
        assert wrong.ephemeral and wrong.content.startswith("Ce n’est pas à vous de jouer. ")
    await fake_discord.press(table.user(awaited), prompt, label="Zatrudnianie")
    # the same player goes on: their Polish prompt is edited in place with the move said
    newest = fake_discord.messages_in(thread)[-1]
    assert f"{row.names[awaited]} zatrudnia i wykręca: " in newest.content
    assert "wybierz kolory swoich dwóch białych robotników." in newest.content
    assert "Choose" not in newest.content
    outsider = fake_discord.add_user("eve")
    outsider.locale = "ja"
    typed = await fake_discord.slash(outsider, thread, "montana", "recruit")
    assert typed.ephemeral and typed.content.startswith("あなたはこのゲームに参加していません。")


async def test_the_opener_chooses_the_language_and_changes_it_for_the_table(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = make_bot(tmp_path / "m.sqlite3")
    await fake_discord.start(bot)
    ana = fake_discord.add_user("ana")  # an en-US client on an en-US server
    created = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "game", "new", options={"language": "fr"}
    )
    assert created.original is not None
    assert "une nouvelle partie est ouverte" in created.original.content
    assert [b["label"] for b in _buttons(created.original.payload)] == [
        "Rejoindre",
        "Quitter",
        "Commencer",
        "Ajouter une IA (facile)",
        "Ajouter une IA",
        "Ajouter une IA (difficile)",
        "Retirer une IA",
    ]
    changed = await fake_discord.slash(
        ana, fake_discord.channel, "montana", "game", "settings", options={"language": "ja"}
    )
    # said to the table in the game's new language
    assert not changed.ephemeral
    assert changed.content == "Anaがゲームの言語を設定しました：日本語。"
    row = await bot.store.open_game_in(fake_discord.channel.id)
    assert row is not None and row.language == "ja"


def _buttons(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The buttons of a message, in order, inside its card's rows too."""
    return [c for c in iter_components(payload.get("components", [])) if c.get("type") == 2]


async def test_the_synced_commands_carry_the_names_of_each_language(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """What discord.py sends Discord at sync, read where the fake Discord stored it."""
    await fake_discord.start(make_bot(tmp_path / "m.sqlite3"))
    (montana,) = [c for c in fake_discord.world.global_commands if c["name"] == "montana"]
    assert montana["description_localizations"]["pl"] == (
        "Graj w grę planszową Montana na tym kanale"
    )
    game = localized(montana, "game")
    assert game["name_localizations"] == {"fr": "partie", "pl": "gra", "ja": "ゲーム"}
    new = localized(game, "new")
    assert new["name_localizations"] == {"fr": "nouvelle", "pl": "nowa", "ja": "新規"}
    language = localized(new, "language")
    assert language["name_localizations"] == {"fr": "langue", "pl": "język", "ja": "言語"}
    # each language is offered in its own name, in every client
    assert [(c["name"], c["value"]) for c in language["choices"]] == [
        ("English", "en"),
        ("Français", "fr"),
        ("Polski", "pl"),
        ("日本語", "ja"),
    ]
    build = localized(montana, "build")
    assert build["name_localizations"] == {"fr": "construire", "pl": "buduj", "ja": "建築"}
    assert build["description_localizations"]["fr"] == "Construire un campement sur une région"


async def test_a_reminder_by_dm_is_in_the_players_language_and_the_thread_in_the_games(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A DM is sent outside any interaction: its language is the one the player's client
    was last seen in (remembered by the store), not the game's."""
    bot = make_bot(tmp_path / "m.sqlite3", seed=3)
    await fake_discord.start(bot)
    table = Table(fake_discord, bot)
    game_id, thread, _ = await open_game(fake_discord, table, fake_discord.channel, "ana", "ben")
    await to_main_decision(table, game_id)
    row, game = await table.game(game_id)
    late = game.awaiting
    assert late is not None and row.language == "en"
    user = table.user(late)
    user.locale = "ja"
    chose = await fake_discord.slash(
        user, thread, "montana", "me", "notify", options={"mode": "dm"}
    )
    assert chose.content.startswith("設定しました：")
    (last,) = await bot.store.moves(game_id, offset=row.version - 1, limit=1)
    moment = parse_time(last.at) + timedelta(hours=25)
    await bot.deadlines.stop()
    bot.deadlines.clock = lambda: moment
    assert await bot.deadlines.run_due() == 1
    (dm,) = fake_discord.dms(user)
    assert dm.content.startswith(f"リマインダー：ゲームは{row.names[late]}を待っています：")
    reminder = fake_discord.messages_in(thread)[-1]
    assert reminder.content.startswith(f"⏰ Reminder — <@{late}>, your turn: ")


async def test_a_hint_is_said_in_the_askers_language_with_the_ais_reasons(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    table, game_id, thread = await game_at_main(fake_discord, tmp_path / "m.sqlite3", "ana", "ben")
    row, game = await table.game(game_id)
    pid = game.awaiting
    assert pid is not None and row.language == "en"
    table.user(pid).locale = "pl"
    asked = await fake_discord.slash(table.user(pid), thread, "montana", "hint")
    # Polish words around the notation (which stays as typed), a Polish button
    assert asked.ephemeral and asked.text.startswith("💡 AI proponuje **")
    suggested = asked.text.split("**")[1]
    assert suggested in {str(a) for a in game.legal_actions(pid)}
    reasons = asked.text.split(" — ", 1)[1]
    assert reasons and not any(word in reasons for word in (" now", "gets ", "takes "))
    assert "▶ Zagraj to" in original(asked).button_labels()
