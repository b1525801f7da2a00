from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, Field

from agent.llm import (
    CallContext,
    DataBlock,
    LLMGateway,
    LLMOutputInvalid,
    LLMUnavailable,
    MemoryUsageSink,
    Prompt,
    ScriptedGateway,
    ScriptExhausted,
    ScriptMismatch,
    gateway_from_settings,
)


class Plan(BaseModel):
    model_config = ConfigDict(extra="forbid")
    steps: list[str] = Field(description="Plan steps.")


class Verdict(BaseModel):
    model_config = ConfigDict(extra="forbid")
    success: bool = Field(description="Did it work.")


CTX = CallContext(tenant_id="t1", task_id="task-1")
PROMPT = Prompt("Plan it.", [DataBlock("goal", "buy milk")])


async def test_shared_script_replays_in_order_and_validates() -> None:
    sink = MemoryUsageSink()
    gateway = ScriptedGateway(['{"steps": ["a", "b"]}', {"success": True}], usage_sink=sink)
    plan = await gateway.generate("PLANNING", Plan, PROMPT, ctx=CTX)
    verdict = await gateway.generate("VERIFICATION", Verdict, PROMPT, ctx=CTX)
    assert plan.output.steps == ["a", "b"] and plan.purpose == "PLANNING"
    assert verdict.output.success is True
    assert [c.purpose for c in gateway.calls] == ["PLANNING", "VERIFICATION"]
    assert gateway.calls[0].output_type is Plan
    assert "buy milk" in gateway.calls[0].user and "buy milk" not in gateway.calls[0].system
    assert [e.purpose for e in sink.events] == ["PLANNING", "VERIFICATION"]
    event = sink.events[0]
    assert event.success and event.ctx == CTX and event.provider == "google"
    assert event.output_tokens == len('{"steps": ["a", "b"]}') // 4
    assert event.input_tokens == plan.usage.input_tokens > 0
    gateway.assert_exhausted()


async def test_per_purpose_queues() -> None:
    gateway = ScriptedGateway(
        {"VERIFICATION": [{"success": False}], "PLANNING": [Plan(steps=["x"])]}
    )
    assert (await gateway.generate("PLANNING", Plan, PROMPT, ctx=CTX)).output.steps == ["x"]
    assert not (await gateway.generate("VERIFICATION", Verdict, PROMPT, ctx=CTX)).output.success
    gateway.add({"success": True}, purpose="VERIFICATION")
    assert gateway.remaining("VERIFICATION") == 1
    assert len(gateway.calls_for("VERIFICATION")) == 1


async def test_answer_that_does_not_fit_the_schema_names_the_purpose() -> None:
    gateway = ScriptedGateway({"PLANNING": [{"steps": "not a list", "extra": 1}]})
    with pytest.raises(ScriptMismatch, match=r"'PLANNING'.*Plan"):
        await gateway.generate("PLANNING", Plan, PROMPT, ctx=CTX)


async def test_exhausted_script_is_an_assertion_not_an_llm_error() -> None:
    gateway = ScriptedGateway()
    with pytest.raises(ScriptExhausted, match="CRITIC"):
        await gateway.generate("CRITIC", Verdict, PROMPT, ctx=CTX)
    assert issubclass(ScriptExhausted, AssertionError)


async def test_scripted_exceptions_are_raised() -> None:
    sink = MemoryUsageSink()
    gateway = ScriptedGateway(
        [LLMUnavailable, LLMOutputInvalid("bad", purpose="PLANNING")], usage_sink=sink
    )
    with pytest.raises(LLMUnavailable) as caught:
        await gateway.generate("PLANNING", Plan, PROMPT, ctx=CTX)
    assert caught.value.purpose == "PLANNING" and caught.value.model == "scripted-model"
    with pytest.raises(LLMOutputInvalid):
        await gateway.generate("PLANNING", Plan, PROMPT, ctx=CTX)
    assert sink.events == []
    assert len(gateway.calls) == 2


async def test_unused_answers_are_reported() -> None:
    gateway = ScriptedGateway([{"success": True}])
    with pytest.raises(AssertionError, match="1 scripted answers"):
        gateway.assert_exhausted()


async def test_failing_sink_does_not_fail_the_call() -> None:
    class Broken:
        async def record(self, event: object) -> None:
            raise RuntimeError("db down")

    gateway = ScriptedGateway([{"success": True}], usage_sink=Broken())
    assert (await gateway.generate("VERIFICATION", Verdict, PROMPT, ctx=CTX)).output.success


def test_gateways_satisfy_the_protocol() -> None:
    gateway: LLMGateway = ScriptedGateway()
    assert gateway.model == "scripted-model"


async def test_gateway_from_settings() -> None:
    assert gateway_from_settings(None, "gemini-x", None, None) is None
    assert gateway_from_settings("  ", "gemini-x", None, None) is None
    gateway = gateway_from_settings("key", "gemini-x", "http://127.0.0.1:9", None)
    assert gateway is not None and gateway.model == "gemini-x"
    await gateway.aclose()
