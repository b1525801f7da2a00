"""The interact graph: wiring only. Each node lives in ``agent/nodes/``; routers in
``agent/routing.py`` read flags, never prose.

    START ─ a held destructive action the user confirmed → action_validation → …
      │
    START ─ continuation? ─yes→ verification → goal_check ─┬ contract holds → goal_achieved → finalize
      │                                                    ├ step worked → [velocity check] → recall ─HIT→ action_validation …
      │                                                    │                 └ replanning ─(plan kept)→ action_generation …
      │                                                    │                              └(discarded)→ planning → action_generation
      │                                                    └ step failed → correction → action_validation → …
      └─no→ contract ─┬ holds already → goal_achieved → finalize
                      ├ value missing → ask_user (no task) · not understood → finalize (failed)
                      └ recall ─HIT (a promoted recipe's step, no model)→ action_validation → …
                          └ complexity_check ─SIMPLE→ direct_action → action_validation → outcome_prediction → finalize
                                           └COMPLEX→ context_analysis ─ASK_USER→ ask_user (no task)
                                                    └ (web_search) → planning → action_generation
                                                         → critic (risky / low confidence) → action_validation
                                                         → outcome_prediction → finalize

A ``contingency`` check (agent/nodes/contingency.py) sits where recall found no recipe step
(before complexity_check on a new task, before replanning after a verified step) and
before ``correction`` after a failed one: an overlay in the way fires a plan contingency
(its handler's action → action_validation; a confirmation → the user) or, when none fires,
the graph goes where it was going.

A hierarchical plan's sub-task that the page never shows done ends the task from
``goal_check`` straight to ``finalize`` (agent/subtasks.py). ``action_generation`` may answer
with a request for the page instead of an action — a screenshot (``needsScreenshot``) or the
full DOM (``needsFullDom``, agent/vision) — before any model call.

Completion is decided in one place, ``goal_check``, from the task's goal contract (and, for
a hierarchical plan, every sub-task's condition).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import lru_cache, wraps
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from agent.nodes.action_generation import action_generation
from agent.nodes.action_validation import action_validation
from agent.nodes.ask_user import ask_user
from agent.nodes.complexity_check import complexity_check
from agent.nodes.context_analysis import context_analysis
from agent.nodes.contingency import contingency
from agent.nodes.contract import contract
from agent.nodes.correction import correction
from agent.nodes.critic import critic
from agent.nodes.direct_action import direct_action
from agent.nodes.finalize import finalize
from agent.nodes.goal_achieved import goal_achieved
from agent.nodes.goal_check import goal_check
from agent.nodes.outcome_prediction import outcome_prediction
from agent.nodes.planning import planning
from agent.nodes.recall import recall
from agent.nodes.reflection import reflection
from agent.nodes.replanning import replanning
from agent.nodes.verification import verification
from agent.nodes.web_search import web_search
from agent.routing import (
    route_after_complexity,
    route_after_context,
    route_after_contingency,
    route_after_contract,
    route_after_correction,
    route_after_generation,
    route_after_recall,
    route_after_replanning,
    route_after_search,
    route_after_goal_check,
    route_after_validation,
    route_start,
)
from agent.state import GraphContext, InteractState
from observability import traced_node

NODES = {
    "contract": contract,
    "recall": recall,
    "complexity_check": complexity_check,
    "direct_action": direct_action,
    "context_analysis": context_analysis,
    "ask_user": ask_user,
    "web_search": web_search,
    "planning": planning,
    "action_generation": action_generation,
    "critic": critic,
    "action_validation": action_validation,
    "outcome_prediction": outcome_prediction,
    "verification": verification,
    "goal_check": goal_check,
    "goal_achieved": goal_achieved,
    "correction": correction,
    "reflection": reflection,
    "replanning": replanning,
    "finalize": finalize,
    "contingency": contingency,
}


def _inline(router: Callable[[InteractState], str]) -> Callable[[InteractState], Awaitable[str]]:
    """The router as a coroutine function: LangGraph runs a plain function in a thread pool,
    a thread hop per routing decision for what is a few dictionary reads. ``wraps`` keeps
    the ``Literal`` return annotation, from which LangGraph reads the possible targets."""

    @wraps(router)
    async def route(state: InteractState) -> str:
        return router(state)

    return route


def build_graph(wrap: Callable[[str, Any], Any] | None = None) -> StateGraph[InteractState, GraphContext]:
    """``wrap(name, fn)`` may decorate every node (tracing, metrics)."""
    graph = StateGraph(InteractState, context_schema=GraphContext)
    for name, fn in NODES.items():
        graph.add_node(name, wrap(name, fn) if wrap else fn)

    graph.add_conditional_edges(START, _inline(route_start))
    graph.add_conditional_edges("contract", _inline(route_after_contract))
    # A contingency (an overlay in the way) is checked after recall found no recipe step (a
    # new task's first page, a verified step) and before correction after a failed one
    # (agent/nodes/contingency.py); when none fires the graph goes where it was going.
    graph.add_conditional_edges(
        "recall",
        _inline(route_after_recall),
        {"action_validation": "action_validation", "complexity_check": "contingency", "replanning": "contingency"},
    )
    graph.add_conditional_edges("contingency", _inline(route_after_contingency))
    graph.add_conditional_edges("complexity_check", _inline(route_after_complexity))
    graph.add_edge("direct_action", "action_validation")
    graph.add_conditional_edges("context_analysis", _inline(route_after_context))
    graph.add_conditional_edges("web_search", _inline(route_after_search))
    graph.add_edge("planning", "action_generation")
    graph.add_conditional_edges("action_generation", _inline(route_after_generation))
    graph.add_edge("critic", "action_validation")
    graph.add_conditional_edges("action_validation", _inline(route_after_validation))
    graph.add_edge("outcome_prediction", "finalize")

    graph.add_edge("verification", "goal_check")
    graph.add_conditional_edges(
        "goal_check",
        _inline(route_after_goal_check),
        {"goal_achieved": "goal_achieved", "next_action": "recall", "correction": "contingency", "reflection": "reflection", "finalize": "finalize"},
    )
    graph.add_conditional_edges("replanning", _inline(route_after_replanning))
    graph.add_conditional_edges("correction", _inline(route_after_correction))
    graph.add_edge("goal_achieved", "finalize")
    graph.add_edge("reflection", "finalize")
    graph.add_edge("ask_user", END)
    graph.add_edge("finalize", END)
    return graph


@lru_cache(maxsize=1)
def interact_graph() -> CompiledStateGraph[InteractState, GraphContext, InteractState, InteractState]:
    return build_graph(wrap=traced_node).compile()
