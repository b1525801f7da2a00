"""The DOM pre-pass that runs before main-content extraction.

Pages hide content that a click reveals (tabs, accordions, "read more", closed <details>).
A reader that only sees the visible DOM never learns it; one that reads everything cannot
tell the user what is on screen. So the pre-pass removes what is never content (scripts,
styles, templates, aria-hidden decoration), then lifts every hidden subtree out of the page:
kept as separate hidden blocks in phase 1, dropped in phase 2 where the DOM after an action
is read as it is shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bs4 import BeautifulSoup, Tag
from bs4.dammit import UnicodeDammit

from knowledge.extract.html_markdown import collapse, html_to_markdown

_NEVER_CONTENT = ("script", "style", "template", "noscript")
_HIDDEN_CLASSES = frozenset({"hidden", "hide", "collapse", "d-none", "is-hidden", "invisible",
                             "tab-pane"})
_SHOWN_CLASSES = frozenset({"show", "in", "active", "open", "is-open", "expanded"})
_DISPLAY_NONE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b", re.I)
_CHROME = frozenset({"nav", "header", "footer", "aside"})
_CHROME_ROLES = frozenset({"navigation", "banner", "contentinfo", "menu", "menubar"})
_NEVER_HIDDEN = frozenset({"html", "body", "main", "head"})
_MAX_LINK_SHARE = 0.6
_ANTI_FLICKER_SHARE = 0.5
_MAX_HIDDEN_BLOCKS = 200
_MIN_HIDDEN_WORDS = 4


@dataclass
class PrePassed:
    """The cleaned page with hidden subtrees removed, and what they said."""

    soup: BeautifulSoup
    title: str
    hidden: list[str] = field(default_factory=list)


def decode_html(data: bytes) -> str:
    """UTF-8 when the bytes are valid UTF-8, else the page's declared or detected encoding.

    Valid UTF-8 wins over a <meta charset> because pages are often re-encoded (by a proxy,
    a headless browser, this very pipeline) without their meta tag being updated.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    dammit = UnicodeDammit(data, is_html=True)
    return dammit.unicode_markup or data.decode("latin-1")


def prepass(markup: str, *, keep_hidden: bool) -> PrePassed:
    """Parse, clean, and lift hidden subtrees out (as markdown when ``keep_hidden``)."""
    soup = BeautifulSoup(markup, "lxml")
    title = _title(soup)
    for element in soup.find_all(_never_content):
        if not element.decomposed:
            element.decompose()
    labels = _Labels(soup)
    found: list[str] = []
    for element in _outermost_hidden(soup.body or soup):
        if not keep_hidden or len(found) >= _MAX_HIDDEN_BLOCKS:
            if element.name == "details":
                _close(element)
            else:
                element.decompose()
            continue
        markdown = _lift(element, labels)
        if markdown:
            found.append(markdown)
    return PrePassed(soup=soup, title=title, hidden=found)


def _never_content(element: Tag) -> bool:
    return element.name in _NEVER_CONTENT or element.get("aria-hidden") == "true"


def _close(details: Tag) -> Tag:
    """Move a closed <details>' content (all but its <summary>) out of the page."""
    summary = details.find("summary", recursive=False)
    content = Tag(name="div")
    for child in list(details.children):
        if child is not summary:
            content.append(child.extract())
    return content


def _lift(element: Tag, labels: _Labels) -> str:
    """Remove a hidden subtree from the page; its markdown when it is worth keeping.

    A closed <details> keeps its <summary> on the page (that part is visible) and gives up
    the rest. Hidden menus (inside nav/header/footer, or mostly links) and widgets (forms,
    a few words like "Cancel reply" or "Advertisement") are dropped: on the article
    benchmark's pages they were most of what was hidden, and none of it is knowledge.
    """
    wanted = not _in_chrome(element)
    if element.name == "details":
        summary = element.find("summary", recursive=False)
        label = collapse(summary.get_text(" ")) if isinstance(summary, Tag) else ""
        content = _close(element)
    else:
        label = labels.of(element) if wanted else ""
        content = element.extract()
    if not wanted or _mostly_links(content) or _is_widget(content):
        return ""
    markdown = html_to_markdown(content)
    if not markdown:
        return ""
    return f"## {label}\n\n{markdown}" if label and not markdown.startswith("#") else markdown


def _title(soup: BeautifulSoup) -> str:
    og = soup.find("meta", attrs={"property": "og:title"})
    if isinstance(og, Tag) and collapse(str(og.get("content", ""))):
        return collapse(str(og.get("content", "")))
    if soup.title is not None:
        return collapse(soup.title.get_text())
    heading = soup.find("h1")
    return collapse(heading.get_text(" ")) if isinstance(heading, Tag) else ""


def _outermost_hidden(body: Tag) -> list[Tag]:
    """Hidden elements in document order, not descending into one already found.

    An element holding most of the page's text is an anti-flicker wrapper (the whole page
    hidden until its scripts run), not hidden content: it is read as visible.
    """
    found: list[Tag] = []
    stack: list[Tag] = [body]
    page_text = -1
    while stack:
        element = stack.pop()
        if element is not body and _is_hidden(element):
            if page_text < 0:
                page_text = len(collapse(body.get_text(" ")))
            if len(collapse(element.get_text(" "))) <= _ANTI_FLICKER_SHARE * page_text:
                found.append(element)
                continue
        stack.extend(reversed([child for child in element.children if isinstance(child, Tag)]))
    return found


def _is_hidden(element: Tag) -> bool:
    if element.name in _NEVER_HIDDEN:
        return False
    if element.name in ("details", "dialog"):
        return not element.has_attr("open")
    if element.has_attr("hidden"):
        return True
    if _DISPLAY_NONE.search(str(element.get("style", ""))):
        return True
    classes = {str(css_class).lower() for css_class in element.get("class") or ()}
    return bool(classes & _HIDDEN_CLASSES) and not classes & _SHOWN_CLASSES


def _is_widget(element: Tag) -> bool:
    """A form (share-by-email, sign-in dialog…) or a fragment of a few words."""
    if len(element.get_text(" ").split()) < _MIN_HIDDEN_WORDS:
        return True
    for control in element.find_all(("input", "textarea", "select")):
        if str(control.get("type", "text")).lower() not in ("hidden", "submit", "button"):
            return True
    return False


def _in_chrome(element: Tag) -> bool:
    for parent in [element, *element.parents]:
        if parent.name in _CHROME or str(parent.get("role", "")).lower() in _CHROME_ROLES:
            return True
    return False


def _mostly_links(element: Tag) -> bool:
    text = len(collapse(element.get_text(" ")))
    if text == 0:
        return True
    linked = sum(len(collapse(link.get_text(" "))) for link in element.find_all("a"))
    return linked >= _MAX_LINK_SHARE * text


class _Labels:
    """Names of hidden panels: aria-labelledby, aria-label, or the tab that controls them.

    The id and aria-controls indexes are built once, on first use, so a page with many
    hidden panels is not scanned once per panel.
    """

    def __init__(self, soup: BeautifulSoup) -> None:
        self._soup = soup
        self._by_id: dict[str, Tag] | None = None
        self._controls: dict[str, Tag] | None = None

    def of(self, element: Tag) -> str:
        by_id, controls = self._indexes()
        names = [by_id.get(ident) for ident in str(element.get("aria-labelledby", "")).split()]
        text = " ".join(collapse(name.get_text(" ")) for name in names if name is not None)
        if text:
            return text
        if element.get("aria-label"):
            return collapse(str(element["aria-label"]))
        control = controls.get(str(element.get("id", "")))
        return collapse(control.get_text(" ")) if control is not None else ""

    def _indexes(self) -> tuple[dict[str, Tag], dict[str, Tag]]:
        if self._by_id is None or self._controls is None:
            self._by_id, self._controls = {}, {}
            for tag in self._soup.find_all(_names_or_controls):
                if tag.get("id"):
                    self._by_id.setdefault(str(tag["id"]), tag)
                target = str(tag.get("aria-controls", "")) or _fragment(tag)
                if target:
                    self._controls.setdefault(target, tag)
        return self._by_id, self._controls


def _names_or_controls(tag: Tag) -> bool:
    return tag.has_attr("id") or tag.has_attr("aria-controls") or _fragment(tag) != ""


def _fragment(tag: Tag) -> str:
    href = str(tag.get("href", "")) if tag.name == "a" else ""
    return href[1:] if href.startswith("#") and len(href) > 1 else ""
