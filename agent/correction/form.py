"""A submit the page refused with validation errors: which fields, and can the goal fix them?

After a failed submit (a click on a button, ``press("Enter")``) the page says what it wants
in three ways, all read from :class:`PageState` only:

* a field marked invalid (the ``invalid`` / ``aria-invalid`` state);
* a field marked ``required`` and still empty (a text box with no value, a box not ticked,
  a radio group with none chosen) — only in the submit's own form or dialog when the page
  says which one that is: a browser's native validation changes nothing else on the page;
* an error message that names a field ("Email is required": every word of the field's label
  is in the message; the most specific label wins, "Last name" over "Name").

The correction's first move is then to type (choose, tick) the goal's value into such a
field — the contract's ``field_value`` / ``choice`` / ``control`` clause whose element it
is — and send the submit again; when the goal gives none (or the task typed the field already,
or it holds the goal's value, and the page still refuses it), the task ends, naming the
fields. A refused sign-in (a password the task typed, emptied again) is left to the ladder.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from verification import Action, ActionSyntaxError, Clause, Contract, PageElement, PageState, normalize_role, parse_action
from verification.contract import COMMIT_WORDS, fold, resolve, words

INVALID_STATES: Final = frozenset({"invalid", "aria-invalid"})
TEXT_ROLES: Final = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})
CHOICE_ROLES: Final = frozenset({"combobox", "listbox"})
BOX_ROLES: Final = frozenset({"checkbox", "switch"})
FIELD_ROLES: Final = TEXT_ROLES | CHOICE_ROLES | BOX_ROLES | {"radio", "slider"}
_SCOPES: Final = ("form:", "dialog:")
_PROMPTS: Final = ("select", "choose", "please select", "please choose", "--", "—")
NAMES_SHOWN: Final = 6


@dataclass(frozen=True)
class FieldProblem:
    """One field the page refuses the form for."""

    element: PageElement
    label: str
    empty: bool  # nothing in it (else: what is in it is refused)
    said: str | None = None  # the page's message that names it


@dataclass(frozen=True)
class FormCheck:
    """The page's objections to a submit, and the first one the goal's values fix."""

    problems: tuple[FieldProblem, ...]
    fix: Action | None = None  # type / choose / tick the goal's value into a field
    fixed: FieldProblem | None = None
    refused: tuple[str, ...] = ()  # ids of fields the task typed (or that hold the goal's value), refused all the same

    @property
    def reason(self) -> str:
        """``The form needs: Date of birth, Postcode. The page says: "…"`` — names first."""
        needs = [p.label if p.empty else f"{p.label} (not accepted)" for p in self.problems if p.element.id not in self.refused]
        refused = [p.label for p in self.problems if p.element.id in self.refused]
        parts = []
        if needs:
            parts.append(f"The form needs: {_names(needs)}")
        if refused:
            parts.append(f"The form does not accept the value typed into: {_names(refused)}")
        said = list(dict.fromkeys(p.said for p in self.problems if p.said))
        if said:
            parts.append("The page says: " + "; ".join(f'"{s}"' for s in said[:3]))
        return ". ".join(parts) + "."


def is_submit(action: Action, element: PageElement | None, label: str | None) -> bool:
    """A click on a button (or a commit-worded link), or Enter pressed in a field."""
    if action.name == "press":
        return (action.value or "").strip().casefold() in ("enter", "return")
    if action.name != "click":
        return False
    if element is None:  # re-rendered with its errors: known only by its old label
        return bool(label) and not COMMIT_WORDS.isdisjoint(words(label or ""))
    role = normalize_role(element.role)
    if role == "button" or (element.input_type or "").casefold() in ("submit", "image"):
        return True
    return role in ("link", "menuitem") and not COMMIT_WORDS.isdisjoint(words(element.name))


def form_problems(action: Action, page: PageState) -> tuple[FieldProblem, ...]:
    """The fields the page shows as refused (see the module doc), in page order."""
    submit = page.element(action.target) if action.target else None
    scope = [c for c in (submit.container if submit is not None else ()) if c.startswith(_SCOPES)]
    fields = [e for e in page.elements if normalize_role(e.role) in FIELD_ROLES and not e.hidden and not e.disabled]
    named = _named_by_messages(fields, page)
    out: dict[str, FieldProblem] = {}
    for element in fields:
        said = named.get(element.id)
        invalid = not INVALID_STATES.isdisjoint(element.states)
        in_scope = not scope or any(c in element.container for c in scope)
        missing = "required" in element.states and in_scope and _empty(element, page)
        if not (said is not None or invalid or missing):
            continue
        label = _label(element, page) or f"an unlabelled {normalize_role(element.role)}"
        if normalize_role(element.role) == "radio" and any(p.label == label for p in out.values()):
            continue  # one radio group, one name
        out[element.id] = FieldProblem(element, label, _empty(element, page), said)
    return tuple(out.values())


def check_form(action: Action, page: PageState, contract: Contract | None, typed: Sequence[str] = ()) -> FormCheck | None:
    """The page's objections to the submit ``action``, with the goal's fix for the first
    field it gives a value for; ``None`` when the page names no field, or when it refused a
    sign-in (a password the task typed is empty again: the same credentials would be refused
    again — the ladder says so with the page's words).

    ``typed``: what the task typed or chose on this page. A field it typed that the page
    refuses is not typed again: the page refuses the goal's value itself."""
    entered = _entered(typed)
    if any(e.input_type == "password" and e.id in entered and not (e.value or "") for e in page.elements):
        return None
    problems = form_problems(action, page)
    if not problems:
        return None
    refused = [p.element.id for p in problems if p.element.id in entered]
    if contract is None:
        return FormCheck(problems, refused=tuple(refused))
    for clause in contract.clauses:
        found = _fix(clause, contract, page)
        if found is None:
            continue
        element, fix, holds = found
        problem = next((p for p in problems if p.element.id == element.id), None)
        if problem is None or element.id in refused:
            continue
        if holds:  # the goal's value is in it and the page still refuses it
            refused.append(element.id)
            continue
        return FormCheck(problems, fix, problem, tuple(refused))
    return FormCheck(problems, refused=tuple(refused))


def _entered(typed: Sequence[str]) -> set[str]:
    """The ids of the fields the task typed into or chose in (``setValue`` / ``select``)."""
    out: set[str] = set()
    for text in typed:
        try:
            action = parse_action(text)
        except ActionSyntaxError:
            continue
        if action.name in ("setValue", "select") and action.target:
            out.add(action.target)
    return out


def _fix(clause: Clause, contract: Contract, page: PageState) -> tuple[PageElement, Action, bool] | None:
    """The element a clause sets, the action that sets it, and whether it already holds."""
    target = clause.target
    if target is None:
        return None
    holds = contract.result(clause.id).status == "holds"
    if clause.kind == "field_value" and (clause.value or "").strip() and clause.read is None:
        element = resolve(target, page, roles=TEXT_ROLES).element
        if element is None:
            return None
        name = "select" if normalize_role(element.role) in CHOICE_ROLES and element.options else "setValue"
        holds = holds or fold(element.value or "") == fold(clause.value or "")
        return element, Action(name=name, target=element.id, value=clause.value), holds
    if clause.kind == "choice" and (clause.value or "").strip():
        element = resolve(target, page, roles=CHOICE_ROLES).element
        if element is None:
            return None
        holds = holds or fold(element.value or "") == fold(clause.value or "")
        return element, Action(name="select", target=element.id, value=clause.value), holds
    if clause.kind == "control" and clause.state == "checked":
        element = resolve(target, page, roles=BOX_ROLES).element
        if element is None:
            return None
        return element, Action(name="click", target=element.id), holds or "checked" in element.states
    return None


def _named_by_messages(fields: list[PageElement], page: PageState) -> dict[str, str]:
    """Field id → the error message that names it (the most specific label per message)."""
    named: dict[str, str] = {}
    for message in page.messages:
        if message.kind != "error":
            continue
        said = set(words(message.text))
        hits = [(e, set(words(_label(e, page)))) for e in fields]
        hits = [(e, w) for e, w in hits if w and w <= said]
        for element, label_words in hits:
            if any(label_words < other for _, other in hits):
                continue  # "Name" when the message is about "Last name"
            named.setdefault(element.id, message.text)
    return named


def _empty(element: PageElement, page: PageState) -> bool:
    role = normalize_role(element.role)
    if role in BOX_ROLES:
        return "checked" not in element.states
    if role == "radio":
        return not any("checked" in r.states for r in _group(element, page))
    value = (element.value or "").strip()
    if role in CHOICE_ROLES and value:
        return value.casefold().startswith(_PROMPTS) and (not element.options or element.options[0] == value)
    return not value


def _group(radio: PageElement, page: PageState) -> Iterable[PageElement]:
    """The radio buttons a radio is chosen among: its ``name`` group, else its container."""
    key = radio.field_name or (radio.container[0] if radio.container else None)
    if key is None:
        return (radio,)
    return [e for e in page.elements if normalize_role(e.role) == "radio" and (e.field_name or (e.container[0] if e.container else None)) == key]


def _label(element: PageElement, page: PageState) -> str:
    """What a person calls the field: its label, else its placeholder, else its form name;
    a radio button by its group (the section or fieldset it sits in)."""
    if normalize_role(element.role) == "radio":
        section = next((c.split(":", 1)[1].strip() for c in element.container if c.startswith("section:")), "")
        if section:
            return section
    return (element.name or element.placeholder or element.field_name or "").strip()


def _names(labels: list[str]) -> str:
    shown = list(dict.fromkeys(labels))
    more = len(shown) - NAMES_SHOWN
    return ", ".join(shown[:NAMES_SHOWN]) + (f" and {more} more" if more > 0 else "")
