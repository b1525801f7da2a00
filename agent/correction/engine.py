"""``plan_correction``: limits, then the model's suggestion (validated), else the ladder."""

from __future__ import annotations

from collections.abc import Collection

import structlog

from agent.action_validation import ActionRejected, validate_action
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
) -> CorrectionDecision | None:
    text = format_action(action)
    if s.strategy == "FAIL":
        return fail_decision(s.reason, attempt, "NO_RECOVERY", "model")
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
) -> CorrectionDecision:
    """Decide the recovery for a failed action (see :mod:`agent.correction`)."""
    limits = limits or CorrectionLimits()
    attempt = attempts_on_step + 1
    if attempts_on_step >= limits.max_retries_per_step:
        return fail_decision(
            f"Step failed after {attempts_on_step} corrections", attempt, "MAX_RETRIES_EXCEEDED"
        )
    if consecutive_failures >= limits.max_consecutive_failures:
        return fail_decision(
            f"{consecutive_failures} actions failed in a row", attempt, "MAX_CONSECUTIVE_FAILURES"
        )
    try:
        action = failed_action if isinstance(failed_action, Action) else parse_action(failed_action)
    except ActionSyntaxError:
        return fail_decision("The failed action cannot be read", attempt, "NO_RECOVERY")
    allowed = allowed_domains if allowed_domains is not None else allowed_domains_for(page.url)
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
            decision = _from_suggestion(generation.output, action, page, attempt, limits, allowed)
            if decision is not None:
                log.info(
                    "correction.decided",
                    strategy=decision.strategy,
                    decided_by="model",
                    attempt=attempt,
                )
                return decision
    label = target_label_for(action, page, goal, step_description, target_label)
    decision = ladder_correction(action, verification, page, label, attempt, limits, allowed, goal=goal)
    log.info("correction.decided", strategy=decision.strategy, decided_by="policy", attempt=attempt)
    return decision
