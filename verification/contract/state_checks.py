"""The state clauses of a contract checked on the page now: a field holds its value, a list
or option shows the choice, a control is in its state. Each answer is (status, detail,
evidence): ``holds``, ``pending`` (not yet), or ``failed`` (the page shows otherwise)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from verification.contract.captions import shown_under_caption
from verification.contract.model import Clause, ElementRef, Evidence
from verification.contract.refs import Resolution, describe_element, perceivable, resolve
from verification.contract.states import in_state, is_checked, state_candidates, state_now
from verification.contract.values import listed, value_matches
from verification.elements import PageElement, shows_item, typed_items
from verification.page import PageState

TEXT_ROLES: Final = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})
VALUE_ROLES: Final = TEXT_ROLES | {"slider"}  # fields a field_value clause reads
LIST_ROLES: Final = frozenset({"combobox", "listbox"})
CHOICE_ROLES: Final = frozenset(
    {"checkbox", "radio", "switch", "option", "menuitemcheckbox", "menuitemradio", "treeitem", "tab", "button"}
)


def holds(detail: str, evidence: Evidence | None = None) -> tuple[str, str, Evidence | None]:
    return "holds", detail, evidence


def not_yet(detail: str) -> tuple[str, str, Evidence | None]:
    return "pending", detail, None


def wrong(detail: str) -> tuple[str, str, Evidence | None]:
    return "failed", detail, None


def readable(page: PageState) -> PageState:
    """The page as read for what its fields hold: a field scrolled to the window's edge, under
    a sticky header or footer, is covered for a click but still holds its value (a person looks
    past the header). A field covered in the middle of the window (a decoy under another
    element) stays unread, as do hidden, zero-size and far-off ones."""
    return page.memo("contract.readable", lambda: replace(page, elements=tuple(replace(e, occluded=False) if _at_edge(e, page) else e for e in page.elements)))


# Where sticky headers and footers sit: this share of the window's height at its top or bottom
# (a page's header is seldom taller; a decoy under another element sits anywhere).
_EDGE_SHARE: Final = 0.15
_EDGE_WITHOUT_VIEWPORT: Final = 120  # px, when the page does not say how tall its window is


def _at_edge(element: PageElement, page: PageState) -> bool:
    if not element.occluded or element.box is None:
        return False
    _x, y, _width, height = element.box
    band = page.viewport[1] * _EDGE_SHARE if page.viewport is not None else _EDGE_WITHOUT_VIEWPORT
    return y + height <= band or (page.viewport is not None and y >= page.viewport[1] - band)


def field_value_now(clause: Clause, page: PageState, step: int) -> tuple[str, str, Evidence | None]:
    assert clause.target is not None
    page = readable(page)
    if clause.value is None:
        return not_yet(f"nothing read yet from {clause.read.describe() if clause.read else 'the page'}")
    found = state_candidates(clause.target, page, VALUE_ROLES)
    if not found.found:
        return not_yet(found.reason)
    if clause.target.any:  # "type x into a text box": one that holds it is enough
        found = Resolution(tuple(e for e in found.elements if value_matches(clause.value, e.value, clause.match))[:1] or found.elements[:1])
    off = [e for e in found.elements if not value_matches(clause.value, e.value, clause.match)]
    if len(found.elements) == 1 and off and not (off[0].value or "").strip() and (items := typed_items(clause.value)):
        if all(any(shows_item(e, item) for e in page.elements if not e.hidden) for item in items):
            seen = f"{describe_element(off[0])} shows {', '.join(map(repr, items))} as items"
            return holds(seen, Evidence(step=step, observation=seen, element=describe_element(off[0]), value=clause.value))
    if off:
        element = off[0]
        return wrong(f"{describe_element(element)} holds {element.value or ''!r}, not {clause.value!r}")
    element = found.elements[0]
    where = describe_element(element) if len(found.elements) == 1 else f"{len(found.elements)} fields"
    return holds(f"{where} holds {clause.value!r}", Evidence(step=step, observation=f"{where} holds {clause.value!r}", element=where, value=element.value))


def choice_now(clause: Clause, page: PageState, step: int) -> tuple[str, str, Evidence | None]:
    assert clause.value is not None
    page = readable(page)
    lists = resolve(clause.target, page, roles=LIST_ROLES) if clause.target is not None else Resolution(())
    if not lists.found and not lists.ambiguous:
        lists = _only_list(page)  # "the scroll list": the page's one list, whatever its label
    if lists.found:
        element = lists.elements[0]
        if element.input_type == "select-multiple" and listed(clause.value, element.value, clause.match):
            seen = f"{describe_element(element)} has {clause.value!r} among its selected options"
            return holds(seen, Evidence(step=step, observation=seen, element=describe_element(element), value=element.value))
        if value_matches(clause.value, element.value, clause.match):
            seen = f"{describe_element(element)} shows {element.value!r}"
            return holds(seen, Evidence(step=step, observation=seen, element=describe_element(element), value=element.value))
    options = resolve(_option_ref(clause), page, roles=CHOICE_ROLES - {"button"})
    if options.found:
        element = options.elements[0]
        if is_checked(element):
            seen = f"{describe_element(element)} is selected"
            return holds(seen, Evidence(step=step, observation=seen, element=describe_element(element)))
        return wrong(f"{describe_element(element)} is not selected")
    if lists.found:
        element = lists.elements[0]
        return wrong(f"{describe_element(element)} shows {element.value or ''!r}, not {clause.value!r}")
    return not_yet(f"no list or option {clause.value!r} is visible")


def _only_list(page: PageState) -> Resolution:
    lists = [e for e in page.elements if e.role in LIST_ROLES and perceivable(e, page)]
    return Resolution(tuple(lists[:1])) if len(lists) == 1 else Resolution((), "no single list on the page")


def _option_ref(clause: Clause) -> ElementRef:
    target = clause.target
    return ElementRef(
        name=clause.value or "",
        container=target.container if target is not None else None,
        container_kind=target.container_kind if target is not None else None,
    )


def control_now(clause: Clause, page: PageState, step: int) -> tuple[str, str, Evidence | None]:
    assert clause.target is not None and clause.state is not None
    page = readable(page)
    roles = CHOICE_ROLES if clause.state in ("checked", "unchecked") else None
    found = state_candidates(clause.target, page, roles)
    if not found.found:
        return not_yet(found.reason)
    if clause.target.any:  # one in the wanted state is enough
        element = next((e for e in found.elements if in_state(e, clause.state)), found.elements[0])
    else:  # the one element, or — for "every" — the first that is not yet in the state
        element = next((e for e in found.elements if not in_state(e, clause.state)), found.elements[0])
    line = f"{describe_element(element)} is {state_now(element, clause.state)}"
    if in_state(element, clause.state):
        return holds(line, Evidence(step=step, observation=line, element=describe_element(element)))
    return wrong(line)


def shown_otherwise(clause: Clause, page: PageState) -> str | None:
    """After the form is gone: the page shows the field's caption with another value
    ("City: Bergen", or a ``City`` line over ``Bergen``) where the goal set "Oslo" — the
    saved record contradicts what the field held when the form was committed (a server
    that dropped the field). ``None`` when the field is still on the page (then it speaks
    for itself), or the page shows no such caption, or shows the goal's value."""
    if clause.kind != "field_value" or clause.value is None or clause.target is None or not clause.target.name or clause.target.every:
        return None
    if state_candidates(clause.target, page, VALUE_ROLES).found:
        return None
    shown = shown_under_caption(page, clause.target.name)
    if shown is None or value_matches(clause.value, shown, clause.match) or value_matches(clause.value, shown, "contains"):
        return None
    if not comparable(clause.value, shown) or masked_tail(clause.value, shown):
        return None
    return f"the page now shows {clause.target.name!r} as {shown!r}, not {clause.value!r}"


_MASK: Final = re.compile(r"^[•●∙·*xX\s-]{2,}(?P<tail>\w+)$")


def comparable(value: str, shown: str) -> bool:
    """Could ``shown`` be the record's copy of ``value`` at all? A number is shown as a number
    (with its mask), a word as words: "Help" under the column "Account number" is a table's
    next line, not the account number the form saved."""
    return any(ch.isdigit() for ch in value) == any(ch.isdigit() for ch in shown)


def masked_tail(value: str, shown: str) -> bool:
    """A masked copy of the value ("••••4321" for 87654321): the page shows only its end."""
    match = _MASK.match(shown.strip())
    return match is not None and re.sub(r"\W+", "", value).endswith(match["tail"])
