"""Every error code the code base can emit is in the registry the OpenAPI enum is built
from: the source is walked (AST), so a new ``code = "…"`` or ``error_response(…, "…")``
without a registry entry fails here."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from app.error_codes import ERROR_CODES
from app.errors import _HTTP_CODES, ErrorBody
from app.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("app", "agent", "storage", "verification", "planning", "cost", "observability")


def _modules() -> list[tuple[Path, ast.Module]]:
    return [(path, ast.parse(path.read_text(), str(path))) for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]


def _error_classes(modules: list[tuple[Path, ast.Module]]) -> set[str]:
    """StepwiseError and every class derived from it, by name, anywhere in the code base."""
    bases: dict[str, set[str]] = {}
    for _, tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases)
    found = {"StepwiseError"}
    while True:
        more = {name for name, parents in bases.items() if parents & found} - found
        if not more:
            return found
        found |= more


def _text(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def emitted_codes() -> dict[str, str]:
    """code -> where it is emitted."""
    return dict(_walk_once())


@functools.cache
def _walk_once() -> dict[str, str]:
    """The walk itself, made once per test run: parsing the whole code base takes seconds."""
    modules = _modules()
    errors = _error_classes(modules)
    codes: dict[str, str] = {}
    for path, tree in modules:
        where = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name in errors:  # class attribute: code = "X"
                for item in node.body:
                    target = item.targets[0] if isinstance(item, ast.Assign) else item.target if isinstance(item, ast.AnnAssign) else None
                    if isinstance(target, ast.Name) and target.id == "code" and (code := _text(item.value)):
                        codes[code] = where
            elif isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                if name in errors:  # SomeError(..., code="X")
                    for keyword in node.keywords:
                        if keyword.arg == "code" and (code := _text(keyword.value)):
                            codes[code] = where
                if name == "error_response" and len(node.args) >= 2 and (code := _text(node.args[1])):
                    codes[code] = where
            elif isinstance(node, ast.Dict):  # a body written by hand: {"error": {"code": "X", …}}
                for key, value in zip(node.keys, node.values, strict=True):
                    if _text(key) == "error" and isinstance(value, ast.Dict):
                        for inner_key, inner in zip(value.keys, value.values, strict=True):
                            if _text(inner_key) == "code" and (code := _text(inner)):
                                codes[code] = where
    for code in _HTTP_CODES.values():
        codes[code] = "app/errors.py (_HTTP_CODES)"
    codes["HTTP_ERROR"] = "app/errors.py (fallback)"
    return codes


def test_the_walk_finds_the_codes_it_is_meant_to_find() -> None:
    codes = emitted_codes()
    for known in ("TASK_NOT_FOUND", "INVALID_JSON", "STORE_UNAVAILABLE", "PAYLOAD_TOO_LARGE", "LIMIT_EXCEEDED", "IDEMPOTENCY_KEY_INVALID", "INTERNAL_ERROR"):
        assert known in codes, known
    assert "GOAL_NOT_UNDERSTOOD" not in codes  # a task's failureCode, not an error response


def test_every_emitted_code_is_registered() -> None:
    missing = {code: where for code, where in emitted_codes().items() if code not in ERROR_CODES}
    assert not missing, f"add these to app/error_codes.py: {missing}"


def test_every_registered_code_is_emitted_somewhere() -> None:
    assert set(ERROR_CODES) - set(emitted_codes()) == set()


def test_the_document_lists_every_code_as_the_enum_of_error_code() -> None:
    doc = create_app(Settings(env="test", database_url="sqlite://")).openapi()
    code = doc["components"]["schemas"]["ErrorBody"]["properties"]["code"]
    assert code["enum"] == list(ERROR_CODES) and code["type"] == "string"
    assert ErrorBody.model_fields["code"].description


def test_each_code_s_statuses_are_where_the_code_is_documented() -> None:
    doc = create_app(Settings(env="test", database_url="sqlite://")).openapi()
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                for name, example in response.get("content", {}).get("application/json", {}).get("examples", {}).items():
                    if not status.startswith("2"):
                        assert int(status) in ERROR_CODES[name].statuses, (method, path, status, name)
