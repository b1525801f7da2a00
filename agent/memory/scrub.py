"""Nothing secret is remembered: the check a skill or recipe passes before it is stored.

A record leaks when any of its strings (keys included) holds one of the task's secret
values, a ``[secret:N]`` placeholder (a masked secret: the step it belongs to cannot be
replayed), or text that looks like a secret whoever wrote it: what
:func:`observability.secret_shapes` finds (known key shapes, Luhn-valid card numbers), a
JWT, a PEM block, or a long random-looking token (an unnamed API key).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, Final

from observability import PLACEHOLDER, secret_shapes

_JWT: Final = re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}")
_PEM: Final = re.compile(r"-----BEGIN [A-Z0-9 ]{2,40}-----")
_TOKEN: Final = re.compile(r"[A-Za-z0-9+/=_-]{24,}")
# Below this a known value counts only as a whole token ("0042" inside "10042" is not it),
# as in observability's redaction.
_WHOLE_TOKEN_BELOW: Final = 6
_MIN_ENTROPY: Final = 3.5  # bits per character; random base62 of 24 characters ≈ 4.2
# Mean length of the runs of one class (lower, upper, digit): random base62 ≈ 1.6 (95 % of
# 24-character tokens ≤ 2.2), CamelCase identifiers ≥ 2.5.
_MAX_MEAN_RUN: Final = 2.2


def _entropy(text: str) -> float:
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


def _class(ch: str) -> int:
    return 0 if ch.isdigit() else 1 if ch.isupper() else 2


def _random_looking(token: str) -> bool:
    """Upper case, lower case and digits inside (not only a trailing year), classes
    alternating as in random text (not ``CamelCaseName2024``, not a hex digest or UUID), and
    enough entropy."""
    chars = "".join(ch for ch in token if ch.isalnum())
    inner = chars.strip("0123456789")
    if len(chars) < 20 or not (any(c.isdigit() for c in inner) and any(c.isupper() for c in chars) and any(c.islower() for c in chars)):
        return False
    runs = 1 + sum(_class(a) != _class(b) for a, b in zip(chars, chars[1:]))
    return len(chars) / runs <= _MAX_MEAN_RUN and _entropy(chars) >= _MIN_ENTROPY


def secret_kind(value: str) -> str | None:
    """What secret ``value`` looks like (``"key or card number"``, ``"JWT"``, ``"PEM block"``,
    ``"random token"``), or ``None``."""
    if secret_shapes(value):
        return "key or card number"
    if _JWT.search(value):
        return "JWT"
    if _PEM.search(value):
        return "PEM block"
    if any(_random_looking(m.group(0)) for m in _TOKEN.finditer(value)):
        return "random token"
    return None


def looks_secret(value: str) -> bool:
    """``value`` holds something shaped like a secret whoever wrote it."""
    return secret_kind(value) is not None


def _holds(text: str, value: str) -> bool:
    if len(value) >= _WHOLE_TOKEN_BELOW:
        return value in text
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])", text) is not None


def leaks(record: Any, known: Iterable[str] = ()) -> str | None:
    """Why ``record`` (dicts, lists, tuples, strings; other scalars are ignored) must not be
    stored — ``"steps[1].value.text: holds a task secret"`` — or ``None`` when it is clean.
    The reason names where, never the value."""
    secrets = [v for v in dict.fromkeys(known) if isinstance(v, str) and v.strip()]
    stack: list[tuple[str, Any]] = [("$", record)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            reason = _why(item, secrets)
            if reason:
                return f"{path}: {reason}"
        elif isinstance(item, Mapping):
            for key, value in reversed(list(item.items())):
                where = f"{path}.{key}" if path != "$" else str(key)
                reason = _why(str(key), secrets)
                if reason:
                    return f"{where} (key): {reason}"
                stack.append((where, value))
        elif isinstance(item, (list, tuple)):
            stack.extend((f"{path}[{i}]", value) for i, value in reversed(list(enumerate(item))))
    return None


def _why(text: str, secrets: list[str]) -> str | None:
    if any(_holds(text, secret) for secret in secrets):
        return "holds a task secret"
    if PLACEHOLDER.search(text):
        return "holds a secret placeholder"
    kind = secret_kind(text)
    return f"looks like a secret ({kind})" if kind else None


__all__ = ["leaks", "looks_secret", "secret_kind"]
