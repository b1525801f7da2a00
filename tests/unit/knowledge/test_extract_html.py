"""HTML extraction: main content as markdown, hidden content lifted out, never-content gone."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowledge.extract import Block, Extracted, extract, extract_article_text
from knowledge.extract.model import HTML, MAX_MARKDOWN_CHARS

FIXTURES = Path(__file__).parent / "fixtures"


def page(name: str, *, keep_hidden: bool = True) -> Extracted:
    return extract((FIXTURES / name).read_bytes(), filename=name, keep_hidden=keep_hidden)


def visible(extracted: Extracted) -> str:
    return "\n\n".join(block.markdown for block in extracted.blocks if not block.hidden)


def hidden(extracted: Extracted) -> list[str]:
    return [block.markdown for block in extracted.blocks if block.hidden]


def test_docs_page_keeps_the_article_and_drops_nav_sidebar_and_footer() -> None:
    extracted = page("docs_page.html")
    markdown = visible(extracted)
    assert extracted.media_type == HTML
    assert extracted.title == "Configuring webhooks — Acme Docs"
    assert "# Configuring webhooks" in markdown
    assert "## Verifying signatures" in markdown
    assert "1. Choose the events to subscribe to." in markdown
    assert "**Settings → Developers → Webhooks**" in markdown
    for chrome in ("Teams and roles", "All rights reserved", "API reference", "window.analytics"):
        assert chrome not in markdown


def test_code_blocks_survive_as_fenced_code() -> None:
    markdown = visible(page("docs_page.html"))
    fence = markdown.index("```")
    code = markdown[fence : markdown.index("```", fence + 3) + 3]
    assert "def verify(body: bytes, secret: str, signature: str) -> bool:" in code
    assert "    return hmac.compare_digest(expected, signature)" in code  # indentation kept


def test_blog_post_title_from_open_graph_and_body_without_share_or_related_links() -> None:
    extracted = page("blog_post.html")
    markdown = visible(extracted)
    assert extracted.title == "Why we moved our queue to Postgres"
    assert "## What we measured" in markdown
    assert "SKIP LOCKED" in markdown
    assert "The best queue is the one your team already knows how to operate." in markdown
    assert "Share on LinkedIn" not in markdown
    assert "Scaling our API gateway" not in markdown
    assert "Great post" not in markdown  # comments are not the article


def test_a_page_that_is_all_table_keeps_the_table_with_its_header() -> None:
    markdown = visible(page("table_reference.html"))
    assert markdown.startswith("| Code | Name | Meaning |\n| --- | --- | --- |")
    assert "| E101 | rate_limited | Too many requests \\| slow down |" in markdown
    assert "Home" not in markdown  # the nav is not content


def test_hidden_subtrees_become_separate_hidden_blocks_in_phase_one() -> None:
    extracted = page("hidden_content.html")
    main = visible(extracted)
    lifted = hidden(extracted)
    assert "12 dollars per member per month" in main
    assert "This expanded answer is visible" in main  # "collapse show" is open
    assert "Can I get a refund?" in main  # a closed <details> still shows its summary
    hidden_text = "\n".join(lifted)
    for revealed in ("120 dollars per member per year", "Refunds are issued within 14 days",
                     "LAUNCH50", "SAML 2.0", "dedicated support engineer"):
        assert revealed in hidden_text
        assert revealed not in main
    assert "## Yearly billing\n\nYearly billing costs" in hidden_text  # named by its tab
    assert "## Can I get a refund?\n\nRefunds are issued" in hidden_text
    assert "Menu item A" not in hidden_text  # a hidden menu is not knowledge
    assert extracted.blocks[0].hidden is False
    assert all(block.hidden for block in extracted.blocks[1:])


def test_phase_two_drops_hidden_subtrees() -> None:
    extracted = page("hidden_content.html", keep_hidden=False)
    assert hidden(extracted) == []
    text = extracted.markdown
    assert "12 dollars per member per month" in text
    for gone in ("120 dollars", "LAUNCH50", "SAML", "Refunds are issued"):
        assert gone not in text


@pytest.mark.parametrize("keep_hidden", [True, False])
def test_script_style_template_noscript_and_aria_hidden_are_never_ingested(
    keep_hidden: bool,
) -> None:
    text = page("hidden_content.html", keep_hidden=keep_hidden).markdown
    for never in ("DECORATIVE-ICON-TEXT", "TEMPLATE-TEXT", "NOSCRIPT-TEXT", "SCRIPT_TEXT"):
        assert never not in text


def test_a_page_hidden_whole_until_scripts_run_is_read_as_visible() -> None:
    html = (
        "<html><body><div style='display:none' id='app'><h1>Status</h1>"
        + "<p>All systems are operational. The last incident was resolved on Monday.</p>" * 5
        + "</div></body></html>"
    )
    extracted = extract(html.encode())
    assert "All systems are operational" in visible(extracted)
    assert hidden(extracted) == []


def test_tiny_page_keeps_its_structure() -> None:
    html = b"<html><body><h1>Hours</h1><ul><li>Mon-Fri 9-17</li><li>Sat 10-14</li></ul></body>"
    assert visible(extract(html)) == "# Hours\n\n- Mon-Fri 9-17\n- Sat 10-14"


def test_legacy_encoding_declared_in_meta_is_honoured() -> None:
    html = (
        "<html><head><meta charset='iso-8859-1'><title>Café</title></head>"
        "<body><p>Crème brûlée à la carte, servie chaude.</p></body></html>"
    )
    extracted = extract(html.encode("latin-1"))
    assert extracted.title == "Café"
    assert "Crème brûlée à la carte" in extracted.markdown


def test_empty_and_textless_pages() -> None:
    assert extract(b"<html><body><div></div></body></html>").blocks == ()
    app_shell = b"<html><body><div id='root'></div><script>boot()</script></body></html>"
    assert extract(app_shell).markdown == ""


def test_markdown_joins_all_blocks() -> None:
    extracted = Extracted(HTML, "t", (Block("a"), Block("b", hidden=True)))
    assert extracted.markdown == "a\n\nb"


def test_a_huge_page_is_capped() -> None:
    paragraph = "<p>" + "word " * 200 + "</p>"
    html = ("<html><body><div>" + paragraph * 2500 + "</div></body></html>").encode()
    extracted = extract(html)
    assert 0 < len(extracted.markdown) <= MAX_MARKDOWN_CHARS


def test_article_text_is_plain_visible_text() -> None:
    text = extract_article_text((FIXTURES / "hidden_content.html").read_text())
    assert "Plans and pricing" in text and "#" not in text
    assert "LAUNCH50" not in text
    code_page = extract_article_text((FIXTURES / "docs_page.html").read_text())
    assert "```" not in code_page and "**" not in code_page
    assert "hmac.compare_digest(expected, signature)" in code_page


def test_markup_nested_deeper_than_the_recursion_limit_is_still_read() -> None:
    deep = "<div>" * 5000 + "<p>Deeply nested opening hours: 9 to 5.</p>" + "</div>" * 5000
    extracted = extract(f"<html><body>{deep}</body></html>".encode())
    assert "Deeply nested opening hours: 9 to 5." in extracted.markdown


def test_closed_dialogs_and_hidden_link_lists() -> None:
    html = (
        "<html><body><main><h1>Returns</h1>"
        + "<p>You can return any item within thirty days of delivery for a full refund.</p>" * 3
        + "<dialog><p>Return labels are printed from the orders page.</p></dialog>"
        + "<dialog open><p>Open dialog text is visible.</p></dialog>"
        + "<div hidden><a href='/a'>Shoes</a> <a href='/b'>Bags</a> <a href='/c'>Hats</a></div>"
        + "</main></body></html>"
    )
    extracted = extract(html.encode())
    assert hidden(extracted) == ["Return labels are printed from the orders page."]
    assert "Open dialog text is visible." in visible(extracted)
    assert "Shoes" not in extracted.markdown


def test_hidden_widgets_are_not_knowledge() -> None:
    html = (
        "<html><body><main><h1>Story</h1>"
        + "<p>The council approved the new cycling lanes after a long public debate.</p>" * 3
        + "<div style='display:none'>Cancel reply</div>"
        + "<div hidden><p>Advertisement</p></div>"
        + "<div class='hidden'><form><label>Your email address here please</label>"
        + "<input type='email' name='to'><button>Send</button></form></div>"
        + "<div hidden><p>The lanes open in May and connect the station to the harbour.</p></div>"
        + "</main></body></html>"
    )
    assert hidden(extract(html.encode())) == [
        "The lanes open in May and connect the station to the harbour."
    ]


def test_titles_are_capped() -> None:
    html = f"<html><head><title>{'Very long title ' * 100}</title></head><body><p>x</p></body>"
    assert len(extract(html.encode()).title) <= 300
