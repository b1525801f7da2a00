"""Elements the full DOM holds and the V3 tree does not: what a page sent after the server
asked for the full DOM (``needsFullDom``) adds to the tree's element list.

Only elements stamped with ``data-llm-id`` count: that id is how the client finds an element
to act on, so an element without one could be read but never clicked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from verification.elements import PageElement
from verification.html_extract import extract_html

_STAMP = "data-llm-id"


def dom_only_elements(dom: str, tree: Sequence[Mapping[str, Any]]) -> tuple[PageElement, ...]:
    """The visible elements of ``dom`` keyed by a ``data-llm-id`` no node of ``tree`` has."""
    if _STAMP not in dom:
        return ()
    stamped = {
        value for node in LexborHTMLParser(dom).css(f"[{_STAMP}]") if (value := (node.attributes.get(_STAMP) or "").strip())
    }
    known = {str(node.get("i")) for node in tree}
    wanted = stamped - known
    if not wanted:
        return ()
    return tuple(e for e in extract_html(dom, with_hash=False, with_text=False).elements if e.id in wanted and not e.hidden)
