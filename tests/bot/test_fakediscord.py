"""Self-tests of the fake Discord harness, driving a tiny demo bot through real discord.py."""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from PIL import Image

from tests.bot.fakediscord import (
    AUTOCOMPLETE,
    DEFERRED_MESSAGE,
    MESSAGE,
    MODAL,
    UPDATE,
    FakeDiscord,
    FakeMessage,
)
from tests.bot.fakegateway import FakeGateway

FRUITS = ["apple", "apricot", "banana", "cherry", "grape"]


def render_png(text: str) -> bytes:
    image = Image.new("RGB", (64, 32), "white")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


class Counter(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:count:(?P<game>\d+):(?P<n>\d+)"
):
    """A button that survives restarts: its state lives in the custom_id."""

    def __init__(self, game: int, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count ({n})",
                custom_id=f"demo:count:{game}:{n}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.game, self.n = game, n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> Counter:
        return cls(int(match["game"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.game, self.n + 1))
        await interaction.response.edit_message(
            content=f"game {self.game} counted to {self.n + 1}", view=view
        )


class FruitMenu(discord.ui.View):
    @discord.ui.select(
        custom_id="demo:fruit",
        placeholder="Choose fruit",
        options=[discord.SelectOption(label=f, value=f) for f in FRUITS],
        max_values=2,
    )
    async def chosen(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.edit_message(content=f"you chose {', '.join(select.values)}")


class AskName(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="demo:ask:name")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"thanks, {self.name.value}", ephemeral=True)


class DemoBot(discord.Client):
    """A small bot using the discord.py features the Montana bot relies on."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.background: set[asyncio.Task[None]] = set()
        self.tree.add_command(self.build_group())

        @self.tree.command(description="only for channel managers; hidden from others")
        @app_commands.default_permissions(manage_channels=True)
        async def secret(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("secret", ephemeral=True)

        self.tree.on_error = self.refuse  # type: ignore[method-assign]

    def build_group(self) -> app_commands.Group:
        group = app_commands.Group(name="demo", description="demo commands")

        @group.command(description="say hello privately")
        async def hello(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message(
                f"Hello {interaction.user.mention} in <#{interaction.channel_id}>", ephemeral=True
            )

        @group.command(description="defer, render off the loop, then follow up with a picture")
        async def picture(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.defer(thinking=True)
            png = await asyncio.to_thread(render_png, "board")
            await interaction.followup.send(
                f"{interaction.user.mention}, your board",
                file=discord.File(io.BytesIO(png), filename="board.png"),
            )

        @group.command(description="a counter button")
        @app_commands.describe(game="game number")
        async def counter(
            interaction: discord.Interaction[Any], game: app_commands.Range[int, 0, 99]
        ) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(Counter(game, 0))
            await interaction.response.send_message(f"game {game} counted to 0", view=view)

        async def fruit_choices(
            interaction: discord.Interaction[Any], current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=f, value=f) for f in FRUITS if f.startswith(current)]

        @group.command(description="pick a fruit")
        @app_commands.autocomplete(fruit=fruit_choices)
        async def pick(interaction: discord.Interaction[Any], fruit: str) -> None:
            await interaction.response.send_message(f"you picked {fruit}", ephemeral=True)

        @group.command(description="a select menu")
        async def menu(interaction: discord.Interaction[Any], private: bool = False) -> None:
            await interaction.response.send_message(
                "what fruit?", view=FruitMenu(), ephemeral=private
            )

        @group.command(description="repeat a text")
        async def say(interaction: discord.Interaction[Any], text: str) -> None:
            await interaction.response.send_message(text)

        @group.command(description="answers too late")
        async def slow(interaction: discord.Interaction[Any]) -> None:
            await asyncio.sleep(0.2)
            await interaction.response.send_message("finally")

        @group.command(description="answer now, post again a moment later")
        async def later(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("soon")
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)

            async def post_later() -> None:
                await asyncio.sleep(0.05)
                await channel.send("later")

            self.background.add(asyncio.create_task(post_later()))

        @group.command(description="open a form")
        async def ask(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_modal(AskName())

        @group.command(description="fails")
        async def boom(interaction: discord.Interaction[Any]) -> None:
            raise RuntimeError("the demo command broke")

        @group.command(description="for channel managers only")
        @app_commands.checks.has_permissions(manage_channels=True)
        async def admin(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("admin done", ephemeral=True)

        @group.command(description="open a thread and DM the player")
        async def thread(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            opened = await channel.create_thread(
                name="demo game", type=discord.ChannelType.public_thread
            )
            posted = await opened.send(f"game on, {interaction.user.mention}")
            await posted.edit(content=f"game on, {interaction.user.mention}!")
            try:
                await interaction.user.send("your game started")
                dm = "DM sent"
            except discord.Forbidden:
                dm = "DMs closed"
            await interaction.edit_original_response(content=f"thread {opened.id}; {dm}")

        return group

    async def refuse(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CheckFailure):
            await interaction.response.send_message("you need Manage Channels", ephemeral=True)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


@pytest.fixture
async def demo(fake_discord: FakeDiscord) -> AsyncIterator[FakeDiscord]:
    await fake_discord.start(DemoBot(fake_discord.guild_id))
    yield fake_discord


async def test_login_syncs_commands_and_makes_the_client_ready(demo: FakeDiscord) -> None:
    client = demo.client
    assert client.is_ready()
    assert client.user is not None and client.user.id == demo.bot_user.id
    guild = client.get_guild(demo.guild_id)
    assert guild is not None and guild.get_channel(demo.channel.id) is not None
    (sync,) = demo.requests("PUT /applications/{id}/guilds/{id}/commands")
    assert [c["name"] for c in sync.json] == ["demo", "secret"]
    assert {o["name"] for o in sync.response[0]["options"]} >= {"hello", "picture", "pick"}
    assert all(c["id"] for c in sync.response)


async def test_subcommand_answers_ephemerally(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    result = await demo.slash(ana, demo.channel, "demo", "hello")
    assert result.response_type == MESSAGE
    assert result.ephemeral
    assert result.content == f"Hello {ana.mention} in {demo.channel.mention}"
    assert demo.messages_in(demo.channel) == []  # ephemeral: not in the channel for others
    assert result.original is not None and result.original.pinged_ids == []


async def test_defer_then_followup_with_png(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    result = await demo.slash(ana, demo.channel, "demo picture")
    assert result.response_type == DEFERRED_MESSAGE
    (followup,) = result.followups
    assert followup is result.original and not followup.loading
    assert followup.files["board.png"].startswith(b"\x89PNG\r\n\x1a\n")
    assert followup.payload["attachments"][0]["width"] == 64
    assert followup.content == f"{ana.mention}, your board"
    # Discord does not notify mentions in the followup that fills a deferred answer.
    assert followup.mentioned_ids == [ana.id] and followup.pinged_ids == []
    (upload,) = demo.requests("POST /webhooks/{id}/{token}")
    assert upload.json["content"] == followup.content and "board.png" in upload.files


async def test_dynamic_button_keeps_working_with_a_new_client(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    result = await demo.slash(ana, demo.channel, "demo", "counter", options={"game": 7})
    message = result.original
    assert message is not None and message.custom_ids() == ["demo:count:7:0"]
    pressed = await demo.press(ana, message, "demo:count:7:0")
    assert pressed.response_type == UPDATE
    assert message.content == "game 7 counted to 1" and message.custom_ids() == ["demo:count:7:1"]

    await demo.stop(demo.client)
    await demo.start(DemoBot(demo.guild_id))  # a restart: nothing in memory but the code
    again = await demo.press(ana, message, label="Count (1)")
    assert again.original is message and message.content == "game 7 counted to 2"
    with pytest.raises(AssertionError, match="no component demo:count:7:0"):
        await demo.press(ana, message, "demo:count:7:0")  # that button is no longer shown


async def test_autocomplete_returns_the_bots_choices(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    result = await demo.autocomplete(
        ana, demo.channel, "demo", "pick", options={"fruit": "ap"}, focused="fruit"
    )
    assert result.response_type == AUTOCOMPLETE
    assert [c["value"] for c in result.choices] == ["apple", "apricot"]
    picked = await demo.slash(ana, demo.channel, "demo", "pick", options={"fruit": "apricot"})
    assert picked.content == "you picked apricot"


async def test_select_menu(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    menu = await demo.slash(ana, demo.channel, "demo", "menu")
    assert menu.original is not None
    chosen = await demo.select(ana, menu.original, "demo:fruit", ["banana", "grape"])
    assert chosen.response_type == UPDATE
    assert menu.original.content == "you chose banana, grape"
    with pytest.raises(AssertionError, match="no option"):
        await demo.select(ana, menu.original, label="Choose fruit", values=["kiwi"])


async def test_tasks_spawned_by_a_command_are_awaited(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    result = await demo.slash(ana, demo.channel, "demo", "later")
    assert [m.content for m in result.messages] == ["soon", "later"]
    assert [m.content for m in result.sent] == ["later"]


async def test_modal_round_trip(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    opened = await demo.slash(ana, demo.channel, "demo", "ask")
    assert opened.response_type == MODAL and opened.modal is not None
    assert opened.modal["title"] == "Your name"
    answered = await demo.submit_modal(ana, demo.channel, opened.modal, {"demo:ask:name": "Ana"})
    assert answered.ephemeral and answered.content == "thanks, Ana"


async def test_exception_in_a_command_is_recorded(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    result = await demo.slash(ana, demo.channel, "demo", "boom")
    assert not result.responded
    assert any("the demo command broke" in e for e in demo.errors)
    assert any("never answered" in e for e in demo.errors)
    demo.errors.clear()  # provoked on purpose; the fixture fails a test on leftovers


async def test_permission_check_sees_manage_channels(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    mod = demo.add_user("mod", permissions=discord.Permissions(manage_channels=True))
    refused = await demo.slash(ana, demo.channel, "demo", "admin")
    assert refused.ephemeral and refused.content == "you need Manage Channels"
    allowed = await demo.slash(mod, demo.channel, "demo", "admin")
    assert allowed.content == "admin done"
    demo.set_permissions(ana, discord.Permissions(manage_channels=True))
    assert (await demo.slash(ana, demo.channel, "demo", "admin")).content == "admin done"
    guild = demo.client.get_guild(demo.guild_id)
    assert guild is not None and len(guild.roles) == 4  # @everyone, bot, ana's and mod's


async def test_thread_edit_and_closed_dms(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    ben = demo.add_user("ben", dms_open=False)
    result = await demo.slash(ana, demo.channel, "demo", "thread")
    (thread,) = demo.threads
    assert result.ephemeral and result.content == f"thread {thread.id}; DM sent"
    (posted,) = demo.messages_in(thread)
    assert posted.content == f"game on, {ana.mention}!" and posted.edits == 1
    assert posted.pinged_ids == [ana.id]  # pinged when first posted
    (dm,) = demo.dms(ana)
    assert dm.content == "your game started"
    assert result.sent == [posted, dm]  # REST posts made while handling this interaction
    assert demo.client.get_channel(thread.id) is not None  # THREAD_CREATE reached the client

    closed = await demo.slash(ben, demo.channel, "demo", "thread")
    assert closed.content.endswith("DMs closed") and demo.dms(ben) == []


class FragileBot(DemoBot):
    async def on_thread_create(self, thread: discord.Thread) -> None:
        raise RuntimeError(f"cannot handle thread {thread.name}")


async def test_exception_in_an_event_handler_is_recorded(fake_discord: FakeDiscord) -> None:
    await fake_discord.start(FragileBot(fake_discord.guild_id))
    await fake_discord.slash(fake_discord.add_user("ana"), fake_discord.channel, "demo thread")
    assert any("on_thread_create" in e and "demo game" in e for e in fake_discord.errors)
    fake_discord.errors.clear()


async def test_channel_history_reads_back_what_was_posted(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    for text in ("one", "two", "three"):
        await demo.slash(ana, demo.channel, "demo", "say", options={"text": text})
    channel = demo.client.get_channel(demo.channel.id)
    assert isinstance(channel, discord.TextChannel)
    newest_first = [m.content async for m in channel.history(limit=2)]
    assert newest_first == ["three", "two"]


async def test_what_a_discord_client_cannot_send_is_a_test_error(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    mod = demo.add_user("mod", permissions=discord.Permissions(manage_channels=True))
    with pytest.raises(ValueError, match="no option 'colour'"):
        await demo.slash(ana, demo.channel, "demo", "pick", options={"colour": "red"})
    with pytest.raises(ValueError, match=r"requires option\(s\) \['game'\]"):
        await demo.slash(ana, demo.channel, "demo", "counter")
    with pytest.raises(ValueError, match=r"outside 0\.\.99"):
        await demo.slash(ana, demo.channel, "demo", "counter", options={"game": 100})
    with pytest.raises(AssertionError, match="hides it"):
        await demo.slash(ana, demo.channel, "secret")
    assert (await demo.slash(mod, demo.channel, "secret")).content == "secret"
    private = await demo.slash(ana, demo.channel, "demo", "menu", options={"private": True})
    assert private.original is not None and private.ephemeral
    with pytest.raises(AssertionError, match="only ana sees it"):
        await demo.select(mod, private.original, "demo:fruit", ["apple"])
    assert (await demo.select(ana, private.original, "demo:fruit", ["apple"])).responded


async def test_message_over_discord_limits_is_refused_like_discord(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    ok = await demo.slash(ana, demo.channel, "demo", "say", options={"text": "x" * 2000})
    assert len(ok.content) == 2000
    refused = await demo.slash(ana, demo.channel, "demo", "say", options={"text": "x" * 2001})
    assert not refused.responded
    assert any("2000 or fewer" in e for e in refused.errors)
    assert any("HTTPException" in e for e in demo.errors)  # the bot saw Discord's 400
    demo.errors.clear()


async def test_an_answer_after_the_deadline_is_an_unknown_interaction() -> None:
    async with FakeDiscord(response_deadline=0.05) as fake:
        await fake.start(DemoBot(fake.guild_id))
        result = await fake.slash(fake.add_user("ana"), fake.channel, "demo", "slow")
    assert not result.responded
    assert any("answered after" in e for e in fake.errors)
    assert any("Unknown interaction" in e for e in fake.errors)


async def test_two_presses_at_once_are_two_interactions(demo: FakeDiscord) -> None:
    ana, ben = demo.add_user("ana"), demo.add_user("ben")
    counter = await demo.slash(ana, demo.channel, "demo", "counter", options={"game": 2})
    assert counter.original is not None
    first, second = await asyncio.gather(
        demo.press(ana, counter.original, "demo:count:2:0"),
        demo.press(ben, counter.original, "demo:count:2:0"),
    )
    assert first.id != second.id
    assert first.response_type == second.response_type == UPDATE
    assert counter.original.edits == 2


async def test_forged_custom_id_reaches_the_dynamic_item(demo: FakeDiscord) -> None:
    ana = demo.add_user("ana")
    counter = await demo.slash(ana, demo.channel, "demo", "counter", options={"game": 1})
    assert counter.original is not None
    forged = await demo.press_forged(ana, counter.original, "demo:count:1:41")
    assert forged.original is counter.original and forged.content == "game 1 counted to 42"
    ignored = await demo.press_forged(ana, counter.original, "'; DROP TABLE games; --")
    assert not ignored.responded
    assert any("never answered" in e for e in demo.errors)
    demo.errors.clear()


def run_demo_bot() -> None:
    """Entry point of the demo bot as a separate process, configured like the real bot."""
    discord.http.Route.BASE = os.environ["MONTANA_DISCORD_API_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        os.environ["MONTANA_DISCORD_GATEWAY"]
    )
    DemoBot(int(os.environ["MONTANA_GUILD_ID"])).run("fake-token", log_handler=None)


async def test_bot_process_killed_and_restarted_keeps_its_buttons(
    fake_gateway: FakeGateway,
) -> None:
    ana = fake_gateway.add_user("ana")
    env = {**os.environ, "MONTANA_GUILD_ID": str(fake_gateway.guild_id)}
    command = [sys.executable, "-c", "import tests.bot.test_fakediscord as t; t.run_demo_bot()"]
    root = Path(__file__).resolve().parents[2]
    first = await fake_gateway.spawn(*command, env=env, cwd=root)
    await fake_gateway.wait_connected(timeout=20)
    counter = await fake_gateway.slash(
        ana, fake_gateway.channel, "demo", "counter", options={"game": 5}
    )
    assert counter.original is not None and counter.content == "game 5 counted to 0"

    assert await first.kill() == -9  # SIGKILL: no goodbye to the gateway
    await fake_gateway.wait_disconnected()

    second = await fake_gateway.spawn(*command, env=env, cwd=root)
    await fake_gateway.wait_connected(timeout=20)
    await fake_gateway.press(ana, counter.original, "demo:count:5:0")
    assert counter.original.content == "game 5 counted to 1"
    assert len(fake_gateway.identifies) == 2
    await second.terminate()
    assert "Traceback" not in first.stderr + second.stderr


@pytest.fixture
def gateway_overrides(fake_gateway: FakeGateway, monkeypatch: pytest.MonkeyPatch) -> FakeGateway:
    monkeypatch.setattr(discord.http.Route, "BASE", fake_gateway.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake_gateway.gateway_url)
    )
    return fake_gateway


async def test_gateway_fake_serves_a_real_client_over_loopback(
    gateway_overrides: FakeGateway,
) -> None:
    gateway = gateway_overrides
    ana = gateway.add_user("ana")
    client = DemoBot(gateway.guild_id)
    running = asyncio.create_task(client.start("fake-token"))
    try:
        await gateway.wait_connected()
        await asyncio.wait_for(client.wait_until_ready(), timeout=5)
        assert gateway.identifies[0]["token"] == "fake-token"
        hello = await gateway.slash(ana, gateway.channel, "demo", "hello")
        assert hello.ephemeral and hello.content.startswith(f"Hello {ana.mention}")
        picture = await gateway.slash(ana, gateway.channel, "demo", "picture")
        assert picture.response_type == DEFERRED_MESSAGE
        assert picture.files["board.png"].startswith(b"\x89PNG")
        counter = await gateway.slash(ana, gateway.channel, "demo", "counter", options={"game": 3})
        assert isinstance(counter.original, FakeMessage)
        await gateway.press(ana, counter.original, "demo:count:3:0")
        assert counter.original.content == "game 3 counted to 1"
        later = await gateway.slash(
            ana, gateway.channel, "demo later", until=lambda r: len(r.messages) == 2
        )
        assert [m.content for m in later.messages] == ["soon", "later"]
        callbacks = gateway.requests("POST /interactions/{id}/{token}/callback")
        assert len(callbacks) == 5 and callbacks[0].query["with_response"] == "1"
        # the control API of the standalone mode (python -m tests.bot.fakegateway)
        control = f"http://127.0.0.1:{gateway.port}/_fake"
        async with aiohttp.ClientSession() as http:
            spec = {"kind": "press", "user": str(ana.id), "message": str(counter.original.id)}
            async with http.post(
                f"{control}/interactions", json={**spec, "label": "Count (1)"}
            ) as r:
                pressed = await r.json()
            async with http.get(f"{control}/messages") as r:
                listed = await r.json()
        assert pressed["response_type"] == UPDATE and pressed["content"] == "game 3 counted to 2"
        assert "game 3 counted to 2" in [m["content"] for m in listed]
    finally:
        await client.close()
        await running
    await gateway.wait_disconnected()
