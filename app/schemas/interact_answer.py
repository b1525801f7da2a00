"""The answer of ``POST /api/agent/interact``: the next action (as text and as data), the
task's state, its contract and the verdict on the previous action."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from app.schemas.common import ApiModel
from app.schemas.grammar import ACTION_GRAMMAR
from verification import ActionSyntaxError, parse_action
from verification.actions import ActionName

TaskStatusOut = Literal["active", "completed", "failed", "needs_confirmation", "interrupted", "needs_user_input"]


class ActionDetailsOut(ApiModel):
    """The action as data: what an extension dispatches on, instead of parsing `action`."""

    name: ActionName = Field(description="The action: what the extension dispatches on")
    target: str | None = Field(default=None, description="The element id (`i` of the V3 tree, `data-llm-id` in HTML)")
    value: str | None = Field(
        default=None, description="Text to type, option to select, key, URL, direction, search query, or the reason of fail()"
    )
    seconds: float | None = Field(default=None, ge=0, description="How long wait() waits, in seconds (wait only)")
    dialog: Literal["accept"] | None = Field(
        default=None,
        description="`accept`: a native confirm() this action raises is to be ACCEPTED (OK), for this action only — "
        "sent after the user confirmed it, or once for a harmless confirm of an action the goal asks for. "
        "Absent: answer native dialogs the safe way (dismiss confirm/prompt/beforeunload, accept alert)",
    )

    @model_serializer(mode="wrap")
    def _dialog_only_when_set(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        """``dialog`` is left out unless it says ``accept`` (older clients never see it). No
        return annotation: the OpenAPI schema stays the model's own."""
        data: dict[str, Any] = handler(self)
        if data.get("dialog") is None:
            data.pop("dialog", None)
        return data

    @classmethod
    def of(cls, action: str, dialog: Literal["accept"] | None = None) -> ActionDetailsOut | None:
        try:
            parsed = parse_action(action)
        except ActionSyntaxError:
            return None
        return cls(name=parsed.name, target=parsed.target, value=parsed.value, seconds=parsed.seconds, dialog=dialog)


class ExpectOut(ApiModel):
    """The target as Stepwise saw it when it chained the action: the client checks the element
    still is this one before acting (role as an ARIA role name; names compared case- and
    space-insensitively)."""

    role: str = Field(description="ARIA role: button, textbox, checkbox, radio, combobox, …")
    name: str = Field(description="Accessible name, as the page gave it")


class RequiredValueOut(ApiModel):
    target: str = Field(description="Element id")
    value: str | None = Field(default=None, description="A field: the value it must still hold (trimmed) before the action runs")
    checked: bool | None = Field(default=None, description="A checkbox, radio or switch: whether it must be checked")


class ChainActionOut(ApiModel):
    """One action of a chain. Run them in ``index`` order with the guards of docs/client.md
    (target unchanged, URL unchanged, nothing covering it, values read back) and stop at the
    first that fails, unless it ``canFail``."""

    action: str = Field(description="The action in the action grammar")
    action_details: ActionDetailsOut | None = Field(default=None, description="`action` as structured data")
    description: str = Field(description="What the action does, in words")
    index: int = Field(ge=0, description="Position in the chain, from 0")
    can_fail: bool = Field(default=False, description="The chain goes on when this action fails")
    expect: ExpectOut | None = Field(default=None, description="The target's role and name; null for an action without a target")
    require_values: list[RequiredValueOut] = Field(
        default_factory=list, description="Values the client re-reads just before this action (a commit's fields); any mismatch stops the chain"
    )
    commit: bool = Field(default=False, description="This last action submits or saves what the chain filled")


class ChainMetadataOut(ApiModel):
    total_actions: int = Field(ge=1, description="How many actions the chain has")
    estimated_duration: float | None = Field(default=None, description="Milliseconds the chain should take, when known")
    safe_to_chain: bool = Field(description="The actions may run without a round trip between them")


class ChainCheckOut(ApiModel):
    index: int = Field(ge=0, description="The action's position in the chain")
    action: str = Field(description="The action, in the action grammar")
    status: Literal["verified", "failed", "unproven", "not_run", "skipped"] = Field(
        description="verified: the page shows it took effect · failed: the page shows it did not, or the client "
        "stopped there · unproven: nothing on the page can show it · not_run: the chain stopped before it · "
        "skipped: it failed and could (canFail)"
    )
    reason: str = Field(description="Why, in words")


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
    chain: list[ChainCheckOut] | None = Field(
        default=None, description="When the previous answer was a chain: each of its actions as the page shows it"
    )


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
    awaiting: str | None = Field(
        default=None,
        description="The page asks to confirm this clause's action with the control of this label "
        "(a destructive click answered by 'Are you sure?'): the clause holds only once that control is clicked and verified",
    )
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


class SubTaskOut(ApiModel):
    """One part of a multi-part goal and where it stands (docs/planner.md § 7)."""

    index: int = Field(ge=0, description="Position among the sub-tasks, from 0")
    goal: str = Field(description="What the part achieves")
    first_step: int = Field(ge=0, description="Its first plan step")
    last_step: int = Field(ge=0, description="Its last plan step (inclusive)")
    status: Literal["pending", "active", "completed", "failed"] = Field(description="completed only once the page showed its condition")
    actions_used: int = Field(ge=0, description="Actions taken while it was active")
    budget: int = Field(ge=1, description="Most actions it may take")
    evidence: list[str] = Field(default_factory=list, description="What the page showed for its condition (or what is missing)")
    failure: str | None = Field(default=None, description="Why it failed")


class PlanOut(ApiModel):
    """The steps Stepwise reads the goal into."""

    steps: list[PlanStepOut] = Field(description="In order")
    current_step_index: int = Field(ge=0, description="The step being worked on")
    subtasks: list[SubTaskOut] = Field(default_factory=list, description="A multi-part goal's sub-tasks, in order; empty for a flat plan")


class UsageOut(ApiModel):
    """Model use of this request (all zero on the deterministic path and on a replay)."""

    model_calls: int = Field(default=0, ge=0, description="Model calls this request made")
    input_tokens: int = Field(default=0, ge=0, description="Prompt tokens")
    output_tokens: int = Field(default=0, ge=0, description="Completion tokens")
    image_tokens: int = Field(
        default=0, ge=0, description="Of `inputTokens`, those the model counted for screenshots (hybrid vision mode)"
    )
    cost_usd: float | None = Field(default=0.0, description="USD; null when a model's price is unknown")


class MemoryOut(ApiModel):
    """What memory did for this answer: whether its action was replayed from a verified flow
    (a recipe), and which skills (lessons of earlier corrections on this site) steered it."""

    replay: Literal["HIT", "MISS", "FALLBACK", "DISABLED"] = Field(
        description="HIT: the action is a recipe's step, re-identified on this page and sent with no model call · "
        "MISS: no recipe applied (see missReason) · FALLBACK: the task replays a recipe but this step was decided "
        "by the planner (the page differed) · DISABLED: replay is switched off"
    )
    miss_reason: str | None = Field(default=None, description="Why this answer is not a HIT; null on a HIT")
    skills_used: list[str] = Field(default_factory=list, description="Ids of the skills that steered this action (GET /api/skills/{id})")
    recipe_id: str | None = Field(default=None, description="The recipe replayed or considered (GET /api/recipes/{id})")
    recipe_step: int | None = Field(default=None, description="The recipe's step this answer served or tried, from 0")


class ContingencyOut(ApiModel):
    """A plan contingency this answer fired: something in the way on the page (an overlay,
    a cookie banner, an interstitial…) and the bounded handler that answers it — checked
    before correction and before any model. The overlay's own text is never followed."""

    id: str = Field(description="The contingency (builtin:<trigger> or model:<n>, one of the plan's)")
    trigger: str = Field(
        description="cookie_banner, modal, overlay, interstitial, session_expired, element_missing, confirm_destructive "
        "or native_confirm (a native window.confirm() the client reported dismissed)"
    )
    handler: str = Field(
        description="dismiss, reject_cookies, escape, wait, ask_user or accept_dialog (native_confirm: the action re-sent accepting it)"
    )
    source: str = Field(description="builtin or model (the model planner added it to its plan)")
    when: str = Field(description="first_page, before_action (an overlay came up after a verified step) or after_failure")
    action: str | None = Field(default=None, description="The handler's action (this answer's `action`); null when it asks the user")
    control: str | None = Field(default=None, description="The name of the overlay's control acted on, when there is one")


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
        default=None,
        description="A chain of actions to run in a row without a round trip (the first is `action`); null for a single "
        "action. Report how it went with `lastExecutedActionIndex` and `chainPartialState`",
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
    memory: MemoryOut | None = Field(
        default=None, description="What memory (skills, replay of verified flows) did for this answer; null for a question"
    )
    contingency: ContingencyOut | None = Field(
        default=None, description="The plan contingency this answer fired (an overlay dismissed…); null when none did"
    )
    metrics: MetricsOut = Field(description="Timings")
    needs_user_input: dict[str, Any] | None = Field(
        default=None,
        description="With status needs_user_input: `message` (the question) and `missing` (what the goal lacks); "
        "send the answer as a new `query`",
    )
    needs_full_dom: bool = Field(
        default=False,
        description="Send `dom` (the full HTML, `domMode: \"full\"`, with every element you can act on stamped with "
        "`data-llm-id`) with the next request: the step's target is not in `interactiveTree`. Asked at most "
        "STEPWISE_FULL_DOM_ASKS (2) times per task; the action is `wait(0.1)`",
    )
    needs_screenshot: bool = Field(
        default=False,
        description="Send `screenshot` with the next request: the goal depends on how the page looks (an icon, a "
        "colour, a corner…) and the model should see it. Only for tenants that allowed screenshots; asked at most "
        "STEPWISE_SCREENSHOT_ASKS (2) times per task; the action is `wait(0.1)`",
    )
    has_org_knowledge: bool = Field(
        default=False, description="The tenant's knowledge base gave this request something (it reaches prompts only as data)"
    )
    replayed: bool = Field(
        default=False, description="True when this answers a re-sent request with the answer already given for its step"
    )
