"""Continuations that arrive twice: answered again, never stepped twice.

A client that loses an answer (a dropped connection, a worker killed after the commit)
re-sends the same continuation. Treated as new, it would verify the same page a second
time and decide another step: the task advances on an action nobody executed. The client
says which answer it is reporting on — ``stepIndex``, echoed from the answer whose action
it executed — so the server can tell:

* ``stepIndex`` is the task's newest step: a new continuation, decided as usual;
* it is the step before the newest, and the page is the one the newest step was decided on
  (same URL, same DOM hash): the newest step's answer was lost — it is sent again, from the
  stored answer, with ``replayed: true`` and nothing written;
* anything else (an older step, the step before with another page, a step that does not
  exist yet) is a conflict: 409, nothing changes.

Without ``stepIndex`` (older clients) every continuation is new, as before: a page that did
not change after an action is also what a failed click looks like, so the page alone
cannot tell a re-send from a step that did nothing.
"""

from __future__ import annotations

from typing import Any

from agent.errors import TaskConflictError
from agent.inputs import InteractOutcome
from storage import Task, TaskAction
from verification import PageState, VerificationResult


def check_step(task: Task, step_index: int, newest: TaskAction | None, page: PageState) -> TaskAction | None:
    """The stored step to answer again, ``None`` for a new continuation, or TaskConflictError."""
    latest = newest.step_index if newest is not None else -1
    if step_index == latest:
        return None
    before = (newest.before_state or {}) if newest is not None else {}
    resent = (
        newest is not None
        and step_index == latest - 1
        and newest.answer is not None
        and before.get("url") == page.url
        and before.get("dom_hash") == page.dom_hash
    )
    if resent:
        return newest
    raise TaskConflictError(
        f"stepIndex {step_index} is not the task's newest step ({latest}) nor a re-send of the request that "
        "answered it; send the page as it is now with the newest stepIndex",
        details={"taskId": task.id, "stepIndex": step_index, "newestStepIndex": latest},
    )


def replayed_outcome(task: Task, session_id: str, action: TaskAction) -> InteractOutcome:
    """The stored answer of ``action``, as it was sent (usage: none — nothing ran now)."""
    answer: dict[str, Any] = action.answer or {}
    verification = answer.get("verification")
    return InteractOutcome(
        task_id=task.id,
        session_id=session_id,
        status=answer.get("status", task.status),
        step_index=action.step_index,
        thought=answer.get("thought", action.thought),
        action=answer.get("action", action.action),
        decided_by=answer.get("decided_by", action.decided_by),
        verification=VerificationResult.model_validate(verification) if verification is not None else None,
        expected_outcome=answer.get("expected_outcome"),
        plan=task.plan,
        contract=answer.get("contract"),
        failure_code=answer.get("failure_code"),
        actions=answer.get("actions"),
        chain_metadata=answer.get("chain_metadata"),
        memory=answer.get("memory"),
        replayed=True,
        needs_full_dom=bool(answer.get("needs_full_dom")),
        needs_screenshot=bool(answer.get("needs_screenshot")),
        dialog="accept" if answer.get("dialog") == "accept" else None,
    )
