"""Goal words the proof itself shows. When every clause holds, the page that proved them may
also show what the goal said about *which* thing the work was done to: the confirmation
"Your standing order to Greenfield Nursery has been cancelled" after "Yes, cancel it", the
row "Hannah Cole · Member" the Save was pressed in, the post "Ferry fares rise in spring" the
task opened (a verified click on its link) before it added the tag. Those words are accounted
for by that proof — by what the page printed as the result of the work, around the control
that did it, or on what the task verifiably acted on — never by text that was merely
somewhere on the page.

Only plain words are accounted for this way: a quoted value, an address, a date is proven by
a clause that holds it, or not at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from agent.extremes import proven_extremes
from agent.policy import unaccounted
from agent.policy.references import QUALIFIERS
from storage import TaskAction
from verification import MESSAGE_APPEARED, Contract

# describe_element(): "button 'Save' in row: Hannah Cole · Member" — the containers that name
# one record, even when their text was cut; a card, form or section only when it was short
# enough to be whole (its heading: "section: Spring menu"; a cut one may wrap many records).
_CONTAINER: Final = re.compile(r" in (row|dialog|alertdialog|listitem|item|article|card|form|section): (.+)$")
_ONE_RECORD: Final = frozenset({"row", "dialog", "alertdialog", "listitem", "item"})
# verification.diff: "New message/alert appeared: 'Payment sent.' (status)".
_NAMED: Final = re.compile(r"^[a-z]+ (['\"])(.+?)\1(?: in |$)")  # "link 'Ferry fares rise' in row: …"
_MESSAGE: Final = re.compile(re.escape(MESSAGE_APPEARED) + r" '(.*?)' \(")


def proof_texts(contract: Contract, acted: Sequence[str] = ()) -> tuple[str, ...]:
    """What the pages that proved the contract's clauses printed with that proof: the messages
    that appeared after the work, the record (row, dialog, item) its controls sat in — and the
    elements ``acted`` on by the task's verified actions (described as ``describe_element``
    does), by their own name and record."""
    texts: list[str] = []
    elements = list(acted)
    for clause in contract.clauses:
        evidence = contract.result(clause.id).evidence
        if evidence is None:
            continue
        texts += [m.group(1).rstrip("…") for m in _MESSAGE.finditer(evidence.observation)]
        elements += [evidence.element] if evidence.element else []
    for element in elements:
        if (named := _NAMED.match(element)) is not None:
            texts.append(named.group(2).rstrip("…"))
        if (found := _CONTAINER.search(element)) is not None:
            kind, text = found.groups()
            if kind in _ONE_RECORD or not text.endswith("…"):
                texts.append(text.rstrip("…"))
    return tuple(dict.fromkeys(t for t in texts if t.strip()))


def verified_picks(actions: Sequence[TaskAction]) -> list[dict[str, Any]]:
    """The lists the task's verified actions picked a record from (agent.extremes.peers_of)."""
    return [a.metrics["peers"] for a in actions if isinstance(a.metrics.get("peers"), dict) and (a.verification or {}).get("success") is True]


def account_extremes(contract: Contract, goal: str, picks: Sequence[Mapping[str, Any]]) -> Contract:
    """``contract`` with the superlatives the picks prove struck off (agent.extremes), once
    every clause holds."""
    if not contract.unaccounted or not picks or any(contract.result(c.id).status != "holds" for c in contract.clauses):
        return contract
    proven = proven_extremes(goal, contract.unaccounted, picks)
    if not proven:
        return contract
    return contract.model_copy(update={"unaccounted": tuple(w for w in contract.unaccounted if w.lower() not in proven)})


def verified_targets(actions: Sequence[TaskAction]) -> list[str]:
    """The elements the task's actions acted on, as described when each was issued, for the
    actions the next page verified."""
    return [str(a.metrics["target"]) for a in actions if a.metrics.get("target") and (a.verification or {}).get("success") is True]


def account_by_proof(contract: Contract, goal: str, acted: Sequence[str] = ()) -> Contract:
    """``contract`` with the unaccounted goal words its holding proof shows struck off (only
    once every clause holds: a proof not yet given shows nothing)."""
    if not contract.unaccounted or not contract.clauses:
        return contract
    if any(contract.result(c.id).status != "holds" for c in contract.clauses):
        return contract
    texts = proof_texts(contract, acted)
    if not texts:
        return contract
    still = set(unaccounted(goal, contract.clauses, (*contract.means, *texts)))
    left = tuple(w for w in contract.unaccounted if w in still or w.lower() in QUALIFIERS)
    if left == contract.unaccounted:
        return contract
    return contract.model_copy(update={"unaccounted": left})
