"""The one place that knows model prices.

Prices are USD per 1,000,000 tokens, Gemini Developer API, Standard (paid) tier,
text/image/video input. How Gemini bills one ``generateContent`` answer
(``usageMetadata``):

- ``promptTokenCount`` (our ``input_tokens``) *includes* ``cachedContentTokenCount``
  (``cached_tokens``): the cached part is billed at the context-caching rate, the rest at
  the input rate.
- ``candidatesTokenCount`` (``output_tokens``) *excludes* ``thoughtsTokenCount``
  (``thinking_tokens``): thinking tokens are billed at the output rate ("output price,
  including thinking tokens").
- Pro models have a second tier: when the prompt (``promptTokenCount``) is over 200,000
  tokens, every token of that call (input, cached, output) is billed at the long-context
  rates.
- Cache *storage* (per token-hour) is billed for explicit caches only; Stepwise creates
  none, so it is not priced here.

An unknown model is never guessed: ``price_call`` returns ``None`` and logs a warning, and
the usage record is stored with ``cost_usd = null`` (rollups then show that group's cost as
unknown instead of a wrong number).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

import structlog

log = structlog.get_logger(__name__)

PRICES_SOURCE = "https://ai.google.dev/gemini-api/docs/pricing"
"""Google's published price list (Gemini Developer API, Standard tier, paid)."""

PRICES_READ_ON = date(2026, 11, 22)
"""When this table was last checked. On that day the official page could not be fetched
from the build machine (no internet access); every figure below was checked against
public copies of that page: Google AI Developers Forum threads quoting it (2.5 Pro caching
$0.125/$0.25) and a 2026-07-04 snapshot of it (3 Flash Preview $0.50/$3.00/$0.05).
Re-check against ``PRICES_SOURCE`` before the first invoice and whenever Google announces
a price change."""

PER_MILLION = Decimal(1_000_000)
LONG_CONTEXT_THRESHOLD = 200_000
"""Prompts (``promptTokenCount``) above this many tokens use a model's long-context rates."""

STORED_COST_QUANTUM = Decimal("0.000000001")
"""Usage records store cost as float USD rounded to 1e-9 (a billionth of a dollar)."""


@dataclass(frozen=True, slots=True)
class Rates:
    """USD per 1M tokens for one prompt-size tier."""

    input: Decimal
    output: Decimal
    """Output tokens, thinking tokens included."""
    cached_input: Decimal
    """Input tokens served from the context cache (implicit or explicit)."""


@dataclass(frozen=True, slots=True)
class ModelPrice:
    model: str
    standard: Rates
    long_context: Rates | None = None
    """Rates when the prompt is over ``LONG_CONTEXT_THRESHOLD`` tokens (Pro models)."""

    def rates_for(self, prompt_tokens: int) -> tuple[Rates, Tier]:
        if self.long_context is not None and prompt_tokens > LONG_CONTEXT_THRESHOLD:
            return self.long_context, "long_context"
        return self.standard, "standard"


Tier = Literal["standard", "long_context"]


def _rates(input_: str, output: str, cached_input: str) -> Rates:
    return Rates(input=Decimal(input_), output=Decimal(output), cached_input=Decimal(cached_input))


PRICES: dict[str, ModelPrice] = {
    price.model: price
    for price in (
        ModelPrice(
            "gemini-2.5-pro",
            standard=_rates("1.25", "10.00", "0.125"),
            long_context=_rates("2.50", "15.00", "0.25"),
        ),
        ModelPrice("gemini-2.5-flash", standard=_rates("0.30", "2.50", "0.03")),
        ModelPrice("gemini-2.5-flash-lite", standard=_rates("0.10", "0.40", "0.01")),
        ModelPrice(
            "gemini-3-pro-preview",
            standard=_rates("2.00", "12.00", "0.20"),
            long_context=_rates("4.00", "18.00", "0.40"),
        ),
        ModelPrice("gemini-3-flash-preview", standard=_rates("0.50", "3.00", "0.05")),
        # Embeddings bill input tokens only (no output, no context cache).
        ModelPrice("gemini-embedding-001", standard=_rates("0.15", "0", "0")),
    )
}
"""Known models by canonical name. Anything else (previews with dates, ``-latest``
aliases, tuned models, other providers) is unknown on purpose."""

_RESOURCE_PREFIX = re.compile(r"^(?:.*/)?models/")  # models/…, publishers/google/models/…
_VERSION_SUFFIX = re.compile(r"^(?P<base>.+?)(?:-|@)\d{3}$")  # gemini-2.5-flash-001, …@001


def normalize_model(model: str) -> str:
    """The canonical name the price table is keyed by.

    ``models/gemini-2.5-flash`` → ``gemini-2.5-flash``; ``gemini-2.5-flash-001`` (a stable
    version pinned by number) → ``gemini-2.5-flash``; case and surrounding spaces are
    ignored. A numbered suffix is stripped only when the remaining name is a known model,
    so no unknown name is ever mapped onto a known one.
    """
    name = _RESOURCE_PREFIX.sub("", model.strip().lower())
    if name in PRICES:
        return name
    match = _VERSION_SUFFIX.match(name)
    if match is not None and match.group("base") in PRICES:
        return match.group("base")
    return name


def model_price(model: str) -> ModelPrice | None:
    return PRICES.get(normalize_model(model))


@dataclass(frozen=True, slots=True)
class CallCost:
    """The exact cost of one model call, by token kind (USD)."""

    model: str
    tier: Tier
    input_usd: Decimal
    cached_input_usd: Decimal
    output_usd: Decimal
    thinking_usd: Decimal

    @property
    def total_usd(self) -> Decimal:
        return self.input_usd + self.cached_input_usd + self.output_usd + self.thinking_usd


def cost_call(
    model: str,
    input_tokens: int,
    output_tokens: int,
    cached_tokens: int = 0,
    thinking_tokens: int = 0,
) -> CallCost | None:
    """Price one call by token kind; ``None`` (and a warning) for an unknown model."""
    for name, value in (
        ("input_tokens", input_tokens),
        ("output_tokens", output_tokens),
        ("cached_tokens", cached_tokens),
        ("thinking_tokens", thinking_tokens),
    ):
        if value < 0:
            raise ValueError(f"{name} must not be negative, got {value!r}")
    price = model_price(model)
    if price is None:
        log.warning(
            "cost.price_unknown",
            model=model,
            known_models=sorted(PRICES),
            prices_read_on=PRICES_READ_ON.isoformat(),
        )
        return None
    if cached_tokens > input_tokens:
        # The API counts cached tokens inside the prompt; more cached than prompt tokens
        # means a malformed usage block. Bill what was reported as prompt, all as cached.
        log.warning(
            "cost.cached_exceeds_input",
            model=model,
            input_tokens=input_tokens,
            cached_tokens=cached_tokens,
        )
        cached_tokens = input_tokens
    rates, tier = price.rates_for(input_tokens)
    return CallCost(
        model=price.model,
        tier=tier,
        input_usd=Decimal(input_tokens - cached_tokens) * rates.input / PER_MILLION,
        cached_input_usd=Decimal(cached_tokens) * rates.cached_input / PER_MILLION,
        output_usd=Decimal(output_tokens) * rates.output / PER_MILLION,
        thinking_usd=Decimal(thinking_tokens) * rates.output / PER_MILLION,
    )


def price_call(
    model: str,
    input_tokens: int,
    output_tokens: int,
    cached_tokens: int = 0,
    thinking_tokens: int = 0,
) -> Decimal | None:
    """Exact USD cost of one call, or ``None`` (and a warning log) for an unknown model.

    ``input_tokens`` is the whole prompt including ``cached_tokens``; ``output_tokens``
    excludes ``thinking_tokens`` (both as Gemini reports them)."""
    cost = cost_call(model, input_tokens, output_tokens, cached_tokens, thinking_tokens)
    return None if cost is None else cost.total_usd


def to_stored_usd(cost: Decimal | None) -> float | None:
    """The value written to ``UsageLog.cost_usd``: float USD rounded (half up) to 1e-9."""
    if cost is None:
        return None
    return float(cost.quantize(STORED_COST_QUANTUM, rounding=ROUND_HALF_UP))
