"""Every MongoDB index Stepwise needs, created by ``MongoStore.init`` (idempotent).

Each query filters by ``tenant_id`` first, so every query index starts with it. The
unique indexes are integrity rules (one key hash, one action per step, one document per
URL); the TTL indexes expire skills and recipes 90 days after last use and rate counters once their
window is over, Idempotency-Key records once they expire. Index names are fixed so that a second ``init`` is a no-op.
"""

from __future__ import annotations

from typing import Any

from pymongo import ASCENDING, DESCENDING, TEXT, IndexModel

SKILL_TTL_SECONDS = 90 * 24 * 60 * 60


def _index(name: str, *fields: str, **options: Any) -> IndexModel:
    """``_index("x", "tenant_id", "-created_at")``: a leading ``-`` means descending."""
    keys = [(f[1:], DESCENDING) if f.startswith("-") else (f, ASCENDING) for f in fields]
    return IndexModel(keys, name=name, **options)


INDEXES: dict[str, list[IndexModel]] = {
    "api_keys": [
        _index("key_hash_unique", "key_hash", unique=True),
        _index("tenant_created", "tenant_id", "created_at"),
    ],
    "sessions": [_index("tenant_user_created", "tenant_id", "user_id", "-created_at")],
    "messages": [_index("tenant_session_created", "tenant_id", "session_id", "created_at", "seq")],
    "tasks": [
        _index("tenant_session_status_updated", "tenant_id", "session_id", "status", "-updated_at"),
        _index("tenant_session_created", "tenant_id", "session_id", "-created_at"),
        _index("tenant_created", "tenant_id", "-created_at"),
    ],
    "task_actions": [
        _index("task_step_unique", "task_id", "step_index", unique=True),
        _index("tenant_task_step", "tenant_id", "task_id", "step_index"),
    ],
    "corrections": [_index("tenant_task", "tenant_id", "task_id", "created_at")],
    "verifications": [
        _index("tenant_task", "tenant_id", "task_id", "created_at"),
        _index("tenant_created", "tenant_id", "created_at"),
    ],
    "usage_logs": [
        _index("tenant_created", "tenant_id", "created_at"),
        _index("tenant_task", "tenant_id", "task_id", "created_at"),
    ],
    "skills": [
        _index("tenant_domain_goal", "tenant_id", "domain", "goal"),
        _index("tenant_domain_used", "tenant_id", "domain", "-last_used"),
        _index("tenant_used", "tenant_id", "-last_used"),
        _index("last_used_ttl", "last_used", expireAfterSeconds=SKILL_TTL_SECONDS),
    ],
    # Recipes live and expire like skills (90 days after last use).
    "recipes": [
        _index("tenant_domain_used", "tenant_id", "domain", "-last_used"),
        _index("tenant_used", "tenant_id", "-last_used"),
        _index("last_used_ttl", "last_used", expireAfterSeconds=SKILL_TTL_SECONDS),
    ],
    # One document per tenant (its _id is the tenant id too).
    "memory_settings": [_index("tenant_unique", "tenant_id", unique=True)],
    "vision_settings": [_index("tenant_unique", "tenant_id", unique=True)],
    "knowledge_documents": [
        _index("tenant_identity_unique", "tenant_id", "source", "phase", "trigger_action", unique=True),
        _index("tenant_created", "tenant_id", "created_at", "seq"),
        _index("tenant_domains", "tenant_id", "domain_keys"),
    ],
    "knowledge_chunks": [
        # Text index with a tenant_id prefix: every $text query must (and does) match a tenant.
        IndexModel(
            [("tenant_id", ASCENDING), ("heading_text", TEXT), ("text", TEXT)],
            weights={"heading_text": 2, "text": 1},
            default_language="english",
            name="tenant_heading_text",
        ),
        _index("tenant_document", "tenant_id", "document_id", "ordinal"),
        _index("tenant_source", "tenant_id", "source", "phase", "ordinal"),
    ],
    "knowledge_vectors": [
        _index("tenant_model", "tenant_id", "model", "dimension"),
        _index("tenant_document", "tenant_id", "document_id"),
        _index("tenant_chunk", "tenant_id", "chunk_id"),
    ],
    "crawl_jobs": [
        _index("tenant_created", "tenant_id", "-created_at"),
        _index("status_heartbeat", "status", "heartbeat_at"),
    ],
    "rate_counters": [_index("expires_at_ttl", "expires_at", expireAfterSeconds=0)],
    # One record per key of a user; gone once expired (24 h by default).
    "idempotency_keys": [
        _index("tenant_user_key_unique", "tenant_id", "user_id", "key", unique=True),
        _index("expires_at_ttl", "expires_at", expireAfterSeconds=0),
    ],
}

#: Indexes of the first knowledge shape (never populated by a product path); ``init`` drops
#: them so the new ones can be built (one text index per collection, a new identity).
LEGACY_INDEXES: dict[str, tuple[str, ...]] = {
    "knowledge_documents": ("tenant_url_unique", "tenant_domain"),
    "knowledge_chunks": ("tenant_text", "tenant_domain_phase"),
}
