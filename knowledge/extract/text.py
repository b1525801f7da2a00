"""Bytes → text for the text formats, and the whitespace normalisation they share."""

from __future__ import annotations

import codecs
import re
import unicodedata

from charset_normalizer import from_bytes

from knowledge.extract.model import ExtractionFailed

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_DETECTION_SAMPLE = 1_000_000
_BLANK_RUNS = re.compile(r"\n{3,}")
_TRAILING_SPACE = re.compile(r"[ \t]+\n")


def decode_text(data: bytes) -> str:
    """Decode text whose encoding nobody declared: BOM, then UTF-8, then detection.

    UTF-8 is tried first because it is by far the most common and a strict decode of it
    almost never succeeds by accident; charset_normalizer then guesses legacy encodings
    (latin-1, cp1252, Shift-JIS…) from a sample so a 20 MB file costs bounded time.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data.decode(encoding, errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    best = from_bytes(data[:_DETECTION_SAMPLE]).best()
    if best is None or best.encoding is None:
        raise ExtractionFailed("the text's character encoding could not be recognised")
    return data.decode(best.encoding, errors="replace")


def normalise_markdown(text: str) -> str:
    """One newline style, NFC, no trailing spaces, at most one blank line in a row."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = text.replace("\x00", "").replace("\ufeff", "")
    text = _TRAILING_SPACE.sub("\n", text)
    return _BLANK_RUNS.sub("\n\n", text).strip()
