"""What ``cost`` reads from a usage event. ``agent.llm.UsageEvent`` satisfies these
protocols structurally, so ``cost`` does not import ``agent`` (ARCHITECTURE.md §1)."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol


class CallContextLike(Protocol):
    @property
    def tenant_id(self) -> str | None: ...
    @property
    def user_id(self) -> str | None: ...
    @property
    def session_id(self) -> str | None: ...
    @property
    def task_id(self) -> str | None: ...
    @property
    def message_id(self) -> str | None: ...
    @property
    def trace_id(self) -> str | None: ...


class UsageEventLike(Protocol):
    """One billed model attempt (see docs/llm.md, "Usage events")."""

    @property
    def purpose(self) -> str: ...
    @property
    def provider(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def model_version(self) -> str | None: ...
    @property
    def input_tokens(self) -> int:
        """``promptTokenCount``: the whole prompt, cached tokens included."""

    @property
    def output_tokens(self) -> int:
        """``candidatesTokenCount``: the answer, thinking tokens excluded."""

    @property
    def cached_tokens(self) -> int: ...
    @property
    def thinking_tokens(self) -> int: ...
    @property
    def total_tokens(self) -> int: ...
    @property
    def image_tokens(self) -> int:
        """Of ``input_tokens``, those counted for images (a screenshot in hybrid mode)."""

    @property
    def latency_ms(self) -> int: ...
    @property
    def success(self) -> bool: ...
    @property
    def error_kind(self) -> str | None: ...
    @property
    def attempt(self) -> int: ...
    @property
    def repair(self) -> bool: ...
    @property
    def occurred_at(self) -> datetime: ...
    @property
    def ctx(self) -> CallContextLike: ...
