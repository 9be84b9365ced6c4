"""An animated GIF written frame by frame, so that a replay holds no more than two frames.

Pillow's own writer (`Image.save(save_all=True, append_images=...)`) takes an iterator
of frames but keeps every frame it has read (a full copy and a delta of each) until the
last one, then writes them all: memory grows with the game (about 2 MiB a turn). This
writer does what it does, with Pillow's own helpers, but writes each frame as soon as
the next one is known (a frame identical to the previous one only lengthens the
previous one's duration, so one frame waits): the bytes are Pillow's
(`tests/render/test_replay_memory.py` compares them).

    with GifWriter(out, transparency=255, disposal=1) as writer:
        for frame, duration in frames:
            writer.add(frame, duration)

The frames are "P" images on one palette; a frame must not be changed once added.
`out` needs only `write`: `ByteCounter` counts what goes past a limit without keeping it.

With `GifWriter(out, ..., ground=index)`, frames may be of different heights, each
padded at the bottom with `ground` to the tallest: the GIF is as tall as its tallest
frame, so the header and the first frame are written last, in front of the others
(`ByteCounter.prepend`), and a replay need not measure its frames before drawing the
first (issue 37). The bytes are those of the frames padded to the tallest beforehand.
"""

from __future__ import annotations

import contextlib
import io
from types import TracebackType
from typing import IO, Any, Protocol

from PIL import GifImagePlugin, Image, ImageChops


class Writable(Protocol):
    def write(self, data: bytes, /) -> int: ...


class ByteCounter(io.RawIOBase):
    """Keeps the first `limit` bytes written and counts them all (`count`): an encoding
    that has grown past the limit goes on being measured in flat memory."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.count = 0
        self._kept = io.BytesIO()

    def writable(self) -> bool:
        return True

    def write(self, data: Any, /) -> int:
        size = len(data)
        if self.count + size <= self.limit:
            self._kept.write(data)
        self.count += size
        return size

    def prepend(self, data: bytes, /) -> None:
        """`data` in front of everything written (counted alike)."""
        size = len(data)
        if not self.overflowed and self.count + size <= self.limit:
            self._kept = io.BytesIO(data + self._kept.getvalue())
            self._kept.seek(0, io.SEEK_END)
        self.count += size

    @property
    def overflowed(self) -> bool:
        return self.count > self.limit

    def getvalue(self) -> bytes:
        """Every byte written (only while within the limit)."""
        if self.overflowed:
            raise ValueError(f"{self.count} bytes written, {self.limit} kept")
        return self._kept.getvalue()


class GifWriter:
    """Pillow's multi-frame GIF save (`optimize`, a `transparency` index for unchanged
    pixels, one `disposal`, `loop`), one frame at a time; with `ground`, frames of
    different heights padded with that index (see the module's notes)."""

    def __init__(
        self,
        out: Writable,
        *,
        transparency: int,
        disposal: int,
        loop: int = 0,
        ground: int | None = None,
    ) -> None:
        if ground is not None and not isinstance(out, ByteCounter):
            raise TypeError("frames of different heights are written to a ByteCounter")
        self._out = out
        self._info: dict[str, Any] = {
            "loop": loop,
            "optimize": True,
            "transparency": transparency,
            "disposal": disposal,
        }
        self._ground = ground
        self._height = 0
        """The tallest frame's height yet (frames padded with `ground`)."""
        self._first: Image.Image | None = None
        self._previous: Image.Image | None = None
        self._pending: tuple[Image.Image, tuple[int, int, int, int] | None, dict[str, Any]] | None
        self._pending = None
        self._head: tuple[Image.Image, dict[str, Any]] | None = None
        """With `ground`: the first frame, written at `close` once the height is known."""
        self._last_duration = 0
        self._written = 0
        self.frames = 0
        """Frames added (identical neighbours included)."""

    @property
    def height(self) -> int:
        """The tallest frame's height yet."""
        return self._height

    def add(self, frame: Image.Image, duration: int) -> None:
        """As `_write_multiple_frames` reads each frame of `append_images`."""
        if self._ground is not None:
            self._height = max(self._height, frame.height)
            frame = padded(frame, self._height, self._ground)
        im_frame = GifImagePlugin._normalize_mode(frame)
        if self._first is None:
            self._first = frame
            for key, value in im_frame.info.items():
                if key != "transparency" and isinstance(key, str):
                    self._info.setdefault(key, value)
        info = self._info.copy()
        if "transparency" in im_frame.info:
            info.setdefault("transparency", im_frame.info["transparency"])
        im_frame = GifImagePlugin._normalize_palette(im_frame, None, info)
        info["duration"] = duration
        self._last_duration = duration
        self.frames += 1
        bbox: tuple[int, int, int, int] | None = None
        shown = im_frame
        if self._pending is not None and self._previous is not None:
            previous = self._previous
            if self._ground is not None and previous.height < im_frame.height:
                previous = padded(previous, im_frame.height, self._ground)
            delta, bbox = GifImagePlugin._getbbox(previous, im_frame)
            if not bbox:  # the same picture: the previous frame is shown longer
                previous_info = self._pending[2]
                previous_info["duration"] = previous_info.get("duration", 0) + duration
                return
            # disposal 1 and optimize (the only settings used): unchanged pixels
            # become the transparent index (a new one if the palette was optimized)
            if "transparency" not in info:
                assert im_frame.palette is not None
                with contextlib.suppress(ValueError):  # no colour left unused
                    info["transparency"] = im_frame.palette._new_color_index(im_frame)
            if "transparency" in info:
                if delta.mode == "RGBA":  # the frames' palettes differ (optimized apart)
                    r, g, b, a = delta.split()
                    delta = ImageChops.lighter(ImageChops.lighter(r, g), ImageChops.lighter(b, a))
                # only the changed box is written: its unchanged pixels made
                # transparent there (Pillow does it to the whole frame, then crops)
                unchanged = delta.crop(bbox).point([255, *(0,) * 255], "1")
                shown = im_frame.crop(bbox)
                shown.paste(info["transparency"], mask=unchanged)
        self._flush()
        self._previous = im_frame
        self._pending = (shown, bbox, info)

    def _flush(self) -> None:
        if self._pending is None:
            return
        shown, bbox, info = self._pending
        self._pending = None
        self._written += 1
        if bbox is None:
            if self._ground is not None:  # the first frame: written last, as tall as any
                self._head = (shown, info)
                return
            for part in GifImagePlugin._get_global_header(shown, info):
                self._out.write(part)
            offset = (0, 0)
        else:
            info["include_color_table"] = True
            if shown.size != (bbox[2] - bbox[0], bbox[3] - bbox[1]):
                shown = shown.crop(bbox)
            offset = bbox[:2]
        GifImagePlugin._write_frame_data(_as_io(self._out), shown, offset, info)

    def close(self, last_duration: int | None = None) -> None:
        """The last frame and the trailer; a single picture is written as Pillow writes
        a one-frame GIF. `last_duration`: the last frame's duration instead of the one
        it was added with."""
        if self._first is None:
            raise ValueError("a GIF needs a frame")
        if last_duration is not None and self._pending is not None:
            pending_info = self._pending[2]
            pending_info["duration"] += last_duration - self._last_duration
        if self._written == 0:
            assert self._pending is not None
            duration = self._pending[2]["duration"]
            self._pending = None
            first = self._first
            if self._ground is not None:
                first = padded(first, self._height, self._ground)
            buffer = io.BytesIO()
            first.save(
                buffer,
                format="GIF",
                save_all=True,
                append_images=[],
                duration=duration,
                loop=self._info["loop"],
                optimize=True,
                transparency=self._info["transparency"],
                disposal=self._info["disposal"],
            )
            self._write_head(buffer.getvalue())
            return
        self._flush()
        self._out.write(b";")
        if self._head is not None:
            shown, info = self._head
            assert self._ground is not None
            shown = padded(shown, self._height, self._ground)
            buffer = io.BytesIO()
            for part in GifImagePlugin._get_global_header(shown, info):
                buffer.write(part)
            GifImagePlugin._write_frame_data(buffer, shown, (0, 0), info)
            self._write_head(buffer.getvalue())

    def _write_head(self, data: bytes) -> None:
        """`data`, the GIF's beginning: written now, or in front of what was (`ground`)."""
        if self._ground is None:
            self._out.write(data)
            return
        assert isinstance(self._out, ByteCounter)  # checked when the writer was made
        self._out.prepend(data)

    def __enter__(self) -> GifWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if kind is None:
            self.close()


def padded(image: Image.Image, height: int, ground: int) -> Image.Image:
    """`image` extended at the bottom with the index `ground` to `height`."""
    if image.height >= height:
        return image
    canvas = Image.new("P", (image.width, height), ground)
    canvas.putpalette(image.getpalette() or [])
    canvas.paste(image, (0, 0))
    return canvas


def _as_io(out: Writable) -> IO[bytes]:
    """Pillow's frame writer only calls `write`."""
    return out  # type: ignore[return-value]
