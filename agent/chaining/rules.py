"""Which actions may run in a row without a round trip (spec "Chain Safety Criteria").

Every action of a chain must be on the same form (or dialog) and frame as the first,
visible, enabled, not covered, each on another element, and low-risk: typing, choosing,
ticking. An action that reveals or changes the page (a select, an autocomplete, something
that expands) may be the last. A commit (a Save/Submit button) may be the last only when
the goal asks for exactly that commit (a contract clause names it), it is not destructive,
and every field that must hold when it is pressed is either filled by the chain or holds
already — the client re-reads those values just before it (``requireValues``). Never in a
chain: ``finish()``, ``fail()``, navigation, keys, scrolling, waiting, hovering.
"""

from __future__ import annotations

from typing import Final

from agent.chaining.links import Requirement
from agent.destructive import destructive_phrase
from verification import Action, Contract, PageElement, PageState, check_contract, clause_hits, normalize_role, resolve_ref

FIELD_ACTIONS: Final = frozenset({"setValue", "select"})
TOGGLE_ROLES: Final = frozenset({"checkbox", "radio", "switch", "option", "menuitemcheckbox", "menuitemradio"})
# Typing here opens suggestions; choosing here may reveal fields: nothing may follow.
_REVEALING_ROLES: Final = frozenset({"combobox", "searchbox", "listbox", "tab"})
_COMMIT_ROLES: Final = frozenset({"button"})
_PRECONDITION_KINDS: Final = frozenset({"field_value", "choice", "control"})


def group(element: PageElement) -> str:
    """The form or dialog the element is in ("" for none): a chain stays inside one."""
    return next((entry for entry in element.container if entry.partition(":")[0] in ("form", "dialog")), "")


def same_place(element: PageElement, first: PageElement) -> str | None:
    if element.frame != first.frame:
        return "it is in another frame"
    if group(element) != group(first):
        return "it is in another form or dialog"
    return None


def starts_chain(action: Action, element: PageElement | None) -> bool:
    """A chain starts with a field or a box: a commit or a click elsewhere goes alone."""
    if element is None or not element.actionable:
        return False
    return action.name in FIELD_ACTIONS or (action.name == "click" and normalize_role(element.role) in TOGGLE_ROLES)


def link_problem(action: Action, element: PageElement | None, first: PageElement, used: set[str]) -> str | None:
    """Why ``action`` may not run inside this chain (``None``: it may)."""
    if element is None:
        return "its element is not on the page"
    if not element.actionable:
        return "its element is hidden, covered or disabled"
    if element.id in used:
        return "its element is already used in the chain"
    if action.name == "click" and normalize_role(element.role) not in TOGGLE_ROLES:
        return f"a click on a {element.role} may change the page"
    if action.name not in FIELD_ACTIONS and action.name != "click":
        return f"{action.name}() cannot run in a chain"
    return same_place(element, first)


def ends_chain(action: Action, element: PageElement | None) -> bool:
    """Nothing may follow an action that may reveal or change the page."""
    if action.name == "select" or element is None:
        return True
    role = normalize_role(element.role)
    return role in _REVEALING_ROLES or "expanded" in element.states or element.scroll is not None


def is_commit(action: Action, element: PageElement | None) -> bool:
    return action.name == "click" and element is not None and normalize_role(element.role) in _COMMIT_ROLES




def commit_guard(
    action: Action,
    element: PageElement | None,
    first: PageElement,
    predicted: PageState,
    contract: Contract,
) -> tuple[tuple[Requirement, ...], tuple[str, ...], tuple[str, ...]] | str:
    """For a commit that may end the chain: what the client must re-read just before it
    (each precondition's field or box, as the chain leaves it), the precondition clauses
    that read-back proves, and the event clauses the commit is for — or why it may not end
    the chain. ``predicted``: the page as the chain's earlier actions leave it."""
    if element is None or not element.actionable:
        return "its element is hidden, covered or disabled"
    if (where := same_place(element, first)) is not None:
        return where
    if (phrase := destructive_phrase(element)) is not None:
        return f"it would {phrase}"
    hits = clause_hits(contract, action, predicted)
    if not hits:
        return "the goal does not name this commit"
    guard = precondition_guard(hits, predicted, contract)
    if isinstance(guard, str):
        return guard
    return guard[0], guard[1], hits


def precondition_guard(
    hits: tuple[str, ...], predicted: PageState, contract: Contract
) -> tuple[tuple[Requirement, ...], tuple[str, ...]] | str:
    """For an action that makes event clauses ``hits`` true: what must hold when it runs
    (their preconditions: "the slider is at 1 when the box is clicked"), as the client
    re-reads it just before (``requireValues``), and the clauses that read-back proves — or
    why the chain cannot carry it (a precondition that would not hold, or cannot be re-read)."""
    preconditions = [clause for hit in hits for clause in contract.preconditions(hit)]
    if not preconditions:
        return (), ()
    then = check_contract(contract, predicted, step=-1)
    required: dict[str, Requirement] = {}
    for clause in preconditions:
        if clause.kind not in _PRECONDITION_KINDS or clause.target is None:
            return f"{clause.description!r} cannot be re-read by the client"
        if then.result(clause.id).status != "holds":
            return f"{clause.description!r} would not hold when it runs"
        target = resolve_ref(clause.target, predicted).element
        if target is None:
            return f"{clause.description!r} has no single element on this page"
        if clause.kind == "control":
            if clause.state not in ("checked", "unchecked"):
                return f"{clause.description!r} cannot be re-read by the client"
            required[target.id] = (target.id, None, clause.state == "checked")
        else:
            if not target.value:
                return f"{clause.description!r} has no value to re-read"
            required[target.id] = (target.id, target.value, None)
    return tuple(required.values()), tuple(c.id for c in preconditions)
