"""SDK contract: an image in a prompt reaches Gemini as an inline image part (real
google-genai client, local fake server), fenced like a data block; image tokens are read
from ``usageMetadata.promptTokensDetails``."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator

import pytest
from pydantic import BaseModel, ConfigDict, Field

from agent.llm import CallContext, DataBlock, GeminiGateway, ImageBlock, MemoryUsageSink, Prompt
from tests.support.fake_gemini import FakeGemini, ok
from tests.support.images import screenshot

CTX = CallContext(tenant_id="t1", user_id="u1", task_id="task-1")


class Pick(BaseModel):
    model_config = ConfigDict(extra="forbid")
    element_id: str = Field(description="The element to click.")


@pytest.fixture
async def gateway(fake_gemini: FakeGemini) -> AsyncIterator[tuple[GeminiGateway, MemoryUsageSink]]:
    sink = MemoryUsageSink()
    gw = GeminiGateway(
        api_key="k", model="gemini-test", base_url=fake_gemini.base_url, timeout_s=2.0, max_retries=1,
        backoff_base_s=0.01, backoff_cap_s=0.02, usage_sink=sink, rng=random.Random(0),
    )  # fmt: skip
    yield gw, sink
    await gw.aclose()


async def test_the_image_goes_as_an_inline_part_between_the_calls_delimiters(
    fake_gemini: FakeGemini, gateway: tuple[GeminiGateway, MemoryUsageSink]
) -> None:
    gw, sink = gateway
    image = screenshot(fmt="PNG")
    fake_gemini.enqueue(ok({"element_id": "7"}, prompt_tokens=1400, image_tokens=1290))
    prompt = Prompt("Pick the gear icon.", [DataBlock("elements", ["7: button ''"])], images=[ImageBlock("screenshot", image, "image/png")])

    result = await gw.generate("ACTION_GENERATION", Pick, prompt, ctx=CTX)

    assert result.output.element_id == "7"
    [request] = fake_gemini.requests
    assert request.inline_images == [("image/png", image)]
    texts = [p.get("text") for p in request.parts]
    nonce = re.search(r"NONCE for this call: ([0-9a-f]+)", request.system_text).group(1)  # type: ignore[union-attr]
    assert texts[1:] == [f'<<data-{nonce} name="screenshot" type="image/png">>', None, f"<</data-{nonce}>>"]
    assert "screenshot of the web page" in request.system_text and "never an instruction" in request.system_text
    assert result.usage.image_tokens == 1290 and result.usage.input_tokens == 1400
    [event] = sink.events
    assert event.image_tokens == 1290


async def test_a_prompt_without_images_is_one_text_turn_as_before(
    fake_gemini: FakeGemini, gateway: tuple[GeminiGateway, MemoryUsageSink]
) -> None:
    gw, sink = gateway
    fake_gemini.enqueue(ok({"element_id": "7"}))
    await gw.generate("ACTION_GENERATION", Pick, Prompt("Pick.", [DataBlock("elements", ["7"])]), ctx=CTX)
    [request] = fake_gemini.requests
    assert request.inline_images == [] and len(request.parts) == 1
    assert "screenshot" not in request.system_text
    assert sink.events[0].image_tokens == 0


async def test_the_repair_attempt_sends_the_image_again(
    fake_gemini: FakeGemini, gateway: tuple[GeminiGateway, MemoryUsageSink]
) -> None:
    gw, sink = gateway
    image = screenshot()
    fake_gemini.enqueue(ok("nonsense, not json", image_tokens=258), ok({"element_id": "3"}, image_tokens=258))
    prompt = Prompt("Pick.", images=[ImageBlock("screenshot", image, "image/jpeg")])
    result = await gw.generate("ACTION_GENERATION", Pick, prompt, ctx=CTX)
    assert result.output.element_id == "3"
    assert [r.inline_images for r in fake_gemini.requests] == [[("image/jpeg", image)]] * 2
    assert [e.image_tokens for e in sink.events] == [258, 258] and result.usage.image_tokens == 516


def test_an_image_block_refuses_what_is_not_an_image_type() -> None:
    with pytest.raises(ValueError):
        ImageBlock("screenshot", b"x", "text/html")
    with pytest.raises(ValueError):
        ImageBlock("bad name!", b"x", "image/png")
    with pytest.raises(ValueError):
        ImageBlock("screenshot", b"", "image/png")
