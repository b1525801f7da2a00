"""Turn a pydantic model's JSON schema into the subset Gemini's ``responseJsonSchema``
accepts: ``$ref``s inlined, ``const`` as a one-value ``enum``, ``oneOf`` as ``anyOf``,
and keys the API does not use (``title``, ``default``, ``examples``, boolean
``additionalProperties``…) dropped. The answer is still validated by the full pydantic
model afterwards, so nothing that is dropped here is lost."""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

_KEEP = frozenset(
    {
        "type",
        "description",
        "enum",
        "format",
        "properties",
        "required",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "anyOf",
        "nullable",
        "additionalProperties",
    }
)


class SchemaNotSupported(TypeError):
    """The model's schema cannot be expressed for Gemini (e.g. it is recursive)."""


def _resolve(ref: str, defs: dict[str, Any]) -> dict[str, Any]:
    prefix = "#/$defs/"
    if not ref.startswith(prefix) or ref[len(prefix) :] not in defs:
        raise SchemaNotSupported(f"unresolvable $ref {ref!r}")
    target: dict[str, Any] = defs[ref[len(prefix) :]]
    return target


def _clean(node: Any, defs: dict[str, Any], seen: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_clean(item, defs, seen) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        ref = node["$ref"]
        if ref in seen:
            raise SchemaNotSupported(f"recursive schema through {ref!r}")
        target = dict(_resolve(ref, defs))
        # Keys next to a $ref (pydantic puts a field's description there) win.
        target.update({k: v for k, v in node.items() if k != "$ref"})
        return _clean(target, defs, (*seen, ref))
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "const":
            out["enum"] = [value]
        elif key == "oneOf":
            out["anyOf"] = _clean(value, defs, seen)
        elif key == "properties":
            out[key] = {name: _clean(sub, defs, seen) for name, sub in value.items()}
        elif key == "additionalProperties":
            if isinstance(value, dict):  # dict[str, X]; a bare False is enforced by pydantic
                out[key] = _clean(value, defs, seen)
        elif key in _KEEP:
            out[key] = _clean(value, defs, seen)
    return out


@lru_cache(maxsize=256)
def _cached(output_type: type[BaseModel]) -> dict[str, Any]:
    raw = output_type.model_json_schema()
    defs = raw.get("$defs", {})
    cleaned: dict[str, Any] = _clean({k: v for k, v in raw.items() if k != "$defs"}, defs, ())
    return cleaned


def gemini_response_schema(output_type: type[BaseModel]) -> dict[str, Any]:
    """The cleaned JSON schema for ``output_type`` (computed once per type)."""
    return copy.deepcopy(_cached(output_type))
