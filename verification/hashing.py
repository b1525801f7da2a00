"""DOM hash: "did anything at all change on this page?" in one hex string.

The hash is taken over the HTML the client sent (a browser's serialisation of its live
DOM, so tags are lower-case and markup is already normalised), after removing what
changes without the user seeing a difference:

* comments, and ``<script>``, ``<style>``, ``<noscript>`` and ``<template>`` elements
  with their bodies (the closing tag ends the element, as in a browser's tokenizer);
* all ASCII whitespace (indentation, line breaks, spaces between tags never count);
* volatile attributes — :data:`DEFAULT_VOLATILE_ATTRIBUTES` unless the caller passes its
  own set; names are matched as the browser writes them, in lower case — plus two always-volatile values: the ``value`` of ``<input type="hidden">``
  (CSRF tokens, view state) and the ``content`` of ``<meta name="csrf-token">`` and
  similar CSRF metas.

``style`` is *not* volatile: showing or hiding a panel through an inline style is a real
change. ``data-llm-id`` can never be volatile: it is the element identity the client
injects. The hash works on the UTF-8 bytes with a few C-level regular-expression passes,
never on a parsed tree: that is ~0.2 ms and 3× the page in memory for a 100 KB page,
where serialising a parsed tree costs twice the time and up to 6× the memory (Python
stores text with a non-Latin character at 2–4 bytes per character). The digest is
SHA-256 (hardware-accelerated on current CPUs) cut to 128 bits, 32 hex characters.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from functools import lru_cache
from itertools import accumulate
from typing import Any, Final

import orjson
from selectolax.lexbor import LexborHTMLParser

DEFAULT_VOLATILE_ATTRIBUTES: Final[frozenset[str]] = frozenset(
    {
        "nonce",
        "data-reactid",
        "data-react-checksum",
        "data-csrf",
        "data-csrf-token",
        "data-google-query-id",
        "data-timestamp",
    }
)
PRUNED_TAGS: Final[frozenset[str]] = frozenset({"script", "style", "noscript", "template"})
NEVER_VOLATILE: Final[frozenset[str]] = frozenset({"data-llm-id"})
_ATTRIBUTE_NAME = re.compile(r"^[a-z_][a-z0-9_.:-]*$")
_ASCII_WHITESPACE: Final = b" \t\n\r\f\v"
_ATTR_VALUE: Final = rb"""(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?"""
# One pass over the tags that matter: comments and raw-text elements (removed), and
# <input>/<meta> tags (kept, minus a hidden input's value or a CSRF meta's content). Written
# as "unrolled loops" so a long script body is skipped a run of non-'<' bytes at a time.
_SCRUB = re.compile(
    rb"<(?:!--[^-]*(?:-(?!->)[^-]*)*-->"
    rb"|(script|style|noscript|template)\b[^>]*>[^<]*(?:<(?!/\1)[^<]*)*</\1\s*>"
    rb"|(input|meta)\b[^>]*>)"
)
_HIDDEN_TYPE = re.compile(rb"""\stype\s*=\s*["']?hidden\b""", re.IGNORECASE)
_CSRF_NAME = re.compile(rb"""\sname\s*=\s*["']?_?csrf[-_](?:token|param)\b""", re.IGNORECASE)
_VALUE_ATTR = re.compile(rb"\svalue(?![\w-])" + _ATTR_VALUE, re.IGNORECASE)
_CONTENT_ATTR = re.compile(rb"\scontent(?![\w-])" + _ATTR_VALUE, re.IGNORECASE)


# How deep a page may nest its elements. Real pages nest 10–40 levels (Chrome caps its own
# tree at 512); the parser's time grows with depth squared (20 000 levels: 0.7 s, 80 000:
# ~15 s of one worker), so a deeper document is refused before it is parsed.
MAX_HTML_DEPTH: Final = 1000
# Start tags that add a level: not void elements, and not the ones whose end tag is optional
# (a run of <li>, <p>, <td>, <option> … without end tags closes each one, never nests).
_NESTING_TAG: Final = re.compile(
    rb"<(/?)(?!(?:area|base|br|col|embed|hr|img|input|link|meta|param|source|track|wbr|p|li|dt|dd|tr|td|th"
    rb"|option|optgroup|thead|tbody|tfoot|colgroup|caption|rb|rt|rtc|rp|html|head|body)[\s/>])[a-zA-Z]",
    re.IGNORECASE,
)
_LEVEL: Final = {b"": 1, b"/": -1}


class HtmlTooDeep(ValueError):
    """The document nests its elements deeper than :data:`MAX_HTML_DEPTH`."""


_CHUNK: Final = 1024


def may_nest_deeper(data: bytes, limit: int) -> bool:
    """A bound from counts alone (C speed, ~0.1 ms for 200 KB): per 1 KB chunk, its ``<`` and
    ``</``. The depth at a point is the level there minus the lowest level before it (an end
    tag with nothing open counts nothing); within a chunk the level rises at most by the
    chunk's start tags, and it can dip at most by its end tags. Void and optional-end tags count
    as starts, and a tag split between two chunks may too, so this only over-estimates: False
    means the page cannot nest past ``limit``; True means :func:`nesting_depth` must count."""
    level = lowest = 0
    for start in range(0, len(data), _CHUNK):
        end = start + _CHUNK
        closes = data.count(b"</", start, end)
        opens = data.count(b"<", start, end) - closes
        if level - lowest + opens > limit:
            return True
        lowest = min(lowest, level - closes)
        level += opens - closes
    return False


def nesting_depth(data: bytes) -> int:
    """How deep ``data`` nests its elements, counted on its tags (an end tag with nothing
    open counts nothing): ~0.6 ms for 200 KB, against seconds of parsing for a hostile page."""
    steps = map(_LEVEL.__getitem__, _NESTING_TAG.findall(data))
    return max(accumulate(steps, lambda depth, step: depth + step if depth + step > 0 else 0), default=0)


def parse_html(html: str | bytes) -> LexborHTMLParser:
    """Parse like a browser with scripting on: ``<noscript>`` content is text, not elements.
    Bytes are read as UTF-8. Raises :class:`HtmlTooDeep` past :data:`MAX_HTML_DEPTH`."""
    data = html if isinstance(html, bytes) else html.encode("utf-8", "surrogatepass")
    depth = nesting_depth(data) if may_nest_deeper(data, MAX_HTML_DEPTH) else 0
    if depth > MAX_HTML_DEPTH:
        raise HtmlTooDeep(f"elements nested {depth} levels deep (at most {MAX_HTML_DEPTH})")
    try:
        return LexborHTMLParser(html, scripting=True)
    except UnicodeEncodeError:  # lone surrogates from a JSON body
        assert isinstance(html, str)
        return LexborHTMLParser(html.encode("utf-8", "replace"), scripting=True)


def resolve_volatile(names: Iterable[str] | None) -> frozenset[str]:
    """The volatile attribute set to use (``None`` = defaults); names are validated."""
    if names is None:
        return DEFAULT_VOLATILE_ATTRIBUTES
    out = frozenset(name.strip().lower() for name in names)
    for name in out:
        if not _ATTRIBUTE_NAME.match(name):
            raise ValueError(f"not a valid attribute name for volatile_attributes: {name!r}")
    if out & NEVER_VOLATILE:
        raise ValueError("data-llm-id identifies elements and cannot be volatile")
    return out


@lru_cache(maxsize=32)
def _volatile_patterns(volatile: frozenset[str]) -> tuple[re.Pattern[bytes], ...]:
    """One pattern for all ``data-*`` names, one per other name. Every pattern starts with
    a literal (``data-``, ``nonce``), so the regex engine jumps between occurrences."""
    data = sorted(
        (n.removeprefix("data-") for n in volatile if n.startswith("data-")), key=len, reverse=True
    )
    others = sorted(n for n in volatile if not n.startswith("data-"))
    heads = [b"data-(?:" + b"|".join(re.escape(n.encode()) for n in data) + b")"] if data else []
    heads += [re.escape(n.encode()) for n in others]
    return tuple(re.compile(head + rb"(?![\w-])" + _ATTR_VALUE) for head in heads)


def _strip_attributes(data: bytes, pattern: re.Pattern[bytes]) -> bytes:
    def keep_unless_attribute(match: re.Match[bytes]) -> bytes:
        start = match.start()  # an attribute follows whitespace inside a tag
        return b"" if start > 0 and data[start - 1] in _ASCII_WHITESPACE else match.group(0)

    return pattern.sub(keep_unless_attribute, data)


def _scrub(match: re.Match[bytes]) -> bytes:
    kind = match.group(2)
    if kind is None:  # a comment or a script/style/noscript/template element
        return b""
    tag = match.group(0)
    if kind == b"input":
        return _VALUE_ATTR.sub(b"", tag) if b"idden" in tag and _HIDDEN_TYPE.search(tag) else tag
    return _CONTENT_ATTR.sub(b"", tag) if b"srf" in tag and _CSRF_NAME.search(tag) else tag


def scrub_html(html: str) -> bytes:
    """UTF-8 bytes of the page without comments and script/style/noscript/template
    elements, and without hidden-input values and CSRF meta contents. Parsing these bytes
    gives the same elements, messages and visible text as parsing ``html`` (none of what
    is removed is ever an element or visible text) with a smaller tree."""
    return _SCRUB.sub(_scrub, html.encode("utf-8", "surrogatepass"))


def hash_scrubbed(data: bytes, volatile: frozenset[str]) -> str:
    """The DOM hash of bytes from :func:`scrub_html`."""
    for pattern in _volatile_patterns(volatile):
        data = _strip_attributes(data, pattern)
    return hashlib.sha256(data.translate(None, _ASCII_WHITESPACE)).hexdigest()[:32]


def dom_hash(
    html: str, *, volatile_attributes: Iterable[str] | None = DEFAULT_VOLATILE_ATTRIBUTES
) -> str:
    """Stable hash of a page; equal for pages that differ only in what the module doc lists.

    ``PageState.from_html(html).dom_hash == dom_hash(html)`` for the same volatile set.
    """
    return hash_scrubbed(scrub_html(html), resolve_volatile(volatile_attributes))


def canonical_json(value: Any) -> bytes:
    """Compact JSON with sorted keys, as UTF-8. orjson when it can (~10× faster); the
    standard library for what orjson refuses — lone surrogates (a JavaScript string cut in
    the middle of an emoji), integers beyond 64 bits, non-string keys — so every value
    still gets a stable encoding."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS, default=str)
    except TypeError:
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
        return text.encode("utf-8", "surrogatepass")


def canonical_hash(value: Any) -> str:
    """Hash of a JSON-able value, independent of key order (used for V3 trees)."""
    return hashlib.sha256(canonical_json(value)).hexdigest()[:32]
