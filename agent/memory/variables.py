"""A recorded target with the goal's values as variables (``{v1}``), and back.

A flow recorded for "Click the *Ada* row's Edit button" must work for "... the *Bob* row's
...": every value of the goal found in a target's attributes is stored as its variable,
never as the value (values may be names, amounts — or secrets).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from agent.memory.targets import SemanticTarget

_TEXT_FIELDS = ("name", "placeholder", "context", "href")


def templated(target: SemanticTarget, bindings: Mapping[str, str]) -> SemanticTarget:
    """``target`` with each bound value found in its text attributes as ``{variable}``
    (longest values first, whole words only, case-insensitive)."""
    if not bindings:
        return target
    ordered = sorted(((v, k) for k, v in bindings.items() if v and v.strip()), key=lambda p: len(p[0]), reverse=True)
    changes: dict[str, object] = {}
    for name in _TEXT_FIELDS:
        value = getattr(target, name)
        if value:
            changes[name] = _substitute(value, ordered)
    if target.container:
        changes["container"] = tuple(_substitute(c, ordered) for c in target.container)
    return dataclasses.replace(target, **changes)  # type: ignore[arg-type]


def _substitute(text: str, ordered: list[tuple[str, str]]) -> str:
    for value, variable in ordered:
        pattern = re.compile(rf"(?<!\w){re.escape(value.strip())}(?!\w)", re.IGNORECASE)
        text = pattern.sub("{" + variable + "}", text)
    return text
