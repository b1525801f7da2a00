"""``plan_correction``: a submit the page refused (agent.correction.form), the limits, then the
model's suggestion (validated, and never a reload of a page holding the task's typing), else
the ladder."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from urllib.parse import urljoin

import structlog

from agent.action_validation import ActionRejected, validate_action
from agent.correction.form import FormCheck, check_form, is_submit
from agent.correction.ladder import ladder_correction, target_label_for
from agent.correction.schema import (
    CORRECTION_INSTRUCTIONS,
    CorrectionDecision,
    CorrectionLimits,
    CorrectionSuggestion,
    fail_decision,
)
from agent.llm import CallContext, DataBlock, LLMError, LLMGateway, Prompt
from agent.reasoning.blocks import element_line, page_blocks
from agent.search.domains import allowed_domains_for
from verification import (
    Action,
    ActionSyntaxError,
    Contract,
    PageState,
    VerificationResult,
    format_action,
    parse_action,
)

log = structlog.get_logger(__name__)


def correction_blocks(
    action: Action, result: VerificationResult, page: PageState, goal: str, step: str | None
) -> list[DataBlock]:
    element = page.element(action.target) if action.target else None
    target = element_line(element) if element is not None else "(target not on the page)"
    return [
        DataBlock("goal", goal),
        DataBlock("plan_step", step or "(no plan step)"),
        DataBlock("failed_action", format_action(action)),
        DataBlock("observations", result.observations or ["(none)"]),
        DataBlock("target_element", target),
        *page_blocks(page),
    ]


def _from_suggestion(
    s: CorrectionSuggestion,
    action: Action,
    page: PageState,
    attempt: int,
    limits: CorrectionLimits,
    allowed: Collection[str],
    keep_page: bool = False,
) -> CorrectionDecision | None:
    text = format_action(action)
    if s.strategy == "FAIL":
        return fail_decision(s.reason, attempt, "NO_RECOVERY", "model")
    if keep_page and s.strategy == "REFRESH_PAGE":
        log.info("correction.reload_refused", strategy=s.strategy)
        return None
    if s.strategy == "REFRESH_PAGE":
        return (
            CorrectionDecision(
                "REFRESH_PAGE",
                format_action(Action(name="navigate", value=page.url)),
                s.reason,
                attempt,
                decided_by="model",
            )
            if page.url
            else None
        )
    proposed = s.action
    if s.strategy == "RETRY_WITH_DELAY":
        proposed = proposed or format_action(
            Action(name="wait", seconds=limits.retry_delay_seconds)
        )
    elif s.strategy == "SCROLL_INTO_VIEW" and not proposed and action.target:
        proposed = format_action(Action(name="scroll", target=action.target))
    if not proposed:
        return None
    checked = validate_action(proposed, page, allowed_domains=allowed)
    if isinstance(checked, ActionRejected):
        log.info("correction.suggestion_rejected", code=checked.code)
        return None
    kind = checked.action.name
    if keep_page and _leaves(checked.action, page):
        log.info("correction.reload_refused", strategy=s.strategy, action=kind)
        return None
    if (
        (s.strategy == "RETRY_WITH_DELAY" and kind != "wait")
        or (s.strategy == "SCROLL_INTO_VIEW" and kind != "scroll")
        or (s.strategy == "DISMISS_POPUP" and (kind != "click" or checked.action.target == action.target))
    ):
        return None
    if s.strategy == "ALTERNATIVE_SELECTOR" and (
        checked.text == text or (action.target and checked.action.target == action.target)
    ):
        return None
    retry = text if s.strategy in ("RETRY_WITH_DELAY", "SCROLL_INTO_VIEW", "DISMISS_POPUP") else None
    return CorrectionDecision(
        s.strategy, checked.text, s.reason, attempt, decided_by="model", retry_action=retry
    )


def _leaves(action: Action, page: PageState) -> bool:
    """The action reloads the page, goes back, or follows a link to another document."""
    if action.name in ("navigate", "goBack"):
        return True
    element = page.element(action.target) if action.name == "click" and action.target else None
    if element is None or element.role != "link" or not element.href:
        return False
    href = element.href.strip()
    if href.startswith("#") or href.casefold().startswith("javascript:"):
        return False
    return urljoin(page.url, href).split("#", 1)[0] != page.url.split("#", 1)[0]


def _fill(form: FormCheck, text: str, attempt: int, page: PageState, allowed: Collection[str]) -> CorrectionDecision:
    """The goal's value into the first refused field it gives, then the submit again — or,
    when the page would not take that action, the end of the task naming the fields."""
    checked = validate_action(form.fix, page, allowed_domains=allowed) if form.fix is not None else None
    if checked is None or isinstance(checked, ActionRejected) or form.fixed is None:
        return fail_decision(form.reason, attempt, "FORM_NEEDS_INPUT")
    return CorrectionDecision(
        "FILL_FIELD",
        checked.text,
        f"The page refused the form for {form.fixed.label!r}: fill it with the goal's value, then {text} again",
        attempt,
        retry_action=text,
    )


async def plan_correction(
    failed_action: str | Action,
    verification: VerificationResult,
    page: PageState,
    goal: str,
    step_description: str | None,
    attempts_on_step: int,
    consecutive_failures: int,
    gateway: LLMGateway | None = None,
    *,
    limits: CorrectionLimits | None = None,
    target_label: str | None = None,
    allowed_domains: Collection[str] | None = None,
    ctx: CallContext | None = None,
    contract: Contract | None = None,
    typed: Sequence[str] = (),
) -> CorrectionDecision:
    """Decide the recovery for a failed action (see :mod:`agent.correction`). ``contract``
    gives the goal's values for the fields a refused submit must fix; ``typed``: what the task
    typed or chose on this page (:func:`agent.correction.typed_on_page`) — a page holding any
    of it is never reloaded, navigated away from or gone back from."""
    limits = limits or CorrectionLimits()
    keep_page = bool(typed)
    attempt = attempts_on_step + 1
    try:
        action: Action | None = failed_action if isinstance(failed_action, Action) else parse_action(failed_action)
    except ActionSyntaxError:
        action = None
    label = target_label_for(action, page, goal, step_description, target_label) if action is not None else None
    form = None
    if action is not None and verification.error_category != "sign_in_refused":
        element = page.element(action.target) if action.target else None
        if is_submit(action, element, label):
            form = check_form(action, page, contract, typed)
    if form is not None and form.fix is None:  # the page names what it wants and the goal does not give it
        log.info("correction.form_refused", fields=len(form.problems), fixable=False, attempt=attempt)
        return fail_decision(form.reason, attempt, "FORM_NEEDS_INPUT")
    said = f". {form.reason}" if form is not None else ""
    if attempts_on_step >= limits.max_retries_per_step:
        return fail_decision(
            f"Step failed after {attempts_on_step} corrections{said}", attempt, "MAX_RETRIES_EXCEEDED"
        )
    if consecutive_failures >= limits.max_consecutive_failures:
        return fail_decision(
            f"{consecutive_failures} actions failed in a row{said}", attempt, "MAX_CONSECUTIVE_FAILURES"
        )
    if action is None:
        return fail_decision("The failed action cannot be read", attempt, "NO_RECOVERY")
    allowed = allowed_domains if allowed_domains is not None else allowed_domains_for(page.url)
    if form is not None:
        log.info("correction.form_refused", fields=len(form.problems), fixable=True, attempt=attempt)
        return _fill(form, format_action(action), attempt, page, allowed)
    if gateway is not None:
        prompt = Prompt(
            CORRECTION_INSTRUCTIONS,
            correction_blocks(action, verification, page, goal, step_description),
        )
        try:
            generation = await gateway.generate(
                "SELF_CORRECTION", CorrectionSuggestion, prompt, ctx=ctx or CallContext()
            )
        except LLMError as exc:
            log.warning("correction.model_failed", error=type(exc).__name__, kind=exc.kind)
        else:
            decision = _from_suggestion(generation.output, action, page, attempt, limits, allowed, keep_page)
            if decision is not None:
                log.info(
                    "correction.decided",
                    strategy=decision.strategy,
                    decided_by="model",
                    attempt=attempt,
                )
                return decision
    decision = ladder_correction(
        action, verification, page, label, attempt, limits, allowed, goal=goal, keep_page=keep_page
    )
    log.info("correction.decided", strategy=decision.strategy, decided_by="policy", attempt=attempt)
    return decision
