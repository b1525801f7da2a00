"""A small CSS-selector subset evaluated against ``PageElement`` objects (no HTML)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from verification.elements import PageElement, collapse

_IDENT = re.compile(r"-?[A-Za-z_][\w-]*")
_ID_VALUE = re.compile(r"[^\s.#\[\]:>+~,()'\"]+")
_ATTR = re.compile(
    r"""\[\s*(?P<name>[A-Za-z_][\w:.-]*)\s*(?:(?P<op>[~|^$*]?=)\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s\]]+))\s*(?P<flag>[iIsS])?\s*)?\]"""
)
_PSEUDO = re.compile(r""":{1,2}(?P<name>[A-Za-z-]+)(?:\((?P<arg>[^)]*)\))?""")

# For V3 elements (no tag), which roles a tag selector stands for.
TAG_ROLES: Final[dict[str, frozenset[str]]] = {
    "a": frozenset({"link"}),
    "button": frozenset({"button"}),
    "input": frozenset(
        {"textbox", "searchbox", "checkbox", "radio", "spinbutton", "slider", "combobox", "switch"}
    ),
    "select": frozenset({"combobox", "listbox"}),
    "textarea": frozenset({"textbox"}),
    "option": frozenset({"option"}),
    "summary": frozenset({"button"}),
}
_STATE_ATTRS: Final[dict[str, str]] = {
    "disabled": "disabled",
    "aria-disabled": "disabled",
    "checked": "checked",
    "aria-checked": "checked",
    "selected": "selected",
    "aria-selected": "selected",
    "required": "required",
    "aria-required": "required",
    "readonly": "readonly",
    "aria-readonly": "readonly",
    "aria-expanded": "expanded",
}
_TEXT_ATTRS: Final[dict[str, Callable[[PageElement], tuple[str | None, ...]]]] = {
    "id": lambda e: (e.id,),
    "data-llm-id": lambda e: (e.id,),
    "role": lambda e: (e.role,),
    "type": lambda e: (e.input_type,),
    "placeholder": lambda e: (e.placeholder,),
    "href": lambda e: (e.href,),
    "value": lambda e: (e.value,),
    "name": lambda e: (e.id, e.name),
    "aria-label": lambda e: (e.name,),
    "title": lambda e: (e.name,),
    "alt": lambda e: (e.name,),
}
_CASELESS_ATTRS: Final[frozenset[str]] = frozenset({"role", "type"})
_TEXT_PSEUDOS: Final[frozenset[str]] = frozenset({"contains", "has-text", "text", "text-is"})
_STATE_PSEUDOS: Final[dict[str, tuple[str, bool]]] = {
    "disabled": ("disabled", True),
    "enabled": ("disabled", False),
    "checked": ("checked", True),
}


class SelectorError(ValueError):
    """The selector is outside the subset that can be checked on page elements."""


@dataclass
class Compound:
    tag: str | None = None
    ids: list[str] = field(default_factory=list)
    checks: list[Callable[[PageElement], bool]] = field(default_factory=list)

    @property
    def checkable(self) -> bool:
        return bool(self.tag or self.ids or self.checks)


def _split_top(text: str, separators: str) -> list[str]:
    """Split on separator characters outside brackets, parentheses and quotes."""
    parts: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif depth == 0 and char in separators:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _text_check(wanted: str) -> Callable[[PageElement], bool]:
    needle = collapse(wanted.strip("\"' ")).casefold()

    def check(element: PageElement) -> bool:
        fields = (element.name, element.value, element.placeholder)
        return any(needle in collapse(f).casefold() for f in fields if f)

    return check


def _state_check(state: str, want: bool) -> Callable[[PageElement], bool]:
    def check(element: PageElement) -> bool:
        return (state in element.states) == want

    return check


def _value_test(op: str | None, wanted: str) -> Callable[[str], bool]:
    def test(value: str) -> bool:
        if op is None:
            return True
        if op == "=":
            return value == wanted
        if op == "~=":
            return wanted in value.split()
        if op == "|=":
            return value == wanted or value.startswith(wanted + "-")
        if not wanted:
            return False
        if op == "^=":
            return value.startswith(wanted)
        if op == "$=":
            return value.endswith(wanted)
        return wanted in value  # *=

    return test


def _attr_check(
    name: str, op: str | None, value: str, caseless: bool
) -> Callable[[PageElement], bool] | None:
    """A check for one attribute selector; ``None`` for attributes elements do not keep
    (class, style, data-testid …), which are ignored like class selectors."""
    name = name.lower()
    if name in _STATE_ATTRS:
        return _state_check(_STATE_ATTRS[name], op is None or value.lower() != "false")
    getter = _TEXT_ATTRS.get(name)
    if getter is None:
        return None
    fold = caseless or name in _CASELESS_ATTRS
    test = _value_test(op, value.casefold() if fold else value)

    def check(element: PageElement) -> bool:
        return any(v is not None and test(v.casefold() if fold else v) for v in getter(element))

    return check


def _compound(text: str) -> Compound:
    out = Compound()
    pos = 0
    tag = _IDENT.match(text) or (re.match(r"\*", text))
    if tag:
        out.tag = None if tag.group(0) == "*" else tag.group(0).lower()
        pos = tag.end()
    while pos < len(text):
        char = text[pos]
        if char in "#.":
            found = _ID_VALUE.match(text, pos + 1)
            if not found:
                raise SelectorError(f"expected a name after {char!r} in {text!r}")
            if char == "#":
                out.ids.append(found.group(0))
            pos = found.end()  # classes are not kept on elements: ignored
        elif char == "[":
            found = _ATTR.match(text, pos)
            if not found:
                raise SelectorError(f"malformed attribute selector in {text!r}")
            value = (
                found.group("dq")
                if found.group("dq") is not None
                else found.group("sq") or found.group("bare") or ""
            )
            caseless = (found.group("flag") or "").lower() == "i"
            check = _attr_check(found.group("name"), found.group("op"), value, caseless)
            if check is not None:
                out.checks.append(check)
            pos = found.end()
        elif char == ":":
            found = _PSEUDO.match(text, pos)
            if not found:
                raise SelectorError(f"malformed pseudo-class in {text!r}")
            name, arg = found.group("name").lower(), found.group("arg")
            if name in _TEXT_PSEUDOS and arg:
                out.checks.append(_text_check(arg))
            elif name in _STATE_PSEUDOS:
                out.checks.append(_state_check(*_STATE_PSEUDOS[name]))
            pos = found.end()  # other pseudo-classes (:visible, :first-child …) are ignored
        else:
            raise SelectorError(f"unexpected {char!r} in selector {text!r}")
    return out


def parse_selector(selector: str) -> list[Compound]:
    """Parse into alternatives (``a, b``); each keeps its right-most compound."""
    alternatives = []
    for option in _split_top(selector, ","):
        last = _split_top(option, " \t\n>+~")
        if not last:
            continue
        compound = _compound(last[-1])
        if not compound.checkable:
            raise SelectorError(f"{last[-1]!r} has nothing that can be checked on page elements")
        alternatives.append(compound)
    if not alternatives:
        raise SelectorError(f"empty selector {selector!r}")
    return alternatives


def _tag_matches(tag: str, element: PageElement) -> bool:
    if element.tag:
        return element.tag == tag
    return element.role in TAG_ROLES.get(tag, frozenset())


def matches(compounds: list[Compound], element: PageElement) -> bool:
    for compound in compounds:
        if compound.tag and not _tag_matches(compound.tag, element):
            continue
        if any(element.id != wanted for wanted in compound.ids):
            continue
        if all(check(element) for check in compound.checks):
            return True
    return False
