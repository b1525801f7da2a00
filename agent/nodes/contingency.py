"""The contingency check: before the correction engine and before any model, is something
in the way that a plan contingency (or a built-in one) knows how to get past?

It runs once recall found no recipe step to replay — on a new task's first page, and after
a verified step (an overlay that came up now covers the page the plan acts on) — and after
a failed step, before correction (the click an overlay swallowed).
When a contingency fires, its handler's action is the answer (a dismissal that completes
no plan step; after a failure, the failed action is retried on the next request once the
page is clear), a confirmation the goal's destructive action needs goes to the user, and an
expired session ends the step for the user to sign in. Otherwise the graph goes on as if the
check were not there: correction after a failure, complexity routing or re-planning otherwise.
"""

from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.contingency import Blocker, ContingencyLog, Handling, choose, detect_blocker, missing_element
from agent.contingency.native import NativeConfirm, declined_dialog, decide, quote_page
from agent.contingency.opened import task_opened
from agent.destructive import Held, destructive_phrase
from agent.state import Candidate, GraphContext, InteractState, StepOutcome
from observability import record_contingency
from agent.policy.coverage import FILLER, stem
from verification import Action, ActionSyntaxError, format_action, parse_action
from verification.contract import fold, words

log = structlog.get_logger(__name__)


async def contingency(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    task, page = state["task"], state["page"]
    failed = state.get("verification") is not None and state.get("step_succeeded") is not True
    when = "after_failure" if failed else ("first_page" if state["is_new_task"] else "before_action")
    book = ContingencyLog.load(task.state.get("contingencies"))
    plan = state.get("plan") or state.get("policy_plan")
    own = plan.contingencies if plan is not None else []
    last = state.get("last_action")
    dismissed = declined_dialog(state["input"].native_dialogs, last) if failed and last is not None else None
    note: dict[str, Any] = {}
    if dismissed is not None and last is not None:
        native = decide(dismissed, last, task.query, state.get("contract"), own, book.fired, book.counts)
        if native.decision != "declined":
            return _native(native, state, book)
        log.info("contingency.native_confirm_declined", kind=dismissed.kind, reason=native.reason)
        note = {"dialog_note": native.note}
    blocker = detect_blocker(page, task.query, state.get("contract"))
    if blocker is not None and not blocker.in_the_way(_failed_target(state) if failed else None):
        log.info("contingency.not_in_the_way", trigger=blocker.trigger, covered=len(blocker.covered), share=round(blocker.share, 2))
        blocker = None
    if blocker is not None and blocker.trigger == "modal" and (step := _step_target(plan, task.query, state.get("contract"))) is not None and blocker.offers(step):
        # The dialog holds the plan's next step (a form or a question the task's own click
        # opened): it is where the work goes on, not something in its way.
        log.info("contingency.task_dialog", target=step[:80])
        blocker = None
    if blocker is not None and _opened_by_task(blocker, state):
        # The task's own last action brought the dialog up ("Delete user" → its confirmation):
        # it belongs to the task, never a distraction to close.
        log.info("contingency.opened_by_task", trigger=blocker.trigger, controls=len(blocker.controls))
        blocker = None
    if blocker is not None:
        handling = choose(blocker, task.query, state.get("contract"), own, book)
    elif failed:
        handling = missing_element(_failed_target_label(state), own, book)
    else:
        return {"contingency": None, **note}
    if handling.kind == "none":
        if blocker is not None:
            log.info("contingency.none", trigger=blocker.trigger, reason=handling.reason, when=when)
        return {"contingency": None, **note}
    assert handling.contingency is not None
    entry = handling.record(task.step_index, when)
    record_contingency(entry["trigger"], entry["handler"])
    log.info("contingency.fired", when=when, **{k: v for k, v in entry.items() if k not in ("step", "when")})
    update: dict[str, Any] = {"contingency": entry, "contingency_log": book.add(entry).stored(), **note}
    contract = state.get("contract")
    if state["is_new_task"] and state.get("plan") is None and state.get("policy_plan") is not None and contract is not None and contract.complete:
        # The task is stored with the plan the policy read (it understood the whole goal);
        # otherwise with none, and the planner (the model's, when there is one) plans once
        # the page is clear.
        update["plan"] = state["policy_plan"]
    if handling.kind == "ask_user":
        update["outcome"] = _to_user(handling, state)
        return update
    retry, step = _retry(state, failed)
    assert handling.action is not None
    update["candidate"] = Candidate(
        action=handling.action,
        thought=f"Contingency ({entry['trigger']} → {entry['handler']}): {handling.reason}. "
        "The overlay's own text is not followed.",
        decided_by="policy",
        confidence=0.9,
        plan_step=step,
        completes_step=False,
        source="contingency",
    )
    update["fallback"] = None
    update["pending_retry"] = retry
    return update


def _step_target(plan: Any, goal: str, contract: Any) -> str | None:
    """The plan's next target, when the goal or the contract speaks of it (a plan alone — a
    model's — cannot make a newsletter's "Subscribe" the work)."""
    current = plan.current if plan is not None else None
    target = current.target if current is not None and current.target else None
    if target is None:
        return None
    named = {fold(c.target.name) for c in (contract.clauses if contract is not None else ()) if c.target is not None}
    goal_words = {stem(w) for w in words(goal) if w not in FILLER}
    if fold(target) in named or goal_words & {stem(w) for w in words(target) if w not in FILLER}:
        return target
    return None


def _opened_by_task(blocker: Blocker, state: InteractState) -> bool:
    """Did the task's previous action open the dialog in the way, or work in it?"""
    last = state.get("last_action")
    if last is None or state["is_new_task"]:
        return False
    return task_opened(blocker, state["page"], last, ran=state["input"].last_action_status != "failure")


def _native(native: NativeConfirm, state: InteractState, book: ContingencyLog) -> dict[str, Any]:
    """A dismissed native confirm the rules answer: the user decides a destructive one the
    goal asks for (confirm: true re-sends the action accepting it), a harmless one after the
    goal's own action is accepted on a re-send, once."""
    entry = native.record(state["task"].step_index)
    record_contingency(entry["trigger"], entry["handler"])
    log.info("contingency.fired", when="after_failure", **{k: v for k, v in entry.items() if k not in ("step", "when")})
    update: dict[str, Any] = {"contingency": entry, "contingency_log": book.add(entry).stored(), "pending_retry": None}
    last = state.get("last_action")
    completes = bool(last.metrics.get("completes_step", True)) if last is not None else True
    if native.decision == "ask_user":
        assert native.phrase is not None
        message = (
            f"The page asks to confirm, in its own words (data, not an instruction): {native.quoted}. Accepting it would "
            f"{native.phrase} ({native.label or native.action!r}), "
            + ("as the goal asks." if native.asked else "which the goal does not say: only you can decide.")
            + " Send confirm: true to accept the page's confirmation, or confirm: false to stop."
        )
        held = Held(action=native.action, label=native.label or native.action, phrase=native.phrase, element_id=_target(native.action) or "")
        again = f"Send {native.action} again, accepting the page's confirmation ({native.quoted}, the page's words)"
        pending = held.pending(thought=again, decided_by="policy", plan_step=_last_step(state), completes_step=completes)
        pending["question"]["message"] = message
        pending["question"]["confirm"]["dialog"] = {"kind": native.dialog.kind, "message": native.dialog.message}
        pending["dialog"] = "accept"
        pending["declined"] = f"The user declined the page's confirmation: nothing was done to {native.phrase} ({native.label or native.action!r})"
        update["outcome"] = StepOutcome(message, "", "policy", plan_step=_last_step(state), probe=True, confirm=pending)
        return update
    update["candidate"] = Candidate(
        action=parse_action(native.action),
        thought=f"Contingency (native_confirm → accept_dialog): the page asked {native.quoted} (the page's words) and the "
        f"client dismissed it; {native.reason}.",
        decided_by="policy", confidence=0.9, plan_step=_last_step(state), completes_step=completes, source="contingency", dialog="accept",
    )  # fmt: skip
    update["fallback"] = None
    return update


def _target(action: str) -> str | None:
    try:
        return parse_action(action).target
    except ActionSyntaxError:
        return None


def _to_user(handling: Handling, state: InteractState) -> StepOutcome:
    """A destructive confirmation is held for the user (confirm: true sends the click on
    the dialog's control); an expired session ends the step for the user to sign in."""
    control = handling.control
    if handling.trigger == "confirm_destructive" and control is not None and control.disabled:
        label = control.text or control.name or control.id
        reason = (
            f"The page asks to confirm the last step with {label!r}, which it does not allow yet (the control is disabled: "
            "the page may want something typed first). Nothing was confirmed; only you can finish it."
        )
        return StepOutcome(reason, format_action(Action(name="fail", value=reason[:300])), "policy", status="failed",
                           failure_code="CONFIRMATION_UNAVAILABLE", failure_reason=reason)  # fmt: skip
    if handling.trigger == "confirm_destructive" and control is not None:
        held = Held(
            action=format_action(Action(name="click", target=control.id)),
            label=control.text or control.name or control.id,
            phrase=destructive_phrase(control) or "go ahead with what the previous click started",
            element_id=control.id,
        )
        # What the dialog says it is about ("Delete 5 drafts?"), as the page's words: the user
        # judges what would be affected, not only the control's name.
        said = next((c.partition(": ")[2] for c in control.container if c.startswith("dialog") and c.partition(": ")[2].strip()), "")
        about = f" The page says {quote_page(said)} (the page's words)." if said else ""
        message = f"The page asks to confirm: {held.label!r} would {held.phrase}.{about} Send confirm: true to do it, or confirm: false to stop."
        step = _confirm_step(state, held.label)
        pending = held.pending(thought=message, decided_by="policy", plan_step=step, completes_step=True)
        pending["question"]["message"] = message
        return StepOutcome(message, "", "policy", plan_step=step, probe=True, confirm=pending)
    reason = "The session expired: sign in again, then send the goal again. Nothing after the last verified step was done."
    return StepOutcome(reason, format_action(Action(name="fail", value=reason)), "policy", status="failed",
                       failure_code="SESSION_EXPIRED", failure_reason=reason)  # fmt: skip


def _confirm_step(state: InteractState, label: str) -> int | None:
    """The plan step a confirmation's control does: the plan's next step when that step is
    the press on it ("Delete permanently" after typing the name), else the last step's."""
    plan = state.get("plan")
    step = plan.current if plan is not None else None
    if step is not None and step.target and set(words(step.target)) and set(words(step.target)) <= set(words(label)):
        return step.index
    return _last_step(state)


def _last_step(state: InteractState) -> int | None:
    last = state.get("last_action")
    step = last.metrics.get("plan_step") if last is not None else None
    return step if isinstance(step, int) else None


def _retry(state: InteractState, failed: bool) -> tuple[str | None, int | None]:
    """What to send once the overlay is gone: after a failure, the action it swallowed (only
    when the client could not run it — a click that ran may have done its work, and a second
    could send twice); before acting, a retry already pending stays pending."""
    if failed:
        if state["input"].last_action_status != "failure":
            return None, _last_step(state)  # it ran: what it did is judged again, never repeated blindly
        last = state.get("last_action")
        chain = state.get("chain_verdict")
        link = chain.failed_commit if chain is not None else None
        if link is not None:
            return link.text, link.plan_step
        if last is None or not _retriable(last.action) or last.metrics.get("completes_step") is False:
            return None, _last_step(state)  # a move towards a step (open a menu…) is decided anew, never retried as the step
        return last.action, _last_step(state)
    pending = state["task"].state.get("pending_retry") if not state["is_new_task"] else None
    if isinstance(pending, dict) and pending.get("action"):
        return str(pending["action"]), pending.get("plan_step")
    return None, _current_step(state)


def _retriable(text: str) -> bool:
    try:
        return parse_action(text).name not in ("finish", "fail", "wait")
    except ActionSyntaxError:
        return False


def _current_step(state: InteractState) -> int | None:
    plan = state.get("plan") or state.get("policy_plan")
    return plan.current_step_index if plan is not None and plan.current is not None else None


def _failed_target(state: InteractState) -> str | None:
    """The element id the failed action aimed at."""
    last = state.get("last_action")
    try:
        return parse_action(last.action).target if last is not None else None
    except ActionSyntaxError:
        return None


def _failed_target_label(state: InteractState) -> str | None:
    """The name the failed action's target had when it was chosen (for element_missing)."""
    last = state.get("last_action")
    if last is None:
        return None
    try:
        target = parse_action(last.action).target
    except ActionSyntaxError:
        return None
    described = ((last.before_state or {}).get("skeleton") or {}).get("elements", {}).get(target) if target else None
    if isinstance(described, dict):
        return str(described.get("text") or described.get("name") or "") or None
    return None
