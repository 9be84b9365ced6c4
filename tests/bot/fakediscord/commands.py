"""Application commands and the interactions the fake sends (`CommandRoutes`): the command
sync routes, the INTERACTION_CREATE payload of a slash command, component press, autocomplete
or modal (`new_interaction`), and a slash command's ``data`` typed from the synced schema
(`command_data`), refused where Discord's client would not let the user send it."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from tests.bot.fakediscord.model import (
    ATTACHMENT_SIZE_LIMIT,
    EVERYONE_PERMISSIONS,
    FakeChannel,
    FakeHTTPError,
    FakeMessage,
    FakeUser,
    Json,
    new_snowflake,
)
from tests.bot.fakediscord.payloads import WorldPayloads
from tests.bot.fakediscord.recording import InteractionRecord

PRIMARY_ENTRY_POINT = 4
"""The Activity's entry in the App Launcher (an application command type)."""
APP_HANDLER, DISCORD_LAUNCH_ACTIVITY = 1, 2


class CommandRoutes(WorldPayloads):
    """Synced application commands, and building the interactions tests send."""

    def launch_entry_point(self, user: FakeUser, channel: FakeChannel) -> str:
        """`user` opens the app's Activity from the App Launcher in `channel`: with the
        handler DISCORD_LAUNCH_ACTIVITY Discord launches it itself (the bot gets no
        interaction); the instance launched."""
        entry = next((c for c in self.global_commands if c["type"] == PRIMARY_ENTRY_POINT), None)
        if entry is None or entry.get("handler") != DISCORD_LAUNCH_ACTIVITY:
            raise AssertionError(f"no entry point Discord launches itself: {entry}")
        instance = f"i-entry-{user.id}-{channel.id}"
        self.activity_launches.append((user.id, channel.id, instance))
        return instance

    def _commands(self, method: str, body: Any, guild_id: int | None) -> tuple[int, Any]:
        stored = self.global_commands if guild_id is None else self.guild_commands.get(guild_id, [])
        if method == "GET":
            return 200, stored
        if method == "PUT":
            commands = [self._command_payload(c, guild_id) for c in body]
            entry_points = [c for c in commands if c["type"] == PRIMARY_ENTRY_POINT]
            had = [c for c in stored if c["type"] == PRIMARY_ENTRY_POINT]
            if guild_id is not None and entry_points:
                raise FakeHTTPError(400, "Entry point commands are global only", 50035)
            if len(entry_points) > 1:
                raise FakeHTTPError(400, "An app has at most one entry point command", 50035)
            if (had or self.activities_enabled) and guild_id is None and not entry_points:
                # Discord made one when Activities were enabled, and keeps it
                raise FakeHTTPError(
                    400, "You cannot remove this app's Entry Point command in a bulk update", 50240
                )
            for command in entry_points:
                if command.get("handler") not in (APP_HANDLER, DISCORD_LAUNCH_ACTIVITY):
                    raise FakeHTTPError(400, "An entry point needs a handler of 1 or 2", 50035)
        elif method == "POST":
            commands = [c for c in stored if c["name"] != body["name"]]
            commands.append(self._command_payload(body, guild_id))
        else:
            raise FakeHTTPError(405, "405: Method Not Allowed", 0)
        if guild_id is None:
            self.global_commands = commands
        else:
            self.guild_commands[guild_id] = commands
        return 200, commands if method == "PUT" else commands[-1]

    def _command_payload(self, command: Json, guild_id: int | None) -> Json:
        data = dict(command)
        data.setdefault("type", 1)
        data.setdefault("description", "")
        data.setdefault("options", [])
        data.update(
            id=str(new_snowflake()),
            application_id=str(self.application_id),
            version=str(new_snowflake()),
        )
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        return data

    def new_interaction(
        self,
        interaction_type: int,
        user: FakeUser,
        channel: FakeChannel,
        data: Json,
        *,
        message: FakeMessage | None = None,
        locale: str | None = None,
    ) -> InteractionRecord:
        interaction_id = new_snowflake()
        token = f"fake-token-{interaction_id}-{'x' * 40}"
        channel_payload = channel.payload()
        payload: Json = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": interaction_type,
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "locale": user.locale if locale is None else locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if channel.type == 1:
            channel_payload["permissions"] = str(discord.Permissions._dm_permissions().value)
            payload.update(
                user=user.payload(),
                context=1,
                authorizing_integration_owners={"0": str(self.guild_id)},
                app_permissions=str(discord.Permissions._dm_permissions().value),
            )
        else:
            here = self.member_permissions(user, channel)
            channel_payload["permissions"] = str(here.value)
            payload.update(
                guild_id=str(self.guild_id),
                guild={"id": str(self.guild_id), "locale": self.guild_locale, "features": []},
                guild_locale=self.guild_locale,
                member={**self.member_payload(user), "permissions": str(here.value)},
                context=0,
                authorizing_integration_owners={"0": str(self.guild_id)},
                app_permissions=str(self.bot_permissions(channel).value),
            )
        payload["channel"] = channel_payload
        if message is not None:
            payload["message"] = message.payload
        record = InteractionRecord(
            interaction_id,
            token,
            interaction_type,
            user,
            channel,
            payload,
            created=time.monotonic(),
            component_message_id=None if message is None else message.id,
        )
        record.last_activity = record.created
        self.interactions[interaction_id] = record
        self.interactions_by_token[token] = record
        return record

    def command_data(
        self,
        channel: FakeChannel,
        path: Sequence[str],
        options: Mapping[str, Any],
        *,
        focused: str | None = None,
        fallback: Sequence[Json] = (),
        user: FakeUser | None = None,
    ) -> Json:
        """The ``data`` of a chat-input interaction, typed from the synced command schema.

        Raises where Discord's client would not let ``user`` send it: unknown command,
        subcommand or option, a required option missing, a value outside the option's choices
        or min/max, or a command hidden by ``default_member_permissions``.
        """
        names = [part for item in path for part in item.split()]
        if not names:
            raise ValueError("give the command name, e.g. slash(user, channel, 'montana', 'new')")
        in_dm = channel.type == 1
        command, guild_id = self._find_command(names[0], fallback, in_dm)
        # Discord offers a command only where its contexts allow (0 a server, 1 a DM
        # with the bot); without `contexts`, `dm_permission: false` keeps it to servers
        contexts = command.get("contexts")
        if contexts is None:
            contexts = [0] if command.get("dm_permission") is False else [0, 1]
        if (1 if in_dm else 0) not in contexts:
            where = "a DM with the bot" if in_dm else "a server"
            raise AssertionError(f"Discord does not offer /{names[0]} in {where} ({contexts})")
        schema_options = command.get("options") or []
        nested: list[Json] = []
        container = nested
        resolved: Json = {}
        for name in names[1:]:
            option = next(
                (o for o in schema_options if o["name"] == name and o["type"] in (1, 2)), None
            )
            if option is None:
                subcommands = [o["name"] for o in schema_options if o["type"] in (1, 2)]
                raise ValueError(f"/{' '.join(names)}: no subcommand {name!r} ({subcommands})")
            entry: Json = {"name": name, "type": option["type"], "options": []}
            container.append(entry)
            container = entry["options"]
            schema_options = option.get("options") or []
        known: dict[str, Json] = {o["name"]: o for o in schema_options if o["type"] not in (1, 2)}
        where = f"/{' '.join(names)}"
        if user is not None:
            _check_can_use(where, command, user, self.owner)
        for name, value in options.items():
            if name not in known:
                raise ValueError(f"{where} has no option {name!r} (known: {list(known)})")
            if focused is None:
                _check_option_value(where, known[name], value)
            option_type = int(known[name]["type"])
            entry = {"name": name, "type": option_type}
            if focused == name:
                entry.update(value=str(value), focused=True)
            else:
                entry["value"] = self._option_value(option_type, value, resolved)
            container.append(entry)
        missing = [n for n, o in known.items() if o.get("required") and n not in options]
        if focused is None and missing:
            raise ValueError(f"{where}: Discord requires option(s) {missing}")
        if focused is not None and focused not in options:
            container.append(
                {"name": focused, "type": int(known[focused]["type"]), "value": "", "focused": True}
            )
        data: Json = {
            "id": command["id"],
            "name": names[0],
            "type": 1,
            "options": nested,
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        if resolved:
            data["resolved"] = resolved
        return data

    def _find_command(
        self, name: str, fallback: Sequence[Json], in_dm: bool = False
    ) -> tuple[Json, int | None]:
        for command in [] if in_dm else self.guild_commands.get(self.guild_id, []):
            if command["name"] == name:
                return command, self.guild_id
        for command in self.global_commands:
            if command["name"] == name:
                return command, None
        for command in fallback:
            if command["name"] == name:
                return {"id": str(self.application_id), **command}, None
        raise ValueError(f"no application command /{name} was synced or is in the tree")

    def _option_value(self, option_type: int, value: Any, resolved: Json) -> Any:
        if option_type in (6, 9) and isinstance(value, FakeUser):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            member = {k: v for k, v in self.member_payload(value).items() if k != "user"}
            resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if option_type == 7 and isinstance(value, FakeChannel):
            payload = value.payload()
            payload["permissions"] = str(EVERYONE_PERMISSIONS.value)
            resolved.setdefault("channels", {})[str(value.id)] = payload
            return str(value.id)
        if option_type == 8 and isinstance(value, int):  # a role, by its id
            roles = {int(role["id"]): role for role in self.guild_payload()["roles"]}
            if value not in roles:
                raise ValueError(f"no role {value} in the guild (roles: {list(roles)})")
            resolved.setdefault("roles", {})[str(value)] = roles[value]
            return str(value)
        if option_type == 4:
            return int(value)
        if option_type == 10:
            return float(value)
        if option_type == 5:
            return bool(value)
        return value


def _check_can_use(where: str, command: Json, user: FakeUser, owner: FakeUser) -> None:
    required = command.get("default_member_permissions")
    if required is None or user is owner:
        return
    needed = discord.Permissions(int(required))
    if not needed.is_subset(user.total_permissions()):
        raise AssertionError(
            f"{user.name} cannot use {where}: Discord hides it from members without {needed!r}"
        )


def _check_option_value(where: str, option: Json, value: Any) -> None:
    name = option["name"]
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        allowed = [c["value"] for c in choices]
        raise ValueError(f"{where}: {name}={value!r} is not one of the choices {allowed}")
    if isinstance(value, int | float) and not isinstance(value, bool):
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"{where}: {name}={value!r} is outside {low}..{high}")
    if isinstance(value, str):
        low_len, high_len = option.get("min_length", 0), option.get("max_length", 6000)
        if not low_len <= len(value) <= high_len:
            raise ValueError(f"{where}: {name} must be {low_len}..{high_len} characters")
