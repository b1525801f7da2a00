"""Bodies of the session, task and recovery endpoints."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from app.schemas.common import ApiModel
from app.schemas.interact import ContractOut
from storage import Task


class ActiveTaskOut(ApiModel):
    task_id: str
    query: str
    status: str
    current_step_index: int
    url: str
    created_at: datetime
    updated_at: datetime


class StepOut(ApiModel):
    step_index: int
    thought: str
    action: str
    decided_by: str
    expected_outcome: dict[str, Any] | None = None
    verification: dict[str, Any] | None = Field(default=None, description="Verdict on this action, once verified")
    clauses: list[str] = Field(default_factory=list, description="Contract clauses this action was aimed at")
    created_at: datetime


class CorrectionOut(ApiModel):
    step_index: int
    attempt: int
    strategy: str
    reason: str
    original_action: str
    corrected_action: str | None
    created_at: datetime


class TaskCostOut(ApiModel):
    model_calls: int
    input_tokens: int
    output_tokens: int
    total_tokens: int
    cost_usd: float | None = Field(description="USD; null when a call's model has no known price")


class TaskDetailOut(ApiModel):
    task_id: str
    session_id: str
    query: str
    url: str
    status: str
    complexity: str | None
    step_index: int
    plan: dict[str, Any] | None
    contract: ContractOut | None = Field(default=None, description="The goal contract, each clause with its state and evidence")
    failure_code: str | None
    failure_reason: str | None
    created_at: datetime
    updated_at: datetime
    steps: list[StepOut]
    corrections: list[CorrectionOut]
    cost: TaskCostOut


class SessionCreateIn(ApiModel):
    url: str | None = Field(default=None, max_length=8192)
    title: str | None = Field(default=None, max_length=500)


class SessionOut(ApiModel):
    session_id: str
    status: str
    url: str | None
    title: str | None
    created_at: datetime
    updated_at: datetime


class MessageOut(ApiModel):
    id: str
    role: str
    content: str
    task_id: str | None
    action: str | None
    action_status: str | None
    action_error: str | None
    created_at: datetime


class MessagesOut(ApiModel):
    session_id: str
    messages: list[MessageOut]


class TaskSummaryOut(ApiModel):
    task_id: str
    query: str
    status: str
    step_index: int
    updated_at: datetime
    session_id: str | None = None
    url: str | None = None
    failure_code: str | None = None
    created_at: datetime | None = None

    @classmethod
    def of(cls, task: Task) -> TaskSummaryOut:
        return cls(
            task_id=task.id,
            session_id=task.session_id,
            query=task.query,
            url=task.url,
            status=task.status,
            failure_code=task.failure_code,
            step_index=task.step_index,
            created_at=task.created_at,
            updated_at=task.updated_at,
        )


class TaskListOut(ApiModel):
    tasks: list[TaskSummaryOut] = Field(description="Newest first")
    next_before: datetime | None = Field(
        default=None, description="Pass as `before` for the next page; null on the last page"
    )


class SessionTasksOut(ApiModel):
    session_id: str
    tasks: list[TaskSummaryOut]
