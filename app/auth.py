"""API keys: ``Authorization: Bearer sw_…`` → tenant and user. Keys are stored hashed."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from storage import ApiKey, Store, hash_api_key

KEY_PREFIX = "sw_"


@dataclass(frozen=True)
class IssuedKey:
    secret: str
    record: ApiKey


async def issue_key(store: Store, tenant_id: str, user_id: str, name: str = "") -> IssuedKey:
    """Create a key; the secret is returned once and never stored."""
    secret = KEY_PREFIX + secrets.token_urlsafe(32)
    record = ApiKey(tenant_id=tenant_id, user_id=user_id, key_hash=hash_api_key(secret), prefix=secret[:10], name=name)
    await store.api_keys.create(record)
    return IssuedKey(secret=secret, record=record)


async def resolve_key(store: Store, secret: str) -> ApiKey | None:
    if not secret.startswith(KEY_PREFIX) or len(secret) > 200:
        return None
    record = await store.api_keys.get_by_hash(hash_api_key(secret))
    if record is None or record.revoked_at is not None:
        return None
    return record
