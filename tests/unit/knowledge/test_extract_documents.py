"""PDF, DOCX, Markdown, plain text, JSON and CSV extraction, and the input limits."""

from __future__ import annotations

import json

import pytest

from knowledge.extract import (
    MAX_INPUT_BYTES,
    MAX_MARKDOWN_CHARS,
    ExtractionFailed,
    UnsupportedMediaType,
    extract,
)
from knowledge.extract import documents
from knowledge.extract.model import CSV, DOCX, JSON, MARKDOWN, PDF, TEXT
from tests.unit.knowledge.fixtures.builders import docx_bytes, encrypted_pdf, pdf_bytes

POLICY_PAGES = [
    ["Refund policy",
     "Refunds are issued within 14 days of purchase when the",
     "account was active for less than a week.",
     "Contact support to start a refund, by email or",
     "through the chat in the dashboard."],
    ["Shipping takes three to five working days."],
]


def test_pdf_pages_and_paragraphs() -> None:
    extracted = extract(pdf_bytes(POLICY_PAGES, title="Policies"), filename="p.pdf")
    assert extracted.media_type == PDF
    assert extracted.title == "Policies"
    assert extracted.markdown.split("\n\n") == [
        "Refund policy",
        "Refunds are issued within 14 days of purchase when the account was active for less "
        "than a week.",
        "Contact support to start a refund, by email or through the chat in the dashboard.",
        "Shipping takes three to five working days.",
    ]


def test_pdf_without_a_title_is_named_by_its_first_line() -> None:
    assert extract(pdf_bytes(POLICY_PAGES)).title == "Refund policy"


def test_pdf_encrypted_with_an_empty_user_password_is_read() -> None:
    locked = encrypted_pdf(pdf_bytes(POLICY_PAGES), user_password="")
    assert "Shipping takes three" in extract(locked).markdown


def test_pdf_with_a_password_fails_with_a_reason() -> None:
    locked = encrypted_pdf(pdf_bytes(POLICY_PAGES), user_password="s3cret")
    with pytest.raises(ExtractionFailed, match="encrypted"):
        extract(locked)


@pytest.mark.parametrize(
    "broken",
    [
        b"%PDF-1.4\n" + b"garbage " * 50,
        b"%PDF-1.7\n1 0 obj << /Type /Catalog",
        pdf_bytes(POLICY_PAGES)[:300],
    ],
)
def test_broken_pdfs_fail_cleanly(broken: bytes) -> None:
    with pytest.raises(ExtractionFailed, match="PDF"):
        extract(broken)


def test_pdf_page_count_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(documents, "MAX_PDF_PAGES", 2)
    pages = [[f"This is page number {index}."] for index in range(5)]
    text = extract(pdf_bytes(pages)).markdown
    assert "page number 1." in text and "page number 2." not in text


def test_docx_keeps_headings_lists_and_tables() -> None:
    extracted = extract(docx_bytes(), filename="handbook.docx")
    assert extracted.media_type == DOCX
    assert extracted.title == "Onboarding handbook"
    assert extracted.markdown == (
        "# Onboarding handbook\n\n"
        "Welcome to Acme. This handbook explains your first week.\n\n"
        "## Equipment\n\n"
        "Laptops are shipped two days before your start date.\n\n"
        "- Request a monitor from the IT portal\n"
        "- Return old equipment within 30 days\n\n"
        "## Contacts\n\n"
        "| Team | Email |\n| --- | --- |\n| IT | it@acme.test |\n| People | people@acme.test |"
    )


def test_docx_title_comes_from_its_properties() -> None:
    assert extract(docx_bytes(title="Q3 plan")).title == "Q3 plan"


def test_docx_zip_bomb_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(documents, "MAX_DOCX_UNPACKED_BYTES", 1000)
    with pytest.raises(ExtractionFailed, match="too large once unpacked"):
        extract(docx_bytes())


def test_broken_docx_fails_cleanly() -> None:
    with pytest.raises(ExtractionFailed, match="Word document"):
        extract(docx_bytes()[:2000], media_type=DOCX)


def test_markdown_is_kept_and_normalised() -> None:
    source = (
        "---\ntitle: Release notes\ndate: 2026-01-01\n---\r\n# v2.0\r\n\r\n\r\n\r\n"
        "Faster sync.   \r\n\r\n```sh\r\nmake   install\r\n```\r\n"
    ).encode()
    extracted = extract(source, filename="notes.md")
    assert extracted.media_type == MARKDOWN
    assert extracted.title == "Release notes"
    assert extracted.markdown == "# v2.0\n\nFaster sync.\n\n```sh\nmake   install\n```"


def test_plain_text_in_latin1_is_decoded() -> None:
    text = "Résumé des tâches\n\nLe café est prêt à 8 h. Numéro #4 à gauche, près du lac."
    extracted = extract(text.encode("latin-1"), media_type="text/plain")
    assert extracted.media_type == TEXT
    assert extracted.title == "Résumé des tâches"
    assert "Le café est prêt à 8 h." in extracted.markdown


def test_plain_text_never_turns_into_headings() -> None:
    assert extract(b"# not a heading\nbody", filename="a.txt").markdown.startswith("\\# not")


def test_utf16_text_with_bom_is_decoded() -> None:
    data = "Grüße aus Köln".encode("utf-16")
    assert extract(data, filename="g.txt").markdown == "Grüße aus Köln"


def test_json_reads_as_a_document() -> None:
    value = {
        "name": "Acme API",
        "version": 3,
        "auth": {"type": "bearer", "scopes": ["read", "write"]},
        "endpoints": [
            {"method": "GET", "path": "/invoices", "paid": True},
            {"method": "POST", "path": "/refunds", "paid": False},
        ],
        "deep": {"a": {"b": {"c": {"d": 1}}}},
    }
    extracted = extract(json.dumps(value).encode(), filename="api.json")
    markdown = extracted.markdown
    assert extracted.media_type == JSON and extracted.title == "Acme API"
    assert markdown.startswith("- **name**: Acme API\n- **version**: 3")
    assert "## auth\n\n- **type**: bearer\n\n### scopes\n\n- read\n- write" in markdown
    assert "## endpoints\n\n| method | path | paid |\n| --- | --- | --- |" in markdown
    assert "| POST | /refunds | false |" in markdown
    assert '```json\n{\n  "d": 1\n}\n```' in markdown  # nested too deep: kept verbatim


def test_invalid_json_fails_cleanly() -> None:
    with pytest.raises(ExtractionFailed, match="JSON"):
        extract(b'{"a": [1, 2', media_type="application/json")


def test_csv_with_quoted_commas_becomes_a_table_with_its_header() -> None:
    data = b'name,city,note\n"Smith, Jane",Paris,"said ""hi"", left"\nLee,Oslo,|pipe|\n'
    extracted = extract(data, filename="people.csv")
    assert extracted.media_type == CSV and extracted.title == "people"
    assert extracted.markdown == (
        "| name | city | note |\n| --- | --- | --- |\n"
        '| Smith, Jane | Paris | said "hi", left |\n| Lee | Oslo | \\|pipe\\| |'
    )


def test_csv_dialect_is_sniffed() -> None:
    data = "produit;prix\nthé;3,50\ncafé;2,80\n".encode("cp1252")
    assert "| thé | 3,50 |" in extract(data, media_type="text/csv").markdown


def test_empty_input_fails_with_a_reason() -> None:
    for data in (b"", b"   \n\t "):
        with pytest.raises(ExtractionFailed, match="empty"):
            extract(data, filename="a.txt")


def test_png_is_unsupported() -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
    with pytest.raises(UnsupportedMediaType, match="image/png"):
        extract(png, media_type="text/plain")


def test_a_20_mb_text_is_capped() -> None:
    line = "All work and no play makes Jack a dull boy.\n"
    data = (line * (MAX_INPUT_BYTES // len(line))).encode()
    assert len(data) <= MAX_INPUT_BYTES
    markdown = extract(data, filename="big.txt").markdown
    assert MAX_MARKDOWN_CHARS - 10_000 <= len(markdown) <= MAX_MARKDOWN_CHARS


def test_a_20_mb_csv_is_capped() -> None:
    row = "alpha,beta,gamma,delta\n"
    data = ("a,b,c,d\n" + row * (MAX_INPUT_BYTES // len(row) - 1)).encode()
    markdown = extract(data, filename="big.csv").markdown
    assert markdown.startswith("| a | b | c | d |")
    assert len(markdown) <= MAX_MARKDOWN_CHARS


def test_input_over_the_limit_is_refused() -> None:
    with pytest.raises(ExtractionFailed, match="larger than 20 MB"):
        extract(b"x" * (MAX_INPUT_BYTES + 1), filename="a.txt")
