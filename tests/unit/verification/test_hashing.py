from __future__ import annotations

import pytest

from tests.unit.verification.support import URL, html_page
from verification import DEFAULT_VOLATILE_ATTRIBUTES, PageState, dom_hash
from verification.elements import PageInputError
from verification.hashing import MAX_HTML_DEPTH, may_nest_deeper, nesting_depth

BASE = html_page('<div class="card"><button id="s">Save</button><p>Hello world</p></div>')


def test_hash_is_a_short_hex_digest_and_deterministic() -> None:
    digest = dom_hash(BASE)
    assert len(digest) == 32 and int(digest, 16) >= 0
    assert dom_hash(BASE) == digest


@pytest.mark.parametrize(
    "variant",
    [
        BASE.replace("<p>", "\n    <p>").replace("</div>", "\n</div>\n"),
        BASE.replace('<div class="card">', '<div  class="card" >'),
        BASE.replace("<p>", "<!-- rendered at 12:00:01 --><p>"),
        BASE.replace("</body>", "<script>window.__STATE__ = {t: 1712}</script></body>"),
        BASE.replace("</head>", "<style>.x { color: red }</style></head>"),
        BASE.replace("</body>", '<noscript><img src="/pixel?t=1"></noscript></body>'),
        BASE.replace("</body>", "<template><b>row</b></template></body>"),
        BASE.replace('<button id="s">', '<button id="s" nonce="abc123">'),
        BASE.replace('<button id="s">', '<button id="s" data-reactid=".0.1.2">'),
        BASE.replace("</body>", '<input type="hidden" name="csrf" value="t0k3n"></body>'),
    ],
)
def test_differences_users_cannot_see_do_not_change_the_hash(variant: str) -> None:
    reference = BASE
    if "hidden" in variant:
        reference = BASE.replace(
            "</body>", '<input type="hidden" name="csrf" value="0th3r"></body>'
        )
    if "<script>" in variant:
        reference = BASE.replace("</body>", "<script>window.__STATE__ = {t: 9999}</script></body>")
    assert dom_hash(variant) == dom_hash(reference)


def test_volatile_values_never_matter_but_their_removal_is_consistent() -> None:
    a = BASE.replace("<p>", '<p nonce="one">')
    b = BASE.replace("<p>", '<p nonce="two">')
    assert dom_hash(a) == dom_hash(b)


def test_csrf_meta_content_is_ignored() -> None:
    a = BASE.replace("</head>", '<meta name="csrf-token" content="aaa"></head>')
    b = BASE.replace("</head>", '<meta name="csrf-token" content="bbb"></head>')
    other_meta = BASE.replace("</head>", '<meta name="description" content="bbb"></head>')
    assert dom_hash(a) == dom_hash(b)
    assert dom_hash(other_meta) != dom_hash(
        BASE.replace("</head>", '<meta name="description" content="aaa"></head>')
    )


@pytest.mark.parametrize(
    "variant",
    [
        BASE.replace("Hello world", "Hello there"),
        BASE.replace("Save", "Saved"),
        BASE.replace('class="card"', 'class="card open"'),
        BASE.replace('<div class="card">', '<div class="card" style="display:none">'),
        BASE.replace('<button id="s">', '<button id="s" data-llm-id="7">'),
        BASE.replace('<button id="s">', '<button id="s" disabled>'),
        BASE.replace("</body>", '<input type="text" name="q" value="x"></body>'),
    ],
)
def test_visible_changes_change_the_hash(variant: str) -> None:
    assert dom_hash(variant) != dom_hash(BASE)


def test_custom_volatile_set_replaces_the_defaults() -> None:
    a = BASE.replace("<p>", '<p data-ts="1">')
    b = BASE.replace("<p>", '<p data-ts="2">')
    assert dom_hash(a) != dom_hash(b)
    assert dom_hash(a, volatile_attributes={"data-ts"}) == dom_hash(
        b, volatile_attributes={"data-ts"}
    )
    with_nonce = BASE.replace("<p>", '<p nonce="x">')
    assert dom_hash(with_nonce, volatile_attributes=set()) != dom_hash(
        BASE, volatile_attributes=set()
    )


def test_attribute_names_are_matched_whole() -> None:
    # "nonce" is volatile; "nonce-count" is not, and neither is text that says nonce.
    a = BASE.replace("<p>", '<p nonce-count="1">')
    b = BASE.replace("<p>", '<p nonce-count="2">')
    assert dom_hash(a) != dom_hash(b)


@pytest.mark.parametrize("bad", [{"data-llm-id"}, {"bad name"}, {"x>y"}])
def test_identity_and_invalid_names_cannot_be_volatile(bad: set[str]) -> None:
    with pytest.raises(ValueError):
        dom_hash(BASE, volatile_attributes=bad)


def test_defaults_are_documented_names() -> None:
    assert "nonce" in DEFAULT_VOLATILE_ATTRIBUTES and "data-reactid" in DEFAULT_VOLATILE_ATTRIBUTES
    assert (
        "style" not in DEFAULT_VOLATILE_ATTRIBUTES
        and "data-llm-id" not in DEFAULT_VOLATILE_ATTRIBUTES
    )


def test_page_state_uses_the_same_hash_and_volatile_set() -> None:
    html = BASE.replace("<p>", '<p data-ts="1">')
    assert PageState.from_html(html, url=URL).dom_hash == dom_hash(html)
    assert PageState.from_html(html, url=URL, volatile_attributes={"data-ts"}).dom_hash == dom_hash(
        html, volatile_attributes={"data-ts"}
    )


def test_unterminated_script_is_hashed_not_dropped() -> None:
    a = html_page("<p>x</p><script>var a = 1")
    b = html_page("<p>x</p><script>var a = 2")
    assert dom_hash(a) != dom_hash(b)


@pytest.mark.parametrize(
    ("html", "depth"),
    [
        ("<div><div><span>x</span></div></div>", 3),
        ("<ul>" + "<li>item" * 3000 + "</ul>", 1),  # end tags left out: each <li> closes the one before
        ("<select>" + "<option>o" * 3000 + "</select>", 1),
        ("<p>a<p>b<br><img src=x><input>" * 2000, 0),  # void and optional-end elements never nest
        ("</div>" * 5000 + "<div>" * 1500, 1500),  # stray end tags do not hide the nesting after them
        ("<section><article><div>" * 400 + "</div></article></section>" * 400, 1200),
    ],
)
def test_nesting_depth_counts_levels_as_a_browser_nests_them(html: str, depth: int) -> None:
    assert nesting_depth(html.encode()) == depth


def test_a_page_deeper_than_the_bound_is_refused_before_parsing_and_a_real_one_is_not() -> None:
    deep = "<div>" * (MAX_HTML_DEPTH + 1) + "<button>Save</button>"
    with pytest.raises(PageInputError, match="nested 1002 levels deep"):
        PageState.from_html(f"<html><body>{deep}</body></html>", url="https://a.example/")
    fine = "<div>" * (MAX_HTML_DEPTH - 5) + "<button>Save</button>"
    assert [e.name for e in PageState.from_html(f"<html><body>{fine}</body></html>", url="https://a.example/").elements] == ["Save"]


@pytest.mark.parametrize(
    "html",
    [
        "<div>" * 1500,
        "</div>" * 5000 + "<div>" * 1500,  # stray end tags first do not hide the nesting after them
        "<section><article><div>" * 400 + "x",
        "<div><b></b>" * 1200,  # an end tag between every level
    ],
)
def test_the_count_bound_never_misses_a_page_that_nests_too_deep(html: str) -> None:
    data = html.encode()
    assert nesting_depth(data) > MAX_HTML_DEPTH
    assert may_nest_deeper(data, MAX_HTML_DEPTH)


def test_the_count_bound_lets_a_large_shallow_page_skip_the_count() -> None:
    data = ("<div><p>row <b>x</b> <a href=#>y</a></p></div>" * 5000).encode()
    assert not may_nest_deeper(data, MAX_HTML_DEPTH) and nesting_depth(data) == 2
