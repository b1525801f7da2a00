"""Image tokens of a call (a screenshot in hybrid mode) reach the usage row, the request's
tally and the LangFuse generation; they are part of the input tokens, priced as input."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cost import UsageService
from cost.usage_service import generation_record
from cost.pricing import cost_call
from observability import NoopTracer
from storage import SqliteStore, Store
from tests.unit.cost.test_usage_service import event


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    db = SqliteStore(str(tmp_path / "usage.db"))
    await db.init()
    yield db
    await db.close()


async def test_image_tokens_are_recorded_and_tallied(store: Store) -> None:
    service = UsageService(store, NoopTracer())
    with service.for_request() as usage:
        await service.record(event(input_tokens=1_500, image_tokens=1_290, total_tokens=1_600, output_tokens=100, cached_tokens=0, thinking_tokens=0))
        await service.record(event(input_tokens=300, total_tokens=320, output_tokens=20, cached_tokens=0, thinking_tokens=0))
    assert usage.image_tokens == 1_290 and usage.as_response()["imageTokens"] == 1_290
    [first, second] = sorted(await store.usage.list_for_task("t1", "task-1"), key=lambda r: -r.input_tokens)
    assert (first.image_tokens, second.image_tokens) == (1_290, 0)
    # priced as input tokens: the same cost as a text prompt of the same size
    assert first.cost_usd == pytest.approx(float(cost_call("gemini-2.5-flash", 1_500, 100, 0, 0).total_usd))  # type: ignore[union-attr]


def test_the_generation_says_how_many_tokens_were_images() -> None:
    record = generation_record(event(image_tokens=258), None, None)
    assert record.metadata["image_tokens"] == 258
