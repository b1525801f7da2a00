from __future__ import annotations

from decimal import Decimal

import pytest
from structlog.testing import capture_logs

from cost import (
    PRICES,
    PRICES_READ_ON,
    PRICES_SOURCE,
    cost_call,
    normalize_model,
    price_call,
    to_stored_usd,
)


def test_flash_input_and_output_exact() -> None:
    # 1,000 × $0.30/M + 500 × $2.50/M
    assert price_call("gemini-2.5-flash", 1_000, 500) == Decimal("0.00155")


def test_cached_tokens_are_part_of_the_prompt_and_thinking_is_billed_as_output() -> None:
    # prompt 10,000 of which 4,000 cached; 1,000 answer + 2,000 thinking tokens
    cost = cost_call("gemini-2.5-flash", 10_000, 1_000, cached_tokens=4_000, thinking_tokens=2_000)
    assert cost is not None
    assert cost.input_usd == Decimal("0.0018")  # 6,000 × 0.30
    assert cost.cached_input_usd == Decimal("0.00012")  # 4,000 × 0.03
    assert cost.output_usd == Decimal("0.0025")  # 1,000 × 2.50
    assert cost.thinking_usd == Decimal("0.005")  # 2,000 × 2.50 (output rate)
    assert cost.total_usd == Decimal("0.00942")
    assert price_call("gemini-2.5-flash", 10_000, 1_000, 4_000, 2_000) == Decimal("0.00942")


def test_flash_lite_exact() -> None:
    assert price_call("gemini-2.5-flash-lite", 123_456, 7_890, 0, 0) == Decimal("0.0155016")


def test_pro_long_context_tier_applies_to_every_token_of_the_call() -> None:
    cost = cost_call("gemini-2.5-pro", 250_000, 10_000, cached_tokens=50_000, thinking_tokens=5_000)
    assert cost is not None
    assert cost.tier == "long_context"
    # 200,000 × 2.50 + 50,000 × 0.25 + 10,000 × 15 + 5,000 × 15
    assert cost.total_usd == Decimal("0.7375")


def test_pro_at_the_threshold_is_still_standard() -> None:
    cost = cost_call("gemini-2.5-pro", 200_000, 1_000)
    assert cost is not None and cost.tier == "standard"
    assert cost.total_usd == Decimal("0.26")  # 200,000 × 1.25 + 1,000 × 10
    above = cost_call("gemini-2.5-pro", 200_001, 0)
    assert above is not None and above.tier == "long_context"


def test_gemini_3_preview_prices() -> None:
    assert price_call("gemini-3-pro-preview", 100_000, 10_000) == Decimal(
        "0.32"
    )  # 100k × 2 + 10k × 12
    assert price_call("gemini-3-pro-preview", 300_000, 0) == Decimal("1.2")  # long: 300k × 4
    assert price_call("gemini-3-flash-preview", 2_000, 1_000, thinking_tokens=1_000) == Decimal(
        "0.007"
    )


def test_zero_tokens_cost_zero() -> None:
    assert price_call("gemini-2.5-flash", 0, 0) == Decimal(0)


@pytest.mark.parametrize(
    ("raw", "canonical"),
    [
        ("gemini-2.5-flash", "gemini-2.5-flash"),
        ("models/gemini-2.5-flash", "gemini-2.5-flash"),
        ("gemini-2.5-flash-001", "gemini-2.5-flash"),
        ("models/gemini-2.5-flash-002", "gemini-2.5-flash"),
        ("  Gemini-2.5-Flash  ", "gemini-2.5-flash"),
        ("gemini-2.5-flash-lite-001", "gemini-2.5-flash-lite"),
        ("publishers/google/models/gemini-2.5-pro@001", "gemini-2.5-pro"),
    ],
)
def test_model_names_are_normalised(raw: str, canonical: str) -> None:
    assert normalize_model(raw) == canonical
    assert price_call(raw, 100_000, 0) == PRICES[canonical].standard.input / 10


@pytest.mark.parametrize(
    "model",
    [
        "gemini-2.5-flash-preview-05-20",  # dated previews were priced differently
        "gemini-flash-latest",  # a moving alias
        "gemini-2.5-flash-0001",
        "gemini-2.5",
        "tunedModels/my-flash",
        "gpt-4o",
        "scripted-model",
    ],
)
def test_unknown_model_is_none_with_a_warning(model: str) -> None:
    with capture_logs() as logs:
        assert price_call(model, 1_000, 1_000) is None
    warnings = [entry for entry in logs if entry["log_level"] == "warning"]
    assert [w["event"] for w in warnings] == ["cost.price_unknown"]
    assert warnings[0]["model"] == model


def test_flash_lite_is_never_priced_as_flash() -> None:
    assert normalize_model("gemini-2.5-flash-lite") == "gemini-2.5-flash-lite"
    assert price_call("gemini-2.5-flash-lite", 1_000_000, 0) == Decimal("0.10")


def test_negative_tokens_are_a_programming_error() -> None:
    with pytest.raises(ValueError, match="output_tokens"):
        price_call("gemini-2.5-flash", 10, -1)


def test_cached_above_prompt_is_clamped_and_logged() -> None:
    with capture_logs() as logs:
        cost = cost_call("gemini-2.5-flash", 100, 0, cached_tokens=500)
    assert cost is not None and cost.total_usd == Decimal("0.000003")  # 100 cached × 0.03
    assert any(entry["event"] == "cost.cached_exceeds_input" for entry in logs)


def test_stored_cost_is_rounded_half_up_to_a_billionth() -> None:
    assert to_stored_usd(Decimal("0.0000000015")) == 0.000000002
    assert to_stored_usd(Decimal("0.00000000149")) == 0.000000001
    assert to_stored_usd(Decimal("0.00942")) == 0.00942
    assert to_stored_usd(None) is None


def test_source_and_date_are_stated() -> None:
    assert PRICES_SOURCE.startswith("https://ai.google.dev/")
    assert PRICES_READ_ON.year >= 2026
