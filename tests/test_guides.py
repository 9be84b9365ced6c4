"""The README and the guides in docs/ name only commands that exist, and their links lead
somewhere (issue 26 point 6).

Every `/montana …` the markdown names — in backticks (`/montana game new language:`,
`/montana leaderboard [page]`, siblings as in "`/montana recruit`, `work`") or in plain
text — must be a path of the command tree the client registers, with options it has; a
name in another language (`/montana construire`) must be that language's name. So must
every other top-level command named (`/montana-games`). A relative
link must lead to a file that exists, and its `#anchor` to a heading of that file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.core.server.settings import Settings
from bot.discord_app import client as bot_client
from bot.discord_app.translator import CommandTranslator

ROOT = Path(__file__).resolve().parent.parent
GUIDES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKDOWN = [
    *GUIDES,
    *(ROOT / package / "README.md" for package in ("bot", "rules", "ai", "i18n")),
]

SUBCOMMAND, GROUP = 1, 2
FENCE = re.compile(r"^[ \t]*```.*?^[ \t]*```", re.M | re.S)
INLINE = re.compile(r"`((?:[^`\n]|\n(?![ \t]*\n))+)`")  # within a paragraph
MONTANA = re.compile(r"(?<![\w./-])/(montana(?:-[\w-]*\w)?)(?![\w.-])")
"""`/montana` and the other top-level commands whose names start with it (`/montana-games`)."""
SIBLINGS = re.compile(r"\s*,\s*`([\w-]+)`")
OPTION = re.compile(r"^\[?([\w-]+):?\]?$|^([\w-]+):.*$")
WORD = re.compile(r"^[^\W\d][\w-]*$")


@dataclass
class Node:
    """One command or group: its children and options by the names of one language."""

    children: dict[str, Node] = field(default_factory=dict)
    options: set[str] = field(default_factory=set)
    leaf: bool = False


async def trees() -> dict[str, Node]:
    """The client's top-level commands as Discord receives them, one tree per locale
    (its root's children: `montana`, `montana-games`)."""
    bot = bot_client.MontanaBot(Settings(token=None, db_path=":memory:"))
    await bot.tree.set_translator(CommandTranslator())
    assert bot.tree.translator is not None
    payloads = [
        await command.get_translated_payload(bot.tree, bot.tree.translator)
        for command in bot.tree._get_all_commands()
    ]
    locales = {"en"} | {
        locale
        for payload in payloads
        for item in walk(payload)
        for locale in (item.get("name_localizations") or {})
    }
    return {locale: root_of(payloads, locale) for locale in locales}


def root_of(payloads: list[dict[str, Any]], locale: str) -> Node:
    """The top-level commands by their names in `locale`, and by their English names
    too (a guide writes `/montana 建築` for the Japanese `/モンタナ 建築`)."""
    root = node_of({"options": payloads}, locale)
    root.children |= {payload["name"]: node_of(payload, locale) for payload in payloads}
    return root


def walk(item: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield item
    for option in item.get("options") or []:
        yield from walk(option)


def node_of(item: dict[str, Any], locale: str) -> Node:
    node = Node()
    options = item.get("options") or []
    node.leaf = not any(option["type"] in (SUBCOMMAND, GROUP) for option in options)
    for option in options:
        name = str((option.get("name_localizations") or {}).get(locale, option["name"]))
        if option.get("type", SUBCOMMAND) in (SUBCOMMAND, GROUP):
            node.children[name] = node_of(option, locale)
        else:
            node.options.add(name)
    return node


@dataclass(frozen=True)
class Mention:
    """A command named in a markdown file: where, its path and the options it names."""

    where: str
    path: tuple[str, ...]
    options: tuple[str, ...] = ()
    plain: bool = False

    def __str__(self) -> str:
        words = " ".join((*self.path, *(f"{o}:" for o in self.options)))
        return f"{self.where}: /{words}"


def mentions(path: Path) -> Iterator[Mention]:
    yield from mentions_in(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))


def mentions_in(text: str, name: str) -> Iterator[Mention]:
    for block in FENCE.finditer(text):
        yield from plain_mentions(block.group(), name, line_of(text, block.start()))
    prose = FENCE.sub(lambda block: "\n" * block.group().count("\n"), text)
    for span in INLINE.finditer(prose):
        content = " ".join(span.group(1).split())
        found = MONTANA.search(content)
        if not found:
            continue
        where = f"{name}:{line_of(prose, span.start())}"
        mention = inline_mention(found.group(1), content[found.end() :], where)
        yield mention
        rest = prose[span.end() :]
        while len(mention.path) > 1 and (sibling := SIBLINGS.match(rest)):
            yield Mention(where, (*mention.path[:-1], sibling.group(1)))
            rest = rest[sibling.end() :]
    yield from plain_mentions(
        INLINE.sub(lambda s: re.sub(r"[^\n]", " ", s.group()), prose), name, 1
    )


def inline_mention(root: str, words: str, where: str) -> Mention:
    """`/montana game new turn_hours: language: fr` or `/montana stats [player]`: the
    words before the first option are the path; an option's value is skipped."""
    path: list[str] = [root]
    options: list[str] = []
    tokens = words.split()
    for index, token in enumerate(tokens):
        option = OPTION.match(token)
        named = ":" in token or token.startswith("[")
        if named and option:
            options.append(option.group(1) or option.group(2))
        elif not options and not (index and tokens[index - 1].endswith(":")):
            path.append(token)
    return Mention(where, tuple(path), tuple(options))


def plain_mentions(text: str, name: str, first_line: int) -> Iterator[Mention]:
    """`/montana` in prose or a code block: the command words that follow, at most three;
    the test walks them against the tree as far as they go."""
    for found in MONTANA.finditer(text):
        words = [found.group(1)]
        for token in text[found.end() :].split()[:3] if found.group(1) == "montana" else []:
            word = token.rstrip(").,;:")
            if not WORD.match(word) or word != word.lower():
                break
            words.append(word)
            if word != token:
                break
        yield Mention(
            f"{name}:{first_line + text.count(chr(10), 0, found.start())}", tuple(words), plain=True
        )


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def problem(mention: Mention, trees: dict[str, Node]) -> str | None:
    """Why `mention` names no command of any one locale's tree, or None."""
    reasons = []
    for locale, root in sorted(trees.items()):
        node, reason = root, ""
        for depth, word in enumerate(mention.path):
            if word in node.children:
                node = node.children[word]
            elif mention.plain and node.leaf:
                break  # prose goes on after a whole command
            else:
                reason = f"no '{word}' after /{' '.join(mention.path[:depth])}"
                break
        if not reason and mention.options and not node.leaf:
            reason = "a group has no options"
        if not reason and (missing := [o for o in mention.options if o not in node.options]):
            reason = f"no option {', '.join(missing)}"
        if not reason:
            return None
        reasons.append(f"{locale}: {reason}")
    return f"{mention} — {reasons[0]}"


async def test_every_command_the_guides_name_exists() -> None:
    tree = await trees()
    found = [mention for path in GUIDES for mention in mentions(path)]
    assert len(found) > 100, "the guides name the commands; the parser lost them"
    problems = [p for mention in found if (p := problem(mention, tree))]
    assert not problems, "\n".join(problems)


def commands(node: Node, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    if node.leaf and path:
        yield path
    for name, child in node.children.items():
        yield from commands(child, (*path, name))


async def test_every_command_is_in_a_users_guide() -> None:
    """A command nobody can read about is as good as missing: each one is named in the
    players' or the administrators' guide (or still in the README)."""
    tree = await trees()
    readers = [ROOT / "README.md", ROOT / "docs" / "players.md", ROOT / "docs" / "server-admins.md"]
    named = {mention.path for page in readers for mention in mentions(page)}
    assert [" ".join(path) for path in commands(tree["en"]) if path not in named] == []


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("`/montana game new language:`", False),
        ("`/montana game nwe`", True),
        ("`/montana game new colour:`", True),
        ("`/montana recruit`, `work`, `city`", False),
        ("`/montana status`, `log`", True),
        ("`/montana leaderboard [page] [post]`", False),
        ("`/montana me notify heads_up: True`", False),
        ("`/montana\n  game history`", False),
        ("`/montana game`", False),
        ("`/montana gaem`", True),
        ("`/montana game language:`", True),
        ("Type /montana board to see it", False),
        ("Type /montana settings to see it", True),
        ("`/montana-games` in a DM", False),
        ("Type /montana-games in a DM", False),
        ("`/montana-game` in a DM", True),
        ("`/montana-games board`", True),
    ],
)
async def test_the_checker_tells_a_real_command_from_a_wrong_one(text: str, bad: bool) -> None:
    tree = await trees()
    problems = [p for mention in mentions_in(text, "probe") if (p := problem(mention, tree))]
    assert bool(problems) == bad, problems


LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path: Path) -> set[str]:
    """GitHub's anchors of the headings of `path`."""
    headings = re.findall(r"^#+\s+(.*)$", FENCE.sub("", path.read_text(encoding="utf-8")), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_every_link_between_the_markdown_files_leads_somewhere() -> None:
    problems = []
    for page in MARKDOWN:
        text = FENCE.sub("", page.read_text(encoding="utf-8"))
        for target in LINK.findall(text):
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto: — not ours to check
            file_part, _, anchor = target.partition("#")
            linked = (page.parent / file_part).resolve() if file_part else page
            if not linked.exists():
                problems.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                problems.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not problems, "\n".join(problems)
