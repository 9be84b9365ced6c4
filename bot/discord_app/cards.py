"""Messages as cards: Discord's Components V2 layout (`IS_COMPONENTS_V2`).

A card is one container, its accent in the colour of the player it concerns (the
renderer's own colours, `render.palette`), holding text displays (a header, the words,
notes), the picture as a media gallery item referenced ``attachment://<file name>`` with
its alt text, and the action rows of its buttons and selects. The words are the core's
(`bot.core.wording`); this module only lays them out.

Discord's limits on such a message (checked by the fake Discord and by
`tests/bot/test_card_limits.py`): 4,000 characters of text across its displays, 40
components counted nested, 5 buttons per row, 25 options per select. A V2 message has
no ``content``: the outbox's identity (`bot.discord_app.delivery.announce.identity_mark`)
ends its last text display, and `words_of` reads a message's words whichever layout it
has. A V2 message keeps its flag for good: an edit sends its components again (never
``content``), and taking a prompt's buttons off (`without_buttons`) keeps its text and
picture.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import discord

from bot.discord_app.emojis import installed as installed_emojis
from render import icon_set
from render.palette import PLAYER_RGB, seat_colour
from rules import Game

TEXT_LIMIT = 4000
"""Characters of text across a V2 message's text displays."""
COMPONENT_LIMIT = 40
"""Components in a V2 message, nested ones counted."""
COMPONENTS_V2 = 1 << 15
"""The message flag of the layout (`discord.MessageFlags.components_v2`)."""

Json = dict[str, Any]


class Card(discord.ui.LayoutView):
    """The components of one card, which discord.py need not watch (as
    `components.Components`: every item is a `DynamicItem` or a link, so the view is
    stopped at birth and never stored)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.stop()


def player_colour(game: Game, player_id: str | None) -> discord.Colour | None:
    """The renderer's colour of `player_id`'s seat (None: nobody, or not seated)."""
    if player_id is None:
        return None
    try:
        seat = game.seat_of(player_id)
    except (KeyError, ValueError):
        return None
    red, green, blue = PLAYER_RGB[seat_colour(seat)]
    return discord.Colour.from_rgb(red, green, blue)


def player_icon(game: Game, player_id: str | None) -> str:
    """The settlement in `player_id`'s colour as the picture draws it, as words show it
    (the application's emoji, else its Unicode square; nothing for nobody)."""
    if player_id is None:
        return ""
    try:
        seat = game.seat_of(player_id)
    except (KeyError, ValueError):
        return ""
    return installed_emojis().text(icon_set.house(seat_colour(seat)))


@dataclass
class CardParts:
    """What a card holds, top to bottom: `words` (what happened: cut from the start when
    the card is too long), the picture (`picture`: its file name, `alt`: its
    description), `header` (who must act, and what: right above the buttons that
    answer it), `notes` (small print, each its own line), then `rows` (the buttons and
    selects of a classic view, row by row)."""

    header: str = ""
    words: str = ""
    picture: str | None = None
    alt: str = ""
    notes: list[str] = field(default_factory=list)
    rows: discord.ui.View | None = None
    colour: discord.Colour | int | None = None


def fit_texts(texts: Sequence[str], mark: str = "", cut: int = 0) -> list[str]:
    """`texts` (the displays) within `TEXT_LIMIT` in all with `mark` ending the last:
    text `cut` loses its beginning first, then the others their ends."""
    texts = list(texts)
    budget = TEXT_LIMIT - len(mark)
    over = sum(map(len, texts)) - budget
    if over > 0 and 0 <= cut < len(texts) and texts[cut]:
        keep = max(len(texts[cut]) - over - 1, 0)
        texts[cut] = "…" + texts[cut][len(texts[cut]) - keep :] if keep else ""
        over = sum(map(len, texts)) - budget
    for index in range(len(texts) - 1, -1, -1):
        if over <= 0:
            break
        keep = max(len(texts[index]) - over - 1, 0)
        over -= len(texts[index]) - keep
        texts[index] = texts[index][:keep] + "…" if keep else ""
    if mark:
        filled = [i for i, text in enumerate(texts) if text]
        last = filled[-1] if filled else len(texts) - 1
        texts[last] = texts[last].rstrip() + mark
    return texts


def action_rows(view: discord.ui.View | None) -> list[discord.ui.ActionRow[Card]]:
    """The rows of a classic view's items (their `row` as laid out), in order."""
    if view is None:
        return []
    by_row: dict[int, list[discord.ui.Item[Any]]] = {}
    for index, item in enumerate(view.children):
        rendered = getattr(item, "_rendered_row", None)
        row = rendered if rendered is not None else item.row
        by_row.setdefault(row if row is not None else 100 + index, []).append(item)
    rows: list[discord.ui.ActionRow[Card]] = []
    for key in sorted(by_row):
        rows.append(discord.ui.ActionRow(*by_row[key]))
    return rows


def build(parts: CardParts, mark: str = "") -> Card:
    """The card of `parts`, its last text display ending with `mark` (the outbox's
    identity of the message, or nothing): the words, the picture, the header and the
    notes right above the rows they are about."""
    small = [f"-# {note}" for note in parts.notes]
    words, lines = fit_texts([parts.words, "\n".join(t for t in (parts.header, *small) if t)], mark)
    container: discord.ui.Container[Card] = discord.ui.Container(accent_colour=parts.colour)
    if words:
        container.add_item(discord.ui.TextDisplay(words))
    if parts.picture:
        item = discord.MediaGalleryItem(
            f"attachment://{parts.picture}", description=parts.alt[:1024] or None
        )
        container.add_item(discord.ui.MediaGallery(item))
    if lines:
        container.add_item(discord.ui.TextDisplay(lines))
    for row in action_rows(parts.rows):
        container.add_item(row)
    if not container.children:
        container.add_item(discord.ui.TextDisplay("…" + mark))
    card = Card()
    card.add_item(container)
    return card


def simple(
    text: str,
    /,
    *,
    colour: discord.Colour | int | None = None,
    rows: discord.ui.View | None = None,
    picture: str | None = None,
    alt: str = "",
) -> Card:
    """A card of one text (a lobby, a summary, a list), its picture and its rows."""
    return build(CardParts(header=text, picture=picture, alt=alt, rows=rows, colour=colour))


def from_embed(embed: discord.Embed, rows: discord.ui.View | None = None) -> Card:
    """A card saying what `embed` says, in the embed's colour: its title as a heading
    over its description, each field a text display of its own (its name in bold over
    its value), its image as the picture, its footer in small print, then `rows`."""
    head = [f"### {embed.title}"] if embed.title else []
    if embed.description:
        head.append(embed.description)
    texts = ["\n".join(head), *(f"**{f.name}**\n{f.value}" for f in embed.fields)]
    if embed.footer.text:
        texts.append(f"-# {embed.footer.text}")
    container: discord.ui.Container[Card] = discord.ui.Container(accent_colour=embed.colour)
    for text in fit_texts(texts, cut=0):
        if text:
            container.add_item(discord.ui.TextDisplay(text))
    if embed.image.url and embed.image.url.startswith("attachment://"):
        item = discord.MediaGalleryItem(embed.image.url, description=(embed.title or "")[:1024])
        container.add_item(discord.ui.MediaGallery(item))
    for row in action_rows(rows):
        container.add_item(row)
    card = Card()
    card.add_item(container)
    return card


class _UserRef:
    """A user as `discord.AllowedMentions` lists them, its id kept a string: Discord's
    spec types a snowflake in a request as a string (discord.py's `Object` would send
    the number)."""

    def __init__(self, user_id: str) -> None:
        self.id = user_id


def user_ref(user_id: str) -> discord.abc.Snowflake:
    """Whom a message may ping, for `discord.AllowedMentions(users=[...])`."""
    return cast("discord.abc.Snowflake", _UserRef(str(int(user_id))))


# ------------------------------------------------------------------ reading a message back


def walk(components: Iterable[Any]) -> Iterator[Any]:
    """Every component of a message as discord.py reads it, depth first (containers,
    sections and their accessory, rows and their items)."""
    for component in components:
        yield component
        yield from walk(getattr(component, "children", None) or [])
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from walk([accessory])


def words_of(message: discord.Message) -> str:
    """A message's words as Discord keeps them: its content, or the text displays of a
    card joined by new lines (where a card's identity ends)."""
    if message.content:
        return message.content
    return "\n".join(
        str(c.content) for c in walk(message.components) if isinstance(c, discord.TextDisplay)
    )


def is_card(message: discord.Message) -> bool:
    return bool(message.flags.value & COMPONENTS_V2)


def has_rows(message: discord.Message) -> bool:
    """Whether a message (classic or card) carries buttons or selects."""
    return any(isinstance(c, discord.ActionRow) for c in walk(message.components))


def shows_picture(components: Iterable[Json], name: str) -> bool:
    """Whether a card's components (JSON) show the attachment `name`."""
    wanted = f"attachment://{name}"
    for component in components:
        for item in component.get("items") or []:
            if (item.get("media") or {}).get("url") == wanted:
                return True
        if shows_picture(component.get("components") or [], name):
            return True
    return False


def without_rows(components: Iterable[Json]) -> list[Json]:
    """A card's components (as JSON) without its action rows: its text and picture stay."""
    kept: list[Json] = []
    for component in components:
        if component.get("type") == 1:
            continue
        copy = dict(component)
        if isinstance(copy.get("components"), list):
            copy["components"] = without_rows(copy["components"])
        accessory = copy.get("accessory")
        if isinstance(accessory, dict) and accessory.get("type") in (2, 3):
            copy.pop("accessory")  # a section keeps its text; Discord needs an accessory
            copy = {"type": 10, "content": _section_text(copy)}
        kept.append(copy)
    return kept


def _section_text(section: Json) -> str:
    return "\n".join(str(c.get("content") or "") for c in section.get("components") or [])


def sent_components(card: Card) -> list[Json]:
    """The JSON of a card as it is sent."""
    components: list[Json] = card.to_components()  # type: ignore[no-untyped-call]
    return components


def as_attachment_refs(components: list[Json], attachments: Sequence[Json]) -> list[Json]:
    """A card read back from Discord, ready to be sent again: its media items point to
    their attachments by name again (``attachment://<file name>``, what keeps them) instead
    of the addresses Discord answered with."""
    by_url = {}
    for attachment in attachments:
        name = attachment.get("filename")
        for key in ("url", "proxy_url"):
            if attachment.get(key):
                by_url[str(attachment[key]).split("?")[0]] = name

    def fixed(component: Json) -> Json:
        copy = dict(component)
        if copy.get("type") == 12:
            copy["items"] = [_media_ref(item, by_url) for item in copy.get("items") or []]
        key = {11: "media", 13: "file"}.get(int(copy.get("type") or 0))
        if key is not None and isinstance(copy.get(key), dict):
            copy[key] = _unfurled_ref(copy[key], by_url)
        if isinstance(copy.get("components"), list):
            copy["components"] = [fixed(c) for c in copy["components"]]
        if isinstance(copy.get("accessory"), dict):
            copy["accessory"] = fixed(copy["accessory"])
        return copy

    return [fixed(c) for c in components]


def _unfurled_ref(media: Json, by_url: dict[str, Any]) -> Json:
    url = str(media.get("url") or "")
    name = by_url.get(url.split("?")[0])
    return {"url": f"attachment://{name}" if name else url}


def _media_ref(item: Json, by_url: dict[str, Any]) -> Json:
    copy = {k: v for k, v in item.items() if k in ("description", "spoiler")}
    copy["media"] = _unfurled_ref(item.get("media") or {}, by_url)
    return copy


Shown = dict[int, list[Json]]
"""Cards posted lately without their rows, by message id (`take_rows_off` needs no read
of a card it knows: clearing an old prompt stays one request)."""
SHOWN_KEPT = 256


def remember(shown: Shown, message_id: int, card: Card) -> None:
    """Keep the card just posted or edited as message `message_id`, without its rows."""
    shown.pop(message_id, None)
    shown[message_id] = without_rows(sent_components(card))
    while len(shown) > SHOWN_KEPT:
        shown.pop(next(iter(shown)))


def remember_read(shown: Shown, message: discord.Message) -> None:
    """Keep a card read back from Discord (a look at a channel's newest messages), so
    that taking its rows off needs no second read."""
    if not is_card(message):
        return
    components: list[Json] = [c.to_dict() for c in message.components]  # type: ignore[misc]
    attachments = [
        {"filename": a.filename, "url": a.url, "proxy_url": a.proxy_url}
        for a in message.attachments
    ]
    shown.pop(message.id, None)
    shown[message.id] = as_attachment_refs(without_rows(components), attachments)
    while len(shown) > SHOWN_KEPT:
        shown.pop(next(iter(shown)))


async def take_rows_off(
    client: discord.Client | Any, channel_id: int, message_id: int, shown: Shown | None = None
) -> None:
    """Take the buttons and selects off a message, keeping everything else: a classic
    message loses its rows (``components: []``), a card is sent again without them (its
    text and picture stay; the V2 flag too, which Discord never lets go). A card not in
    `shown` is read first. Discord's errors are raised as they are."""
    known = (shown or {}).get(message_id)
    if known is None:
        data: Any = await client.http.get_message(channel_id, message_id)
        if not int(data.get("flags") or 0) & COMPONENTS_V2:
            payload: Json = {"components": []}
        else:
            known = as_attachment_refs(
                without_rows(data.get("components") or []), data.get("attachments") or []
            )
    if known is not None:
        payload = {"components": known, "flags": COMPONENTS_V2}
    params = discord.http.MultipartParameters(payload=payload, multipart=None, files=None)
    await client.http.edit_message(channel_id, message_id, params=params)
    if shown is not None:
        shown.pop(message_id, None)


def count_components(components: Iterable[Json]) -> int:
    """Components counted as Discord counts them toward its 40: every one, nested."""
    total = 0
    for component in components:
        total += 1
        total += count_components(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            total += 1
    return total


def text_length(components: Iterable[Json]) -> int:
    """Characters across the text displays of `components` (JSON), nested."""
    total = 0
    for component in components:
        if component.get("type") == 10:
            total += len(str(component.get("content") or ""))
        total += text_length(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            total += text_length([component["accessory"]])
    return total


__all__ = [
    "COMPONENTS_V2",
    "COMPONENT_LIMIT",
    "TEXT_LIMIT",
    "Card",
    "CardParts",
    "Shown",
    "action_rows",
    "as_attachment_refs",
    "build",
    "count_components",
    "fit_texts",
    "from_embed",
    "has_rows",
    "is_card",
    "player_colour",
    "remember",
    "remember_read",
    "sent_components",
    "shows_picture",
    "simple",
    "take_rows_off",
    "text_length",
    "user_ref",
    "walk",
    "without_rows",
    "words_of",
]
