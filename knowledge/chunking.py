"""Markdown → retrieval chunks, cut along the document's own structure.

A chunk is a piece of one section (the text under one heading), so its heading path says
what it is about and retrieval can cite it. Sections are cut at paragraphs, then lines,
then sentences; a table row or a fenced code block is never cut unless it alone is larger
than a chunk (a long table is cut between rows, its header repeated in every piece; long
code between lines, re-fenced). Consecutive pieces of one section share ``overlap``
characters of text, so a sentence that straddles a cut is whole in one of them. Sections
shorter than ~200 characters merge with the next one under the same parent heading: a
chunk that says only "See below." retrieves nothing.

The reader is hand-written rather than langchain's MarkdownHeaderTextSplitter because that
splitter drops the blank lines between blocks (paragraph boundaries, where cuts belong, are
lost) and knows nothing of table rows or of cutting a long code block; see
tests/unit/knowledge/test_chunking.py.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from knowledge.extract import Block, markdown_to_text

TINY_SECTION_CHARS = 200
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?…。])\s+")
_SPACE = re.compile(r"\s+")

UnitKind = Literal["text", "table", "code", "heading"]


@dataclass(frozen=True)
class Chunk:
    """One retrievable piece; ``text`` is markdown without its heading path repeated."""

    ordinal: int
    heading_path: tuple[str, ...]
    text: str
    hidden: bool = False


def content_hash(text: str) -> str:
    """sha256 hex of the text with whitespace runs collapsed (layout changes are no change)."""
    return hashlib.sha256(_SPACE.sub(" ", text).strip().encode("utf-8")).hexdigest()


def chunk_markdown(
    markdown: str, *, hidden: bool = False, max_chars: int = 1200, overlap: int = 150
) -> list[Chunk]:
    """Chunks of ``markdown`` in document order, ordinals from 0."""
    if max_chars < 100:
        raise ValueError(f"max_chars must be at least 100, got {max_chars!r}")
    overlap = max(0, min(overlap, max_chars // 3))
    chunks: list[Chunk] = []
    for section in _merge_tiny(_sections(markdown), max_chars=max_chars):
        for piece in _pieces(section.units, max_chars=max_chars, overlap=overlap):
            chunks.append(Chunk(len(chunks), section.path, piece, hidden))
    return chunks


def chunk_blocks(
    blocks: Sequence[Block], *, max_chars: int = 1200, overlap: int = 150
) -> list[Chunk]:
    """Chunks of every block, hidden flag carried over, ordinals continuing across blocks."""
    chunks: list[Chunk] = []
    for block in blocks:
        for chunk in chunk_markdown(
            block.markdown, hidden=block.hidden, max_chars=max_chars, overlap=overlap
        ):
            chunks.append(Chunk(len(chunks), chunk.heading_path, chunk.text, chunk.hidden))
    return chunks


@dataclass(frozen=True)
class _Unit:
    """A block of markdown that is cut only when it alone is larger than a chunk."""

    text: str
    kind: UnitKind


@dataclass
class _Section:
    path: tuple[str, ...]
    levels: tuple[int, ...]
    units: list[_Unit] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(len(unit.text) for unit in self.units)


def _sections(markdown: str) -> list[_Section]:
    """Split into sections at ATX headings, tracking the heading path; blocks as units."""
    sections = [_Section((), ())]
    stack: list[tuple[int, str]] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            sections[-1].units.append(_Unit("\n".join(paragraph), "text"))
            paragraph.clear()

    lines = markdown.replace("\r\n", "\n").split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = _FENCE.match(line)
        heading = _ATX.match(line)
        if fence is not None:
            flush()
            end = _fence_end(lines, index, fence.group(1))
            sections[-1].units.append(_Unit("\n".join(lines[index : end + 1]), "code"))
            index = end + 1
            continue
        if heading is not None and heading.group(2):
            flush()
            level = len(heading.group(1))
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, _heading_text(heading.group(2))))
            sections.append(_Section(tuple(t for _, t in stack), tuple(lv for lv, _ in stack)))
        elif line.lstrip().startswith("|"):
            flush()
            end = index
            while end + 1 < len(lines) and lines[end + 1].lstrip().startswith("|"):
                end += 1
            sections[-1].units.append(_Unit("\n".join(lines[index : end + 1]), "table"))
            index = end
        elif line.strip():
            paragraph.append(line)
        else:
            flush()
        index += 1
    flush()
    return sections


def _fence_end(lines: list[str], start: int, fence: str) -> int:
    """Index of the line closing the fence opened at ``start`` (the last line if unclosed)."""
    for index in range(start + 1, len(lines)):
        closing = lines[index].strip()
        if closing.startswith(fence[0] * len(fence)) and not closing.strip(fence[0]):
            return index
    return len(lines) - 1


def _heading_text(raw: str) -> str:
    return _SPACE.sub(" ", markdown_to_text(raw)).strip()


def _merge_tiny(sections: list[_Section], *, max_chars: int) -> list[_Section]:
    """Merge a section under TINY_SECTION_CHARS into the next one under the same parent.

    A short section followed by its own subsection (a parent's introduction) is prepended to
    it under the subsection's path, which already names the parent. Siblings merge under
    their parent's path and keep their own headings inside the text — only when both fit in
    one chunk, so a long section never loses its own heading from its chunks' paths.
    """
    merged: list[_Section] = []
    current: _Section | None = None
    for section in sections:
        if current is None:
            current = section
            continue
        if current.size < TINY_SECTION_CHARS and _related(current, section, max_chars):
            current = _join(current, section)
        else:
            merged.append(current)
            current = section
    if current is not None:
        merged.append(current)
    return [section for section in merged if section.units]


def _related(first: _Section, second: _Section, max_chars: int) -> bool:
    """``second`` is under ``first``, or a sibling of it under the same parent that fits.

    Top-level sections have no parent heading and never merge with each other.
    """
    if second.path[: len(first.path)] == first.path:
        return True
    siblings = len(first.path) >= 2 and second.path[:-1] == first.path[:-1]
    headings = sum(len(title) + 8 for title in (*first.path[-1:], *second.path[-1:]))
    return siblings and first.size + second.size + headings <= max_chars


def _join(first: _Section, second: _Section) -> _Section:
    if second.path[: len(first.path)] == first.path:
        # a parent's short introduction leads into its first subsection, under that path
        return _Section(second.path, second.levels, [*first.units, *second.units])
    base = len(first.path) - 1
    units = [*_with_headings(first, base), *_with_headings(second, base)]
    return _Section(first.path[:base], first.levels[:base], units)


def _with_headings(section: _Section, base: int) -> list[_Unit]:
    """``section``'s units preceded by its heading lines below depth ``base``."""
    headings = [
        _Unit(f"{'#' * level} {title}", "heading")
        for level, title in zip(section.levels[base:], section.path[base:], strict=True)
    ]
    return [*headings, *section.units]


def _pieces(units: list[_Unit], *, max_chars: int, overlap: int) -> list[str]:
    """Pack units into pieces of at most ``max_chars``, with overlap between pieces."""
    pieces: list[str] = []
    current = ""
    last: tuple[str, str, UnitKind] | None = None
    for text, separator, kind in _atoms(units, limit=max_chars - overlap):
        candidate = f"{current}{separator}{text}" if current else text
        if not current or len(candidate) <= max_chars:
            current = candidate
        elif last is not None and last[2] == "heading" and current != last[0]:
            # a heading never ends a piece: it moves on with the text it introduces
            pieces.append(current[: -len(last[1] + last[0])])
            current = f"{last[0]}{separator}{text}"
        else:
            pieces.append(current)
            tail = _tail(last[0], overlap) if last is not None and last[2] == "text" else ""
            current = f"{tail}{separator}{text}" if tail else text
        last = (text, separator, kind)
    if current:
        pieces.append(current)
    return [piece.strip() for piece in pieces if piece.strip()]


def _atoms(units: list[_Unit], *, limit: int) -> list[tuple[str, str, UnitKind]]:
    """(text, separator before it, kind) pieces no larger than ``limit``."""
    atoms: list[tuple[str, str, UnitKind]] = []
    for unit in units:
        if len(unit.text) <= limit:
            parts = [(unit.text, "\n\n")]
        elif unit.kind == "code":
            parts = [(part, "\n\n") for part in _split_code(unit.text, limit)]
        elif unit.kind == "table":
            parts = [(part, "\n\n") for part in _split_table(unit.text, limit)]
        else:
            parts = _split_text(unit.text, limit)
        atoms.extend((text, separator, unit.kind) for text, separator in parts)
    return atoms


def _split_code(code: str, limit: int) -> list[str]:
    """A long code block cut between lines, each piece fenced again."""
    lines = code.split("\n")
    opening = lines[0]
    opened = _FENCE.match(opening)
    fence = opened.group(1) if opened is not None else "```"
    body = lines[1:-1] if len(lines) > 1 and lines[-1].strip().startswith(fence) else lines[1:]
    room = max(limit - len(opening) - len(fence) - 2, 20)
    return [f"{opening}\n{group}\n{fence}" for group in _pack_lines(body, room)]


def _split_table(table: str, limit: int) -> list[str]:
    """A long table cut between rows, its header (and rule) repeated in every piece."""
    lines = table.split("\n")
    width = 2 if len(lines) > 1 and _TABLE_RULE.match(lines[1]) else 1
    header = "\n".join(lines[:width])
    room = max(limit - len(header) - 1, 20)
    return [f"{header}\n{group}" for group in _pack_lines(lines[width:], room)]


def _pack_lines(lines: list[str], room: int) -> list[str]:
    groups: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        for part in _hard_cut(line, room):
            if current and size + len(part) + 1 > room:
                groups.append("\n".join(current))
                current, size = [], 0
            current.append(part)
            size += len(part) + 1
    if current:
        groups.append("\n".join(current))
    return groups


def _split_text(text: str, limit: int) -> list[tuple[str, str]]:
    """A long paragraph or list: by lines, then sentences, then words."""
    parts: list[tuple[str, str]] = []
    for line_number, line in enumerate(text.split("\n")):
        line_separator = "\n\n" if line_number == 0 else "\n"
        if len(line) <= limit:
            parts.append((line, line_separator))
            continue
        for number, sentence in enumerate(_sentences(line, limit)):
            parts.append((sentence, line_separator if number == 0 else " "))
    return parts


def _sentences(line: str, limit: int) -> list[str]:
    pieces: list[str] = []
    for sentence in _SENTENCE_END.split(line):
        pieces.extend(_hard_cut(sentence, limit))
    return [piece for piece in pieces if piece]


def _hard_cut(text: str, limit: int) -> list[str]:
    """Cut at the last space before ``limit`` (anywhere, if there is none)."""
    pieces: list[str] = []
    while len(text) > limit:
        cut = text.rfind(" ", 0, limit)
        cut = cut if cut > limit // 2 else limit
        pieces.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    pieces.append(text)
    return pieces


def _tail(text: str, overlap: int) -> str:
    """The last whole sentences of ``text`` within ``overlap`` chars (else its last words)."""
    if overlap <= 0:
        return ""
    tail = ""
    for sentence in reversed(_SENTENCE_END.split(text.strip())):
        candidate = f"{sentence} {tail}".strip()
        if len(candidate) > overlap:
            break
        tail = candidate
    if tail:
        return tail
    end = text[-overlap:]
    space = end.find(" ")
    return end[space + 1 :] if 0 <= space < len(end) - 1 else end
