"""Pure routing functions of the interact graph. They read flags and counters, never prose."""

from __future__ import annotations

from typing import Literal

from agent.state import InteractState


def route_start(state: InteractState) -> Literal["verification", "contract", "action_validation"]:
    if state.get("confirmed"):  # the user confirmed a held action: it was never sent, nothing to verify
        return "action_validation"
    return "contract" if state["is_new_task"] else "verification"


def route_after_contract(state: InteractState) -> Literal["goal_achieved", "ask_user", "finalize", "recall"]:
    """A new task's contract: already satisfied on the first page, a value the user must
    give, a goal that cannot be attempted (an ending is set), or on to the work."""
    contract = state.get("contract")
    if contract is not None and contract.satisfied:
        return "goal_achieved"
    if state.get("needs_user_input") is not None:
        return "ask_user"
    outcome = state.get("outcome")
    if outcome is not None and outcome.status != "active":
        return "finalize"
    return "recall"


def route_after_recall(state: InteractState) -> Literal["action_validation", "complexity_check", "replanning"]:
    """A recipe's step (memory ``HIT``) is validated and sent like any action, with no
    model; otherwise a new task goes on to complexity routing, a continuation to the plan."""
    memory = state.get("memory")
    if memory is not None and memory.replay == "HIT" and state.get("candidate") is not None:
        return "action_validation"
    return "complexity_check" if state["is_new_task"] else "replanning"


def route_after_complexity(state: InteractState) -> Literal["direct_action", "context_analysis"]:
    return "direct_action" if state["complexity"].complexity == "SIMPLE" else "context_analysis"


def route_after_context(state: InteractState) -> Literal["ask_user", "web_search", "planning"]:
    """Every source the analysis asks for runs: ``required_sources`` with WEB_SEARCH runs the
    search even when the primary source is MEMORY or PAGE (knowledge and history are
    already in hand: retrieved once per request)."""
    source = state.get("context_source")
    if source == "ASK_USER":
        return "ask_user"
    analysis = state.get("context_analysis")
    if source == "WEB_SEARCH" or (analysis is not None and analysis.needs_web_search):
        return "web_search"
    return "planning"


def route_after_goal_check(state: InteractState) -> Literal["goal_achieved", "next_action", "correction", "reflection", "finalize"]:
    """``goal_achieved`` is the contract's answer (every clause holds), never a model's claim.
    A sub-task the page does not show done (agent.subtasks) ends the task."""
    if state.get("subtask_failed") is True:
        return "finalize"
    if state.get("goal_achieved") is True:
        return "goal_achieved"
    if state.get("verification") is not None and state.get("step_succeeded") is not True:
        return "correction"
    if state.get("velocity_tripped") is True:
        return "reflection"
    return "next_action"


def route_after_replanning(state: InteractState) -> Literal["planning", "action_generation"]:
    """A kept (or modified) plan goes straight to the next action; none — discarded by
    re-planning — is made again."""
    plan = state.get("plan")
    return "action_generation" if plan is not None and plan.steps else "planning"


def route_after_generation(state: InteractState) -> Literal["critic", "action_validation", "ask_user"]:
    if state.get("needs_user_input") is not None:  # the dynamic interrupt found nothing: ask (agent.interrupts)
        return "ask_user"
    return "critic" if state.get("critic_needed") is True else "action_validation"


def route_after_validation(state: InteractState) -> Literal["outcome_prediction", "correction", "finalize"]:
    if state.get("loop_suspected") is True and state.get("correction_attempted") is not True:
        return "correction"
    outcome = state.get("outcome")
    if outcome is not None and outcome.status == "active" and outcome.confirm is None:
        return "outcome_prediction"
    return "finalize"


def route_after_search(state: InteractState) -> Literal["ask_user", "planning"]:
    return "ask_user" if state.get("context_source") == "ASK_USER" else "planning"


def route_after_correction(state: InteractState) -> Literal["action_validation", "finalize"]:
    outcome = state.get("outcome")
    return "finalize" if outcome is not None and outcome.status == "failed" else "action_validation"


def route_after_contingency(state: InteractState) -> Literal["action_validation", "correction", "complexity_check", "replanning", "finalize"]:
    """A contingency fired: its handler's action is validated and sent, or its question /
    ending is written. None fired: where the graph was going — correction after a failed
    step, complexity routing for a new task, re-planning after a verified step."""
    if state.get("contingency") is not None:
        return "finalize" if state.get("outcome") is not None else "action_validation"
    if state.get("verification") is not None and state.get("step_succeeded") is not True:
        return "correction"
    return "complexity_check" if state["is_new_task"] else "replanning"
