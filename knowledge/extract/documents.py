"""PDF, DOCX, Markdown and plain text → markdown."""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib

import mammoth
from bs4 import BeautifulSoup
from lxml import etree
from pypdf import PdfReader
from pypdf.errors import FileNotDecryptedError, PyPdfError

from knowledge.extract.html_markdown import html_to_markdown
from knowledge.extract.model import (
    DOCX,
    MARKDOWN,
    MAX_MARKDOWN_CHARS,
    PDF,
    TEXT,
    Block,
    Extracted,
    ExtractionFailed,
    cap_markdown,
)
from knowledge.extract.text import decode_text, normalise_markdown

MAX_PDF_PAGES = 2000
MAX_DOCX_UNPACKED_BYTES = 200_000_000
_PDF_ERRORS = (PyPdfError, ValueError, KeyError, TypeError, IndexError, AttributeError,
               AssertionError, RecursionError, struct.error, zlib.error, OSError)
_DOCX_ERRORS = (zipfile.BadZipFile, KeyError, ValueError, AttributeError, IndexError,
                RecursionError, OSError, zlib.error)
_SENTENCE_END = re.compile(r"[.!?:;\"'”’)]$")
_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n(?:---|\.\.\.)\n", re.S)
_FRONT_TITLE = re.compile(r"^title:\s*[\"']?(.*?)[\"']?\s*$", re.M)
_ATX_TITLE = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.M)
_LEADING_HASH = re.compile(r"^(\s{0,3})#", re.M)


def extract_pdf(data: bytes) -> Extracted:
    """Page text as paragraphs. PDFs carry no reliable heading structure, so none is guessed."""
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not _unlock(reader):
            raise ExtractionFailed("the PDF is encrypted with a password")
        pages: list[str] = []
        used = 0
        for page in reader.pages[:MAX_PDF_PAGES]:
            text = _paragraphs(page.extract_text() or "")
            pages.append(text)
            used += len(text)
            if used >= MAX_MARKDOWN_CHARS:
                break
        title = _pdf_title(reader)
    except ExtractionFailed:
        raise
    except FileNotDecryptedError:
        raise ExtractionFailed("the PDF is encrypted with a password") from None
    except _PDF_ERRORS:
        raise ExtractionFailed("the PDF is damaged or not a PDF") from None
    markdown = cap_markdown(normalise_markdown("\n\n".join(page for page in pages if page)))
    return Extracted(PDF, title or _first_line(markdown), _blocks(markdown))


def _unlock(reader: PdfReader) -> bool:
    """Many PDFs are 'encrypted' with an empty user password only to restrict printing."""
    return bool(reader.decrypt(""))


def _pdf_title(reader: PdfReader) -> str:
    metadata = reader.metadata
    title = metadata.title if metadata is not None else None
    return title.strip() if isinstance(title, str) else ""


def _paragraphs(page_text: str) -> str:
    """Re-flow pypdf's lines: a short line ending a sentence ends a paragraph.

    pypdf returns one line per printed line; joining them all would lose paragraphs, keeping
    them would cut sentences. A line shorter than the page's usual line that ends with
    sentence punctuation is taken as a paragraph's last line, a short line on its own (a
    title) as a paragraph of its own; hyphenated breaks are re-joined.
    """
    lines = [line.strip() for line in page_text.replace("\r", "\n").split("\n")]
    widths = sorted(len(line) for line in lines if line)
    if not widths:
        return ""
    usual = widths[int(len(widths) * 0.8)]
    paragraphs: list[str] = []
    current = ""
    for line in lines:
        if not line:
            if current:
                paragraphs.append(current)
            current = ""
            continue
        if current.endswith("-") and line[:1].islower():
            current = current[:-1] + line
        else:
            current = f"{current} {line}" if current else line
        ends_sentence = len(line) < 0.8 * usual and _SENTENCE_END.search(line) is not None
        stands_alone = len(line) < 0.5 * usual and line == current  # a title-like line
        if ends_sentence or stands_alone:
            paragraphs.append(current)
            current = ""
    if current:
        paragraphs.append(current)
    return "\n\n".join(_LEADING_HASH.sub(r"\1\\#", paragraph) for paragraph in paragraphs)


def extract_docx(data: bytes) -> Extracted:
    """mammoth maps Word styles to HTML (headings, lists, tables); then the HTML converter."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if "word/document.xml" not in archive.namelist():
                raise ExtractionFailed("the file is not a Word document")
            if sum(info.file_size for info in archive.infolist()) > MAX_DOCX_UNPACKED_BYTES:
                raise ExtractionFailed("the Word document is too large once unpacked")
            title = _docx_title(archive)
        html = mammoth.convert_to_html(io.BytesIO(data)).value
    except ExtractionFailed:
        raise
    except _DOCX_ERRORS:
        raise ExtractionFailed("the Word document is damaged or not a .docx file") from None
    soup = BeautifulSoup(html, "lxml")
    markdown = cap_markdown(normalise_markdown(html_to_markdown(soup)))
    return Extracted(DOCX, title or _markdown_title(markdown), _blocks(markdown))


def _docx_title(archive: zipfile.ZipFile) -> str:
    """dc:title from docProps/core.xml (the document's File → Properties title), if set."""
    if "docProps/core.xml" not in archive.namelist():
        return ""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    try:
        root = etree.fromstring(archive.read("docProps/core.xml")[:1_000_000], parser)
    except etree.XMLSyntaxError:
        return ""
    title = root.find("{http://purl.org/dc/elements/1.1/}title")
    return (title.text or "").strip() if title is not None else ""


def extract_markdown(data: bytes) -> Extracted:
    """Markdown as written, normalised; YAML front matter gives the title and is dropped."""
    text = normalise_markdown(decode_text(data))
    title = ""
    front = _FRONT_MATTER.match(text + "\n")
    if front is not None:
        found = _FRONT_TITLE.search(front.group(1))
        title = found.group(1) if found else ""
        text = text[front.end() :].strip()
    markdown = cap_markdown(text)
    return Extracted(MARKDOWN, title or _markdown_title(markdown), _blocks(markdown))


def extract_text(data: bytes) -> Extracted:
    """Plain text; a leading '#' is escaped so it is never read as a heading."""
    text = normalise_markdown(decode_text(data))
    markdown = cap_markdown(_LEADING_HASH.sub(r"\1\\#", text))
    return Extracted(TEXT, _first_line(text), _blocks(markdown))


def _markdown_title(markdown: str) -> str:
    heading = _ATX_TITLE.search(markdown)
    return heading.group(1).strip() if heading else _first_line(markdown)


def _first_line(text: str) -> str:
    for line in text.split("\n"):
        line = line.strip().lstrip("#\\").strip()
        if line:
            return line[:120]
    return ""


def _blocks(markdown: str) -> tuple[Block, ...]:
    return (Block(markdown),) if markdown else ()
