"""A goal read against its first page: what the words mean on *this* page.

The policy reads a goal without seeing the page (:mod:`agent.policy.understand`); three
readings depend on what the page shows, and are settled here once, when the task starts:

* **A goal that is a control's name** — "Log out", "Clear the filters", "Cancel my Pro
  subscription" — is a click on that control (:mod:`agent.named_controls`).
* **"Select Martelle"** ticks a box when Martelle is a checkbox, and activates it when it
  is a menu item or a link.
* **A change that the page only keeps once saved.** "Switch on the weekly digest" on a
  settings page with a *Save changes* button is not done until it is saved: a switch
  flipped and left unsaved is lost when the tab closes. When a goal only changes values
  (fields, boxes, switches, lists) and says nothing of committing them, and the page has
  one control that saves (Save, Apply, Update…), saving becomes part of the goal — its
  step, and a clause that needs the save to show an effect. (A goal already true on the
  first page changes nothing, so nothing is saved.) A form whose one commit is *Submit* is
  not saved unasked — a submit may send more than the change — but a value left in an
  unsubmitted form is not proven kept either: the task ends asking for confirmation
  (``Contract.unverifiable``), never completed.
"""

from __future__ import annotations

from typing import Final

from agent.named_controls import read_named_control
from agent.policy.understand import with_preconditions
from planning import Plan, PlanStep
from verification import Clause, Contract, ElementRef, PageElement, PageState, resolve_ref, start_contract
from verification.contract import words

_CHECKABLE: Final = frozenset({"checkbox", "radio", "switch", "option", "menuitemcheckbox", "menuitemradio"})
_CHANGES: Final = frozenset({"field_value", "choice", "control"})
# Labels of a control that keeps changes (not one that sends, searches or signs in).
_SAVE_WORDS: Final = frozenset({"save", "apply", "update"})
_SAVE_ROLES: Final = frozenset({"button", "link", "menuitem"})
_SUBMIT_WORDS: Final = frozenset({"submit"})


def read_on_page(contract: Contract, plan: Plan, page: PageState, goal: str | None = None) -> tuple[Contract, Plan]:
    """The contract and plan as the first page means them (see the module doc)."""
    if goal is not None:
        contract, plan = read_named_control(goal, contract, plan, page)
    contract, plan = _select_means_click(contract, plan, page)
    return _kept_by_saving(contract, plan, page)


def _select_means_click(contract: Contract, plan: Plan, page: PageState) -> tuple[Contract, Plan]:
    clauses = list(contract.clauses)
    changed = False
    for position, clause in enumerate(clauses):
        if clause.kind != "control" or clause.state != "checked" or clause.target is None:
            continue
        element = resolve_ref(clause.target, page).element
        if element is None or element.role in _CHECKABLE or "checked" in element.states:
            continue
        clauses[position] = clause.model_copy(update={"kind": "activated", "action": "click", "state": None, "before": None})
        for step in plan.steps:
            if step.clause == clause.id:
                step.kind = "click"
        changed = True
    if not changed:
        return contract, plan
    return contract.model_copy(update={"clauses": tuple(clauses)}), plan


def _save_control(page: PageState, labels: frozenset[str] = _SAVE_WORDS) -> PageElement | None:
    """The page's one control that saves (several with the same label count as one)."""
    found = [
        e
        for e in page.elements
        if e.actionable and e.role in _SAVE_ROLES and e.name and set(words(e.name)) & labels and len(words(e.name)) <= 3
    ]
    if not found or len({(e.role, e.name.strip().lower()) for e in found}) != 1:
        return None
    return found[0]


def _kept_by_saving(contract: Contract, plan: Plan, page: PageState) -> tuple[Contract, Plan]:
    clauses = list(contract.clauses)
    # What a form keeps: values, choices, boxes on or off — not a section opened or a box scrolled.
    changes = [c for c in clauses if c.kind in _CHANGES and c.state not in ("expanded", "collapsed", "scrolled-top", "scrolled-bottom")]
    if not changes or len(changes) != len(clauses) or contract.unaccounted:
        return contract, plan
    if any(c.target is not None and not resolve_ref(c.target, page).found for c in changes):
        return contract, plan  # the form is on a later page: its own save is there, not this page's
    save = _save_control(page)
    submit = _save_control(page, _SUBMIT_WORDS) if save is None else None
    if save is None and submit is None:
        return contract, plan
    started = start_contract(contract, page)
    if all(started.result(c.id).status == "holds" for c in changes):
        return contract, plan  # already so on the page: nothing to change, nothing to save
    if save is None:
        assert submit is not None
        unsubmitted = f"that the form is meant to stay unsubmitted (the goal does not say to press {submit.name.strip()!r})"
        return contract.model_copy(update={"unverifiable": (*contract.unverifiable, unsubmitted)}), plan
    clause = Clause(
        id=f"c{len(clauses) + 1}",
        kind="activated",
        description=f"Save the changes with {save.name.strip()!r}",
        target=ElementRef(name=save.name.strip(), role="button" if save.role != "link" else "link"),
        action="click",
        effect=True,
    )
    step = PlanStep(
        index=len(plan.steps),
        kind="submit",
        description=clause.description,
        target=save.name.strip(),
        success_criterion="the changes are saved",
        clause=clause.id,
    )
    plan = plan.model_copy(update={"steps": [*plan.steps, step]})
    return contract.model_copy(update={"clauses": tuple(with_preconditions([*clauses, clause]))}), plan
