from __future__ import annotations

from typing import Annotated, Any, Final

from pydantic import AfterValidator, BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

# Free-form JSON a client may send (scroll info, an error object) is stored, hashed and
# logged by code that walks it; a document nested deeper than any real one is refused at the
# edge with a 422 instead of exhausting the stack later (a 500).
MAX_FREE_JSON_DEPTH: Final = 16


class ApiModel(BaseModel):
    """camelCase on the wire (the extension's convention), snake_case in Python."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")


class StrictApiModel(ApiModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


def camelize(value: Any) -> Any:
    """Keys of a stored JSON document in the wire's camelCase (engine records are snake_case)."""
    if isinstance(value, dict):
        return {to_camel(k) if isinstance(k, str) else k: camelize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [camelize(v) for v in value]
    return value


def _depth_bounded(value: Any) -> Any:
    """``value`` unchanged, or ValueError when it nests deeper than MAX_FREE_JSON_DEPTH
    (walked without recursion, so the check itself cannot overflow)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > MAX_FREE_JSON_DEPTH:
            raise ValueError(f"nested deeper than {MAX_FREE_JSON_DEPTH} levels")
        stack.extend((child, depth + 1) for child in children)
    return value


FreeJson = Annotated[dict[str, Any], AfterValidator(_depth_bounded)]
