"""Step 5.2 of verification: turn before/after into a list of observations.

The rules (each one tested):

* URL: "Navigation occurred: URL changed from … to …" or "URL did not change".
* Page content, skeleton first: when the before-state has a skeleton of the same source
  (HTML vs V3) as the page now, the skeleton diff lines are the observations and the change
  is *meaningful*. An empty diff with a changed hash is a ticker, clock or ad: "Page content
  updated (DOM changed; no interactive element changes detected)", *not* meaningful. An
  empty diff with the same hash: "Page content did not change (no interactive element or
  alert changes)".
* Hash only — no stored skeleton, a skeleton this version cannot read, or a skeleton of the
  other source: "Page content updated (DOM changed)" (meaningful) or "Page content did not
  change (DOM hash identical)". The alerts on the page are then listed as context.
* Focus: a changed focused element is reported.
* Client witness: "Background network activity detected", "DOM was mutated",
  "Extension reported URL changed: true/false"; any of the three being true is
  ``client_saw_something``.
* Client-side checks (``verification_passed``) and recent page events are reported as
  context; they never make a change "meaningful".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import structlog
from pydantic import AliasChoices, BaseModel, ConfigDict, Field
from structlog.typing import FilteringBoundLogger

from verification.diff import DEFAULT_LIMIT, cap_lines, diff_checked, quote
from verification.page import PageState
from verification.skeleton import Skeleton, SkeletonError, validate_skeleton

log = structlog.get_logger(__name__)

URL_UNCHANGED = "URL did not change"
CONTENT_TICKER = "Page content updated (DOM changed; no interactive element changes detected)"
CONTENT_SAME_SKELETON = "Page content did not change (no interactive element or alert changes)"
CONTENT_CHANGED_HASH = "Page content updated (DOM changed)"
CONTENT_SAME_HASH = "Page content did not change (DOM hash identical)"
NETWORK_SEEN = "Background network activity detected"
DOM_MUTATED = "DOM was mutated"
MAX_CONTEXT_MESSAGES = 5


class BeforeState(BaseModel):
    """What the page looked like when an action was decided; stored with the action."""

    model_config = ConfigDict(populate_by_name=True, extra="ignore")

    url: str
    dom_hash: str = Field(validation_alias=AliasChoices("dom_hash", "domHash"))
    skeleton: dict[str, Any] | None = Field(
        default=None, validation_alias=AliasChoices("skeleton", "semanticSkeleton")
    )
    active_element: str | None = Field(
        default=None, validation_alias=AliasChoices("active_element", "activeElement")
    )

    @classmethod
    def from_page(cls, page: PageState) -> BeforeState:
        return cls(
            url=page.url,
            dom_hash=page.dom_hash,
            skeleton=dict(page.skeleton),
            active_element=page.focused_element_id,
        )


class ClientObservations(BaseModel):
    """What the extension witnessed while the action ran (all optional)."""

    model_config = ConfigDict(populate_by_name=True, extra="ignore")

    did_network_occur: bool | None = Field(
        default=None,
        validation_alias=AliasChoices("did_network_occur", "didNetworkOccur"),
        serialization_alias="didNetworkOccur",
    )
    did_dom_mutate: bool | None = Field(
        default=None,
        validation_alias=AliasChoices("did_dom_mutate", "didDomMutate"),
        serialization_alias="didDomMutate",
    )
    did_url_change: bool | None = Field(
        default=None,
        validation_alias=AliasChoices("did_url_change", "didUrlChange"),
        serialization_alias="didUrlChange",
    )


@dataclass(frozen=True)
class ObservationList:
    observations: list[str]
    meaningful_content_change: bool
    url_changed: bool
    client_saw_something: bool
    dom_changed: bool
    compared_by: Literal["skeleton", "hash"]


def normalize_url(url: str) -> str:
    """Compare URLs as a browser shows them: scheme and host case-insensitive, empty path = /."""
    text = url.strip()
    try:
        parts = urlsplit(text)
    except ValueError:
        return text
    if not parts.scheme or not parts.netloc:
        return text
    path = parts.path or "/"
    return urlunsplit(
        (parts.scheme.lower(), parts.netloc.lower(), path, parts.query, parts.fragment)
    )


def _readable(skeleton: dict[str, Any] | None, blog: FilteringBoundLogger) -> Skeleton | None:
    if skeleton is None:
        return None
    try:
        return validate_skeleton(skeleton)
    except SkeletonError as exc:
        blog.warning("verification.skeleton_fallback", reason=str(exc))
        return None


def _content(
    before: BeforeState, after: PageState, limit: int, blog: FilteringBoundLogger
) -> tuple[list[str], bool, Literal["skeleton", "hash"]]:
    dom_changed = before.dom_hash != after.dom_hash
    notes: list[str] = []
    stored = _readable(before.skeleton, blog)
    if stored is not None and stored["source"] != after.source:
        notes.append(
            f"Page snapshot format changed ({stored['source']} → {after.source}); compared by DOM hash only"
        )
    elif stored is not None:
        lines = cap_lines(
            diff_checked(stored, after.skeleton), limit
        )  # both validated, same source
        if lines:
            return lines, True, "skeleton"
        return [CONTENT_TICKER if dom_changed else CONTENT_SAME_SKELETON], False, "skeleton"
    notes.append(CONTENT_CHANGED_HASH if dom_changed else CONTENT_SAME_HASH)
    for message in after.messages[:MAX_CONTEXT_MESSAGES]:
        notes.append(f"Message/alert on page: {quote(message.text, 120)} ({message.kind})")
    return notes, dom_changed, "hash"


def _focus(before: str | None, after: str | None) -> list[str]:
    if before == after:
        return []
    if before is None:
        return [f"Focus moved to element {quote(after)}"]
    if after is None:
        return [f"Focus left element {quote(before)}"]
    return [f"Focus moved from element {quote(before)} to element {quote(after)}"]


def _client(client: ClientObservations | None) -> tuple[list[str], bool]:
    if client is None:
        return [], False
    lines = []
    if client.did_network_occur:
        lines.append(NETWORK_SEEN)
    if client.did_dom_mutate:
        lines.append(DOM_MUTATED)
    if client.did_url_change is not None:
        lines.append(
            f"Extension reported URL changed: {'true' if client.did_url_change else 'false'}"
        )
    saw = bool(client.did_network_occur or client.did_dom_mutate or client.did_url_change)
    return lines, saw


def _page_reports(after: PageState) -> list[str]:
    lines = []
    if after.verification_passed is not None:
        verdict = "passed" if after.verification_passed else "failed"
        lines.append(
            f"Extension check of the action: {verdict} (verification_passed: {str(after.verification_passed).lower()})"
        )
    if after.recent_events:
        events = "; ".join(quote(event, 60) for event in after.recent_events[-5:])
        lines.append(f"Recent page events: {events}")
    return lines


def build_observation_list(
    before: BeforeState,
    after: PageState,
    client: ClientObservations | None,
    *,
    limit: int = DEFAULT_LIMIT,
    context: Mapping[str, str] | None = None,
) -> ObservationList:
    """The observations for one verification, plus the flags the engine routes on.
    ``context`` (``session_id``, ``task_id``) is bound to every log line."""
    ctx = context or {}
    blog = log.bind(session_id=ctx.get("session_id", ""), task_id=ctx.get("task_id", ""))
    url_changed = normalize_url(before.url) != normalize_url(after.url)
    observations = [
        f"Navigation occurred: URL changed from {quote(before.url, 200)} to {quote(after.url, 200)}"
        if url_changed
        else URL_UNCHANGED
    ]
    content, meaningful, compared_by = _content(before, after, limit, blog)
    observations.extend(content)
    observations.extend(_focus(before.active_element, after.focused_element_id))
    client_lines, client_saw = _client(client)
    observations.extend(client_lines)
    observations.extend(_page_reports(after))
    return ObservationList(
        observations=observations,
        meaningful_content_change=meaningful,
        url_changed=url_changed,
        client_saw_something=client_saw,
        dom_changed=before.dom_hash != after.dom_hash,
        compared_by=compared_by,
    )
