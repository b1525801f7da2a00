"""The plan check: a deterministic score of a plan against the goal and the page, before any
of its actions is sent.

Four dimensions, weighted as in ``spec/related/verification-checkpoints.md``::

    score = 0.4·completeness + 0.2·consistency + 0.2·groundedness + 0.2·routability

- completeness — every value the goal gives (quoted text, ``field: value``, e-mails, URLs,
  dates, "named Jas") is used by some step, and a goal that creates / sends / searches /
  deletes something ends with a submit, click or key-press step;
- consistency — no duplicate or contradictory steps, indexes 0…n-1, no value the goal did
  not give (or gave in another spelling);
- groundedness — the first step still to do names an element on the current page; each
  later step names an element on this page or comes after a step that changes the page;
- routability — each step's kind maps to an action of the grammar and has what that action
  needs (a fill has a value, a navigate has a URL…).

Verdict: PASS when score ≥ 0.70; RETRY when 0.50 ≤ score < 0.70 and fewer than
:data:`MAX_PLAN_RETRIES` retries were made; FAIL otherwise. One rule is added to the
spec's: a **blocking** issue — a value the user gave that no step uses, or a missing
commit step — is a certainty, not a guess, so it never PASSes; it gets a RETRY with
feedback (and FAIL once the retries are used).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict

from planning.blocks import Block
from planning.goal_values import GoalValue, goal_values, implies_submission
from planning.respelled import said_as_date, same_value
from planning.plan import Plan, PlanStep, StepKind
from planning.text import contains_phrase, fold, label_matches, quote
from verification import ActionName, PageState
from verification.contract import words

Verdict = Literal["PASS", "RETRY", "FAIL"]

WEIGHTS: Final[dict[str, float]] = {"completeness": 0.4, "consistency": 0.2, "groundedness": 0.2, "routability": 0.2}
PASS_THRESHOLD: Final = 0.70
RETRY_THRESHOLD: Final = 0.50
MAX_PLAN_RETRIES: Final = 2
ISSUE_PENALTY: Final = 0.25  # consistency: per duplicate / contradiction / invented value
MINOR_PENALTY: Final = 0.10  # consistency: a value re-spelt (case, spacing)
MISSING_COMMIT_FACTOR: Final = 0.5  # completeness when the commit step is missing

# Each step kind → the grammar actions that can carry it out (see verification.actions).
ROUTES: Final[dict[StepKind, tuple[ActionName, ...]]] = {
    "open": ("click", "navigate"),
    "fill": ("setValue",),
    "select": ("select", "click"),
    "check": ("click",),
    "uncheck": ("click",),
    "click": ("click",),
    "submit": ("click", "press"),
    "press": ("press",),
    "focus": ("click",),
    "hover": ("hover",),
    "navigate": ("navigate",),
    "find": ("scroll", "click", "googleSearch"),
    "wait": ("wait",),
    "suggest": ("setValue", "click", "wait"),
    "other": (),
}

COMMIT_KINDS: Final[frozenset[str]] = frozenset({"submit", "click", "press"})
PAGE_CHANGING_KINDS: Final[frozenset[str]] = frozenset({"open", "click", "submit", "navigate", "find", "press", "select"})
VALUE_KINDS: Final[frozenset[str]] = frozenset({"fill", "select", "suggest"})
_DONE: Final = ("completed", "skipped")


class PlanCheck(BaseModel):
    """The result of checking one plan. Route on ``verdict``; ``feedback`` is for the retry
    prompt and the log (it quotes goal and page text, so it only ever travels as data)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    score: float
    verdict: Verdict
    scores: dict[str, float]
    feedback: list[str]
    blocking: list[str] = []
    retries_used: int = 0

    @property
    def passed(self) -> bool:
        return self.verdict == "PASS"


def verdict_for(score: float, retries_used: int, *, blocking: bool = False) -> Verdict:
    """PASS ≥ 0.70 (never with a blocking issue); RETRY ≥ 0.50 while retries are left; else FAIL."""
    score = round(score, 6)
    if score >= PASS_THRESHOLD and not blocking:
        return "PASS"
    if score >= RETRY_THRESHOLD and retries_used < MAX_PLAN_RETRIES:
        return "RETRY"
    return "FAIL"


def weighted_score(scores: dict[str, float]) -> float:
    return round(sum(WEIGHTS[name] * scores[name] for name in WEIGHTS), 6)


def _step_name(step: PlanStep) -> str:
    return f"Step {step.index}"


def _uses_value(step: PlanStep, wanted: str) -> bool:
    for text in (step.value, step.target):
        if text and (fold(text) == fold(wanted) or contains_phrase(text, wanted)):
            return True
    return step.value is not None and same_value(step.value, wanted)


def _split_across(plan: Plan, wanted: str) -> bool:
    """A value the page takes in parts ("Dr Helen Okafor" as First name Helen, Last name
    Okafor; "22/11/1983" as Day, Month, Year): its main words each typed by a step, and at
    least two steps take a part."""
    parts = [w for w in words(wanted) if len(w) > 2 or w.isdigit()]
    taking = [step for step in plan.steps if step.value and any(w in words(step.value) for w in parts)]
    said = {w for step in taking for w in words(step.value or "")}
    return len(taking) >= 2 and sum(w in said for w in parts) >= max(2, len(parts) - 1)


def _completeness(plan: Plan, goal: str, values: Sequence[GoalValue]) -> tuple[float, list[str], list[str]]:
    feedback: list[str] = []
    blocking: list[str] = []
    covered = 0
    for item in values:
        if any(_uses_value(step, item.value) for step in plan.steps) or _split_across(plan, item.value):
            covered += 1
            continue
        field = f" (for {item.field})" if item.field else ""
        message = f"The goal gives the value {quote(item.value)}{field}, but no step uses it."
        feedback.append(message)
        blocking.append(message)
    score = covered / len(values) if values else 1.0
    if plan.steps and implies_submission(goal) and plan.steps[-1].kind not in COMMIT_KINDS:
        message = (
            "The goal commits something (save, send, search, delete…), but the plan does not end with the step "
            "that presses the control doing it (a submit, click or key press)."
        )
        feedback.append(message)
        blocking.append(message)
        score *= MISSING_COMMIT_FACTOR
    return score, feedback, blocking


def _known_value(value: str, goal: str, page: PageState, known: Sequence[str]) -> Literal["exact", "respelt", "unknown"]:
    """Where a step's value comes from: the goal (or another known source) or a page option
    as written ("exact"), the same words spelt differently ("respelt"), or nowhere."""
    sources = [goal, *known]
    if any(value in source for source in sources):
        return "exact"
    if any(same_value(value, item.value) for item in goal_values(goal)) or said_as_date(value, goal):
        return "exact"  # the goal's date or amount as the field takes it
    for element in page.elements:
        if value in element.options or value == element.name:
            return "exact"
    if any(contains_phrase(source, value) for source in sources):
        return "respelt"
    if any(fold(value) in (fold(o) for o in e.options) or fold(value) == fold(e.name) for e in page.elements):
        return "exact"
    return "unknown"


def _same_step(a: PlanStep, b: PlanStep) -> bool:
    return (a.kind, fold(a.target or ""), a.value, fold(a.description)) == (
        b.kind,
        fold(b.target or ""),
        b.value,
        fold(b.description),
    )


def _consistency(plan: Plan, goal: str, page: PageState, known: Sequence[str]) -> tuple[float, list[str]]:
    feedback: list[str] = []
    penalty = 0.0
    for position, step in enumerate(plan.steps):
        if step.index != position:
            feedback.append(f"Step indexes are not 0…{len(plan.steps) - 1} in order (found {step.index} at position {position}).")
            penalty += ISSUE_PENALTY
            break
    seen_fields: dict[str, PlanStep] = {}
    seen_toggles: dict[str, PlanStep] = {}
    previous: PlanStep | None = None
    for step in plan.steps:
        key = fold(step.target or "")
        if previous is not None and _same_step(step, previous):
            feedback.append(f"{_step_name(step)} repeats step {previous.index}.")
            penalty += ISSUE_PENALTY
        elif step.kind in VALUE_KINDS and key:
            earlier = seen_fields.get(key)
            if earlier is not None and earlier.value == step.value:
                feedback.append(f"{_step_name(step)} fills {quote(step.target or '')} again with the same value as step {earlier.index}.")
                penalty += ISSUE_PENALTY
            elif earlier is not None:
                feedback.append(
                    f"{_step_name(step)} and step {earlier.index} put different values into {quote(step.target or '')}."
                )
                penalty += ISSUE_PENALTY
            seen_fields[key] = step
        elif step.kind in ("check", "uncheck") and key:
            earlier = seen_toggles.get(key)
            if earlier is not None and earlier.kind != step.kind:
                feedback.append(f"{_step_name(step)} undoes step {earlier.index} on {quote(step.target or '')}.")
                penalty += ISSUE_PENALTY
            seen_toggles[key] = step
        if step.kind in PAGE_CHANGING_KINDS:  # a new page or form: "Day" there is another field
            seen_fields.clear()
            seen_toggles.clear()
        previous = step
        if step.kind in VALUE_KINDS and step.value is not None and step.value.strip():
            known_as = _known_value(step.value, goal, page, known)
            if known_as == "unknown":
                feedback.append(
                    f"{_step_name(step)} uses the value {quote(step.value)}, which the goal does not give; use the "
                    "goal's values exactly and never invent one."
                )
                penalty += ISSUE_PENALTY
            elif known_as == "respelt" and step.kind == "fill":
                feedback.append(f"{_step_name(step)} changes the spelling of the value {quote(step.value)}; copy it exactly.")
                penalty += MINOR_PENALTY
    return max(0.0, 1.0 - penalty), feedback


def _has_url(step: PlanStep) -> bool:
    return step.kind in ("navigate", "open") and _is_url(step.value or step.target or "")


def _names_something(step: PlanStep) -> bool:
    """The step says what it acts on: a target, a URL, or nothing because it acts on the
    page itself (a key press on the focused field, scrolling)."""
    if step.target or _has_url(step):
        return True
    return step.kind in ("press", "find")


def _on_page(step: PlanStep, page: PageState) -> bool:
    """The step can run on ``page`` as it is."""
    if step.target and any(label_matches(step.target, e) for e in page.elements if not e.hidden):
        return True
    return _has_url(step) or (step.target is None and step.kind in ("press", "find"))


def _groundedness(plan: Plan, page: PageState) -> tuple[float, list[str]]:
    todo = [s for s in plan.steps if s.status not in _DONE]
    if not todo:
        return 1.0, []
    feedback: list[str] = []
    first, later = todo[0], todo[1:]
    first_ok = _on_page(first, page)
    if not first_ok:
        what = quote(first.target) if first.target else "no element"
        feedback.append(
            f"{_step_name(first)} is the next step to run but names {what}, which is not on the current page; "
            "start from an element listed in elements."
        )
    plausible = 0
    changed = first.kind in PAGE_CHANGING_KINDS
    for step in later:
        if _on_page(step, page) or (changed and _names_something(step)):
            plausible += 1
        elif not _names_something(step):
            feedback.append(f"{_step_name(step)} ({step.kind}) names no element to act on.")
        else:
            feedback.append(
                f"{_step_name(step)} names {quote(step.target)}, which is not on the page and no earlier step "
                "changes the page."
            )
        changed = changed or step.kind in PAGE_CHANGING_KINDS
    if not later:
        return (1.0 if first_ok else 0.0), feedback
    return 0.5 * first_ok + 0.5 * plausible / len(later), feedback


def _is_url(text: str) -> bool:
    text = text.strip().lower()
    return text.startswith(("http://", "https://", "/"))


def _route_problem(step: PlanStep) -> str | None:
    if not ROUTES[step.kind]:
        return f"{_step_name(step)} has kind 'other', which no browser action carries out; use a concrete kind."
    if step.kind in VALUE_KINDS and step.value is None:
        return f"{_step_name(step)} ({step.kind}) has no value to {'type' if step.kind == 'fill' else 'choose'}."
    if step.kind == "press" and not (step.value and step.value.strip()):
        return f"{_step_name(step)} (press) names no key (e.g. Enter)."
    if step.kind == "navigate" and not _is_url(step.value or step.target or ""):
        return f"{_step_name(step)} (navigate) has no URL."
    if not _names_something(step):
        return f"{_step_name(step)} ({step.kind}) names no element to act on."
    return None


def _routability(plan: Plan) -> tuple[float, list[str]]:
    problems = [p for p in (_route_problem(s) for s in plan.steps) if p]
    if not plan.steps:
        return 0.0, ["The plan has no steps."]
    return (len(plan.steps) - len(problems)) / len(plan.steps), problems


def check_plan(
    plan: Plan,
    goal: str,
    page: PageState,
    *,
    retries_used: int = 0,
    known_sources: Sequence[str] = (),
) -> PlanCheck:
    """Score ``plan`` for ``goal`` on ``page``. ``retries_used`` counts the re-plans already
    made after a RETRY (0 for the first plan); ``known_sources`` are other texts a step's
    value may legitimately come from (the user's chat answers, the web search summary,
    knowledge chunks)."""
    values = goal_values(goal)
    completeness, complete_notes, blocking = _completeness(plan, goal, values)
    consistency, consistent_notes = _consistency(plan, goal, page, known_sources)
    groundedness, grounded_notes = _groundedness(plan, page)
    routability, route_notes = _routability(plan)
    scores = {
        "completeness": round(completeness, 4),
        "consistency": round(consistency, 4),
        "groundedness": round(groundedness, 4),
        "routability": round(routability, 4),
    }
    score = weighted_score(scores)
    return PlanCheck(
        score=score,
        verdict=verdict_for(score, retries_used, blocking=bool(blocking)),
        scores=scores,
        feedback=[*complete_notes, *consistent_notes, *grounded_notes, *route_notes],
        blocking=blocking,
        retries_used=retries_used,
    )


def feedback_block(check: PlanCheck) -> Block:
    """The ``plan_check_feedback`` data block for the retry prompt."""
    scores = ", ".join(f"{name} {value:.2f}" for name, value in check.scores.items())
    lines = [f"Your previous plan scored {check.score:.2f} ({scores}); a plan needs 0.70 and no blocking problem."]
    lines += check.feedback or ["No specific problem was found; make each step concrete and grounded in the page."]
    if check.retries_used >= 1:
        lines.append(
            "This is the last attempt: every value from the goal must appear in a step exactly as given, the first "
            "step must act on an element listed in elements, and the plan must end with the commit step."
        )
    return ("plan_check_feedback", lines)
