"""Look-ahead: what the previous step expected to see, checked on the page now.

When an action is decided, the planner may also predict the target of the *next* step
("the Submit button should be visible"). Verification then checks (1) the previous action
and (2) that this next target is available. A missing **required** next goal caps the
verification confidence at 0.5, which fails the step and sends it to correction one step
early; a missing optional one only adds an observation.

Selectors are evaluated against :class:`~verification.page.PageState` elements, never
against HTML: ``#id``, ``tag``, ``[attr]``, ``[attr=value]`` (also ``^=``, ``$=``,
``*=``, ``~=``, ``|=``, and an ``i`` flag), ``tag[attr=value]``, ``:contains("text")`` /
``:has-text("text")``, ``:disabled`` / ``:enabled`` / ``:checked``, and lists joined
by ``,``. For a descendant or child selector (``form .row button``) the right-most
compound is checked. Classes and attributes elements do not keep (``class``, ``style``,
``data-testid`` …) cannot be checked and are ignored; a selector with nothing left to
check is reported as not evaluated rather than as missing.
"""

from __future__ import annotations

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from verification.elements import PageElement, collapse, normalize_role
from verification.page import PageState
from verification.selectors import SelectorError, matches, parse_selector


class NextGoal(BaseModel):
    """The target the next step will need, predicted when this action was decided."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    description: str = Field(
        description="What the next step needs to find, e.g. 'Submit button should be visible'."
    )
    selector: str | None = Field(
        default=None,
        description="Optional simple CSS selector for the target: #id, tag, [attr=value] or tag[attr=value].",
    )
    text: str | None = Field(
        default=None,
        validation_alias=AliasChoices("text", "textContent", "text_content"),
        description="Optional visible text of the target, e.g. 'Submit' or 'Step 2 of 3'.",
    )
    role: str | None = Field(
        default=None, description="Optional ARIA role of the target, e.g. 'button' or 'link'."
    )
    required: bool = Field(
        default=False,
        description="True if the next step cannot work without this target; false makes a miss a warning only.",
    )


class ExpectedOutcome(BaseModel):
    """What an action is expected to do, predicted when it was decided."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    description: str = Field(
        description="One sentence: what the page should show once the action worked."
    )
    url_should_change: bool | None = Field(
        default=None,
        description="True if the action should navigate, false if the URL must stay, null if unknown.",
    )
    elements_to_appear: list[str] = Field(
        default_factory=list,
        description="Targets that should appear: simple CSS selectors or visible texts (e.g. 'New patient form').",
    )
    success_text: str | None = Field(
        default=None,
        description="Text that proves success when it appears, e.g. 'Patient saved'. Null if none.",
    )
    next_goal: NextGoal | None = Field(
        default=None, description="The target of the next step, if one is known."
    )


class NextGoalCheck(BaseModel):
    """Result of looking for the next goal on the page."""

    model_config = ConfigDict(frozen=True)

    found: bool
    matched_element_id: str | None
    detail: str
    evaluated: bool = True  # False when there was nothing this code could check


def _norm(text: str | None) -> str:
    return collapse(text or "").casefold()


def text_matches(element: PageElement, wanted: str) -> bool:
    needle = _norm(wanted)
    return any(
        needle in _norm(field)
        for field in (element.name, element.value, element.placeholder)
        if field
    )


def find_elements(
    page: PageState,
    *,
    selector: str | None = None,
    text: str | None = None,
    role: str | None = None,
) -> list[PageElement]:
    """Visible, unoccluded elements matching every criterion given. Raises ``SelectorError``."""
    compounds = parse_selector(selector) if selector else None
    wanted_role = normalize_role(role) if role else None
    out = []
    for element in page.elements:
        if element.hidden or element.occluded:
            continue
        if wanted_role is not None and element.role != wanted_role:
            continue
        if text and not text_matches(element, text):
            continue
        if compounds is not None and not matches(compounds, element):
            continue
        out.append(element)
    return out


def page_has_text(page: PageState, text: str) -> bool:
    needle = _norm(text)
    if not needle:
        return False
    if any(needle in _norm(m.text) for m in page.messages):
        return True
    return needle in _norm(page.text_summary) or any(
        text_matches(e, text) for e in page.elements if not (e.hidden or e.occluded)
    )


def _what(goal: NextGoal) -> str:
    parts = [
        f"selector {goal.selector!r}" if goal.selector else "",
        f"text {goal.text!r}" if goal.text else "",
    ]
    parts.append(f"role {goal.role!r}" if goal.role else "")
    return ", ".join(p for p in parts if p)


def check_next_goal(next_goal: NextGoal, page: PageState) -> NextGoalCheck:
    """Is the next step's target available (visible, not behind a modal) on ``page``?"""
    if not (next_goal.selector or next_goal.text or next_goal.role):
        return NextGoalCheck(
            found=False,
            matched_element_id=None,
            detail="nothing to check (no selector, text or role)",
            evaluated=False,
        )
    selector = next_goal.selector
    try:
        if selector:
            parse_selector(selector)
    except SelectorError as exc:
        if not (next_goal.text or next_goal.role):
            return NextGoalCheck(
                found=False, matched_element_id=None, detail=f"cannot check: {exc}", evaluated=False
            )
        selector = None  # fall back to the text/role that were also given
    found = find_elements(page, selector=selector, text=next_goal.text, role=next_goal.role)
    if found:
        element = found[0]
        state = " (disabled)" if element.disabled else ""
        return NextGoalCheck(
            found=True,
            matched_element_id=element.id,
            detail=f"{element.role} {element.name!r} (id {element.id!r}){state} matches {_what(next_goal)}",
        )
    if (
        next_goal.text
        and not selector
        and not next_goal.role
        and page_has_text(page, next_goal.text)
    ):
        return NextGoalCheck(
            found=True, matched_element_id=None, detail=f"text {next_goal.text!r} is on the page"
        )
    return NextGoalCheck(
        found=False,
        matched_element_id=None,
        detail=f"no visible element matches {_what(next_goal)}",
    )
