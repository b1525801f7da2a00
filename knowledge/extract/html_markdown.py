"""A small structure-keeping HTML → markdown converter over a BeautifulSoup tree.

trafilatura is built to find an article and drop the rest; this converter is for the cases
where everything counts: mammoth's clean DOCX HTML, hidden fragments un-hidden by the
pre-pass, and pages where trafilatura finds no main content (app shells, reference pages
that are all tables). It keeps headings, lists, tables, code blocks and emphasis, and
drops links' targets, images and form controls.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, Comment, NavigableString, Tag
from bs4.element import Declaration, Doctype, ProcessingInstruction

_SKIP = frozenset(
    {"script", "style", "template", "noscript", "svg", "iframe", "object", "canvas", "img",
     "video", "audio", "picture", "button", "select", "input", "textarea", "head", "title",
     "meta", "link", "map"}
)
_CHROME = frozenset({"nav", "footer", "aside"})
_CHROME_ROLES = frozenset({"navigation", "contentinfo", "complementary", "banner"})
_BLOCKS = frozenset(
    {"p", "div", "section", "article", "main", "header", "footer", "nav", "aside", "figure",
     "figcaption", "form", "fieldset", "address", "details", "summary", "dl", "dt", "dd",
     "center", "body", "html", "li", "caption", "legend", "label", "option", "output",
     "hgroup", "search", "dialog", "menu"}
)
_HEADINGS = {f"h{level}": level for level in range(1, 7)}
_SPACE = re.compile(r"[ \t\r\n\f\v\u00a0]+")
_LINE_BREAK = "\u2028"
_NON_TEXT = (Comment, Doctype, Declaration, ProcessingInstruction)


def html_to_markdown(root: Tag | BeautifulSoup, *, drop_chrome: bool = False) -> str:
    """Markdown for everything under ``root``; ``drop_chrome`` skips nav/footer/aside.

    The converter recurses with the DOM; a page nested deeper than Python's recursion limit
    (hostile or broken markup) is read as plain text lines instead, which BeautifulSoup
    produces without recursion.
    """
    converter = _Converter(drop_chrome=drop_chrome)
    try:
        converter.walk(root)
        converter.flush()
    except RecursionError:
        lines = (collapse(line) for line in root.get_text("\n").split("\n"))
        return "\n\n".join(line for line in lines if line)
    return "\n\n".join(converter.blocks)


def collapse(text: str) -> str:
    """Whitespace runs (including non-breaking spaces) → one space, stripped."""
    return _SPACE.sub(" ", text).strip()


class _Converter:
    def __init__(self, *, drop_chrome: bool, list_depth: int = 0) -> None:
        self.blocks: list[str] = []
        self._inline: list[str] = []
        self._drop_chrome = drop_chrome
        self._list_depth = list_depth

    def flush(self) -> None:
        text = "".join(self._inline)
        self._inline = []
        lines = (collapse(line) for line in text.split(_LINE_BREAK))
        paragraph = "\n".join(line for line in lines if line)
        if paragraph:
            self.blocks.append(paragraph)

    def walk(self, node: Tag) -> None:
        for child in node.children:
            if isinstance(child, _NON_TEXT):
                continue
            if isinstance(child, NavigableString):
                self._inline.append(_SPACE.sub(" ", str(child)))
            elif isinstance(child, Tag):
                self._element(child)

    def _element(self, tag: Tag) -> None:
        name = tag.name
        if name in _SKIP or (self._drop_chrome and _is_chrome(tag)):
            return
        if name in _HEADINGS:
            self.flush()
            text = collapse(tag.get_text(" "))
            if text:
                self.blocks.append(f"{'#' * _HEADINGS[name]} {text}")
        elif name == "pre":
            self.flush()
            self.blocks.append(fenced_code(tag))
        elif name in ("ul", "ol"):
            self.flush()
            listing = self._list(tag)
            if listing:
                self.blocks.append(listing)
        elif name == "table" and not tag.find("table"):
            self.flush()
            table = table_markdown(tag)
            if table:
                self.blocks.append(table)
        elif name == "blockquote":
            self.flush()
            inner = html_to_markdown(tag, drop_chrome=self._drop_chrome)
            if inner:
                self.blocks.append("\n".join(f"> {line}".rstrip() for line in inner.split("\n")))
        elif name == "br":
            self._inline.append(_LINE_BREAK)
        elif name == "hr":
            self.flush()
        elif name in ("strong", "b"):
            self._wrap(tag, "**")
        elif name in ("em", "i"):
            self._wrap(tag, "*")
        elif name == "code":
            self._wrap(tag, "`")
        elif name in _BLOCKS or name in ("table", "tr", "td", "th", "tbody", "thead"):
            self.flush()
            self.walk(tag)
            self.flush()
        else:
            self.walk(tag)

    def _wrap(self, tag: Tag, marker: str) -> None:
        if tag.find(_block_or_heading):
            self.walk(tag)
            return
        raw = _SPACE.sub(" ", tag.get_text())
        text = raw.strip()
        if not text:
            self._inline.append(raw)
            return
        lead = " " if raw.startswith(" ") else ""
        trail = " " if raw.endswith(" ") else ""
        self._inline.append(f"{lead}{marker}{text}{marker}{trail}")

    def _list(self, tag: Tag) -> str:
        ordered = tag.name == "ol"
        indent = "   " * self._list_depth
        lines: list[str] = []
        items = [child for child in tag.children if isinstance(child, Tag)]
        for number, item in enumerate(items, start=1):
            marker = f"{number}. " if ordered else "- "
            inner = _Converter(drop_chrome=self._drop_chrome, list_depth=self._list_depth + 1)
            if item.name == "li":
                inner.walk(item)
            else:
                inner._element(item)
            inner.flush()
            if not inner.blocks:
                continue
            first, *rest = inner.blocks
            lines.append(indent + marker + first.replace("\n", "\n" + indent + "   "))
            for block in rest:
                nested = block.startswith((indent + "   ", "-", "1."))
                lines.append(block if nested else indent + "   " + block)
        return "\n".join(lines)


def _block_or_heading(tag: Tag) -> bool:
    return tag.name in _BLOCKS or tag.name in _HEADINGS or tag.name in ("pre", "ul", "ol", "table")



def _is_chrome(tag: Tag) -> bool:
    return tag.name in _CHROME or str(tag.get("role", "")).lower() in _CHROME_ROLES


def fenced_code(pre: Tag) -> str:
    """A <pre> as a fenced block, its language taken from a language-*/lang-* class."""
    code = pre.get_text().strip("\n")
    language = ""
    for element in (pre, pre.find("code")):
        if isinstance(element, Tag):
            for css_class in element.get("class") or ():
                if css_class.startswith(("language-", "lang-")):
                    language = css_class.split("-", 1)[1]
    fence = "```"
    while fence in code:
        fence += "`"
    return f"{fence}{language}\n{code}\n{fence}"


def table_markdown(table: Tag) -> str:
    """A GFM table; the first row is the header (GFM needs one). Layout tables → text."""
    rows: list[list[str]] = []
    for row in table.find_all("tr"):
        if row.find_parent("table") is not table:
            continue
        cells = [
            collapse(cell.get_text(" ")).replace("|", "\\|")
            for cell in row.find_all(("th", "td"), recursive=False)
        ]
        if any(cells):
            rows.append(cells)
    if not rows:
        return ""
    width = max(len(row) for row in rows)
    if width == 1:
        return "\n\n".join(row[0] for row in rows if row[0])
    padded = [row + [""] * (width - len(row)) for row in rows]
    lines = [_row(padded[0]), _row(["---"] * width)]
    lines.extend(_row(row) for row in padded[1:])
    return "\n".join(lines)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"
