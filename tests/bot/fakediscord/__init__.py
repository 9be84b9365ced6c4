"""A fake Discord for testing the real discord.py bot without a network.

The real ``discord.Client`` / ``app_commands.CommandTree`` / views run unchanged; only the two
places where discord.py talks to Discord are replaced while a client is started here:

* ``discord.http.HTTPClient.request`` of that client (REST: messages, threads, DMs, commands), and
* ``discord.webhook.async_.AsyncWebhookAdapter.request`` (interaction callbacks, followups and
  ``@original`` edits; with files attached the JSON travels in the multipart ``payload_json``).

Gateway events are fed straight into ``client._connection`` (READY, GUILD_CREATE,
INTERACTION_CREATE, THREAD_CREATE ...). The fake keeps a small "world" (one guild, channels,
users, every message the bot posted, edits and deletions, synced commands) so that what the
bot sends can be read back the way a player would see it, and pressed again.

Usage::

    fake = FakeDiscord()                      # guild "Montana Test", text channel "general"
    ana = fake.add_user("ana")
    mod = fake.add_user("mo", permissions=discord.Permissions(manage_channels=True))
    await fake.start(MyBot())                 # login, setup_hook (tree.sync is recorded), READY
    res = await fake.slash(ana, fake.channel, "montana", "game", "new")   # or "montana game new"
    assert res.response_type == 4 and "Join" in res.original.button_labels()
    res2 = await fake.press(mod, res.original, label="Join")   # the button must be on the message
    assert res2.ephemeral and "joined" in res2.content
    res3 = await fake.autocomplete(ana, fake.channel, "montana", "build",
                                   options={"field": "C"}, focused="field")
    assert res3.choices[0]["value"] == "C4"
    assert fake.messages_in(fake.channel)[-1].files["board.png"].startswith(b"\\x89PNG")
    await fake.close()                        # closes clients, restores discord.py
    assert not fake.errors                    # exceptions in commands/views/events land here

With pytest, use the ``fake_discord`` fixture from ``tests/bot/conftest.py``: it closes the fake
and fails the test if ``fake.errors`` is not empty.

API in short (``FakeDiscord``; ``FakeGateway`` has the same world and interaction helpers):

* world: ``add_user(name, permissions=, dms_open=)``, ``set_permissions(user, perms)``,
  ``grant(user, channel, perms)`` (a member overwrite: perms in that channel and its threads),
  ``add_channel(name)``, ``channel`` ("general"), ``guild_id``, ``bot_user``, ``threads``,
  ``channel_by_id(id)``, ``dm_channel(user)`` (a slash command there is one in a DM with
  the bot: only a command whose ``contexts`` allow it), ``join_guild(name)`` /
  ``leave_guild(id)`` (the bot is added to / removed from another server, known by its
  id and name only), ``world`` (everything, e.g. ``world.messages[id]``).
* clients: ``await start(client)``; ``await stop(client)`` then ``start(NewClient())`` is a
  restart (messages, buttons and threads stay); ``client`` is the one receiving interactions.
* interactions (each returns an :class:`InteractionResult` once handled):
  ``slash(user, channel, *path, options=)``, ``autocomplete(..., focused=)``,
  ``press(user, message, custom_id | label=)``, ``select(user, message, custom_id, values)``,
  ``submit_modal(user, channel, result.modal, {input_id: text})``, and for hostile-input tests
  ``press_forged(user, message, any_custom_id)``. Pass ``expect_response=False`` when no answer
  is the expected outcome, and ``until=lambda r: ...`` to wait for something the bot does
  later (e.g. ``until=lambda r: "board.png" in r.files``; needed with the gateway fake).
* results: ``response_type`` (4/5/6/7/8/9), ``original`` (the answer message, live),
  ``content``, ``ephemeral``, ``embeds``, ``components``, ``followups``, ``sent`` (REST posts
  made meanwhile: channel.send, threads, DMs), ``messages`` (all of them), ``files``
  ({name: bytes} over all of them), ``text``, ``choices``, ``modal``, ``edits``, ``errors``.
* messages (:class:`FakeMessage`): ``content``, ``text``, ``embeds``, ``components``,
  ``custom_ids()``, ``button_labels()``, ``find_component()``, ``files``, ``ephemeral``,
  ``mentioned_ids`` / ``pinged_ids`` (who was actually notified: not by edits, not by the
  followup filling a deferred answer, not by ephemeral messages), ``edits``, ``deleted``.
* reading: ``messages_in(channel_or_thread)``, ``dms(user)``, ``requests("POST /channels")``
  (:class:`Request`: ``method``, ``path``, ``route``, ``query``, ``json``, ``files``,
  ``interaction_id``, ``status``, ``response``), ``await wait_for_message(channel, pred)``.
* options: ``FakeDiscord(response_deadline=3.0, expected_errors=(CheckFailure,
  TransformerError))``; ``settle_timeout`` (10 s) bounds the wait for one interaction.
* Discord misbehaving, as it does: ``inject(route, status, code=, channel=, times=,
  performed=, delay=, then=)`` fails the next matching requests (e.g.
  ``inject("POST /channels/{id}/messages", 503, channel=thread)``; ``performed=True``: Discord
  did it, then the answer failed, like a 502 from its proxy; ``then``: an async callback run
  once the request is served, before the answer goes out, e.g. killing a bot process);
  ``deny_bot(channel, Permissions(attach_files=True))`` takes permissions from the bot in a
  channel and its threads (as a channel overwrite; Discord answers 403 50013/50001);
  ``archive(thread)`` (editing a message there answers 400 50083, posting unarchives it);
  ``delete_channel(thread)``. Message creates honour ``nonce`` + ``enforce_nonce``: the same
  nonce again within ``world.nonce_window`` seconds returns the first message. The in-process
  fake retries 429 and 500/502/504/524 answers like discord.py's ``HTTPClient.request`` does
  (5 tries; without its 1-9 s sleeps); the gateway fake leaves that to the real discord.py.

Every interaction helper waits until the tasks the interaction spawned (command, view, dynamic
item, listeners, and every task they create in turn) are finished, then returns an
:class:`InteractionResult`. An interaction left unanswered, a callback later than
``response_deadline`` seconds, a second callback, a message over Discord's limits (2000
characters, 5 rows of 5 buttons, 25 options/choices, custom_id over 100 characters, files over
the size limit) are answered like Discord does (errors / HTTP 4xx) and recorded in ``errors``.

The separate-process variant (a real websocket gateway and REST server on loopback) lives in
``tests/bot/fakegateway.py`` and shares the world and the interaction builders defined in
this package.

The package, by area: ``model`` (constants, users, channels, messages), ``recording``
(requests, faults, interaction records), ``validation`` (Discord's limits on a message,
attachments); the world, a state (``state``) with mixins for its payloads (``payloads``),
what tests change (``building``), the message, interaction-answer and command routes
(``messages``, ``callbacks``, ``commands``), composed in ``world`` (``World``, its
``handle`` / ``serve``); the fakes' side: ``access`` (the world re-exported),
``interactions`` (``FakeDiscordBase``, ``InteractionResult``) and ``inprocess``
(``FakeDiscord``). Import from the package itself: every public name is re-exported here.
"""

from __future__ import annotations

from tests.bot.fakediscord.inprocess import FakeDiscord
from tests.bot.fakediscord.interactions import FakeDiscordBase, InteractionResult, Until
from tests.bot.fakediscord.model import (
    ATTACHMENT_SIZE_LIMIT,
    AUTOCOMPLETE,
    BOT_PERMISSIONS,
    COMMAND_MENTION,
    COMPONENTS_V2,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    INVISIBLE,
    LOADING,
    MESSAGE,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    MODAL,
    PONG,
    THREAD_ARCHIVED,
    UPDATE,
    FakeChannel,
    FakeHTTPError,
    FakeMessage,
    FakeUser,
    Json,
    new_snowflake,
)
from tests.bot.fakediscord.recording import RETRIED_BY_DISCORD_PY, Fault, InteractionRecord, Request
from tests.bot.fakediscord.state import EventSink
from tests.bot.fakediscord.world import World, api_path

__all__ = [
    "ATTACHMENT_SIZE_LIMIT",
    "AUTOCOMPLETE",
    "BOT_PERMISSIONS",
    "COMMAND_MENTION",
    "COMPONENTS_V2",
    "DEFERRED_MESSAGE",
    "DEFERRED_UPDATE",
    "EPHEMERAL",
    "EVERYONE_PERMISSIONS",
    "INVISIBLE",
    "LOADING",
    "MESSAGE",
    "MISSING_ACCESS",
    "MISSING_PERMISSIONS",
    "MODAL",
    "PONG",
    "RETRIED_BY_DISCORD_PY",
    "THREAD_ARCHIVED",
    "UPDATE",
    "EventSink",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordBase",
    "FakeHTTPError",
    "FakeMessage",
    "FakeUser",
    "Fault",
    "InteractionRecord",
    "InteractionResult",
    "Json",
    "Request",
    "Until",
    "World",
    "api_path",
    "new_snowflake",
]
