"""The gateway contract every engine codes against: purposes, call context, results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar, get_args

from pydantic import BaseModel

from agent.llm.prompt import Prompt

Purpose = Literal[
    "PLANNING",
    "REFINEMENT",
    "VERIFICATION",
    "CONTEXT_ANALYSIS",
    "SELF_CORRECTION",
    "OUTCOME_PREDICTION",
    "ACTION_GENERATION",
    "DIRECT_ACTION",
    "CRITIC",
    "REPLANNING",
    "PLAN_CHECK",
    "COMPLETION_CHECK",
    "EMBEDDING",
]
"""Why a model is called; recorded as ``actionType`` on every usage record."""

PURPOSES: tuple[Purpose, ...] = get_args(Purpose)

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class CallContext:
    """Who and what a call is for: links usage records and traces to the request."""

    tenant_id: str | None = None
    user_id: str | None = None
    session_id: str | None = None
    task_id: str | None = None
    message_id: str | None = None
    trace_id: str | None = None


@dataclass(frozen=True, slots=True)
class ModelUsage:
    """What one ``generate`` call cost, summed over all of its HTTP attempts
    (retries and the repair attempt included)."""

    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    thinking_tokens: int = 0
    total_tokens: int = 0
    latency_ms: int = 0
    attempts: int = 1
    image_tokens: int = 0  # of input_tokens, those counted for images


@dataclass(frozen=True, slots=True)
class Generation(Generic[T]):
    """A validated model answer."""

    output: T
    usage: ModelUsage
    purpose: Purpose


class LLMGateway(Protocol):
    """The one door to a language model. Implementations: ``GeminiGateway`` (real) and
    ``ScriptedGateway`` (tests)."""

    @property
    def model(self) -> str: ...

    async def generate(
        self, purpose: Purpose, output_type: type[T], prompt: Prompt, *, ctx: CallContext
    ) -> Generation[T]:
        """Return ``output_type`` validated, or raise an ``LLMError`` subclass."""
        ...

    async def aclose(self) -> None:
        """Release network resources (called once, from the app's lifespan)."""
        ...
