"""The verdicts of a chaos run: each invariant checked over the whole run."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from bot.chaos.model import INVARIANTS, WENT_WRONG, replay_problem, states_on
from bot.discord_app.delivery.announce import identity_of

if TYPE_CHECKING:
    from tests.bot.fakediscord import FakeMessage

from bot.chaos.world import ChaosWorld


class Verdicts(ChaosWorld):
    """A run that can judge itself once it has settled."""

    # ------------------------------------------------------------------ verdicts

    def verdicts(self) -> dict[str, list[str]]:
        world = self.gateway.world
        owed = self.owed()
        by_id = {o.id: o for o in owed}
        game_table = {g: t for t in self.tables for g in t.game_ids}
        me = world.bot_user.id
        marked: dict[int, list[FakeMessage]] = {}
        stray: list[str] = []
        for message in world.messages.values():
            if message.deleted or message.ephemeral:
                continue
            if int((message.payload.get("author") or {}).get("id") or 0) != me:
                continue
            identity = identity_of(message.raw_content)
            if identity is None:
                continue
            if identity not in by_id:
                stray.append(f"message {message.id} names owed message {identity}, unknown")
                continue
            marked.setdefault(identity, []).append(message)
        found: dict[str, list[str]] = {name: [] for name in INVARIANTS}
        posted = found["posted-once-in-order"]
        posted += stray
        for game_id, table in sorted(game_table.items()):
            saved = self.saved(game_id)
            places = self.places(table)
            posts = [o for o in owed if o.game_id == game_id and o.kind == "post"]
            previous = 0
            for entry in posts:
                copies = marked.get(entry.id, [])
                if len(copies) > 1:
                    posted.append(
                        f"game {game_id}: owed post {entry.id} (v{entry.version}) is "
                        f"{len(copies)} messages {[m.id for m in copies]}"
                    )
                recorded = world.messages.get(entry.message_id or 0)
                if entry.delivered and (recorded is None or recorded.deleted):
                    posted.append(
                        f"game {game_id}: owed post {entry.id} (v{entry.version}) delivered "
                        f"as message {entry.message_id}, which is not there"
                    )
                elif recorded is not None and copies and copies[0].id != recorded.id:
                    posted.append(
                        f"game {game_id}: owed post {entry.id} (v{entry.version}) recorded as "
                        f"message {recorded.id}, posted as {[m.id for m in copies]}"
                    )
                elif recorded is not None and not copies and recorded.edits == 0:
                    posted.append(
                        f"game {game_id}: owed post {entry.id} (v{entry.version}) recorded as "
                        f"message {recorded.id}, which does not carry it"
                    )
                for copy in [*copies, *([recorded] if recorded is not None else [])]:
                    if copy.channel_id not in places:
                        posted.append(
                            f"game {game_id}: post {entry.id} in channel {copy.channel_id}, "
                            "not its game's"
                        )
                if recorded is not None:
                    if recorded.id < previous:
                        posted.append(
                            f"game {game_id}: post {entry.id} (v{entry.version}) shown before "
                            "the one owed before it"
                        )
                    previous = recorded.id
            if posts and posts[-1].version != saved.version:
                posted.append(
                    f"game {game_id}: the last post is of v{posts[-1].version}, "
                    f"saved v{saved.version}"
                )
            for entry in owed:
                if (
                    entry.game_id == game_id
                    and entry.kind != "post"
                    and len(marked.get(entry.id, [])) > 1
                ):
                    posted.append(
                        f"game {game_id}: owed {entry.kind} {entry.id} is "
                        f"{len(marked[entry.id])} messages"
                    )
            # one live prompt
            live = [
                m
                for o in owed
                if o.game_id == game_id
                for m in marked.get(o.id, [])
                if m.interactive_components()
            ]
            if saved.row["status"] == "active":
                current = [m for m in live if (game_id, saved.version) in states_on(m)]
                if len(live) != 1 or len(current) != 1:
                    found["one-live-prompt"].append(
                        f"game {game_id} (v{saved.version}): {len(live)} messages with "
                        f"buttons ({', '.join(self.described(m) for m in live)}), "
                        f"{len(current)} of its saved version"
                    )
            elif len(live) > 1:
                found["one-live-prompt"].append(
                    f"game {game_id} (over): {len(live)} messages with buttons"
                )
            # the state is its log replayed
            game = saved.game
            problem = replay_problem(saved, game)
            if problem:
                found["state-is-replay"].append(f"game {game_id}: {problem}")
            # one ping per decision
            pings: Counter[tuple[int, int]] = Counter()
            for o in owed:
                if o.game_id != game_id:
                    continue
                for m in marked.get(o.id, []):
                    for user_id in m.pinged_ids:
                        pings[(user_id, o.version)] += 1
            for (user_id, version), count in sorted(pings.items()):
                if count > 1:
                    found["one-ping-per-decision"].append(
                        f"game {game_id}: user {user_id} pinged {count} times for v{version}"
                    )
        waiting = [o for o in owed if not o.delivered]
        if waiting:
            found["nothing-owed"].append(
                f"{len(waiting)} owed: "
                + ", ".join(f"{o.kind} {o.id} (game {o.game_id} v{o.version})" for o in waiting[:5])
            )
        for press in self.presses:
            result = press.result
            record = result.record
            text = "" if record.response_type is None else result.text
            excused = record.id in self.cut_short or any(
                start <= press.sent <= end for start, end in self.disruptions
            )
            if record.errors and not (excused and record.response_type is None):
                found["no-error-press"].append(f"table {press.table} {press.what}: {record.errors}")
            elif WENT_WRONG in text:
                found["no-error-press"].append(f"table {press.table} {press.what}: {text[:120]}")
            elif record.response_type is None and not excused:
                found["no-error-press"].append(
                    f"table {press.table} {press.what}: no answer "
                    f"(sent at {press.sent - self.started:.2f}s)"
                )
        found["no-stall"] += self.stalled
        errors = [e for e in world.errors if "printed a traceback" not in e]
        found["no-error-press"] += [f"the fake: {e}" for e in errors[:5]]
        return found
