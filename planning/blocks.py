"""Untrusted data blocks shared by the planning prompts.

Every builder returns ``(name, content)`` pairs; the agent wraps each in its gateway's
``DataBlock(name, content)``, which fences it between per-call delimiters. Nothing here
ever becomes instructions: page text, element names, the goal, knowledge chunks and
search results all travel as data, and every string taken from the page is quoted as a
JSON string literal so it cannot close its quotes or start a new line of its own.

An element is rendered on one line::

    [14] textbox "Name" value="Jas" placeholder="Full name" (required, focused)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from planning.plan import Plan, PlanStep
from planning.text import clip, quote, quote_exact
from verification import PageElement, PageState, VerificationResult

Block: TypeAlias = tuple[str, str | list[str]]

MAX_ELEMENTS: Final = 80
NAME_LIMIT: Final = 100
VALUE_LIMIT: Final = 120
HREF_LIMIT: Final = 100
MAX_OPTIONS: Final = 10
PAGE_TEXT_LIMIT: Final = 1_200
MAX_RAG_CHUNKS: Final = 6
RAG_CHUNK_LIMIT: Final = 1_500
WEB_SEARCH_LIMIT: Final = 3_000
HISTORY_LIMIT: Final = 4_000
_SHOWN_STATES: Final = ("disabled", "checked", "selected", "expanded", "required", "readonly", "focused")
_OPTION_ROLES: Final = frozenset({"combobox", "listbox", "radiogroup"})
_PLAIN_ID: Final = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


@dataclass(frozen=True)
class VerificationSummary:
    """What verification said about the previous action, for the planner and refinement."""

    action_succeeded: bool
    task_completed: bool
    confidence: float | None = None

    @classmethod
    def of(cls, result: VerificationResult) -> VerificationSummary:
        return cls(result.action_succeeded, result.task_completed, result.confidence)

    def sentence(self) -> str:
        if self.action_succeeded and not self.task_completed:
            text = "Previous action succeeded; full goal not yet achieved."
        elif self.action_succeeded:
            text = "Previous action succeeded; the full goal appears achieved."
        else:
            text = "Previous action did not succeed; the goal is not achieved."
        if self.confidence is not None:
            text += f" (verification confidence {self.confidence:.2f})"
        return text


def element_ref(element_id: str) -> str:
    """``[14]``; an id with anything but letters, digits and ``_-.:`` (ids can come from a
    page's own ``id``/``name`` attributes) is JSON-quoted: ``["a] b"]``."""
    if _PLAIN_ID.fullmatch(element_id):
        return f"[{element_id}]"
    return f"[{quote_exact(element_id)}]"


def element_line(element: PageElement) -> str:
    """``[14] textbox "Name" value="Jas" (required)`` — every page string JSON-quoted."""
    role = element.role if _PLAIN_ID.fullmatch(element.role) else quote(element.role, 30)
    parts = [element_ref(element.id), role, quote(element.name, NAME_LIMIT)]
    if element.value and (element.input_type or "").lower() == "password":
        parts.append('value="(filled, hidden)"')  # a typed password never reaches a model
    elif element.value:
        parts.append(f"value={quote(element.value, VALUE_LIMIT)}")
    if element.placeholder and element.placeholder != element.name:
        parts.append(f"placeholder={quote(element.placeholder, NAME_LIMIT)}")
    if element.context:
        parts.append(f"label={quote(element.context, NAME_LIMIT)}")
    if element.input_type and element.input_type not in ("text", "submit", "button"):
        parts.append(f"type={quote(element.input_type, 20)}")
    if element.href and element.role == "link":
        parts.append(f"href={quote(element.href, HREF_LIMIT)}")
    if element.options and element.role in _OPTION_ROLES:
        shown = ", ".join(quote(o, 40) for o in element.options[:MAX_OPTIONS])
        more = f", +{len(element.options) - MAX_OPTIONS} more" if len(element.options) > MAX_OPTIONS else ""
        parts.append(f"options=[{shown}{more}]")
    states = [s for s in _SHOWN_STATES if s in element.states]
    if element.occluded:
        states.append("covered by another element")
    if states:
        parts.append(f"({', '.join(states)})")
    return " ".join(parts)


def shown_elements(page: PageState, limit: int = MAX_ELEMENTS) -> list[PageElement]:
    """Visible elements in page order; over ``limit``, covered ones go first, then the tail
    (the focused element is always kept)."""
    visible = [e for e in page.elements if not e.hidden]
    if len(visible) <= limit:
        return visible
    keep = {e.id for e in visible if not e.occluded}
    if len(keep) > limit:
        ordered = [e.id for e in visible if e.id in keep]
        keep = set(ordered[:limit])
    if page.focused_element_id and page.focused_element_id not in keep:
        keep.add(page.focused_element_id)
    return [e for e in visible if e.id in keep][: limit + 1]


def page_blocks(page: PageState, *, max_elements: int = MAX_ELEMENTS, with_text: bool = True) -> list[Block]:
    """``page`` (title, url), ``elements`` (one line each), ``messages``, ``page_text``."""
    blocks: list[Block] = [("page", f"title: {quote(page.title or '')}\nurl: {quote(page.url)}")]
    elements = shown_elements(page, max_elements)
    lines = [element_line(e) for e in elements]
    unlisted = sum(1 for e in page.elements if not e.hidden) - len(elements)
    if unlisted > 0:
        lines.append(f"(… {unlisted} more elements not listed)")
    blocks.append(("elements", lines or ["(no actionable elements on this page)"]))
    if page.messages:
        blocks.append(("messages", [f"{m.kind}: {quote(m.text, 200)}" for m in page.messages]))
    if with_text and page.text_summary:
        blocks.append(("page_text", clip(page.text_summary, PAGE_TEXT_LIMIT)))
    return blocks


VerificationInput: TypeAlias = VerificationSummary | VerificationResult | str
"""What the block builders accept as the previous step's verification: the summary, the
verification result itself (its flags are used, never its reason), or a ready sentence."""


def verification_sentence(summary: VerificationInput) -> str:
    if isinstance(summary, VerificationResult):
        return VerificationSummary.of(summary).sentence()
    if isinstance(summary, VerificationSummary):
        return summary.sentence()
    return " ".join(summary.split())


def context_blocks(
    *,
    rag_chunks: Sequence[str] = (),
    previous_actions_summary: str = "",
    verification_summary: VerificationInput | None = None,
    web_search_summary: str | None = None,
) -> list[Block]:
    """``previous_actions``, ``verification``, ``knowledge``, ``web_search`` — only those given."""
    blocks: list[Block] = []
    if previous_actions_summary.strip():
        blocks.append(("previous_actions", clip(previous_actions_summary, HISTORY_LIMIT)))
    if verification_summary is not None:
        blocks.append(("verification", verification_sentence(verification_summary)))
    chunks = [clip(c, RAG_CHUNK_LIMIT) for c in rag_chunks if c and c.strip()][:MAX_RAG_CHUNKS]
    if chunks:
        blocks.append(("knowledge", chunks))
    if web_search_summary and web_search_summary.strip():
        blocks.append(("web_search", clip(web_search_summary, WEB_SEARCH_LIMIT)))
    return blocks


def step_line(step: PlanStep) -> str:
    """``2 [pending] fill target="Name" value="Jas" — Type the name``."""
    parts = [str(step.index), f"[{step.status}]", step.kind]
    if step.target is not None:
        parts.append(f"target={quote(step.target, NAME_LIMIT)}")
    if step.value is not None:
        parts.append(f"value={quote_exact(step.value)}")
    parts.append(f"— {quote(step.description, 200)}")
    return " ".join(parts)


def plan_block(plan: Plan) -> Block:
    return ("plan", [step_line(step) for step in plan.steps])


NO_CURRENT_STEP: Final = (
    "none: every step of the plan is done. Check the page: finish() when the goal is visibly achieved, "
    "otherwise the action that achieves it."
)


def current_step_block(step: PlanStep | None) -> Block:
    if step is None:
        return ("current_step", NO_CURRENT_STEP)
    lines = [
        f"index: {step.index}",
        f"kind: {step.kind}",
        f"description: {quote(step.description, 300)}",
        f"target: {quote(step.target, NAME_LIMIT) if step.target is not None else 'none'}",
        f"value: {quote_exact(step.value) if step.value is not None else 'none'}",
        f"success_criterion: {quote(step.success_criterion, 300)}",
        f"actions_already_issued_for_this_step: {step.attempts}",
    ]
    return ("current_step", "\n".join(lines))
