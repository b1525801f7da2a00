"""Goal words the proof itself shows. When every clause holds, the page that proved them may
also show what the goal said about *which* thing the work was done to: the confirmation
"Your standing order to Greenfield Nursery has been cancelled" after "Yes, cancel it", the
row "Hannah Cole · Member" the Save was pressed in. Those words are accounted for by that
proof — by what the page printed as the result of the work or around the control that did
it — never by text that was merely somewhere on the page.

Only plain words are accounted for this way: a quoted value, an address, a date is proven by
a clause that holds it, or not at all.
"""

from __future__ import annotations

import re
from typing import Final

from agent.policy import unaccounted
from agent.policy.references import QUALIFIERS
from verification import MESSAGE_APPEARED, Contract

# describe_element(): "button 'Save' in row: Hannah Cole · Member" — the containers that name
# one record, even when their text was cut; a card or form only when it was short enough to be
# whole (a cut one may be a wrapper around many records). A section names a part of a page.
_CONTAINER: Final = re.compile(r" in (row|dialog|alertdialog|listitem|item|article|card|form): (.+)$")
_ONE_RECORD: Final = frozenset({"row", "dialog", "alertdialog", "listitem", "item"})
# verification.diff: "New message/alert appeared: 'Payment sent.' (status)".
_MESSAGE: Final = re.compile(re.escape(MESSAGE_APPEARED) + r" '(.*?)' \(")


def proof_texts(contract: Contract) -> tuple[str, ...]:
    """What the pages that proved the contract's clauses printed with that proof: the messages
    that appeared after the work, the record (row, dialog, item) its controls sat in."""
    texts: list[str] = []
    for clause in contract.clauses:
        evidence = contract.result(clause.id).evidence
        if evidence is None:
            continue
        texts += [m.group(1).rstrip("…") for m in _MESSAGE.finditer(evidence.observation)]
        if evidence.element and (found := _CONTAINER.search(evidence.element)):
            kind, text = found.groups()
            if kind in _ONE_RECORD or not text.endswith("…"):
                texts.append(text.rstrip("…"))
    return tuple(dict.fromkeys(t for t in texts if t.strip()))


def account_by_proof(contract: Contract, goal: str) -> Contract:
    """``contract`` with the unaccounted goal words its holding proof shows struck off (only
    once every clause holds: a proof not yet given shows nothing)."""
    if not contract.unaccounted or not contract.clauses:
        return contract
    if any(contract.result(c.id).status != "holds" for c in contract.clauses):
        return contract
    texts = proof_texts(contract)
    if not texts:
        return contract
    still = set(unaccounted(goal, contract.clauses, (*contract.means, *texts)))
    left = tuple(w for w in contract.unaccounted if w in still or w.lower() in QUALIFIERS)
    if left == contract.unaccounted:
        return contract
    return contract.model_copy(update={"unaccounted": left})
