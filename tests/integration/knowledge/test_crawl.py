"""The spider and single-page crawls against a real site on 127.0.0.1: robots.txt, the
exact depth and page caps, link rules, media types, SSRF on redirects, budgets."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from knowledge.crawl import CrawlSpec, crawl
from knowledge.fetch import FetchPolicy, SafeFetcher
from tests.support.sites import Page, Recorder, Site, html, links

LOCAL = frozenset({"127.0.0.1", "localhost"})


def spec(site: Site, path: str = "/", **overrides: object) -> CrawlSpec:
    values: dict[str, object] = {"strategy": "spider", "min_delay_s": 0.01, "max_depth": 5, "max_pages": 100}
    values.update(overrides)
    return CrawlSpec(url=site.url(path), **values)  # type: ignore[arg-type]


@pytest.fixture
async def fetcher() -> AsyncIterator[SafeFetcher]:
    safe = SafeFetcher(FetchPolicy(allow_private_hosts=LOCAL, timeout_s=5))
    yield safe
    await safe.aclose()


def page_paths(site: Site) -> list[str]:
    return [path for path in site.paths() if path != "/robots.txt"]


async def test_robots_disallowed_paths_are_never_requested(fetcher: SafeFetcher) -> None:
    robots = Page("User-agent: *\nDisallow: /private\n\nUser-agent: StepwiseBot\nDisallow: /private\nDisallow: /bots-only-no\n",
                  headers={"Content-Type": "text/plain"})
    with Site({"/robots.txt": robots, "/": links("/private/a", "/public", "/bots-only-no", "/private"),
               "/public": links("/private/b"), "/private/a": html("secret"), "/private": html("secret"),
               "/bots-only-no": html("no")}) as site:
        recorder = Recorder()
        progress = await crawl(spec(site), fetcher, on_page=recorder.on_page)
    assert sorted(page_paths(site)) == ["/", "/public"]
    assert site.paths().count("/robots.txt") == 1  # cached for the crawl
    assert progress.pages_done == progress.pages_total == 2


@pytest.mark.parametrize(("status", "fetched"), [(404, ["/", "/a"]), (410, ["/", "/a"]), (500, []), (503, []), (429, [])])
async def test_unavailable_robots_txt_allows_on_4xx_and_disallows_on_5xx(
    fetcher: SafeFetcher, status: int, fetched: list[str]
) -> None:
    with Site({"/robots.txt": Page("x", status), "/": links("/a"), "/a": html("a")}) as site:
        progress = await crawl(spec(site), fetcher, on_page=Recorder().on_page)
    assert page_paths(site) == fetched
    if not fetched:
        assert progress.errors == [{"url": site.url("/"), "error": f"robots.txt unavailable (HTTP {status})"}]


async def test_depth_is_cut_exactly_at_max_depth(fetcher: SafeFetcher) -> None:
    chain = {"/": links("/d1"), "/d1": links("/d2"), "/d2": links("/d3"), "/d3": links("/d4"), "/d4": html("deep")}
    with Site(chain) as site:
        recorder = Recorder()
        await crawl(spec(site, max_depth=2), fetcher, on_page=recorder.on_page)
    assert page_paths(site) == ["/", "/d1", "/d2"]
    assert [(page.url, page.depth) for page in recorder.pages] == [
        (site.url("/"), 0), (site.url("/d1"), 1), (site.url("/d2"), 2)]


async def test_depth_is_the_shortest_distance_even_with_concurrent_fetches(fetcher: SafeFetcher) -> None:
    """/x is 3 links away via the slow branch and 2 via the fast one; max_depth 2 keeps it."""
    pages = {"/": links("/slow", "/fast"), "/slow": links("/slow2"), "/slow2": links("/x"),
             "/fast": links("/x"), "/x": links("/beyond"), "/beyond": html("no")}
    with Site(pages) as site:
        recorder = Recorder()
        await crawl(spec(site, max_depth=2, max_connections_per_host=2), fetcher, on_page=recorder.on_page)
    depths = {page.url.removeprefix(site.url("")): page.depth for page in recorder.pages}
    assert depths == {"/": 0, "/slow": 1, "/fast": 1, "/slow2": 2, "/x": 2}


async def test_max_pages_is_exact_and_counted_at_enqueue(fetcher: SafeFetcher) -> None:
    pages: dict[str, Page] = {"/": links(*[f"/p{i}" for i in range(10)])}
    pages.update({f"/p{i}": links(*[f"/q{i}{j}" for j in range(5)]) for i in range(10)})
    with Site(pages) as site:
        recorder = Recorder()
        progress = await crawl(spec(site, max_pages=4), fetcher, on_page=recorder.on_page,
                               on_progress=recorder.on_progress)
    assert len(page_paths(site)) == 4
    assert progress.pages_total == progress.pages_done == 4
    assert all(p.pages_total <= 4 for p in recorder.progress)
    assert len(recorder.progress) == 4  # one call per page


async def test_link_rules_nofollow_rel_next_scope_and_duplicates(fetcher: SafeFetcher) -> None:
    with Site({}) as site:
        other_site = f"http://localhost:{site.port}/other"  # another registrable domain
        site.pages.update({
            "/": html(f'<a href="/a?utm_source=x#top">a</a><a href="/a">again</a><a rel="nofollow" href="/nf">nf</a>'
                      f'<a href="{other_site}">off</a><a href="mailto:x@y.z">m</a><a href="javascript:go()">j</a>',
                      head='<link rel="next" href="/page2"><link rel="stylesheet" href="/style.css">'),
            "/a": html("a"), "/page2": html("2"), "/nf": html("nf"), "/style.css": Page("x"),
            "/meta": html('<a href="/a">a</a>', head='<meta name="robots" content="noindex, nofollow">'),
        })
        recorder = Recorder()
        await crawl(spec(site), fetcher, on_page=recorder.on_page)
        meta = Recorder()
        await crawl(spec(site, "/meta"), fetcher, on_page=meta.on_page)
    assert sorted(page_paths(site)[:3]) == ["/", "/a", "/page2"]
    # links found (document order, canonical, nofollow/mailto/javascript/stylesheet dropped);
    # the scope rule applies when they are admitted, so /other is listed but never fetched
    assert recorder.pages[0].links == (site.url("/page2"), site.url("/a"), other_site)
    assert "/other" not in site.paths()
    assert meta.pages[0].links == ()


async def test_documents_go_to_on_page_without_link_parsing_and_other_media_are_errors(fetcher: SafeFetcher) -> None:
    pdf = Page(b"%PDF-1.4 <a href='/hidden'>", headers={"Content-Type": "application/pdf"})
    text = Page("see /hidden", headers={"Content-Type": "text/plain; charset=utf-8"})
    png = Page(b"\x89PNG....", headers={"Content-Type": "image/png"})
    with Site({"/": links("/doc.pdf", "/notes.txt", "/img.png"), "/doc.pdf": pdf, "/notes.txt": text,
               "/img.png": png, "/hidden": html("h")}) as site:
        recorder = Recorder()
        progress = await crawl(spec(site), fetcher, on_page=recorder.on_page)
    assert {page.url: page.fetch.media_type for page in recorder.pages} == {
        site.url("/"): "text/html", site.url("/doc.pdf"): "application/pdf", site.url("/notes.txt"): "text/plain"}
    assert all(page.links == () for page in recorder.pages[1:])
    assert "/hidden" not in site.paths()
    assert progress.errors == [{"url": site.url("/img.png"), "error": "unsupported media type image/png"}]
    assert (progress.pages_done, progress.pages_failed) == (3, 1)


async def test_single_fetches_one_page_and_reports_its_links(fetcher: SafeFetcher) -> None:
    with Site({"/": links("/a", "/b"), "/a": html("a"), "/b": html("b")}) as site:
        recorder = Recorder()
        progress = await crawl(spec(site, strategy="single"), fetcher, on_page=recorder.on_page)
    assert page_paths(site) == ["/"]
    assert recorder.pages[0].links == (site.url("/a"), site.url("/b"))
    assert progress.pages_total == 1


@pytest.mark.parametrize("target", ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/"])
async def test_a_redirect_into_the_private_network_is_a_page_error(fetcher: SafeFetcher, target: str) -> None:
    with Site({"/": links("/go", "/ok"), "/go": Page(status=302, headers={"Location": target}), "/ok": html("ok")}) as site:
        recorder = Recorder()
        progress = await crawl(spec(site), fetcher, on_page=recorder.on_page)
    assert recorder.urls == [site.url("/"), site.url("/ok")]
    assert progress.errors == [{"url": site.url("/go"), "error": "URL not allowed"}]
    assert progress.pages_failed == 1


async def test_redirect_to_an_already_crawled_page_is_not_handed_over_twice(fetcher: SafeFetcher) -> None:
    with Site({"/": links("/old", "/new"), "/old": Page(status=301, headers={"Location": "/new"}),
               "/new": html("new")}) as site:
        recorder = Recorder()
        await crawl(spec(site), fetcher, on_page=recorder.on_page)
    assert recorder.urls.count(site.url("/new")) == 1


async def test_without_the_allow_list_a_local_site_is_not_crawled_at_all() -> None:
    strict = SafeFetcher(FetchPolicy(timeout_s=5))
    with Site({"/": links("/a"), "/a": html("a")}) as site:
        try:
            progress = await crawl(spec(site), strict, on_page=Recorder().on_page)
        finally:
            await strict.aclose()
    assert site.paths() == []
    assert progress.errors == [{"url": site.url("/"), "error": "URL not allowed"}]
    assert progress.pages_total == progress.pages_done == 0


async def test_start_url_outside_the_allowed_domains_fetches_nothing(fetcher: SafeFetcher) -> None:
    with Site({"/": html("x")}) as site:
        progress = await crawl(spec(site, allowed_domains=("example.com",)), fetcher, on_page=Recorder().on_page)
    assert site.paths() == []
    assert progress.errors[0]["error"] == "the start URL is outside the allowed domains"


async def test_errors_are_capped_at_50(fetcher: SafeFetcher) -> None:
    with Site({"/": links(*[f"/missing{i}" for i in range(60)])}) as site:
        progress = await crawl(spec(site, min_delay_s=0.0, max_connections_per_host=8), fetcher,
                               on_page=Recorder().on_page)
    assert progress.pages_failed == 60
    assert len(progress.errors) == 50
    assert progress.errors[0]["error"] == "HTTP 404"


async def test_byte_budget_stops_the_crawl(fetcher: SafeFetcher) -> None:
    pages: dict[str, Page] = {"/": links(*[f"/p{i}" for i in range(10)], title="x" * 1000)}
    pages.update({f"/p{i}": html("y" * 1000) for i in range(10)})
    with Site(pages) as site:
        progress = await crawl(spec(site, max_total_bytes=2500, max_connections_per_host=1), fetcher,
                               on_page=Recorder().on_page)
    assert progress.stopped == "byte budget exhausted"
    assert progress.pages_done < 5
