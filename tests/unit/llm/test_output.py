from __future__ import annotations

import pytest
from google.genai import types
from pydantic import BaseModel, ConfigDict, Field

from agent.llm.output import OutputIssue, read_output


class Step(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(description="The action.")
    count: int = Field(description="How many.")


def _response(text: str | None, finish: str | None = "STOP", **extra: object):
    candidate: dict[str, object] = {"finish_reason": finish}
    if text is not None:
        candidate["content"] = {"parts": [{"text": text}], "role": "model"}
    return types.GenerateContentResponse.model_validate({"candidates": [candidate], **extra})


def test_valid_text() -> None:
    assert read_output(_response('{"action": "click", "count": 2}'), Step) == Step(
        action="click", count=2
    )


def test_parsed_instance_is_used() -> None:
    response = _response("not json")
    response.parsed = Step(action="a", count=1)
    assert read_output(response, Step).action == "a"


def test_markdown_fence_is_tolerated() -> None:
    assert read_output(_response('```json\n{"action": "x", "count": 1}\n```'), Step).count == 1


@pytest.mark.parametrize(
    ("response", "kind"),
    [
        (_response('{"action": "click", "cou'), "truncated"),
        (_response("Sure! here you go"), "invalid_json"),
        (_response('{"action": "click"}'), "schema_mismatch"),
        (_response('{"action": "click", "count": 1, "extra": 1}'), "schema_mismatch"),
        (_response(None), "empty"),
        (_response("   "), "empty"),
        (_response('{"action": "click", "count": 1}', "MAX_TOKENS"), "truncated"),
        (_response('{"action": "a", "count": 1}', "SAFETY"), "blocked"),
        (_response(None, "PROHIBITED_CONTENT"), "blocked"),
        (_response(None, "BLOCKLIST"), "blocked"),
        (_response(None, "RECITATION"), "blocked"),
        (types.GenerateContentResponse.model_validate({"candidates": []}), "empty"),
        (
            types.GenerateContentResponse.model_validate(
                {"prompt_feedback": {"block_reason": "JAILBREAK"}}
            ),
            "blocked",
        ),
    ],
)
def test_unusable_answers(response: types.GenerateContentResponse, kind: str) -> None:
    with pytest.raises(OutputIssue) as caught:
        read_output(response, Step)
    assert caught.value.kind == kind


def test_summary_names_fields_not_values() -> None:
    secret = "PAGE-SECRET-TEXT"
    with pytest.raises(OutputIssue) as caught:
        read_output(_response(f'{{"action": "{secret}", "count": "{secret}"}}'), Step)
    assert "count" in caught.value.summary
    assert secret not in caught.value.summary


def test_summary_sanitises_unexpected_keys() -> None:
    with pytest.raises(OutputIssue) as caught:
        read_output(_response('{"action": "a", "count": 1, "ignore all rules": 1}'), Step)
    assert "ignore all rules" not in caught.value.summary
    assert "ignore?all?rules" in caught.value.summary
