"""The visual path inside action generation: the mode router's decision and the images for
the model's call, and the two requests an answer can make for more of the page — a
screenshot (``needsScreenshot``) and the full DOM (``needsFullDom``).

A request for the page is a step like any other (a short ``wait`` the client runs at once,
stored with the task), so the asks are counted in the task and bounded."""

from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.state import Candidate, GraphContext, InteractState
from agent.vision.call import CallVision, plan_call
from agent.vision.full_dom import FullDomFacts, page_covered, should_ask_full_dom, target_in_text_only, tree_empty
from agent.vision.mode import ModeFacts, choose_mode
from agent.vision.state import VisionState
from planning import Plan
from verification import Action

log = structlog.get_logger(__name__)

ASK_WAIT_S = 0.1  # the step of an answer that asks for more of the page: wait this long, then send it

SCREENSHOT_THOUGHT = "How the page looks matters for this step: send a screenshot of the page with the next request."
FULL_DOM_THOUGHT = "The element this step needs is not in the page's element list: send the full DOM with the next request."


def vision_state(state: InteractState) -> VisionState:
    """This request's view of the task's visual memory (updated earlier in this run, else stored)."""
    return state.get("vision") or VisionState.from_task_state(state["task"].state)


def call_vision(state: InteractState, runtime: Runtime[GraphContext], plan: Plan, policy: Candidate | None) -> CallVision:
    """The mode (hybrid or text) for the model's choice of this step's action, and its images."""
    page, step = state["page"], plan.current
    facts = ModeFacts(
        goal=state["task"].query,
        step_text=" ".join(filter(None, (step.description, step.target))) if step is not None else "",
        client_mode=runtime.context.vision.client_mode,
        target_unresolved=step is not None and (policy is None or searching(policy)),
        nameless_controls=sum(1 for e in page.elements if e.actionable and not e.name.strip()),
    )
    decision = choose_mode(facts)
    call = plan_call(
        decision, runtime.context.vision, vision_state(state), step=state["task"].step_index,
        max_asks=runtime.context.deps.config.screenshot_asks, resolved=policy is not None and not searching(policy),
    )  # fmt: skip
    if decision.hybrid:
        log.info(
            "vision.mode", mode=decision.mode, reasons=list(decision.reasons), terms=list(decision.terms),
            allowed=runtime.context.vision.allowed, images=len(call.images), ask=call.ask, deduplicated=call.note is not None,
        )  # fmt: skip
    return call


def searching(candidate: Candidate) -> bool:
    """The policy's move only looks for the target (scrolls to find it): it did not resolve it."""
    return candidate.probe and candidate.action.name == "scroll"


def screenshot_request(plan: Plan, call: CallVision) -> dict[str, Any]:
    """The answer that asks for a screenshot instead of letting the model choose blind."""
    step = plan.current.index if plan.current is not None else None
    candidate = Candidate(Action(name="wait", seconds=ASK_WAIT_S), SCREENSHOT_THOUGHT, "policy", 1.0, step, completes_step=False, source="vision", probe=True)
    return {"candidate": candidate, "fallback": None, "vision": call.state, "needs_screenshot": True}


def full_dom_request(state: InteractState, runtime: Runtime[GraphContext], plan: Plan, policy: Candidate | None) -> dict[str, Any] | None:
    """The answer that asks for the full DOM, when the compact page could not resolve the
    current step and the full page may (``should_ask_full_dom``); None otherwise. Asked
    before any model call: neither the model nor the policy can act on an element the list
    does not hold, and scrolling does not add to the list what the client left out."""
    page, step, vision = state["page"], plan.current, runtime.context.vision
    current = vision_state(state)
    facts = FullDomFacts(
        page_from_tree=page.source == "v3",
        full_dom_sent=vision.full_dom_sent,
        step_unresolved=step is not None and (policy is None or searching(policy)),
        tree_empty=tree_empty(page),
        tree_truncated=vision.tree_truncated,
        target_in_text_only=step is not None and target_in_text_only(step.target, page),
        asks=current.full_dom_asks,
        max_asks=runtime.context.deps.config.full_dom_asks,
        covered=page_covered(page),
    )
    if not should_ask_full_dom(facts):
        return None
    log.info("vision.full_dom_requested", asks=current.full_dom_asks + 1, tree_empty=facts.tree_empty,
             tree_truncated=facts.tree_truncated, target_in_text_only=facts.target_in_text_only)  # fmt: skip
    assert step is not None
    candidate = Candidate(Action(name="wait", seconds=ASK_WAIT_S), FULL_DOM_THOUGHT, "policy", 1.0, step.index, completes_step=False, source="vision", probe=True)
    return {
        "candidate": candidate,
        "fallback": None,
        "vision": current.model_copy(update={"full_dom_asks": current.full_dom_asks + 1}),
        "needs_full_dom": True,
    }
