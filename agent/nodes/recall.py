from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.action_validation import ActionRejected, validate_action
from agent.memory import MemoryStatus, RecallState, choose, serve
from agent.nodes.critic import start_url
from agent.search import allowed_domains_for
from agent.state import Candidate, GraphContext, InteractState
from planning import ChainedAction
from verification import format_action

log = structlog.get_logger(__name__)

LOOK_AHEAD = 2  # after a fallback, the planner may have done the recipe's next step itself


async def recall(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Replay of a verified flow (agent.memory.recipes): a new task whose goal and first
    page match a promoted recipe, or a task already replaying one, gets the recipe's next
    step — re-identified on this page, uniquely — with no model call. Anything else goes on
    to the planner for this step only (``MISS`` / ``FALLBACK``, with the reason)."""
    memory = runtime.context.memory
    task, page = state["task"], state["page"]
    if not memory.replay_on:
        return {"memory": memory.replay_status_off}
    if state["is_new_task"]:
        contract = state["contract"]
        if not contract.complete:
            return {"memory": MemoryStatus(miss_reason="the goal is not fully understood without a model")}
        served = choose(memory.recipes, task.query, page)
        if not served.hit:
            return {"memory": MemoryStatus(miss_reason=served.miss_reason, recipe_id=served.recipe.id if served.recipe else None)}
        active = RecallState(served.recipe.id if served.recipe else "")
    else:
        active_or_none = RecallState.from_stored(task.state.get("recall"))
        if active_or_none is None:
            return {"memory": MemoryStatus(miss_reason="this task is not replaying a recipe")}
        active = _rewound(active_or_none, state)
        contract = state.get("contract")
        if contract is not None and any(r.awaiting and r.status == "pending" for r in contract.results.values()):
            # The page asks "are you sure?" of the goal's own destructive click: only the user
            # answers that (agent.confirmation), never a recipe — whatever an older one recorded.
            return {"memory": MemoryStatus("FALLBACK", "the page asks the user to confirm", recipe_id=active.recipe_id), "recall": active}
        recipe = next((r for r in memory.recipes if r.id == active.recipe_id and r.status == "promoted"), None)
        if recipe is None:
            return {"memory": MemoryStatus("FALLBACK", "the recipe is no longer promoted", recipe_id=active.recipe_id), "recall": None}
        last = state.get("last_action")
        fell_back = last is not None and (last.metrics.get("memory") or {}).get("replay") != "HIT"
        served = serve(recipe, active.next_step, task.query, page)
        ahead = 1
        while not served.hit and fell_back and ahead <= LOOK_AHEAD and active.next_step + ahead < len(recipe.steps):
            candidate = serve(recipe, active.next_step + ahead, task.query, page)
            if candidate.hit:
                served = candidate
            ahead += 1
        if not served.hit:
            log.info("recall.fallback", recipe=recipe.id, step=active.next_step, reason=served.miss_reason)
            return {"memory": MemoryStatus("FALLBACK", served.miss_reason, recipe_id=recipe.id, recipe_step=active.next_step), "recall": active}
    assert served.recipe is not None and served.step is not None
    first, rest = served.actions[0], served.actions[1:]
    checked = validate_action(first, page, allowed_domains=allowed_domains_for(start_url(state)), search_available=False)
    if isinstance(checked, ActionRejected):  # the page no longer allows it: the planner decides this step
        status = "MISS" if state["is_new_task"] else "FALLBACK"
        return {"memory": MemoryStatus(status, f"the recipe's action is not valid here ({checked.code})", recipe_id=served.recipe.id, recipe_step=served.step)}
    total = len(served.recipe.steps)
    thought = f"Replaying a verified flow (step {served.step + 1} of {total}): the page matches the one it was recorded on."
    candidate = Candidate(
        action=first,
        thought=thought,
        decided_by="policy",
        confidence=0.9,
        source="recall",
        chain=tuple(ChainedAction(a, format_action(a), f"Recipe step {served.step + 2 + i} of {total}") for i, a in enumerate(rest)),
    )
    log.info("recall.hit", recipe=served.recipe.id, step=served.step, following=len(rest))
    update: dict[str, Any] = {
        "candidate": candidate,
        "fallback": None,
        "memory": MemoryStatus("HIT", recipe_id=served.recipe.id, recipe_step=served.step),
        "recall": RecallState(served.recipe.id, served.step, active.fallbacks, active.served),
    }
    if state.get("plan") is None and state.get("policy_plan") is not None:
        update["plan"] = state["policy_plan"]  # a fallback later goes on from the policy's plan
    return update


def _rewound(active: RecallState, state: InteractState) -> RecallState:
    """``active`` moved back to the first recipe step a cut-short replayed chain did not run."""
    last, verdict = state.get("last_action"), state.get("chain_verdict")
    memory = (last.metrics.get("memory") or {}) if last is not None else {}
    if verdict is None or memory.get("replay") != "HIT" or memory.get("recipeId") != active.recipe_id:
        return active
    checks = list(verdict.checks)
    verified = next((i for i, c in enumerate(checks) if not (c.ran and c.status == "verified")), len(checks))
    if any(c.ran for c in checks[verified:]):
        return active  # a step that ran and did not verify: not a chain cut short
    step = memory.get("recipeStep")
    return active.rewound(step if isinstance(step, int) else None, verified)
