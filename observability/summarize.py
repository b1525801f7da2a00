"""Small, bounded summaries of what goes into traces: never a whole DOM, prompt or page.

Everything sent to LangFuse passes through here, so its size is capped in one place."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

MAX_TEXT_CHARS = 2_000
"""Longest prompt/answer excerpt attached to a generation."""

MAX_SCALAR_STR_CHARS = 64
"""Longest string value shown verbatim in a node span's state summary."""

MAX_KEYS = 40


def truncate(text: str | None, limit: int = MAX_TEXT_CHARS) -> str | None:
    """``text`` cut to ``limit`` characters, with the number of characters dropped."""
    if text is None or len(text) <= limit:
        return text
    return f"{text[:limit]}… [{len(text) - limit} more chars]"


def summarize_value(value: Any) -> Any:
    """A small scalar as itself; anything else as a short placeholder (``<PageState>``,
    ``<str len=123456>``, ``<list len=3>``)."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, Enum):
        return summarize_value(value.value)
    if isinstance(value, str):
        return value if len(value) <= MAX_SCALAR_STR_CHARS else f"<str len={len(value)}>"
    if isinstance(value, list | tuple | set | frozenset | dict):
        return f"<{type(value).__name__} len={len(value)}>"
    return f"<{type(value).__name__}>"


def summarize_mapping(values: Mapping[str, Any] | None) -> dict[str, Any]:
    """Keys and small scalars of a graph state or a node's update, sorted by key."""
    if not values:
        return {}
    items = sorted((str(key), value) for key, value in values.items())
    summary = {key: summarize_value(value) for key, value in items[:MAX_KEYS]}
    if len(items) > MAX_KEYS:
        summary["…"] = f"{len(items) - MAX_KEYS} more keys"
    return summary
