"""A scripted Stepwise API (httpx MockTransport) for driving the real loop in a real browser
through answers the server does not give yet (chains, needsFullDom, error codes)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from client import StepwiseClient

BASE = "http://stepwise.test"


def step(
    action: str,
    *,
    expect: tuple[str, str] | None = None,
    require: list[tuple[str, str]] | None = None,
    commit: bool = False,
    can_fail: bool = False,
    description: str = "",
) -> dict[str, Any]:
    """One chain item as the server sends it (``index`` is filled in by :func:`answer`):
    ``expect`` = (ARIA role, name) of the target, ``require`` = [(id, value)] that must still
    read back before it, ``commit`` on a last action that submits."""
    return {
        "action": action, "description": description, "canFail": can_fail,
        "expect": {"role": expect[0], "name": expect[1]} if expect else None,
        "requireValues": [{"target": target, "value": value} for target, value in require or []],
        "commit": commit,
    }


def answer(
    action: str = "finish()",
    *,
    actions: list[str | dict[str, Any]] | None = None,
    can_fail: tuple[int, ...] = (),
    status: str = "active",
    task_id: str = "task-1",
    session_id: str = "session-1",
    needs_full_dom: bool = False,
    verification: dict[str, Any] | None = None,
    thought: str = "scripted",
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "thought": thought, "action": action, "taskId": task_id, "sessionId": session_id, "status": status,
        "stepIndex": 0, "decidedBy": "policy", "verification": verification, "plan": None, "expectedOutcome": None,
        "usage": {"modelCalls": 1, "inputTokens": 10, "outputTokens": 2, "costUsd": 0.0},
        "metrics": {"serverMs": 1.5, "modelMs": 0.0, "steps": 1}, "needsUserInput": None,
        "needsFullDom": needs_full_dom, "hasOrgKnowledge": False,
    }
    if actions is not None:
        items = [step(a, can_fail=i in can_fail) if isinstance(a, str) else dict(a) for i, a in enumerate(actions)]
        for i, item in enumerate(items):
            item["index"] = i
            item["description"] = item.get("description") or f"step {i}"
        body["action"] = items[0]["action"]
        body["actions"] = items
        body["chainMetadata"] = {"totalActions": len(items), "safeToChain": True, "estimatedDuration": 300 * len(items)}
    return body


def error(status: int, code: str, message: str = "scripted error", headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, json={"error": {"code": code, "message": message, "details": {}}}, headers=headers)


@dataclass
class ScriptedAPI:
    """Answers interact requests in order; records every request body."""

    answers: list[dict[str, Any] | httpx.Response | Callable[[dict[str, Any]], Any]]
    active: dict[str, Any] | None = None  # what /task/active answers (None: 404)
    requests: list[dict[str, Any]] = field(default_factory=list)
    active_calls: list[str | None] = field(default_factory=list)

    def handler(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/agent/interact":
            body = json.loads(request.content)
            self.requests.append(body)
            if not self.answers:
                return error(500, "SCRIPT_EXHAUSTED", "no scripted answer left")
            scripted = self.answers.pop(0)
            if callable(scripted):
                scripted = scripted(body)
            return scripted if isinstance(scripted, httpx.Response) else httpx.Response(200, json=scripted)
        if request.url.path.endswith("/task/active"):
            self.active_calls.append(request.url.params.get("url"))
            return httpx.Response(200, json=self.active) if self.active else error(404, "TASK_NOT_FOUND")
        return error(404, "NOT_FOUND")

    def client(self) -> StepwiseClient:
        return StepwiseClient(BASE, "sw_test", transport=httpx.MockTransport(self.handler))
