"""Autocomplete fields, read from the goal: type into a field, then choose the suggestion
that fits.

Three ways people say it (values quoted or not):

* an item described by conditions — "Enter an item that starts with "An" and ends with
  "ica"", "Pick a country starting with Ger", "type a city containing "burg" in the City
  field": type the start (or the part it must contain), choose the suggestion that meets
  every condition; "an / a / any" allows any that does (the first), "the" needs exactly one;
* a part to type and the item to choose — "Type "San" in the City field and choose "San
  Francisco" from the suggestions", "Enter "Par" and select "Paris"" (two clauses the goal
  joined with "and": :func:`merge_suggest` puts them back together);
* an item chosen from the autocomplete — "Select "Berlin" from the autocomplete": type it,
  choose it.

The step is ``suggest`` with a :class:`planning.SuggestionPick`; what proves it is the
field's value (:mod:`agent.policy.understand`), never the click on a suggestion.
"""

from __future__ import annotations

import re
from typing import Final

from agent.policy.frame_parts import Frame
from agent.policy.frame_parts import original as _original
from agent.policy.frame_parts import unquote as _unquote
from agent.policy.lexicon import SUGGESTION_GENERIC_NOUNS, SUGGESTION_SOURCES
from agent.policy.text import fold
from planning import PlanStep, SuggestionPick

_VAL: Final = r"(?:\"[^\"]+\"|“[^”]+”|'[^']+'|[^\s,;\"“”]+)"
_SOURCE_WORDS: Final = "|".join(sorted(map(re.escape, SUGGESTION_SOURCES), key=len, reverse=True))
# "from the suggestions", "in the autocomplete list", "among the City suggestions"
_SOURCE: Final = rf"(?:from|in|among|on|using|with|via)\s+(?:the\s+)?(?:[a-z]+\s+){{0,2}}?(?:{_SOURCE_WORDS})(?:\s+(?:list|menu|box|field|dropdown))?"
_FIELD: Final = r"(?:in|into|inside|on)\s+(?:the\s+)?(?P<field>[a-z][a-z -]{0,30}?\s+(?:field|box|input|textbox|text box|search box|combobox|combo box))"
_DESCRIBED: Final = re.compile(
    r"^(?P<verb>enter|type|input|write|put|pick|choose|select|find|add|fill in)\s+"
    r"(?P<det>an|a|any|some|one|the)\s+(?P<noun>[a-z]+(?:\s+name)?)\s+(?P<rest>.+)$"
)
_CONDITIONS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    ("starts", re.compile(rf"^(?:starts?|starting|begins?|beginning)\s+with\s+(?P<v>{_VAL})")),
    ("ends", re.compile(rf"^(?:ends?|ending)\s+(?:with|in)\s+(?P<v>{_VAL})")),
    ("contains", re.compile(rf"^(?:contains?|containing|includes?|including|has|having)\s+(?P<v>{_VAL})")),
)
_JOINER: Final = re.compile(r"^(?:,\s*|and\s+|but\s+|that\s+|which\s+|whose\s+(?:name|value|text)\s+|with\s+a\s+name\s+)+")
_FIELD_AT: Final = re.compile(rf"^{_FIELD}")
_SOURCE_AT: Final = re.compile(rf"^{_SOURCE}")
_TYPE_VERB: Final = r"(?:start typing|begin typing|type|enter|input|write|put)"
_CHOOSE_VERB: Final = r"(?:choose|select|pick|click(?:\s+on)?|take)"
_TYPED_THEN_CHOSEN: Final = re.compile(
    rf"^{_TYPE_VERB}\s+(?P<typed>.+?)(?:\s+{_FIELD})?\s+and\s+(?:then\s+)?{_CHOOSE_VERB}\s+"
    rf"(?:the\s+)?(?:(?:suggestion|suggested|option|item|entry|result)\s+)?(?P<item>.+?)"
    rf"(?:(?P<source>\s+{_SOURCE})|(?P<place>\s+(?:from|in)\s+(?:the\s+)?(?:list|options|menu|dropdown|drop-down)))?$"
)
_CHOSEN_FROM: Final = re.compile(
    rf"^{_CHOOSE_VERB}\s+(?P<item>.+?)\s+(?P<source>{_SOURCE})$"
)
_ANY: Final = frozenset({"a", "an", "any", "some", "one"})


def _value(raw: str, folded: str, match: re.Match[str], group: str) -> str:
    return _unquote(_original(raw, folded, match.start(group), match.end(group)))


def _plain(value: str) -> bool:
    """A value as a value: quoted, or words with no clause grammar in them."""
    return bool(value.strip()) and not re.search(r"\b(?:and|then|into|from)\b", fold(value)) or value.startswith(('"', "“", "'"))


def described_item(raw: str, folded: str) -> Frame | None:
    """"Enter an item that starts with "An" and ends with "ica"": conditions on the item."""
    match = _DESCRIBED.match(folded)
    if match is None:
        return None
    rest_at = match.start("rest")
    rest = folded[rest_at:]
    found: dict[str, str] = {}
    field_: str | None = None
    means = [match.group("verb"), match.group("det")]
    position = 0
    while position < len(rest):
        joiner = _JOINER.match(rest[position:])
        if joiner is not None and joiner.end():
            means.extend(joiner.group(0).replace(",", " ").split())
            position += joiner.end()
            continue
        for kind, pattern in _CONDITIONS:
            condition = pattern.match(rest[position:])
            if condition is not None and kind not in found:
                start = rest_at + position + condition.start("v")
                found[kind] = _unquote(_original(raw, folded, start, start + len(condition.group("v"))))
                means.extend(rest[position : position + condition.start("v")].split())
                position += condition.end()
                break
        else:
            if (at := _FIELD_AT.match(rest[position:])) is not None and field_ is None:
                field_ = at.group("field").strip()
                means.append(rest[position : position + at.start("field")])
                position += at.end()
            elif (at := _SOURCE_AT.match(rest[position:])) is not None:
                means.append(at.group(0))
                position += at.end()
            else:
                return None  # more than conditions on the item: not this frame
        position += len(rest[position:]) - len(rest[position:].lstrip())
    if not found:
        return None
    noun = match.group("noun")
    if field_ is None and noun not in SUGGESTION_GENERIC_NOUNS:
        field_ = f"{noun} field"  # "pick a country …": the Country field
    else:
        means.append(noun)
    typed = found.get("starts") or found.get("contains")
    if typed is None:
        return None  # only an ending: nothing to type that the suggestions would start from
    pick = SuggestionPick(starts=found.get("starts"), ends=found.get("ends"), contains=found.get("contains"), any=match.group("det") in _ANY)
    return Frame([_suggest_step(typed, field_, pick)], tuple(means))


def typed_then_chosen(raw: str, folded: str) -> Frame | None:
    """"Type "San" in the City field and choose "San Francisco" from the suggestions"."""
    match = _TYPED_THEN_CHOSEN.match(folded)
    if match is None:
        return None
    typed, item = _value(raw, folded, match, "typed"), _value(raw, folded, match, "item")
    if not _plain(typed) or not _plain(item):
        return None
    if match.group("source") is None and not fold(item).startswith(fold(typed)):
        return None  # "type x and select y" with no suggestions named: two steps, not this frame
    field_ = match.group("field").strip() if match.group("field") else None
    means = ["type", "enter", "choose", "select", "pick", "click", "on", "suggestion", "suggested", "option", "item", "entry", "result"]
    for place in ("source", "place"):  # "from the list" only says where, once the item completes the typing
        if match.group(place):
            means.append(match.group(place))
    means.extend(f for f in ("start", "begin", "typing") if f in folded.split())
    return Frame([_suggest_step(typed, field_, SuggestionPick(equals=item))], tuple(means))


def chosen_from(raw: str, folded: str) -> Frame | None:
    """"Select "Berlin" from the autocomplete": type the item, choose it."""
    match = _CHOSEN_FROM.match(folded)
    if match is None:
        return None
    item = _value(raw, folded, match, "item")
    if not _plain(item) or re.match(r"^(?:an?|any|the|some|one)\s", fold(item)) and not item.startswith(('"', "“", "'")):
        return None
    source = match.group("source")
    named = re.match(rf"^(?:from|in|among|on|using|with|via)\s+(?:the\s+)?(?P<f>(?!the\b)[a-z]+(?:\s+[a-z]+)?)\s+(?:{_SOURCE_WORDS})", source)
    field_ = f"{named.group('f')} field" if named is not None and fold(named.group("f")) not in SUGGESTION_SOURCES else None
    return Frame([_suggest_step(item, field_, SuggestionPick(equals=item))], (source.split()[0], "the", *SUGGESTION_SOURCES))


def _suggest_step(typed: str, field_: str | None, pick: SuggestionPick) -> PlanStep:
    where = f" in the {field_}" if field_ else ""
    wanted = _describe(pick)
    return PlanStep(
        index=0,
        kind="suggest",
        description=f"Type {typed!r}{where} and choose {wanted} from the suggestions"[:300],
        target=field_,
        value=typed,
        success_criterion=f"the field holds {wanted}",
        pick=pick,
    )


def _describe(pick: SuggestionPick) -> str:
    if pick.equals is not None:
        return repr(pick.equals)
    parts = [f"{word} {value!r}" for word, value in (("starting with", pick.starts), ("ending with", pick.ends), ("containing", pick.contains)) if value]
    return f"{'an' if pick.any else 'the'} item " + " and ".join(parts)


_MERGE_FIRST: Final = re.compile(rf"^{_TYPE_VERB}\s+\S")
_MERGE_SECOND: Final = re.compile(rf"^(?:then\s+)?{_CHOOSE_VERB}\s+\S")


def merge_suggest(clauses: list[str]) -> list[str]:
    """"Type "San" in the City field" + "choose "San Francisco" from the suggestions": the goal
    joined one autocomplete with "and"; read it as one clause. Other clauses stay as they are."""
    out: list[str] = []
    skip = False
    for index, clause in enumerate(clauses):
        if skip:
            skip = False
            continue
        following = clauses[index + 1] if index + 1 < len(clauses) else None
        if following is not None and _MERGE_FIRST.match(fold(clause)) and _MERGE_SECOND.match(fold(following)):
            joined = f"{clause.rstrip(' .,;')} and {following}"
            if typed_then_chosen(joined, fold(joined.rstrip('.!'))) is not None:
                out.append(joined)
                skip = True
                continue
        out.append(clause)
    return out
