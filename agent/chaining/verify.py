"""One request verifies a whole chain: every action the client ran, from the page after it.

Fields and boxes are judged on the page (:mod:`verification.chain`); the last action that
ran, when it is a commit or any other click, goes through the full verifier measured from
the page as it should have been just before it. The step as a whole worked when nothing
the client ran failed; it made progress when its first action held — the rest is
recovered by rule (:mod:`agent.chaining.recovery`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from agent.chaining.links import ChainLink
from agent.chaining.report import ChainReport
from agent.contracts import previous_step
from storage import TaskAction
from verification import BeforeState, ClientObservations, ExpectedOutcome, PageState, PreviousStep, VerdictModel, VerificationResult
from verification import verify_action_with_observations
from verification.chain import LinkCheck, check_link, locate, predicted_before
from verification.tiers import value_holds
from verification.verdict import StepHint

_FIELD_LIKE = frozenset({"setValue", "select"})


@dataclass(frozen=True)
class ChainVerdict:
    result: VerificationResult  # the step's verdict, with ``chain`` = each action's check
    checks: list[LinkCheck]
    progressed: bool  # the first action holds: what follows is recovered, not corrected
    previous: list[PreviousStep]  # each action the client ran, as the contract's event checks read it
    attested: tuple[str, ...]  # precondition clauses the commit's read-back proves held when it ran
    failed_commit: ChainLink | None = None  # the commit ran and did not verify: corrected as a single action


async def verify_chain(
    last: TaskAction,
    links: list[ChainLink],
    report: ChainReport,
    page: PageState,
    *,
    goal: str,
    client: ClientObservations | None,
    model: VerdictModel | None,
    step_hint: StepHint,
    context: dict[str, str],
) -> ChainVerdict:
    before = BeforeState.model_validate(last.before_state)
    witnessed = client is not None and bool(client.did_network_occur or client.did_url_change)
    if page.dom_hash == before.dom_hash and page.url == before.url and not witnessed:
        # The page is exactly the one the chain was sent for and the client saw no request go
        # out: nothing of it ran, whatever the client says. Judged from the page alone. (A form
        # that clears itself after a submit made a request: the client saw it.)
        report = dataclasses.replace(report, consistent=False)
    ran = report.ran_through if report.consistent else len(links) - 1
    # Only a consistent account of a chain that ran its commit says the client re-read the
    # commit's fields just before it (its guard).
    commit = links[-1] if links[-1].commit and report.consistent and not report.legacy and ran >= links[-1].index else None
    read_back = {target for target, _, _ in commit.requires} if commit is not None else set()
    # Fields the commit's guard re-read: what they show after it ran is the commit's doing (a
    # form re-shown empty after a refused sign-in), so the commit is judged even then.
    read_back_texts = {link.text for link in links if (link.action.target or "") in read_back}
    targets = frozenset(link.action.target for link in links if link.action.target)
    checks: list[LinkCheck] = []
    full: VerificationResult | None = None
    full_last: TaskAction | None = None  # the commit as a single action, with its predicted before-state
    full_index = -1
    for link in links:
        if link.index > ran:
            failed = link.index == report.failed_index
            reason = f"the client stopped here: {report.error or report.failure_kind}" if failed else "not run (the chain stopped before it)"
            checks.append(LinkCheck(index=link.index, action=link.text, status="failed" if failed else "not_run", reason=reason, ran=False))
            continue
        if link.index in report.skipped:
            checks.append(LinkCheck(index=link.index, action=link.text, status="skipped", reason="it failed and may fail (canFail)", ran=False))
            continue
        if link.action.name in _FIELD_LIKE or link.index < ran or not _clicks_out(link):
            check = check_link(link.index, link.action, link.expect, before, page,
                               read_back=(link.action.target or "") in read_back, chained=targets)
            checks.append(check)
            continue
        # The last action that ran commits (or clicks something that is not a box): the full
        # verifier, from the page as the chain's earlier actions should have left it — which
        # only means something when the page shows those actions held.
        if any(c.status == "failed" and c.action not in read_back_texts for c in checks):
            checks.append(LinkCheck(index=link.index, action=link.text, status="failed",
                                    reason="not judged: an earlier action of the chain does not hold on the page"))  # fmt: skip
            continue
        if before.url.split("#", 1)[0] == page.url.split("#", 1)[0] and (changed := _changed_identity(link, page)) is not None:
            checks.append(LinkCheck(index=link.index, action=link.text, status="failed", reason=changed))
            continue
        done = [l.action for l in links[: link.index] if l.index not in report.skipped]
        full_last = last.model_copy(update={"action": link.text, "before_state": predicted_before(before, done).model_dump(mode="json")})
        witness = ClientObservations(did_network_occur=client.did_network_occur, did_url_change=client.did_url_change) if client else None
        expected = ExpectedOutcome.model_validate(last.expected_outcome) if last.expected_outcome and link.index == 0 else None
        full = await verify_action_with_observations(
            before=BeforeState.model_validate(full_last.before_state), after=page, action=link.text, goal=goal,
            client_observations=witness, expected_outcome=expected, model=model, step_hint=step_hint, context=context,
        )  # fmt: skip
        full_index = link.index
        status = "verified" if full.success else "failed"
        checks.append(LinkCheck(index=link.index, action=link.text, status=status, reason=full.reason[:300]))
    result = _combined(checks, full, before, page, report)
    previous = _previous(last, links, checks, (full, full_last, full_index), page)
    # Progress: the first action holds, or a later one does (an undone first field is then
    # redone from the page, not "corrected" onto another element).
    progressed = checks[0].status in ("verified", "unproven", "skipped") or any(c.status == "verified" for c in checks)
    # A commit that ran and did not verify is corrected like a single action (a refused
    # sign-in is not re-typed and re-sent by a regenerated chain, over and over).
    failed_commit = next((link for link in links if link.index == full_index and full is not None and not full.success), None)
    if failed_commit is not None:
        progressed = False
    held = commit is not None and all(c.status == "verified" for c in checks if c.action in read_back_texts)
    uniform = commit is not None and _uniform(links, read_back, before, page)
    attested = commit.attests if commit is not None and held and uniform and checks[commit.index].status == "verified" else ()
    # A box or radio inside the chain whose preconditions its guard re-read ("the slider at 1
    # when the 3rd box is clicked"): verified and run under a consistent report, they held.
    if report.consistent and not report.legacy:
        for link, check in zip(links, checks, strict=True):
            if link is not commit and link.attests and check.ran and check.status == "verified":
                attested = (*attested, *(c for c in link.attests if c not in attested))
    return ChainVerdict(result, checks, progressed, previous, attested, failed_commit)


def _uniform(links: list[ChainLink], read_back: set[str], before: BeforeState, page: PageState) -> bool:
    """After the commit, the fields its guard re-read are all gone (another page), all still
    hold what the chain typed, or all show what they showed before the chain (a form that
    cleared itself): a form half-kept is no sign of one submit of the values read back."""
    if before.url.split("#", 1)[0] != page.url.split("#", 1)[0]:
        return True
    skeleton = (before.skeleton or {}).get("elements") or {}
    states: set[str] = set()
    for link in links:
        target = link.action.target or ""
        if target not in read_back or link.action.name not in _FIELD_LIKE:
            continue
        element = locate(link.action, link.expect, page)
        if element is None:
            states.add("gone")
        elif value_holds(link.action.value or "", element.value or ""):
            states.add("kept")
        elif (element.value or "") == str((skeleton.get(target) or {}).get("value") or ""):
            states.add("reset")
        else:
            states.add("other")
    return len(states) <= 1 and "other" not in states


def _changed_identity(link: ChainLink, page: PageState) -> str | None:
    """On the same page, the element under the commit's id is now something else ("Delete
    account" where "Submit" was): whatever the click did, it was not the commit the chain
    meant. A client without guards can get here; the page shows it. (After a navigation ids
    belong to another document and say nothing.)"""
    element = page.element(link.action.target or "")
    if element is None or link.expect is None or link.expect.matches(element):
        return None
    return f"its element is now {element.role} {element.name!r}, not the {link.expect.role} {link.expect.name!r} the chain meant"


def _clicks_out(link: ChainLink) -> bool:
    """A click the page answers as a whole (a commit), not a box whose state shows it."""
    return link.commit or (link.action.name == "click" and link.expect is not None and link.expect.role not in ("checkbox", "radio", "switch", "option", "menuitemcheckbox", "menuitemradio"))


def _combined(checks: list[LinkCheck], full: VerificationResult | None, before: BeforeState, page: PageState, report: ChainReport) -> VerificationResult:
    lines = [f"Chain {c.index + 1}/{len(checks)} {c.action}: {c.status} — {c.reason}" for c in checks]
    failed = [c for c in checks if c.status == "failed"]
    ok = not failed  # what the client ran holds (an old client runs only the first: the rest is decided again)
    if full is not None:
        reason = full.reason if ok else f"{_failure(failed, checks)}; {full.reason}"
        return full.model_copy(update={"success": full.success and ok, "observations": [*lines, *full.observations], "reason": reason, "chain": checks,
                                       "error_category": full.error_category if ok else (full.error_category or "not_achieved")})  # fmt: skip
    verified = sum(c.status == "verified" for c in checks)
    ran = [c for c in checks if c.ran]
    if not ok:
        reason = _failure(failed, checks)
    elif len(ran) == len(checks):
        reason = f"All {len(checks)} actions of the chain hold on the page"
    else:
        reason = f"The {len(ran)} of {len(checks)} chained actions that ran hold on the page; the rest is decided again"
    return VerificationResult(
        success=ok,
        confidence=0.9 if ok and verified == len(checks) else (0.75 if ok else 0.3),
        reason=reason,
        action_succeeded=ok,
        task_completed=False,
        goal_achieved=None,
        semantic_summary=reason[:300],
        observations=lines,
        meaningful_content_change=verified > 0,
        url_changed=before.url != page.url,
        client_witness_override=False,
        verification_tier=1,
        tokens_saved=0,
        model_called=False,
        decided_by="rules",
        next_goal_check=None,
        error_category=None if ok else ("value_mismatch" if any("holds" in c.reason for c in failed) else "not_achieved"),
        duration_ms=0.0,
        chain=checks,
    )


def _failure(failed: list[LinkCheck], checks: list[LinkCheck]) -> str:
    if failed:
        first = failed[0]
        return f"Chain action {first.index + 1}/{len(checks)} {first.action} failed: {first.reason}"
    return "The chain stopped before its end"


def _previous(
    last: TaskAction, links: list[ChainLink], checks: list[LinkCheck],
    commit: tuple[VerificationResult | None, TaskAction | None, int], page: PageState,
) -> list[PreviousStep]:  # fmt: skip
    full, full_last, full_index = commit
    out: list[PreviousStep] = []
    for link, check in zip(links, checks, strict=True):
        if check.status in ("not_run", "skipped"):
            continue
        if link.index == full_index and full is not None and full_last is not None:
            as_single = full_last.model_copy(update={"metrics": {**last.metrics, "clause_hits": list(link.clause_hits), "target": link.target}})
            step = previous_step(as_single, full, page)
            if step is not None:
                out.append(step)
            continue
        held = check.status == "verified"
        out.append(PreviousStep(step=last.step_index, action=link.action, hits=link.clause_hits, success=held, effect=held,
                                observation=check.reason, element=link.target))  # fmt: skip
    return out

