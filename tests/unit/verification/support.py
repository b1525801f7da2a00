"""Helpers shared by the verification tests: small pages and a scripted verdict model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from verification import (
    BeforeState,
    PageElement,
    PageMessage,
    PageState,
    VerdictModelError,
    VerdictRequest,
    VerificationVerdict,
)

URL = "https://app.example.com/patients"


def html_page(body: str, *, title: str = "Clinic") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


def page_from_html(body: str, *, url: str = URL) -> PageState:
    return PageState.from_html(html_page(body), url=url)


def before_of(page: PageState) -> BeforeState:
    return BeforeState.from_page(page)


def v3_page(*nodes: dict[str, Any], url: str = URL, **kwargs: Any) -> PageState:
    return PageState.from_v3(list(nodes), url=url, **kwargs)


def element(id: str, role: str = "button", name: str = "", **kwargs: Any) -> PageElement:
    return PageElement(id=id, role=role, name=name, **kwargs)


def page_of(
    *elements: PageElement, messages: tuple[PageMessage, ...] = (), url: str = URL
) -> PageState:
    return PageState.from_elements(elements, url=url, messages=messages)


@dataclass
class ScriptedModel:
    """A verdict model that replays answers and records every request it gets."""

    answers: list[VerificationVerdict | Exception] = field(default_factory=list)
    requests: list[VerdictRequest] = field(default_factory=list)

    async def __call__(self, request: VerdictRequest) -> VerificationVerdict:
        self.requests.append(request)
        if not self.answers:
            raise AssertionError("the verdict model was called but the test scripted no answer")
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    @property
    def calls(self) -> int:
        return len(self.requests)


class ForbiddenModel:
    """Fails the test if the engine calls it."""

    async def __call__(self, request: VerdictRequest) -> VerificationVerdict:
        raise AssertionError(f"the verdict model must not be called here (tier {request.tier})")


def verdict(
    action_succeeded: bool, task_completed: bool, confidence: float, reason: str = "because"
) -> VerificationVerdict:
    return VerificationVerdict(
        action_succeeded=action_succeeded,
        task_completed=task_completed,
        confidence=confidence,
        reason=reason,
    )


__all__ = [
    "URL",
    "ForbiddenModel",
    "ScriptedModel",
    "VerdictModelError",
    "before_of",
    "element",
    "html_page",
    "page_from_html",
    "page_of",
    "v3_page",
    "verdict",
]
