"""A small JSON-schema validator for the subset Gemini's ``responseJsonSchema`` uses
(``agent.llm.schema``), so tests can check an instance against the schema itself and not
only against the pydantic model (whose cross-field validators the schema cannot express)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "null": (type(None),),
}


def _has_type(value: Any, name: str) -> bool:
    name = name.lower()
    if name in ("number", "integer") and isinstance(value, bool):
        return False
    if name == "integer" and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, _TYPES[name])


def schema_errors(value: Any, schema: Mapping[str, Any], path: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema``; empty when it is valid."""
    if value is None and schema.get("nullable") is True:
        return []
    errors: list[str] = []
    if "anyOf" in schema:
        if all(schema_errors(value, branch, path) for branch in schema["anyOf"]):
            errors.append(f"{path}: matches no anyOf branch")
    kind = schema.get("type")
    if kind is not None:
        kinds = kind if isinstance(kind, list) else [kind]
        if not any(_has_type(value, k) for k in kinds):
            return [*errors, f"{path}: {value!r} is not of type {kind}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not in {schema['enum']}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            errors.append(f"{path}: shorter than minLength")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            errors.append(f"{path}: longer than maxLength")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{path}: {value} < minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{path}: {value} > maximum {schema['maximum']}")
    if isinstance(value, list):
        errors += _array_errors(value, schema, path)
    if isinstance(value, dict):
        errors += _object_errors(value, schema, path)
    return errors


def _array_errors(value: list[Any], schema: Mapping[str, Any], path: str) -> list[str]:
    errors: list[str] = []
    if len(value) < schema.get("minItems", 0):
        errors.append(f"{path}: fewer than minItems")
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        errors.append(f"{path}: more than maxItems")
    prefix = schema.get("prefixItems", [])
    for index, item in enumerate(value):
        sub = prefix[index] if index < len(prefix) else schema.get("items")
        if sub is not None:
            errors += schema_errors(item, sub, f"{path}[{index}]")
    return errors


def _object_errors(value: dict[str, Any], schema: Mapping[str, Any], path: str) -> list[str]:
    errors = [f"{path}: missing {key!r}" for key in schema.get("required", []) if key not in value]
    properties = schema.get("properties", {})
    extra = schema.get("additionalProperties")
    for key, item in value.items():
        if key in properties:
            errors += schema_errors(item, properties[key], f"{path}.{key}")
        elif extra is False:
            errors.append(f"{path}: unexpected {key!r}")
        elif isinstance(extra, Mapping):
            errors += schema_errors(item, extra, f"{path}.{key}")
    return errors
