"""A model's contract clauses, merged into the task's contract only where they hold up: grounded
in the goal's words or the page's (the page supplies the vocabulary, the goal the values and
the intent), binding goal words nothing else binds, and — for what only a later page shows —
waiting until a page shows it (docs/planner.md, "The model planner")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from agent.policy import unaccounted
from agent.policy.coverage import grounded, same_number
from agent.policy.coverage_lexicon import FILLER
from agent.policy.references import QUALIFIERS
from agent.policy.understand import with_preconditions
from verification import Clause, Contract, PageState, resolve_ref
from verification.contract import fold, words

STATE_KINDS: Final = frozenset({"field_value", "choice", "control"})
LATE_KINDS: Final = STATE_KINDS | {"activated"}
"""Clauses a later page may still ground: proven by a field's state or the action log, never by
text that may have been on the page all along (a clause of those kinds has its baseline from the
first page)."""


def merge_model_clauses(contract: Contract, goal: str, proposed: Sequence[Clause], page: PageState | None = None) -> tuple[Contract, list[str]]:
    """Add the model's clauses that account for goal words the contract does not yet cover.

    A model clause is kept only when it is grounded — it names and values only what the goal
    says, or what ``page`` shows while sharing a word with the goal (``coverage.grounded``) —
    and binds at least one word nothing else binds; the policy's clauses are never replaced.
    A clause that names what this page does not show (a later page's labels) waits in
    ``proposed`` until a page shows it (:func:`merge_proposed`). Returns the merged contract and
    the goal words still unaccounted."""
    page_texts = page_vocabulary(page) if page is not None else ()
    proposed = _linked(proposed)
    shown = [grounded(clause, goal, page_texts) for clause in proposed]
    shown = _own_commits(proposed, shown, page_texts)
    kept = list(contract.clauses)
    if page is not None:
        kept = _yield_unseen(kept, contract, page, [c for c, ok in zip(proposed, shown, strict=True) if ok])
    before = set(unaccounted(goal, kept, contract.means))
    proposed = [_relinked(clause, proposed, kept) for clause in proposed]
    occurrence = _occurrences(proposed)
    added = 0
    waiting: list[Clause] = []
    for position, clause in enumerate(proposed):
        if clause.kind in STATE_KINDS and clause.before and not any(c.id == clause.before for c in (*kept, *proposed)):
            continue  # the press it must hold for was never accepted: nothing would prove it submitted
        commit = next((i for i in range(position + 1, len(proposed)) if _commits(proposed[i])), None)
        if clause.kind in STATE_KINDS and commit is not None and not shown[commit] and page is not None:
            waiting.append(clause)  # a precondition of a press this page does not show: they are merged together
            continue
        if not shown[position]:
            if page is not None and clause.kind in LATE_KINDS and grounded(clause, goal, (*page_texts, *_clause_texts(clause))):
                waiting.append(clause)  # grounded in its own words only: wait for a page that shows them
            elif page is not None and _commits(clause) and any(w.before == clause.id for w in waiting):
                waiting.append(clause)  # the press the waiting fields must hold for: it waits with them
            continue
        if (confirmed := _confirmed_by(clause, kept, contract)) is not None:
            # The confirmation this press asks for was already given: it completed that clause.
            proposed = [p.model_copy(update={"before": confirmed}) if p.before == clause.id else p for p in proposed]
            continue
        bound = [k for k in kept if _same(clause, k)]
        if len(bound) > occurrence[position]:  # already bound (a proposal merged on an earlier page)
            same_id = bound[occurrence[position]].id
            proposed = [p.model_copy(update={"before": same_id}) if p.before == clause.id else p for p in proposed]
            continue
        after = set(unaccounted(goal, [*kept, clause], contract.means))
        together: set[str] = set()
        if not (before - after) and clause.kind in STATE_KINDS:
            later = [c for c, ok in zip(proposed[position + 1 :], shown[position + 1 :], strict=True) if ok]
            together = _bound_together(clause, later, kept, goal, contract.means)
        again = occurrence[position] > 0 and (_commits(clause) or clause.before is not None)
        if not (before - after) and not together and not (_commits(clause) and (added or contract.source == "merged")) and not again:
            if page is not None and clause.kind in LATE_KINDS:
                waiting.append(clause)  # binds nothing new now; may, once a policy clause yields its words
            continue  # binds nothing new — unless it is a press that submits what was merged: a requirement more
        added += 1
        kept = [k for k in kept if not (k.source == "model" and _narrows(clause, k))]
        taken = {k.id for k in kept}
        number = next(n for n in range(len(kept) + 1, 2 * len(kept) + 2) if f"c{n}" not in taken)
        new_id = f"c{number}"
        kept.append(clause.model_copy(update={"id": new_id, "covers": tuple(sorted((before - after) | together))}))
        # What waits for this press now names it by its id in the contract.
        kept = [k.model_copy(update={"before": new_id}) if k.before == clause.id else k for k in kept]
        waiting = [w.model_copy(update={"before": new_id}) if w.before == clause.id else w for w in waiting]
        proposed = [p.model_copy(update={"before": new_id}) if p.before == clause.id else p for p in proposed]
        before = after
    if not added:
        return contract.model_copy(update={"proposed": tuple(waiting)}), list(contract.unaccounted)
    # What the policy could not read as a name (a superlative) stays unread whoever names it.
    unread = [w for w in contract.unaccounted if w.lower() in QUALIFIERS]
    missing = tuple(dict.fromkeys([*unaccounted(goal, kept, contract.means), *unread]))
    merged = contract.model_copy(
        update={"clauses": tuple(with_preconditions(kept)), "unaccounted": missing, "source": "merged", "proposed": tuple(waiting)}
    )
    return merged, list(missing)


def merge_proposed(contract: Contract, goal: str, page: PageState) -> Contract:
    """The waiting model clauses this page grounds, merged (the rest wait on)."""
    if not contract.proposed:
        return contract
    merged, _missing = merge_model_clauses(contract.model_copy(update={"proposed": ()}), goal, contract.proposed, page)
    return merged


def _bound_together(clause: Clause, later: Sequence[Clause], kept: Sequence[Clause], goal: str, means: Sequence[str]) -> set[str]:
    """Goal words ``clause`` binds only with the later shown state clauses of its proposal: a
    date said whole ("2nd January 2027") that three fields hold apart (Day 2, Month 1, Year
    2027) — none of them binds "January" alone, and none may be left out."""
    others = [c for c in later if c.kind in STATE_KINDS]
    if not others:
        return set()
    without = set(unaccounted(goal, [*kept, *others], means))
    return without - set(unaccounted(goal, [*kept, clause, *others], means))


def _own_commits(proposed: Sequence[Clause], shown: list[bool], page_texts: Sequence[str]) -> list[bool]:
    """A press this page shows, that the proposal's grounded fields must hold for, is the
    form's own way to commit whatever its label ("Schedule" after "Publish on" and "Time"):
    grounded with them."""
    labels = {fold(t) for t in page_texts}
    out = list(shown)
    for position, clause in enumerate(proposed):
        if out[position] or not _commits(clause) or clause.target is None or fold(clause.target.name) not in labels:
            continue
        fields = [i for i, p in enumerate(proposed) if p.kind in STATE_KINDS and p.before == clause.id]
        out[position] = bool(fields) and all(shown[i] for i in fields)
    return out


def _linked(proposed: Sequence[Clause]) -> list[Clause]:
    """A model's state clauses tied to the press that follows them in its proposal (they must
    hold when it is made: the form may be gone after), by the press's proposal id."""
    out = list(proposed)
    for position, clause in enumerate(out):
        if clause.kind in STATE_KINDS and clause.before is None and clause.id.startswith("m"):
            commit = next((c for c in out[position + 1 :] if _commits(c)), None)
            if commit is not None:
                out[position] = clause.model_copy(update={"before": commit.id})
    return out


def _occurrences(proposed: Sequence[Clause]) -> list[int]:
    """Which time each clause says what an earlier one of the proposal says: the same press
    made again, the same value held again for it ("invite Lena and Raj, both as Sales members":
    the form is filled and sent twice). A repeat is its own requirement, never merged away."""
    seen: list[Clause] = []
    out = []
    for clause in proposed:
        out.append(sum(1 for s in seen if _same(clause, s)))
        seen.append(clause)
    return out


def _confirmed_by(clause: Clause, kept: Sequence[Clause], contract: Contract) -> str | None:
    """The held clause whose press was confirmed with the control this press names ("Delete
    post", then the dialog's "Delete"), by its id."""
    if not _commits(clause) or clause.target is None or clause.target.container:
        return None
    name = fold(clause.target.name).strip()
    return next((k.id for k in kept if (done := contract.result(k.id)).status == "holds" and done.confirmed and fold(done.confirmed).strip() == name), None)


def _commits(clause: Clause) -> bool:
    return clause.kind == "activated" and clause.effect and clause.action in ("click", "press")


def _clause_texts(clause: Clause) -> tuple[str, ...]:
    texts = [clause.value or ""]
    if clause.target is not None:
        texts += [clause.target.name, clause.target.container or ""]
    return tuple(t for t in texts if t)


def page_vocabulary(page: PageState) -> tuple[str, ...]:
    """The words a page offers for naming things: its elements' labels, texts, placeholders and
    options, the rows, cards and sections they sit in, and its messages."""
    texts: list[str] = []
    for element in page.elements:
        if element.hidden:
            continue
        texts += [element.name, element.text or "", element.placeholder or "", *element.options]
        texts += [container.partition(": ")[2] for container in element.container]
    texts += [message.text for message in page.messages]
    return tuple(dict.fromkeys(t for t in texts if t))


def _yield_unseen(kept: list[Clause], contract: Contract, page: PageState, offered: Sequence[Clause]) -> list[Clause]:
    """The policy's clauses that name what this page does not show, dropped when a model's
    clause (merged, or ``offered`` now and grounded) holds the same value: the policy read the goal without the page ("Enter '£1,500'
    into daily spending limit on the card …"), the model named the field the page has. The
    words only the dropped clause bound go back to unaccounted (never proven by nothing)."""
    out = list(kept)
    for clause in kept:
        if clause.source != "policy" or clause.target is None or contract.result(clause.id).status == "holds":
            continue
        if any(k.before == clause.id for k in out) or resolve_ref(clause.target, page).found:
            continue
        others = [*offered, *(k for k in out if k is not clause and k.source == "model")]
        if others and _misread(clause):
            out.remove(clause)  # "Enter 'me' into 12D on the aisle": no page has it, no person would read it so
            continue
        if clause.value and not any(k.value and _same_value_read(clause.value, k.value) for k in others):
            continue
        if not clause.value and not any(k.kind == clause.kind for k in others):
            continue
        out.remove(clause)
    return out


_MAX_NAME_WORDS: Final = 5


def _same_value_read(policy: str, model: str) -> bool:
    """The same value — or the policy read on past its end ("Health and file Dr" where the
    model reads "Health": "a label called Health and file Dr. Mercer's reminder under it")."""
    said, read = fold(policy).strip(), fold(model).strip()
    return said == read or same_number(model, policy) or (len(read) >= 2 and said.startswith(read + " "))


def _misread(clause: Clause) -> bool:
    """A policy clause no person would read from the goal: the value it types is a filler word
    or one letter ('for', 'J'), or — with no value of its own to lose — the element it names
    runs on with the goal's values: a number, a colon, brackets, or more words than a label
    has ("Turn on my out of office from December 20 to January 4th, subject: …")."""
    if clause.value is not None:
        value = fold(clause.value).strip()
        return value in FILLER or len(value) <= 1
    name = clause.target.name if clause.target is not None else ""
    return len(words(name)) > _MAX_NAME_WORDS or any(ch.isdigit() or ch in ":()" for ch in name)


def _relinked(clause: Clause, proposed: Sequence[Clause], kept: Sequence[Clause]) -> Clause:
    """A state clause whose press was merged on an earlier page names it by its contract id
    (the press it must hold for is in the contract already, under another id)."""
    if clause.before is None or any(k.id == clause.before for k in kept):
        return clause
    press = next((p for p in proposed if p.id == clause.before), None)
    merged = next((k for k in kept if press is not None and _same(press, k)), None)
    return clause.model_copy(update={"before": merged.id}) if merged is not None else clause


def _same(new: Clause, old: Clause) -> bool:
    return (new.kind, new.action, new.state, new.value, new.target) == (old.kind, old.action, old.state, old.value, old.target)


def _narrows(new: Clause, old: Clause) -> bool:
    """``new`` says what ``old`` says, more precisely ("Deactivate in the row for Bob" after
    "Deactivate"): the vaguer one would be ambiguous on the page, and is dropped."""
    if (new.kind, new.action, new.state, new.value) != (old.kind, old.action, old.state, old.value):
        return False
    if new.target is None or old.target is None or old.target.container:
        return False
    return bool(new.target.container) and set(words(old.target.name)) <= set(words(new.target.name))
