"""The LLM gateway: the one place that knows google-genai.

Engines call ``LLMGateway.generate(purpose, OutputModel, Prompt(...), ctx=...)`` and get a
validated ``Generation`` or an ``LLMError``; see docs/llm.md."""

from agent.llm.contract import (
    PURPOSES,
    CallContext,
    Generation,
    LLMGateway,
    ModelUsage,
    Purpose,
)
from agent.llm.errors import (
    ErrorKind,
    LLMBlocked,
    LLMError,
    LLMOutputInvalid,
    LLMRequestRejected,
    LLMUnavailable,
)
from agent.llm.factory import gateway_from_settings
from agent.llm.gemini import GeminiGateway
from agent.llm.prompt import DataBlock, ImageBlock, Prompt, render_prompt
from agent.llm.schema import SchemaNotSupported, gemini_response_schema
from agent.llm.scripted import ScriptedCall, ScriptedGateway, ScriptExhausted, ScriptMismatch
from agent.llm.usage import (
    MemoryUsageSink,
    NullUsageSink,
    OutputErrorKind,
    UsageEvent,
    UsageSink,
)

__all__ = [
    "PURPOSES",
    "CallContext",
    "DataBlock",
    "ErrorKind",
    "GeminiGateway",
    "ImageBlock",
    "Generation",
    "LLMBlocked",
    "LLMError",
    "LLMGateway",
    "LLMOutputInvalid",
    "LLMRequestRejected",
    "LLMUnavailable",
    "MemoryUsageSink",
    "ModelUsage",
    "NullUsageSink",
    "OutputErrorKind",
    "Prompt",
    "Purpose",
    "SchemaNotSupported",
    "ScriptExhausted",
    "ScriptMismatch",
    "ScriptedCall",
    "ScriptedGateway",
    "UsageEvent",
    "UsageSink",
    "gateway_from_settings",
    "gemini_response_schema",
    "render_prompt",
]
