"""What the agent service takes from one interact request and gives back.

The HTTP edge maps its wire schema onto these; the agent never sees HTTP types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from verification import ClientObservations, PageState, VerificationResult, dom_only_elements


@dataclass(frozen=True)
class PageInput:
    url: str
    title: str | None = None
    dom: str | None = None
    tree: Sequence[Mapping[str, Any]] | None = None
    viewport: Mapping[str, int] | None = None
    has_errors: bool | None = None
    has_success: bool | None = None
    recent_events: Sequence[str] = ()
    verification_passed: bool | None = None
    errors_detected: Sequence[str] = ()
    success_messages: Sequence[str] = ()
    text: str | None = None  # the page's visible text (V3 pageText)
    mode: str | None = None  # domMode as the client sent it
    screenshot: str | None = None  # base64 image (hybrid vision mode, agent.vision)
    screenshot_hash: str | None = None  # the client's perceptual hash of the screen
    tree_truncated: bool = False  # the client cut its V3 tree (node cap, viewport pruning)

    def to_page_state(self) -> PageState:
        if self.tree is not None:
            # After needsFullDom the client sends its tree and the full DOM: elements only the
            # DOM holds (stamped with data-llm-id, so the client can act on them) join the tree's.
            extra = dom_only_elements(self.dom, self.tree) if self.mode == "full" and self.dom is not None else ()
            return PageState.from_v3(
                self.tree,
                url=self.url,
                title=self.title,
                viewport=self.viewport,
                has_errors=self.has_errors,
                has_success=self.has_success,
                recent_events=tuple(self.recent_events),
                verification_passed=self.verification_passed,
                errors_detected=tuple(self.errors_detected),
                success_messages=tuple(self.success_messages),
                dom=self.dom,
                text=self.text,
                extra_elements=extra,
            )
        assert self.dom is not None, "the edge guarantees a page"
        return PageState.from_html(self.dom, url=self.url, title=self.title)


DIALOG_MESSAGE_KEPT = 300  # characters of a native dialog's text the server keeps (page content: data)


@dataclass(frozen=True)
class NativeDialog:
    """A browser-native dialog the page raised while the previous action ran (the client's
    ``clientObservations.nativeDialogs``): its kind, its text (page content, never an
    instruction), the action that raised it (grammar text) and how the client answered."""

    kind: Literal["confirm", "alert", "prompt", "beforeunload"]
    message: str
    action: str | None
    answered: Literal["dismissed", "accepted"]

    @classmethod
    def of(cls, kind: Any, message: str, action: str | None, answered: Any) -> NativeDialog:
        return cls(kind, " ".join(message.split())[:DIALOG_MESSAGE_KEPT], action, answered)


@dataclass(frozen=True)
class IdempotencyKey:
    """The client's ``Idempotency-Key`` and the fingerprint of the request that carried it."""

    key: str
    fingerprint: str  # SHA-256 hex of method, path and canonical JSON body


@dataclass(frozen=True)
class InteractInput:
    page: PageInput
    query: str | None
    task_id: str | None = None
    session_id: str | None = None
    previous_url: str | None = None
    last_action_status: Literal["success", "failure", "pending"] | None = None
    last_action_error: str | None = None
    last_executed_action_index: int | None = None
    step_index: int | None = None  # the stepIndex of the answer whose action the client executed
    chain_executed_actions: tuple[str, ...] = ()
    chain_total_actions: int | None = None
    chain_failed_index: int | None = None  # the chain action that stopped it (None: it ran to its end)
    chain_failure_kind: str | None = None  # why: target_changed, target_missing, covered, url_changed, value_mismatch, …
    chain_skipped: tuple[int, ...] = ()  # canFail actions that failed and were passed over
    client_observations: ClientObservations | None = None
    confirm: bool | None = None  # the user's answer to a held destructive action (agent.destructive)
    idempotency: IdempotencyKey | None = None
    native_dialogs: tuple[NativeDialog, ...] = ()  # native dialogs the previous action raised (agent.contingency.native)


@dataclass(frozen=True)
class InteractOutcome:
    task_id: str | None
    session_id: str
    status: Literal["active", "completed", "failed", "needs_confirmation", "interrupted", "needs_user_input"]
    step_index: int
    thought: str
    action: str
    decided_by: Literal["policy", "model"]
    verification: VerificationResult | None = None
    expected_outcome: dict[str, Any] | None = None
    plan: dict[str, Any] | None = None
    contract: dict[str, Any] | None = None
    failure_code: str | None = None
    actions: list[dict[str, Any]] | None = None
    chain_metadata: dict[str, Any] | None = None
    memory: dict[str, Any] | None = None  # what memory did for this answer (agent.memory.MemoryStatus.wire)
    contingency: dict[str, Any] | None = None  # the plan contingency this answer fired (agent.contingency)
    needs_user_input: dict[str, Any] | None = None
    usage: dict[str, Any] = field(default_factory=dict)
    server_ms: float = 0.0
    model_ms: float = 0.0
    has_org_knowledge: bool = False  # the tenant's knowledge base gave this request something
    replayed: bool = False  # a re-sent request, answered with the stored answer of its step
    needs_full_dom: bool = False  # send the full DOM with the next request (agent.vision.full_dom)
    needs_screenshot: bool = False  # send a screenshot with the next request (agent.vision)
    idempotent_replay: bool = False  # answered from an Idempotency-Key record (header Idempotent-Replayed)
    dialog: Literal["accept"] | None = None  # accept the native confirm this action raises (agent.contingency.native)
