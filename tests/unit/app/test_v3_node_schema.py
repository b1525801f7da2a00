"""The HTTP schema of one V3 node: the optional `ctx` (containers) and `t` (visible text)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from app.schemas.interact import InteractRequest, SemanticNodeV3


def test_ctx_and_t_are_accepted_and_passed_on() -> None:
    body = {
        "url": "https://app.example.com/people",
        "query": "Edit Bob Smith",
        "interactiveTree": [
            {"i": 5, "r": "btn", "n": "Save", "t": "Delete", "ctx": ["row: Bob Smith · bob@x.org", "section: People"]},
            {"i": "6", "r": "btn", "n": "Edit"},
        ],
    }
    request = InteractRequest.model_validate(body)
    assert request.interactive_tree is not None
    first, second = (vars(node) for node in request.interactive_tree)
    assert first["ctx"] == ["row: Bob Smith · bob@x.org", "section: People"] and first["t"] == "Delete"
    assert second["ctx"] is None and second["t"] is None


@pytest.mark.parametrize(
    ("node", "where"),
    [
        ({"ctx": "row: Bob"}, ("ctx",)),
        ({"ctx": ["row: Bob", 3]}, ("ctx", 1)),
        ({"ctx": ["a", "b", "c", "d"]}, ("ctx",)),
        ({"ctx": ["x" * 201]}, ("ctx", 0)),
        ({"t": ["Delete"]}, ("t",)),
    ],
)
def test_malformed_ctx_and_t_are_rejected_at_their_path(node: dict[str, Any], where: tuple[Any, ...]) -> None:
    with pytest.raises(ValidationError) as info:
        SemanticNodeV3.model_validate({"i": "1", **node})
    assert info.value.errors()[0]["loc"] == where


def test_the_schema_documents_both_keys() -> None:
    fields = SemanticNodeV3.model_fields
    assert fields["ctx"].description and "nearest first" in fields["ctx"].description
    assert fields["t"].description
