"""Bodies of the session, task and recovery endpoints."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from app.schemas.common import ApiModel
from app.schemas.interact_answer import ContingencyOut, ContractOut, MemoryOut
from storage import Task


_STATUS = "active, completed, failed, needs_confirmation or interrupted"
_TIME = "ISO 8601, UTC"


class ActiveTaskOut(ApiModel):
    task_id: str = Field(description="Send it as `taskId` to continue the task")
    query: str = Field(description="The goal the task was started with")
    status: str = Field(description="active (a recovered task is always active)")
    current_step_index: int = Field(ge=0, description="Steps answered so far; echo the newest step's index as `stepIndex`")
    url: str = Field(description="The page of the task's newest step")
    created_at: datetime = Field(description=_TIME)
    updated_at: datetime = Field(description=f"Last step, {_TIME}")


class StepOut(ApiModel):
    step_index: int = Field(ge=0, description="From 0")
    thought: str = Field(description="Why this action, in words")
    action: str = Field(description="The action answered, in the action grammar (see InteractResponse.action)")
    decided_by: str = Field(description="policy or model")
    expected_outcome: dict[str, Any] | None = Field(default=None, description="What the page should have shown after it")
    verification: dict[str, Any] | None = Field(default=None, description="Verdict on this action, once verified")
    clauses: list[str] = Field(default_factory=list, description="Contract clauses this action was aimed at")
    actions: list[str] | None = Field(default=None, description="When the step answered a chain: its actions, the first being `action`")
    memory: MemoryOut | None = Field(default=None, description="Whether the step came from memory (a recipe's step, skills that steered it)")
    model_calls: int = Field(default=0, ge=0, description="Model calls the request that decided this step made (counted at the gateway)")
    contingency: ContingencyOut | None = Field(default=None, description="The plan contingency this step fired (an overlay dismissed…); null when none")
    created_at: datetime = Field(description=_TIME)


class CorrectionOut(ApiModel):
    """A proposed action that was refused and replaced before it was answered."""

    step_index: int = Field(ge=0, description="The step it happened in")
    attempt: int = Field(ge=0, description="Which try within the step")
    strategy: str = Field(description="How it was corrected, e.g. ALTERNATIVE_SELECTOR")
    reason: str = Field(description="Why the original action was refused")
    original_action: str = Field(description="The refused action, in the action grammar")
    corrected_action: str | None = Field(description="What replaced it; null when nothing could")
    created_at: datetime = Field(description=_TIME)


class ChainStatsOut(ApiModel):
    """The task's chains of actions (one answer, several actions) and how they went."""

    sent: int = Field(ge=0, description="Answers that sent a chain")
    actions_sent: int = Field(ge=0, description="Actions in those chains")
    complete: int = Field(ge=0, description="Chains that ran through, every action holding on the page")
    partial: int = Field(ge=0, description="Chains that stopped after their first action (recovered by rule)")
    failed: int = Field(ge=0, description="Chains whose first action did not hold")
    actions_executed: int = Field(ge=0, description="Chained actions the client executed")
    round_trips_saved: int = Field(ge=0, description="Requests the chains spared: each chain's executed actions but one")


class TaskCostOut(ApiModel):
    model_calls: int = Field(ge=0, description="Model calls of the whole task")
    input_tokens: int = Field(ge=0, description="Prompt tokens")
    output_tokens: int = Field(ge=0, description="Completion tokens")
    total_tokens: int = Field(ge=0, description="All tokens, thinking and cached included")
    image_tokens: int = Field(default=0, ge=0, description="Of `inputTokens`, those the model counted for images (screenshots)")
    cost_usd: float | None = Field(description="USD; null when a call's model has no known price")


class TaskDetailOut(ApiModel):
    task_id: str = Field(description="The task")
    session_id: str = Field(description="Its session")
    query: str = Field(description="The goal")
    url: str = Field(description="The page of the newest step")
    status: str = Field(description=_STATUS)
    complexity: str | None = Field(description="SIMPLE or COMPLEX, once judged")
    step_index: int = Field(ge=0, description="Steps answered so far")
    plan: dict[str, Any] | None = Field(description="The plan (steps and the current one), camelCase keys; null without one")
    contract: ContractOut | None = Field(default=None, description="The goal contract, each clause with its state and evidence")
    failure_code: str | None = Field(description="Why it failed or needs confirmation (GOAL_NOT_UNDERSTOOD, NEEDS_MODEL, CANCELLED …)")
    failure_reason: str | None = Field(description="The same, in words")
    created_at: datetime = Field(description=_TIME)
    updated_at: datetime = Field(description=_TIME)
    steps: list[StepOut] = Field(description="Every step, in order")
    corrections: list[CorrectionOut] = Field(description="Actions refused and replaced, in order")
    cost: TaskCostOut = Field(description="Model use of the whole task")
    chains: ChainStatsOut | None = Field(default=None, description="The task's chains of actions")
    contingencies: list[ContingencyOut] = Field(
        default_factory=list, description="Plan contingencies fired in the task (overlays, cookie banners… handled before correction), in order"
    )


class SessionCreateIn(ApiModel):
    url: str | None = Field(default=None, max_length=8192, description="The tab's URL when the session starts")
    title: str | None = Field(default=None, max_length=500, description="A name for the session")


class SessionOut(ApiModel):
    session_id: str = Field(description="Send it as `sessionId` with interact requests")
    status: str = Field(description="active, completed or failed")
    url: str | None = Field(description="The newest page of the session")
    title: str | None = Field(description="The session's name")
    created_at: datetime = Field(description=_TIME)
    updated_at: datetime = Field(description=_TIME)


class MessageOut(ApiModel):
    id: str = Field(description="Message id")
    role: str = Field(description="user (a goal), assistant (an answer) or system")
    content: str = Field(description="The goal, or the answer's thought")
    task_id: str | None = Field(description="The task it belongs to; null for a question asked before any task")
    action: str | None = Field(description="The action an assistant message announced, in the action grammar")
    action_status: str | None = Field(description="pending until the next request verified the action, then success or failure")
    action_error: str | None = Field(description="Why the action failed, when it did")
    created_at: datetime = Field(description=_TIME)


class MessagesOut(ApiModel):
    session_id: str = Field(description="The session")
    messages: list[MessageOut] = Field(description="Oldest first")


class TaskSummaryOut(ApiModel):
    task_id: str = Field(description="The task")
    query: str = Field(description="The goal")
    status: str = Field(description=_STATUS)
    step_index: int = Field(ge=0, description="Steps answered so far")
    updated_at: datetime = Field(description=_TIME)
    session_id: str | None = Field(default=None, description="Its session")
    url: str | None = Field(default=None, description="The page of the newest step")
    failure_code: str | None = Field(default=None, description="Why it failed (CANCELLED after a cancel)")
    created_at: datetime | None = Field(default=None, description=_TIME)

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
    next_cursor: str | None = Field(
        default=None,
        description="Pass as `cursor` for the next page; null on the last page. Pages never skip or repeat "
        "a task, even tasks created in the same instant",
    )


class SessionTasksOut(ApiModel):
    session_id: str = Field(description="The session")
    tasks: list[TaskSummaryOut] = Field(description="Newest first")
