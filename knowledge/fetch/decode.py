"""Content-Encoding decoding with a cap on the *decoded* size.

httpx decodes gzip itself, but it inflates each network chunk in one call, so a 64 KiB
chunk of a gzip bomb becomes ~64 MB in memory before any cap can look at it. The fetcher
therefore reads the raw bytes and inflates here with ``max_length``: never more than the
cap (plus one byte, to know it was exceeded) is held. Also used for ``.xml.gz`` sitemaps.
"""

from __future__ import annotations

import zlib
from typing import Final

SUPPORTED_ENCODINGS: Final = frozenset({"", "identity", "gzip", "x-gzip", "deflate"})
_GZIP_OR_ZLIB: Final = 32 + zlib.MAX_WBITS  # auto-detects a gzip or zlib header


class TooLarge(Exception):
    """The decoded content is over the cap."""


class BoundedDecoder:
    """Feed raw chunks, get decoded bytes; raises ``TooLarge`` once the total decoded size
    would exceed ``limit``. Handles multi-member gzip and raw (header-less) deflate."""

    def __init__(self, encoding: str, limit: int) -> None:
        self._encoding = encoding.strip().lower()
        if self._encoding not in SUPPORTED_ENCODINGS:
            raise ValueError(f"unsupported content-encoding {encoding!r}")
        self._limit = limit
        self._total = 0
        self._inflater: zlib._Decompress | None = None
        self._raw_deflate_tried = False

    def feed(self, data: bytes) -> bytes:
        if self._encoding in ("", "identity"):
            return self._count(data)
        out = bytearray()
        pending = data
        while pending:
            if self._inflater is None:
                self._inflater = zlib.decompressobj(_GZIP_OR_ZLIB)
            try:
                piece = self._inflater.decompress(pending, self._limit - self._total + 1)
            except zlib.error:
                if self._encoding != "deflate" or self._raw_deflate_tried or self._total:
                    raise
                # Some servers send raw deflate without the zlib header.
                self._raw_deflate_tried = True
                self._inflater = zlib.decompressobj(-zlib.MAX_WBITS)
                continue
            out += self._count(piece)
            if self._inflater.unconsumed_tail:
                pending = self._inflater.unconsumed_tail
            elif self._inflater.eof and self._inflater.unused_data:
                pending = self._inflater.unused_data  # next gzip member
                self._inflater = None
            else:
                pending = b""
        return bytes(out)

    def flush(self) -> bytes:
        if self._inflater is None:
            return b""
        return self._count(self._inflater.flush())

    def _count(self, piece: bytes) -> bytes:
        self._total += len(piece)
        if self._total > self._limit:
            raise TooLarge(f"decoded content over {self._limit} bytes")
        return piece


def gunzip_bounded(data: bytes, limit: int) -> bytes:
    """``data`` gunzipped, refusing (``TooLarge``) past ``limit`` decoded bytes."""
    decoder = BoundedDecoder("gzip", limit)
    return decoder.feed(data) + decoder.flush()
