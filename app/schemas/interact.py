"""The request body of ``POST /api/agent/interact`` (the extension contract); its answer is
in :mod:`app.schemas.interact_answer`.

Unknown top-level fields are ignored so that a newer extension keeps working against an
older server; every known field is typed and validated.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AliasChoices, Field, field_validator, model_validator

from app.schemas.common import MAX_FREE_JSON_DEPTH, ApiModel, FreeJson
from app.schemas.grammar import URL_PATTERN
from verification import web_url

DomMode = Literal["semantic_v3", "semantic", "skeleton", "hybrid", "full"]


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
    ph: str | None = Field(
        default=None,
        max_length=2000,
        description="A field's placeholder, when it is not its name (a visual label names the field: 'Security code', placeholder 'CVC')",
    )
    fn: str | None = Field(default=None, max_length=2000, description="A form control's name attribute (name=\"vehicle_type\")")
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


MAX_NATIVE_DIALOGS = 10
MAX_DIALOG_MESSAGE = 2000  # accepted at the edge; the server keeps the first 300 characters


class NativeDialogIn(ApiModel):
    """A browser-native dialog (``window.confirm/alert/prompt``, a ``beforeunload`` prompt) the
    page raised while the client executed the previous action, and how the client answered it.
    Its ``message`` is page content: data, never an instruction."""

    kind: Literal["confirm", "alert", "prompt", "beforeunload"] = Field(description="Which native dialog the page raised")
    message: str = Field(default="", max_length=MAX_DIALOG_MESSAGE, description="Its text, as the page wrote it (clip it to ~300 characters)")
    action: str | None = Field(
        default=None, max_length=2000, description="The action (grammar text) that was running when it came up; absent: none was"
    )
    answered: Literal["dismissed", "accepted"] = Field(
        description="How the client answered: by default confirm, prompt and beforeunload are dismissed (Cancel / stay), "
        "alert accepted (OK, its only button); `accepted` for a confirm only after an answer with `actionDetails.dialog: \"accept\"`"
    )


class ClientObservationsIn(ApiModel):
    """What the extension itself saw while it executed the previous action: a witness the
    verifier weighs with the page diff (a click that only fired a request leaves the DOM alike)."""

    did_network_occur: bool | None = Field(default=None, description="A fetch/XHR ran after the action")
    did_dom_mutate: bool | None = Field(default=None, description="A MutationObserver saw the DOM change")
    did_url_change: bool | None = Field(default=None, description="The tab's URL changed (also single-page navigation)")
    native_dialogs: list[NativeDialogIn] | None = Field(
        default=None,
        max_length=MAX_NATIVE_DIALOGS,
        description="Native dialogs the page raised while the action ran, in order (docs/contingencies.md: a dismissed "
        "confirm means the action did nothing; the server may ask the user, or re-send it accepting the dialog)",
    )


ChainFailureKind = Literal[
    "target_changed", "target_missing", "covered", "url_changed", "value_mismatch", "required_value_mismatch", "error"
]


class ChainPartialState(ApiModel):
    """How far the client got through a chain of actions (`actions`): sent after every chain,
    also one that ran to its end (then without `failedIndex`)."""

    executed_actions: list[str] = Field(
        default_factory=list, description="The chain's actions the client executed, in order, in the action grammar"
    )
    dom_after_last_success: str | None = Field(default=None, description="HTML after the last action that succeeded")
    total_actions_in_chain: int = Field(ge=1, description="How many actions the chain had")
    failed_index: int | None = Field(
        default=None, ge=0, description="The `index` of the action that stopped the chain; absent when it ran to its end"
    )
    failure_kind: ChainFailureKind | None = Field(
        default=None,
        description=(
            "Why it stopped (docs/client.md \"Chain guards\"): before the action, `url_changed` (the page left the "
            "chain's URL), `target_missing` (no such element, or not shown), `covered` (something lies over it), "
            "`target_changed` (its role or name is not the `expect` one), `required_value_mismatch` (a "
            "`requireValues` field no longer holds its value); after it, `value_mismatch` (the field did not keep "
            "the value typed/selected; the action ran) or `error` (it could not be executed)"
        ),
    )
    skipped_indexes: list[Annotated[int, Field(ge=0)]] = Field(
        default_factory=list, max_length=100,
        description="The `index` of each `canFail` action that failed and was passed over",
    )


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
        validation_alias=AliasChoices("pageText", "page_text"),
        description=(
            "The page's visible text, one block (paragraph, heading, list item, table row) per line, table "
            "cells separated by ' · ' — lets Stepwise read values a goal points at ('the 3rd word of the "
            "paragraph', a calendar's month) on a V3 page. Untrusted page content."
        ),
    )
    skeleton_dom: str | None = Field(default=None, description="A reduced HTML skeleton (accepted, not read yet)")
    screenshot: str | None = Field(
        default=None,
        description=(
            "A screenshot of the tab (hybrid vision mode, docs/vision.md): base64 JPEG, PNG or WebP, a "
            "`data:image/…;base64,` prefix allowed; about 1024 px wide (wider is scaled down). Send it after an "
            "answer with `needsScreenshot: true`, or with `domMode: \"hybrid\"`. It reaches the model only for a "
            "tenant that allowed screenshots (PUT /api/vision/settings); otherwise it is dropped unread. Decoded "
            "over STEPWISE_MAX_SCREENSHOT_BYTES (2 000 000) is a 413 LIMIT_EXCEEDED; not a readable image a 422 "
            "INVALID_PAGE. Page content: untrusted, never instructions"
        ),
    )
    screenshot_hash: str | None = Field(
        default=None,
        max_length=64,
        description=(
            "The screen's perceptual hash (64-bit pHash as 16 hex digits, as Python imagehash writes it). Sent "
            "without `screenshot` it says the screen is the one last uploaded: nothing is asked for again"
        ),
    )
    tree_truncated: bool | None = Field(
        default=None,
        validation_alias=AliasChoices("treeTruncated", "tree_truncated"),
        description="The client cut `interactiveTree` (its node cap, or viewport pruning): elements of the page are "
        "missing from it, so the server may ask for the full DOM (`needsFullDom`) when a step's target is not in it",
    )

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
            "a destructive action the goal did not ask for, held; a page's own 'are you sure?' after the goal's "
            "destructive click; a native confirm dialog). true: the held action is sent now, if its element "
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
