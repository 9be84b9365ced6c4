"""French typography, checked in every French translation (`python -m i18n check`).

- a narrow no-break space (U+202F) before `;`, `:`, `!` and `?`, and inside « »;
- the typographic apostrophe `’`, never `'`;
- « » quotes, never `"`.

What is not French prose is left alone: code spans (`` `build C4` ``), fields (`{who}`,
`{/me away:days}`), Discord's markup (`<#123>`, `<t:1:R>`) and links, and a colon inside a
word or number (`18:00`, `https:`).
"""

from __future__ import annotations

import re

NARROW_NBSP = "\u202f"
NBSP = "\u00a0"
HIGH_PUNCTUATION = ";:!?"

_NOT_PROSE = re.compile(
    r"`[^`]*`"  # code spans
    r"|\{[^{}]*\}"  # fields
    r"|<[^<>\s]*>"  # Discord mentions, channels, timestamps
    r"|\]\([^)]*\)"  # a Markdown link's address
    r"|https?://\S+"
)


def _prose_parts(text: str) -> list[tuple[int, int]]:
    """(start, end) of the stretches of `text` that are French prose."""
    parts, position = [], 0
    for found in _NOT_PROSE.finditer(text):
        parts.append((position, found.start()))
        position = found.end()
    parts.append((position, len(text)))
    return parts


def french_problems(text: str) -> list[str]:
    """What breaks French typography in `text`, one short line each."""
    found: list[str] = []
    prose = "".join(text[start:end] for start, end in _prose_parts(text))
    for mark in HIGH_PUNCTUATION:
        for match in re.finditer(re.escape(mark), prose):
            index = match.start()
            before = prose[index - 1] if index else ""
            after = prose[index + 1] if index + 1 < len(prose) else ""
            if before and before not in " \u00a0\u202f" and after and not after.isspace():
                continue  # inside a word or number: 18:00, ?!
            if before == mark or (before in "?!" and mark in "?!"):
                continue  # ?! and !!
            if before != NARROW_NBSP:
                found.append(f"no narrow no-break space before {mark!r}")
    if "'" in prose:
        found.append("a straight apostrophe (’ is French)")
    if '"' in prose:
        found.append("straight quotes (« » are French)")
    if re.search(r"«(?!\u202f)|(?<!\u202f)»", prose):
        found.append("no narrow no-break space inside « »")
    return sorted(set(found))


def french_fix(text: str) -> str:
    """`text` with French typography (what `french_problems` checks) put right."""
    pieces: list[str] = []
    position = 0
    for start, end in _prose_parts(text):
        pieces.append(text[position:start])
        pieces.append(_fix_prose(text[start:end]))
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _fix_prose(prose: str) -> str:
    prose = re.sub(r"[ \u00a0\u202f]*([;!?])(?=\s|$|[)»\]])", NARROW_NBSP + r"\1", prose)
    prose = re.sub(r"[ \u00a0\u202f]+:|(?<=[\w)»*])\s*:(?=\s|$)", NARROW_NBSP + ":", prose)
    prose = re.sub(r"(\w)'(\w)", r"\1’\2", prose)
    prose = re.sub(r"«[ \u00a0\u202f]*", "«" + NARROW_NBSP, prose)
    prose = re.sub(r"[ \u00a0\u202f]*»", NARROW_NBSP + "»", prose)
    return prose


_PO_STRING = re.compile(r'^(msgstr(?:\[\d+\])? )?"(.*)"$')
_PO_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def fix_french_po(po_text: str) -> str:
    """A French `.po` file's text with `french_fix` applied to every translation, line
    by line: the order, the wrapping and everything else stay as they are (a merge of
    other people's new entries stays clean). The header entry is left alone."""
    lines = po_text.split("\n")
    in_translation = False
    for index, line in enumerate(lines):
        found = _PO_STRING.match(line)
        if found is None:
            in_translation = False
            continue
        if found.group(1) is not None:  # msgstr "...": a translation starts
            in_translation = index > 0 and lines[index - 1] != 'msgid ""'
        if not in_translation:
            continue
        text = re.sub(r"\\(.)", lambda m: _PO_ESCAPES.get(m.group(1), m.group(1)), found.group(2))
        fixed = french_fix(text)
        escaped = (
            fixed.replace("\\", "\\\\")
            .replace('"', '\\"')
            .replace("\n", "\\n")
            .replace("\t", "\\t")
        )
        lines[index] = f'{found.group(1) or ""}"{escaped}"'
    return "\n".join(lines)
