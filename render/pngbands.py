"""PNG bytes written by bands of rows, each band compressed once for what it shows
(issue 37.4).

Compressing the picture (zlib, level 1) was more than half of a move picture's CPU: a
2000 x 1300 palette picture is 2.6 MB of rows, and zlib goes through them at about
190 MB/s whatever its level or strategy (the Huffman-only and RLE strategies are no
faster on these pictures, and larger). zlib-ng's fastest level goes through them about
twice as fast, for a PNG about a sixth larger (a 4-player mid-game picture 231 KiB for
196; Discord takes 10 MB): the bands are deflated by zlib-ng.

Most of a move's picture is what it was a move before: the same kept parts
(`render.layers`) at the same places, often the same rings and header lines. So the
rows are compressed in bands of BAND_ROWS rows, each band on its own (a raw deflate
stream ended on a byte boundary, no reference to the band before), and kept
compressed, keyed by what shows in it: the kept parts' keys and places, and a digest of
the pixels drawn for the picture over them (`_drawn_token`). The next picture that
shows the same there takes the band's bytes instead of compressing it again. The bands
are joined into one zlib stream (its checksum combined from the bands' own,
`adler32_combine`), the stream into a PNG.

The pixels are the picture's, and the bytes are the same whatever was kept before (a
band compresses alike wherever it is compressed); the file is larger than one stream by
the few bytes each band's ending takes and the window it does not share.
`tests/render/test_pngbands.py` draws every turn of a game in turn and compares each
PNG with the picture drawn whole.
"""

from __future__ import annotations

import itertools
import struct
import threading
import zlib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from PIL import Image
from zlib_ng import zlib_ng

from .caches import BoundedCache

BAND_ROWS = 16
"""Rows per band: smaller bands are kept more often (a change spoils fewer rows) but
each costs a little more to join and compresses a little worse."""
LEVEL = 1
"""The fastest level: on these flat palette pictures higher levels save little and cost
more time than the whole drawing."""
SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER = b"\x78\x01"
"""Deflate, a 32 KiB window, the fastest level (read by no decoder)."""
LAST_BLOCK = b"\x03\x00"
"""An empty final block (fixed codes): the bands end on a byte boundary, not final."""


@dataclass(frozen=True)
class Band:
    """A band of rows compressed: the raw deflate bytes, the Adler-32 checksum and the
    length of the rows it stands for."""

    data: bytes
    adler: int
    length: int


BAND_BYTES = 16 * 1024 * 1024
BANDS: BoundedCache[Band] = BoundedCache("png bands", BAND_BYTES)
"""The bands compressed, by what shows in them (about 2.5 KB each: a picture's worth is
about 200 KB)."""


@dataclass(frozen=True)
class Piece:
    """A part of a picture on the palette, at `origin`; `key` says what it shows for
    good (None: drawn for this picture, never kept)."""

    key: Hashable | None
    image: Image.Image
    origin: tuple[int, int]

    def rows(self) -> tuple[int, int]:
        return self.origin[1], self.origin[1] + self.image.height


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 checksum of two byte strings one after the other, from each one's
    checksum and the second's length (zlib's `adler32_combine`)."""
    base = 65521
    remainder = second_length % base
    low = first & 0xFFFF
    high = (remainder * low) % base
    low += (second & 0xFFFF) + base - 1
    high += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + base - remainder
    return (low % base) | ((high % base) << 16)


def _compressed(raw: bytes) -> Band:
    """A band's rows deflated by zlib-ng (at its fastest level, twice as fast as zlib's
    on these rows, the PNG about a sixth larger): any deflate stream is a PNG's."""
    compressor = zlib_ng.compressobj(LEVEL, zlib_ng.DEFLATED, -zlib_ng.MAX_WBITS)
    data = compressor.compress(raw) + compressor.flush(zlib_ng.Z_SYNC_FLUSH)
    return Band(data, zlib_ng.adler32(raw), len(raw))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _png(size: tuple[int, int], palette: Sequence[int], bands: Sequence[Band]) -> bytes:
    """The PNG of palette rows (8 bits a pixel, no interlacing) compressed in `bands`."""
    adler = 1
    for band in bands:
        adler = adler32_combine(adler, band.adler, band.length)
    stream = b"".join(
        (ZLIB_HEADER, *(band.data for band in bands), LAST_BLOCK, struct.pack(">I", adler))
    )
    header = struct.pack(">IIBBBBB", size[0], size[1], 8, 3, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(palette[: 3 * 256])),
            _chunk(b"IDAT", stream),
            _chunk(b"IEND", b""),
        )
    )


def _band_rows(height: int) -> list[tuple[int, int]]:
    return [(top, min(height, top + BAND_ROWS)) for top in range(0, height, BAND_ROWS)]


def _rows(width: int, top: int, bottom: int, ground: int, pieces: Sequence[Piece]) -> bytes:
    """The PNG rows `top` to `bottom` of the picture: each row's filter byte (0: none)
    then its pixels, the pieces painted in order over the ground."""
    band = Image.new("P", (width + 1, bottom - top), ground)
    band.paste(0, (0, 0, 1, bottom - top))
    for piece in pieces:
        x, y = piece.origin
        band.paste(piece.image, (x + 1, y - top))
    return band.tobytes()


def encode(image: Image.Image) -> bytes:
    """The PNG of the palette picture `image`, its bands compressed now (none kept)."""
    if image.mode != "P":
        raise ValueError(f"a palette picture is encoded here, not {image.mode}")
    width, height = image.size
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))
    raw = rows.tobytes()
    stride = width + 1
    bands = [_compressed(raw[top * stride : bottom * stride]) for top, bottom in _band_rows(height)]
    return _png(image.size, image.getpalette() or [], bands)


TOKENS_KEPT = 4096
_tokens: dict[Hashable, int] = {}
_next_token = itertools.count(1)
_tokens_lock = threading.Lock()


def _token(key: Hashable) -> int:
    """A number for what a kept piece shows, the same for the same key until the
    numbers are forgotten (beyond TOKENS_KEPT keys); never given to another key, so a
    band keyed by numbers forgotten is only compressed again. A piece's key can be
    long (a landscape's holds every field): a band's key holds the number."""
    with _tokens_lock:
        token = _tokens.get(key)
        if token is None:
            if len(_tokens) >= TOKENS_KEPT:
                _tokens.clear()
            token = _tokens[key] = next(_next_token)
        return token


def _drawn_token(piece: Piece, pixels: bytes, top: int, bottom: int) -> Hashable:
    """What a piece drawn for this picture shows in rows `top` to `bottom`: where it
    lies and a digest of its pixels there (a header's line, a ring, often as they
    were a move before). The digest is Python's hash of the bytes (SipHash, 64 bits,
    keyed afresh in each process: no text a player writes can aim at another band's),
    with their CRC-32 beside it: 96 bits, and a third of a cryptographic digest's time."""
    x, y = piece.origin
    first, last = max(top, y) - y, min(bottom, y + piece.image.height) - y
    stride = piece.image.width
    rows = pixels[first * stride : last * stride]
    return ("drawn", x, y, stride, first, last, hash(rows), zlib.crc32(rows))


def encode_pieces(
    size: tuple[int, int], palette: Sequence[int], ground: int, pieces: Sequence[Piece]
) -> bytes:
    """The PNG of the picture `size` large made of `pieces` painted in order over the
    `ground` index: each band is keyed by what shows in it (the kept pieces' keys, the
    pixels of those drawn for this picture) and taken as kept, or compressed and kept
    for the next picture. The rows of bands next to each other that are not kept are
    painted together."""
    width, height = size
    placed: list[Hashable] = [None if p.key is None else (_token(p.key), *p.origin) for p in pieces]
    pixels = [p.image.tobytes() if p.key is None else b"" for p in pieces]
    rows = _band_rows(height)
    # the pieces over each band, in painting order
    over: list[list[int]] = [[] for _ in rows]
    for index, piece in enumerate(pieces):
        first, last = piece.rows()
        for band in range(max(0, first) // BAND_ROWS, min(len(rows), -(-last // BAND_ROWS))):
            over[band].append(index)
    keys: list[Hashable] = []
    bands: list[Band | None] = []
    for (top, bottom), shown_over in zip(rows, over, strict=True):
        shown = [
            placed[i]
            if pieces[i].key is not None
            else _drawn_token(pieces[i], pixels[i], top, bottom)
            for i in shown_over
        ]
        key = (width, top, bottom, ground, *shown)
        keys.append(key)
        bands.append(BANDS.get(key))
    missing = [index for index, band in enumerate(bands) if band is None]
    for run in _runs(missing):
        top, bottom = rows[run[0]][0], rows[run[-1]][1]
        painted = {i for band in run for i in over[band]}
        raw = _rows(width, top, bottom, ground, [pieces[i] for i in sorted(painted)])
        stride = width + 1
        for band in run:
            band_top, band_bottom = rows[band]
            compressed = _compressed(raw[(band_top - top) * stride : (band_bottom - top) * stride])
            BANDS.put(keys[band], compressed, len(compressed.data) + 200)
            bands[band] = compressed
    return _png(size, palette, [band for band in bands if band is not None])


def _runs(indices: Sequence[int]) -> list[list[int]]:
    """`indices` (ascending) in runs of consecutive numbers."""
    runs: list[list[int]] = []
    for index in indices:
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


__all__ = ["BANDS", "Piece", "adler32_combine", "encode", "encode_pieces"]
