"""Chunking markdown by structure: heading paths, overlap, intact tables and code, ordinals."""

from __future__ import annotations

import re

import pytest
from langchain_text_splitters import MarkdownHeaderTextSplitter

from knowledge.chunking import Chunk, chunk_blocks, chunk_markdown, content_hash
from knowledge.extract import Block

SENTENCES = " ".join(
    f"Refund rule number {index} applies to annual plans only." for index in range(40)
)
TABLE = "| plan | price |\n| --- | --- |\n" + "\n".join(
    f"| plan {index} | {index} dollars per member per month, billed yearly |" for index in range(40)
)
CODE = "```python\n" + "\n".join(
    f"value_{index} = compute({index})  # step {index}" for index in range(60)
) + "\n```"


def test_heading_paths_follow_the_heading_levels() -> None:
    markdown = (
        "# Billing\n\n" + "Billing overview paragraph. " * 10 + "\n\n"
        "## Refunds\n\n" + "Refunds paragraph text. " * 10 + "\n\n"
        "### Annual plans\n\n" + "Annual plans refund text. " * 10 + "\n\n"
        "## Invoices\n\n" + "Invoices paragraph text. " * 10 + "\n\n"
        "# Security\n\n" + "Security paragraph text. " * 10
    )
    chunks = chunk_markdown(markdown)
    assert [chunk.heading_path for chunk in chunks] == [
        ("Billing",),
        ("Billing", "Refunds"),
        ("Billing", "Refunds", "Annual plans"),
        ("Billing", "Invoices"),
        ("Security",),
    ]
    assert [chunk.ordinal for chunk in chunks] == [0, 1, 2, 3, 4]
    assert all(not chunk.text.startswith("#") for chunk in chunks)  # path not repeated


def test_heading_text_is_plain() -> None:
    chunks = chunk_markdown("## **Set up** `sso` ##\n\n" + "Text about single sign-on. " * 10)
    assert chunks[0].heading_path == ("Set up sso",)


def test_long_sections_are_cut_with_overlap_and_within_max_chars() -> None:
    chunks = chunk_markdown("# Refunds\n\n" + SENTENCES, max_chars=400, overlap=120)
    assert len(chunks) > 3
    assert all(len(chunk.text) <= 400 for chunk in chunks)
    for before, after in zip(chunks, chunks[1:], strict=False):
        last_sentence = re.split(r"(?<=\.) ", before.text)[-1]
        assert after.text.startswith(last_sentence)  # the cut sentence is repeated
    words = " ".join(chunk.text for chunk in chunks)
    for index in range(40):
        assert f"Refund rule number {index} applies" in words


def test_no_overlap_when_zero() -> None:
    chunks = chunk_markdown(SENTENCES, max_chars=400, overlap=0)
    assert sum(len(chunk.text) for chunk in chunks) <= len(SENTENCES)


def test_a_table_is_cut_between_rows_with_its_header_repeated() -> None:
    chunks = chunk_markdown("## Prices\n\n" + TABLE, max_chars=500, overlap=100)
    assert len(chunks) > 2
    rows_seen: list[str] = []
    for chunk in chunks:
        lines = chunk.text.split("\n")
        assert lines[:2] == ["| plan | price |", "| --- | --- |"]
        assert all(line.startswith("| plan ") and line.endswith("|") for line in lines[2:])
        rows_seen.extend(lines[2:])
        assert len(chunk.text) <= 500
    assert rows_seen == TABLE.split("\n")[2:]  # every row once, whole, in order


def test_a_code_block_is_cut_between_lines_and_re_fenced() -> None:
    chunks = chunk_markdown("## Script\n\n" + CODE, max_chars=600, overlap=100)
    assert len(chunks) > 2
    lines_seen: list[str] = []
    for chunk in chunks:
        lines = chunk.text.split("\n")
        assert lines[0] == "```python" and lines[-1] == "```"
        lines_seen.extend(lines[1:-1])
    assert lines_seen == CODE.split("\n")[1:-1]


def test_small_tables_and_code_stay_whole_next_to_text() -> None:
    small_table = "| a | b |\n| --- | --- |\n| 1 | 2 |"
    small_code = "```\nline one\n\nline three after a blank line\n# not a heading\n```"
    markdown = "# Doc\n\n" + "Intro text. " * 30 + "\n\n" + small_table + "\n\n" + small_code
    text = "\n\n".join(chunk.text for chunk in chunk_markdown(markdown, max_chars=400))
    assert small_table in text
    assert small_code in text
    assert all(chunk.heading_path == ("Doc",) for chunk in chunk_markdown(markdown, max_chars=400))


def test_tiny_sibling_sections_merge_under_their_parent() -> None:
    markdown = (
        "# FAQ\n\n## Do you ship abroad?\n\nYes, to 40 countries.\n\n"
        "## Can I pay by invoice?\n\nOnly on annual plans.\n\n"
        "# Contact\n\n" + "Write to support through the dashboard chat at any time. " * 8
    )
    chunks = chunk_markdown(markdown)
    assert chunks[0].heading_path == ("FAQ",)
    assert "## Do you ship abroad?\n\nYes, to 40 countries." in chunks[0].text
    assert "## Can I pay by invoice?\n\nOnly on annual plans." in chunks[0].text
    assert chunks[-1].heading_path == ("Contact",)


def test_a_short_introduction_leads_into_its_first_subsection() -> None:
    markdown = "# Billing\n\nHow we bill.\n\n## Refunds\n\n" + "Refund details go here. " * 20
    chunks = chunk_markdown(markdown)
    assert len(chunks) == 1
    assert chunks[0].heading_path == ("Billing", "Refunds")
    assert chunks[0].text.startswith("How we bill.\n\nRefund details")


def test_large_sections_do_not_merge() -> None:
    markdown = "## One\n\n" + "First section text. " * 20 + "\n\n## Two\n\nSecond."
    chunks = chunk_markdown(markdown)
    assert [chunk.heading_path for chunk in chunks] == [("One",), ("Two",)]


def test_a_hash_inside_a_code_fence_is_not_a_heading() -> None:
    markdown = "# Real\n\n```bash\n# install it\nmake install\n```\n\n" + "More text here. " * 20
    chunks = chunk_markdown(markdown)
    assert {chunk.heading_path for chunk in chunks} == {("Real",)}


def test_paragraph_boundaries_survive_unlike_langchains_header_splitter() -> None:
    """Why the reader is our own: langchain's splitter loses the blank lines between blocks."""
    markdown = "# T\n\nPara one.\n\nPara two.\n\n```\ncode\n\n# comment\n```"
    (document,) = MarkdownHeaderTextSplitter([("#", "h1")]).split_text(markdown)
    assert "Para one.\n\nPara two." not in document.page_content
    (ours,) = chunk_markdown(markdown)
    assert ours.text == "Para one.\n\nPara two.\n\n```\ncode\n\n# comment\n```"


def test_chunk_blocks_continues_ordinals_and_carries_hidden() -> None:
    blocks = [
        Block("# Visible\n\n" + "Visible text. " * 20),
        Block("## Yearly\n\n" + "Hidden text. " * 20, hidden=True),
    ]
    chunks = chunk_blocks(blocks, max_chars=200, overlap=40)
    assert [chunk.ordinal for chunk in chunks] == list(range(len(chunks)))
    assert chunks[0].hidden is False and chunks[-1].hidden is True
    assert chunks[-1].heading_path == ("Yearly",)


def test_empty_markdown_has_no_chunks() -> None:
    assert chunk_markdown("") == []
    assert chunk_markdown("# Only a heading\n\n## And another") == []


def test_max_chars_too_small_is_refused() -> None:
    with pytest.raises(ValueError, match="max_chars"):
        chunk_markdown("text", max_chars=10)


def test_a_single_unbroken_word_longer_than_a_chunk_is_still_cut() -> None:
    chunks = chunk_markdown("x" * 1000, max_chars=300, overlap=0)
    assert all(len(chunk.text) <= 300 for chunk in chunks)
    assert "".join(chunk.text for chunk in chunks) == "x" * 1000


def test_content_hash_ignores_whitespace_layout_only() -> None:
    assert content_hash("a  b\n\nc ") == content_hash("a b c")
    assert content_hash("a b c") != content_hash("a b d")
    assert re.fullmatch(r"[0-9a-f]{64}", content_hash("x"))


def test_chunk_is_frozen() -> None:
    chunk = Chunk(0, ("a",), "text")
    with pytest.raises(AttributeError):
        chunk.text = "other"  # type: ignore[misc]


def test_a_tiny_section_does_not_merge_into_a_long_sibling() -> None:
    markdown = "## Top\n\n### Small\n\nTiny.\n\n### Large\n\n" + "Large section text. " * 40
    chunks = chunk_markdown(markdown, max_chars=300, overlap=0)
    assert chunks[0].heading_path == ("Top", "Small") and chunks[0].text == "Tiny."
    assert {chunk.heading_path for chunk in chunks[1:]} == {("Top", "Large")}

