"""Write the binary documents of the fixture knowledge base (PDF, DOCX) from their sources.

The PDFs and DOCX files are committed next to the text formats so the benchmark and tests
never need a browser; this script is how they were made and how to remake them after a
source in ``_sources/`` changes::

    python -m bench.knowledge_corpus.generate

PDFs are printed by Debian's Chromium through Playwright (``page.pdf()``), as a real site's
PDF export would be; DOCX files are built with python-docx from a small Markdown subset
(``#``/``##`` headings, ``-`` bullets, ``|`` table rows, paragraphs).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from docx import Document
from playwright.async_api import async_playwright

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "_sources"
DOCS = HERE / "docs"
CHROMIUM = "/usr/bin/chromium"


async def write_pdfs() -> list[Path]:
    """Print every ``*.pdf.html`` source to ``docs/<name>.pdf``."""
    written: list[Path] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM)
        try:
            page = await browser.new_page()
            for source in sorted(SOURCES.glob("*.pdf.html")):
                await page.set_content(source.read_text(encoding="utf-8"))
                target = DOCS / source.name.removesuffix(".html")
                await page.pdf(path=str(target), format="A4")
                written.append(target)
        finally:
            await browser.close()
    return written


def _table_cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def write_docx(source: Path, target: Path) -> None:
    """Build one DOCX from the Markdown subset in ``source``."""
    document = Document()
    rows: list[list[str]] = []

    def flush_table() -> None:
        if not rows:
            return
        table = document.add_table(rows=len(rows), cols=len(rows[0]))
        table.style = "Table Grid"
        for r, cells in enumerate(rows):
            for c, cell in enumerate(cells):
                table.cell(r, c).text = cell
        rows.clear()

    for raw in source.read_text(encoding="utf-8").splitlines():
        line = raw.rstrip()
        if line.startswith("|"):
            rows.append(_table_cells(line))
            continue
        flush_table()
        if not line:
            continue
        if line.startswith("## "):
            document.add_heading(line[3:], level=2)
        elif line.startswith("# "):
            document.add_heading(line[2:], level=1)
        elif line.startswith("- "):
            document.add_paragraph(line[2:], style="List Bullet")
        else:
            document.add_paragraph(line)
    flush_table()
    # A fixed core date keeps regenerated files byte-stable enough to review diffs by size.
    document.core_properties.title = source.name.removesuffix(".docx.md")
    document.save(str(target))


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    written = asyncio.run(write_pdfs())
    for source in sorted(SOURCES.glob("*.docx.md")):
        target = DOCS / source.name.removesuffix(".md")
        write_docx(source, target)
        written.append(target)
    for path in written:
        print(f"{path.relative_to(HERE)}  {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
