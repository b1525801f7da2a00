"""Which format a document is, from its bytes, its declared type and its file name.

Magic bytes win over what a server or browser declares: a PDF served as text/html is a
PDF, and a PNG uploaded as text/plain is refused rather than ingested as mojibake.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import PurePosixPath

from knowledge.extract.model import (
    CSV,
    DOCX,
    HTML,
    JSON,
    MARKDOWN,
    PDF,
    SUPPORTED_TYPES,
    TEXT,
    UnsupportedMediaType,
)

_ALIASES: dict[str, str] = {
    "application/xhtml+xml": HTML,
    "text/x-markdown": MARKDOWN,
    "text/md": MARKDOWN,
    "application/x-pdf": PDF,
    "text/json": JSON,
    "application/ld+json": JSON,
    "application/csv": CSV,
    "text/comma-separated-values": CSV,
    "text/x-csv": CSV,
}
_EXTENSIONS: dict[str, str] = {
    ".html": HTML,
    ".htm": HTML,
    ".xhtml": HTML,
    ".pdf": PDF,
    ".docx": DOCX,
    ".md": MARKDOWN,
    ".markdown": MARKDOWN,
    ".txt": TEXT,
    ".text": TEXT,
    ".json": JSON,
    ".csv": CSV,
}
_GENERIC = frozenset({"", TEXT, "application/octet-stream", "binary/octet-stream"})
_BINARY_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
    (b"RIFF", "application/octet-stream"),
    (b"\x1f\x8b", "application/gzip"),
    (b"\xd0\xcf\x11\xe0", "application/msword"),
    (b"\x7fELF", "application/octet-stream"),
)
_HTML_START = re.compile(rb"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body)\b", re.I | re.S)
_HTML_FRAGMENT = re.compile(
    rb"^\s*<(?:div|p|span|h[1-6]|table|ul|ol|article|section|main|header|a|form)\b[^>]*>", re.I
)
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def sniff_media_type(
    data: bytes, *, declared: str | None = None, filename: str | None = None
) -> str:
    """The canonical media type of ``data``, or UnsupportedMediaType naming what it is."""
    declared_type = _normalise_declared(declared)
    from_bytes = _from_magic(data, docx_hinted=DOCX in (declared_type, _from_filename(filename)))
    if from_bytes is not None:
        return from_bytes
    if declared_type not in _GENERIC:
        if declared_type in SUPPORTED_TYPES:
            return declared_type
        raise UnsupportedMediaType(declared_type)
    by_name = _from_filename(filename)
    if by_name is not None:
        return by_name
    if _looks_binary(data):
        raise UnsupportedMediaType("application/octet-stream")
    if _HTML_START.match(data[:4096]) or _HTML_FRAGMENT.match(data[:4096]):
        return HTML
    if declared_type == TEXT:
        return TEXT
    stripped = data[:64].lstrip()
    if stripped[:1] in (b"{", b"[") and _is_json(data):
        return JSON
    return TEXT


def _normalise_declared(declared: str | None) -> str:
    media_type = (declared or "").split(";", 1)[0].strip().lower()
    return _ALIASES.get(media_type, media_type)


def _from_magic(data: bytes, *, docx_hinted: bool) -> str | None:
    head = data[:16]
    if data[:1024].lstrip().startswith(b"%PDF-"):
        return PDF
    if head.startswith(b"PK\x03\x04"):
        return _zip_type(data, docx_hinted=docx_hinted)
    for magic, media_type in _BINARY_MAGIC:
        if head.startswith(magic):
            raise UnsupportedMediaType(media_type)
    return None


def _zip_type(data: bytes, *, docx_hinted: bool) -> str:
    """A .docx is a zip holding word/document.xml; any other zip is refused.

    A damaged zip said to be a .docx stays a .docx, so reading it fails as a damaged
    document (422) rather than as an unsupported type (415).
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except zipfile.BadZipFile:
        if docx_hinted:
            return DOCX
        raise UnsupportedMediaType("application/zip") from None
    if "word/document.xml" in names:
        return DOCX
    raise UnsupportedMediaType("application/zip")


def _from_filename(filename: str | None) -> str | None:
    if not filename:
        return None
    suffix = PurePosixPath(filename.replace("\\", "/")).suffix.lower()
    return _EXTENSIONS.get(suffix)


def _looks_binary(data: bytes) -> bool:
    """NUL bytes in the first 8 KiB mean binary, unless it is UTF-16/32 text with a BOM."""
    sample = data[:8192]
    return b"\x00" in sample and not sample.startswith(_UTF16_BOMS)


def _is_json(data: bytes) -> bool:
    try:
        json.loads(data)
    except (ValueError, RecursionError):
        return False
    return True
