"""Read one ``generateContent`` response: the validated answer, or why it is unusable."""

from __future__ import annotations

import re
from typing import TypeVar

from google.genai import types
from pydantic import BaseModel, ValidationError

from agent.llm.usage import OutputErrorKind

T = TypeVar("T", bound=BaseModel)

BLOCKING_FINISH = frozenset(
    {
        types.FinishReason.SAFETY,
        types.FinishReason.PROHIBITED_CONTENT,
        types.FinishReason.BLOCKLIST,
        types.FinishReason.SPII,
        types.FinishReason.RECITATION,
    }
)
TRUNCATING_FINISH = frozenset({types.FinishReason.MAX_TOKENS, types.FinishReason.CONTINUATION})
_MAX_ERRORS = 5
_UNSAFE_LOC = re.compile(r"[^A-Za-z0-9_]")
_FENCE = re.compile(r"^\s*```(?:json)?\s*\n(.*)\n\s*```\s*$", re.DOTALL)


class OutputIssue(Exception):
    """The response came back but holds no usable answer. ``summary`` is built from the
    schema and error types only (never from page text or model prose), so it may go into
    the trusted repair instructions."""

    def __init__(self, kind: OutputErrorKind, summary: str, *, reason: str | None = None):
        super().__init__(summary)
        self.kind: OutputErrorKind = kind
        self.summary = summary
        self.reason = reason


def _loc(parts: tuple[int | str, ...]) -> str:
    return ".".join(_UNSAFE_LOC.sub("?", str(part))[:40] for part in parts) or "<root>"


def summarise_validation(error: ValidationError) -> str:
    details = error.errors(include_url=False, include_input=False, include_context=False)
    lines = [f"{_loc(d['loc'])}: {d['msg']}" for d in details[:_MAX_ERRORS]]
    if len(details) > _MAX_ERRORS:
        lines.append(f"and {len(details) - _MAX_ERRORS} more errors")
    return "; ".join(lines)[:600]


def read_output(response: types.GenerateContentResponse, output_type: type[T]) -> T:
    """The answer as ``output_type``, or raise ``OutputIssue``."""
    feedback = response.prompt_feedback
    if feedback is not None and feedback.block_reason is not None:
        reason = str(feedback.block_reason.value)
        raise OutputIssue("blocked", f"prompt blocked ({reason})", reason=reason)
    if not response.candidates:
        raise OutputIssue("empty", "the response has no candidates")
    finish = response.candidates[0].finish_reason
    if finish in BLOCKING_FINISH:
        reason = str(finish.value)
        raise OutputIssue("blocked", f"answer stopped by the provider ({reason})", reason=reason)
    if finish in TRUNCATING_FINISH:
        raise OutputIssue("truncated", f"the answer was cut off (finish reason {finish.value})")
    if isinstance(response.parsed, output_type):
        return response.parsed
    text = response.text
    if not text or not text.strip():
        finish_note = f" (finish reason {finish.value})" if finish is not None else ""
        raise OutputIssue("empty", f"the answer has no text{finish_note}")
    fenced = _FENCE.match(text)
    if fenced:  # a model that wraps JSON in a markdown fence despite the mime type
        text = fenced.group(1)
    try:
        return output_type.model_validate_json(text)
    except ValidationError as error:
        summary = summarise_validation(error)
        if any(d["type"] == "json_invalid" for d in error.errors(include_url=False)):
            kind: OutputErrorKind = "truncated" if "EOF" in summary else "invalid_json"
            raise OutputIssue(kind, summary) from None
        raise OutputIssue("schema_mismatch", summary) from None
