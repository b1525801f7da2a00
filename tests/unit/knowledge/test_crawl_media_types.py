"""The crawler hands on every format extraction reads (and follows links only in HTML)."""

from __future__ import annotations

from knowledge.crawl import DOCUMENT_MEDIA_TYPES, HTML_MEDIA_TYPES
from knowledge.extract import HTML, SUPPORTED_TYPES


def test_every_format_extraction_reads_is_handed_on_by_the_crawler() -> None:
    assert SUPPORTED_TYPES - {HTML} <= DOCUMENT_MEDIA_TYPES
    assert HTML in HTML_MEDIA_TYPES
