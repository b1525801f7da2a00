"""Sitemaps: robots.txt ``Sitemap:`` lines, else ``/sitemap.xml``; index files recursed to
a depth limit; gzip (``.xml.gz``, or any body starting with the gzip magic) inflated with
the same decoded-size cap as everything else, so a gzip bomb stops at the cap.

Sitemap XML is untrusted and parsed with lxml with entities unresolved, no network and no
DTD loading (no XXE, no billion laughs), and ``huge_tree`` off.
"""

from __future__ import annotations

import zlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from lxml import etree

from knowledge.fetch.decode import TooLarge, gunzip_bounded

_GZIP_MAGIC: Final = b"\x1f\x8b"


class SitemapError(ValueError):
    """The sitemap could not be read (not XML, not a sitemap, over the cap)."""


@dataclass
class SitemapWalk:
    pages: list[str] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (sitemap url, why)


def read_sitemap(data: bytes, max_bytes: int) -> tuple[Literal["index", "urlset"], list[str]]:
    """The kind of sitemap and its ``<loc>`` values, in order."""
    if data.startswith(_GZIP_MAGIC):
        try:
            data = gunzip_bounded(data, max_bytes)
        except TooLarge:
            raise SitemapError(f"decompressed sitemap over {max_bytes} bytes") from None
        except zlib.error as error:
            raise SitemapError(f"bad gzip: {error}") from None
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        huge_tree=False,
        load_dtd=False,
        dtd_validation=False,
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        raise SitemapError(f"not XML: {error}") from None
    kind = etree.QName(root).localname
    if kind not in ("sitemapindex", "urlset"):
        raise SitemapError(f"not a sitemap (root <{kind}>)")
    entry = "sitemap" if kind == "sitemapindex" else "url"
    locs = []
    for element in root:
        if not isinstance(element.tag, str) or etree.QName(element).localname != entry:
            continue
        for child in element:
            if isinstance(child.tag, str) and etree.QName(child).localname == "loc" and child.text:
                locs.append(child.text.strip())
    return ("index" if kind == "sitemapindex" else "urlset"), locs


async def walk_sitemaps(
    roots: Sequence[str],
    fetch: Callable[[str], Awaitable[bytes]],
    *,
    max_depth: int,
    max_bytes: int,
    limit: int,
    wanted: Callable[[str], str | None],
) -> SitemapWalk:
    """Page URLs from the sitemaps at ``roots`` (depth 0), breadth-first: at most ``limit``
    of them, each as ``wanted`` returns it (canonical), dropped when it returns ``None``
    (outside the allowed domains). ``fetch`` returns a sitemap's body or raises
    ``SitemapError``; a failed sitemap is an error in the walk, not the end of it."""
    walk = SitemapWalk()
    seen: set[str] = set()
    chosen: set[str] = set()
    level = list(dict.fromkeys(roots))
    depth = 0
    while level and len(walk.pages) < limit:
        children: list[str] = []
        for url in level:
            if url in seen or len(walk.pages) >= limit:
                continue
            seen.add(url)
            try:
                kind, locs = read_sitemap(await fetch(url), max_bytes)
            except SitemapError as error:
                walk.errors.append((url, str(error)))
                continue
            if kind == "urlset":
                for loc in locs:
                    page = wanted(loc)
                    if page is not None and page not in chosen:
                        chosen.add(page)
                        walk.pages.append(page)
                        if len(walk.pages) >= limit:
                            break
            elif depth + 1 > max_depth:
                walk.errors.append((url, f"sitemap index nested deeper than {max_depth}"))
            else:
                children.extend(locs)
        level = children
        depth += 1
    return walk
