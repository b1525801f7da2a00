"""HTML → markdown: the pre-pass, trafilatura for the main content, a structural fallback.

trafilatura is the best measured open-source main-content extractor on the article
benchmark (bench/knowledge_extraction.py runs it through this exact path). Where it finds
little or nothing — app shells, tiny pages, reference pages that are all tables — the whole
body is converted instead, nav/footer/aside left out, so the page's structure still reaches
the index. As a whole-body reader on the first half of the article benchmark, that converter
keeps as much as trafilatura's html2txt (recall 0.993 both) with less chrome (precision
0.675 vs 0.636) — and keeps headings, lists and tables, which html2txt flattens.
"""

from __future__ import annotations

import re

import trafilatura

from knowledge.extract.html_markdown import html_to_markdown
from knowledge.extract.html_prepass import decode_html, prepass
from knowledge.extract.model import HTML, MAX_MARKDOWN_CHARS, Block, Extracted, cap_markdown
from knowledge.extract.plain import markdown_to_text
from knowledge.extract.text import normalise_markdown

_FALLBACK_SHARE = 0.25
_SHORT_MAIN_CHARS = 500
"""trafilatura's result is replaced by the whole body when it is short and keeps less than
this share of the body's text. A share alone is not enough: on the first half of the article
benchmark, four short articles on pages heavy with chrome kept under 25 % and lost
precision to the whole-body text (F1 0.98 → 0.3 on each)."""
_SAME_WORDS_SHARE = 0.8
_WORD = re.compile(r"\w+")
_FENCE = re.compile(r"^\s*(```+|~~~+)")
_NESTED_ITEM = re.compile(r"^\s+(?:[-*+]|\d+[.)])\s")
# trafilatura sometimes lifts an inline <em>/<b> onto a line of its own and loses the space
# after it ("*AppleInsider*staff"); a word glued to a line-leading emphasis gets it back
_GLUED_EMPHASIS = re.compile(r"^(\*{1,3}[^*\s][^*\n]*?\*{1,3})(?=\w)")


def extract_html(data: bytes | str, *, url: str | None, keep_hidden: bool) -> Extracted:
    """Markdown blocks of a page: main content first, then each hidden subtree (phase 1)."""
    markup = data if isinstance(data, str) else decode_html(data)
    page = prepass(markup, keep_hidden=keep_hidden)
    main = _main_markdown(str(page.soup), url=url)
    if len(main) < _SHORT_MAIN_CHARS:
        whole = normalise_markdown(html_to_markdown(page.soup.body or page.soup, drop_chrome=True))
        if _prefer_whole(main, whole):
            main = whole
    blocks: list[Block] = []
    budget = _Budget()
    if main:
        blocks.append(Block(budget.take(main)))
    for hidden in page.hidden:
        markdown = budget.take(normalise_markdown(hidden))
        if markdown:
            blocks.append(Block(markdown, hidden=True))
    return Extracted(media_type=HTML, title=page.title, blocks=tuple(blocks))


def _prefer_whole(main: str, whole: str) -> bool:
    """Use the whole body when trafilatura found little: nothing, or a short flat text.

    On tiny pages and pages that are all tables, trafilatura falls back to its baseline
    text (cells and menus as bare lines); when the structural conversion of the body says
    the same words, it is kept instead for its headings, lists and tables.
    """
    if len(main) >= _SHORT_MAIN_CHARS:
        return False
    if len(main) < _FALLBACK_SHARE * len(whole):
        return True
    main_words = set(_WORD.findall(markdown_to_text(main).lower()))
    whole_words = set(_WORD.findall(markdown_to_text(whole).lower()))
    return len(main_words & whole_words) >= _SAME_WORDS_SHARE * len(main_words)


def _tidy(markdown: str) -> str:
    """Drop source indentation trafilatura leaves inside paragraphs; a blank line after code;
    a space after a line-leading emphasis glued to the next word.

    Indentation of nested list items is kept; code blocks are left exactly as they are.
    """
    lines: list[str] = []
    fence = ""
    for line in markdown.split("\n"):
        opened = _FENCE.match(line)
        if fence:
            lines.append(line)
            if line.strip() == fence:
                fence = ""
                lines.append("")
            continue
        if opened is not None:
            fence = opened.group(1)
            lines.append(line)
            continue
        line = line if _NESTED_ITEM.match(line) else line.lstrip()
        lines.append(_GLUED_EMPHASIS.sub(r"\1 ", line))
    return "\n".join(lines)


def _main_markdown(markup: str, *, url: str | None) -> str:
    markdown = trafilatura.extract(
        markup,
        url=url,
        output_format="markdown",
        include_comments=False,
        include_tables=True,
        include_formatting=True,
        include_links=False,
        include_images=False,
    )
    return normalise_markdown(_tidy(markdown or ""))


class _Budget:
    """Hands out at most MAX_MARKDOWN_CHARS over all of a page's blocks."""

    def __init__(self) -> None:
        self._used = 0

    def take(self, markdown: str) -> str:
        room = MAX_MARKDOWN_CHARS - self._used
        taken = cap_markdown(markdown) if len(markdown) <= room else markdown[: max(room, 0)]
        self._used += len(taken)
        return taken
