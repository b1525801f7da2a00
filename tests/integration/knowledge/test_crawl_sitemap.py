"""Sitemap crawls: robots ``Sitemap:`` lines or /sitemap.xml, nested indexes, .gz files,
the nesting and size caps, gzip bombs, hostile XML, scope and robots on sitemap pages."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator

import pytest

from knowledge.crawl import CrawlSpec, crawl
from knowledge.fetch import FetchPolicy, SafeFetcher
from tests.support.sites import Page, Recorder, Site, html

LOCAL = frozenset({"127.0.0.1", "localhost"})
XML = {"Content-Type": "application/xml"}
GZ = {"Content-Type": "application/gzip"}


def urlset(*locs: str) -> bytes:
    entries = "".join(f"<url><loc>{loc}</loc><lastmod>2026-01-01</lastmod></url>" for loc in locs)
    return f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>'.encode()


def index(*locs: str) -> bytes:
    entries = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return f'<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</sitemapindex>'.encode()


def sitemap_spec(site: Site, **overrides: object) -> CrawlSpec:
    values: dict[str, object] = {"strategy": "sitemap", "min_delay_s": 0.01, "max_pages": 100}
    values.update(overrides)
    return CrawlSpec(url=site.url("/"), **values)  # type: ignore[arg-type]


@pytest.fixture
async def fetcher() -> AsyncIterator[SafeFetcher]:
    safe = SafeFetcher(FetchPolicy(allow_private_hosts=LOCAL, timeout_s=10))
    yield safe
    await safe.aclose()


def nested_site(site: Site) -> None:
    """robots → /index.xml → (/nested.xml → /a.xml, /b.xml.gz) and /c.xml."""
    u = site.url
    site.pages.update({
        "/robots.txt": Page(f"User-agent: *\nDisallow: /blocked\nSitemap: {u('/index.xml')}\n", headers={"Content-Type": "text/plain"}),
        "/index.xml": Page(index(u("/nested.xml"), u("/c.xml")), headers=XML),
        "/nested.xml": Page(index(u("/a.xml"), u("/b.xml.gz")), headers=XML),
        "/a.xml": Page(urlset(u("/p1"), u("/p2"), "http://example.com/elsewhere"), headers=XML),
        "/b.xml.gz": Page(gzip.compress(urlset(u("/p3"), u("/blocked/p"))), headers=GZ),
        "/c.xml": Page(urlset(u("/p4"), u("/p1?utm_source=sitemap")), headers=XML),
        **{f"/p{i}": html(f'page {i} <a href="/not-followed">x</a>') for i in range(1, 5)},
        "/blocked/p": html("blocked"), "/not-followed": html("no"),
    })


async def test_nested_indexes_and_gzip_sitemaps_give_the_in_scope_pages(fetcher: SafeFetcher) -> None:
    with Site({}) as site:
        nested_site(site)
        recorder = Recorder()
        progress = await crawl(sitemap_spec(site), fetcher, on_page=recorder.on_page)
    assert sorted(recorder.urls) == sorted(site.url(f"/p{i}") for i in range(1, 5))
    assert all(page.depth == 0 for page in recorder.pages)
    for never in ("/blocked/p", "/not-followed", "/"):
        assert never not in site.paths()
    assert progress.errors == [{"url": site.url("/blocked/p"), "error": "disallowed by robots.txt"}]
    assert progress.pages_total == 4


async def test_without_a_sitemap_line_sitemap_xml_is_read(fetcher: SafeFetcher) -> None:
    with Site({}) as site:
        site.pages.update({"/sitemap.xml": Page(urlset(site.url("/only")), headers=XML), "/only": html("only")})
        recorder = Recorder()
        await crawl(sitemap_spec(site), fetcher, on_page=recorder.on_page)
    assert recorder.urls == [site.url("/only")]
    assert site.paths() == ["/robots.txt", "/sitemap.xml", "/only"]


async def test_no_sitemap_falls_back_to_the_start_url(fetcher: SafeFetcher) -> None:
    with Site({"/": html("home")}) as site:
        recorder = Recorder()
        progress = await crawl(sitemap_spec(site), fetcher, on_page=recorder.on_page)
    assert recorder.urls == [site.url("/")]
    assert [e["error"] for e in progress.errors] == ["HTTP 404", "no pages in the sitemap; crawled the start URL only"]


async def test_index_nesting_beyond_max_sitemap_depth_is_not_followed(fetcher: SafeFetcher) -> None:
    with Site({}) as site:
        nested_site(site)
        recorder = Recorder()
        progress = await crawl(sitemap_spec(site, max_sitemap_depth=1), fetcher, on_page=recorder.on_page)
    assert sorted(recorder.urls) == [site.url("/p1"), site.url("/p4")]  # /c.xml only
    assert "/a.xml" not in site.paths() and "/b.xml.gz" not in site.paths()
    assert progress.errors == [{"url": site.url("/nested.xml"), "error": "sitemap index nested deeper than 1"}]


async def test_max_pages_applies_to_sitemap_pages(fetcher: SafeFetcher) -> None:
    with Site({}) as site:
        site.pages["/sitemap.xml"] = Page(urlset(*[site.url(f"/p{i}") for i in range(20)]), headers=XML)
        site.pages.update({f"/p{i}": html(str(i)) for i in range(20)})
        progress = await crawl(sitemap_spec(site, max_pages=3), fetcher, on_page=Recorder().on_page)
    assert progress.pages_total == progress.pages_done == 3
    assert sorted(p for p in site.paths() if p.startswith("/p")) == ["/p0", "/p1", "/p2"]


async def test_a_gzip_bomb_sitemap_stops_at_the_cap(fetcher: SafeFetcher) -> None:
    payload = b'<?xml version="1.0"?><urlset>' + b" " * 30_000_000 + b"</urlset>"
    bomb = gzip.compress(payload, compresslevel=9)  # ~30 KB on the wire
    with Site({}) as site:
        site.pages.update({
            "/robots.txt": Page(f"Sitemap: {site.url('/bomb.xml.gz')}\nSitemap: {site.url('/encoded.xml')}\n"
                                f"Sitemap: {site.url('/fine.xml')}\n", headers={"Content-Type": "text/plain"}),
            "/bomb.xml.gz": Page(bomb, headers=GZ),
            "/encoded.xml": Page(bomb, headers={"Content-Type": "application/xml", "Content-Encoding": "gzip"}),
            "/fine.xml": Page(urlset(site.url("/p")), headers=XML), "/p": html("p"),
        })
        recorder = Recorder()
        progress = await crawl(sitemap_spec(site, max_sitemap_bytes=1_000_000), fetcher, on_page=recorder.on_page)
    assert len(bomb) < 100_000
    assert progress.errors == [
        {"url": site.url("/bomb.xml.gz"), "error": "decompressed sitemap over 1000000 bytes"},
        {"url": site.url("/encoded.xml"), "error": "body over 1000000 bytes"},
    ]
    assert recorder.urls == [site.url("/p")]


async def test_hostile_xml_entities_are_not_resolved(fetcher: SafeFetcher) -> None:
    xxe = (b'<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/hostname">'
           b'<!ENTITY lol "lollollollollollollollol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;">]>'
           b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>&xxe;</loc></url>'
           b'<url><loc>&lol2;</loc></url><url><loc>PAGE</loc></url></urlset>')
    with Site({}) as site:
        site.pages.update({"/sitemap.xml": Page(xxe.replace(b"PAGE", site.url("/p").encode()), headers=XML),
                           "/p": html("p")})
        recorder = Recorder()
        await crawl(sitemap_spec(site), fetcher, on_page=recorder.on_page)
    assert recorder.urls == [site.url("/p")]


async def test_not_a_sitemap_is_an_error(fetcher: SafeFetcher) -> None:
    with Site({"/sitemap.xml": Page("<html><body>hi</body></html>", headers=XML), "/": html("home")}) as site:
        progress = await crawl(sitemap_spec(site), fetcher, on_page=Recorder().on_page)
    assert progress.errors[0] == {"url": site.url("/sitemap.xml"), "error": "not a sitemap (root <html>)"}
