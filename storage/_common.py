"""Rules both backends share, so that they behave the same by construction.

Nothing here touches a database: time normalisation, batch checks, search terms, the
rate-limit window and the skill ranking are plain functions used by SQLite and MongoDB.
"""

from __future__ import annotations

import math
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any, Literal

from pydantic import TypeAdapter
from pydantic_core import to_jsonable_python

from storage.models import (
    RateDecision,
    CorrectionRecord,
    FinalizeBatch,
    IdempotencyRecord,
    Message,
    Record,
    Session,
    TaskAction,
    UsageLog,
    VerificationRecordRow,
)

FieldKind = Literal["json", "datetime", "bool", "plain"]

#: Fields of a stored ``Task`` that ``finalize`` may change. ``id``, ``tenant_id``,
#: ``user_id``, ``session_id`` and ``created_at`` are fixed when the task is created;
#: ``version`` belongs to the store.
TASK_MUTABLE_FIELDS: tuple[str, ...] = (
    "url",
    "query",
    "status",
    "step_index",
    "complexity",
    "plan",
    "state",
    "metrics",
    "failure_code",
    "failure_reason",
    "updated_at",
)

#: Fields of a ``TaskAction`` an ``action_updates`` entry may set.
ACTION_UPDATABLE_FIELDS: frozenset[str] = frozenset(
    {
        "thought",
        "action",
        "actions",
        "decided_by",
        "expected_outcome",
        "before_state",
        "verification",
        "metrics",
    }
)

#: At most this many distinct terms of a search query are used.
MAX_SEARCH_TERMS = 32
#: Money totals are rounded to this many decimals (float sums differ in the last bits).
COST_DECIMALS = 10


def to_utc(value: datetime) -> datetime:
    """Aware UTC, truncated to milliseconds. Naive datetimes are taken to be UTC already."""
    value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value.replace(microsecond=(value.microsecond // 1000) * 1000)


def iso(value: datetime) -> str:
    """Fixed-width ISO-8601 UTC text (``2026-01-02T03:04:05.678Z``): sorts as it compares."""
    value = to_utc(value)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def _unwrap_optional(annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _kind(annotation: Any) -> FieldKind:
    inner = _unwrap_optional(annotation)
    if inner is datetime:
        return "datetime"
    if inner is bool:
        return "bool"
    if typing.get_origin(inner) in (dict, list, tuple) or inner in (dict, list, tuple):
        return "json"
    return "plain"


@cache
def field_kinds(model: type[Record]) -> dict[str, FieldKind]:
    """Field name -> how it is stored (JSON document, timestamp, boolean, scalar)."""
    return {name: _kind(info.annotation) for name, info in model.model_fields.items()}


_StepRecord = TaskAction | VerificationRecordRow | CorrectionRecord


def check_batch(batch: FinalizeBatch) -> None:
    """Refuse a batch whose records point at another tenant or another task (a caller bug)."""
    task = batch.task
    if batch.expected_version is not None and batch.expected_version < 0:
        raise ValueError(f"expected_version must be >= 0, got {batch.expected_version!r}")
    step_records: list[_StepRecord] = [*batch.actions, *batch.verifications, *batch.corrections]
    owned: list[_StepRecord | Message | UsageLog | Session] = [
        *step_records,
        *batch.messages,
        *batch.usage,
    ]
    if batch.session is not None:
        owned.append(batch.session)
        if batch.session.id != task.session_id:
            raise ValueError(
                f"batch session {batch.session.id!r} is not the task's session {task.session_id!r}"
            )
    for record in owned:
        if record.tenant_id != task.tenant_id:
            raise ValueError(f"{_name(record)} belongs to another tenant than task {task.id!r}")
    for record in step_records:
        if record.task_id != task.id:
            raise ValueError(f"{_name(record)} belongs to task {record.task_id!r}, not {task.id!r}")
    done = batch.idempotency
    if done is not None and (done.tenant_id != task.tenant_id or done.task_id not in (None, task.id)):
        raise ValueError(f"idempotency key {done.key!r} belongs to another tenant or task than task {task.id!r}")


def may_take_over(held: IdempotencyRecord, claim: IdempotencyRecord, now: datetime) -> bool:
    """Whether ``claim`` replaces the record ``held`` under the same key: it expired, or it is
    an in-flight claim of the same request whose holder let its lease run out (a killed worker)."""
    if to_utc(held.expires_at) <= to_utc(now):
        return True
    return held.state == "in_flight" and held.fingerprint == claim.fingerprint and to_utc(held.locked_until) <= to_utc(now)


def _name(record: Record) -> str:
    return f"{type(record).__name__} {record.id!r}"


@cache
def _action_adapter(name: str) -> TypeAdapter[Any]:
    return TypeAdapter(TaskAction.model_fields[name].annotation)


def clean_action_update(fields: Mapping[str, Any]) -> dict[str, Any]:
    """Validate an ``action_updates`` entry against ``TaskAction``; values come back JSON-safe."""
    unknown = set(fields) - ACTION_UPDATABLE_FIELDS
    if unknown:
        raise ValueError(f"action update may not set {sorted(unknown)!r}")
    return {
        name: to_jsonable_python(_action_adapter(name).validate_python(value))
        for name, value in fields.items()
    }


_TERM = re.compile(r"\w+", re.UNICODE)


def search_terms(query: str) -> list[str]:
    """Distinct lower-case words of a free-text query; operators and punctuation are dropped."""
    seen: dict[str, None] = {}
    for term in _TERM.findall(query.lower()):
        seen.setdefault(term, None)
        if len(seen) >= MAX_SEARCH_TERMS:
            break
    return list(seen)


@dataclass(frozen=True, slots=True)
class Window:
    start: int  # epoch seconds
    end: int
    retry_after_seconds: int  # whole seconds until the window ends, at least 1


def rate_window(now: datetime, window_seconds: int) -> Window:
    if window_seconds < 1:
        raise ValueError(f"window_seconds must be >= 1, got {window_seconds!r}")
    epoch = to_utc(now).timestamp()
    start = int(epoch // window_seconds) * window_seconds
    end = start + window_seconds
    return Window(start=start, end=end, retry_after_seconds=max(1, math.ceil(end - epoch)))


def sliding_decision(count: int, previous: int, limit: int, now: datetime, window_seconds: int) -> RateDecision:
    """The sliding-window decision on two fixed-window counters (the approximation Cloudflare
    and NGINX use): the previous window's count, weighted by how much of it still lies within
    the last ``window_seconds``, plus this window's. A burst across a window boundary is not
    a fresh allowance: at most about ``limit`` requests pass in any ``window_seconds``."""
    window = rate_window(now, window_seconds)
    elapsed = (to_utc(now).timestamp() - window.start) / window_seconds
    estimate = previous * (1.0 - elapsed) + count
    if estimate <= limit:
        return RateDecision(allowed=True, count=count, limit=limit, retry_after_seconds=0)
    if count < limit and previous > 0:  # later in this window the previous one weighs less
        wait = window_seconds * (estimate + 1 - limit) / previous  # room for the next request too
    else:  # not in this window: in the next, this window's count weighs in as it fades
        wait = window.end - to_utc(now).timestamp() + window_seconds * max(0.0, 1.0 - (limit - 1) / max(count, 1))
    return RateDecision(allowed=False, count=count, limit=limit, retry_after_seconds=max(1, math.ceil(wait)))


def round_cost(value: float | None) -> float | None:
    return None if value is None else round(value, COST_DECIMALS)


def now_utc() -> datetime:
    return to_utc(datetime.now(UTC))
