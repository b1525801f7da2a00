"""What extraction returns and the two ways it refuses.

Kept apart from the extractors so that every format module and the chunker can import
these without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

HTML = "text/html"
PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
MARKDOWN = "text/markdown"
TEXT = "text/plain"
JSON = "application/json"
CSV = "text/csv"
SUPPORTED_TYPES: frozenset[str] = frozenset({HTML, PDF, DOCX, MARKDOWN, TEXT, JSON, CSV})

MAX_INPUT_BYTES = 20 * 1024 * 1024
"""Larger inputs are refused: the fetcher and the upload route cap bodies below this."""

MAX_MARKDOWN_CHARS = 2_000_000
"""Extracted markdown is cut here, so a PDF/DOCX/CSV bomb costs bounded time and space."""


class UnsupportedMediaType(ValueError):
    """The bytes are not a format Stepwise can read (HTTP 415); the message names the type."""

    def __init__(self, media_type: str) -> None:
        super().__init__(f"unsupported media type {media_type!r}")
        self.media_type = media_type


class ExtractionFailed(ValueError):
    """A supported format that could not be read (corrupt, encrypted…) — HTTP 422.

    The message says why in a sentence meant for the user; it never carries a stack trace.
    """


@dataclass(frozen=True)
class Block:
    """A run of markdown; ``hidden`` marks content that was hidden on the page.

    Hidden content (display:none, [hidden], a closed <details>, an inactive tab panel) is
    un-hidden so the agent can read what a click would reveal, but kept apart so retrieval
    can rank it below what the user actually sees.
    """

    markdown: str
    hidden: bool = False


@dataclass(frozen=True)
class Extracted:
    """One document's content as markdown blocks: visible main content first, then hidden."""

    media_type: str
    title: str
    blocks: tuple[Block, ...]

    @property
    def markdown(self) -> str:
        """All blocks joined — what the document's content hash is computed over."""
        return "\n\n".join(block.markdown for block in self.blocks)


def cap_markdown(markdown: str) -> str:
    """Cut ``markdown`` at MAX_MARKDOWN_CHARS, on a paragraph boundary when one is near."""
    if len(markdown) <= MAX_MARKDOWN_CHARS:
        return markdown
    cut = markdown.rfind("\n\n", MAX_MARKDOWN_CHARS - 10_000, MAX_MARKDOWN_CHARS)
    return markdown[: cut if cut > 0 else MAX_MARKDOWN_CHARS]
