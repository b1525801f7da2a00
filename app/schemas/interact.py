"""Request and response bodies of ``POST /api/agent/interact`` (the extension contract).

Unknown top-level fields are ignored so that a newer extension keeps working against an
older server; every known field is typed and validated.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Field, field_validator, model_validator

from app.schemas.common import ApiModel, FreeJson
from verification import ActionSyntaxError, parse_action, web_url

DomMode = Literal["semantic_v3", "semantic", "skeleton", "hybrid", "full"]
TaskStatusOut = Literal["active", "completed", "failed", "needs_confirmation", "interrupted", "needs_user_input"]


class SemanticNodeV3(ApiModel):
    """One interactive element of the V3 tree (minified keys)."""

    i: str = Field(description="Element id, used in actions: click(i)")
    r: str | None = Field(default=None, description="Role: btn, inp, link, chk, sel, …")
    n: str | None = Field(default=None, description="Visible name/label")
    v: str | None = Field(default=None, description="Current value (inputs)")
    s: str | list[str] | None = Field(default=None, description="State: disabled, checked, expanded")
    xy: list[float] | None = Field(default=None, min_length=2, max_length=2)
    f: int | None = Field(default=None, ge=0, description="Frame id (0 = main frame)")
    box: list[float] | None = Field(default=None, min_length=4, max_length=4)
    scr: FreeJson | None = Field(default=None, description="Scrollable container info")
    occ: bool | None = Field(default=None, description="Occluded by a modal")
    ctx: list[Annotated[str, Field(max_length=200)]] | None = Field(
        default=None,
        max_length=3,
        description=(
            "Containers the element sits in, nearest first: '<kind>: <text>' with kind row, item, "
            "card, dialog, section or form (e.g. 'row: Bob Smith · bob@x.org')"
        ),
    )
    t: str | None = Field(
        default=None,
        description="Visible text, when it differs from the name (an aria-label overrode it)",
    )
    ty: str | None = Field(
        default=None,
        max_length=32,
        description=(
            "The kind of field: an <input>'s type (text, password, email, number, date, time, checkbox, …), "
            "'textarea', 'select', 'select-multiple' or 'contenteditable'; omitted for elements that are not fields"
        ),
    )

    @field_validator("i", mode="before")
    @classmethod
    def _id_as_text(cls, value: object) -> object:
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        return value

    @field_validator("i")
    @classmethod
    def _id_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("element id must not be empty")
        return value


class Viewport(ApiModel):
    width: int = Field(ge=0)
    height: int = Field(ge=0)


class ClientObservationsIn(ApiModel):
    did_network_occur: bool | None = None
    did_dom_mutate: bool | None = None
    did_url_change: bool | None = None


class ChainPartialState(ApiModel):
    executed_actions: list[str] = Field(default_factory=list)
    dom_after_last_success: str | None = None
    total_actions_in_chain: int = Field(ge=1)


class InteractRequest(ApiModel):
    url: str = Field(min_length=1, max_length=8192, description="Current tab URL")
    query: str | None = Field(default=None, description="The user's goal; required for a new task")
    dom: str | None = Field(default=None, description="HTML snapshot (legacy, or when the server asked for it)")
    dom_mode: DomMode | None = None
    interactive_tree: list[SemanticNodeV3] | None = None
    viewport: Viewport | None = None
    page_title: str | None = Field(default=None, max_length=2000)
    scroll_position: str | None = None
    scrollable_containers: list[FreeJson] | None = None
    recent_events: list[str] | None = None
    has_errors: bool | None = None
    has_success: bool | None = None
    verification_passed: bool | None = Field(
        default=None, validation_alias=AliasChoices("verification_passed", "verificationPassed")
    )
    errors_detected: list[str] | None = Field(
        default=None, validation_alias=AliasChoices("errors_detected", "errorsDetected")
    )
    success_messages: list[str] | None = Field(
        default=None, validation_alias=AliasChoices("success_messages", "successMessages")
    )
    page_text: str | None = Field(
        default=None,
        max_length=20_000,
        validation_alias=AliasChoices("page_text", "pageText"),
        description=(
            "The page's visible text, one block (paragraph, heading, list item, table row) per line, table "
            "cells separated by ' · ' — lets Stepwise read values a goal points at ('the 3rd word of the "
            "paragraph', a calendar's month) on a V3 page. Untrusted page content."
        ),
    )
    skeleton_dom: str | None = None
    screenshot: str | None = None
    screenshot_hash: str | None = None

    task_id: str | None = Field(default=None, max_length=64)
    session_id: str | None = Field(default=None, max_length=64)
    previous_url: str | None = Field(default=None, max_length=8192)
    last_action_status: Literal["success", "failure", "pending"] | None = None
    last_action_error: str | FreeJson | None = None
    step_index: int | None = Field(
        default=None,
        ge=0,
        description=(
            "The `stepIndex` of the answer whose action the client executed, echoed back. With it a re-sent "
            "continuation (the answer was lost) gets the same answer again (`replayed: true`) instead of a new "
            "step, and a stale one is a 409; without it every continuation is a new step"
        ),
    )
    last_executed_action_index: int | None = Field(
        default=None,
        ge=0,
        description=(
            "Index of the last action of a chain the client executed. Stepwise does not send chains yet, so this "
            "is accepted for forward compatibility and not read; `stepIndex` is what marks the step"
        ),
    )
    confirm: bool | None = Field(
        default=None,
        description=(
            "The user's answer to a confirmation question (`status: needs_user_input` with `needsUserInput.confirm`: "
            "a destructive action the goal did not ask for, held). true: the held action is sent now, if its element "
            "is still on the page; false: the task fails with USER_DECLINED. Without it the question is asked again"
        ),
    )
    chain_partial_state: ChainPartialState | None = None
    client_observations: ClientObservationsIn | None = None

    @field_validator("url")
    @classmethod
    def _url_scheme(cls, value: str) -> str:
        if web_url(value) is None:  # read as the browser reads it (WHATWG), not as urlsplit does
            raise ValueError("url must be the page's http(s) URL, with a host (file:, data:, about: … are no web page)")
        return value

    @model_validator(mode="after")
    def _has_page(self) -> InteractRequest:
        if self.dom is None and self.interactive_tree is None:
            raise ValueError("send the page: `interactiveTree` (V3) or `dom`")
        if self.task_id is None and (self.query is None or not self.query.strip()):
            raise ValueError("`query` (the goal) is required when starting a task (no taskId)")
        return self

    def last_action_error_text(self) -> str | None:
        err = self.last_action_error
        if err is None or isinstance(err, str):
            return err
        return str(err.get("message") or err)


class ActionDetailsOut(ApiModel):
    """The action as data: what an extension dispatches on, instead of parsing `action`."""

    name: str = Field(
        description="click, setValue, select, scroll, press, hover, navigate, goBack, wait, googleSearch, finish or fail"
    )
    target: str | None = Field(default=None, description="The element id (`i` of the V3 tree, `data-llm-id` in HTML)")
    value: str | None = Field(
        default=None, description="Text to type, option to select, key, URL, direction, search query, or the reason of fail()"
    )
    seconds: float | None = Field(default=None, description="How long wait() waits")

    @classmethod
    def of(cls, action: str) -> ActionDetailsOut | None:
        try:
            parsed = parse_action(action)
        except ActionSyntaxError:
            return None
        return cls(name=parsed.name, target=parsed.target, value=parsed.value, seconds=parsed.seconds)


class ChainActionOut(ApiModel):
    action: str
    action_details: ActionDetailsOut | None = None
    description: str
    index: int
    can_fail: bool = False


class ChainMetadataOut(ApiModel):
    total_actions: int
    estimated_duration: float | None = None
    safe_to_chain: bool


class VerificationOut(ApiModel):
    """The verdict on the previous action."""

    success: bool
    confidence: float
    goal_achieved: bool | None
    action_succeeded: bool
    task_completed: bool
    reason: str
    observations: list[str]
    tier: int = Field(description="1 = deterministic (no model), 2 = short verdict, 3 = full verdict")
    tokens_saved: int
    decided_by: str
    error_category: str | None = None


class EvidenceOut(ApiModel):
    step: int | None = Field(description="The step whose action or page showed it")
    observation: str = Field(description="What was seen, in words")
    element: str | None = Field(default=None, description="The element, described: role, name, and its row or section")
    value: str | None = None


class ClauseOut(ApiModel):
    id: str
    kind: str = Field(description="field_value, choice, control, activated, message, shown, url or presence")
    mode: Literal["state", "event"] = Field(description="state: must hold now; event: must have happened during the task")
    description: str
    target: str | None = Field(default=None, description="The element the clause is about, described")
    value: str | None = None
    source: Literal["policy", "model"]
    status: Literal["pending", "holds", "failed"]
    detail: str = Field(description="Why the clause is in this state")
    unproven: bool = Field(description="Its work was done and verified, but the page shows no result to prove it")
    evidence: EvidenceOut | None = None
    read: EvidenceOut | None = Field(
        default=None,
        description="When the goal points at a value instead of giving it ('copy the text of the 2nd text area'): "
        "the value read on the page, from which element, on which step",
    )


class ContractOut(ApiModel):
    """What "done" means for this task, checked by Stepwise on the page: ``status`` is
    ``completed`` exactly when ``satisfied`` is true."""

    satisfied: bool = Field(description="Every clause holds (and the contract covers the whole goal)")
    complete: bool = Field(description="Every value, name and content word of the goal is bound to a clause")
    source: Literal["policy", "model", "merged"]
    unaccounted: list[str] = Field(description="Words of the goal no clause accounts for")
    unverifiable: list[str] = Field(
        default_factory=list,
        description="Parts of the goal carried out that the page cannot prove (how long a wait really was): "
        "while any is listed the task ends needs_confirmation, never completed",
    )
    clauses: list[ClauseOut]


class PlanStepOut(ApiModel):
    index: int
    description: str
    status: str


class PlanOut(ApiModel):
    steps: list[PlanStepOut]
    current_step_index: int


class UsageOut(ApiModel):
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0


class MetricsOut(ApiModel):
    server_ms: float
    model_ms: float = 0.0
    steps: int


class InteractResponse(ApiModel):
    thought: str
    action: str = Field(description='The next action in the action grammar, e.g. click("4"); empty when there is none')
    action_details: ActionDetailsOut | None = Field(
        default=None, description="`action` as structured data (null when there is no action)"
    )
    actions: list[ChainActionOut] | None = None
    chain_metadata: ChainMetadataOut | None = None
    task_id: str | None = Field(description="Send it back with the next request (null when no task was created)")
    session_id: str
    status: TaskStatusOut
    failure_code: str | None = Field(
        default=None,
        description="Why a failed task ended (e.g. GOAL_NOT_UNDERSTOOD, NEEDS_MODEL, GOAL_NOT_MET, LOOP_DETECTED); null otherwise",
    )
    step_index: int
    decided_by: Literal["policy", "model"]
    plan: PlanOut | None = None
    contract: ContractOut | None = Field(
        default=None, description="The goal contract and each clause's state (null when no task was created)"
    )
    verification: VerificationOut | None = None
    expected_outcome: dict[str, Any] | None = None
    usage: UsageOut = Field(default_factory=UsageOut)
    metrics: MetricsOut
    needs_user_input: dict[str, Any] | None = None
    needs_full_dom: bool = False
    has_org_knowledge: bool = False
    replayed: bool = Field(
        default=False, description="True when this answers a re-sent request with the answer already given for its step"
    )
