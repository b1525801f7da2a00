"""POST /api/agent/interact — parse, authorise, call the agent, map the answer."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Request, Response

import agent
from agent import InteractInput, InteractOutcome, PageInput
from agent.inputs import IdempotencyKey, NativeDialog
from app.json_body import JsonRoute
from app.deps import Deps, InteractContext, SettingsDep
from app.error_codes import AUTHENTICATED, JSON_BODY
from app.errors import error_responses
from app.idempotency import HEADER, HEADER_DESCRIPTION, KEY_PATTERN, MAX_KEY_LENGTH, REPLAYED_HEADER, fingerprint, parse_key
from app.limits import check_interact_limits, check_raw_tree
from app.schemas.common import camelize
from app.schemas.examples import REQUEST_EXAMPLES, RESPONSE_EXAMPLES
from app.schemas.interact import InteractRequest
from app.schemas.interact_answer import (
    ContingencyOut,
    ActionDetailsOut,
    ChainActionOut,
    ChainCheckOut,
    ChainMetadataOut,
    ContractOut,
    InteractResponse,
    MemoryOut,
    MetricsOut,
    PlanOut,
    PlanStepOut,
    SubTaskOut,
    UsageOut,
    VerificationOut,
)
from verification import ClientObservations

class _InteractRoute(JsonRoute):
    check_raw = staticmethod(check_raw_tree)


router = APIRouter(prefix="/api/agent", tags=["agent"], route_class=_InteractRoute)
_ERRORS = error_responses(
    *AUTHENTICATED,
    *JSON_BODY,
    "IDEMPOTENCY_KEY_INVALID",
    "MAX_STEPS_EXCEEDED",
    "TASK_NOT_FOUND",
    "SESSION_NOT_FOUND",
    "TASK_CONFLICT",
    "TASK_FINISHED",
    "IDEMPOTENCY_KEY_IN_FLIGHT",
    "LIMIT_EXCEEDED",
    "INVALID_PAGE",
    "IDEMPOTENCY_KEY_REUSED",
    "SERVICE_UNAVAILABLE",
    "SECRETS_UNREADABLE",
)


@router.post(
    "/interact",
    response_model=InteractResponse,
    response_model_by_alias=True,
    responses={
        200: {
            "description": "The next action, or the end of the task (status), and the verdict on the previous action",
            "content": {"application/json": {"examples": RESPONSE_EXAMPLES}},
            "headers": {
                REPLAYED_HEADER: {
                    "description": "`true` when this is the stored answer of an earlier request with the same "
                    "Idempotency-Key (nothing ran); absent otherwise",
                    "schema": {"type": "string", "enum": ["true"]},
                }
            },
        },
        **_ERRORS,
    },
    summary="Verify the previous action and return the next one",
)
async def interact(
    body: Annotated[InteractRequest, Body(openapi_examples=REQUEST_EXAMPLES)],
    request: Request,
    response: Response,
    ctx: InteractContext,
    deps: Deps,
    settings: SettingsDep,
    idempotency_key: Annotated[
        str | None,
        Header(
            alias=HEADER,
            description=HEADER_DESCRIPTION,
            # Documented, checked by parse_key (a typed 400 rather than a generic 422).
            json_schema_extra={"minLength": 1, "maxLength": MAX_KEY_LENGTH + 2, "pattern": KEY_PATTERN},
        ),
    ] = None,
) -> InteractResponse:
    check_interact_limits(body, settings)
    key = parse_key(idempotency_key)
    idempotency = None
    if key is not None:
        idempotency = IdempotencyKey(key, fingerprint(request.method, request.url.path, await request.json()))
    outcome = await agent.interact(_to_input(body, idempotency), ctx, deps)
    if outcome.idempotent_replay:
        response.headers[REPLAYED_HEADER] = "true"
    return _to_response(outcome)


def _to_input(body: InteractRequest, idempotency: IdempotencyKey | None = None) -> InteractInput:
    page = PageInput(
        url=body.url,
        title=body.page_title,
        dom=body.dom,
        # Validated nodes as plain mappings (absent keys are None, which the page model reads as absent).
        tree=[vars(node) for node in body.interactive_tree] if body.interactive_tree is not None else None,
        viewport=body.viewport.model_dump() if body.viewport else None,
        has_errors=body.has_errors,
        has_success=body.has_success,
        recent_events=tuple(body.recent_events or ()),
        verification_passed=body.verification_passed,
        errors_detected=tuple(body.errors_detected or ()),
        success_messages=tuple(body.success_messages or ()),
        text=body.page_text,
        mode=body.dom_mode,
        screenshot=body.screenshot,
        screenshot_hash=body.screenshot_hash,
        tree_truncated=bool(body.tree_truncated),
    )
    observations = None
    if body.client_observations is not None:
        observations = ClientObservations(**body.client_observations.model_dump(exclude={"native_dialogs"}))
    dialogs = tuple(
        NativeDialog.of(d.kind, d.message, d.action, d.answered)
        for d in ((body.client_observations.native_dialogs if body.client_observations is not None else None) or ())
    )
    chain = body.chain_partial_state
    return InteractInput(
        page=page,
        query=body.query,
        task_id=body.task_id,
        session_id=body.session_id,
        previous_url=body.previous_url,
        last_action_status=body.last_action_status,
        last_action_error=body.last_action_error_text(),
        last_executed_action_index=body.last_executed_action_index,
        step_index=body.step_index,
        confirm=body.confirm,
        chain_executed_actions=tuple(chain.executed_actions) if chain else (),
        chain_total_actions=chain.total_actions_in_chain if chain else None,
        chain_failed_index=chain.failed_index if chain else None,
        chain_failure_kind=chain.failure_kind if chain else None,
        chain_skipped=tuple(chain.skipped_indexes) if chain else (),
        client_observations=observations,
        idempotency=idempotency,
        native_dialogs=dialogs,
    )


def _to_response(outcome: InteractOutcome) -> InteractResponse:
    verification = None
    if outcome.verification is not None:
        v = outcome.verification
        verification = VerificationOut(
            success=v.success,
            confidence=v.confidence,
            goal_achieved=v.goal_achieved,
            action_succeeded=v.action_succeeded,
            task_completed=v.task_completed,
            reason=v.reason,
            observations=v.observations,
            tier=v.verification_tier,
            tokens_saved=v.tokens_saved,
            decided_by=v.decided_by,
            error_category=v.error_category,
            chain=[ChainCheckOut.model_validate(c.model_dump()) for c in v.chain] if v.chain is not None else None,
        )
    plan = None
    if outcome.plan:
        plan = PlanOut(
            steps=[PlanStepOut(**step) for step in outcome.plan.get("steps", [])],
            current_step_index=outcome.plan.get("current_step_index", 0),
            subtasks=[SubTaskOut.model_validate(part) for part in outcome.plan.get("subtasks", [])],
        )
    return InteractResponse(
        thought=outcome.thought,
        action=outcome.action,
        action_details=ActionDetailsOut.of(outcome.action, outcome.dialog) if outcome.action else None,
        actions=[_chain_action(item) for item in outcome.actions] if outcome.actions else None,
        chain_metadata=ChainMetadataOut.model_validate(outcome.chain_metadata) if outcome.chain_metadata else None,
        task_id=outcome.task_id,
        session_id=outcome.session_id,
        status=outcome.status,
        failure_code=outcome.failure_code,
        step_index=outcome.step_index,
        decided_by=outcome.decided_by,
        plan=plan,
        contract=ContractOut.model_validate(outcome.contract) if outcome.contract is not None else None,
        verification=verification,
        expected_outcome=camelize(outcome.expected_outcome),
        needs_user_input=outcome.needs_user_input,
        usage=UsageOut.model_validate(outcome.usage) if outcome.usage else UsageOut(),
        memory=MemoryOut.model_validate(outcome.memory) if outcome.memory else None,
        contingency=ContingencyOut.model_validate(outcome.contingency) if outcome.contingency else None,
        metrics=MetricsOut(server_ms=round(outcome.server_ms, 2), model_ms=round(outcome.model_ms, 2), steps=outcome.step_index + 1),
        has_org_knowledge=outcome.has_org_knowledge,
        replayed=outcome.replayed,
        needs_full_dom=outcome.needs_full_dom,
        needs_screenshot=outcome.needs_screenshot,
    )


def _chain_action(item: dict[str, Any]) -> ChainActionOut:
    return ChainActionOut.model_validate({**item, "action_details": ActionDetailsOut.of(item["action"])})
