"""Task detail: status, plan, every step with its thought, action and verdict."""

from __future__ import annotations

from fastapi import APIRouter

import agent
from app.json_body import JsonRoute
from app.deps import Context, Deps, bind_path_ids
from app.errors import ERROR_RESPONSES
from app.schemas.common import camelize
from app.schemas.interact import ContractOut
from app.schemas.tasks import CorrectionOut, StepOut, TaskCostOut, TaskDetailOut

router = APIRouter(prefix="/api/tasks", tags=["tasks"], responses=ERROR_RESPONSES, route_class=JsonRoute)


@router.get("/{task_id}", response_model=TaskDetailOut, summary="A task and all its steps")
async def get_task(task_id: str, ctx: Context, deps: Deps) -> TaskDetailOut:
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
        plan=task.plan,
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
                created_at=a.created_at,
            )
            for a in detail.actions
        ],
        cost=TaskCostOut(
            model_calls=detail.cost.calls,
            input_tokens=detail.cost.input_tokens,
            output_tokens=detail.cost.output_tokens,
            total_tokens=detail.cost.tokens,
            cost_usd=detail.cost.cost_usd,
        ),
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
