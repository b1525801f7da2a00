"""Media type sniffing: magic bytes over the declared type over the file name."""

from __future__ import annotations

import io
import zipfile

import pytest

from knowledge.extract import UnsupportedMediaType, sniff_media_type
from knowledge.extract.model import CSV, DOCX, HTML, JSON, MARKDOWN, PDF, TEXT
from tests.unit.knowledge.fixtures.builders import docx_bytes, pdf_bytes

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 32


def test_magic_bytes_win_over_a_wrong_declared_type() -> None:
    assert sniff_media_type(pdf_bytes([["hi"]]), declared="text/html") == PDF
    assert sniff_media_type(docx_bytes(), declared="application/octet-stream") == DOCX


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        ("text/html; charset=utf-8", HTML),
        ("application/xhtml+xml", HTML),
        ("TEXT/MARKDOWN", MARKDOWN),
        ("text/x-markdown", MARKDOWN),
        ("application/json", JSON),
        ("text/csv", CSV),
        ("application/csv", CSV),
    ],
)
def test_declared_types_and_their_aliases(declared: str, expected: str) -> None:
    assert sniff_media_type(b"a,b\n1,2\n", declared=declared) == expected


@pytest.mark.parametrize(
    ("filename", "expected"),
    [("notes.md", MARKDOWN), ("data.CSV", CSV), ("a/b/c.json", JSON), ("page.htm", HTML),
     ("readme.txt", TEXT), ("C:\\docs\\report.markdown", MARKDOWN)],
)
def test_file_name_when_the_declared_type_is_generic(filename: str, expected: str) -> None:
    assert sniff_media_type(b'{"a": 1}', declared="text/plain", filename=filename) == expected
    assert sniff_media_type(b'{"a": 1}', declared=None, filename=filename) == expected


def test_content_sniffing_without_any_hint() -> None:
    assert sniff_media_type(b"  <!DOCTYPE html><html><body>x</body></html>") == HTML
    assert sniff_media_type(b"<!-- c --><html lang=en>") == HTML
    assert sniff_media_type(b"\n<div class='faq'><p>Answer</p></div>") == HTML
    assert sniff_media_type(b'[{"a": 1}]') == JSON
    assert sniff_media_type(b"{not json at all") == TEXT
    assert sniff_media_type(b"Just some words.") == TEXT
    assert sniff_media_type(b"") == TEXT


def test_images_and_other_binaries_are_refused_and_named() -> None:
    with pytest.raises(UnsupportedMediaType, match="image/png"):
        sniff_media_type(PNG, declared="text/plain", filename="notes.txt")
    with pytest.raises(UnsupportedMediaType, match="image/jpeg"):
        sniff_media_type(b"\xff\xd8\xff\xe0" + b"\x00" * 20)
    with pytest.raises(UnsupportedMediaType, match="application/octet-stream"):
        sniff_media_type(b"abc\x00\x01\x02def")


def test_a_zip_that_is_not_a_word_document_is_refused() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "hi")
    with pytest.raises(UnsupportedMediaType, match="application/zip"):
        sniff_media_type(buffer.getvalue(), filename="x.docx")
    damaged = docx_bytes()[:2000]
    with pytest.raises(UnsupportedMediaType, match="application/zip"):
        sniff_media_type(damaged)
    assert sniff_media_type(damaged, filename="report.docx") == DOCX  # → fails as damaged


def test_an_unsupported_declared_type_is_refused() -> None:
    with pytest.raises(UnsupportedMediaType, match="image/svg\\+xml"):
        sniff_media_type(b"<svg></svg>", declared="image/svg+xml")
    error = UnsupportedMediaType("video/mp4")
    assert error.media_type == "video/mp4" and isinstance(error, ValueError)
