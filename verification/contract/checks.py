"""Checking a contract: each clause against the page now, the verified action log, and what
changed since the task began. Pure functions; the agent calls :func:`start` once when a task
begins and :func:`evaluate` on every later request.

* ``field_value`` — the field holds the value, compared as the clause's ``match`` says
  (:mod:`verification.contract.values`: case-folded; numbers, dates and times normalised).
* ``choice`` — the list shows the option (a multi-select: the option is among the selected
  ones), or the option's radio/checkbox/option is selected.
* ``control`` — the control is checked / unchecked / expanded / collapsed.
* ``activated`` (event) — the previous action acted on the element the reference resolves
  to *on the page it was issued on*, and verification found it worked. A commit
  (``effect``) also needs a visible effect: a URL change or a change of the interactive
  elements or messages — the focus moving onto a Save button is not a saved form.
* ``message`` (event) — a message of that kind (with that text) appeared that was not on
  the first page (it stays satisfied after a toast fades), or one that was there is gone.
* ``shown`` — the value is shown (outside form fields) more often than on the first page; with
  ``appear`` false (a deleted record), it was shown at first and is shown nowhere now.
* ``url`` — the page's address is the one named (scheme-less host/path, or a fragment).
* ``presence`` — the element appeared (was not on the first page) or disappeared.

A state clause with ``before`` is a precondition of that event: once the event happened it
holds exactly when it held on the page the event's action was issued on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qsl, urlsplit

from verification.actions import Action
from verification.contract.model import Clause, ClauseResult, Contract, Evidence
from verification.contract.reads import read_values
from verification.contract.refs import describe_element, fold, matches, perceivable, resolve
from verification.contract.wording import words, words_within
from verification.contract.state_checks import TEXT_ROLES, choice_now, control_now, field_value_now, holds, not_yet, shown_otherwise
from verification.elements import PageElement
from verification.page import PageState

_ACTION_KINDS: Final[dict[str, frozenset[str]]] = {
    "click": frozenset({"click"}),
    "setValue": frozenset({"type"}),
    "select": frozenset({"select"}),
    "press": frozenset({"press"}),
    "hover": frozenset({"hover"}),
    "navigate": frozenset({"navigate"}),
    "goBack": frozenset({"back"}),
    "scroll": frozenset({"scroll"}),
}


@dataclass(frozen=True)
class PreviousStep:
    """The action issued on the previous request and how verification judged it."""

    step: int
    action: Action
    hits: tuple[str, ...]  # event clauses its target resolved to when it was issued
    success: bool
    effect: bool  # the URL changed or the interactive elements/messages changed
    observation: str  # the verification's line that says so
    element: str | None = None  # the target as it was described when the action was issued
    confirming: str | None = None  # the page after it asks to confirm it with this control (agent.confirmation)


# ---- the page now -------------------------------------------------------------------------


def _page_text_count(page: PageState, value: str) -> int:
    """How often ``value`` is shown as text — in messages, on visible elements that are not
    form fields, and in the page's visible text when the DOM was sent — never counting what
    is typed into a field."""
    wanted = fold(value)
    if not wanted:
        return 0
    shown, summary = page.memo("contract.shown_text", lambda: _shown_text(page))
    return max(shown.count(wanted), summary.count(wanted))


def _shown_text(page: PageState) -> tuple[str, str]:
    texts = [fold(m.text) for m in page.messages]
    texts += [fold(e.name) for e in page.elements if e.role not in TEXT_ROLES and perceivable(e, page)]
    return "\n".join(texts), fold(page.text_summary)


def _messages(clause: Clause, page: PageState) -> list[str]:
    wanted = fold(clause.value or "")
    out = []
    for message in page.messages:
        if clause.message_kind == "success" and message.kind not in ("success", "status", "toast", "alert"):
            continue
        if clause.message_kind == "error" and message.kind not in ("error", "alert"):
            continue
        if wanted and wanted not in fold(message.text):
            continue
        out.append(message.text)
    return out


def _url_matches(wanted: str, url: str) -> bool:
    want = urlsplit(wanted if "//" in wanted else f"//{wanted}")
    have = urlsplit(url)
    if want.netloc:
        if want.netloc.lower().removeprefix("www.") != have.netloc.lower().removeprefix("www."):
            return False
        if want.path.rstrip("/") and want.path.rstrip("/") != have.path.rstrip("/"):
            return False
        return set(parse_qsl(want.query)) <= set(parse_qsl(have.query))
    return fold(wanted).strip("/") in fold(f"{have.path}?{have.query}")


def baseline_count(clause: Clause, page: PageState) -> int:
    """What the first page already shows of a clause that must *appear* (kept with the contract)."""
    if clause.kind == "shown" and clause.value:
        return _page_text_count(page, clause.value)
    if clause.kind == "message":
        return len(_messages(clause, page))
    if clause.kind == "presence" and clause.target is not None:
        return len(resolve(clause.target, page).elements)
    return 0


def _now(clause: Clause, contract: Contract, page: PageState, step: int) -> tuple[str, str, Evidence | None]:
    """A state clause (or an appear/disappear clause) on the page as it is now."""
    base = contract.baseline.get(clause.id, 0)
    match clause.kind:
        case "field_value":
            return field_value_now(clause, page, step)
        case "choice":
            return choice_now(clause, page, step)
        case "control":
            return control_now(clause, page, step)
        case "url":
            assert clause.value is not None
            if _url_matches(clause.value, page.url):
                return holds(f"the page is {page.url}", Evidence(step=step, observation=f"the page is {page.url}", value=page.url))
            return not_yet(f"the page is {page.url}")
        case "shown":
            assert clause.value is not None
            count = _page_text_count(page, clause.value)
            if not clause.appear:  # a deleted record: its words are nowhere on the page any more
                if count == 0 and base > 0:
                    line = f"{clause.value!r} is no longer shown on the page ({base}× at the start)"
                    return holds(line, Evidence(step=step, observation=line, value=clause.value))
                return not_yet(f"{clause.value!r} is still shown on the page ({count}×)")
            if count > base:
                line = f"{clause.value!r} is shown on the page ({count}× now, {base}× at the start)"
                return holds(line, Evidence(step=step, observation=line, value=clause.value))
            return not_yet(f"{clause.value!r} is not shown more than at the start ({count}×)")
        case "presence":
            assert clause.target is not None
            found = resolve(clause.target, page)
            present = len(found.elements)
            if clause.appear and present > base:
                line = f"{describe_element(found.elements[0])} appeared"
                return holds(line, Evidence(step=step, observation=line, element=describe_element(found.elements[0])))
            if not clause.appear and present == 0 and base > 0:
                return holds(f"{clause.target.describe()} is gone", Evidence(step=step, observation=f"{clause.target.describe()} is gone"))
            return not_yet(f"{clause.target.describe()} is {'not there yet' if clause.appear else 'still there'}")
        case "message":
            seen = _messages(clause, page)
            if not clause.appear:
                if base > 0 and not seen:
                    line = f"the message {clause.value!r} is gone" if clause.value else "the message is gone"
                    return holds(line, Evidence(step=step, observation=line))
                return not_yet("the message is still shown" if seen else "no such message was shown")
            if len(seen) > base:
                line = f"the page shows {seen[-1]!r}"
                return holds(line, Evidence(step=step, observation=line, value=seen[-1]))
            return not_yet("no such message has appeared")
    return not_yet("checked from the action log")


# ---- the action log ------------------------------------------------------------------------


def clause_hits(contract: Contract, action: Action, page: PageState) -> tuple[str, ...]:
    """The event clauses this action, issued on ``page``, would satisfy once verified: its
    target is an element the clause's reference describes here (same kind of action)."""
    kinds = _ACTION_KINDS.get(action.name, frozenset())
    hits: list[str] = []
    for clause in contract.clauses:
        if clause.kind != "activated" or clause.action not in kinds:
            continue
        if clause.target is None:
            hits.append(clause.id)
            continue
        if action.target is None:
            continue
        if _confirms(contract.result(clause.id).awaiting, action.target, page):
            hits.append(clause.id)  # the confirmation the clause's own click opened
            continue
        acted = next((e for e in matches(clause.target, page) if e.id == action.target), None)
        if acted is not None and not _mostly_other_words(clause.target.name, acted):
            hits.append(clause.id)
    return tuple(hits)


def _confirms(awaiting: str | None, target: str, page: PageState) -> bool:
    if not awaiting:
        return False
    element = next((e for e in page.elements if e.id == target), None)
    return element is not None and fold(awaiting) in {fold(element.text or ""), fold(element.name), fold(element.value or "")}


# A label the named words make up less of than this is something else that mentions them: a
# wrapper around a whole menu ("Share via DM · Copy link · Mute @x · Block @x · Report") is
# not the "Block" item, even when it is the only element whose label carries "block".
_MIN_NAME_SHARE: Final = 0.15


def _mostly_other_words(name: str, element: PageElement) -> bool:
    """Does the element's label carry ``name``'s words only among many others? (Elements a
    reference finds by caption, position or kind carry none of them: not judged here.)"""
    wanted = words(name)
    if not wanted:
        return False
    shares = [words_within(wanted, label) for label in (element.name, element.text or "") if label]
    shares = [share for share in shares if share > 0]
    return bool(shares) and max(shares) < _MIN_NAME_SHARE


def _event(clause: Clause, contract: Contract, previous: PreviousStep | None) -> ClauseResult | None:
    """A new result for an event clause after ``previous``, else None."""
    if previous is None:
        return None
    old = contract.result(clause.id)
    if clause.id not in previous.hits:
        # A commit whose result was late: the page changed while only waiting for it.
        if old.unproven and previous.action.name == "wait" and previous.success and previous.effect:
            return old.model_copy(
                update={"status": "holds", "unproven": False, "detail": f"its result showed at step {previous.step}"}
            )
        return None
    if not previous.success:
        return ClauseResult(id=clause.id, status="pending", detail=f"step {previous.step}: the action did not verify")
    # Confirming in the dialog the press opened completes that press: the form was committed
    # with the values it held when the press was made (the dialog hides the form meanwhile).
    committed = old.evidence.step if old.awaiting and old.evidence is not None else previous.step
    missing = [c for c in contract.preconditions(clause.id) if committed not in contract.held_at.get(c.id, [])]
    if missing:
        what = "; ".join(c.description for c in missing)
        return ClauseResult(id=clause.id, status="pending", detail=f"step {committed} was done before this held: {what}")
    evidence = Evidence(step=previous.step, observation=previous.observation, element=previous.element)
    if previous.confirming:
        return ClauseResult(
            id=clause.id,
            status="pending",
            evidence=evidence,
            awaiting=previous.confirming,
            detail=f"step {previous.step} worked, but the page asks to confirm it with {previous.confirming!r}: not done until confirmed",
        )
    if clause.effect and not previous.effect:
        return ClauseResult(
            id=clause.id,
            status="pending",
            unproven=True,
            evidence=evidence,
            detail=f"step {previous.step} worked, but the page shows no result of it",
        )
    pressed_at = committed if old.awaiting else None
    return ClauseResult(id=clause.id, status="holds", detail=f"done at step {previous.step}", evidence=evidence, confirmed=old.awaiting, pressed_at=pressed_at)


# ---- the contract over time ---------------------------------------------------------------------


def start(contract: Contract, page: PageState) -> Contract:
    """The contract on the task's first page: baselines for what must appear, then the
    first evaluation (step 0)."""
    baseline = {c.id: baseline_count(c, page) for c in contract.clauses if c.kind in ("shown", "message", "presence")}
    return evaluate(contract.model_copy(update={"baseline": baseline, "results": {}, "held_at": {}}), page, step=0)


def evaluate(
    contract: Contract, page: PageState, *, step: int, previous: PreviousStep | Sequence[PreviousStep] | None = None
) -> Contract:
    """Every clause's status on ``page`` — the page on which action ``step`` will be issued —
    after ``previous``: the action before it, with its verdict — or, after a chain, each
    action of it the client ran, in order."""
    contract = read_values(contract, page, step)
    results = dict(contract.results)
    held_at = {k: list(v) for k, v in contract.held_at.items()}
    steps = [previous] if isinstance(previous, PreviousStep) else list(previous or [None])
    for clause in contract.clauses:
        if clause.kind != "activated":
            continue
        old = contract.result(clause.id)
        if old.status == "holds":
            continue
        found = [new for ran in steps if (new := _event(clause, contract, ran)) is not None]
        if found:
            results[clause.id] = next((new for new in found if new.status == "holds"), found[-1])
        elif clause.id not in results:
            results[clause.id] = ClauseResult(id=clause.id, detail="not done yet")
    for clause in contract.clauses:
        if clause.kind == "activated":
            continue
        old = contract.result(clause.id)
        if clause.mode == "event" and old.status == "holds":
            continue  # a message that appeared stays seen
        status, detail, evidence = _now(clause, contract, page, step)
        if status == "holds" and clause.mode == "state":
            held_at.setdefault(clause.id, [])
            if step not in held_at[clause.id]:
                held_at[clause.id].append(step)
        event = results.get(clause.before) if clause.before else None
        if event is not None and event.status == "holds":
            result = _at_event(clause, event, held_at, old)
            if result.status == "holds" and (otherwise := shown_otherwise(clause, page)) is not None:
                # Held when the form was committed, but the saved record says otherwise: not
                # proven (a server that dropped the field) — never a completion.
                result = ClauseResult(id=clause.id, status="pending", unproven=True, detail=f"{result.detail}, but {otherwise}", evidence=result.evidence)
            results[clause.id] = result
            continue
        results[clause.id] = ClauseResult(id=clause.id, status=status, detail=detail, evidence=evidence)  # type: ignore[arg-type]
    return contract.model_copy(update={"results": results, "held_at": held_at})


def _at_event(clause: Clause, event: ClauseResult, held_at: dict[str, list[int]], old: ClauseResult) -> ClauseResult:
    step = event.pressed_at if event.pressed_at is not None else event.evidence.step if event.evidence is not None else None
    if step is not None and step in held_at.get(clause.id, []):
        if old.status == "holds" and old.detail.startswith("held when step"):
            return old
        return ClauseResult(
            id=clause.id, status="holds", detail=f"held when step {step} was done",
            evidence=Evidence(step=step, observation=f"{clause.description}: held on the page of step {step}"),
        )  # fmt: skip
    return ClauseResult(id=clause.id, status="failed", detail=f"did not hold when step {step} was done")


def unmet(contract: Contract) -> list[str]:
    """The clauses that do not hold, in words, for a message to the user."""
    lines = []
    for clause in contract.pending():
        result = contract.result(clause.id)
        lines.append(f"{clause.description} ({result.detail})" if result.detail else clause.description)
    return lines


def all_unproven(contract: Contract) -> bool:
    """Nothing was left undone and nothing went wrong; only proof is missing: every clause
    that does not hold is a commit done without a visible result, or a result (message,
    text, element) that could only show once such a commit took effect."""
    pending = contract.pending()
    if not pending:
        return False
    commits = [c for c in contract.clauses if c.kind == "activated" and c.effect]
    commits_done = bool(commits) and all(
        contract.result(c.id).status == "holds" or contract.result(c.id).unproven for c in commits
    )
    for clause in pending:
        result = contract.result(clause.id)
        if result.status == "failed":
            return False
        if result.unproven:
            continue
        if clause.kind in ("message", "shown", "presence") and commits_done:
            continue
        return False
    return True


def satisfied_lines(contract: Contract) -> Iterable[str]:
    for clause in contract.clauses:
        result = contract.result(clause.id)
        if result.status == "holds":
            yield f"{clause.description}: {result.evidence.observation if result.evidence else result.detail}"
