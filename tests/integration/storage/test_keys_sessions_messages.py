"""API keys, sessions and messages."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest

from storage import ApiKey, DuplicateKey, Message, Store, hash_api_key, utcnow
from tests.integration.storage.builders import TENANT_A, USER, ago, session


def test_hash_api_key_is_sha256_hex() -> None:
    assert hash_api_key("sk-secret") == hashlib.sha256(b"sk-secret").hexdigest()
    assert hash_api_key("sk-secret") != hash_api_key("sk-secreT")


async def test_api_key_lifecycle(store: Store) -> None:
    secret = hash_api_key("sk-1")
    key = ApiKey(tenant_id=TENANT_A, user_id=USER, key_hash=secret, prefix="sk-1", name="laptop")
    await store.api_keys.create(key)
    assert await store.api_keys.get_by_hash(hash_api_key("sk-1")) == key
    assert await store.api_keys.get_by_hash(hash_api_key("sk-2")) is None

    second = ApiKey(tenant_id=TENANT_A, user_id=USER, key_hash=hash_api_key("sk-2"), prefix="sk-2")
    await store.api_keys.create(second)
    assert [k.id for k in await store.api_keys.list(TENANT_A)] == [key.id, second.id]

    when = utcnow()
    assert await store.api_keys.revoke(TENANT_A, key.id, when) is True
    later = when + timedelta(hours=1)
    assert await store.api_keys.revoke(TENANT_A, key.id, later) is True  # idempotent
    revoked = await store.api_keys.get_by_hash(key.key_hash)
    assert revoked is not None and revoked.revoked_at == when  # revoked keys are still found
    assert await store.api_keys.revoke(TENANT_A, "no-such-key", when) is False


async def test_api_key_hash_is_unique(store: Store) -> None:
    await store.api_keys.create(ApiKey(tenant_id=TENANT_A, user_id=USER, key_hash="h", prefix="p"))
    with pytest.raises(DuplicateKey):
        await store.api_keys.create(
            ApiKey(tenant_id="tenant-b", user_id=USER, key_hash="h", prefix="p")
        )


async def test_sessions_create_get_list_newest_first(store: Store) -> None:
    older = session(created_at=ago(minutes=10), url="https://a.example/", title="A")
    newer = session(created_at=ago(minutes=1))
    for s in (older, newer):
        await store.sessions.create(s)
    assert await store.sessions.get(TENANT_A, older.id) == older
    assert await store.sessions.get(TENANT_A, "missing") is None
    assert [s.id for s in await store.sessions.list(TENANT_A, USER)] == [newer.id, older.id]
    assert [s.id for s in await store.sessions.list(TENANT_A, USER, limit=1)] == [newer.id]
    assert await store.sessions.list(TENANT_A, "user-2") == []
    with pytest.raises(DuplicateKey):
        await store.sessions.create(older)


async def test_messages_list_returns_the_last_n_oldest_first(store: Store) -> None:
    s = session()
    await store.sessions.create(s)
    same_ms = utcnow()
    contents = [f"m{i}" for i in range(5)]
    for i, content in enumerate(contents):
        role = "user" if i % 2 == 0 else "assistant"
        # Same millisecond on purpose: insertion order must break the tie.
        await store.messages.add(
            Message(
                tenant_id=TENANT_A, session_id=s.id, role=role, content=content, created_at=same_ms
            )
        )
    assert [m.content for m in await store.messages.list(TENANT_A, s.id)] == contents
    assert [m.content for m in await store.messages.list(TENANT_A, s.id, limit=2)] == ["m3", "m4"]
    assert await store.messages.list(TENANT_A, "other-session") == []


async def test_update_last_action_status_targets_the_last_assistant_message(store: Store) -> None:
    s = session()
    assert await store.messages.update_last_action_status(TENANT_A, s.id, "success", None) is False
    for i, role in enumerate(["user", "assistant", "assistant", "user"]):
        await store.messages.add(
            Message(
                tenant_id=TENANT_A,
                session_id=s.id,
                role=role,
                content=f"m{i}",
                action_status="pending" if role == "assistant" else None,
                created_at=ago(seconds=10 - i),
            )
        )
    updated = await store.messages.update_last_action_status(
        TENANT_A, s.id, "failure", "element not found"
    )
    assert updated is True
    by_content = {m.content: m for m in await store.messages.list(TENANT_A, s.id)}
    m2 = by_content["m2"]
    assert (m2.action_status, m2.action_error) == ("failure", "element not found")
    assert by_content["m1"].action_status == "pending"
    assert by_content["m3"].action_status is None
