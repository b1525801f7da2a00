"""The deterministic correction ladder (see :mod:`agent.correction`)."""

from __future__ import annotations

from collections.abc import Collection

from agent.action_validation import ActionRejected, validate_action
from agent.correction.schema import CorrectionDecision, CorrectionLimits, fail_decision
from agent.policy import TargetRef, match_elements, parse_goal
from agent.policy.explore import dismiss_control
from agent.policy.text import words
from verification import Action, PageElement, PageState, VerificationResult, format_action


def target_label_for(
    action: Action, page: PageState, goal: str, step: str | None, target_label: str | None
) -> str | None:
    element = page.element(action.target) if action.target else None
    if target_label:
        return target_label
    if element is not None and (element.name or element.placeholder):
        return element.name or element.placeholder
    parsed = parse_goal(step or goal)
    return parsed.target.text if parsed.target else None


def find_alternative(
    action: Action, page: PageState, label: str | None, allowed: Collection[str]
) -> Action | None:
    """The same action on the best other visible element carrying ``label``; never the same id,
    and never the same control of another row, item or card (another record's Delete)."""
    if action.target is None or not label:
        return None
    failed = page.element(action.target)
    entry = _entry(failed) if failed is not None else None
    for match in match_elements(page, TargetRef(text=label)).candidates:
        if match.element.id == action.target:
            continue
        if entry is not None and _entry(match.element) != entry:
            continue
        if not _carries(match.element, label):
            continue  # "Last name" is not another "First name": it only shares a word
        candidate = Action(name=action.name, target=match.element.id, value=action.value)
        if not isinstance(
            validate_action(candidate, page, allowed_domains=allowed), ActionRejected
        ):
            return candidate
    return None


def _carries(element: PageElement, label: str) -> bool:
    """Every word of ``label`` is on the element (its name, visible text or placeholder)."""
    shown = set(words(" ".join(t for t in (element.name, element.text or "", element.placeholder or "") if t)))
    return set(words(label)) <= shown


def _entry(element: PageElement) -> str | None:
    """The row, list item or card an element belongs to, when it belongs to one."""
    return next((c for c in element.container if c.startswith(("row:", "item:", "card:"))), None)


def offscreen(element: PageElement, page: PageState) -> bool:
    """Outside the viewport (coordinates are viewport-relative, as the extension sends them)."""
    if page.viewport is None or (element.box is None and element.xy is None):
        return False
    width, height = page.viewport
    if element.box is not None:
        x, y, w, h = element.box
    else:
        assert element.xy is not None
        (x, y), w, h = element.xy, 0.0, 0.0
    return y + h <= 0 or y >= height or x + w <= 0 or x >= width


def ladder_correction(
    action: Action,
    result: VerificationResult,
    page: PageState,
    label: str | None,
    attempt: int,
    limits: CorrectionLimits,
    allowed: Collection[str],
    *,
    goal: str = "",
    keep_page: bool = False,
) -> CorrectionDecision:
    """The rules' recovery. ``keep_page``: the page holds values the task typed or chose
    (:func:`agent.correction.typed.typed_on_page`) — never reload it; the last rung fails."""
    text = format_action(action)
    retry = CorrectionDecision(
        "RETRY_WITH_DELAY",
        format_action(Action(name="wait", seconds=limits.retry_delay_seconds)),
        f"Wait {limits.retry_delay_seconds:g}s, then retry {text}",
        attempt,
        retry_action=text,
    )
    alt = find_alternative(action, page, label, allowed)
    alternative = None
    if alt is not None:
        alternative = CorrectionDecision(
            "ALTERNATIVE_SELECTOR",
            format_action(alt),
            f"Use element {alt.target!r} labelled {label!r} instead",
            attempt,
        )
    if action.name in ("finish", "fail"):
        return fail_decision(f"{text} cannot be corrected", attempt, "NO_RECOVERY")
    element = page.element(action.target) if action.target else None
    if action.target is not None and (element is None or element.hidden):
        return alternative or (
            retry
            if attempt == 1
            else fail_decision(f"Element {action.target!r} is gone", attempt, "NO_RECOVERY")
        )
    if element is not None and element.occluded and not offscreen(element, page):
        dismiss = _popup_to_dismiss(element, page, goal)
        if dismiss is not None:
            return CorrectionDecision(
                "DISMISS_POPUP",
                format_action(Action(name="click", target=dismiss.id)),
                f"Close the popup covering {element.id!r} ({dismiss.name!r}), then retry",
                attempt,
                retry_action=text,
            )
    if element is not None and (element.occluded or offscreen(element, page)):
        scroll = format_action(Action(name="scroll", target=element.id))
        return CorrectionDecision(
            "SCROLL_INTO_VIEW",
            scroll,
            f"Bring {element.id!r} into view, then retry",
            attempt,
            retry_action=text,
        )
    if element is not None and element.disabled:
        return (
            retry
            if attempt == 1
            else (
                alternative
                or fail_decision(f"{element.id!r} stays disabled", attempt, "NO_RECOVERY")
            )
        )
    category = result.error_category
    if category == "error_message":
        errors = "; ".join(m.text for m in page.messages if m.kind == "error")[:200]
        return alternative or fail_decision(
            f"The page reports an error: {errors or result.reason}", attempt, "NO_RECOVERY"
        )
    if category == "sign_in_refused":  # the same credentials would be refused again
        return fail_decision(result.reason, attempt, "NO_RECOVERY")
    if category == "value_mismatch":
        return alternative or (
            retry
            if attempt == 1
            else fail_decision("The value did not stay in the field", attempt, "NO_RECOVERY")
        )
    if attempt == 1:
        return retry
    if alternative:
        return alternative
    if action.name in ("navigate", "goBack") or not page.url:
        return fail_decision(f"{text} still has no effect", attempt, "NO_RECOVERY")
    if keep_page:  # a reload would erase what the task typed: the user's work stays on the page
        return fail_decision(
            f"{text} still has no effect; the page is not reloaded, so the values typed into it are kept",
            attempt,
            "NO_RECOVERY",
        )
    refresh = format_action(Action(name="navigate", value=page.url))
    return CorrectionDecision("REFRESH_PAGE", refresh, "Reload the page and decide again", attempt)


def _popup_to_dismiss(covered: PageElement, page: PageState, goal: str) -> PageElement | None:
    """The close control (Close, ×, Cancel, "No thanks"…) of the one popup that came over
    ``covered`` — unless the goal names that control, when answering the popup is the
    goal's business, not the correction's."""
    dismiss = dismiss_control(page)
    if dismiss is None or dismiss.id == covered.id:
        return None
    named = words(dismiss.name)
    said = words(goal)
    if named and any(said[i : i + len(named)] == named for i in range(len(said))):
        return None
    return dismiss
