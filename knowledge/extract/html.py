"""HTML → markdown: the pre-pass, trafilatura for the main content, a structural fallback.

trafilatura is the best measured open-source main-content extractor on the article
benchmark (bench/knowledge_extraction.py runs it through this exact path). Where it finds
little or nothing — app shells, tiny pages, reference pages that are all tables — the whole
body is converted instead, nav/footer/aside left out, so the page's structure still reaches
the index.
"""

from __future__ import annotations

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


def extract_html(data: bytes | str, *, url: str | None, keep_hidden: bool) -> Extracted:
    """Markdown blocks of a page: main content first, then each hidden subtree (phase 1)."""
    markup = data if isinstance(data, str) else decode_html(data)
    page = prepass(markup, keep_hidden=keep_hidden)
    main = _main_markdown(str(page.soup), url=url)
    if len(main) < _SHORT_MAIN_CHARS or "\n" not in main:
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
    """Use the whole body when trafilatura found (almost) nothing, or kept it without structure.

    On tiny pages trafilatura falls back to its flat baseline text (one line, no headings);
    the structural conversion then says the same words with their headings and lists.
    """
    if len(main) < _FALLBACK_SHARE * len(whole) and len(main) < _SHORT_MAIN_CHARS:
        return True
    flat = "\n" not in main and "\n" in whole
    return flat and len(markdown_to_text(whole)) >= _SAME_WORDS_SHARE * len(main)


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
    return normalise_markdown(markdown or "")


class _Budget:
    """Hands out at most MAX_MARKDOWN_CHARS over all of a page's blocks."""

    def __init__(self) -> None:
        self._used = 0

    def take(self, markdown: str) -> str:
        room = MAX_MARKDOWN_CHARS - self._used
        taken = cap_markdown(markdown) if len(markdown) <= room else markdown[: max(room, 0)]
        self._used += len(taken)
        return taken
