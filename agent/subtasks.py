"""Hierarchical plans in the graph: sub-tasks made at planning, checked on every page.

* **planning** — :func:`attach` gives a new plan its sub-tasks: the model's (already
  schema-validated and partition-checked by :func:`planning.subtasks_from_drafts`), else the
  deterministic cut of :func:`planning.decompose`; the first one starts on this page.
* **goal_check** — :func:`advance` reads the active sub-task's condition off this page: the
  task-contract clauses its steps make true hold, and its own checks hold. That is the
  ``sub_task_completed`` flag — from the page, never from a model's claim. A completed
  sub-task is latched with its evidence and the next one starts on this page (its checks'
  baselines are taken here). Its steps all done but the condition unmet: a bounded wait,
  then the task ends (``SUBTASK_NOT_MET``; ``needs_confirmation`` when the work was done and
  only its visible result is missing). More actions than its budget: ``SUBTASK_BUDGET_EXCEEDED``.
  The task's goal holds only when the contract holds *and* every sub-task completed.
* **action_generation** — :func:`worker_view`: the worker (the model's action step) sees its
  sub-task as the goal, only that sub-task's steps, only the actions taken since it started,
  and the outputs of earlier sub-tasks it names as inputs — not the whole history, so its
  prompt stays flat over a long task.
* **action_validation** — a chain never runs past the active sub-task's last step
  (:func:`within_active`): the next sub-task starts only once this one is seen done.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import structlog

from planning import Plan, SubTask, SubTaskDraft, decompose, merge_tiny, navigating_clauses, relink, subtasks_from_drafts
from agent.state import StepOutcome
from storage import TaskAction
from verification import Action, Contract, PageState, format_action
from verification.contract import evaluate, start

log = structlog.get_logger(__name__)

SUBTASK_WAITS: Final = 2  # checks after a sub-task's steps are done before it is given up


@dataclass(frozen=True)
class SubtaskCheck:
    """What :func:`advance` found on this page."""

    plan: Plan
    all_met: bool  # every sub-task completed (vacuously true for a flat plan)
    completed: tuple[int, ...] = ()  # sub-tasks this page completed (sub_task_completed)
    wait: bool = False  # the active sub-task's steps are done; its result may still show
    failed: SubTask | None = None  # ended the task
    unproven: bool = False  # the failed sub-task's work was done; only its visible result is missing
    over_budget: bool = False  # the failed sub-task took more actions than its budget


def active(plan: Plan | None) -> SubTask | None:
    if plan is None:
        return None
    return next((s for s in plan.subtasks if s.status in ("pending", "active")), None)


def all_met(plan: Plan | None) -> bool:
    return plan is None or all(s.status == "completed" for s in plan.subtasks)


def from_drafts(plan: Plan, drafts: Sequence[SubTaskDraft]) -> Plan:
    """The model planner's sub-tasks on its plan, when they partition its steps; otherwise
    none (:func:`attach` then cuts the plan itself) and why is logged."""
    if not drafts:
        return plan
    subtasks, problems = subtasks_from_drafts(drafts, plan)
    if problems:
        log.info("subtasks.model_problems", problems=problems[:5], kept=len(subtasks))
    return plan.model_copy(update={"subtasks": subtasks})


def attach(plan: Plan, contract: Contract, page: PageState, step: int) -> Plan:
    """``plan`` with its sub-tasks (see the module doc); a plan that is one part stays flat."""
    if not plan.steps:
        return plan
    subtasks = relink(list(plan.subtasks), plan) if plan.subtasks else decompose(plan, navigating_clauses(contract))
    subtasks = merge_tiny(subtasks, plan) if subtasks else []
    subtasks = [s for s in subtasks if s.has_condition or len(subtasks) > 1]
    if len(subtasks) < 2:
        return plan.model_copy(update={"subtasks": []})
    first = _started(subtasks[0], page, step)
    plan = plan.model_copy(update={"subtasks": [first, *subtasks[1:]]})
    log.info("subtasks.planned", count=len(subtasks), source=plan.source, parts=[(s.first_step, s.last_step, len(s.clauses), len(s.checks.clauses)) for s in subtasks])
    return plan


def _started(subtask: SubTask, page: PageState, step: int) -> SubTask:
    checks = start(subtask.checks, page) if subtask.checks.clauses else subtask.checks
    return subtask.model_copy(update={"status": "active", "started_step": step, "checks": checks, "waits": 0})


def _steps_done(plan: Plan, subtask: SubTask) -> bool:
    return all(s.status in ("completed", "skipped") for s in plan.steps[subtask.first_step : subtask.last_step + 1])


def _condition(subtask: SubTask, contract: Contract) -> tuple[bool, list[str], bool]:
    """(holds, evidence or what is missing, every miss is only an unproven result)."""
    lines: list[str] = []
    missing: list[str] = []
    unproven = True
    for clause_id in subtask.clauses:
        result = contract.result(clause_id)
        clause = contract.clause(clause_id)
        what = clause.description if clause is not None else clause_id
        if result.status == "holds":
            lines.append(f"{what}: {result.evidence.observation if result.evidence else result.detail}")
        else:
            missing.append(f"{what} ({result.detail})" if result.detail else what)
            unproven = unproven and result.unproven
    for clause in subtask.checks.clauses:
        result = subtask.checks.result(clause.id)
        if result.status == "holds":
            lines.append(f"{clause.description}: {result.evidence.observation if result.evidence else result.detail}")
        else:
            missing.append(f"{clause.description} ({result.detail})" if result.detail else clause.description)
            unproven = False
    return not missing, (lines if not missing else missing), unproven and bool(missing)


def refit(plan: Plan, contract: Contract, page: PageState, step: int) -> Plan:
    """Re-planning changed the steps under the sub-tasks: the completed ones are kept (they
    were seen done), the steps after them are cut into sub-tasks again."""
    if not plan.subtasks or plan.subtasks[-1].last_step == len(plan.steps) - 1:
        return plan
    kept = [s for s in plan.subtasks if s.status == "completed" and s.last_step < len(plan.steps) - 1]
    start_at = kept[-1].last_step + 1 if kept else 0
    rest = plan.model_copy(update={"steps": plan.steps[start_at:], "subtasks": []})
    shifted = [
        s.model_copy(update={"first_step": s.first_step + start_at, "last_step": s.last_step + start_at})
        for s in decompose(_reindexed(rest), navigating_clauses(contract))
    ] or [SubTask(index=0, goal=plan.goal[:500], first_step=start_at, last_step=len(plan.steps) - 1, clauses=[c for st in plan.steps[start_at:] if (c := st.clause)])]
    subtasks = [*kept, *(s.model_copy(update={"index": len(kept) + i}) for i, s in enumerate(shifted))]
    log.info("subtasks.refit", kept=len(kept), new=len(shifted))
    subtasks[len(kept)] = _started(subtasks[len(kept)], page, step)
    return plan.model_copy(update={"subtasks": subtasks})


def _reindexed(plan: Plan) -> Plan:
    return plan.model_copy(update={"steps": [s.model_copy(update={"index": i}) for i, s in enumerate(plan.steps)]})


def advance(plan: Plan | None, contract: Contract, page: PageState, *, step: int, last: TaskAction | None) -> SubtaskCheck | None:
    """The active sub-task checked on this page (see the module doc); ``None`` for a flat plan."""
    if plan is None or not plan.subtasks:
        return None
    plan = refit(plan, contract, page, step)
    subtasks = list(plan.subtasks)
    completed: list[int] = []
    current = active(plan)
    if current is not None and current.status == "active" and last is not None and current.started_step is not None and last.step_index >= current.started_step:
        used = current.actions_used + max(1, len(last.actions or ()))
        subtasks[current.index] = current = current.model_copy(update={"actions_used": used})
    while current is not None:
        if current.status == "pending":
            current = _started(current, page, step)
        elif current.checks.clauses:
            current = current.model_copy(update={"checks": evaluate(current.checks, page, step=step)})
        holds, lines, unproven = _condition(current, contract)
        done = _steps_done(plan, current)
        if holds and done:
            current = current.model_copy(update={"status": "completed", "verified_step": step, "verified_url": page.url, "evidence": lines[:10]})
            subtasks[current.index] = current
            completed.append(current.index)
            log.info("subtasks.completed", subtask=current.index, actions=current.actions_used)
            current = subtasks[current.index + 1] if current.index + 1 < len(subtasks) else None
            continue
        if current.actions_used > current.budget:
            why = f"part {current.index + 1} ({current.goal!r}) took {current.actions_used} actions, more than its budget of {current.budget}"
            return _failed(plan, subtasks, current, why, completed, over_budget=True)
        if done:
            if current.waits >= SUBTASK_WAITS:
                why = f"part {current.index + 1} ({current.goal!r}) is not shown done on the page: " + "; ".join(lines[:6])
                return _failed(plan, subtasks, current, why, completed, unproven=unproven)
            subtasks[current.index] = current.model_copy(update={"waits": current.waits + 1, "evidence": lines[:10]})
            return SubtaskCheck(plan.model_copy(update={"subtasks": subtasks}), False, tuple(completed), wait=True)
        subtasks[current.index] = current.model_copy(update={"evidence": lines[:10]})
        break
    new = plan.model_copy(update={"subtasks": subtasks})
    return SubtaskCheck(new, all_met(new), tuple(completed))


def _failed(plan: Plan, subtasks: list[SubTask], current: SubTask, why: str, completed: list[int], *, unproven: bool = False, over_budget: bool = False) -> SubtaskCheck:
    failed = current.model_copy(update={"status": "failed", "failure": why[:500]})
    subtasks[current.index] = failed
    log.info("subtasks.failed", subtask=current.index, unproven=unproven)
    return SubtaskCheck(plan.model_copy(update={"subtasks": subtasks}), False, tuple(completed), failed=failed, unproven=unproven, over_budget=over_budget)


def within_active(plan: Plan | None, plan_step: int | None) -> bool:
    """May an action for ``plan_step`` be sent now? Not past the active sub-task's steps."""
    current = active(plan)
    return current is None or plan_step is None or plan_step <= current.last_step


# ---- the worker's context ------------------------------------------------------------------------------


@dataclass(frozen=True)
class WorkerView:
    """What the worker is shown for the next action: its goal, its steps, its history."""

    goal: str
    plan: Plan
    actions: list[TaskAction]
    inputs: list[str]


def worker_view(plan: Plan, previous: Sequence[TaskAction], goal: str) -> WorkerView:
    """The whole task for a flat plan; for a hierarchical one, the active sub-task only."""
    current = active(plan)
    if current is None:
        return WorkerView(goal, plan, list(previous), [])
    steps = plan.steps[current.first_step : current.last_step + 1]
    view = plan.model_copy(update={"steps": steps, "subtasks": []})
    since = current.started_step if current.started_step is not None else 0
    actions = [a for a in previous if a.step_index >= since]
    text = f"Part {current.index + 1} of {len(plan.subtasks)} of a larger task: {current.goal}"
    return WorkerView(text, view, actions, _inputs(plan, current))


def _inputs(plan: Plan, current: SubTask) -> list[str]:
    """The outputs of earlier sub-tasks this one names (by name; none named: the previous
    sub-task's), with where each was verified."""
    earlier = [s for s in plan.subtasks[: current.index] if s.status == "completed"]
    wanted = {name.split(":", 1)[0].strip().lower() for name in current.inputs}
    chosen = [s for s in earlier if any(o.split(":", 1)[0].strip().lower() in wanted for o in s.outputs)] if wanted else earlier[-1:]
    lines: list[str] = []
    for sub in chosen:
        outputs = [o for o in sub.outputs if not wanted or o.split(":", 1)[0].strip().lower() in wanted]
        for output in outputs or [sub.goal]:
            lines.append(f"{output} (part {sub.index + 1}, verified on {sub.verified_url or 'its page'})")
    return lines


def summary(plan: Plan | None) -> list[dict[str, Any]]:
    """The sub-tasks as the task detail shows them (also inside ``plan.subtasks``)."""
    if plan is None:
        return []
    return [
        {"index": s.index, "goal": s.goal, "status": s.status, "steps": [s.first_step, s.last_step], "actionsUsed": s.actions_used, "budget": s.budget, "evidence": s.evidence, "failure": s.failure}
        for s in plan.subtasks
    ]


def subtask_ending(check: SubtaskCheck) -> StepOutcome:
    """The task's end when a sub-task failed: never completed. Work done whose visible
    result is missing asks the user to confirm; anything else fails."""
    failed = check.failed
    assert failed is not None
    reason = failed.failure or f"part {failed.index + 1} is not done"
    if check.unproven:
        return StepOutcome(thought=f"The actions were done, but the page does not show the result: {reason}. Please confirm.", action="", decided_by="policy", status="needs_confirmation", failure_code="SUBTASK_NOT_MET", failure_reason=reason)
    code = "SUBTASK_BUDGET_EXCEEDED" if check.over_budget else "SUBTASK_NOT_MET"
    text = f"Stopping: {reason}."
    return StepOutcome(thought=text, action=format_action(Action(name="fail", value=text[:300])), decided_by="policy", status="failed", failure_code=code, failure_reason=text)
