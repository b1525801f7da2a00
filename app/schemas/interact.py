"""Request and response bodies of ``POST /api/agent/interact`` (the extension contract).

Unknown top-level fields are ignored so that a newer extension keeps working against an
older server; every known field is typed and validated.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Field, field_validator, model_validator

from app.schemas.common import MAX_FREE_JSON_DEPTH, ApiModel, FreeJson
from app.schemas.grammar import ACTION_GRAMMAR, URL_PATTERN
from verification import ActionSyntaxError, parse_action, web_url
from verification.actions import ActionName

DomMode = Literal["semantic_v3", "semantic", "skeleton", "hybrid", "full"]
TaskStatusOut = Literal["active", "completed", "failed", "needs_confirmation", "interrupted", "needs_user_input"]


class SemanticNodeV3(ApiModel):
    """One interactive element of the V3 tree (minified keys)."""

    i: str = Field(min_length=1, description="Element id, used in actions: click(i); a number is read as its text; not blank")
    r: str | None = Field(default=None, description="Role: btn, inp, link, chk, sel, …")
    n: str | None = Field(default=None, description="Visible name/label")
    v: str | None = Field(default=None, description="Current value (inputs)")
    s: str | list[str] | None = Field(default=None, description="State: disabled, checked, expanded")
    xy: list[float] | None = Field(
        default=None, min_length=2, max_length=2, description="Centre of the element, [x, y] in CSS pixels of the viewport"
    )
    f: int | None = Field(default=None, ge=0, description="Frame id (0 = main frame)")
    box: list[float] | None = Field(
        default=None, min_length=4, max_length=4, description="Bounding box, [x, y, width, height] in CSS pixels of the viewport"
    )
    scr: FreeJson | None = Field(
        default=None,
        description=f"Scrollable container info (free JSON, nested at most {MAX_FREE_JSON_DEPTH} levels)",
    )
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
    """The tab's viewport."""

    width: int = Field(ge=0, description="CSS pixels")
    height: int = Field(ge=0, description="CSS pixels")


class ClientObservationsIn(ApiModel):
    """What the extension itself saw while it executed the previous action: a witness the
    verifier weighs with the page diff (a click that only fired a request leaves the DOM alike)."""

    did_network_occur: bool | None = Field(default=None, description="A fetch/XHR ran after the action")
    did_dom_mutate: bool | None = Field(default=None, description="A MutationObserver saw the DOM change")
    did_url_change: bool | None = Field(default=None, description="The tab's URL changed (also single-page navigation)")


class ChainPartialState(ApiModel):
    """How far the client got through a chain of actions (`actions`) before it stopped."""

    executed_actions: list[str] = Field(
        default_factory=list, description="The chain's actions the client executed, in order, in the action grammar"
    )
    dom_after_last_success: str | None = Field(default=None, description="HTML after the last action that succeeded")
    total_actions_in_chain: int = Field(ge=1, description="How many actions the chain had")


class InteractRequest(ApiModel):
    url: str = Field(
        min_length=1,
        max_length=8192,
        description="The tab's URL: an http(s) URL with a host, as the browser reads it (WHATWG); file:, data:, "
        "about:, chrome: … are refused with 422 VALIDATION_FAILED",
        json_schema_extra={"format": "uri", "pattern": URL_PATTERN},
    )
    query: str | None = Field(
        default=None,
        description="The user's goal in plain words; required (not blank) when starting a task (no taskId), ignored "
        "on a continuation. Longer than STEPWISE_MAX_QUERY_CHARS (2000) is a 422 LIMIT_EXCEEDED",
    )
    dom: str | None = Field(
        default=None,
        description="HTML snapshot with `data-llm-id` on interactive elements (legacy, or when the server asked for "
        "it with needsFullDom). Send `interactiveTree`, `dom` or both. Over STEPWISE_MAX_DOM_CHARS (2 000 000) is a "
        "413 LIMIT_EXCEEDED; nested deeper than 1000 levels a 422 INVALID_PAGE",
    )
    dom_mode: DomMode | None = Field(default=None, description="How the client built the page it sends (informational)")
    interactive_tree: list[SemanticNodeV3] | None = Field(
        default=None,
        description="The page as the V3 list of interactive elements (client/page_script). At most "
        "STEPWISE_MAX_TREE_NODES (3000) nodes, else 413 LIMIT_EXCEEDED",
    )
    viewport: Viewport | None = Field(default=None, description="The tab's viewport size")
    page_title: str | None = Field(default=None, max_length=2000, description="document.title")
    scroll_position: str | None = Field(default=None, description="Scroll offset as the client reports it (informational)")
    scrollable_containers: list[FreeJson] | None = Field(
        default=None, description="Scrollable containers the client found (free JSON objects, informational)"
    )
    recent_events: list[str] | None = Field(
        default=None, description="Page events since the previous action (dialog opened, toast shown …), in words"
    )
    has_errors: bool | None = Field(default=None, description="The client sees an error message on the page")
    has_success: bool | None = Field(default=None, description="The client sees a success message on the page")
    verification_passed: bool | None = Field(
        default=None,
        validation_alias=AliasChoices("verification_passed", "verificationPassed"),
        description="The client's own check of the previous action passed (a hint; Stepwise verifies on the page)",
    )
    errors_detected: list[str] | None = Field(
        default=None,
        validation_alias=AliasChoices("errors_detected", "errorsDetected"),
        description="Error messages the client read on the page",
    )
    success_messages: list[str] | None = Field(
        default=None,
        validation_alias=AliasChoices("success_messages", "successMessages"),
        description="Success messages the client read on the page",
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
    skeleton_dom: str | None = Field(default=None, description="A reduced HTML skeleton (accepted, not read yet)")
    screenshot: str | None = Field(default=None, description="A base64 screenshot (accepted, not read yet)")
    screenshot_hash: str | None = Field(default=None, description="Hash of the screenshot (accepted, not read yet)")

    task_id: str | None = Field(
        default=None,
        max_length=64,
        description="`taskId` of the previous answer: continue that task. Absent: start a new task from `query`. "
        "Unknown (or another tenant's) is a 404 TASK_NOT_FOUND; a finished task a 409 TASK_FINISHED",
    )
    session_id: str | None = Field(
        default=None,
        max_length=64,
        description="`sessionId` of a previous answer (or POST /api/session): keeps tasks and messages together. "
        "Absent on a first request: a session is created. Unknown is a 404 SESSION_NOT_FOUND",
    )
    previous_url: str | None = Field(default=None, max_length=8192, description="The tab's URL before the previous action")
    last_action_status: Literal["success", "failure", "pending"] | None = Field(
        default=None, description="How executing the previous answer's action went, as the client saw it"
    )
    last_action_error: str | FreeJson | None = Field(
        default=None, description="Why the previous action failed in the client: text, or an object with `message`"
    )
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
    chain_partial_state: ChainPartialState | None = Field(
        default=None, description="How far a chain of actions got; sent with `lastExecutedActionIndex`"
    )
    client_observations: ClientObservationsIn | None = Field(
        default=None, description="What the client saw while executing the previous action"
    )

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

    name: ActionName = Field(description="The action: what the extension dispatches on")
    target: str | None = Field(default=None, description="The element id (`i` of the V3 tree, `data-llm-id` in HTML)")
    value: str | None = Field(
        default=None, description="Text to type, option to select, key, URL, direction, search query, or the reason of fail()"
    )
    seconds: float | None = Field(default=None, ge=0, description="How long wait() waits, in seconds (wait only)")

    @classmethod
    def of(cls, action: str) -> ActionDetailsOut | None:
        try:
            parsed = parse_action(action)
        except ActionSyntaxError:
            return None
        return cls(name=parsed.name, target=parsed.target, value=parsed.value, seconds=parsed.seconds)


class ChainActionOut(ApiModel):
    """One action of a chain (Stepwise does not send chains yet; the shape is fixed)."""

    action: str = Field(description="The action in the action grammar")
    action_details: ActionDetailsOut | None = Field(default=None, description="`action` as structured data")
    description: str = Field(description="What the action does, in words")
    index: int = Field(ge=0, description="Position in the chain, from 0")
    can_fail: bool = Field(default=False, description="The chain goes on when this action fails")


class ChainMetadataOut(ApiModel):
    total_actions: int = Field(ge=1, description="How many actions the chain has")
    estimated_duration: float | None = Field(default=None, description="Seconds the chain should take, when known")
    safe_to_chain: bool = Field(description="The actions may run without a round trip between them")


class VerificationOut(ApiModel):
    """The verdict on the previous action."""

    success: bool = Field(description="The previous action did what it was meant to")
    confidence: float = Field(ge=0, le=1, description="How sure the verdict is, 0-1")
    goal_achieved: bool | None = Field(description="The page shows the goal met (null: not judged at this step)")
    action_succeeded: bool = Field(description="The action itself took effect (the page changed as expected)")
    task_completed: bool = Field(description="The task is done; the answer's `status` is what counts")
    reason: str = Field(description="Why, in words")
    observations: list[str] = Field(description="What changed on the page, in words")
    tier: int = Field(ge=1, le=3, description="1 = deterministic (no model), 2 = short verdict, 3 = full verdict")
    tokens_saved: int = Field(ge=0, description="Model tokens a deterministic verdict saved")
    decided_by: str = Field(description="rules, model or synthetic (no previous action to verify)")
    error_category: str | None = Field(default=None, description="The kind of failure, when it failed")


class EvidenceOut(ApiModel):
    step: int | None = Field(description="The step whose action or page showed it")
    observation: str = Field(description="What was seen, in words")
    element: str | None = Field(default=None, description="The element, described: role, name, and its row or section")
    value: str | None = Field(default=None, description="The value seen (a field's text, a selected option)")


class ClauseOut(ApiModel):
    id: str = Field(description="Stable within the task")
    kind: str = Field(description="field_value, choice, control, activated, message, shown, url or presence")
    mode: Literal["state", "event"] = Field(description="state: must hold now; event: must have happened during the task")
    description: str = Field(description="What must be true, in words")
    target: str | None = Field(default=None, description="The element the clause is about, described")
    value: str | None = Field(default=None, description="The value the clause expects, when it expects one")
    source: Literal["policy", "model"] = Field(description="Who derived it from the goal: the rule-based policy or the model")
    status: Literal["pending", "holds", "failed"] = Field(description="pending: not yet shown; holds: shown; failed: cannot hold")
    detail: str = Field(description="Why the clause is in this state")
    unproven: bool = Field(description="Its work was done and verified, but the page shows no result to prove it")
    evidence: EvidenceOut | None = Field(default=None, description="What showed the clause holds, once it does")
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
    source: Literal["policy", "model", "merged"] = Field(description="Who derived the clauses from the goal")
    unaccounted: list[str] = Field(description="Words of the goal no clause accounts for")
    unverifiable: list[str] = Field(
        default_factory=list,
        description="Parts of the goal carried out that the page cannot prove (how long a wait really was): "
        "while any is listed the task ends needs_confirmation, never completed",
    )
    clauses: list[ClauseOut] = Field(description="What must hold on the page for the task to be completed")


class PlanStepOut(ApiModel):
    index: int = Field(ge=0, description="Position in the plan, from 0")
    description: str = Field(description="What the step does, in words")
    status: str = Field(description="pending, in_progress, completed, failed or skipped")


class PlanOut(ApiModel):
    """The steps Stepwise reads the goal into."""

    steps: list[PlanStepOut] = Field(description="In order")
    current_step_index: int = Field(ge=0, description="The step being worked on")


class UsageOut(ApiModel):
    """Model use of this request (all zero on the deterministic path and on a replay)."""

    model_calls: int = Field(default=0, ge=0, description="Model calls this request made")
    input_tokens: int = Field(default=0, ge=0, description="Prompt tokens")
    output_tokens: int = Field(default=0, ge=0, description="Completion tokens")
    cost_usd: float | None = Field(default=0.0, description="USD; null when a model's price is unknown")


class MetricsOut(ApiModel):
    server_ms: float = Field(ge=0, description="Time the server spent on this request, ms")
    model_ms: float = Field(default=0.0, ge=0, description="Of which waiting for the model, ms")
    steps: int = Field(ge=1, description="Steps of the task so far, this one included (`stepIndex` + 1)")


class InteractResponse(ApiModel):
    thought: str = Field(description="Why this action (or why the task ended), in words, for the user")
    action: str = Field(
        description="The next action to execute, in the action grammar; empty when there is none (a question to the "
        "user). " + ACTION_GRAMMAR
    )
    action_details: ActionDetailsOut | None = Field(
        default=None, description="`action` as structured data (null when there is no action)"
    )
    actions: list[ChainActionOut] | None = Field(
        default=None, description="A chain of actions to run in a row; null (Stepwise answers one action at a time)"
    )
    chain_metadata: ChainMetadataOut | None = Field(default=None, description="About `actions`; null without a chain")
    task_id: str | None = Field(description="Send it back with the next request (null when no task was created)")
    session_id: str = Field(description="Send it back with the next request (also the first of a new task)")
    status: TaskStatusOut = Field(
        description="active: execute `action` and send the page again · completed: the goal contract holds on the page "
        "(the only way a task completes) · failed: see `failureCode` · needs_confirmation: the work was done but "
        "the page cannot prove it; ask the user · needs_user_input: a question, no task · interrupted: idle too long"
    )
    failure_code: str | None = Field(
        default=None,
        description="Why a failed task ended (e.g. GOAL_NOT_UNDERSTOOD, NEEDS_MODEL, GOAL_NOT_MET, LOOP_DETECTED); null otherwise",
    )
    step_index: int = Field(
        ge=0, description="This answer's step, from 0; echo it as `stepIndex` with the request that reports on its action"
    )
    decided_by: Literal["policy", "model"] = Field(description="Who chose the action: the rule-based policy or the model")
    plan: PlanOut | None = Field(default=None, description="The plan, when the goal has several steps")
    contract: ContractOut | None = Field(
        default=None, description="The goal contract and each clause's state (null when no task was created)"
    )
    verification: VerificationOut | None = Field(
        default=None, description="The verdict on the previous action (null on the first step)"
    )
    expected_outcome: dict[str, Any] | None = Field(
        default=None, description="What the page should show after the action (free JSON, camelCase keys)"
    )
    usage: UsageOut = Field(default_factory=UsageOut, description="Model use of this request")
    metrics: MetricsOut = Field(description="Timings")
    needs_user_input: dict[str, Any] | None = Field(
        default=None,
        description="With status needs_user_input: `message` (the question) and `missing` (what the goal lacks); "
        "send the answer as a new `query`",
    )
    needs_full_dom: bool = Field(default=False, description="Send `dom` (full HTML) with the next request")
    has_org_knowledge: bool = Field(default=False, description="Knowledge of the tenant's site was used")
    replayed: bool = Field(
        default=False, description="True when this answers a re-sent request with the answer already given for its step"
    )
