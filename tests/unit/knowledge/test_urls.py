"""One spelling per page (canonical_url) and the site it belongs to (registrable_domain)."""

from __future__ import annotations

import pytest

from knowledge.urls import canonical_url, registrable_domain


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("HTTP://WWW.Example.COM:80/a/../b/?q=1#frag", "http://www.example.com/b/?q=1"),
        ("https://example.com:443", "https://example.com/"),
        ("https://example.com:8443/x", "https://example.com:8443/x"),
        ("http://example.com./x", "http://example.com/x"),
        ("http://example.com/a/./b/../c", "http://example.com/a/c"),
        ("http://example.com/%7euser/%2fslash/%c3%a4", "http://example.com/~user/%2Fslash/%C3%A4"),
        ("http://example.com/ä b", "http://example.com/%C3%A4%20b"),
        ("http://bücher.de/", "http://xn--bcher-kva.de/"),
        ("http://example.com/p?b=2&a=1&a=0", "http://example.com/p?a=0&a=1&b=2"),
        ("http://example.com/p?utm_source=x&id=3&UTM_Medium=y&gclid=z&fbclid=w", "http://example.com/p?id=3"),
        ("http://example.com/p?utm_campaign=only", "http://example.com/p"),
        ("http://example.com/p?", "http://example.com/p"),
        ("http://example.com/p?q=a+b&r=a%20b&s=%2B", "http://example.com/p?q=a%20b&r=a%20b&s=%2B"),
        ("http://example.com/p?flag", "http://example.com/p?flag="),
        ("http://0x7f000001/", "http://127.0.0.1/"),
        ("http://2130706433/", "http://127.0.0.1/"),
        ("http://[::FFFF:127.0.0.1]/", "http://[::ffff:7f00:1]/"),
        ("http://example.com/docs/", "http://example.com/docs/"),
    ],
)
def test_canonical_url(given: str, expected: str) -> None:
    assert canonical_url(given) == expected


@pytest.mark.parametrize(
    "given",
    ["ftp://example.com/", "file:///etc/passwd", "javascript:alert(1)", "mailto:a@b.c", "data:text/html,x",
     "not a url", "", "http://", "//example.com/x"],
)
def test_canonical_url_rejects(given: str) -> None:
    assert canonical_url(given) is None


def test_canonical_url_resolves_relative_links_against_a_base() -> None:
    assert canonical_url("../b?utm_source=x#top", "https://Example.com/a/c/d") == "https://example.com/a/b"
    assert canonical_url("//cdn.example.com/x", "https://example.com/") == "https://cdn.example.com/x"
    assert canonical_url("mailto:x@example.com", "https://example.com/") is None


def test_equivalent_spellings_collapse() -> None:
    spellings = [
        "http://Example.com/a?y=2&x=1",
        "http://example.com:80/a?x=1&y=2#section",
        "http://example.com/./a?x=1&utm_source=news&y=2",
    ]
    assert len({canonical_url(s) for s in spellings}) == 1


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("https://docs.example.co.uk/path", "example.co.uk"),
        ("a.b.example.com", "example.com"),
        ("Example.COM.", "example.com"),
        ("https://user.github.io/", "user.github.io"),
        ("http://127.0.0.1:8080/x", "127.0.0.1"),
        ("http://[::1]/", "[::1]"),
        ("localhost", "localhost"),
        ("http://localhost:3000/", "localhost"),
        ("intranet", "intranet"),
        ("bücher.de", "xn--bcher-kva.de"),
        ("co.uk", None),
        ("ftp://example.com/", None),
        ("", None),
    ],
)
def test_registrable_domain(given: str, expected: str | None) -> None:
    assert registrable_domain(given) == expected
