"""The OpenAPI document as a stable file: what ``stepwise openapi`` writes and the extension's
types are generated from (``extension/openapi.json`` → ``extension/src/api/schema.d.ts``).

Stable means the same bytes for the same code: keys sorted, two-space indent, a final newline,
and the app built on fixed settings (a developer's environment does not leak into it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DEFAULT_OUT = Path("extension/openapi.json")


def openapi_document() -> dict[str, Any]:
    """``app.openapi()`` of an app built on the default settings (no environment, no store opened)."""
    from app.main import create_app
    from app.settings import Settings

    settings = Settings(_env_file=None, env="test", database_url="sqlite://")  # type: ignore[call-arg]
    document: dict[str, Any] = create_app(settings).openapi()
    return document


def openapi_json() -> str:
    """The document as stable text: sorted keys, indented, newline-terminated."""
    return json.dumps(openapi_document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_openapi(out: Path | None) -> str:
    """Write the document to ``out`` (None: return it only); returns the text."""
    text = openapi_json()
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    return text
