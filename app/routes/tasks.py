"""Task detail: status, plan, every step with its thought, action and verdict."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

import agent
from app.json_body import JsonRoute
from app.deps import Context, Deps, bind_path_ids
from app.error_codes import AUTHENTICATED
from app.errors import error_responses
from app.schemas.common import camelize
from app.schemas.interact_answer import ContingencyOut, ContractOut, MemoryOut
from app.schemas.tasks import ChainStatsOut, CorrectionOut, StepOut, TaskCostOut, TaskDetailOut, TaskListOut, TaskSummaryOut
from storage import TaskStatus

router = APIRouter(prefix="/api/tasks", tags=["tasks"], route_class=JsonRoute)
TaskId = Annotated[str, Path(description="The task's id (`taskId` of an answer)")]


@router.get("", response_model=TaskListOut, responses=error_responses(*AUTHENTICATED, "VALIDATION_FAILED"), summary="The tenant's tasks, newest first, a page at a time")
async def list_tasks(
    ctx: Context,
    deps: Deps,
    status: Annotated[TaskStatus | None, Query(description="Only tasks in this status")] = None,
    session_id: Annotated[str | None, Query(alias="sessionId", max_length=64, description="Only this session's tasks")] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="Tasks per page")] = 20,
    cursor: Annotated[str | None, Query(max_length=64, description="`nextCursor` of the previous page")] = None,
) -> TaskListOut:
    tasks = await agent.list_tasks(ctx, deps, status=status, session_id=session_id, limit=limit + 1, after=cursor)
    page = tasks[:limit]
    return TaskListOut(tasks=[TaskSummaryOut.of(t) for t in page], next_cursor=page[-1].id if len(tasks) > limit else None)


@router.post(
    "/{task_id}/cancel",
    response_model=TaskSummaryOut,
    responses=error_responses(*AUTHENTICATED, "TASK_NOT_FOUND", "TASK_FINISHED", "TASK_CONFLICT"),
    summary="Stop a task: it fails with CANCELLED and takes no more steps",
    description="409 TASK_FINISHED when the task had already ended.",
)
async def cancel_task(task_id: TaskId, ctx: Context, deps: Deps) -> TaskSummaryOut:
    bind_path_ids(task_id=task_id)
    return TaskSummaryOut.of(await agent.cancel_task(task_id, ctx, deps))


@router.get("/{task_id}", response_model=TaskDetailOut, responses=error_responses(*AUTHENTICATED, "TASK_NOT_FOUND"), summary="A task and all its steps")
async def get_task(task_id: TaskId, ctx: Context, deps: Deps) -> TaskDetailOut:
    bind_path_ids(task_id=task_id)
    detail = await agent.task_detail(task_id, ctx, deps)
    task = detail.task
    return TaskDetailOut(
        task_id=task.id,
        session_id=task.session_id,
        query=task.query,
        url=task.url,
        status=task.status,
        complexity=task.complexity,
        step_index=task.step_index,
        plan=camelize(task.plan),
        contract=ContractOut.model_validate(detail.contract) if detail.contract is not None else None,
        failure_code=task.failure_code,
        failure_reason=task.failure_reason,
        created_at=task.created_at,
        updated_at=task.updated_at,
        steps=[
            StepOut(
                step_index=a.step_index,
                thought=a.thought,
                action=a.action,
                decided_by=a.decided_by,
                expected_outcome=camelize(a.expected_outcome),
                verification=camelize(a.verification),
                clauses=list(a.metrics.get("clause_hits") or []),
                actions=[str(item.get("action")) for item in a.actions] if a.actions else None,
                memory=MemoryOut.model_validate(a.metrics["memory"]) if a.metrics.get("memory") else None,
                model_calls=int(a.metrics.get("model_calls") or 0),
                contingency=ContingencyOut.model_validate(a.metrics["contingency"]) if a.metrics.get("contingency") else None,
                created_at=a.created_at,
            )
            for a in detail.actions
        ],
        cost=TaskCostOut(
            model_calls=detail.cost.calls,
            input_tokens=detail.cost.input_tokens,
            output_tokens=detail.cost.output_tokens,
            total_tokens=detail.cost.tokens,
            image_tokens=detail.cost.image_tokens,
            cost_usd=detail.cost.cost_usd,
        ),
        chains=ChainStatsOut.model_validate(detail.chains) if detail.chains is not None else None,
        contingencies=[ContingencyOut.model_validate(a.metrics["contingency"]) for a in detail.actions if a.metrics.get("contingency")],
        corrections=[
            CorrectionOut(
                step_index=c.step_index,
                attempt=c.attempt,
                strategy=c.strategy,
                reason=c.reason,
                original_action=c.original_action,
                corrected_action=c.corrected_action,
                created_at=c.created_at,
            )
            for c in detail.corrections
        ],
    )
