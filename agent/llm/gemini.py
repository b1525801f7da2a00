"""``GeminiGateway``: the only code that calls google-genai."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal, TypeVar

import structlog
from google import genai
from google.genai import types
from pydantic import BaseModel

from agent.llm.contract import CallContext, Generation, Purpose
from agent.llm.errors import (
    LLMBlocked,
    LLMError,
    LLMOutputInvalid,
    LLMRequestRejected,
    LLMUnavailable,
)
from agent.llm.multimodal import user_contents
from agent.llm.output import OutputIssue, read_output
from agent.llm.prompt import REPAIR_INSTRUCTIONS, Prompt, new_nonce, render_prompt
from agent.llm.retry import ATTEMPT_FAILURES, AttemptFailure, RetryPolicy, classify, next_delay
from agent.llm.schema import gemini_response_schema
from agent.llm.tally import Tally
from agent.llm.usage import NullUsageSink, OutputErrorKind, UsageSink, record_usage

T = TypeVar("T", bound=BaseModel)
R = TypeVar("R")
EmbeddingTask = Literal["RETRIEVAL_DOCUMENT", "RETRIEVAL_QUERY"]
EMBED_BATCH = 100
"""Most texts in one ``batchEmbedContents`` request (the Gemini API's limit)."""
log = structlog.get_logger(__name__)


class GeminiGateway:
    """Structured-output calls to Gemini: bounded retries with full-jitter backoff, one
    repair attempt on an unusable answer, typed errors, a usage event per billable
    attempt. Create it once (app lifespan) and ``aclose`` it on shutdown."""

    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        base_url: str | None = None,
        api_version: str | None = None,
        timeout_s: float = 20.0,
        max_retries: int = 3,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 8.0,
        retry_after_cap_s: float = 10.0,
        deadline_s: float = 60.0,
        temperature: float = 0.2,
        max_output_tokens: int = 4096,
        thinking_budget: int | None = None,
        usage_sink: UsageSink | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self._model = model
        self._timeout_s = timeout_s
        self._policy = RetryPolicy(
            max_retries=max_retries,
            backoff_base_s=backoff_base_s,
            backoff_cap_s=backoff_cap_s,
            retry_after_cap_s=retry_after_cap_s,
            deadline_s=deadline_s,
        )
        self._temperature = temperature
        self._max_output_tokens = max_output_tokens
        self._thinking = (
            None
            if thinking_budget is None
            else types.ThinkingConfig(thinking_budget=thinking_budget)
        )
        self._sink: UsageSink = usage_sink or NullUsageSink()
        self._rng = rng or random.Random()
        self._client = genai.Client(
            vertexai=False,
            api_key=api_key,
            http_options=types.HttpOptions(
                base_url=base_url,
                api_version=api_version,
                timeout=max(1, round(timeout_s * 1000)),  # milliseconds
                # One attempt per SDK call: retries are ours, so each is counted and logged.
                retry_options=types.HttpRetryOptions(attempts=1),
            ),
        )

    @property
    def model(self) -> str:
        return self._model

    async def aclose(self) -> None:
        await self._client.aio.aclose()

    async def generate(
        self, purpose: Purpose, output_type: type[T], prompt: Prompt, *, ctx: CallContext
    ) -> Generation[T]:
        tally = Tally(purpose=purpose, ctx=ctx, model=self._model)
        schema = gemini_response_schema(output_type)
        try:
            return await self._answer(tally, output_type, prompt, schema, repair=False)
        except OutputIssue as issue:
            if issue.kind == "blocked":
                raise self._failed(tally, LLMBlocked, issue) from None
            log.warning(
                "llm.output.repairing",
                error_kind=issue.kind,
                summary=issue.summary,
                **tally.log_fields(),
            )
            repaired = prompt.with_instructions(REPAIR_INSTRUCTIONS.format(summary=issue.summary))
        try:
            return await self._answer(tally, output_type, repaired, schema, repair=True)
        except OutputIssue as second:
            error = LLMBlocked if second.kind == "blocked" else LLMOutputInvalid
            raise self._failed(tally, error, second) from None

    def _failed(self, tally: Tally, error: type[LLMError], issue: OutputIssue) -> LLMError:
        log.warning(
            "llm.call.failed",
            error_kind=error.kind,
            reason=issue.kind,
            summary=issue.summary,
            attempts=tally.attempts,
            **tally.log_fields(),
        )
        common: dict[str, Any] = dict(
            purpose=tally.purpose,
            model=self._model,
            attempts=tally.attempts,
            status_code=tally.last_status,
        )
        if error is LLMBlocked:
            return LLMBlocked(
                f"blocked by the provider: {issue.summary}", reason=issue.reason, **common
            )
        return error(f"model answer unusable after repair: {issue.summary}", **common)

    def _config(self, system: str, schema: dict[str, Any]) -> types.GenerateContentConfig:
        return types.GenerateContentConfig(
            system_instruction=system,
            response_mime_type="application/json",
            response_json_schema=schema,
            temperature=self._temperature,
            max_output_tokens=self._max_output_tokens,
            thinking_config=self._thinking,
            candidate_count=1,
            # One HTTP request per attempt, so every billed request is its own usage event;
            # a CONTINUATION finish is then treated as a cut-off answer.
            automatic_continuation=False,
        )

    async def _answer(
        self,
        tally: Tally,
        output_type: type[T],
        prompt: Prompt,
        schema: dict[str, Any],
        *,
        repair: bool,
    ) -> Generation[T]:
        nonce = new_nonce()
        system, user = render_prompt(prompt, nonce)
        contents = user_contents(user, prompt.images, nonce)
        response, latency_ms = await self._send(tally, contents, self._config(system, schema))
        try:
            output = read_output(response, output_type)
        except OutputIssue as issue:
            await self._record(tally, response, latency_ms, issue.kind, repair=repair)
            raise
        await self._record(tally, response, latency_ms, None, repair=repair)
        usage = tally.usage()
        log.info(
            "llm.call.completed",
            attempts=usage.attempts,
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            image_tokens=usage.image_tokens,
            latency_ms=usage.latency_ms,
            repaired=repair,
            **tally.log_fields(),
        )
        return Generation(output=output, usage=usage, purpose=tally.purpose)

    async def _send(
        self, tally: Tally, contents: str | list[types.Content], config: types.GenerateContentConfig
    ) -> tuple[types.GenerateContentResponse, int]:
        """One generateContent request, retried on transient failures; (response, latency_ms)."""
        return await self._attempts(
            tally,
            lambda: self._client.aio.models.generate_content(model=self._model, contents=contents, config=config),
        )

    async def embed(
        self,
        texts: Sequence[str],
        *,
        model: str,
        task_type: EmbeddingTask,
        dimension: int,
        ctx: CallContext,
    ) -> list[list[float]]:
        """Embeddings of ``texts`` (at most ``EMBED_BATCH`` per call), one vector per text in
        order, with the same retries and typed errors as ``generate``. One usage event
        (purpose ``EMBEDDING``) per billed attempt; the Gemini API does not report tokens
        for embeddings, so they are counted as the provider bills them (characters / 4)."""
        if not texts:
            return []
        if len(texts) > EMBED_BATCH:
            raise ValueError(f"at most {EMBED_BATCH} texts per embedding call")
        tally = Tally(purpose="EMBEDDING", ctx=ctx, model=model)
        config = types.EmbedContentConfig(task_type=task_type, output_dimensionality=dimension)
        response, latency_ms = await self._attempts(
            tally, lambda: self._client.aio.models.embed_content(model=model, contents=list(texts), config=config)
        )
        vectors = [list(e.values or []) for e in (response.embeddings or [])]
        issue = _embedding_issue(vectors, len(texts), dimension)
        tokens = sum(max(1, len(t) // 4) for t in texts)
        event = tally.record_embedding(tokens, latency_ms=latency_ms, error_kind="schema_mismatch" if issue else None)
        await record_usage(self._sink, event)
        if issue is not None:
            log.warning("llm.embedding.invalid", summary=issue, **tally.log_fields())
            raise LLMOutputInvalid(f"embedding answer unusable: {issue}", purpose="EMBEDDING", model=model, attempts=tally.attempts)
        log.info("llm.embedding.completed", texts=len(texts), latency_ms=latency_ms, attempts=tally.attempts, **tally.log_fields())
        return vectors

    async def _attempts(self, tally: Tally, call: Callable[[], Awaitable[R]]) -> tuple[R, int]:
        """``call`` retried on transient failures; returns (answer, latency_ms)."""
        retries = 0
        while True:
            tally.attempts += 1
            started = time.monotonic()
            try:
                # Bounds a server that trickles bytes within the per-read timeout.
                async with asyncio.timeout(self._timeout_s * 1.5 + 1):
                    response = await call()
            except ATTEMPT_FAILURES as exc:
                failure = classify(exc)
                tally.last_status = failure.status_code
                retries += 1
                delay = next_delay(retries, failure, self._policy, self._rng)
                if (
                    not failure.retryable
                    or retries > self._policy.max_retries
                    or (tally.elapsed_s() + delay > self._policy.deadline_s)
                ):
                    raise self._unreachable(tally, failure, exc) from exc
                log.warning(
                    "llm.attempt.failed",
                    reason=failure.reason,
                    status_code=failure.status_code,
                    attempt=tally.attempts,
                    retry_in_s=round(delay, 3),
                    **tally.log_fields(),
                )
                await asyncio.sleep(delay)
                continue
            tally.last_status = 200
            return response, round((time.monotonic() - started) * 1000)

    def _unreachable(self, tally: Tally, failure: AttemptFailure, exc: BaseException) -> LLMError:
        status = failure.status_code
        rejected = not failure.retryable and status is not None and 400 <= status < 500
        error = LLMRequestRejected if rejected else LLMUnavailable
        log.warning(
            "llm.call.failed",
            error_kind=error.kind,
            reason=failure.reason,
            status_code=status,
            provider_status=getattr(exc, "status", None),
            attempts=tally.attempts,
            **tally.log_fields(),
        )
        message = (
            f"model request rejected with HTTP {status}"
            if rejected
            else f"model unavailable after {tally.attempts} attempts ({failure.reason})"
        )
        return error(
            message,
            purpose=tally.purpose,
            model=self._model,
            attempts=tally.attempts,
            status_code=status,
        )

    async def _record(
        self,
        tally: Tally,
        response: types.GenerateContentResponse,
        latency_ms: int,
        error_kind: OutputErrorKind | None,
        *,
        repair: bool,
    ) -> None:
        event = tally.record_attempt(
            response.usage_metadata,
            latency_ms=latency_ms,
            error_kind=error_kind,
            repair=repair,
            model_version=response.model_version,
        )
        await record_usage(self._sink, event)


def _embedding_issue(vectors: list[list[float]], expected: int, dimension: int) -> str | None:
    """Why an embedding answer cannot be used, or ``None``."""
    if len(vectors) != expected:
        return f"{len(vectors)} vectors for {expected} texts"
    for vector in vectors:
        if len(vector) != dimension:
            return f"a vector of dimension {len(vector)}, asked for {dimension}"
        if not any(vector):
            return "an all-zero vector"
    return None
