"""What a remembered action acted on, said the way a person would find it again.

A :class:`SemanticTarget` keeps the attributes a person names a control by — its role,
accessible name, placeholder, input type, nearby label, containers and link path — and
never what a page renumbers or restyles (ids, classes, positions) nor what was typed into
it. :func:`reidentify` finds it on a live page: an element matches only when *every*
recorded attribute agrees (case and spacing aside), and only a unique, actionable match is
a hit. Two look-alikes, a label swapped onto another control, or a dialog covering the
target are misses — memory is never blind.

Recorded text may hold ``{name}`` references to the goal's variables (``button "Delete
{v1}"``); literal braces are stored doubled (``{{``, ``}}``), as in :meth:`str.format`.

Position is not identity, with one exception: when the goal itself says which of several
look-alikes it means ("the 2nd input textbox") and the recorded element was that one, the
target keeps ``nth`` as a reference to the goal's ordinal, and re-identification takes the
n-th of the look-alikes in page order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
import dataclasses
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from agent.policy.text import fold
from verification import PageElement, PageState
from verification.elements import normalize_role

_REF: Final = re.compile(r"\{\{|\}\}|\{(\w+)\}")
_NO_BINDINGS: Final[Mapping[str, str]] = {}
_ANY: Final = "…"
_INSTANCE_KINDS: Final = frozenset({"row", "item", "card"})
_ORDINAL: Final = re.compile(r"(\d{1,3})(?:st|nd|rd|th)?")
_ORDINAL_WORD: Final = re.compile(r"\d{1,3}(?:st|nd|rd|th)")


class MissingBinding(KeyError):
    """A ``{name}`` in a target with no value bound to it."""


@dataclass(frozen=True)
class SemanticTarget:
    """The attributes an element is found again by. ``None``/``()`` = not recorded (not
    compared); ``name`` is always recorded (``""`` = the element had no name)."""

    role: str
    name: str
    placeholder: str | None = None
    input_type: str | None = None
    context: str | None = None
    container: tuple[str, ...] = ()
    href: str | None = None
    field: str | None = None  # a form control's name attribute: what a swapped label cannot change
    nth: str | None = None  # which look-alike, in page order: "2" as recorded, "{v1}" once the goal's ordinal says it

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"role": self.role, "name": self.name}
        for key in ("placeholder", "input_type", "context", "href", "field", "nth"):
            value = getattr(self, key)
            if value:
                data[_CAMEL.get(key, key)] = value
        if self.container:
            data["container"] = list(self.container)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SemanticTarget:
        def text(key: str) -> str | None:
            value = data.get(_CAMEL.get(key, key), data.get(key))
            return str(value) if value else None

        return cls(
            role=str(data.get("role") or "generic"),
            name=str(data.get("name") or ""),
            placeholder=text("placeholder"),
            input_type=text("input_type"),
            context=text("context"),
            container=tuple(str(c) for c in data.get("container") or ()),
            href=text("href"),
            field=text("field"),
            nth=text("nth"),
        )

    def describe(self) -> str:
        """``button "Add patient" in form: New visit`` — for people and prompts."""
        out = f'{self.role} "{_shown(self.name)}"' if self.name else self.role
        if self.placeholder:
            out += f' (placeholder "{_shown(self.placeholder)}")'
        if self.context:
            out += f' near "{_shown(self.context)}"'
        if self.container:
            out += f" in {_shown(self.container[0])}"
        if self.nth:
            out += f" (number {_shown(self.nth)} of those)"
        return out

    def references(self) -> set[str]:
        """The variable names this target refers to."""
        texts = (self.name, self.placeholder, self.context, self.href, self.nth, *self.container)
        return {m.group(1) for t in texts if t for m in _REF.finditer(t) if m.group(1)}


_CAMEL: Final = {"input_type": "inputType"}


def _shown(text: str) -> str:
    return text.replace("{{", "{").replace("}}", "}")


def href_path(href: str | None) -> str | None:
    """Path and query of a link (no scheme, host or fragment); ``None`` when empty."""
    if not href:
        return None
    parts = urlsplit(href.strip())
    out = parts.path + (f"?{parts.query}" if parts.query else "")
    return out or None


@dataclass(frozen=True)
class _Values:
    """Variable values to write as references: (name, folded value), longest first, and one
    pattern finding any of them word-bounded (group ``g<i>`` = the i-th name)."""

    names: tuple[tuple[str, str], ...] = ()
    pattern: re.Pattern[str] | None = None

    @classmethod
    def of(cls, variables: Mapping[str, str]) -> _Values:
        items = sorted(
            ((name, str(raw).split()) for name, raw in variables.items() if str(raw).split()),
            key=lambda item: len(" ".join(item[1])),
            reverse=True,
        )
        if not items:
            return cls()
        alternatives = []
        for i, (_name, words) in enumerate(items):
            body = r"\s+".join(re.escape(w.replace("{", "{{").replace("}", "}}")) for w in words)
            start = r"(?<![^\W_])" if words[0][0].isalnum() else ""
            end = r"(?![^\W_])" if words[-1][-1].isalnum() else ""
            alternatives.append(f"(?P<g{i}>{start}{body}{end})")
        names = tuple((name, fold(" ".join(words))) for name, words in items)
        return cls(names, re.compile("|".join(alternatives), re.IGNORECASE))

    def template(self, text: str | None) -> str | None:
        """``text`` (spacing collapsed) with braces escaped and each value written as its
        reference: the whole text when it equals a value, else each word-bounded occurrence
        (longest values first, so one value never splits another)."""
        if text is None:
            return None
        text = " ".join(text.split())
        if not text:
            return None
        folded = fold(text)
        for name, value in self.names:
            if folded == value:
                return "{" + name + "}"
        escaped = text.replace("{", "{{").replace("}", "}}")
        if self.pattern is None:
            return escaped
        names = self.names
        return self.pattern.sub(lambda m: "{" + names[int(str(m.lastgroup)[1:])][0] + "}", escaped)


def _escaped(text: str | None) -> str | None:
    """``text`` as a target records it with no variables (spacing collapsed, braces escaped)."""
    return _NO_VALUES.template(text)


def describe_target(element: PageElement, variables: Mapping[str, str] = _NO_BINDINGS, *, page: PageState | None = None) -> SemanticTarget:
    """The semantic target of ``element``, with the goal's variable values written as
    ``{name}`` references. Never ids, classes or the value typed into it; its place among
    look-alikes (``nth``) only when ``page`` is given and it has look-alikes there — kept
    by :func:`templated` only where the goal's ordinal names it."""
    raw = SemanticTarget(
        role=normalize_role(element.role),
        name=_escaped(element.name) or "",
        placeholder=_escaped(element.placeholder),
        input_type=(element.input_type or "").strip().lower() or None,
        context=_escaped(element.context),
        container=tuple(e for c in element.container if (e := _escaped(c))),
        href=_escaped(href_path(element.href)),
        field=element.field_name,
    )
    if page is not None:
        alike = _candidates(raw, page, _NO_BINDINGS)
        if len(alike) > 1 and element in alike:
            raw = dataclasses.replace(raw, nth=str(alike.index(element) + 1))
    return templated(raw, variables) if variables else raw


def templated(target: SemanticTarget, variables: Mapping[str, str]) -> SemanticTarget:
    """A target described without variables (:func:`describe_target` with none), with the
    goal's variable values written as ``{name}`` references — as if described with them.
    A recorded place among look-alikes is kept only as the goal's ordinal."""
    if not variables:
        return dataclasses.replace(target, nth=_ordinal_reference(target.nth, variables))
    values = _Values.of(variables)
    name = values.template(_shown(target.name)) or ""
    context = values.template(_shown(target.context) if target.context else None)
    href = values.template(_shown(target.href) if target.href else None)
    if href is not None and not _refs(href) and (_refs(name) or _refs(context)):
        href = None  # a link named by a variable: its literal href is the recorded instance's
    return SemanticTarget(
        role=target.role,
        name=name,
        placeholder=values.template(_shown(target.placeholder) if target.placeholder else None),
        input_type=target.input_type,
        context=context,
        container=tuple(_instance(c, bool(_refs(name) or _refs(context))) for c in (values.template(_shown(c)) for c in target.container) if c),
        href=href,
        field=target.field,
        nth=_ordinal_reference(target.nth, variables),
    )


def ordinal(text: str | None) -> int | None:
    """``2nd`` → 2, ``3`` → 3; ``None`` for anything else."""
    match = _ORDINAL.fullmatch((text or "").strip().lower())
    return int(match.group(1)) if match else None


def _ordinal_reference(nth: str | None, variables: Mapping[str, str]) -> str | None:
    """A recorded place among look-alikes stays only as the goal's own ordinal (``{v1}`` for
    "the 2nd textbox" when the element was the 2nd): position is not identity otherwise."""
    if not nth:
        return None
    if _REF.fullmatch(nth):
        return nth  # already a reference
    for name, value in variables.items():
        if _ORDINAL_WORD.fullmatch(str(value).strip().lower()) and ordinal(str(value)) == ordinal(nth):
            return "{" + name + "}"
    return None


_NO_VALUES: Final = _Values.of(_NO_BINDINGS)


def _refs(text: str | None) -> list[str]:
    return [m.group(0) for m in _REF.finditer(text) if m.group(1)] if text else []


def _instance(entry: str, named_by_variable: bool) -> str:
    """A row, item or card that mentions a variable, or holds an element named by one, is
    that value's row: the rest of its text is the recorded instance's data (an e-mail, a
    date), so only its kind and the references are kept, as a pattern: ``row: …{v1}…``
    (``…`` = any text)."""
    kind, _, _text = entry.partition(":")
    refs = _refs(entry)
    if not (refs or named_by_variable) or kind.strip().lower() not in _INSTANCE_KINDS:
        return entry
    return f"{kind}: {_ANY}" + "".join(ref + _ANY for ref in dict.fromkeys(refs))


def _container_matcher(entry: str) -> Callable[[str], bool]:
    """Whether a live container entry (folded) is the recorded one (references bound): equal
    (case and spacing aside), ``…`` standing for any text (a pattern of :func:`_instance`, or
    where the page cut a long text)."""
    if _ANY not in entry:
        folded = fold(entry)
        return lambda live: live == folded
    pattern = re.compile(".*".join(_bounded(fold(piece)) for piece in entry.split(_ANY)), re.DOTALL)
    return lambda live: pattern.fullmatch(live) is not None


def _bounded(piece: str) -> str:
    """``piece`` escaped, not inside a longer word ("Patient 1" is not in "Patient 12")."""
    if not piece:
        return ""
    start = r"(?<![^\W_])" if piece[0].isalnum() else ""
    end = r"(?![^\W_])" if piece[-1].isalnum() else ""
    return start + re.escape(piece) + end


def substitute(text: str, bindings: Mapping[str, str]) -> str:
    """``text`` with each ``{name}`` replaced by its bound value (braces un-doubled); raises
    :class:`MissingBinding` for a reference with no value."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return match.group(0)[0]
        value = bindings.get(name)
        if value is None or not str(value).strip():
            raise MissingBinding(name)
        return str(value)

    return _REF.sub(one, text) if "{" in text or "}" in text else text


@dataclass(frozen=True)
class Reidentified:
    """The one live element a target names, or why there is none."""

    element: PageElement | None
    candidates: int
    reason: str

    @property
    def hit(self) -> bool:
        return self.element is not None


def _by_name(page: PageState) -> dict[str, list[PageElement]]:
    """The visible elements by folded name (built once per page)."""
    index: dict[str, list[PageElement]] = {}
    for element in page.elements:
        if not element.hidden:
            index.setdefault(fold(element.name), []).append(element)
    return index


def _agrees(recorded: str | None, live: str | None) -> bool:
    return recorded is None or fold(recorded) == fold(live or "")


def _containers_agree(recorded: tuple[Callable[[str], bool], ...], live: tuple[str, ...]) -> bool:
    return len(recorded) == len(live) and all(agrees(fold(entry)) for agrees, entry in zip(recorded, live, strict=True))


def _candidates(target: SemanticTarget, page: PageState, bindings: Mapping[str, str]) -> list[PageElement]:
    """Every visible element agreeing on each recorded attribute, in page order (``nth``
    aside); raises :class:`MissingBinding` for a reference with no value."""
    name = substitute(target.name, bindings)
    placeholder = substitute(target.placeholder, bindings) if target.placeholder else None
    context = substitute(target.context, bindings) if target.context else None
    href = substitute(target.href, bindings) if target.href else None
    container = tuple(_container_matcher(substitute(c, bindings)) for c in target.container)
    index: dict[str, list[PageElement]] = page.memo("memory.by_name", lambda: _by_name(page))
    role = normalize_role(target.role)
    return [
        element
        for element in index.get(fold(name), ())
        if normalize_role(element.role) == role
        and _agrees(placeholder, element.placeholder)
        and (target.input_type is None or fold(target.input_type) == fold(element.input_type or ""))
        and _agrees(context, element.context)
        and (not container or _containers_agree(container, element.container))
        and (href is None or fold(href) == fold(href_path(element.href) or ""))
        and (target.field is None or target.field == element.field_name)
    ]


def reidentify(target: SemanticTarget, page: PageState, bindings: Mapping[str, str] = _NO_BINDINGS) -> Reidentified:
    """The live element ``target`` names on ``page``: exactly one visible element agreeing
    on every recorded attribute (or, for a target with ``nth``, the n-th of them), not
    covered and not disabled; else a miss and why."""
    try:
        found = _candidates(target, page, bindings)
        nth = ordinal(substitute(target.nth, bindings)) if target.nth else None
    except MissingBinding as missing:
        return Reidentified(None, 0, f"no value bound to {{{missing.args[0]}}}")
    shown = target.describe()
    if not found:
        return Reidentified(None, 0, f"no element matches {shown}")
    if target.nth:
        if nth is None or not 1 <= nth <= len(found):
            return Reidentified(None, len(found), f"{len(found)} elements match {shown}: no number {nth} among them")
        found = [found[nth - 1]]
    if len(found) > 1:
        return Reidentified(None, len(found), f"{len(found)} elements match {shown}")
    element = found[0]
    if element.occluded:
        return Reidentified(None, 1, "covered")
    if element.disabled:
        return Reidentified(None, 1, "disabled")
    return Reidentified(element, 1, "")


__all__ = ["MissingBinding", "Reidentified", "SemanticTarget", "describe_target", "href_path", "ordinal", "reidentify", "substitute", "templated"]
