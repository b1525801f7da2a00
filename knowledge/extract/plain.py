"""Markdown → plain text, for scoring extraction against plain-text ground truth."""

from __future__ import annotations

import re

_FENCE = re.compile(r"^[ \t]*(```+|~~~+).*$", re.M)
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+", re.M)
_TABLE_RULE = re.compile(
    r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*\n?", re.M
)
_BULLET = re.compile(r"^[ \t]*(?:[-*+]|\d+\.)[ \t]+", re.M)
_QUOTE = re.compile(r"^[ \t]*>[ \t]?", re.M)
_STAR_EMPHASIS = re.compile(r"(\*{1,3}|`+)(?=\S)(.+?)(?<=\S)\1", re.S)
# CommonMark: underscores inside a word (snake_case, Name_Surname) never mark emphasis
_UNDERSCORE_EMPHASIS = re.compile(r"(?<!\w)(_{1,3})(?=\S)(.+?)(?<=\S)\1(?!\w)", re.S)
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>])")
# trafilatura writes formatting markdown has no syntax for as inline HTML (<u>, <sub>, <del>…)
_INLINE_TAG = re.compile(r"</?(?:u|ins|del|s|sub|sup|mark|kbd|small|big)>", re.I)
_CELL = re.compile(r"\s*(?<!\\)\|\s*")


def markdown_to_text(markdown: str) -> str:
    """Drop markdown syntax, keep every word (code included), one paragraph per block.

    Ordered-list markers ("1. ") go: an <ol>'s numbers are drawn by the browser, not part
    of the page's text; numbers written in the text in another style ("9) …") stay.
    """
    text = _FENCE.sub("", markdown)
    text = _TABLE_RULE.sub("", text)
    text = _HEADING.sub("", text)
    text = _QUOTE.sub("", text)
    text = _BULLET.sub("", text)
    lines = []
    for line in text.split("\n"):
        if line.lstrip().startswith("|"):
            line = " ".join(cell for cell in _CELL.split(line) if cell)
        lines.append(line)
    text = _STAR_EMPHASIS.sub(r"\2", "\n".join(lines))
    text = _UNDERSCORE_EMPHASIS.sub(r"\2", text)
    text = _INLINE_TAG.sub("", text)
    text = _ESCAPE.sub(r"\1", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()
