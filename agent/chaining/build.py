"""Chains from the policy's plan and from a model's answer, under the same rules.

The policy's chain walks a copy of the plan over the page as it will be once the chain's
earlier actions are done (values in their fields, boxes ticked): each next step's action
joins while :mod:`agent.chaining.rules` allows it. A model's chain is its proposed run,
cut at the first action the rules refuse — never trusted whole. Each action also passes
``vet``: the checks every single action passes (grammar, page, secrets, destructive holds).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import structlog

from agent.advance import advance_and_refine
from agent.chaining.links import ChainLink, Requirement, expect_of
from agent.chaining.rules import TOGGLE_ROLES, commit_guard, ends_chain, is_commit, link_problem, precondition_guard, starts_chain
from agent.state import Candidate
from planning import ChainedAction, Plan
from verification import Action, Contract, PageElement, PageState, clause_hits, describe_element, normalize_role

log = structlog.get_logger(__name__)

# (action) → the action as it would be sent and its text, or None when it may not be sent.
Vet = Callable[[Action], "tuple[Action, str] | None"]


def policy_chain(first: Candidate, text: str, plan: Plan | None, page: PageState, contract: Contract, *, limit: int, vet: Vet) -> list[ChainLink]:
    """The chain the plan allows after ``first`` (already validated as ``text``); ``[]``
    when ``first`` goes alone."""
    head = _head(first, text, page, plan)
    if head is None or plan is None:
        return []
    first_element = page.element(first.action.target or "")
    assert first_element is not None  # _head checked
    walk = plan.model_copy(deep=True)
    if first.completes_step:
        _done(walk, first.plan_step)
    predicted = _after(page, first.action)
    links, used = [head], {first_element.id}
    while len(links) < limit:
        candidate, why = advance_and_refine(walk, predicted, contract)
        if candidate is None or candidate.probe or not _joins(candidate, walk):
            log.debug("chain.ends", reason=why or "the next step only prepares")
            break
        link = _next_link(candidate.action, len(links), _describe(walk, candidate), candidate.plan_step, page, predicted, contract, first_element, used, vet)
        if link is None:
            break
        link = dataclasses.replace(link, completes_step=candidate.completes_step)
        links.append(link)
        if link.commit or ends_chain(link.action, predicted.element(link.action.target or "")):
            break
        if candidate.completes_step:  # one of a step's several fields ("… into every field"): the step goes on
            _done(walk, candidate.plan_step)
        predicted = _after(predicted, link.action)
        used.add(link.action.target or "")
    return links if len(links) > 1 else []


def model_chain(first: Candidate, text: str, proposed: Sequence[ChainedAction], page: PageState, contract: Contract, *, limit: int, vet: Vet) -> list[ChainLink]:
    """The leading run of the model's proposed chain that the rules allow."""
    head = _head(first, text, page, None)
    if head is None or not proposed:
        return []
    first_element = page.element(first.action.target or "")
    assert first_element is not None
    links, used, predicted = [head], {first_element.id}, _after(page, first.action)
    for item in proposed[: limit - 1]:
        link = _next_link(item.action, len(links), item.description, None, page, predicted, contract, first_element, used, vet)
        if link is None:
            break
        links.append(link)
        if link.commit or ends_chain(link.action, predicted.element(link.action.target or "")):
            break
        predicted = _after(predicted, link.action)
        used.add(link.action.target or "")
    return links if len(links) > 1 else []


def _joins(candidate: Candidate, plan: Plan | None) -> bool:
    """An action that completes its step — or types one of a fill step's several fields
    ("Type X into every field"); never a move that only prepares (opening, revealing, the
    typing an autocomplete answers with suggestions)."""
    if candidate.completes_step:
        return True
    step = plan.steps[candidate.plan_step] if plan is not None and candidate.plan_step is not None and 0 <= candidate.plan_step < len(plan.steps) else None
    return step is not None and step.kind == "fill" and candidate.action.name == "setValue"


def _head(first: Candidate, text: str, page: PageState, plan: Plan | None) -> ChainLink | None:
    element = page.element(first.action.target or "")
    if first.probe or not _joins(first, plan) or not starts_chain(first.action, element) or ends_chain(first.action, element):
        return None
    description = first.thought
    if plan is not None and first.plan_step is not None and 0 <= first.plan_step < len(plan.steps):
        description = plan.steps[first.plan_step].description
    return ChainLink(0, first.action, text, description, plan_step=first.plan_step, completes_step=first.completes_step, expect=expect_of(element),
                     target=describe_element(element) if element else None)  # fmt: skip


def _next_link(
    proposed: Action,
    index: int,
    description: str,
    plan_step: int | None,
    page: PageState,
    predicted: PageState,
    contract: Contract,
    first: PageElement,
    used: set[str],
    vet: Vet,
) -> ChainLink | None:
    vetted = vet(proposed)
    if vetted is None:
        return None
    action, text = vetted
    element = predicted.element(action.target or "")
    original = page.element(action.target or "")
    if is_commit(action, element):
        guard = commit_guard(action, element, first, predicted, contract)
        if isinstance(guard, str):
            log.info("chain.commit_alone", action=text, reason=guard)
            return None
        required, attests, hits = guard
        required = _with_chain_state(required, used, predicted)
        return ChainLink(index, action, text, description, commit=True, plan_step=plan_step, expect=expect_of(original),
                         requires=required, attests=attests, clause_hits=hits, target=_named(original))  # fmt: skip
    if (problem := link_problem(action, element, first, used)) is not None:
        log.debug("chain.cut", action=text, reason=problem)
        return None
    hits = clause_hits(contract, action, page)
    guard = precondition_guard(hits, predicted, contract) if hits else ((), ())
    if isinstance(guard, str):
        log.debug("chain.cut", action=text, reason=guard)
        return None
    return ChainLink(index, action, text, description, plan_step=plan_step, expect=expect_of(original), requires=guard[0],
                     attests=guard[1], clause_hits=hits, target=_named(original))  # fmt: skip


def _named(element: PageElement | None) -> str | None:
    return describe_element(element) if element is not None else None


def _with_chain_state(required: tuple[Requirement, ...], used: set[str], predicted: PageState) -> tuple[Requirement, ...]:
    """The commit's re-read covers every field and box the chain set before it, as the chain
    leaves them: the client checks them all just before the submit, so each one is proven
    even when the submit takes the form away."""
    out = {target: (target, value, checked) for target, value, checked in required}
    for element_id in sorted(used):
        element = predicted.element(element_id)
        if element is None or element_id in out:
            continue
        if normalize_role(element.role) in TOGGLE_ROLES:
            out[element_id] = (element_id, None, "checked" in element.states)
        elif element.value:
            out[element_id] = (element_id, element.value, None)
    return tuple(out.values())


def _describe(plan: Plan, candidate: Candidate) -> str:
    if candidate.plan_step is not None and 0 <= candidate.plan_step < len(plan.steps):
        return plan.steps[candidate.plan_step].description
    return candidate.thought


def _done(plan: Plan, step: int | None) -> None:
    if step is None or not 0 <= step < len(plan.steps):
        return
    plan.steps[step].status = "completed"
    plan.current_step_index = next((s.index for s in plan.steps if s.status not in ("completed", "skipped")), len(plan.steps))


def _after(page: PageState, action: Action) -> PageState:
    """``page`` as it will be once ``action`` took effect (a value in its field, a box ticked)."""
    element = page.element(action.target or "")
    if element is None:
        return page
    if action.name in ("setValue", "select"):
        changed = dataclasses.replace(element, value=action.value or "")
    elif action.name == "click":
        states = set(element.states)
        states.symmetric_difference_update({"checked"}) if element.role != "radio" else states.add("checked")
        changed = dataclasses.replace(element, states=frozenset(states))
    else:
        return page
    elements = tuple(changed if e.id == element.id else e for e in page.elements)
    return dataclasses.replace(page, elements=elements)
