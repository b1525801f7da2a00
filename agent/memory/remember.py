"""What one request teaches memory, written after its step is stored.

Run by finalize once the task's write succeeded (a request that lost the version race
teaches nothing, and a re-sent request is answered from its stored step without running
this). Only the verifier's word counts: a skill is learned from a corrected action the page
proved, a recipe from a task whose contract the page proved. Memory writes are best-effort
— a failure is logged and the answer is unaffected — and idempotent per task.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
import dataclasses
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

import structlog

from agent.memory.recipes import PROMOTE_AFTER, RECIPE_CAP, build_recipe, recorded, same_flow
from agent.memory.skills import ADMIT_AFTER, SKILL_CAP, lesson, weakest
from agent.memory.status import MemoryContext, RecallState
from observability import record_memory_saved, record_skill_use
from storage import Recipe, Store, Task, TaskAction
from verification import ActionSyntaxError, Contract, VerificationResult, parse_action

log = structlog.get_logger(__name__)

TTL: Final = timedelta(days=90)
SWEEP_EVERY_S: Final = 3600.0
_last_sweep: dict[int, float] = {}


@dataclass(frozen=True)
class Lesson:
    """Everything of one request that memory learns from (read from the graph state)."""

    task: Task  # as stored by this request
    before: Task  # as this request found it
    memory: MemoryContext
    last_action: TaskAction | None
    steps: list[TaskAction]  # every step before this request's, oldest first
    verification: VerificationResult | None
    step_succeeded: bool
    secrets: list[str]
    now: datetime
    values: list[str] = dataclasses.field(default_factory=list)  # the goal's values the contract names (for templates)
    held: list[str] = dataclasses.field(default_factory=list)  # of those, the values a field must hold (field_value, choice)


def goal_values(contract: Contract | None) -> tuple[list[str], list[str]]:
    """The values a goal chooses, read from its contract: each clause's value (what a field
    must hold, the option to choose, the message to see) and the name of each control the
    goal sets on or off ("Select GDKkQ": which box is the goal's data, so it is a template
    variable). The second list is those a field or control must *hold*: one no step set
    (it already held it) means the flow cannot be replayed for another value.

    The names of what the goal clicks stay literal: "Click Save" must not become a template
    that binds "Click Delete"."""
    if contract is None:
        return [], []
    values: list[str] = []
    held: list[str] = []
    for clause in contract.clauses:
        if clause.value:
            values.append(clause.value)
            if clause.kind in ("field_value", "choice"):
                held.append(clause.value)
        elif clause.kind == "control" and clause.state in ("checked", "unchecked") and clause.target is not None and clause.target.name:
            values.append(clause.target.name)
            held.append(clause.target.name)
    return values, held


async def remember(lesson_in: Lesson, store: Store) -> None:
    try:
        await _remember(lesson_in, store)
    except Exception:  # noqa: BLE001 - memory is never worth failing an answer the task already stored
        log.exception("memory.remember_failed", task_id=lesson_in.task.id)


async def _remember(x: Lesson, store: Store) -> None:
    if x.memory.domain is None or not (x.memory.skills_on or x.memory.replay_on):
        return
    last = x.last_action
    if last is not None and x.verification is not None:
        if x.memory.skills_on:
            await _judge_skills(x, last, store)
            await _learn_skill(x, last, store)
        await _judge_replayed_step(x, last, store)
    if x.task.status in ("completed", "failed", "needs_confirmation") and x.memory.replay_on:
        await _task_ended(x, store)
    await _sweep(store, x.now)


async def _judge_skills(x: Lesson, last: TaskAction, store: Store) -> None:
    """Each skill that steered the verified action counts its success or failure."""
    used = (last.metrics.get("memory") or {}).get("skillsUsed") or []
    for skill_id in used:
        await store.skills.record_outcome(x.task.tenant_id, str(skill_id), x.step_succeeded, x.now)
    record_skill_use("succeeded" if x.step_succeeded else "failed", len(used))


async def _learn_skill(x: Lesson, last: TaskAction, store: Store) -> None:
    """A correction's alternative that the page proved worked: the triplet is learned,
    and admitted once a second task confirms it."""
    info = last.metrics.get("recall") or {}
    corrected = info.get("corrected")
    verdict = x.verification
    if not corrected or last.metrics.get("correction") != "ALTERNATIVE_SELECTOR" or verdict is None:
        return
    if not x.step_succeeded or verdict.decided_by != "rules":
        return  # a model's verdict is a claim, not proof: nothing is learned from it
    targets = info.get("targets") or []
    try:
        action = parse_action(last.action)
    except ActionSyntaxError:
        return
    if not targets or not isinstance(targets[0], dict):
        return
    skill = lesson(
        tenant_id=x.task.tenant_id,
        domain=x.memory.domain or "",
        goal=x.before.query,
        values=[*x.values, *_typed(x.steps), *x.secrets],
        failed=corrected,
        worked_action=action.name,
        worked_target=targets[0],
        strategy="ALTERNATIVE_SELECTOR",
        secrets=x.secrets,
        at=x.now,
    )
    if skill is None:
        log.info("memory.skill_not_learned", reason="no safe triplet")
        return
    stored = await store.skills.learn(skill, x.task.id, x.now)
    log.info("memory.skill_learned", skill=stored.id, successes=stored.success_count, status=stored.status)
    if stored.status == "candidate" and stored.success_count >= ADMIT_AFTER:
        await store.skills.set_status(x.task.tenant_id, stored.id, "admitted")
        log.info("memory.skill_admitted", skill=stored.id)
    if stored.success_count == 1 and await store.skills.count(x.task.tenant_id) > SKILL_CAP:
        everything = await store.skills.list(x.task.tenant_id, None, limit=SKILL_CAP + 100)
        await store.skills.evict(x.task.tenant_id, weakest(everything, x.now, SKILL_CAP))


async def _judge_replayed_step(x: Lesson, last: TaskAction, store: Store) -> None:
    """A replayed step the page did not confirm demotes its recipe: never served again blind."""
    status = last.metrics.get("memory") or {}
    if status.get("replay") != "HIT" or x.step_succeeded or not status.get("recipeId"):
        return
    await store.recipes.record_replay(x.task.tenant_id, str(status["recipeId"]), False, x.now)
    log.warning("memory.recipe_demoted", recipe=status["recipeId"], step=status.get("recipeStep"))


async def _task_ended(x: Lesson, store: Store) -> None:
    replaying = RecallState.from_stored(x.before.state.get("recall"))
    if x.task.status != "completed":
        if replaying is not None:
            await store.recipes.record_replay(x.task.tenant_id, replaying.recipe_id, False, x.now)
        return
    if x.last_action is None or x.verification is None:
        return  # done on the first page: no flow to remember
    steps: list[tuple[TaskAction, Mapping[str, Any] | None]] = [(s, s.verification) for s in x.steps[:-1]]
    steps.append((x.last_action, x.verification.model_dump(mode="json")))
    if replaying is not None:
        await store.recipes.record_replay(x.task.tenant_id, replaying.recipe_id, True, x.now)
        source = await store.recipes.get(x.task.tenant_id, replaying.recipe_id)
        if source is not None:
            tokens = sum(u.total_tokens for u in await store.usage.list_for_task(x.task.tenant_id, x.task.id))
            record_memory_saved(source.round_trips - x.task.step_index, source.tokens - tokens)
    recipe = build_recipe(
        tenant_id=x.task.tenant_id,
        domain=x.memory.domain or "",
        goal=x.before.query,
        actions=recorded(steps),
        secrets=x.secrets,
        at=x.now,
        values=[*x.values, *x.secrets],
        held=x.held,
    )
    if recipe is None:
        return
    if replaying is None:
        usage = await store.usage.list_for_task(x.task.tenant_id, x.task.id)
        recipe = recipe.model_copy(update={"round_trips": x.task.step_index, "tokens": sum(u.total_tokens for u in usage)})
    stored = await store.recipes.record_run(recipe, x.task.id, x.now)
    log.info("memory.recipe_run", recipe=stored.id, runs=stored.verified_runs, status=stored.status)
    await _promote(stored, store)
    if stored.verified_runs == 1 and await store.recipes.count(x.task.tenant_id) > RECIPE_CAP:
        everything = await store.recipes.list(x.task.tenant_id, None, limit=RECIPE_CAP + 100)
        ranked = sorted(everything, key=lambda r: (r.status == "promoted", r.verified_runs, r.last_used), reverse=True)
        await store.recipes.evict(x.task.tenant_id, [r.id for r in ranked[RECIPE_CAP:]])


async def _promote(stored: Recipe, store: Store) -> None:
    """Promote the flow once it has :data:`PROMOTE_AFTER` verified runs, counted over every
    skeleton it was recorded on (a demoted one's runs do not count for the others). A
    demoted recipe is promoted again only by its own verified runs since it failed (the
    planner did the flow twice more, and the page proved it each time)."""
    if stored.status == "demoted":
        if stored.verified_runs >= PROMOTE_AFTER:
            await store.recipes.set_status(stored.tenant_id, stored.id, "promoted")
            log.info("memory.recipe_promoted_again", recipe=stored.id, runs_since_demotion=stored.verified_runs)
        return
    if stored.status != "candidate":
        return
    flow = [r for r in await store.recipes.find(stored.tenant_id, stored.domain, limit=200) if r.status != "demoted" and same_flow(r, stored)]
    if all(r.id != stored.id for r in flow):
        flow.append(stored)
    if sum(r.verified_runs for r in flow) < PROMOTE_AFTER:
        return
    for recipe in flow:
        if recipe.status == "candidate":
            await store.recipes.set_status(stored.tenant_id, recipe.id, "promoted")
            log.info("memory.recipe_promoted", recipe=recipe.id, flow_runs=sum(r.verified_runs for r in flow), skeletons=len(flow))


def _typed(steps: list[TaskAction]) -> list[str]:
    values = []
    for step in steps:
        texts = [str(link.get("action")) for link in step.actions] if step.actions else [step.action]
        for text in texts:
            try:
                action = parse_action(text)
            except ActionSyntaxError:
                continue
            if action.value and action.name in ("setValue", "select"):
                values.append(action.value)
    return values


async def _sweep(store: Store, now: datetime) -> None:
    """Skills and recipes unused for 90 days go (MongoDB's TTL index does it there too);
    at most once an hour per process."""
    key = id(store)
    clock = time.monotonic()
    if clock - _last_sweep.get(key, -SWEEP_EVERY_S) < SWEEP_EVERY_S:
        return
    _last_sweep[key] = clock
    gone = await store.skills.delete_unused_since(now - TTL) + await store.recipes.delete_unused_since(now - TTL)
    if gone:
        log.info("memory.swept", removed=gone)
