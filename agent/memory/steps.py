"""What finalize writes for memory with each step (agent.memory): the answer's status,
what a later request needs to learn from the step (page fingerprint, target semantics,
what a correction replaced), and where a replaying task goes on."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from agent.memory.fingerprint import page_fingerprint
from agent.memory.status import MemoryContext, MemoryStatus, RecallState
from agent.memory.targets import describe_target
from storage import Task
from verification import ActionSyntaxError, PageState, parse_action

if TYPE_CHECKING:
    from agent.state import InteractState, StepOutcome


def memory_status(state: InteractState, loaded: MemoryContext) -> MemoryStatus:
    """What memory did for this answer (agent.memory.status). A replaying task's last
    answer (the goal holds) says HIT when every step came from its recipe."""
    outcome = state["outcome"]
    decided: MemoryStatus | None = state.get("memory")
    replaying = RecallState.from_stored(state["task"].state.get("recall"))
    if decided is None or (decided.replay == "HIT" and outcome.status != "active"):
        if loaded.error is not None:
            decided = MemoryStatus(miss_reason=f"memory unavailable ({loaded.error})")
        elif not loaded.replay_on:
            decided = loaded.replay_status_off
        elif replaying is not None and outcome.status != "active":
            clean = replaying.fallbacks == 0
            decided = MemoryStatus("HIT" if clean else "FALLBACK", None if clean else "some steps were decided by the planner", recipe_id=replaying.recipe_id)
        elif replaying is not None:
            decided = MemoryStatus("FALLBACK", "this step is a correction of the previous one", recipe_id=replaying.recipe_id, recipe_step=replaying.next_step)
        else:
            decided = MemoryStatus(miss_reason="no recipe step for this answer")
    return dataclasses.replace(decided, skills_used=tuple(outcome.skills))


def records_steps(loaded: MemoryContext, outcome: StepOutcome) -> bool:
    return bool(loaded.skills_on or loaded.replay_on) and outcome.status == "active" and bool(outcome.action)


def recall_info(state: InteractState, chain: list[Any], page: PageState) -> dict[str, Any]:
    """What memory needs of this step later (agent.memory): the page's fingerprint, each
    action's target semantics, and — for a correction's alternative — what it replaced."""
    outcome = state["outcome"]
    texts = [link.text for link in chain] or [outcome.action]
    info: dict[str, Any] = {"fingerprint": page_fingerprint(page), "targets": [_semantics(text, page) for text in texts]}
    corrections = state.get("corrections") or []
    if corrections and corrections[-1].strategy == "ALTERNATIVE_SELECTOR" and corrections[-1].original_action:
        failed = corrections[-1].original_action
        result = state.get("verification")
        try:
            name = parse_action(failed).name
        except ActionSyntaxError:
            return info
        info["corrected"] = {
            "action": name,
            "target": _semantics(failed, page),
            "error": (result.error_category if result is not None else None) or "VERIFICATION_FAILED",
        }
    return info


def _semantics(action_text: str, page: PageState) -> dict[str, Any] | None:
    try:
        action = parse_action(action_text)
    except ActionSyntaxError:
        return None
    element = page.element(action.target) if action.target else None
    return describe_target(element, page=page).to_dict() if element is not None else None


def recall_after(state: InteractState, task: Task, memory: MemoryStatus) -> dict[str, Any] | None:
    """The recipe the task goes on replaying after this answer, and its next step."""
    outcome = state["outcome"]
    if outcome.status != "active" or ("recall" in state and state["recall"] is None):
        return None
    current = state.get("recall") or RecallState.from_stored(task.state.get("recall"))
    if current is None:
        return None
    if memory.replay == "HIT" and memory.recipe_step is not None:
        sent = max(len(outcome.chain), 1)
        current = RecallState(current.recipe_id, memory.recipe_step + sent, current.fallbacks, [*current.served, *range(memory.recipe_step, memory.recipe_step + sent)])
    elif memory.replay == "FALLBACK":
        current = RecallState(current.recipe_id, current.next_step, current.fallbacks + 1, current.served)
    return current.stored()
