"""The audit's extension: runs form tasks against a server, step by step, and re-sends a request
whose answer it did not receive (the way a real client retries after a dropped connection)."""

from __future__ import annotations

import itertools
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from bench.audit.form import FormPage, goal

_values = itertools.count()


@dataclass
class TaskRun:
    """One task as the client saw it: every answer it received, in order."""

    task_id: str | None = None
    session_id: str | None = None
    acknowledged: list[tuple[int, str]] = field(default_factory=list)  # (stepIndex, action) per answer received
    replayed: int = 0
    status: str = "active"
    page: FormPage = field(default_factory=FormPage)
    query: str = field(default_factory=lambda: goal(tuple(f"v{next(_values)}" for _ in range(5))))
    idempotency_key: str = field(default_factory=lambda: uuid.uuid4().hex)

    def next_body(self) -> dict[str, Any]:
        body = self.page.body()
        if self.task_id is None:
            return {**body, "query": self.query}
        return {**body, "taskId": self.task_id, "sessionId": self.session_id, "stepIndex": self.acknowledged[-1][0]}

    def take(self, answer: dict[str, Any]) -> None:
        self.task_id, self.session_id = answer["taskId"], answer["sessionId"]
        self.acknowledged.append((answer["stepIndex"], answer["action"]))
        self.replayed += bool(answer.get("replayed"))
        self.status = answer["status"]
        if self.status == "active":
            self.page.apply(answer.get("actionDetails"))


def post(client: httpx.Client, base: str, key: str, body: dict[str, Any], idempotency_key: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {key}"}
    if idempotency_key is not None:
        headers["Idempotency-Key"] = idempotency_key
    return client.post(f"{base}/api/agent/interact", json=body, headers=headers, timeout=30)


def step_until_answered(client: httpx.Client, base: str, key: str, run: TaskRun, give_up_s: float = 120.0) -> httpx.Response:
    """Send the task's next request and re-send the same body until some answer arrives."""
    body = run.next_body()
    deadline = time.monotonic() + give_up_s
    while True:
        try:
            return post(client, base, key, body, run.idempotency_key if run.task_id is None else None)
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def stored_steps(client: httpx.Client, base: str, key: str, task_id: str) -> list[tuple[int, str]]:
    detail = client.get(f"{base}/api/tasks/{task_id}", headers={"Authorization": f"Bearer {key}"}, timeout=30).json()
    return [(step["stepIndex"], step["action"]) for step in detail["steps"]]
