"""The broken-model fake (``bench.lying_model``) against the real google-genai client."""

from __future__ import annotations

import json
import random
import socket
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from agent.llm import (
    CallContext,
    DataBlock,
    GeminiGateway,
    LLMOutputInvalid,
    MemoryUsageSink,
    Prompt,
)
from agent.llm.schema import gemini_response_schema
from bench.lying_model import (
    INVALID_ANSWER,
    NO_SCHEMA_ANSWER,
    LyingGemini,
    Mode,
    answer_kind,
)
from planning import PlanDraft, RefinedAction
from verification import VerificationVerdict

CTX = CallContext(tenant_id="t1", user_id="u1", session_id="s1", task_id="task-1")
PROMPT = Prompt(
    instructions="Did the last action complete the goal?",
    blocks=[DataBlock("goal", "click the button"), DataBlock("page_text", "Nothing happened.")],
)
GEMINI_PATH = "/v1beta/models/gemini-test-flash:generateContent"

GatewayFactory = Callable[[LyingGemini], GeminiGateway]


@pytest.fixture
async def gateway_for() -> AsyncIterator[GatewayFactory]:
    made: list[GeminiGateway] = []

    def factory(fake: LyingGemini, **overrides: Any) -> GeminiGateway:
        options: dict[str, Any] = dict(
            api_key="fake-key-for-lying-model",
            model="gemini-test-flash",
            base_url=fake.base_url,
            timeout_s=2.0,
            max_retries=0,
            rng=random.Random(0),
        )
        options.update(overrides)
        gateway = GeminiGateway(**options)
        made.append(gateway)
        return gateway

    yield factory
    for gateway in made:
        await gateway.aclose()


def _assert_gone(fake: LyingGemini) -> None:
    """The server thread has ended and its port no longer accepts connections."""
    assert not [t for t in threading.enumerate() if t.name.startswith("lying-gemini")]
    parts = urlsplit(fake.base_url)
    with socket.socket() as sock, pytest.raises(OSError):
        sock.settimeout(1)
        sock.connect((parts.hostname, parts.port))


async def test_the_real_gateway_gets_a_validated_claim_of_completion(
    gateway_for: GatewayFactory,
) -> None:
    sink = MemoryUsageSink()
    with LyingGemini() as fake:
        gateway = gateway_for(fake, usage_sink=sink)
        result = await gateway.generate("VERIFICATION", VerificationVerdict, PROMPT, ctx=CTX)
        assert fake.requests == {"VERIFICATION": 1}
    verdict = result.output
    assert isinstance(verdict, VerificationVerdict)
    assert verdict.task_completed is True and verdict.action_succeeded is True
    assert verdict.confidence == 0.97
    assert result.usage.attempts == 1
    assert result.usage.input_tokens > 0 and result.usage.output_tokens > 0
    [event] = sink.events
    assert event.success and event.model_version == "gemini-lying-001"
    _assert_gone(fake)


async def test_every_engine_schema_is_answered_with_finish(gateway_for: GatewayFactory) -> None:
    with LyingGemini() as fake:
        gateway = gateway_for(fake)
        action = (
            await gateway.generate("ACTION_GENERATION", RefinedAction, PROMPT, ctx=CTX)
        ).output
        plan = (await gateway.generate("PLANNING", PlanDraft, PROMPT, ctx=CTX)).output
        assert fake.requests == {"ACTION_GENERATION": 1, "PLANNING": 1}
        assert fake.total_requests == 2
    assert action.action == "finish()" and action.step_done is True
    assert len(plan.steps) == 1 and plan.needs_user_input == []


async def test_nonsense_is_valid_but_acts_on_no_real_element(gateway_for: GatewayFactory) -> None:
    with LyingGemini("nonsense", seed=5) as fake:
        gateway = gateway_for(fake)
        actions = [
            (await gateway.generate("ACTION_GENERATION", RefinedAction, PROMPT, ctx=CTX)).output
            for _ in range(3)
        ]
    assert all(a.action.startswith('click("zz-') for a in actions)


async def test_an_invalid_model_ends_in_output_invalid_after_one_repair(
    gateway_for: GatewayFactory,
) -> None:
    with LyingGemini("invalid") as fake:
        with pytest.raises(LLMOutputInvalid) as caught:
            await gateway_for(fake).generate("VERIFICATION", VerificationVerdict, PROMPT, ctx=CTX)
        assert fake.requests == {"VERIFICATION": 2}
    assert caught.value.attempts == 2


def test_the_wire_format_is_googles() -> None:
    schema = gemini_response_schema(VerificationVerdict)
    body = {
        "contents": [{"role": "user", "parts": [{"text": "hello"}]}],
        "generationConfig": {"responseMimeType": "application/json", "responseJsonSchema": schema},
    }
    with LyingGemini() as fake, httpx.Client(base_url=fake.base_url) as http:
        answer = http.post(GEMINI_PATH, json=body)
        bare = http.post("/v1/models/m:generateContent", json={"contents": []})
        missing = http.post("/v1beta/models/m:countTokens", json={})
        broken = http.post(GEMINI_PATH, content=b"{not json")
    assert answer.status_code == 200
    payload = answer.json()
    [candidate] = payload["candidates"]
    assert candidate["finishReason"] == "STOP" and candidate["content"]["role"] == "model"
    verdict = json.loads(candidate["content"]["parts"][0]["text"])
    assert verdict["task_completed"] is True and verdict["confidence"] == 0.97
    usage = payload["usageMetadata"]
    assert usage["totalTokenCount"] == usage["promptTokenCount"] + usage["candidatesTokenCount"]
    assert payload["modelVersion"] == "gemini-lying-001"
    assert bare.json()["candidates"][0]["content"]["parts"][0]["text"] == NO_SCHEMA_ANSWER
    assert missing.status_code == 404 and missing.json()["error"]["status"] == "NOT_FOUND"
    assert broken.status_code == 400 and broken.json()["error"]["code"] == 400
    assert fake.requests == {"VERIFICATION": 1, "no schema": 1}


@pytest.mark.parametrize("mode", ["lying", "nonsense", "invalid"])
def test_concurrent_requests_are_all_counted(mode: Mode) -> None:
    schema = gemini_response_schema(RefinedAction)
    body = {"generationConfig": {"responseJsonSchema": schema}}
    texts: list[str] = []
    with LyingGemini(mode) as fake:

        def ask() -> None:
            with httpx.Client(base_url=fake.base_url) as http:
                for _ in range(5):
                    reply = http.post(GEMINI_PATH, json=body).json()
                    texts.append(reply["candidates"][0]["content"]["parts"][0]["text"])

        workers = [threading.Thread(target=ask) for _ in range(4)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=10)
        assert fake.requests == {"ACTION_GENERATION": 20}
    assert len(texts) == 20
    if mode == "invalid":
        assert set(texts) == {INVALID_ANSWER}
    else:
        assert all(RefinedAction.model_validate_json(text) for text in texts)
    _assert_gone(fake)


def test_answer_kinds_and_bad_modes() -> None:
    assert answer_kind(None) == "no schema"
    assert answer_kind({"properties": {"b": {}, "a": {}}}) == "schema(a,b)"
    with pytest.raises(ValueError, match="mode"):
        LyingGemini("truthful")  # type: ignore[arg-type]  # the point of the test
    with LyingGemini() as fake:
        assert fake.env() == {
            "GEMINI_API_KEY": "fake-key-for-lying-model",
            "GEMINI_BASE_URL": fake.base_url,
        }
