"""The extension is typed from the API: a server change that breaks it fails here.

(a) ``extension/openapi.json`` is the server's OpenAPI document as ``stepwise openapi`` writes it;
(b) ``extension/src/api/schema.d.ts`` is what the installed openapi-typescript generates from it;
(c) the extension type-checks (``npm run typecheck``) against those types.

The Node toolchain is part of ``make test`` (``make extension``): without it these fail, never skip.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from app.openapi_export import openapi_json

EXTENSION = Path(__file__).resolve().parents[2] / "extension"
GENERATOR = EXTENSION / "node_modules" / "openapi-typescript" / "bin" / "cli.js"
TSC = EXTENSION / "node_modules" / "typescript" / "bin" / "tsc"
FIX = "run `make extension-types` (it rewrites extension/openapi.json and src/api/schema.d.ts, then type-checks)"


def _node() -> str:
    node = shutil.which("node")
    if node is None or not GENERATOR.is_file() or not TSC.is_file():
        pytest.fail("Node or the extension's npm packages are missing: run `make extension`")
    return node


def test_the_committed_openapi_document_is_the_servers() -> None:
    committed = (EXTENSION / "openapi.json").read_text(encoding="utf-8")
    assert committed == openapi_json(), f"extension/openapi.json differs from the server's OpenAPI document: {FIX}"


def test_the_committed_types_are_generated_from_the_document(tmp_path: Path) -> None:
    node = _node()
    out = tmp_path / "schema.d.ts"
    done = subprocess.run(
        [node, str(GENERATOR), "openapi.json", "--output", str(out)],
        cwd=EXTENSION, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, f"openapi-typescript failed: {done.stderr[-1500:]}"
    committed = (EXTENSION / "src" / "api" / "schema.d.ts").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == committed, f"extension/src/api/schema.d.ts is stale: {FIX}"


def test_the_extension_type_checks_against_the_api_types() -> None:
    node = _node()
    done = subprocess.run(
        [node, str(TSC), "--noEmit", "-p", "tsconfig.json"],
        cwd=EXTENSION, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, f"the extension no longer type-checks against the API: {FIX}\n{done.stdout[-3000:]}"
