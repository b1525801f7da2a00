"""Is the whole goal done? Evidence on the page, checked against the plan's completion
criterion — never the model's prose. A model verdict of ``task_completed`` without this
evidence does not finish a task on its own (see the verification node)."""

from __future__ import annotations

from dataclasses import dataclass

from agent.policy.text import fold
from planning import CompletionCriterion, Plan
from verification import PageState

_SUCCESS_WORDS = ("saved", "created", "added", "success", "successfully", "updated", "submitted", "done", "thank you", "welcome")


@dataclass(frozen=True)
class Evidence:
    found: bool
    detail: str


def _page_text(page: PageState) -> str:
    parts = [page.text_summary, *(m.text for m in page.messages), *(e.name for e in page.elements), *(e.value or "" for e in page.elements)]
    return fold(" ".join(parts))


def completion_evidence(plan: Plan, page: PageState, *, last_step_verified: bool) -> Evidence:
    criterion: CompletionCriterion = plan.completion
    good_messages = [fold(m.text) for m in page.messages if m.kind != "error"] + [fold(t) for t in page.success_messages]
    if page.has_errors or page.errors_detected:
        return Evidence(False, "the page shows an error")
    for word in criterion.success_words:
        folded = fold(word)
        if any(folded in message for message in good_messages):
            return Evidence(True, f"a message mentions {word!r}")
    if criterion.url_contains and fold(criterion.url_contains).rstrip("/") in fold(page.url):
        return Evidence(True, f"the page is {page.url}")
    if criterion.values_visible and (good_messages or page.has_success):
        text = _page_text(page)
        if all(fold(v) in text for v in criterion.values_visible) and any(w in m for m in good_messages for w in _SUCCESS_WORDS):
            return Evidence(True, "a success message shows and the values are visible")
    if criterion.final_action_suffices and plan.finished and last_step_verified:
        return Evidence(True, "the final step was verified")
    return Evidence(False, "no evidence of completion on the page yet")
