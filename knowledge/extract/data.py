"""JSON and CSV → markdown that reads (and retrieves) like a document.

JSON: top-level keys become headings so a chunk's heading path names the key it came
from; arrays of flat records become tables; scalars become "key: value" lines; anything
nested deeper than three levels is kept verbatim as a fenced block. CSV: one GFM table with
the header row; the chunker repeats that header in every chunk of a long table.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from knowledge.extract.html_markdown import collapse
from knowledge.extract.model import (
    CSV,
    JSON,
    MAX_MARKDOWN_CHARS,
    Block,
    Extracted,
    ExtractionFailed,
    cap_markdown,
)
from knowledge.extract.text import decode_text, normalise_markdown

_MAX_HEADING_DEPTH = 3
_CSV_SAMPLE = 64 * 1024
_TITLE_KEYS = ("title", "name")
JsonValue = object
"""What json.loads returns: dict, list, str, int, float, bool or None."""


def extract_json(data: bytes, *, filename: str | None = None) -> Extracted:
    try:
        value = json.loads(decode_text(data))
    except (ValueError, RecursionError):
        raise ExtractionFailed("the JSON is not valid") from None
    try:
        markdown = "\n\n".join(_render(value, depth=0))
    except RecursionError:
        raise ExtractionFailed("the JSON is nested too deeply") from None
    markdown = cap_markdown(normalise_markdown(markdown))
    return Extracted(JSON, _json_title(value, filename), (Block(markdown),) if markdown else ())


def _render(value: JsonValue, *, depth: int) -> list[str]:
    """Markdown paragraphs for ``value`` at nesting ``depth`` (0 = the document)."""
    if isinstance(value, Mapping):
        return _render_object(value, depth=depth)
    if isinstance(value, list):
        return [_render_array(value, depth=depth)]
    return [_scalar(value)]


def _render_object(value: Mapping[str, JsonValue], *, depth: int) -> list[str]:
    parts: list[str] = []
    scalars = [f"- **{key}**: {_scalar(item)}" for key, item in value.items() if _is_scalar(item)]
    if scalars:
        parts.append("\n".join(scalars))
    for key, item in value.items():
        if _is_scalar(item):
            continue
        if depth >= _MAX_HEADING_DEPTH:
            parts.append(f"**{key}**:\n\n{_fenced(item)}")
            continue
        parts.append(f"{'#' * (depth + 2)} {key}")
        parts.extend(_render(item, depth=depth + 1))
    return parts


def _render_array(items: list[JsonValue], *, depth: int) -> str:
    if all(_is_scalar(item) for item in items):
        return "\n".join(f"- {_scalar(item)}" for item in items)
    records = [item for item in items if isinstance(item, Mapping)]
    flat = all(_is_scalar(field) for record in records for field in record.values())
    if len(records) == len(items) and flat:
        return _records_table(records)
    if depth >= _MAX_HEADING_DEPTH:
        return _fenced(items)
    rendered = ("\n\n".join(_render(item, depth=depth + 1)) for item in items)
    return "\n\n---\n\n".join(rendered)


def _records_table(records: Sequence[Mapping[str, JsonValue]]) -> str:
    columns: list[str] = []
    for record in records:
        columns.extend(key for key in record if key not in columns)
    rows = [[_cell(_scalar(record.get(key, ""))) for key in columns] for record in records]
    return gfm_table([_cell(column) for column in columns], rows)


def _is_scalar(value: JsonValue) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _scalar(value: JsonValue) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _fenced(value: JsonValue) -> str:
    return f"```json\n{json.dumps(value, ensure_ascii=False, indent=2)}\n```"


def _json_title(value: JsonValue, filename: str | None) -> str:
    if isinstance(value, Mapping):
        for key in _TITLE_KEYS:
            if isinstance(value.get(key), str) and value[key].strip():
                return collapse(value[key])[:200]
    return PurePosixPath(filename).stem if filename else ""


def extract_csv(data: bytes, *, filename: str | None = None) -> Extracted:
    """One GFM table, first row as header; the dialect (delimiter, quoting) is sniffed."""
    text = decode_text(data)
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(
            text[:_CSV_SAMPLE], delimiters=",;\t|"
        )
    except csv.Error:
        dialect = csv.excel
    try:
        rows = _read_rows(text, dialect)
    except csv.Error:
        raise ExtractionFailed("the CSV could not be parsed") from None
    title = PurePosixPath(filename).stem if filename else ""
    if not rows:
        return Extracted(CSV, title, ())
    header, *body = rows
    markdown = normalise_markdown(gfm_table(header, body))
    return Extracted(CSV, title, (Block(cap_markdown(markdown)),))


def _read_rows(text: str, dialect: type[csv.Dialect] | csv.Dialect) -> list[list[str]]:
    rows: list[list[str]] = []
    size = 0
    for row in csv.reader(io.StringIO(text), dialect):
        cells = [_cell(cell) for cell in row]
        if not any(cells):
            continue
        rows.append(cells)
        size += sum(len(cell) + 3 for cell in cells)
        if size > MAX_MARKDOWN_CHARS:
            break
    return rows


def _cell(text: str) -> str:
    return collapse(text).replace("|", "\\|")


def gfm_table(header: list[str], rows: list[list[str]]) -> str:
    width = max([len(header), *(len(row) for row in rows)])
    header = header + [""] * (width - len(header))
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * width]
    lines.extend("| " + " | ".join(row + [""] * (width - len(row))) + " |" for row in rows)
    return "\n".join(lines)
