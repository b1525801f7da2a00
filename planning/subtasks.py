"""Hierarchical plans: a multi-part goal as an ordered list of sub-tasks over the plan's steps.

A :class:`SubTask` owns a contiguous run of plan steps (``first_step`` … ``last_step``) and
has an input/output contract (``inputs``: the names of earlier outputs its worker needs;
``outputs``: what it hands on), a **success condition** — task-contract clauses its steps
make true (``clauses``) and clauses of its own (``checks``: "the search results list Ana
Silva", "the address is /records/…") that Stepwise checks on the page — a step budget, and a
status. The task's goal is the conjunction of its sub-tasks' conditions: the agent never
completes a task while a sub-task is unmet (``agent/subtasks.py``).

Sub-tasks come from the model planner (``SubTaskDraft``, schema-validated, then checked by
:func:`subtasks_from_drafts`) or, without one, from :func:`decompose`: the plan is cut after
each step that changes the page (open, navigate, submit, a search's Enter…), so each part is
the work done on one page. Over-split plans are merged (:func:`merge_tiny`): a part with no
condition of its own goes into its neighbour, and parts that only fill fields of the same
page become one. Pure: no model, no database, no agent imports.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from planning.model_planner import SubTaskDraft, clauses_from_drafts
from planning.plan import Plan, PlanStep, SubTask
from verification.contract import Clause, Contract

MAX_SUBTASKS: Final = 6
MIN_BUDGET: Final = 4
MAX_BUDGET: Final = 20
BUDGET_PER_STEP: Final = 3

# Steps that act on the page without leaving it: a run of only these verifies nothing new
# about where the work goes next, so it is never a sub-task of its own next to another one.
PAGE_LOCAL: Final = frozenset({"fill", "select", "check", "uncheck", "focus", "hover", "suggest", "wait"})
# Steps after which the page is (usually) another one: a sub-task ends there.
PAGE_CHANGING: Final = frozenset({"open", "navigate", "submit"})
# Own checks are read off the page the sub-task ends on; an event is the task contract's.
_CHECK_KINDS: Final = frozenset({"field_value", "choice", "control", "url", "shown", "presence", "message"})


def _page_local(steps: Sequence[PlanStep]) -> bool:
    return all(step.kind in PAGE_LOCAL for step in steps)


def _changes_page(step: PlanStep, navigating: frozenset[str]) -> bool:
    if step.kind in PAGE_CHANGING:
        return True
    if step.kind == "press":
        return (step.value or "").strip().lower() == "enter"
    return step.kind in ("click", "find") and step.clause in navigating


def budget_for(steps: int) -> int:
    return max(MIN_BUDGET, min(MAX_BUDGET, BUDGET_PER_STEP * steps))


def _linked(plan: Plan, first: int, last: int) -> list[str]:
    return list(dict.fromkeys(s.clause for s in plan.steps[first : last + 1] if s.clause))


def _describe(steps: Sequence[PlanStep]) -> str:
    return "; ".join(step.description for step in steps)[:500]


def navigating_clauses(contract: Contract) -> frozenset[str]:
    """Clicks that open something (a record's link, an item named only by its text) rather
    than set a control: the activated clauses whose target is a link or has no role."""
    return frozenset(
        c.id for c in contract.clauses if c.kind == "activated" and c.action == "click" and (c.target is None or c.target.role in (None, "link"))
    )


def decompose(plan: Plan, navigating: frozenset[str] = frozenset()) -> list[SubTask]:
    """Deterministic sub-tasks for a plan: cut after each step that changes the page (open,
    navigate, submit, Enter, a click of ``navigating``), then merge what is over-split.
    Fewer than two parts: no hierarchy (an empty list)."""
    parts: list[tuple[int, int]] = []
    start = 0
    for step in plan.steps:
        if _changes_page(step, navigating) and step.index < len(plan.steps) - 1:
            parts.append((start, step.index))
            start = step.index + 1
    if plan.steps:
        parts.append((start, len(plan.steps) - 1))
    subtasks = [
        SubTask(
            index=i,
            goal=_describe(plan.steps[first : last + 1]),
            first_step=first,
            last_step=last,
            clauses=_linked(plan, first, last),
            budget=budget_for(last - first + 1),
        )
        for i, (first, last) in enumerate(parts)
    ]
    merged = merge_tiny(subtasks, plan)
    return merged if len(merged) >= 2 else []


def _join(a: SubTask, b: SubTask, plan: Plan) -> SubTask:
    checks = a.checks.model_copy(update={"clauses": (*a.checks.clauses, *b.checks.clauses)})
    return SubTask(
        index=a.index,
        goal=f"{a.goal}; {b.goal}"[:500],
        first_step=a.first_step,
        last_step=b.last_step,
        inputs=list(dict.fromkeys([*a.inputs, *b.inputs])),
        outputs=list(dict.fromkeys([*a.outputs, *b.outputs])),
        clauses=list(dict.fromkeys([*a.clauses, *b.clauses, *_linked(plan, a.first_step, b.last_step)])),
        checks=checks,
        budget=budget_for(b.last_step - a.first_step + 1),
    )


def merge_tiny(subtasks: list[SubTask], plan: Plan) -> list[SubTask]:
    """Merge what is over-split: a part with no condition of its own joins its neighbour (the
    next one, or the previous when it is the last); neighbouring parts that only fill fields
    of one page become one; past ``MAX_SUBTASKS`` the two smallest neighbours are joined."""
    parts = list(subtasks)
    changed = True
    while changed and len(parts) > 1:
        changed = False
        for i, part in enumerate(parts):
            steps = plan.steps[part.first_step : part.last_step + 1]
            nxt = parts[i + 1] if i + 1 < len(parts) else None
            if not part.has_condition:
                if nxt is not None:
                    parts[i : i + 2] = [_join(part, nxt, plan)]
                else:
                    parts[i - 1 : i + 1] = [_join(parts[i - 1], part, plan)]
                changed = True
                break
            if nxt is not None and _page_local(steps) and _page_local(plan.steps[nxt.first_step : nxt.last_step + 1]):
                parts[i : i + 2] = [_join(part, nxt, plan)]
                changed = True
                break
    while len(parts) > MAX_SUBTASKS:
        sizes = [parts[i + 1].last_step - parts[i].first_step for i in range(len(parts) - 1)]
        i = sizes.index(min(sizes))
        parts[i : i + 2] = [_join(parts[i], parts[i + 1], plan)]
    return [part.model_copy(update={"index": i}) for i, part in enumerate(parts)]


def subtasks_from_drafts(drafts: Sequence[SubTaskDraft], plan: Plan) -> tuple[list[SubTask], list[str]]:
    """The model's sub-tasks, checked: they must cover the plan's steps in order, each step
    once; their own checks must be checkable page conditions. Returns the sub-tasks (after
    merging what is over-split) or, with problems, an empty list and why."""
    problems: list[str] = []
    expected = 0
    for number, draft in enumerate(drafts, start=1):
        if draft.first_step != expected or draft.last_step < draft.first_step:
            problems.append(f"sub-task {number} covers steps {draft.first_step}-{draft.last_step}; it must start at step {expected}")
        expected = draft.last_step + 1
    if drafts and expected != len(plan.steps):
        problems.append(f"the sub-tasks cover {expected} steps; the plan has {len(plan.steps)}")
    if problems or not drafts:
        return [], problems
    subtasks: list[SubTask] = []
    for number, draft in enumerate(drafts):
        clauses, dropped = clauses_from_drafts([d for d in draft.success if d.kind in _CHECK_KINDS])
        problems += [f"sub-task {number + 1}: {d}" for d in dropped]
        problems += [f"sub-task {number + 1}: an {d.kind} clause is the task contract's, not a page check" for d in draft.success if d.kind not in _CHECK_KINDS]
        own = tuple(c.model_copy(update={"id": f"s{number}{c.id}"}) for c in clauses)
        subtasks.append(
            SubTask(
                index=number,
                goal=" ".join(draft.goal.split())[:500] or f"part {number + 1}",
                first_step=draft.first_step,
                last_step=draft.last_step,
                inputs=[" ".join(i.split()) for i in draft.inputs if i.strip()],
                outputs=[" ".join(o.split()) for o in draft.outputs if o.strip()],
                clauses=_linked(plan, draft.first_step, draft.last_step),
                checks=Contract(clauses=own, source="model"),
                budget=budget_for(draft.last_step - draft.first_step + 1),
            )
        )
    return merge_tiny(subtasks, plan), problems


def relink(subtasks: list[SubTask], plan: Plan) -> list[SubTask]:
    """The task-contract clauses each sub-task's steps make true, after the plan's steps were
    linked to the contract (``agent.contracts.link_steps``)."""
    return [
        s.model_copy(update={"clauses": list(dict.fromkeys([*s.clauses, *_linked(plan, s.first_step, s.last_step)]))})
        for s in subtasks
    ]


def own_clause_problems(clause: Clause) -> list[str]:
    """Why a sub-task's own clause cannot be read off the page (empty when it can)."""
    problems = clause.problems()
    if clause.kind not in _CHECK_KINDS:
        problems.append(f"a {clause.kind} clause is not a page check")
    return problems
