"""First requests that arrive twice: the ``Idempotency-Key`` header.

A client whose answer was lost (a dropped connection, a killed worker) re-sends its
request. A continuation is recognised by ``stepIndex`` (agent.replay); a first request has
no task yet, so without a key its re-send would start a second task. With a key the
request is handled the way payment APIs handle a retried charge (IETF httpapi
Idempotency-Key draft, Stripe):

* the key is claimed for (tenant, user) together with the request's fingerprint before any
  work; the claim is completed by the same transaction that stores the step it answers
  (``FinalizeBatch.idempotency``) — never a step without its key, nor the reverse;
* the same key with the same request later: the stored answer, nothing runs
  (``Idempotent-Replayed: true``);
* the same key with another request: IDEMPOTENCY_KEY_REUSED (422);
* the same key while its first request still runs: IDEMPOTENCY_KEY_IN_FLIGHT (409, with
  Retry-After); a claim whose worker died is taken over once its lease ends;
* an answer no step holds (a question to the user) is kept with the key, its secrets masked;
* a request that ends in an error keeps nothing: the key is released, a retry runs again;
* keys expire (``idempotency_ttl_seconds``, 24 h).
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

import structlog

from agent.context import AgentDeps, RequestContext
from agent.errors import IdempotencyKeyInFlight, IdempotencyKeyReused
from agent.inputs import IdempotencyKey, InteractOutcome
from observability import redact
from storage import IdempotencyCompletion, IdempotencyRecord

log = structlog.get_logger(__name__)

# A step takes seconds: retry an in-flight key this soon, not when its (long) lease ends.
_RETRY_AFTER_SECONDS = 2
# The InteractOutcome fields kept for an answer no step holds (a question to the user).
_KEPT = ("task_id", "session_id", "status", "step_index", "thought", "action", "decided_by", "needs_user_input")


async def claim_key(key: IdempotencyKey, ctx: RequestContext, deps: AgentDeps) -> tuple[IdempotencyRecord | None, IdempotencyRecord | None]:
    """``(claim, None)``: this request now holds the key and runs; ``(None, held)``: the request
    that used the key first was answered, ``held`` says where that answer is. Raises
    IdempotencyKeyReused / IdempotencyKeyInFlight."""
    now = deps.now()
    config = deps.config
    claim = IdempotencyRecord(
        tenant_id=ctx.tenant_id,
        user_id=ctx.user_id,
        key=key.key,
        fingerprint=key.fingerprint,
        locked_until=now + timedelta(seconds=config.idempotency_lease_seconds),
        created_at=now,
        expires_at=now + timedelta(seconds=config.idempotency_ttl_seconds),
    )
    held = await deps.store.idempotency.claim(claim, now)
    if held is None:
        return claim, None
    if held.fingerprint != key.fingerprint:
        raise IdempotencyKeyReused(
            "This Idempotency-Key was used with another request; use a new key for a new request",
            details={"idempotencyKey": key.key},
        )
    if held.state == "in_flight":
        wait = max(1, math.ceil((held.locked_until - now).total_seconds()))
        raise IdempotencyKeyInFlight(
            "The request that first used this Idempotency-Key is still being answered; retry later",
            details={"idempotencyKey": key.key, "retryAfterSeconds": min(wait, _RETRY_AFTER_SECONDS)},
        )
    log.info("interact.idempotent_replay", task_id=held.task_id, step_index=held.step_index)
    return None, held


def answer_without_step(held: IdempotencyRecord) -> InteractOutcome:
    """The kept answer of a key whose request stored no step (``held.task_id`` is None)."""
    kept = {name: value for name, value in (held.response or {}).items() if name in _KEPT}
    return InteractOutcome(**kept, replayed=True, idempotent_replay=True)


def completion(claim: IdempotencyRecord, task_id: str, step_index: int) -> IdempotencyCompletion:
    """What completes ``claim`` in the transaction that stores step ``step_index``."""
    return IdempotencyCompletion(
        tenant_id=claim.tenant_id, user_id=claim.user_id, key=claim.key, token=claim.token, task_id=task_id, step_index=step_index
    )


async def keep_answer(claim: IdempotencyRecord, outcome: InteractOutcome, deps: AgentDeps) -> None:
    """Keep ``outcome`` with the key when no step holds it (a question to the user, the
    confirmation question asked again, a declined action), its secrets as placeholders. After a
    step the claim is already completed by ``finalize``, and this changes nothing."""
    kept = redact({name: value for name, value in _fields(outcome).items() if name in _KEPT})
    done = IdempotencyCompletion(tenant_id=claim.tenant_id, user_id=claim.user_id, key=claim.key, token=claim.token, response=kept)
    await deps.store.idempotency.complete(done)


async def release(claim: IdempotencyRecord, deps: AgentDeps) -> None:
    """Free the key of a request that ends without an answer to keep (an error)."""
    await deps.store.idempotency.release(claim.tenant_id, claim.user_id, claim.key, claim.token)


def _fields(outcome: InteractOutcome) -> dict[str, Any]:
    return {name: getattr(outcome, name) for name in outcome.__dataclass_fields__}
