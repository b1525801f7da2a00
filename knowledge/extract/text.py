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
_WEB_LATIN = "cp1252"
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
    return data.decode(_detect(data[:_DETECTION_SAMPLE]), errors="replace")


def _detect(sample: bytes) -> str:
    """charset_normalizer's best guess; windows-1252 when it ties with the best.

    Short Western-European texts fit cp1250, cp1252, cp1257… equally well; windows-1252 is
    what the web means by latin-1 (WHATWG), so it wins ties.
    """
    matches = from_bytes(sample)
    best = matches.best()
    if best is None:
        raise ExtractionFailed("the text's character encoding could not be recognised")
    for match in matches:
        same_fit = (match.chaos, match.coherence) == (best.chaos, best.coherence)
        if same_fit and match.encoding == _WEB_LATIN:
            return _WEB_LATIN
    return best.encoding


def normalise_markdown(text: str) -> str:
    """One newline style, NFC, no trailing spaces, at most one blank line in a row."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
    text = text.replace("\x00", "").replace("\ufeff", "")
    text = _TRAILING_SPACE.sub("\n", text)
    return _BLANK_RUNS.sub("\n\n", text).strip()
