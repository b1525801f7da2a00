"""``verify_action_with_observations``: did the previous action work, and is the goal done?

1. Build the observation list (URL, skeleton diff or hash, focus, client witness), plus the
   look-ahead line when the previous step predicted a next target.
2. Nothing changed — no URL change, no meaningful content change, the client saw nothing —
   → failure without any model call (confidence 0.2, ``goal_achieved`` left unset).
   ``wait()`` and ``googleSearch()`` do not act on the page, so for them "nothing
   changed" is not a failure; and a DOM change outside interactive elements counts when
   it is exactly what was predicted (the expected success text or elements appeared).
3. Tier 1 rules (:mod:`verification.tiers`). Failure evidence decides at once. Success
   evidence decides an intermediate step, and a final step when the page also shows
   completion (a success message or the expected success text); otherwise a model, if
   one is given, answers the task-level question.
4. Tier 2 (short prompt: a final step with at most five observations) or Tier 3 (full
   prompt): the model sees goal, action and observations — never the DOM.
5. Thresholds, caps and logging: :class:`~verification.result.Finisher`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Literal

import structlog
from pydantic import ValidationError

from verification.actions import Action, ActionSyntaxError, format_action, parse_action
from verification.lookahead import ExpectedOutcome, NextGoalCheck, check_next_goal
from verification.observations import (
    BeforeState,
    ClientObservations,
    ObservationList,
    build_observation_list,
)
from verification.page import PageState
from verification.result import Draft, Finisher, VerificationResult, VerificationSettings
from verification.tiers import Tier1Finding, evaluate_tier1, focus_landed
from verification.verdict import (
    StepHint,
    VerdictModel,
    VerdictModelError,
    VerificationVerdict,
    build_verdict_request,
    estimate_tokens,
)

log = structlog.get_logger(__name__)

PAGE_NEUTRAL_ACTIONS = frozenset({"wait", "googleSearch"})


def _parse(action: str | Action) -> tuple[Action | None, str]:
    if isinstance(action, Action):
        return action, format_action(action)
    try:
        return parse_action(action), action
    except ActionSyntaxError:
        return None, action


def _next_goal_lines(expected: ExpectedOutcome | None, check: NextGoalCheck | None) -> list[str]:
    if expected is None or expected.next_goal is None or check is None:
        return []
    what = expected.next_goal.description
    if not check.evaluated:
        return [f"Expected next target could not be checked: {what} ({check.detail})"]
    if check.found:
        return [f"Expected next target is available: {what} ({check.detail})"]
    return [f"Expected next target not found: {what} ({check.detail})"]


async def _ask_model(
    model: VerdictModel,
    tier: Literal[2, 3],
    *,
    goal: str,
    action: str,
    finish: Finisher,
    step_hint: StepHint,
    full_tokens: int,
    finding: Tier1Finding,
) -> Draft:
    request = build_verdict_request(
        tier, goal=goal, action=action, observations=finish.observations, step_hint=step_hint
    )
    saved = full_tokens - estimate_tokens(request) if tier == 2 else 0
    try:
        async with asyncio.timeout(finish.settings.model_timeout_seconds):
            answer = await model(request)
        if not isinstance(answer, VerificationVerdict):
            answer = VerificationVerdict.model_validate(answer)
    except (VerdictModelError, TimeoutError, ValidationError) as exc:
        finish.log.warning(
            "verification.model_error", tier=tier, error=type(exc).__name__, detail=str(exc)[:300]
        )
        if finding.action_succeeded is True:
            worked, confidence = True, finding.confidence
            basis = f"judged from page evidence only: {finding.reason}"
        else:
            worked = finish.obs.url_changed or finish.obs.meaningful_content_change
            confidence = finish.settings.model_error_confidence
            basis = "judged from whether the page changed"
        reason = f"Verification model unavailable ({type(exc).__name__}); {basis}"
        return Draft(worked, False, confidence, reason, tier, "synthetic", model_called=True,
                     tokens_saved=saved, category="model_error", goal_unset=True)  # fmt: skip
    return Draft(answer.action_succeeded, answer.task_completed, answer.confidence, answer.reason,
                 tier, "model", model_called=True, tokens_saved=saved)  # fmt: skip


def _decide_by_rules(
    finding: Tier1Finding,
    obs: ObservationList,
    step_hint: StepHint,
    settings: VerificationSettings,
    full_tokens: int,
) -> Draft:
    if finding.action_succeeded is not None:
        completed = finding.action_succeeded and finding.completion and step_hint == "final"
        return Draft(finding.action_succeeded, completed, finding.confidence, finding.reason, 1, "rules",
                     tokens_saved=full_tokens, category=finding.error_category)  # fmt: skip
    changed = obs.url_changed or obs.meaningful_content_change
    if changed:
        confidence, reason = settings.rules_changed_confidence, "The page changed after the action"
    else:
        confidence, reason = (
            settings.rules_unchanged_confidence,
            "The page showed no meaningful change after the action",
        )
    reason += " (no verification model; decided by rules)"
    return Draft(changed, False, confidence, reason, 1, "rules", tokens_saved=full_tokens)


async def verify_action_with_observations(
    *,
    before: BeforeState,
    after: PageState,
    action: str | Action,
    goal: str,
    client_observations: ClientObservations | None = None,
    expected_outcome: ExpectedOutcome | None = None,
    model: VerdictModel | None = None,
    step_hint: StepHint = "unknown",
    settings: VerificationSettings | None = None,
    context: Mapping[str, str] | None = None,
) -> VerificationResult:
    """Verify the previous action from what changed on the page (see the module doc)."""
    started = time.perf_counter()
    settings = settings or VerificationSettings()
    ctx = context or {}
    blog = log.bind(session_id=ctx.get("session_id", ""), task_id=ctx.get("task_id", ""))
    parsed, action_text = _parse(action)
    if parsed is None:
        blog.warning("verification.action_unparsed", action=action_text[:200])

    obs = build_observation_list(
        before, after, client_observations, limit=settings.observation_limit, context=ctx
    )
    observations = list(obs.observations)
    next_goal = expected_outcome.next_goal if expected_outcome is not None else None
    next_check = check_next_goal(next_goal, after) if next_goal is not None else None
    observations.extend(_next_goal_lines(expected_outcome, next_check))
    # The focus moving onto the clicked element is a change on the page: the click landed.
    server_saw = obs.url_changed or obs.meaningful_content_change or focus_landed(parsed, before, after)
    witness = obs.client_saw_something and not server_saw
    finish = Finisher(obs, observations, witness, next_goal, next_check, settings, started, blog)
    full_request = build_verdict_request(
        3, goal=goal, action=action_text, observations=observations, step_hint=step_hint
    )
    full_tokens = estimate_tokens(full_request)

    finding = evaluate_tier1(
        before=before,
        after=after,
        action=parsed,
        expected=expected_outcome,
        url_changed=obs.url_changed,
    )
    # A DOM change outside interactive elements is a ticker — unless it is what was predicted.
    predicted = obs.dom_changed and finding.expected_seen and finding.action_succeeded is True
    # A field that holds what was typed or chosen is the action's result, even when it held
    # it before (a fill sent twice): nothing had to change.
    unchanged = not server_saw and not obs.client_saw_something and not predicted
    held = unchanged and parsed is not None and parsed.name in ("setValue", "select") and finding.action_succeeded is True
    if unchanged and not held:
        if parsed is not None and parsed.name in PAGE_NEUTRAL_ACTIONS:
            reason = (
                f"{action_text} does not act on the page; nothing changed and no error appeared"
            )
            return finish(
                Draft(
                    True,
                    False,
                    settings.page_neutral_confidence,
                    reason,
                    1,
                    "rules",
                    tokens_saved=full_tokens,
                )
            )
        blog.info("verification.no_change", action=action_text[:200])
        reason = "No change observed after the action: " + "; ".join(observations)
        return finish(Draft(False, False, settings.no_change_confidence, reason, 1, "rules",
                            tokens_saved=full_tokens, category="no_change", goal_unset=True))  # fmt: skip
    if witness:
        blog.info(
            "verification.client_witness_override",
            reason="the extension reported a change the server did not see",
        )

    observations.extend(line for line in finding.notes if line not in observations)
    decided = held or finding.action_succeeded is False or (
        finding.action_succeeded is True
        and (step_hint == "intermediate" or (step_hint == "final" and finding.completion))
    )
    if model is None or decided:
        return finish(_decide_by_rules(finding, obs, step_hint, settings, full_tokens))
    simple = (
        step_hint == "final"
        and len(observations) <= settings.tier2_max_observations
        and not witness
    )
    draft = await _ask_model(
        model, 2 if simple else 3, goal=goal, action=action_text, finish=finish,
        step_hint=step_hint, full_tokens=full_tokens, finding=finding,
    )  # fmt: skip
    rules_alone = finish.succeeds(_decide_by_rules(finding, obs, step_hint, settings, full_tokens))
    return finish(draft, rules_success=rules_alone)
