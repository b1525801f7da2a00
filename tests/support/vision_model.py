"""A fake Gemini for the vision tests: answers each engine's call from the schema it asks
for; the action-generation answer is given by the test (or a lie)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.support.fake_gemini import FakeReply, RecordedRequest, http_error, ok

ACTION_KEYS = frozenset({"thought", "action", "element_id"})


def is_action_call(request: RecordedRequest) -> bool:
    props = set(request.generation_config.get("responseJsonSchema", {}).get("properties", {}))
    return ACTION_KEYS <= props


def responder(action: dict[str, Any] | Callable[[RecordedRequest], dict[str, Any] | str], *, image_tokens: int = 1290) -> Callable[[RecordedRequest], FakeReply]:
    """Action calls get ``action`` (with image tokens reported when the call carried an
    image); context analysis says PAGE, verification says it worked, the critic approves;
    anything else (planning, outcome prediction) is refused so its deterministic path runs."""

    def respond(request: RecordedRequest) -> FakeReply:
        props = set(request.generation_config.get("responseJsonSchema", {}).get("properties", {}))
        if ACTION_KEYS <= props:
            answer = action(request) if callable(action) else action
            images = image_tokens if request.inline_images else None
            return ok(answer, prompt_tokens=1500 if images else 300, image_tokens=images)
        if {"source", "required_sources"} <= props:
            return ok({"source": "PAGE", "required_sources": ["PAGE"], "missing_information": [], "search_query": None, "reason": "On the page."})
        if {"action_succeeded", "task_completed"} <= props:
            return ok({"action_succeeded": True, "task_completed": False, "confidence": 0.95, "reason": "It changed."})
        if "approved" in props:
            return ok({"approved": True, "concerns": [], "alternative_action": None, "confidence": 0.9})
        return http_error(400, error_message="fake gemini: not scripted for this call")

    return respond


def move(action: str, element_id: str | None, **extra: Any) -> dict[str, Any]:
    return {"thought": "The gear is the icon in the corner.", "action": action, "element_id": element_id,
            "confidence": 0.9, "chain": [], "step_done": True, "missing_info": [], **extra}  # fmt: skip
