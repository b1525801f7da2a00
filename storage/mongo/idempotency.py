"""MongoDB ``Idempotency-Key`` records: a unique index makes a claim atomic, a TTL index
removes them once expired."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pymongo.errors import DuplicateKeyError

from storage._common import may_take_over
from storage.errors import IdempotencyConflict, StorageError
from storage.models import IdempotencyCompletion, IdempotencyRecord
from storage.mongo.codec import IDEMPOTENCY
from storage.mongo.errors import translated

#: A claim meets a record that vanishes (TTL) or is taken over between two reads at most
#: this many times before it gives up.
_CLAIM_ATTEMPTS = 4


def _held(tenant_id: str, user_id: str, key: str, token: str) -> dict[str, Any]:
    return {"tenant_id": tenant_id, "user_id": user_id, "key": key, "token": token, "state": "in_flight"}


def _completion(done: IdempotencyCompletion) -> dict[str, Any]:
    return {
        "state": "completed",
        "status_code": done.status_code,
        "task_id": done.task_id,
        "step_index": done.step_index,
        "response": done.response,
    }


async def complete_in(db: Any, done: IdempotencyCompletion, session: Any) -> None:
    """Complete ``done``'s claim inside ``finalize``'s transaction, or raise
    ``IdempotencyConflict`` (the transaction aborts, nothing is written)."""
    result = await db[IDEMPOTENCY.name].update_one(
        _held(done.tenant_id, done.user_id, done.key, done.token), {"$set": _completion(done)}, session=session
    )
    if not result.matched_count:
        raise IdempotencyConflict(done.key)


@translated
class MongoIdempotency:
    def __init__(self, db: Any) -> None:
        self._db = db

    async def claim(self, record: IdempotencyRecord, now: datetime) -> IdempotencyRecord | None:
        keys = self._db[IDEMPOTENCY.name]
        where = {"tenant_id": record.tenant_id, "user_id": record.user_id, "key": record.key}
        for _ in range(_CLAIM_ATTEMPTS):
            try:
                await keys.insert_one(IDEMPOTENCY.to_doc(record))
                return None
            except DuplicateKeyError:
                doc = await keys.find_one(where)
            if doc is None:  # removed (TTL) since the insert failed: try again
                continue
            held = IDEMPOTENCY.from_doc(doc)
            if not may_take_over(held, record, now):
                return held
            await keys.delete_one({"_id": held.id, "token": held.token})  # only the record just read
        raise StorageError(f"idempotency key {record.key!r} changed hands {_CLAIM_ATTEMPTS} times during one claim")

    async def get(self, tenant_id: str, user_id: str, key: str) -> IdempotencyRecord | None:
        doc = await self._db[IDEMPOTENCY.name].find_one({"tenant_id": tenant_id, "user_id": user_id, "key": key})
        return IDEMPOTENCY.from_doc(doc) if doc is not None else None

    async def complete(self, done: IdempotencyCompletion) -> bool:
        result = await self._db[IDEMPOTENCY.name].update_one(
            _held(done.tenant_id, done.user_id, done.key, done.token), {"$set": _completion(done)}
        )
        return bool(result.matched_count)

    async def release(self, tenant_id: str, user_id: str, key: str, token: str) -> bool:
        result = await self._db[IDEMPOTENCY.name].delete_one(_held(tenant_id, user_id, key, token))
        return bool(result.deleted_count)
