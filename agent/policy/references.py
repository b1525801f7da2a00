"""Words of a goal → an :class:`ElementRef`: name, role, ordinal, and the row, card, list
item, dialog or section the element is in ("the Edit button in the row for Bob Stone",
"the Delete button in the Billing section", "Save in the dialog").

Qualifiers Stepwise cannot check by reading labels — superlatives and comparisons ("the
cheapest", "the card with the greatest number", "words similar to …") — are not turned into
names: they are returned as ``unread`` so the goal is reported as not understood instead
of being matched against labels that happen to contain those words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from agent.policy.goal import RoleHint, parse_target
from agent.policy.lexicon import CONTROL_NOUNS, MESSAGE_NOUNS, RECORD_NOUNS
from agent.policy.text import QUOTED, quoted_text
from planning import PlanStep
from verification.contract import ContainerKind, ElementRef, RefRole, fold, words

_KINDS: Final[dict[str, ContainerKind]] = {
    "row": "row", "line": "row", "entry": "row", "record": "row", "table": "row",
    "card": "card", "tile": "card",
    "item": "item",
    "section": "section", "panel": "section", "box": "section", "tab": "section", "area": "section",
    "dialog": "dialog", "modal": "dialog", "popup": "dialog", "pop-up": "dialog", "window": "dialog",
    "dialog box": "dialog", "dialog window": "dialog", "modal dialog": "dialog", "modal window": "dialog",
    "popup window": "dialog", "pop-up window": "dialog", "popup box": "dialog", "sidebar": "section",
    "side panel": "section",
    "form": "form",
}  # fmt: skip
_KIND_WORDS: Final = "|".join(sorted(map(re.escape, _KINDS), key=len, reverse=True))
_LINK: Final = r"(?:for|of|with|named|called|labell?ed|titled|about|containing|that says|that shows|showing|where)"
_CONTAINER_PATTERNS: Final = (
    # "… in the row for Bob Stone", "… on the card of Ana"
    re.compile(rf"^(?P<head>.+?)\s+(?:in|on|within|inside|under|from|at)\s+(?:the\s+|a\s+)?(?P<kind>{_KIND_WORDS})\s+{_LINK}\s+(?P<ctx>.+)$"),
    # "… in the Billing section"
    re.compile(rf"^(?P<head>.+?)\s+(?:in|on|within|inside|under|from|at)\s+(?:the\s+)?(?P<ctx>.+?)\s+(?P<kind>{_KIND_WORDS})$"),
    # "… in the dialog"
    re.compile(rf"^(?P<head>.+?)\s+(?:in|on|within|inside)\s+(?:the\s+)?(?P<kind>{_KIND_WORDS})$"),
)
_LABELED: Final = re.compile(r"^\s+(?:named|called|labell?ed|titled)\s")
# "the Reply button of the email from Ana": a control of a record of a list, which may only
# show once the record is open (ElementRef.record).
_RECORD_CONTROL: Final = re.compile(
    rf"^(?P<head>.+?)\s+(?:of|for|on|in)\s+the\s+(?P<noun>{'|'.join(sorted(RECORD_NOUNS | MESSAGE_NOUNS))})s?\s+(?:from|by|of|for)\s+(?P<ctx>.+)$"
)
_FOR: Final = re.compile(r"^(?P<head>.+?)\s+(?:for|next to|beside|belonging to)\s+(?P<ctx>.+)$")
_ROLE_NAMES: Final[dict[RoleHint, RefRole]] = {
    "button": "button", "link": "link", "textbox": "textbox", "checkbox": "checkbox", "radio": "radio",
    "combobox": "combobox", "tab": "tab", "menuitem": "menuitem", "slider": "slider", "spinbutton": "spinbutton",
}  # fmt: skip
# Words that qualify rather than name: no label check can prove them.
QUALIFIERS: Final[frozenset[str]] = frozenset(
    """cheapest cheaper expensive priciest greatest greater largest larger biggest bigger smallest smaller
    least most best worst longest longer shortest shorter highest higher lowest lower newest oldest latest
    earliest fastest slowest nearest closest similar like unlike matching except other another random any
    synonym synonyms opposite opposites antonym antonyms
    correct right wrong answer that it this them those these""".split()
)
_WHEN_DONE: Final = re.compile(r"\s+(?:when|once|after)\s+(?:you(?:'re| are)\s+)?(?:done|finished|ready)\b.*$")


@dataclass(frozen=True)
class ReadRef:
    ref: ElementRef | None
    unread: tuple[str, ...] = ()  # words of the phrase this reference cannot stand for


def _role_in(text: str) -> bool:
    return parse_target(text).role is not None


# "a checkbox", 'any "text" widget': the goal names only a kind, and any element of it will do.
_INDEFINITE: Final = re.compile(r"^(?:on\s+)?(?:a|an|any|one of the|some)\s+(?P<kind>.+)$")
_KIND_ONLY: Final[dict[str, tuple[RefRole, str | None]]] = {
    "text": ("textbox", "line"), "text field": ("textbox", "line"), "text box": ("textbox", "line"),
    "textbox": ("textbox", "line"), "text input": ("textbox", "line"), "input": ("textbox", None),
    "textarea": ("textbox", "textarea"), "text area": ("textbox", "textarea"),
    "checkbox": ("checkbox", None), "check box": ("checkbox", None), "radio": ("radio", None),
    "radio button": ("radio", None), "button": ("button", None), "link": ("link", None),
    "dropdown": ("combobox", None), "drop-down": ("combobox", None), "select": ("combobox", None),
}  # fmt: skip
_KIND_NOUNS: Final = frozenset({"widget", "element", "control", "field", "thing"})


def _kind_only(folded: str) -> ElementRef | None:
    match = _INDEFINITE.match(folded)
    if match is None:
        return None
    kind = [w for w in re.sub(r"[\"“”']", " ", match.group("kind")).split()]
    while len(kind) > 1 and kind[-1] in _KIND_NOUNS:
        kind.pop()
    key = " ".join(kind)
    found = _KIND_ONLY.get(key) or (_KIND_ONLY.get(key[:-1]) if key.endswith("s") else None)
    if found is None:
        return None
    role, text_kind = found
    return ElementRef(role=role, field_kind=text_kind, any=True)  # type: ignore[arg-type]


def read_ref(phrase: str, *, commit: bool = False) -> ReadRef:
    """The element a phrase of the goal names (see the module doc)."""
    raw = _WHEN_DONE.sub("", phrase.strip().rstrip(".!"))
    if (kind_only := _kind_only(fold(raw))) is not None:
        return ReadRef(kind_only)
    quoted = QUOTED.search(raw)
    exact = quoted_text(quoted) if quoted else None
    folded = fold(raw)
    head, container, kind, either = folded, None, None, False
    record = _RECORD_CONTROL.match(folded)
    if record is not None:
        head, container = record.group("head"), record.group("ctx")
    for pattern in () if record is not None else _CONTAINER_PATTERNS:
        if match := pattern.match(folded):
            head = match.group("head")
            kind = _KINDS.get(match.group("kind"))
            container = match.groupdict().get("ctx")
            # "the button in the dialog labeled "Cancel"": the label names the button or the dialog.
            either = pattern is _CONTAINER_PATTERNS[0] and _LABELED.match(folded[match.end("kind") :]) is not None
            break
    else:
        if record is None and (match := _FOR.match(folded)) and (exact is not None or _role_in(match.group("head"))):
            head, container = match.group("head"), match.group("ctx")
    target = parse_target(head)
    if either and container is not None and not (target.name or target.text).strip() and target.role is not None:
        name = exact if exact is not None and fold(exact) == _strip_quotes(container) else _strip_quotes(container)
        ref = ElementRef(name=name, role=_ROLE_NAMES.get(target.role), container_kind=kind, exact=exact is not None, label_or_container=True)
        return ReadRef(ref, tuple(w for w in name.split() if w in QUALIFIERS) if exact is None else ())
    quoted_name = exact is not None and fold(exact) in head
    name = exact if quoted_name and exact is not None else (target.name or target.text)
    unread = tuple(w for w in name.split() if w in QUALIFIERS) if exact is None else ()
    if container is not None:
        container = _strip_quotes(container)
        unread += tuple(w for w in container.split() if w in QUALIFIERS)
    role = _ROLE_NAMES.get(target.role) if target.role else None
    if not name.strip() and role is None and not container and kind is None and not commit:
        return ReadRef(None, unread)
    text_kind = field_kind(head)
    if text_kind is not None:
        role, name = "textbox", " ".join(w for w in _AREA.sub(" ", _LINE.sub(" ", fold(name))).split() if w not in _NOT_NAMES)
    ref = ElementRef(
        field_kind=text_kind,  # type: ignore[arg-type]
        name=name.strip(),
        role=role,
        container=container or None,
        container_kind=kind,
        ordinal=target.ordinal,
        exact=quoted_name,
        commit=commit,
        record=record is not None,
    )
    return ReadRef(ref, unread)


def _strip_quotes(text: str) -> str:
    return " ".join(re.sub(r"[\"“”']", " ", text).split())


_NOT_NAMES: Final = frozenset({"below", "above", "here", "shown", "provided", "given", "on", "the", "page"})
_AREA: Final = re.compile(r"\b(?:text\s?area|textarea|multi-?line (?:text )?(?:field|box))s?\b")
_LINE: Final = re.compile(r"\b(?:text\s?box|text (?:input|field)|input (?:field|box)|one-line (?:field|box))\b")


def field_kind(phrase: str) -> str | None:
    """'textarea' / 'line' when the phrase names the kind of text field."""
    folded = fold(phrase)
    if _AREA.search(folded):
        return "textarea"
    if _LINE.search(folded):
        return "line"
    return None


def source_ref(phrase: str) -> ElementRef | None:
    """The element a value is read from: "the textarea below", "the 3rd text area", "the
    Notes field". ``None`` when the phrase names no element."""
    kind = field_kind(phrase)
    cleaned = " ".join(w for w in _AREA.sub(" text box ", fold(phrase)).split() if w not in _NOT_NAMES)
    read = read_ref(cleaned)
    if read.ref is None or read.unread:
        return None
    return read.ref.model_copy(update={"field_kind": kind}) if kind else read.ref


def names_a_label(step: PlanStep) -> bool:
    """Whether a click step writes its commit word as a control's label — with the role noun
    ("the Submit button"), quoted, or capitalised as labels are ("Click Save") — rather than
    as the form's action ("press login", "click submit", "and submit")."""
    if not step.description.startswith("Click "):
        return False
    target = (step.target or "").strip()
    return target[:1].isupper() or target[:1] in "\"'“‘" or any(w in CONTROL_NOUNS for w in words(target))
