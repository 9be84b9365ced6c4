"""What discord.py is told about the fake guild: the roles, the bot's and a member's member
payloads, the guild itself (and another server the bot joined), READY and the application,
built from the world's state by the `WorldPayloads` mixin."""

from __future__ import annotations

import discord

from tests.bot.fakediscord.model import (
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    FakeUser,
    Json,
    iso_now,
)
from tests.bot.fakediscord.state import WorldState


class WorldPayloads(WorldState):
    """Payloads of the guild, its roles and members, READY and the application."""

    def _everyone_role(self) -> Json:
        return _role_payload(self.guild_id, "@everyone", EVERYONE_PERMISSIONS, 0)

    def _user_role(self, user: FakeUser) -> Json:
        assert user.role_id is not None
        return _role_payload(user.role_id, f"{user.name}-role", user.permissions, 1)

    def bot_member_payload(self) -> Json:
        return {
            "user": self.bot_user.payload(),
            "roles": [str(self.bot_role_id)],
            "joined_at": iso_now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
            "premium_since": None,
        }

    def member_payload(self, user: FakeUser) -> Json:
        return {
            "user": user.payload(),
            "roles": [] if user.role_id is None else [str(user.role_id)],
            "permissions": str(user.total_permissions().value),
            "joined_at": iso_now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
            "premium_since": None,
            "communication_disabled_until": None,
        }

    def guild_payload(self) -> Json:
        roles = [
            self._everyone_role(),
            _role_payload(self.bot_role_id, "montana-bot", BOT_PERMISSIONS, 1, managed=True),
        ]
        roles += [self._user_role(u) for u in self.users.values() if u.role_id is not None]
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "unavailable": False,
            "large": False,
            "member_count": len(self.users),
            "roles": roles,
            "emojis": [],
            "stickers": [],
            "features": [],
            "channels": [c.payload() for c in self.text_channels],
            "threads": [c.payload() for c in self.threads],
            "members": [self.bot_member_payload()],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": self.guild_locale,
            "system_channel_flags": 0,
            "joined_at": iso_now(),
        }

    def ready_payload(self, session_id: str, resume_url: str) -> Json:
        return {
            "v": 10,
            "user": self.bot_user.payload(),
            "guilds": [
                {"id": str(guild_id), "unavailable": True}
                for guild_id in (self.guild_id, *self.other_guilds)
            ],
            "session_id": session_id,
            "resume_gateway_url": resume_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    def application_payload(self) -> Json:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "Montana, the board game (test application)",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "interactions_endpoint_url": None,
            "bot": self.bot_user.payload(),
        }

    def other_guild_payload(self, guild_id: int) -> Json:
        payload = self.guild_payload()
        payload.update(
            id=str(guild_id),
            name=self.other_guilds[guild_id],
            roles=[_role_payload(guild_id, "@everyone", EVERYONE_PERMISSIONS, 0)],
            member_count=1,
            channels=[],
            threads=[],
            members=[],
        )
        return payload


def _role_payload(
    role_id: int, name: str, permissions: discord.Permissions, position: int, managed: bool = False
) -> Json:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "position": position,
        "permissions": str(permissions.value),
        "managed": managed,
        "mentionable": False,
        "flags": 0,
    }
