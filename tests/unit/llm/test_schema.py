from __future__ import annotations

import json
from enum import StrEnum
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field

from agent.llm import SchemaNotSupported, gemini_response_schema


class Kind(StrEnum):
    CLICK = "click"
    TYPE = "type"


class Target(BaseModel):
    model_config = ConfigDict(extra="forbid")
    element_id: str = Field(description="The element's id.")
    confidence: float = Field(default=0.5, ge=0, le=1, description="How sure.")


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Kind = Field(description="What to do.")
    verdict: Literal["pass", "fail"] = Field(description="The verdict.")
    fixed: Literal["always"] = Field(description="A constant.")
    target: Target | None = Field(default=None, description="Where to act.")
    alternatives: list[Target] = Field(default_factory=list, description="Other targets.")
    notes: dict[str, str] = Field(default_factory=dict, description="Free notes.")


class Node(BaseModel):
    children: list[Node] = Field(default_factory=list, description="Children.")


def _keys(node: object) -> set[str]:
    if isinstance(node, dict):
        found = set(node)
        for key, value in node.items():
            if key == "properties":
                for sub in value.values():
                    found |= _keys(sub)
            else:
                found |= _keys(value)
        return found
    if isinstance(node, list):
        return set().union(*(_keys(item) for item in node)) if node else set()
    return set()


def test_refs_are_inlined_and_unsupported_keys_dropped() -> None:
    schema = gemini_response_schema(Answer)
    keys = _keys(schema)
    assert not keys & {"$ref", "$defs", "title", "default", "const", "oneOf"}
    assert schema["type"] == "object"
    assert set(schema["required"]) == {"kind", "verdict", "fixed"}
    assert "additionalProperties" not in schema  # extra="forbid" is enforced by pydantic
    props = schema["properties"]
    assert props["kind"]["enum"] == ["click", "type"]
    assert props["kind"]["description"] == "What to do."
    assert props["fixed"]["enum"] == ["always"]
    assert props["verdict"]["enum"] == ["pass", "fail"]
    target = props["target"]["anyOf"][0]
    assert target["properties"]["element_id"]["description"] == "The element's id."
    assert target["properties"]["confidence"]["maximum"] == 1
    assert props["alternatives"]["items"]["properties"]["element_id"]["type"] == "string"
    assert props["notes"]["additionalProperties"] == {"type": "string"}
    json.dumps(schema)


def test_field_names_that_look_like_keywords_survive() -> None:
    class Tricky(BaseModel):
        title: str = Field(description="A title field.")
        default: int = Field(description="A default field.")

    schema = gemini_response_schema(Tricky)
    assert set(schema["properties"]) == {"title", "default"}


def test_result_is_a_fresh_copy() -> None:
    first = gemini_response_schema(Answer)
    first["properties"].clear()
    assert gemini_response_schema(Answer)["properties"]


def test_recursive_models_are_refused() -> None:
    with pytest.raises(SchemaNotSupported):
        gemini_response_schema(Node)
