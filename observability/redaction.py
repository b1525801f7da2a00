"""Secrets never leave in plain text: the one mask, and where it is applied.

A request that handles a secret (a password the goal gives, a value typed into a password
field — :mod:`agent.secrets` decides what is one) registers its values here with
:func:`hide_secrets`. From then on, in that request's context, every log line
(:func:`redact_log_event`), LangFuse observation (the client's ``mask``), Sentry event and
model prompt shows each of them as its placeholder ``[secret:N]`` (N numbers the task's
secrets from 1). Text that merely *looks* like a secret — a payment-card number (Luhn
valid), an API key of a known shape — is shown as ``[secret]`` whether or not anything
registered it. Those two are the one documented mask form (docs/api.md, "Secrets").

The registry is a context variable holding a mutable holder, so a value registered deep
inside the graph (a task's node runs in a copied context) is seen by the whole request.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Final

MASK: Final = "[secret]"
PLACEHOLDER: Final = re.compile(r"\[secret:(\d{1,3})\]")
# Values this short are masked only as whole tokens (a PIN "0042" inside an id stays);
# longer ones wherever they appear (a password inside a URL, a concatenation).
_WHOLE_TOKEN_BELOW: Final = 6

_KEY_SHAPES: Final = re.compile(
    r"(?<![A-Za-z0-9_-])(?:"
    r"sk[-_](?:live_|test_|proj-)?[A-Za-z0-9_-]{16,}"  # OpenAI / Stripe secret keys
    r"|(?:pk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"  # Stripe keys
    r"|gh[pousr]_[A-Za-z0-9]{30,}"  # GitHub tokens
    r"|xox[abposr]-[A-Za-z0-9-]{10,}"  # Slack tokens
    r"|AKIA[0-9A-Z]{16}"  # AWS access key id
    r"|AIza[0-9A-Za-z_-]{35}"  # Google API key
    r"|sw_[A-Za-z0-9_-]{20,}"  # Stepwise's own API keys
    r")(?![A-Za-z0-9_-])"
)
# 13-19 digits, optionally in groups separated by one space or dash (card numbers).
_DIGIT_RUN: Final = re.compile(r"(?<![\d.\w-])\d(?:[ -]?\d){12,18}(?![\d\w]|[.-]\d)")


def luhn_valid(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def looks_like_card_number(text: str) -> bool:
    digits = re.sub(r"[ -]", "", text)
    return digits.isdigit() and 13 <= len(digits) <= 19 and len(set(digits)) > 1 and luhn_valid(digits)


def secret_shapes(text: str) -> list[str]:
    """The substrings of ``text`` that look like secrets whoever wrote them (keys, cards)."""
    found = [m.group(0) for m in _KEY_SHAPES.finditer(text)]
    found += [m.group(0) for m in _DIGIT_RUN.finditer(text) if looks_like_card_number(m.group(0))]
    return found


def placeholder(number: int) -> str:
    return f"[secret:{number}]"


@dataclass
class Masker:
    """Numbered secret values and how each is masked: (pattern, placeholder), longest first."""

    values: list[str] = field(default_factory=list)
    patterns: list[tuple[re.Pattern[str], str, int]] = field(default_factory=list)  # (pattern, placeholder, length)

    @classmethod
    def of(cls, numbered: Mapping[int, str]) -> Masker:
        masker = cls()
        for number, value in numbered.items():
            masker.add(value, number)
        return masker

    def mask(self, text: str) -> str:
        """Each value as its placeholder (no shape masking: reversible)."""
        for pattern, mark, _length in self.patterns:
            text = pattern.sub(mark, text)
        return text

    def add(self, value: str, number: int) -> None:
        if not value or value in self.values:
            return
        self.values.append(value)
        mark = placeholder(number)
        for form in _forms(value):
            self.patterns.append((_pattern(form), mark, len(form)))
        # Longest value first: "1234-5678" is masked whole before "1234" could split it.
        self.patterns.sort(key=lambda item: item[2], reverse=True)


_current: ContextVar[Masker | None] = ContextVar("stepwise_hidden_secrets", default=None)


def _forms(value: str) -> list[str]:
    """The value as written, as Python shows it (``{value!r}`` in a message) and each of those
    as it appears inside JSON or an action's quoted argument."""
    shown = [value, repr(value)[1:-1]]
    forms = [*shown, *(json.dumps(f, ensure_ascii=False)[1:-1] for f in shown), *(json.dumps(f)[1:-1] for f in shown)]
    return list(dict.fromkeys(forms))


_TOKEN_START: Final = "(?<![A-Za-z0-9])"
_TOKEN_END: Final = "(?![A-Za-z0-9])"


def _pattern(form: str) -> re.Pattern[str]:
    body = re.escape(form)
    if len(form) < _WHOLE_TOKEN_BELOW:
        return re.compile(f"{_TOKEN_START}{body}{_TOKEN_END}")
    return re.compile(body)


def start_secret_scope() -> None:
    """A fresh registry for one HTTP request (set by the edge's request-context middleware):
    values registered anywhere in the request stay masked until it ends — also in the
    error report of an exception that escapes the agent."""
    _current.set(Masker())


@contextmanager
def hide_secrets(numbered: Mapping[int, str] | None = None) -> Iterator[None]:
    """Mask these values (number → value) in everything this context emits, until exit.
    Nested calls share the outer holder, so values only ever accumulate in one request."""
    holder = _current.get()
    if holder is not None:
        for number, value in (numbered or {}).items():
            holder.add(value, number)
        yield
        return
    holder = Masker()
    for number, value in (numbered or {}).items():
        holder.add(value, number)
    token = _current.set(holder)
    try:
        yield
    finally:
        _current.reset(token)


def hide_more(numbered: Mapping[int, str]) -> None:
    """Register values found mid-request (e.g. typed into a password field)."""
    holder = _current.get()
    if holder is not None:
        for number, value in numbered.items():
            holder.add(value, number)


def hidden_values() -> tuple[str, ...]:
    holder = _current.get()
    return tuple(holder.values) if holder is not None else ()


def redact_text(text: str) -> str:
    """``text`` with every registered secret as its placeholder and every secret-shaped
    substring as ``[secret]``."""
    holder = _current.get()
    if holder is not None:
        text = holder.mask(text)
    if _KEY_SHAPES.search(text):
        text = _KEY_SHAPES.sub(MASK, text)
    if _DIGIT_RUN.search(text):
        text = _DIGIT_RUN.sub(lambda m: MASK if looks_like_card_number(m.group(0)) else m.group(0), text)
    return text


def redactor(numbered: Mapping[int, str]) -> Callable[[str], str]:
    """A masking function for text printed outside any request (the CLI's progress): these
    values as placeholders, secret-shaped text as ``[secret]``."""
    masker = Masker.of(numbered)

    def mask(text: str) -> str:
        with hide_secrets():
            return redact_text(masker.mask(text))

    return mask


def redact(value: Any) -> Any:
    """``value`` (JSON-like: str, dict, list, tuple, scalars) with every string redacted.
    Other objects are rendered with ``str`` and redacted when that shows a secret."""
    if isinstance(value, str):
        return redact_text(value)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, Mapping):
        return {k: redact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v) for v in value]
    if isinstance(value, tuple):
        return tuple(redact(v) for v in value)
    shown = str(value)
    masked = redact_text(shown)
    return value if masked == shown else masked


def redact_log_event(_logger: Any, _method: str, event: dict[str, Any]) -> dict[str, Any]:
    """structlog processor: every field of the line, the event name and exception text."""
    return {key: redact(val) for key, val in event.items()}


def mask_for_langfuse(*, data: Any, **_: Any) -> Any:
    """The LangFuse client's ``mask``: applied to every observation's input, output and
    metadata before the SDK queues it."""
    return redact(data)
