"""Build the gateway from settings (called once, in the app's lifespan)."""

from __future__ import annotations

from agent.llm.contract import LLMGateway
from agent.llm.gemini import GeminiGateway
from agent.llm.usage import UsageSink


def gateway_from_settings(
    api_key: str | None,
    model: str,
    base_url: str | None,
    usage_sink: UsageSink | None,
    *,
    timeout_s: float = 20.0,
    max_retries: int = 3,
) -> LLMGateway | None:
    """A ``GeminiGateway``, or ``None`` when no key is configured (the deterministic
    engines then run with zero model calls)."""
    if api_key is None or not api_key.strip():
        return None
    return GeminiGateway(
        api_key=api_key.strip(),
        model=model,
        base_url=base_url or None,
        timeout_s=timeout_s,
        max_retries=max_retries,
        usage_sink=usage_sink,
    )
