"""A screenshot from the client, read once: decoded, checked to be a real image, scaled to
the width the model needs, and given a perceptual hash.

The hash (pHash, ``imagehash``) is what de-duplication compares: two captures of the same
screen differ in bytes (JPEG noise, a blinking caret) but not in their perceptual hash, so
the same screen is not sent to the model twice in a task; a real change (a dialog opened,
a list reloaded) changes it."""

from __future__ import annotations

import base64
import binascii
import io
import re
import warnings
from dataclasses import dataclass
from typing import Final

import imagehash
from PIL import Image, UnidentifiedImageError

MAX_WIDTH: Final = 1024  # spec: screenshots at 1024 px width are enough for layout
JPEG_QUALITY: Final = 70
MAX_PIXELS: Final = 40_000_000  # a decompression bomb is refused before it is decoded
SAME_SCREEN_DISTANCE: Final = 4  # pHash bits (of 64) two captures of one screen may differ by
_FORMATS: Final = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}
_DATA_URL: Final = re.compile(r"^data:image/[a-z+.-]+;base64,", re.IGNORECASE)


class ScreenshotInvalid(ValueError):
    """The screenshot is not a readable JPEG, PNG or WebP image."""


@dataclass(frozen=True, slots=True)
class Screenshot:
    """What is sent to the model (``data`` as ``mime_type``) and what identifies the screen."""

    data: bytes
    mime_type: str
    width: int
    height: int
    phash: str  # 16 hex digits
    received_bytes: int
    scaled: bool = False


def decode_base64(text: str) -> bytes:
    """The bytes of a base64 screenshot (a ``data:image/…;base64,`` prefix is allowed)."""
    body = _DATA_URL.sub("", text.strip(), count=1)
    try:
        return base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ScreenshotInvalid("the screenshot is not valid base64") from exc


def read_screenshot(text: str, *, max_width: int = MAX_WIDTH) -> Screenshot:
    """Decode, check and scale one screenshot. Raises :class:`ScreenshotInvalid`."""
    raw = decode_base64(text)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(raw))
            fmt = image.format or ""
            if fmt not in _FORMATS:
                raise ScreenshotInvalid(f"a screenshot must be JPEG, PNG or WebP, not {fmt or 'unknown'}")
            if image.width * image.height > MAX_PIXELS or not image.width or not image.height:
                raise ScreenshotInvalid(f"the screenshot is {image.width}x{image.height} pixels, too large to read")
            image.load()
    except (UnidentifiedImageError, OSError, Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
        raise ScreenshotInvalid("the screenshot is not a readable image") from exc
    if image.width <= max_width:
        return Screenshot(raw, _FORMATS[fmt], image.width, image.height, str(imagehash.phash(image)), len(raw))
    height = max(1, round(image.height * max_width / image.width))
    # reducing_gap: a cheap integer reduction first, then Lanczos; the hash is taken from the
    # scaled image (pHash is size-independent, and 4x fewer pixels to grey and shrink).
    scaled = image.convert("RGB").resize((max_width, height), Image.Resampling.LANCZOS, reducing_gap=2.0)
    out = io.BytesIO()
    scaled.save(out, format="JPEG", quality=JPEG_QUALITY)
    return Screenshot(out.getvalue(), "image/jpeg", max_width, height, str(imagehash.phash(scaled)), len(raw), scaled=True)


def same_screen(first: str | None, second: str | None, *, distance: int = SAME_SCREEN_DISTANCE) -> bool:
    """Two perceptual hashes (hex) of one screen: at most ``distance`` bits apart. A hash
    that is not a 64-bit pHash never matches (a client's own hash of another kind)."""
    if not first or not second:
        return False
    try:
        return imagehash.hex_to_hash(first.lower()) - imagehash.hex_to_hash(second.lower()) <= distance
    except (ValueError, TypeError):
        return False
