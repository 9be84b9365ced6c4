"""The fake Discord answers a Components V2 message as Discord does (issue 39 point 4):
the flag, the component types and where each may stand, ``attachment://`` references,
40 components counted nested, 4,000 characters across text displays; ``content`` or
embeds beside the flag, and an edit taking the flag off, are refused. And the card the
bot posts keeps, through an edit taking its buttons off, its words and its picture."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_app import cards
from tests.bot.fakediscord import COMPONENTS_V2, FakeDiscord

Json = dict[str, Any]
MESSAGES = "/channels/{}/messages"


def text(content: str) -> Json:
    return {"type": 10, "content": content}


def gallery(url: str) -> Json:
    return {"type": 12, "items": [{"media": {"url": url}, "description": "the board"}]}


def button(n: int) -> Json:
    return {"type": 2, "style": 2, "label": f"b{n}", "custom_id": f"mt:1:1:a:{n}"}


def card(*children: Json) -> list[Json]:
    return [{"type": 17, "accent_color": 0x2864D7, "components": list(children)}]


def post(fake: FakeDiscord, body: Json, files: list[tuple[str, bytes]] | None = None) -> Json:
    path = MESSAGES.format(fake.channel.id)
    status, answer = fake.world.handle("POST", path, {}, body, files or [])
    assert status == 200, answer
    assert isinstance(answer, dict)
    return answer


def refused(fake: FakeDiscord, method: str, path: str, body: Json) -> str:
    status, answer = fake.world.handle(method, path, {}, body, [])
    assert status == 400, f"accepted: {answer}"
    return str(answer["message"])


@pytest.fixture
def fake() -> FakeDiscord:
    return FakeDiscord()


def test_a_card_with_its_picture_is_stored_and_read_as_its_text(fake: FakeDiscord) -> None:
    body = {
        "flags": COMPONENTS_V2,
        "components": card(text("Ana built."), gallery("attachment://montana.png"), text("Ben?")),
        "attachments": [{"id": 0, "filename": "montana.png"}],
    }
    answer = post(fake, body, [("montana.png", b"\x89PNG")])
    message = fake.world.messages[int(answer["id"])]
    assert message.card and message.content == "Ana built.\nBen?"
    assert message.files == {"montana.png": b"\x89PNG"}


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"content": "hi", "components": card(text("x"))}, "cannot be used with"),
        ({"embeds": [{"title": "t"}], "components": card(text("x"))}, "cannot be used with"),
        ({"components": card(gallery("attachment://other.png"))}, "names no attachment"),
        ({"components": card(*[text("x")] * 40)}, "41 components"),
        ({"components": card(text("x" * 4001))}, "4001 characters"),
        ({"components": card({"type": 1, "components": [button(n) for n in range(6)]})}, "1-5"),
        ({"components": card({"type": 17, "components": [text("x")]})}, "not allowed in"),
        ({"components": [{"type": 1, "components": []}]}, "1-5 buttons"),
        ({"components": card(gallery("montana.png"))}, "must be attachment://"),
        ({"components": []}, "empty message"),
    ],
)
def test_what_discord_refuses_in_a_card_is_refused(fake: FakeDiscord, body: Json, why: str) -> None:
    said = refused(fake, "POST", MESSAGES.format(fake.channel.id), {**body, "flags": COMPONENTS_V2})
    assert why in said


def test_an_edit_may_not_take_the_flag_off_nor_give_a_card_content(fake: FakeDiscord) -> None:
    answer = post(fake, {"flags": COMPONENTS_V2, "components": card(text("x"))})
    path = f"{MESSAGES.format(fake.channel.id)}/{answer['id']}"
    assert "cannot be removed" in refused(fake, "PATCH", path, {"flags": 0, "content": "x"})
    assert "cannot be used with" in refused(fake, "PATCH", path, {"content": "plain again"})
    message = fake.world.messages[int(answer["id"])]
    assert message.card and message.content == "x"  # unchanged


def test_an_unknown_kind_of_request_body_fails_the_spec_check_loudly() -> None:
    from tests.bot.fakediscord.spec import errors

    with pytest.raises(ValueError, match="does not know"):
        errors({}, {"type": "object", "dependentSchemas": {}})
    assert errors({"content": 3}, {"$ref": "#/components/schemas/MessageCreateRequest"})


def test_taking_a_cards_buttons_off_keeps_its_words_and_picture() -> None:
    components = card(
        text("Ana built."),
        gallery("https://cdn.discordapp.com/attachments/1/2/montana.png"),
        text("Ben, your turn"),
        {"type": 1, "components": [button(1), button(2)]},
    )
    attachments = [
        {"filename": "montana.png", "url": "https://cdn.discordapp.com/attachments/1/2/montana.png"}
    ]
    kept = cards.as_attachment_refs(cards.without_rows(components), attachments)
    (container,) = kept
    assert [c["type"] for c in container["components"]] == [10, 12, 10]
    assert container["components"][1]["items"][0]["media"] == {"url": "attachment://montana.png"}
    assert container["accent_color"] == 0x2864D7
