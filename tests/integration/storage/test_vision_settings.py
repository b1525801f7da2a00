"""The tenants' screenshot switch, and image tokens on usage rows, on every backend."""

from __future__ import annotations

from storage import Store, UsageLog, VisionSettings
from tests.integration.storage.builders import TENANT_A, TENANT_B, ago


async def test_vision_settings_are_per_tenant_and_replaced(store: Store) -> None:
    assert await store.vision_settings.get(TENANT_A) is None
    first = VisionSettings(tenant_id=TENANT_A, screenshots=True, updated_at=ago(minutes=1))
    await store.vision_settings.put(first)
    assert await store.vision_settings.get(TENANT_A) == first
    assert await store.vision_settings.get(TENANT_B) is None
    second = VisionSettings(tenant_id=TENANT_A, screenshots=False)
    await store.vision_settings.put(second)
    assert await store.vision_settings.get(TENANT_A) == second


async def test_a_usage_row_keeps_its_image_tokens(store: Store) -> None:
    row = UsageLog(
        tenant_id=TENANT_A, task_id="t1", action_type="ACTION_GENERATION", provider="google", model="m",
        input_tokens=1400, output_tokens=20, total_tokens=1420, image_tokens=1290,
    )  # fmt: skip
    await store.usage.add(row)
    rows = await store.usage.list_for_task(TENANT_A, "t1")
    assert [r.image_tokens for r in rows] == [1290]
