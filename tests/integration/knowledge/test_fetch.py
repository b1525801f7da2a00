"""SafeFetcher against real HTTP(S) servers on 127.0.0.1: what it refuses, what it caps,
and that it connects to the address it vetted (no second DNS lookup)."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator, Sequence

import httpx
import pytest

from knowledge.fetch import FetchFailed, FetchPolicy, FetchRefused, SafeFetcher, parse_retry_after
from tests.support.sites import Hit, Page, Site, html, self_signed

LOCAL = frozenset({"127.0.0.1", "localhost"})


class FakeDns:
    """An injectable resolver: name → answers (one list per successive lookup)."""

    def __init__(self, answers: dict[str, list[list[str]]]) -> None:
        self.answers = answers
        self.calls: list[str] = []

    async def __call__(self, host: str, port: int) -> Sequence[str]:
        self.calls.append(host)
        queue = self.answers[host]
        return queue.pop(0) if len(queue) > 1 else queue[0]


@pytest.fixture
async def local_fetcher() -> AsyncIterator[SafeFetcher]:
    fetcher = SafeFetcher(FetchPolicy(allow_private_hosts=LOCAL, timeout_s=5))
    yield fetcher
    await fetcher.aclose()


@pytest.fixture
async def strict_fetcher() -> AsyncIterator[SafeFetcher]:
    fetcher = SafeFetcher(FetchPolicy(timeout_s=5))
    yield fetcher
    await fetcher.aclose()


async def test_fetches_a_page_with_its_media_type_and_validators(local_fetcher: SafeFetcher) -> None:
    page = Page("<p>hi</p>", headers={"Content-Type": "Text/HTML; charset=utf-8", "ETag": '"v1"',
                                      "Last-Modified": "Tue, 24 Nov 2026 10:00:00 GMT"})
    with Site({"/": page}) as site:
        result = await local_fetcher.fetch(site.url("/"))
    assert (result.status, result.media_type, result.body) == (200, "text/html", b"<p>hi</p>")
    assert (result.etag, result.last_modified) == ('"v1"', "Tue, 24 Nov 2026 10:00:00 GMT")
    assert not result.not_modified
    assert site.hits[0].headers["user-agent"].startswith("StepwiseBot/")


@pytest.mark.parametrize(
    "template",
    ["http://127.0.0.1:{port}/", "http://[::1]:{port}/", "http://0x7f000001:{port}/",
     "http://2130706433:{port}/", "http://localhost:{port}/", "http://127.1:{port}/",
     "http://[::ffff:127.0.0.1]:{port}/", "http://0.0.0.0:{port}/"],
)
async def test_loopback_in_any_spelling_is_refused_without_the_allow_list(
    strict_fetcher: SafeFetcher, template: str
) -> None:
    with Site({"/": html("secret")}) as site:
        with pytest.raises(FetchRefused, match="^URL not allowed$"):
            await strict_fetcher.fetch(template.format(port=site.port))
    assert site.hits == []


@pytest.mark.parametrize("url", ["ftp://example.com/x", "file:///etc/passwd", "gopher://x/", "data:text/html,hi"])
async def test_other_schemes_are_refused(local_fetcher: SafeFetcher, url: str) -> None:
    with pytest.raises(FetchRefused):
        await local_fetcher.fetch(url)


async def test_a_name_resolving_to_a_private_address_is_refused() -> None:
    dns = FakeDns({"rebind.test": [["10.0.0.5"]], "mixed.test": [["93.184.215.14", "10.0.0.1"]]})
    fetcher = SafeFetcher(FetchPolicy(allow_private_hosts=LOCAL), resolver=dns)
    try:
        for url in ("http://rebind.test/", "http://mixed.test/"):
            with pytest.raises(FetchRefused):
                await fetcher.fetch(url)
    finally:
        await fetcher.aclose()
    assert dns.calls == ["rebind.test", "mixed.test"]


async def test_connects_to_the_vetted_address_and_never_resolves_again() -> None:
    """The second answer would be private (a rebinding attack); it must never be asked for.
    The suite's network guard also fails any getaddrinfo("site.test"): httpx never resolves."""
    dns = FakeDns({"site.test": [["127.0.0.1"], ["10.0.0.5"]]})
    fetcher = SafeFetcher(FetchPolicy(allow_private_hosts=frozenset({"127.0.0.1"})), resolver=dns)
    with Site({"/": html("ok")}) as site:
        try:
            result = await fetcher.fetch(site.url("/", host="site.test"))
        finally:
            await fetcher.aclose()
    assert result.body.endswith(b"ok</body></html>")
    assert result.url == f"http://site.test:{site.port}/"
    assert dns.calls == ["site.test"]
    assert site.hits[0].headers["host"] == f"site.test:{site.port}"


async def test_https_verifies_the_certificate_against_the_real_name_not_the_ip() -> None:
    server_tls, client_tls = self_signed("site.test")
    dns = FakeDns({"site.test": [["127.0.0.1"]], "other.test": [["127.0.0.1"]]})
    transport = httpx.AsyncHTTPTransport(verify=client_tls, limits=httpx.Limits(max_keepalive_connections=0))
    policy = FetchPolicy(allow_private_hosts=frozenset({"127.0.0.1"}), timeout_s=5)
    fetcher = SafeFetcher(policy, transport=transport, resolver=dns)
    with Site({"/": html("tls")}, tls=server_tls) as site:
        try:
            result = await fetcher.fetch(site.url("/", host="site.test"))
            with pytest.raises(FetchFailed):  # certificate is for site.test, not other.test
                await fetcher.fetch(site.url("/", host="other.test"))
        finally:
            await fetcher.aclose()
    assert result.status == 200 and b"tls" in result.body


@pytest.mark.parametrize("target", ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/",
                                    "http://[::ffff:127.0.0.1]:{port}/", "file:///etc/passwd"])
async def test_redirects_into_the_private_network_are_refused(local_fetcher: SafeFetcher, target: str) -> None:
    with Site({}) as site:
        site.pages["/start"] = Page(status=302, headers={"Location": site.url("/hop")})
        site.pages["/hop"] = Page(status=301, headers={"Location": target.format(port=site.port)})
        with pytest.raises(FetchRefused):
            await local_fetcher.fetch(site.url("/start"))
    assert site.paths() == ["/start", "/hop"]


async def test_redirects_are_followed_to_the_final_url(local_fetcher: SafeFetcher) -> None:
    with Site({"/a": Page(status=301, headers={"Location": "/b"}),
               "/b": Page(status=307, headers={"Location": "c?x=1"}), "/c": html("done")}) as site:
        result = await local_fetcher.fetch(site.url("/a"))
    assert result.url == site.url("/c?x=1")
    assert site.paths() == ["/a", "/b", "/c?x=1"]


async def test_a_redirect_loop_stops_after_max_redirects(local_fetcher: SafeFetcher) -> None:
    with Site({"/a": Page(status=302, headers={"Location": "/b"}),
               "/b": Page(status=302, headers={"Location": "/a"})}) as site:
        with pytest.raises(FetchFailed, match="more than 5 redirects"):
            await local_fetcher.fetch(site.url("/a"))
    assert len(site.hits) == 6


async def test_a_body_over_the_cap_is_refused(local_fetcher: SafeFetcher) -> None:
    with Site({"/big": Page(b"x" * 5000, headers={"Content-Type": "text/plain"}),
               "/fits": Page(b"x" * 1000, headers={"Content-Type": "text/plain"})}) as site:
        with pytest.raises(FetchFailed, match="over 4096 bytes"):
            await local_fetcher.fetch(site.url("/big"), max_bytes=4096)
        assert len((await local_fetcher.fetch(site.url("/fits"), max_bytes=4096)).body) == 1000


async def test_a_gzip_bomb_stops_at_the_decoded_cap(local_fetcher: SafeFetcher) -> None:
    bomb = gzip.compress(b"\0" * 50_000_000)  # ~50 KB on the wire, 50 MB decoded
    small = gzip.compress(b"hello " * 100)
    with Site({"/bomb": Page(bomb, headers={"Content-Type": "text/html", "Content-Encoding": "gzip"}),
               "/ok": Page(small, headers={"Content-Type": "text/html", "Content-Encoding": "gzip"})}) as site:
        with pytest.raises(FetchFailed, match="over 1000000 bytes"):
            await local_fetcher.fetch(site.url("/bomb"), max_bytes=1_000_000)
        result = await local_fetcher.fetch(site.url("/ok"))
    assert result.body == b"hello " * 100
    assert site.hits[0].headers["accept-encoding"] == "gzip, deflate"


async def test_conditional_fetch_gives_304_with_an_empty_body(local_fetcher: SafeFetcher) -> None:
    def page(hit: Hit, count: int) -> Page:
        if hit.headers.get("if-none-match") == '"v1"':
            return Page(b"", 304, {"ETag": '"v1"'})
        return Page("<p>body</p>", headers={"Content-Type": "text/html", "ETag": '"v1"'})

    with Site({"/": page}) as site:
        first = await local_fetcher.fetch(site.url("/"))
        second = await local_fetcher.fetch(site.url("/"), etag=first.etag, last_modified="Tue, 24 Nov 2026 10:00:00 GMT")
    assert first.status == 200 and second.status == 304
    assert second.not_modified and second.body == b""
    assert site.hits_for("/")[1].headers["if-none-match"] == '"v1"'
    assert site.hits_for("/")[1].headers["if-modified-since"] == "Tue, 24 Nov 2026 10:00:00 GMT"
    assert "if-none-match" not in site.hits_for("/")[0].headers


async def test_http_errors_carry_status_and_retry_after(local_fetcher: SafeFetcher) -> None:
    with Site({"/busy": Page("slow down", 429, {"Retry-After": "7"}),
               "/down": Page("later", 503, {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}),
               "/gone": Page("no", 404)}) as site:
        with pytest.raises(FetchFailed) as busy:
            await local_fetcher.fetch(site.url("/busy"))
        with pytest.raises(FetchFailed) as down:
            await local_fetcher.fetch(site.url("/down"))
        with pytest.raises(FetchFailed) as gone:
            await local_fetcher.fetch(site.url("/gone"))
    assert (busy.value.status, busy.value.retry_after) == (429, 7.0)
    assert (down.value.status, down.value.retry_after) == (503, 0.0)  # a date in the past
    assert (gone.value.status, gone.value.retry_after) == (404, None)


def test_retry_after_parsing() -> None:
    assert parse_retry_after("120") == 120.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:30 GMT", now=1445412480.0) == 30.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


async def test_the_whole_fetch_has_one_timeout() -> None:
    fetcher = SafeFetcher(FetchPolicy(allow_private_hosts=LOCAL, timeout_s=0.3))
    with Site({"/": html("late")}, delay_s=1.0) as site:
        try:
            with pytest.raises(FetchFailed, match="timed out"):
                await fetcher.fetch(site.url("/"))
        finally:
            await fetcher.aclose()


async def test_a_closed_port_is_a_failure_not_a_crash(local_fetcher: SafeFetcher) -> None:
    with Site({}) as site:
        port = site.port
    with pytest.raises(FetchFailed, match="network error"):
        await local_fetcher.fetch(f"http://127.0.0.1:{port}/")


async def test_credentials_in_the_url_are_never_sent(local_fetcher: SafeFetcher) -> None:
    with Site({"/": html("ok")}) as site:
        result = await local_fetcher.fetch(f"http://user:secret@127.0.0.1:{site.port}/")
    assert result.status == 200
    assert "authorization" not in site.hits[0].headers
