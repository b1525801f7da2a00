"""Small record builders for the storage contract suite."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from storage import (
    FinalizeBatch,
    Message,
    Session,
    Store,
    Task,
    TaskAction,
    UsageLog,
    VerificationRecordRow,
    new_id,
    utcnow,
)

TENANT_A = "tenant-a"
TENANT_B = "tenant-b"
USER = "user-1"


def ago(**delta: float) -> datetime:
    return utcnow() - timedelta(**delta)


def at(day: int, hour: int = 12, minute: int = 0, month: int = 3) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


def session(tenant_id: str = TENANT_A, **fields: Any) -> Session:
    return Session(tenant_id=tenant_id, user_id=USER, **fields)


def task(tenant_id: str = TENANT_A, session_id: str | None = None, **fields: Any) -> Task:
    fields.setdefault("url", "https://shop.example/cart")
    fields.setdefault("query", "buy the blue shoes")
    return Task(tenant_id=tenant_id, user_id=USER, session_id=session_id or new_id(), **fields)


def action(t: Task, step_index: int, **fields: Any) -> TaskAction:
    fields.setdefault("thought", f"step {step_index}")
    fields.setdefault("action", f"click({step_index + 10})")
    return TaskAction(tenant_id=t.tenant_id, task_id=t.id, step_index=step_index, **fields)


def message(t: Task, content: str, role: str = "assistant", **fields: Any) -> Message:
    return Message(
        tenant_id=t.tenant_id,
        session_id=t.session_id,
        task_id=t.id,
        role=role,
        content=content,
        **fields,
    )


def verification(t: Task, step_index: int, **fields: Any) -> VerificationRecordRow:
    fields.setdefault("tier", 1)
    fields.setdefault("success", True)
    fields.setdefault("goal_achieved", False)
    fields.setdefault("confidence", 0.9)
    return VerificationRecordRow(
        tenant_id=t.tenant_id, task_id=t.id, step_index=step_index, **fields
    )


def usage(tenant_id: str = TENANT_A, **fields: Any) -> UsageLog:
    fields.setdefault("action_type", "PLANNING")
    fields.setdefault("provider", "GOOGLE")
    fields.setdefault("model", "gemini-flash")
    return UsageLog(tenant_id=tenant_id, **fields)


async def start_task(store: Store, tenant_id: str = TENANT_A, **fields: Any) -> Task:
    """A stored task (version 1) with its session and a first action at step 0."""
    s = session(tenant_id)
    t = task(tenant_id, session_id=s.id, **fields)
    return await store.finalize(
        FinalizeBatch(
            task=t,
            expected_version=None,
            session=s,
            actions=[action(t, 0)],
            messages=[message(t, t.query, role="user"), message(t, "clicking", action="click(10)")],
        )
    )


def next_step(stored: Task, **changes: Any) -> FinalizeBatch:
    """A continuation batch: one new action at ``stored.step_index + 1``."""
    step = stored.step_index + 1
    t = stored.model_copy(update={"step_index": step, "updated_at": utcnow(), **changes})
    return FinalizeBatch(
        task=t,
        expected_version=stored.version,
        actions=[action(t, step)],
        messages=[message(t, f"step {step}")],
    )
