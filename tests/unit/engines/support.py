"""Pages and verification results the engine tests share."""

from __future__ import annotations

import dataclasses
from typing import Any

from verification import ErrorCategory, PageElement, PageMessage, PageState, VerificationResult

URL = "https://app.clinic.example.com/patients/new"


def el(id: str, role: str, name: str = "", **fields: Any) -> PageElement:
    return PageElement(id=id, role=role, name=name, **fields)


CLINIC = (
    el("1", "link", "Patients", href="/patients"),
    el("2", "button", "New patient"),
    el("3", "textbox", "Name", value=""),
    el("4", "textbox", "Date of birth", value=""),
    el("5", "button", "Save"),
    el("6", "button", "Delete patient"),
    el("7", "combobox", "Gender", options=("Female", "Male", "Other")),
    el("8", "checkbox", "Subscribe"),
    el("9", "button", "Archive", states=frozenset({"disabled"})),
    el("10", "textbox", "Secret", hidden=True),
    el("11", "textbox", "Patient ID", value="P-1", states=frozenset({"readonly"})),
    el("12", "link", "Help", href="https://help.example.com/"),
)


def page(
    *elements: PageElement,
    url: str = URL,
    messages: tuple[PageMessage, ...] = (),
    viewport: tuple[int, int] | None = None,
    title: str | None = "Clinic",
) -> PageState:
    state = PageState.from_elements(elements or CLINIC, url=url, messages=messages, title=title)
    return dataclasses.replace(state, viewport=viewport) if viewport else state


def failed(
    category: ErrorCategory | None = "no_change", reason: str = "No change observed"
) -> VerificationResult:
    return VerificationResult(
        success=False,
        confidence=0.2,
        reason=reason,
        action_succeeded=False,
        task_completed=False,
        goal_achieved=None,
        semantic_summary=reason[:300],
        observations=["URL did not change"],
        meaningful_content_change=False,
        url_changed=False,
        client_witness_override=False,
        verification_tier=1,
        tokens_saved=0,
        model_called=False,
        decided_by="rules",
        next_goal_check=None,
        error_category=category,
        duration_ms=1.0,
    )
