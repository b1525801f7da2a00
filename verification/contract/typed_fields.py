"""A field named by the kind of value it takes: "Enter 9:37 PM as the time", "the date" — where
no field is named so, the one unnamed field whose input type takes that kind of value."""

from __future__ import annotations

from typing import Final

from verification.elements import PageElement

# The words for a kind of value → the input types that take it. Only a field with no name of
# its own is found this way.
FIELD_TYPE_WORDS: Final[dict[tuple[str, ...], frozenset[str]]] = {
    ("date",): frozenset({"date"}),
    ("time",): frozenset({"time"}),
    ("date", "and", "time"): frozenset({"datetime-local"}),
    ("month",): frozenset({"month"}),
    ("week",): frozenset({"week"}),
    ("number",): frozenset({"number"}),
    ("email",): frozenset({"email"}),
    ("email", "address"): frozenset({"email"}),
    ("password",): frozenset({"password"}),
    ("phone",): frozenset({"tel"}),
    ("phone", "number"): frozenset({"tel"}),
    ("telephone",): frozenset({"tel"}),
    ("url",): frozenset({"url"}),
    ("colour",): frozenset({"color"}),
    ("color",): frozenset({"color"}),
}


def named_by_type(name_words: tuple[str, ...], fields: list[tuple[int, PageElement]]) -> list[tuple[float, int, PageElement]]:
    """"the time", "the date" among ``fields`` (the page's usable text fields, in page order):
    the one unnamed field whose input type takes that kind of value — else, when the page has
    a single field and it has no name, that field (a person sees nothing else the words could
    mean)."""
    types = FIELD_TYPE_WORDS.get(name_words)
    if types is None:
        return []
    unnamed = [(order, e) for order, e in fields if not (e.name.strip() or (e.placeholder or "").strip())]
    typed = [(order, e) for order, e in unnamed if e.input_type in types]
    if len(typed) == 1:
        return [(0.9, *typed[0])]
    if not typed and len(fields) == 1 and unnamed:
        return [(0.8, *unnamed[0])]
    return []
