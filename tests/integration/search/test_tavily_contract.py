"""The real ``tavily-python`` client against a local fake of Tavily's ``/search`` API."""

from __future__ import annotations

import socket
import time

import pytest

from agent.reasoning import ContextAnalysis
from agent.search import SearchUnavailable, TavilySearch, manage_search, search_client_from_settings
from tests.support.fake_tavily import (
    TEST_API_KEY,
    FakeTavily,
    TavilyReply,
    hit,
    http_error,
    results,
)

PAGE_URL = "https://shop.example.com/kettles"


def analysis(query: str = "blue kettle price") -> ContextAnalysis:
    return ContextAnalysis(
        source="WEB_SEARCH",
        required_sources=["WEB_SEARCH", "PAGE"],
        search_query=query,
        reason="outside information",
    )


async def test_search_sends_query_domains_and_key(fake_tavily: FakeTavily) -> None:
    fake_tavily.enqueue(
        results(hit("Blue kettle", "https://shop.example.com/k/1", "Blue kettle costs $25", 0.91))
    )
    client = TavilySearch(TEST_API_KEY, base_url=fake_tavily.base_url, timeout_s=5)
    try:
        hits = await client.search(
            "blue kettle price",
            include_domains=["example.com"],
            max_results=3,
            search_depth="basic",
        )
    finally:
        await client.aclose()
    assert [(h.title, h.url, h.score) for h in hits] == [
        ("Blue kettle", "https://shop.example.com/k/1", 0.91)
    ]
    assert hits[0].content == "Blue kettle costs $25"
    sent = fake_tavily.requests[0]
    assert sent.path == "/search"
    assert sent.api_key == TEST_API_KEY
    assert sent.body["query"] == "blue kettle price"
    assert sent.body["include_domains"] == ["example.com"]
    assert sent.body["max_results"] == 3
    assert sent.body["search_depth"] == "basic"


async def test_manage_search_filters_to_the_page_site_and_solves(fake_tavily: FakeTavily) -> None:
    fake_tavily.enqueue(
        results(hit("Blue kettle", "https://shop.example.com/k/1", "The blue kettle price is $25"))
    )
    client = search_client_from_settings(TEST_API_KEY, fake_tavily.base_url)
    assert client is not None
    try:
        outcome = await manage_search(
            "find the current price of the blue kettle", analysis(), PAGE_URL, client
        )
    finally:
        await client.aclose()
    assert outcome.solved and outcome.attempts == 1 and not outcome.unavailable
    assert outcome.include_domains == ["example.com"]
    assert fake_tavily.requests[0].body["include_domains"] == ["example.com"]
    assert fake_tavily.requests[0].body["query"] == "blue kettle price"
    assert "The blue kettle price is $25" in "\n".join(outcome.to_data_block().content)
    assert "$25" not in outcome.summary  # result text never leaves as prose


async def test_refines_the_query_after_an_empty_result(fake_tavily: FakeTavily) -> None:
    fake_tavily.enqueue(
        results(), results(hit("Kettles", "https://example.com/kettles", "Blue kettle: $25"))
    )
    client = TavilySearch(TEST_API_KEY, base_url=fake_tavily.base_url)
    try:
        outcome = await manage_search(
            "what is the price of the blue kettle",
            analysis("the price of the blue kettle"),
            PAGE_URL,
            client,
        )
    finally:
        await client.aclose()
    sent = [r.body["query"] for r in fake_tavily.requests]
    assert sent == ["the price of the blue kettle", "price blue kettle"]
    assert outcome.attempts == 2 and outcome.solved and outcome.query_used == "price blue kettle"
    assert outcome.queries == sent


async def test_gives_up_after_three_attempts(fake_tavily: FakeTavily) -> None:
    fake_tavily.enqueue(results(), results(), results(), results())
    client = TavilySearch(TEST_API_KEY, base_url=fake_tavily.base_url)
    try:
        outcome = await manage_search(
            "look up the blue kettle warranty",
            analysis("the blue kettle warranty"),
            PAGE_URL,
            client,
        )
    finally:
        await client.aclose()
    assert len(fake_tavily.requests) == 3
    assert fake_tavily.requests[2].body["query"] == "blue kettle warranty example"
    assert not outcome.solved and not outcome.should_ask_user and outcome.attempts == 3


async def test_corpus_answer_respects_include_domains() -> None:
    corpus = [
        hit("Kettle", "https://other.org/kettle", "kettle elsewhere"),
        hit("Kettle", "https://www.example.com/kettle", "kettle here"),
    ]
    with FakeTavily(api_key=TEST_API_KEY, corpus=corpus) as fake:
        client = TavilySearch(TEST_API_KEY, base_url=fake.base_url)
        try:
            hits = await client.search("kettle", include_domains=["example.com"])
        finally:
            await client.aclose()
    assert [h.url for h in hits] == ["https://www.example.com/kettle"]


@pytest.mark.parametrize(
    ("reply", "kind", "status"),
    [
        (http_error(401, "Unauthorized"), "auth", 401),
        (http_error(429, "Rate limit"), "rate_limited", 429),
        (http_error(432, "Plan limit"), "forbidden", None),
        (http_error(400, "Bad query"), "bad_request", 400),
        (http_error(500, "boom"), "server_error", 500),
        (http_error(503, "unavailable"), "server_error", 503),
        (TavilyReply(raw_body=b"<html>not json</html>"), "bad_response", None),
        (TavilyReply(raw_body=b"[1, 2]"), "bad_response", None),
    ],
)
async def test_provider_errors_become_search_unavailable(
    fake_tavily: FakeTavily, reply: TavilyReply, kind: str, status: int | None
) -> None:
    fake_tavily.enqueue(reply)
    client = TavilySearch(TEST_API_KEY, base_url=fake_tavily.base_url)
    try:
        with pytest.raises(SearchUnavailable) as caught:
            await client.search("kettle")
    finally:
        await client.aclose()
    assert caught.value.kind == kind and caught.value.status_code == status
    assert TEST_API_KEY not in str(caught.value)


async def test_wrong_key_is_rejected_by_the_fake_and_degrades_manage_search(
    fake_tavily: FakeTavily,
) -> None:
    client = TavilySearch("tvly-wrong", base_url=fake_tavily.base_url)
    try:
        outcome = await manage_search("look up kettle prices", analysis(), PAGE_URL, client)
    finally:
        await client.aclose()
    assert outcome.unavailable and outcome.error_kind == "auth"
    assert not outcome.solved and not outcome.should_ask_user and outcome.results == []
    assert "unavailable" in outcome.summary


async def test_rate_limit_mid_refinement_keeps_earlier_attempts(fake_tavily: FakeTavily) -> None:
    fake_tavily.enqueue(results(), http_error(429))
    client = TavilySearch(TEST_API_KEY, base_url=fake_tavily.base_url)
    try:
        outcome = await manage_search(
            "look up the kettle warranty", analysis("the kettle warranty"), PAGE_URL, client
        )
    finally:
        await client.aclose()
    assert outcome.unavailable and outcome.error_kind == "rate_limited" and outcome.attempts == 2


async def test_timeout(fake_tavily: FakeTavily) -> None:
    fake_tavily.enqueue(TavilyReply(results=(), delay_s=3.0))
    client = TavilySearch(TEST_API_KEY, base_url=fake_tavily.base_url, timeout_s=0.3)
    started = time.monotonic()
    try:
        with pytest.raises(SearchUnavailable) as caught:
            await client.search("kettle")
    finally:
        await client.aclose()
    assert caught.value.kind == "timeout"
    assert time.monotonic() - started < 2.5


async def test_connection_refused() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = TavilySearch(TEST_API_KEY, base_url=f"http://127.0.0.1:{port}", timeout_s=2)
    try:
        with pytest.raises(SearchUnavailable) as caught:
            await client.search("kettle")
    finally:
        await client.aclose()
    assert caught.value.kind == "connection"


async def test_missing_results_key_and_malformed_hits(fake_tavily: FakeTavily) -> None:
    fake_tavily.enqueue(
        TavilyReply(raw_body=b'{"answer": "none"}'),
        TavilyReply(
            raw_body=b'{"results": [{"title": "no url"}, 7, '
            b'{"url": "https://example.com/a", "score": true}]}'
        ),
    )
    client = TavilySearch(TEST_API_KEY, base_url=fake_tavily.base_url)
    try:
        assert await client.search("kettle") == []  # the SDK reads a missing list as no results
        hits = await client.search("kettle")
    finally:
        await client.aclose()
    assert [(h.url, h.title, h.content, h.score) for h in hits] == [
        ("https://example.com/a", "", "", 0.0)
    ]


def test_no_key_means_no_client() -> None:
    assert search_client_from_settings(None) is None
    assert search_client_from_settings("   ") is None
    assert isinstance(search_client_from_settings(" tvly-x ", "http://127.0.0.1:9"), TavilySearch)
