"""Markdown → plain text, for scoring extraction against plain-text ground truth."""

from __future__ import annotations

import re

_FENCE = re.compile(r"^\s*(```+|~~~+).*$", re.M)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+", re.M)
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$", re.M)
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+", re.M)
_QUOTE = re.compile(r"^\s*>\s?", re.M)
_EMPHASIS = re.compile(r"(\*\*|__|\*|_|`+)(?=\S)(.+?)(?<=\S)\1", re.S)
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>])")
_CELL = re.compile(r"\s*(?<!\\)\|\s*")


def markdown_to_text(markdown: str) -> str:
    """Drop markdown syntax, keep every word (code included), one paragraph per block."""
    text = _FENCE.sub("", markdown)
    text = _TABLE_RULE.sub("", text)
    text = _HEADING.sub("", text)
    text = _QUOTE.sub("", text)
    text = _LIST_MARKER.sub("", text)
    lines = []
    for line in text.split("\n"):
        if line.lstrip().startswith("|"):
            line = " ".join(cell for cell in _CELL.split(line) if cell)
        lines.append(line)
    text = _EMPHASIS.sub(r"\2", "\n".join(lines))
    text = _ESCAPE.sub(r"\1", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()
