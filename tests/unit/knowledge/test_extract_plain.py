"""Markdown → plain text for scoring, and the tidying of trafilatura's markdown."""

from __future__ import annotations

from knowledge.extract import markdown_to_text
from knowledge.extract.html import _tidy


def test_markdown_syntax_goes_and_words_stay() -> None:
    markdown = (
        "# Title\n\nIl ***black Friday*** and `code` and _emph_ and <u>underlined</u>.\n\n"
        "- bullet\n1. first step\n9) typed number\n\n> quoted\n\n"
        "| a | b |\n| --- | --- |\n| 1 | 2 \\| 3 |\n\n```py\nx = 1\n```\n\nBoil for \\*10 minutes"
    )
    assert markdown_to_text(markdown) == (
        "Title\n\nIl black Friday and code and emph and underlined.\n\n"
        "bullet\nfirst step\n9) typed number\n\nquoted\n\n"
        "a b\n1 2 | 3\n\nx = 1\n\nBoil for *10 minutes"
    )


def test_underscores_inside_words_are_not_emphasis() -> None:
    assert markdown_to_text("Director_Oh met Writer_Kyeong, snake_case_name") == (
        "Director_Oh met Writer_Kyeong, snake_case_name"
    )


def test_tidy_drops_paragraph_indentation_but_not_code_or_nested_items() -> None:
    markdown = (
        "Para line one\n        continues here\n- item\n   - nested\n"
        "```\n    indented code\n```\nAfter"
    )
    assert _tidy(markdown) == (
        "Para line one\ncontinues here\n- item\n   - nested\n```\n    indented code\n```\n\nAfter"
    )


def test_tidy_unglues_a_word_from_a_line_leading_emphasis() -> None:
    assert _tidy("*AppleInsider*staff, exactly one") == "*AppleInsider* staff, exactly one"
    assert _tidy("an *inline*word stays") == "an *inline*word stays"
