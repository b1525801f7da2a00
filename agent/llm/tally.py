"""Running totals of one ``generate`` call across its HTTP attempts, and the usage
event of each billed attempt."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from google.genai import types

from agent.llm.contract import CallContext, ModelUsage, Purpose
from agent.llm.multimodal import image_tokens
from agent.llm.usage import OutputErrorKind, UsageEvent


@dataclass(frozen=True, slots=True)
class Tokens:
    input: int = 0
    output: int = 0
    cached: int = 0
    thinking: int = 0
    total: int = 0
    image: int = 0  # of ``input``, the tokens counted for images

    @classmethod
    def of(cls, meta: types.GenerateContentResponseUsageMetadata | None) -> Tokens:
        if meta is None:
            return cls()
        input_ = meta.prompt_token_count or 0
        output = meta.candidates_token_count or 0
        thinking = meta.thoughts_token_count or 0
        return cls(
            input=input_,
            output=output,
            cached=meta.cached_content_token_count or 0,
            thinking=thinking,
            total=meta.total_token_count or input_ + output + thinking,
            image=image_tokens(meta),
        )


@dataclass(slots=True)
class Tally:
    purpose: Purpose
    ctx: CallContext
    model: str
    started: float = field(default_factory=time.monotonic)
    attempts: int = 0
    last_status: int | None = None
    tokens: Tokens = field(default_factory=Tokens)

    def record_attempt(
        self,
        meta: types.GenerateContentResponseUsageMetadata | None,
        *,
        latency_ms: int,
        error_kind: OutputErrorKind | None,
        repair: bool,
        model_version: str | None,
    ) -> UsageEvent:
        """Add one billed attempt's tokens to the totals and describe it as an event."""
        tokens = Tokens.of(meta)
        t = self.tokens
        self.tokens = Tokens(
            input=t.input + tokens.input,
            output=t.output + tokens.output,
            cached=t.cached + tokens.cached,
            thinking=t.thinking + tokens.thinking,
            total=t.total + tokens.total,
            image=t.image + tokens.image,
        )
        return UsageEvent(
            purpose=self.purpose,
            model=self.model,
            input_tokens=tokens.input,
            output_tokens=tokens.output,
            cached_tokens=tokens.cached,
            thinking_tokens=tokens.thinking,
            total_tokens=tokens.total,
            image_tokens=tokens.image,
            latency_ms=latency_ms,
            success=error_kind is None,
            error_kind=error_kind,
            ctx=self.ctx,
            attempt=self.attempts,
            repair=repair,
            model_version=model_version,
        )

    def record_embedding(self, tokens: int, *, latency_ms: int, error_kind: OutputErrorKind | None) -> UsageEvent:
        """One billed embedding attempt: input tokens only."""
        t = self.tokens
        self.tokens = Tokens(input=t.input + tokens, output=t.output, cached=t.cached, thinking=t.thinking, total=t.total + tokens, image=t.image)
        return UsageEvent(
            purpose=self.purpose,
            model=self.model,
            input_tokens=tokens,
            output_tokens=0,
            cached_tokens=0,
            thinking_tokens=0,
            total_tokens=tokens,
            latency_ms=latency_ms,
            success=error_kind is None,
            error_kind=error_kind,
            ctx=self.ctx,
            attempt=self.attempts,
        )

    def elapsed_s(self) -> float:
        return time.monotonic() - self.started

    def usage(self) -> ModelUsage:
        return ModelUsage(
            model=self.model,
            input_tokens=self.tokens.input,
            output_tokens=self.tokens.output,
            cached_tokens=self.tokens.cached,
            thinking_tokens=self.tokens.thinking,
            total_tokens=self.tokens.total,
            image_tokens=self.tokens.image,
            latency_ms=round(self.elapsed_s() * 1000),
            attempts=self.attempts,
        )

    def log_fields(self) -> dict[str, object]:
        """Fields every log line of this call carries (ids only when known, so they do
        not mask the ids bound in the request's logging context)."""
        fields: dict[str, object] = {"purpose": self.purpose, "model": self.model}
        for key, value in (("session_id", self.ctx.session_id), ("task_id", self.ctx.task_id)):
            if value is not None:
                fields[key] = value
        return fields
