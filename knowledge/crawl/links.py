"""The links a spider may follow from an HTML page: ``<a href>`` and ``<link rel=next>``,
resolved against ``<base href>`` (or the page URL) and canonicalised; ``rel=nofollow``
links are skipped, and a page whose ``<meta name=robots>`` says ``nofollow`` (or
``none``) gives none. Page HTML is untrusted: only attributes are read, nothing runs."""

from __future__ import annotations

from typing import Final

from selectolax.lexbor import LexborHTMLParser

from knowledge.urls import canonical_url

MAX_LINKS: Final = 5000  # per page; a link farm cannot flood the frontier


def page_links(html: bytes | str, page_url: str) -> tuple[str, ...]:
    """Followable canonical http(s) links, de-duplicated, in document order."""
    tree = LexborHTMLParser(html)
    for meta in tree.css("meta[name]"):
        if (meta.attributes.get("name") or "").strip().lower() in ("robots", "stepwisebot"):
            content = (meta.attributes.get("content") or "").lower()
            directives = {directive.strip() for directive in content.split(",")}
            if directives & {"nofollow", "none"}:
                return ()
    base = page_url
    base_node = tree.css_first("base[href]")
    if base_node is not None:
        base = canonical_url(base_node.attributes.get("href") or "", page_url) or page_url
    found: dict[str, None] = {}
    for node in tree.css("a[href], link[href]"):
        rel = set((node.attributes.get("rel") or "").lower().split())
        if "nofollow" in rel or (node.tag == "link" and "next" not in rel):
            continue
        link = canonical_url(node.attributes.get("href") or "", base)
        if link is not None and link != page_url:
            found.setdefault(link, None)
            if len(found) >= MAX_LINKS:
                break
    return tuple(found)
