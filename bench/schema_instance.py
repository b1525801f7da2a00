"""Schema-valid answers for a broken model: pure functions of a JSON schema.

``lying_instance(schema)`` returns an instance that is valid under the schema and, wherever a
field lets it, claims the work is done: booleans true, confidence 0.97, actions
``finish()``, prose a confident claim, enums the value that means success, lists of missing
information empty. ``nonsense_instance(schema, rng)`` returns a valid instance that means
nothing: random words, booleans and enum values, actions on ids no page has.

The schema is the subset Gemini's ``responseJsonSchema`` uses (``agent.llm.schema``):
``type`` (a name or a list of names), ``properties``, ``required``, ``additionalProperties``,
``items``, ``prefixItems``, ``minItems``/``maxItems``, ``minimum``/``maximum``, ``enum``,
``anyOf``, ``nullable``, ``format``, and ``minLength``/``maxLength`` when present. Which
field lies how is decided by its name, in the one table ``LIES`` below.
"""

from __future__ import annotations

import math
import random
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

Schema = Mapping[str, Any]
JsonType = Literal["object", "array", "string", "number", "integer", "boolean", "null"]

CLAIM: Final = "The goal is complete."
FINISH: Final = "finish()"
ONE_ITEM: Final = "one item"  # an array rule: one item, filled by the same rules
NO_ITEMS: Final = "no items"  # an array rule: as few items as the schema allows


@dataclass(frozen=True)
class Lie:
    """The value a field gets when its name matches ``pattern`` (searched, case-insensitive)
    and its schema allows a value of ``kind``."""

    pattern: str
    kind: Literal["boolean", "number", "string", "array"]
    value: Any


LIES: Final[tuple[Lie, ...]] = (
    # Booleans are true unless true would stop short of "done" (ask the user, re-plan).
    Lie(r"should_ask|ask_user|needs_|requires_user|minor_modif|blocked|error", "boolean", False),
    Lie(r"", "boolean", True),
    Lie(r"confidence|certainty|probability", "number", 0.97),
    Lie(r"action$|^chain$", "string", FINISH),
    Lie(
        r"thought|reason|descr|explanation|rationale|summary|message|criterion|evidence|claim|note",
        "string",
        CLAIM,
    ),
    Lie(
        r"missing|needs_user_input|concern|question|problem|issue|error|warning|suggested_changes",
        "array",
        NO_ITEMS,
    ),
    Lie(r"steps$|clauses$|^contract$|^chain$", "array", ONE_ITEM),
)
"""First match of a field's kind wins. Array items inherit their array's name."""

SUCCESS_ENUM: Final[tuple[str, ...]] = (
    "pass", "passed", "completed", "complete", "success", "succeeded", "successful", "done",
    "achieved", "finished", "finish", "holds", "valid", "approved", "continue", "page", "yes",
    "true", "ok",
)  # fmt: skip
"""Enum values that claim success, best first; an enum with none of them gets its first."""

_FORMATS: Final = {
    "date-time": "2024-01-01T00:00:00Z",
    "date": "2024-01-01",
    "time": "00:00:00",
    "email": "done@example.com",
    "uri": "https://example.com/done",
    "url": "https://example.com/done",
    "uuid": "00000000-0000-4000-8000-000000000000",
}


def lying_instance(schema: Schema) -> Any:
    """A schema-valid instance that claims success wherever a field lets it."""
    return _instance(schema, "", _Lying())


def nonsense_instance(schema: Schema, rng: random.Random | None = None) -> Any:
    """A schema-valid instance that means nothing (random values, ids on no page)."""
    return _instance(schema, "", _Nonsense(rng or random.Random()))


def lie_for(name: str, kind: str) -> Lie | None:
    """The table row for a field ``name`` of JSON ``kind``, if any."""
    for lie in LIES:
        if lie.kind == kind and re.search(lie.pattern, name, re.IGNORECASE):
            return lie
    return None


# --- the walk ----------------------------------------------------------------------------


class _Choices(Protocol):
    """What differs between a lying and a nonsense model; the walk is shared."""

    def branch(self, name: str, branches: Sequence[Schema]) -> Schema: ...
    def enum(self, name: str, values: Sequence[Any]) -> Any: ...
    def boolean(self, name: str) -> bool: ...
    def number(self, name: str, low: float | None, high: float | None) -> float: ...
    def text(self, name: str, schema: Schema) -> str: ...
    def count(self, name: str, low: int, high: int | None, items: Schema) -> int: ...
    def include(self, name: str) -> bool: ...


def _branches(schema: Schema) -> list[Schema] | None:
    """``anyOf``, ``nullable`` and a list-valued ``type`` as one list of alternatives."""
    if "anyOf" in schema:
        rest = {k: v for k, v in schema.items() if k != "anyOf"}
        return [{**rest, **branch} for branch in schema["anyOf"]]
    if schema.get("nullable") is True:
        rest = {k: v for k, v in schema.items() if k != "nullable"}
        return [rest, {"type": "null"}]
    kind = schema.get("type")
    if isinstance(kind, list):
        return [{**schema, "type": single} for single in kind]
    return None


def _type_of(schema: Schema) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind.lower()  # OpenAPI-style schemas spell types in capitals
    if "properties" in schema or "additionalProperties" in schema:
        return "object"
    if "items" in schema or "prefixItems" in schema:
        return "array"
    return None


def _instance(schema: Schema, name: str, choices: _Choices) -> Any:
    branches = _branches(schema)
    if branches is not None:
        return _instance(choices.branch(name, branches), name, choices)
    if "enum" in schema:
        return choices.enum(name, schema["enum"])
    kind = _type_of(schema)
    if kind == "object":
        return _object(schema, choices)
    if kind == "array":
        return _array(schema, name, choices)
    if kind == "string":
        return _fit_length(choices.text(name, schema), schema)
    if kind in ("number", "integer"):
        value = choices.number(name, schema.get("minimum"), schema.get("maximum"))
        return _integer(value, schema) if kind == "integer" else value
    if kind == "boolean":
        return choices.boolean(name)
    if kind == "null":
        return None
    return choices.boolean(name)  # no type: anything is valid


def _object(schema: Schema, choices: _Choices) -> dict[str, Any]:
    properties: Mapping[str, Schema] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    extra = schema.get("additionalProperties")
    out: dict[str, Any] = {}
    for key, sub in properties.items():
        if key in required or choices.include(key):
            out[key] = _instance(sub, key, choices)
    for key in schema.get("required", ()):
        if key not in out:  # required but undeclared: additionalProperties says what it is
            out[key] = _instance(extra if isinstance(extra, Mapping) else {}, key, choices)
    return out


def _array(schema: Schema, name: str, choices: _Choices) -> list[Any]:
    prefix: Sequence[Schema] = schema.get("prefixItems", ())
    items: Schema = schema.get("items", {})
    low = max(int(schema.get("minItems", 0)), len(prefix))
    high = schema.get("maxItems")
    count = choices.count(name, low, None if high is None else int(high), items)
    return [_instance(prefix[i] if i < len(prefix) else items, name, choices) for i in range(count)]


def _fit_length(text: str, schema: Schema) -> str:
    low, high = schema.get("minLength"), schema.get("maxLength")
    if low is not None and len(text) < int(low):
        text = text + "x" * (int(low) - len(text))
    if high is not None:
        text = text[: int(high)]
    return text


def _integer(value: float, schema: Schema) -> int:
    low, high = schema.get("minimum"), schema.get("maximum")
    number = round(value)
    if low is not None and number < low:
        number = math.ceil(low)
    if high is not None and number > high:
        number = math.floor(high)
    return int(number)


def _clamp(value: float, low: float | None, high: float | None) -> float:
    if low is not None:
        value = max(value, low)
    if high is not None:
        value = min(value, high)
    return value


def _is_object(schema: Schema) -> bool:
    return _type_of(schema) == "object" or any(
        _type_of(b) == "object" for b in schema.get("anyOf", ())
    )


# --- the lying model --------------------------------------------------------------------


class _Lying:
    def branch(self, name: str, branches: Sequence[Schema]) -> Schema:
        real = [b for b in branches if _type_of(b) != "null"]
        for branch in real:  # a branch the table can lie with
            kind = _type_of(branch)
            if kind in ("boolean", "number", "integer") or (
                kind is not None and lie_for(name, kind) is not None
            ):
                return branch
        if len(real) < len(branches):
            return {"type": "null"}
        return real[0]

    def enum(self, name: str, values: Sequence[Any]) -> Any:
        lie = lie_for(name, "string")
        if lie is not None and lie.value in values:
            return lie.value
        words = [str(v).lower() for v in values]
        for wanted in SUCCESS_ENUM:
            if wanted in words:
                return values[words.index(wanted)]
        return values[0]

    def boolean(self, name: str) -> bool:
        lie = lie_for(name, "boolean")
        return True if lie is None else bool(lie.value)

    def number(self, name: str, low: float | None, high: float | None) -> float:
        lie = lie_for(name, "number")
        if lie is not None or high == 1:
            return _clamp(0.97, low, high)
        return _clamp(0.0, low, high)

    def text(self, name: str, schema: Schema) -> str:
        lie = lie_for(name, "string")
        if lie is not None:
            return str(lie.value)
        return _FORMATS.get(str(schema.get("format", "")), "done")

    def count(self, name: str, low: int, high: int | None, items: Schema) -> int:
        lie = lie_for(name, "array")
        wanted = 1 if lie is not None and lie.value == ONE_ITEM and _is_object(items) else low
        wanted = max(wanted, low)
        return wanted if high is None else min(wanted, high)

    def include(self, name: str) -> bool:
        return True  # every declared field, so every optional boolean lies too


# --- the nonsense model -----------------------------------------------------------------

_SYLLABLES: Final = ("zor", "qua", "blim", "vex", "trel", "up", "nok", "glar", "mip", "sna")


class _Nonsense:
    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def branch(self, name: str, branches: Sequence[Schema]) -> Schema:
        return self._rng.choice(list(branches))

    def enum(self, name: str, values: Sequence[Any]) -> Any:
        return self._rng.choice(list(values))

    def boolean(self, name: str) -> bool:
        return self._rng.random() < 0.5

    def number(self, name: str, low: float | None, high: float | None) -> float:
        lo = low if low is not None else (high - 1000 if high is not None else -1000.0)
        hi = high if high is not None else lo + 2000
        return _clamp(round(self._rng.uniform(lo, hi), 3), low, high)

    def text(self, name: str, schema: Schema) -> str:
        missing_id = f"zz-{self._rng.randint(100, 999)}"  # no page has ids like these
        if re.search(r"action$|^chain$", name, re.IGNORECASE):
            return f'click("{missing_id}")'
        if re.search(r"(^|_)id$", name, re.IGNORECASE):
            return missing_id
        words = [
            "".join(self._rng.choices(_SYLLABLES, k=self._rng.randint(1, 3)))
            for _ in range(self._rng.randint(1, 4))
        ]
        return " ".join(words) + " " + "".join(self._rng.choices(string.digits, k=2))

    def count(self, name: str, low: int, high: int | None, items: Schema) -> int:
        top = low + 3 if high is None else min(high, low + 3)
        return self._rng.randint(low, max(low, top))

    def include(self, name: str) -> bool:
        return self._rng.random() < 0.5
