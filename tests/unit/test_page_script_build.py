"""One page script for the extension and the Python client: the built extension/dist/page_script.js
(what client/snapshot.py loads) is exactly the fragments of client/page_script/ joined in
parts.json order inside one function — a fragment edited without a rebuild fails here."""

from __future__ import annotations

import json
from pathlib import Path

from client.snapshot import PAGE_SCRIPT, PAGE_SCRIPT_FILE, join_fragments

FRAGMENTS = Path(__file__).resolve().parents[2] / "client" / "page_script"


def _joined() -> str:
    parts = json.loads((FRAGMENTS / "parts.json").read_text(encoding="utf-8"))
    body = "\n".join((FRAGMENTS / name).read_text(encoding="utf-8") for name in parts)
    return f"(() => {{\n{body}}})();\n"


def test_the_python_join_is_the_wrapper_of_the_build() -> None:
    assert join_fragments(FRAGMENTS) == _joined()


def test_parts_json_names_every_fragment_once() -> None:
    parts = json.loads((FRAGMENTS / "parts.json").read_text(encoding="utf-8"))
    assert sorted(parts) == sorted(p.name for p in FRAGMENTS.glob("*.js"))
    assert len(parts) == len(set(parts))
    assert parts[0] == "constants.js" and parts[-1] == "install.js"  # VERSION guard first, the API last


def test_built_page_script_is_the_fragments_joined() -> None:
    assert PAGE_SCRIPT_FILE.is_file(), "extension/dist/page_script.js is missing: run `make extension`"
    built = PAGE_SCRIPT_FILE.read_text(encoding="utf-8")
    assert built == _joined(), "extension/dist/page_script.js is stale (a fragment changed): run `make extension`"


def test_the_python_client_loads_the_built_script() -> None:
    assert PAGE_SCRIPT == PAGE_SCRIPT_FILE.read_text(encoding="utf-8")
    assert PAGE_SCRIPT.startswith("(() => {\n") and PAGE_SCRIPT.endswith("})();\n")
