"""What a run of the client produced: one record per server answer, and the run's result."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

RunStatus = Literal["completed", "failed", "needs_confirmation", "max_steps", "error", "stopped", "needs_user_input"]
StepEvent = Literal["decided", "executed", "verified"]


@dataclass
class StepRecord:
    """One answer of the server and what the client did with it.

    ``verification`` is the server's verdict on **this** step's action; it arrives with the
    next answer (the ``verified`` event). ``client_ms`` is everything the client spent on the
    step: capturing the page it sent, executing the action, the stability wait.
    """

    index: int
    thought: str
    action: str
    actions: list[str] = field(default_factory=list)
    task_status: str = "active"
    decided_by: str | None = None
    server_step_index: int | None = None
    action_status: Literal["success", "failure", "terminal", "not_run"] = "not_run"
    action_error: str | None = None
    observations: dict[str, Any] | None = None  # clientObservations as sent (nativeDialogs a list)
    stable: bool | None = None
    verification: dict[str, Any] | None = None
    server_ms: float | None = None
    round_trip_ms: float = 0.0
    capture_ms: float = 0.0
    execute_ms: float = 0.0
    settle_ms: float = 0.0
    usage: dict[str, Any] = field(default_factory=dict)
    recovered_task: bool = False
    memory: dict[str, Any] | None = None  # the answer's ``memory`` (replay HIT / MISS / FALLBACK …)

    @property
    def client_ms(self) -> float:
        return self.capture_ms + self.execute_ms + self.settle_ms

    @property
    def verdict(self) -> str | None:
        """``success`` / ``failure`` of the verdict on this step's action (None: not verified)."""
        if self.verification is None:
            return None
        return "success" if self.verification.get("success") else "failure"

    @property
    def tier(self) -> int | None:
        return None if self.verification is None else self.verification.get("tier")

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "thought": self.thought,
            "action": self.action,
            "actions": self.actions,
            "taskStatus": self.task_status,
            "decidedBy": self.decided_by,
            "serverStepIndex": self.server_step_index,
            "actionStatus": self.action_status,
            "actionError": self.action_error,
            "observations": self.observations,
            "stable": self.stable,
            "verification": self.verification,
            "serverMs": self.server_ms,
            "roundTripMs": round(self.round_trip_ms, 1),
            "clientMs": round(self.client_ms, 1),
            "usage": self.usage,
            "recoveredTask": self.recovered_task,
            "memory": self.memory,
        }


@dataclass
class RunResult:
    status: RunStatus
    steps: list[StepRecord] = field(default_factory=list)
    task_id: str | None = None
    session_id: str | None = None
    error: str | None = None
    error_code: str | None = None
    final_url: str | None = None
    recoveries: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    contract: dict[str, Any] | None = None  # the task's goal contract as the last answer showed it
    confirm: dict[str, Any] | None = None  # at needs_user_input: the confirmation asked (None: a value is asked)

    @property
    def ok(self) -> bool:
        return self.status == "completed"

    def add_usage(self, usage: dict[str, Any]) -> None:
        self.model_calls += int(usage.get("modelCalls") or 0)
        self.input_tokens += int(usage.get("inputTokens") or 0)
        self.output_tokens += int(usage.get("outputTokens") or 0)
        self.cost_usd += float(usage.get("costUsd") or 0.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "taskId": self.task_id,
            "sessionId": self.session_id,
            "error": self.error,
            "errorCode": self.error_code,
            "finalUrl": self.final_url,
            "recoveries": self.recoveries,
            "usage": {
                "modelCalls": self.model_calls,
                "inputTokens": self.input_tokens,
                "outputTokens": self.output_tokens,
                "costUsd": self.cost_usd,
            },
            "steps": [step.to_json() for step in self.steps],
            "contract": self.contract,
        }
