"""``stepwise openapi``: the OpenAPI document as stable JSON (sorted keys, indented), on stdout
or into ``--out``, the same bytes twice and whatever the environment says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from app.main import create_app
from app.settings import Settings


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "openapi", *args],
        env={**os.environ, **(env or {})}, capture_output=True, text=True, timeout=120, check=False,
    )


def test_openapi_writes_a_stable_sorted_document(tmp_path: Path) -> None:
    out = tmp_path / "openapi.json"
    written = _cli("--out", str(out), env={"STEPWISE_MAX_STEPS": "7", "STEPWISE_EXTENSION_IDS": "gfhhbdigibclbkcedjipkjbpfcadmeam"})
    assert written.returncode == 0, written.stderr
    text = out.read_text(encoding="utf-8")
    printed = _cli()
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout == text  # the same bytes, whatever the environment
    document = json.loads(text)
    assert text == json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert document == json.loads(json.dumps(create_app(Settings(env="test", database_url="sqlite://")).openapi()))
    assert "/api/agent/interact" in document["paths"]


def test_every_reference_of_the_document_resolves() -> None:
    """A $ref to a schema the document does not define breaks every generator (openapi-typescript refuses it)."""
    document = create_app(Settings(env="test", database_url="sqlite://")).openapi()
    schemas = document["components"]["schemas"]
    refs: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                refs.append(ref)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document)
    dangling = [ref for ref in refs if ref.removeprefix("#/components/schemas/") not in schemas]
    assert refs and not dangling, dangling
