"""Persisted records. Every record carries ``tenant_id``; every query filters by it.

These are the shapes both backends store (SQLite rows / MongoDB documents). Fields that
belong to other packages (a verification result, a plan, a before-state) are stored as
plain JSON dicts so that ``storage`` depends on nothing above it.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

TaskStatus = Literal["active", "completed", "failed", "needs_confirmation", "interrupted"]
# needs_confirmation: the work was done but the page cannot prove the result; the user decides.
TERMINAL_TASK_STATUSES: frozenset[str] = frozenset({"completed", "failed", "needs_confirmation"})
SessionStatus = Literal["active", "completed", "failed"]
MessageRole = Literal["user", "assistant", "system"]


def new_id() -> str:
    return str(uuid.uuid4())


def utcnow() -> datetime:
    """Timezone-aware UTC now, truncated to milliseconds (what MongoDB keeps)."""
    now = datetime.now(UTC)
    return now.replace(microsecond=(now.microsecond // 1000) * 1000)


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, validate_assignment=False)


class ApiKey(Record):
    id: str = Field(default_factory=new_id)
    tenant_id: str
    user_id: str
    key_hash: str = Field(description="SHA-256 hex of the secret key; the key itself is never stored")
    prefix: str = Field(description="First characters of the key, safe to show")
    name: str = ""
    created_at: datetime = Field(default_factory=utcnow)
    revoked_at: datetime | None = None


class Session(Record):
    id: str = Field(default_factory=new_id)
    tenant_id: str
    user_id: str
    status: SessionStatus = "active"
    url: str | None = None
    title: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class Message(Record):
    id: str = Field(default_factory=new_id)
    tenant_id: str
    session_id: str
    task_id: str | None = None
    role: MessageRole
    content: str
    action: str | None = None
    action_status: Literal["success", "failure", "pending"] | None = None
    action_error: str | None = None
    created_at: datetime = Field(default_factory=utcnow)


class Task(Record):
    id: str = Field(default_factory=new_id)
    tenant_id: str
    user_id: str
    session_id: str
    url: str
    query: str
    status: TaskStatus = "active"
    version: int = Field(default=0, description="Optimistic-concurrency guard; bumped by every finalize")
    step_index: int = Field(default=0, description="Number of actions issued so far")
    complexity: Literal["SIMPLE", "COMPLEX"] | None = None
    plan: dict[str, Any] | None = None
    state: dict[str, Any] = Field(
        default_factory=dict,
        description="Agent working state carried between requests (counters, last chain, summaries)",
    )
    metrics: dict[str, Any] = Field(default_factory=dict)
    failure_code: str | None = None
    failure_reason: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class TaskAction(Record):
    id: str = Field(default_factory=new_id)
    tenant_id: str
    task_id: str
    step_index: int
    thought: str
    action: str
    actions: list[dict[str, Any]] | None = Field(default=None, description="Chain, when one was sent")
    decided_by: Literal["policy", "model"] = "policy"
    expected_outcome: dict[str, Any] | None = None
    before_state: dict[str, Any] | None = Field(
        default=None, description="url, dom_hash, skeleton, active_element at the time the action was issued"
    )
    verification: dict[str, Any] | None = Field(
        default=None, description="Verdict on this action, filled when the next request verified it"
    )
    metrics: dict[str, Any] = Field(default_factory=dict)
    answer: dict[str, Any] | None = Field(
        default=None,
        description="What the client was answered for this step (status, thought, action, verdict, contract): "
        "a re-sent request gets it back instead of a new step",
    )
    created_at: datetime = Field(default_factory=utcnow)


class CorrectionRecord(Record):
    id: str = Field(default_factory=new_id)
    tenant_id: str
    task_id: str
    step_index: int
    attempt: int
    strategy: str
    reason: str
    original_action: str
    corrected_action: str | None
    created_at: datetime = Field(default_factory=utcnow)


class VerificationRecordRow(Record):
    id: str = Field(default_factory=new_id)
    tenant_id: str
    task_id: str
    step_index: int = Field(description="Step index of the action that was verified")
    tier: int
    success: bool
    goal_achieved: bool | None
    confidence: float
    error_category: str | None = None
    record: dict[str, Any] = Field(default_factory=dict, description="Full verification record")
    created_at: datetime = Field(default_factory=utcnow)


class UsageLog(Record):
    """One model call. Immutable once written."""

    id: str = Field(default_factory=new_id)
    tenant_id: str
    user_id: str | None = None
    session_id: str | None = None
    message_id: str | None = None
    task_id: str | None = None
    action_type: str
    provider: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    thinking_tokens: int = 0
    total_tokens: int = 0
    image_tokens: int = Field(default=0, ge=0, description="Of input_tokens, those the model counted for images (screenshots)")
    cost_usd: float | None = None
    duration_ms: float = 0.0
    trace_id: str | None = None
    created_at: datetime = Field(default_factory=utcnow)


SkillStatus = Literal["candidate", "admitted"]
RecipeStatus = Literal["candidate", "promoted", "demoted"]
#: A skill or recipe keeps the ids of at most this many tasks whose verified success counted.
EVIDENCE_LIMIT = 20


class Skill(Record):
    """A learned correction: on ``domain``, for goals of the template ``goal``, the action
    that failed (``failed_state``) and the one that then verified (``successful_action``).
    ``id`` is a deterministic key from the caller, so learning the same lesson again counts
    one more verified success instead of storing a copy."""

    id: str = Field(default_factory=new_id)
    tenant_id: str
    domain: str
    goal: str = Field(description="The goal template, values as {v1}, {v2}")
    failed_state: dict[str, Any] = Field(default_factory=dict)
    successful_action: dict[str, Any] = Field(default_factory=dict)
    status: SkillStatus = "candidate"
    success_count: int = Field(default=0, description="Verified successes (learning + uses)")
    failure_count: int = Field(default=0, description="Uses that did not verify")
    evidence: list[str] = Field(
        default_factory=list, description=f"Task ids whose verified success counted (last {EVIDENCE_LIMIT})"
    )
    last_used: datetime = Field(default_factory=utcnow)
    created_at: datetime = Field(default_factory=utcnow)


class Recipe(Record):
    """A verified run of a goal template on a domain, replayable step by step: each step
    carries the page fingerprint it was taken on and the semantic target it acted on."""

    id: str = Field(default_factory=new_id)
    tenant_id: str
    domain: str
    template: str = Field(description="GoalTemplate.text")
    variables: list[str] = Field(default_factory=list)
    steps: list[dict[str, Any]] = Field(
        default_factory=list,
        description='Each {"fingerprint", "action", "target", "value": {"var"}|{"text"}|None}; steps on one page are chained when the chain rules allow',
    )
    status: RecipeStatus = "candidate"
    verified_runs: int = Field(default=0, description="Verified runs in distinct tasks (since its last demotion)")
    failed_runs: int = 0
    replays: int = Field(default=0, description="Episodes served from it")
    round_trips: int = Field(default=0, ge=0, description="Requests its first verified run took (what a replay is measured against)")
    tokens: int = Field(default=0, ge=0, description="Model tokens its first verified run spent")
    evidence: list[str] = Field(
        default_factory=list, description=f"Task ids of verified runs (last {EVIDENCE_LIMIT})"
    )
    last_used: datetime = Field(default_factory=utcnow)
    created_at: datetime = Field(default_factory=utcnow)


class MemorySettings(Record):
    """A tenant's memory switches; no record means both on."""

    tenant_id: str
    skills: bool = True
    replay: bool = True
    updated_at: datetime = Field(default_factory=utcnow)


class VisionSettings(Record):
    """A tenant's screenshot switch; no record means off: a page image may show what the
    element list leaves out (other tabs' data, personal details), so it reaches a model only
    after the tenant opted in (PUT /api/vision/settings)."""

    tenant_id: str
    screenshots: bool = False
    updated_at: datetime = Field(default_factory=utcnow)


IdempotencyState = Literal["in_flight", "completed"]


class IdempotencyRecord(Record):
    """One ``Idempotency-Key`` of one user: claimed while the request that brought it runs,
    then where its answer is (the step it decided, or the answer itself when no step holds
    it). Unique per (tenant_id, user_id, key); gone after ``expires_at``."""

    id: str = Field(default_factory=new_id)
    tenant_id: str
    user_id: str
    key: str = Field(description="The client's key, 1-255 printable characters")
    fingerprint: str = Field(description="SHA-256 hex of the method, path and canonical body that first used the key")
    state: IdempotencyState = "in_flight"
    token: str = Field(default_factory=new_id, description="Which request holds the claim (it alone may complete it)")
    locked_until: datetime = Field(description="An in-flight claim not completed by then was abandoned (a killed worker)")
    task_id: str | None = None
    step_index: int | None = Field(default=None, description="The step whose stored answer is the answer")
    status_code: int | None = None
    response: dict[str, Any] | None = Field(default=None, description="The answer, when no step holds it")
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime


class IdempotencyCompletion(BaseModel):
    """What completes a claim: written in the same transaction as the step it answers."""

    model_config = ConfigDict(extra="forbid")

    tenant_id: str
    user_id: str
    key: str
    token: str
    status_code: int = 200
    task_id: str | None = None
    step_index: int | None = None
    response: dict[str, Any] | None = None


class RateDecision(BaseModel):
    allowed: bool
    count: int
    limit: int
    retry_after_seconds: int


class UsageTotals(BaseModel):
    key: str
    calls: int
    input_tokens: int
    output_tokens: int
    total_tokens: int
    cost_usd: float | None
    image_tokens: int = 0  # of input_tokens, those counted for images (screenshots)


class FinalizeBatch(BaseModel):
    """Everything one interact request writes, persisted atomically.

    ``expected_version`` is the task version the request loaded. ``None`` means the task is
    new and must not exist yet. On success the stored task has ``version = expected + 1``
    (or 1 for a new task). If another request won the race, nothing is written and
    ``TaskConflict`` is raised.
    """

    model_config = ConfigDict(extra="forbid")

    task: Task
    expected_version: int | None
    session: Session | None = Field(default=None, description="Upserted (status/updated_at)")
    actions: list[TaskAction] = Field(default_factory=list)
    action_updates: list[tuple[str, dict[str, Any]]] = Field(
        default_factory=list, description="(action id, fields to set) — e.g. a verification verdict"
    )
    messages: list[Message] = Field(default_factory=list)
    message_outcome: tuple[str, Literal["success", "failure"], str | None] | None = Field(
        default=None,
        description="(message id, outcome, error): the verdict on the step a message announced, once verified",
    )
    verifications: list[VerificationRecordRow] = Field(default_factory=list)
    corrections: list[CorrectionRecord] = Field(default_factory=list)
    usage: list[UsageLog] = Field(default_factory=list)
    idempotency: IdempotencyCompletion | None = Field(
        default=None,
        description="The Idempotency-Key claim this step answers: completed with the step, or nothing is written "
        "(IdempotencyConflict when the claim is no longer this request's)",
    )
