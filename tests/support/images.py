"""Small page-like screenshots made with Pillow for the vision tests: a header bar, a few
buttons and an icon in a corner, so perceptual hashes of different layouts differ."""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

Box = tuple[int, int, int, int]
DEFAULT_BOXES: tuple[Box, ...] = ((40, 120, 240, 170), (40, 200, 240, 250), (900, 20, 980, 70))


def screenshot(
    width: int = 1024,
    height: int = 640,
    *,
    boxes: Sequence[Box] = DEFAULT_BOXES,
    fmt: str = "JPEG",
    colour: tuple[int, int, int] = (30, 90, 200),
    noise: int = 0,
) -> bytes:
    """An encoded image: white page, grey header, coloured boxes; ``noise`` shifts every
    pixel's brightness a little (a re-encoded or slightly re-rendered capture of one screen)."""
    image = Image.new("RGB", (width, height), (255 - noise, 255 - noise, 255 - noise))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, height // 10), fill=(60, 60, 60))
    for box in boxes:
        draw.rectangle(box, fill=colour)
    out = io.BytesIO()
    image.save(out, format=fmt, **({"quality": 80} if fmt == "JPEG" else {}))
    return out.getvalue()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def other_layout(**options: object) -> bytes:
    """A visibly different screen (a dialog in the middle, no buttons on the left)."""
    return screenshot(boxes=((300, 200, 720, 480), (640, 420, 700, 460)), **options)  # type: ignore[arg-type]
