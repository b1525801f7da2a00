"""Documents → markdown blocks: the first step of ingestion (pure functions, no I/O).

``extract`` is the one entry point: it sniffs the format (magic bytes over the declared
type over the file name) and hands the bytes to that format's reader. Every reader returns
markdown, so chunking and retrieval see one shape whatever came in.
"""

from __future__ import annotations

from dataclasses import replace

from knowledge.extract.data import extract_csv, extract_json
from knowledge.extract.documents import extract_docx, extract_markdown, extract_pdf, extract_text
from knowledge.extract.html import extract_html
from knowledge.extract.model import (
    CSV,
    DOCX,
    HTML,
    JSON,
    MARKDOWN,
    MAX_INPUT_BYTES,
    MAX_MARKDOWN_CHARS,
    PDF,
    SUPPORTED_TYPES,
    TEXT,
    Block,
    Extracted,
    ExtractionFailed,
    UnsupportedMediaType,
)
from knowledge.extract.plain import markdown_to_text
from knowledge.extract.sniff import sniff_media_type

MAX_TITLE_CHARS = 300
"""Titles come from untrusted pages and files; they are cut like any other field."""

__all__ = [
    "MAX_INPUT_BYTES",
    "MAX_MARKDOWN_CHARS",
    "SUPPORTED_TYPES",
    "Block",
    "Extracted",
    "ExtractionFailed",
    "UnsupportedMediaType",
    "extract",
    "extract_article_text",
    "markdown_to_text",
    "sniff_media_type",
]


def extract(
    data: bytes,
    *,
    media_type: str | None = None,
    filename: str | None = None,
    url: str | None = None,
    keep_hidden: bool = True,
) -> Extracted:
    """Markdown blocks of a document; UnsupportedMediaType or ExtractionFailed otherwise.

    ``keep_hidden`` (HTML only): True in phase 1, where hidden subtrees become separate
    hidden blocks; False in phase 2, where the DOM after an action is read as shown.
    """
    extracted = _extract(data, media_type=media_type, filename=filename, url=url,
                         keep_hidden=keep_hidden)
    if len(extracted.title) > MAX_TITLE_CHARS:
        return replace(extracted, title=extracted.title[:MAX_TITLE_CHARS].rstrip())
    return extracted


def _extract(
    data: bytes, *, media_type: str | None, filename: str | None, url: str | None,
    keep_hidden: bool,
) -> Extracted:
    if len(data) > MAX_INPUT_BYTES:
        raise ExtractionFailed(f"the document is larger than {MAX_INPUT_BYTES // 2**20} MB")
    kind = sniff_media_type(data, declared=media_type, filename=filename)
    if not data.strip():
        raise ExtractionFailed("the document is empty")
    if kind == HTML:
        return extract_html(data, url=url, keep_hidden=keep_hidden)
    if kind == PDF:
        return extract_pdf(data)
    if kind == DOCX:
        return extract_docx(data)
    if kind == MARKDOWN:
        return extract_markdown(data)
    if kind == JSON:
        return extract_json(data, filename=filename)
    if kind == CSV:
        return extract_csv(data, filename=filename)
    if kind == TEXT:
        return extract_text(data)
    raise UnsupportedMediaType(kind)


def extract_article_text(html: str, url: str | None = None) -> str:
    """The page's visible main content as plain text, through the same path as ingestion.

    Used by the extraction benchmark: hidden blocks are not part of what a reader sees,
    so only visible blocks count, and markdown syntax is removed before scoring.
    """
    data = html.encode("utf-8", errors="replace")
    extracted = extract(data, media_type=HTML, url=url, keep_hidden=False)
    visible = "\n\n".join(block.markdown for block in extracted.blocks if not block.hidden)
    return markdown_to_text(visible)
