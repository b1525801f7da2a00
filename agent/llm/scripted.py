"""``ScriptedGateway``: a model that replays a script, for tests of the engines and the
graph. Every scripted answer is validated against the real ``output_type``, so a script
that drifts from the schemas fails loudly instead of exercising a fallback by accident."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

from pydantic import BaseModel, ValidationError

from agent.llm.contract import CallContext, Generation, ModelUsage, Purpose
from agent.llm.errors import LLMError
from agent.llm.output import summarise_validation
from agent.llm.prompt import Prompt, render_prompt
from agent.llm.usage import NullUsageSink, UsageEvent, UsageSink, record_usage

T = TypeVar("T", bound=BaseModel)

ScriptEntry: TypeAlias = str | Mapping[str, Any] | BaseModel | BaseException | type[LLMError]
"""A JSON string, a dict, a model instance, an exception to raise, or an ``LLMError``
subclass (raised with the call's purpose filled in)."""

SCRIPTED_NONCE = "5c0ffee0"  # fixed, so rendered prompts are stable in assertions
SCRIPTED_IMAGE_TOKENS = 258  # what Gemini counts for one small image (one 768x768 tile)


class ScriptExhausted(AssertionError):
    """``generate`` was called more often than the script allows."""


class ScriptMismatch(AssertionError):
    """A scripted answer does not fit the schema the engine asked for."""


@dataclass(frozen=True, slots=True)
class ScriptedCall:
    purpose: Purpose
    output_type: type[BaseModel]
    prompt: Prompt
    ctx: CallContext
    system: str
    user: str


class ScriptedGateway:
    """Replays ``script``: a list consumed in order whatever the purpose, or a mapping of
    purpose → list consumed per purpose."""

    def __init__(
        self,
        script: Sequence[ScriptEntry] | Mapping[Purpose, Sequence[ScriptEntry]] = (),
        *,
        usage_sink: UsageSink | None = None,
        model: str = "scripted-model",
    ) -> None:
        self._shared: deque[ScriptEntry] = deque()
        self._by_purpose: dict[Purpose, deque[ScriptEntry]] = {}
        if isinstance(script, Mapping):
            for purpose, entries in script.items():
                self._by_purpose[purpose] = deque(entries)
        else:
            self._shared.extend(script)
        self._sink: UsageSink = usage_sink or NullUsageSink()
        self._model = model
        self.calls: list[ScriptedCall] = []

    @property
    def model(self) -> str:
        return self._model

    async def aclose(self) -> None:
        return None

    def add(self, *entries: ScriptEntry, purpose: Purpose | None = None) -> None:
        """Append entries to the shared queue, or to ``purpose``'s queue."""
        if purpose is None:
            self._shared.extend(entries)
        else:
            self._by_purpose.setdefault(purpose, deque()).extend(entries)

    def remaining(self, purpose: Purpose | None = None) -> int:
        if purpose is not None:
            return len(self._by_purpose.get(purpose, ()))
        return len(self._shared) + sum(len(q) for q in self._by_purpose.values())

    def assert_exhausted(self) -> None:
        if self.remaining():
            raise AssertionError(f"{self.remaining()} scripted answers were never used")

    def calls_for(self, purpose: Purpose) -> list[ScriptedCall]:
        return [call for call in self.calls if call.purpose == purpose]

    def _next(self, purpose: Purpose) -> ScriptEntry:
        queue = self._by_purpose.get(purpose)
        if queue:
            return queue.popleft()
        if self._shared:
            return self._shared.popleft()
        raise ScriptExhausted(
            f"no scripted answer left for purpose {purpose!r} "
            f"(call #{len(self.calls)}; script it with ScriptedGateway.add)"
        )

    async def generate(
        self, purpose: Purpose, output_type: type[T], prompt: Prompt, *, ctx: CallContext
    ) -> Generation[T]:
        system, user = render_prompt(prompt, SCRIPTED_NONCE)
        self.calls.append(ScriptedCall(purpose, output_type, prompt, ctx, system, user))
        entry = self._next(purpose)
        if isinstance(entry, type) and issubclass(entry, LLMError):
            raise entry(
                f"scripted {entry.__name__}", purpose=purpose, model=self._model, attempts=1
            )
        if isinstance(entry, BaseException):
            raise entry
        output, text = self._validate(purpose, output_type, entry)
        images = SCRIPTED_IMAGE_TOKENS * len(prompt.images)
        prompt_tokens = (len(system) + len(user)) // 4 + images
        usage = ModelUsage(
            model=self._model,
            input_tokens=prompt_tokens,
            output_tokens=len(text) // 4,
            total_tokens=prompt_tokens + len(text) // 4,
            latency_ms=0,
            attempts=1,
            image_tokens=images,
        )
        await record_usage(
            self._sink,
            UsageEvent(
                purpose=purpose,
                model=self._model,
                input_tokens=usage.input_tokens,
                output_tokens=usage.output_tokens,
                cached_tokens=0,
                thinking_tokens=0,
                total_tokens=usage.total_tokens,
                latency_ms=0,
                success=True,
                error_kind=None,
                ctx=ctx,
                image_tokens=images,
            ),
        )
        return Generation(output=output, usage=usage, purpose=purpose)

    def _validate(
        self, purpose: Purpose, output_type: type[T], entry: str | Mapping[str, Any] | BaseModel
    ) -> tuple[T, str]:
        try:
            if isinstance(entry, str):
                output, text = output_type.model_validate_json(entry), entry
            elif isinstance(entry, BaseModel):
                text = entry.model_dump_json()
                output = output_type.model_validate_json(text)
            else:
                text = json.dumps(entry)
                output = output_type.model_validate(entry)
        except ValidationError as error:
            raise ScriptMismatch(
                f"scripted answer for purpose {purpose!r} does not fit "
                f"{output_type.__name__}: {summarise_validation(error)}"
            ) from error
        return output, text
