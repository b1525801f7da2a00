"""A goal that is the name of a control on its page: "Log out", "Clear the filters",
"Cancel my Pro subscription", "Mark all as read".

The policy reads goals without the page (:mod:`agent.policy.understand`), and a bare verb and
object with no "click" reads as nothing: every word is unaccounted. On the task's first
page such a goal is read once more, against the controls the page offers: a control whose
label starts with the goal's own verb and whose every word the goal says ("Cancel
subscription" for "Cancel my Pro subscription") is what the goal names — provided the
goal's other words are accounted for by where it sits (the "Pro" of the section "Pro plan")
and no other control fits as well. The goal then becomes one click on that control, with a
visible effect to prove it (a click that only moves the focus proves nothing).

That a click is not always the outcome is handled where it shows: a destructive click the
page answers with "are you sure?" waits for the page's confirmation, which goes to the user
(:mod:`agent.confirmation`); a click that changes nothing on the page is not verified. A
goal whose words no single control carries — "Book a flight to Paris" — stays unread and,
without a model, is not attempted.
"""

from __future__ import annotations

import re
from typing import Final

from agent.policy.coverage import unaccounted
from planning import Plan, PlanStep
from verification import Clause, Contract, ElementRef, PageElement, PageState, resolve_ref
from verification.contract import fold, words

_ROLES: Final = frozenset({"button", "link", "menuitem"})
_GLYPHS: Final = re.compile(r"^[^\w]+")
_POLITE: Final = frozenset({"please", "kindly", "just"})
MAX_GOAL_WORDS: Final = 6  # a control's name, said as a goal; a longer goal says more than a click


def _plain(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def _label(element: PageElement) -> str:
    """What the control says, without a leading glyph ("✕ Discard", "+ Add member")."""
    return _GLYPHS.sub("", element.text or element.name)


def _fits(element: PageElement, said: tuple[str, ...]) -> bool:
    """The label starts with the goal's verb, and the goal says every word of it."""
    label = words(_label(element))
    goal = {_plain(w) for w in said}
    return bool(label) and label[0] == said[0] and all(_plain(w) in goal for w in label)


def _clause(goal: str, element: PageElement, page: PageState) -> Clause | None:
    """The click on ``element`` as a clause that accounts for the whole goal, if one does:
    the goal's words beyond the label must be the element's container's ("Pro" of "section:
    Pro plan"); and the reference must find that element alone on this page."""
    label = _label(element)
    ref = ElementRef(name=label, role="link" if element.role == "link" else "button")
    clause = Clause(id="c1", kind="activated", description=f"Click {label!r}", target=ref, action="click", effect=True)
    left = unaccounted(goal, [clause])
    if left:
        context = set(words(" ".join(element.container)))
        if not all(w.lower() in context or _plain(fold(w)) in {_plain(c) for c in context} for w in left):
            return None
        ref = ref.model_copy(update={"container": " ".join(left)})
        clause = clause.model_copy(update={"target": ref, "description": f"Click {label!r} ({' '.join(left)})"})
        if unaccounted(goal, [clause]):
            return None
    if resolve_ref(ref, page).element is not element:
        return None
    return clause


def read_named_control(goal: str, contract: Contract, plan: Plan, page: PageState) -> tuple[Contract, Plan]:
    """The contract and plan of a goal that names one control of ``page`` (see the module
    doc); unchanged for any other goal."""
    said = words(goal)
    while said and said[0] in _POLITE:  # "Please log out"
        said = said[1:]
    if contract.clauses or plan.steps or not contract.unaccounted or not said or len(contract.unaccounted) > MAX_GOAL_WORDS:
        return contract, plan
    fitting = [e for e in page.elements if e.actionable and e.frame == 0 and e.role in _ROLES and _fits(e, said)]
    readings = [(e, clause) for e in fitting if (clause := _clause(goal, e, page)) is not None]
    # The longest label wins ("Cancel subscription" over "Cancel"); two as long: no reading.
    readings.sort(key=lambda r: -len(words(_label(r[0]))))
    if not readings or (len(readings) > 1 and len(words(_label(readings[1][0]))) == len(words(_label(readings[0][0])))):
        return contract, plan
    element, clause = readings[0]
    step = PlanStep(index=0, description=clause.description, kind="click", target=_label(element), clause=clause.id,
                    success_criterion=f"the page changes after {_label(element)!r} is clicked")  # fmt: skip
    read = contract.model_copy(update={"clauses": (clause,), "unaccounted": ()})
    return read, plan.model_copy(update={"steps": [step]})
