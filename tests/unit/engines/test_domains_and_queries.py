from __future__ import annotations

import pytest

from agent.search import (
    allowed_domains_for,
    host_allowed,
    host_of,
    keywords,
    query_ladder,
    refine_query,
    registrable_domain,
    site_name,
)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("https://app.clinic.example.com/x?y=1", "example.com"),
        ("https://www.example.co.uk/", "example.co.uk"),
        ("https://shop.example.com.au", "example.com.au"),
        ("https://a.b.example.ac.jp", "example.ac.jp"),
        ("https://me.github.io/repo", "me.github.io"),
        ("http://127.0.0.1:8000/page", "127.0.0.1"),
        ("http://localhost:3000", "localhost"),
        ("Example.COM.", "example.com"),
        ("example.io", "example.io"),
        ("ftp://example.com/file", None),
        ("not a url://", None),
    ],
)
def test_registrable_domain(given: str, expected: str | None) -> None:
    assert registrable_domain(given) == expected


def test_host_of_and_allow_list() -> None:
    assert host_of("HTTPS://Portal.Example.com:8443/a") == "portal.example.com"
    assert host_of("javascript:alert(1)") is None
    assert host_of("/relative") is None
    assert allowed_domains_for("https://app.example.com/start") == ("example.com",)
    assert host_allowed("example.com", ["example.com"])
    assert host_allowed("a.b.example.com", ["Example.com"])
    assert not host_allowed("badexample.com", ["example.com"])
    assert not host_allowed("example.com.evil.net", ["example.com"])
    assert not host_allowed("example.com", [])


def test_site_name() -> None:
    assert site_name("example.co.uk") == "example"
    assert site_name("app.example.com") == "example"
    assert site_name("127.0.0.1") == "127.0.0.1"


def test_refine_query_strips_request_wording() -> None:
    assert (
        refine_query("Please find the current price of Bitcoin?") == "the current price of Bitcoin"
    )
    assert (
        refine_query("can you look up the opening hours of the Louvre")
        == "the opening hours of the Louvre"
    )
    assert refine_query("what is the capital of Peru") == "the capital of Peru"
    assert refine_query("Bitcoin price") == "Bitcoin price"
    assert refine_query("find") == "find"  # never empty
    assert len(refine_query("x " * 500)) <= 400


def test_keywords_and_ladder() -> None:
    assert keywords("What is the price of the Blue Kettle?") == ["price", "blue", "kettle"]
    assert query_ladder("the price of the blue kettle", "example") == [
        "the price of the blue kettle",
        "price blue kettle",
        "price blue kettle example",
    ]
    assert query_ladder("blue kettle", None) == ["blue kettle"]
    assert query_ladder("example kettle", "example") == ["example kettle"]
