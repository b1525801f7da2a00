"""Chain rules, the client's report, recovery and per-action verification — pure functions."""

from __future__ import annotations

from typing import Any

import pytest

from agent.chaining.links import ChainLink, stored_chain
from agent.chaining.recovery import choose_recovery
from agent.chaining.report import read_report
from agent.chaining.rules import ends_chain, is_commit, link_problem, same_place, starts_chain
from agent.chaining.stats import chain_stats
from agent.inputs import InteractInput, PageInput
from storage import TaskAction
from verification import BeforeState, PageElement, PageState, parse_action
from verification.chain import Expect, LinkCheck, check_link, predicted_before


def el(id_: str, role: str = "textbox", name: str = "", **kw: Any) -> PageElement:
    return PageElement(id=id_, role=role, name=name, **kw)


def page(*elements: PageElement, url: str = "https://x.test/form") -> PageState:
    return PageState.from_elements(elements, url=url)


FORM = ("form: Sign up",)


# ---- rules ---------------------------------------------------------------------------------


def test_a_chain_starts_with_a_field_or_a_box_never_with_a_commit() -> None:
    assert starts_chain(parse_action('setValue("1", "a")'), el("1"))
    assert starts_chain(parse_action('click("2")'), el("2", "checkbox"))
    assert not starts_chain(parse_action('click("3")'), el("3", "button", "Save"))
    assert not starts_chain(parse_action('setValue("1", "a")'), el("1", states=frozenset({"disabled"})))
    assert not starts_chain(parse_action('setValue("1", "a")'), el("1", occluded=True))


@pytest.mark.parametrize(
    ("action", "element", "problem"),
    [
        ('setValue("2", "b")', el("2", container=FORM), None),
        ('click("2")', el("2", "radio", container=FORM), None),
        ('click("2")', el("2", "link", "Next", container=FORM), "may change the page"),
        ('setValue("2", "b")', el("2", container=("form: Newsletter",)), "another form"),
        ('setValue("2", "b")', el("2", container=FORM, frame=1), "another frame"),
        ('setValue("2", "b")', el("2", container=FORM, hidden=True), "hidden"),
        ('setValue("1", "b")', el("1", container=FORM), "already used"),
        ('press("2", "Enter")', el("2", container=FORM), "cannot run in a chain"),
    ],
)
def test_link_rules(action: str, element: PageElement, problem: str | None) -> None:
    found = link_problem(parse_action(action), element, el("1", container=FORM), {"1"})
    assert (found is None) if problem is None else (found is not None and problem in found)


def test_what_may_reveal_or_change_the_page_ends_a_chain() -> None:
    assert ends_chain(parse_action('select("1", "France")'), el("1", "combobox"))
    assert ends_chain(parse_action('setValue("1", "Par")'), el("1", "combobox", "City"))
    assert ends_chain(parse_action('setValue("1", "q")'), el("1", "searchbox"))
    assert ends_chain(parse_action('click("1")'), el("1", "checkbox", states=frozenset({"expanded"})))
    assert not ends_chain(parse_action('setValue("1", "Ada")'), el("1"))
    assert is_commit(parse_action('click("9")'), el("9", "button", "Save"))
    assert same_place(el("2", container=("dialog: Edit",)), el("1", container=("dialog: Edit",))) is None


# ---- the client's report -------------------------------------------------------------------


LINKS = [
    ChainLink(i, parse_action(text), text, f"step {i}", expect=Expect("textbox", name))
    for i, (text, name) in enumerate([('setValue("1", "Ada")', "First"), ('setValue("2", "Lee")', "Last"), ('setValue("3", "a@b.c")', "Email")])
]


def request(**kw: Any) -> InteractInput:
    return InteractInput(page=PageInput(url="https://x.test/form"), query=None, task_id="t", **kw)


def test_an_old_client_ran_only_the_first_action() -> None:
    report = read_report(request(last_action_status="success"), LINKS)
    assert (report.ran_through, report.legacy, report.consistent) == (0, True, True)
    failed = read_report(request(last_action_status="failure"), LINKS)
    assert (failed.ran_through, failed.failed_index) == (-1, 0)


def test_a_consistent_partial_report() -> None:
    report = read_report(
        request(last_executed_action_index=0, last_action_status="failure", chain_executed_actions=('setValue("1","Ada")',),
                chain_total_actions=3, chain_failed_index=1, chain_failure_kind="target_changed"),
    LINKS)  # fmt: skip
    assert (report.ran_through, report.failed_index, report.failure_kind, report.consistent) == (0, 1, "target_changed", True)


@pytest.mark.parametrize(
    "fields",
    [
        {"last_executed_action_index": 7},
        {"last_executed_action_index": 1, "chain_executed_actions": ('setValue("1", "Ada")', 'setValue("9", "x")')},
        {"last_executed_action_index": 1, "chain_total_actions": 5},
        {"last_executed_action_index": 1, "chain_failed_index": 0},
        {"last_executed_action_index": 1, "chain_skipped": (8,)},
    ],
)
def test_an_account_that_does_not_match_the_chain_is_inconsistent(fields: dict[str, Any]) -> None:
    assert read_report(request(**fields), LINKS).consistent is False


# ---- recovery ---------------------------------------------------------------------------------


def _checks(*statuses: str) -> list[LinkCheck]:
    return [LinkCheck(index=i, action=LINKS[i].text, status=s, reason="") for i, s in enumerate(statuses)]  # type: ignore[arg-type]


def test_recovery_retries_a_re_rendered_target_on_its_new_element() -> None:
    report = read_report(request(last_executed_action_index=0, chain_failed_index=1, chain_failure_kind="target_missing"), LINKS)
    now = page(el("1", name="First", value="Ada"), el("22", name="Last"), el("3", name="Email"))
    recovery = choose_recovery(report, LINKS, _checks("verified", "failed", "not_run"), now)
    assert recovery is not None and recovery.strategy == "retry"
    assert recovery.retry is not None and recovery.retry.target == "22" and recovery.retry.value == "Lee"


def test_recovery_skips_an_action_that_may_fail() -> None:
    links = [LINKS[0], ChainLink(1, LINKS[1].action, LINKS[1].text, "optional", can_fail=True, plan_step=1), LINKS[2]]
    report = read_report(request(last_executed_action_index=0, chain_failed_index=1), links)
    recovery = choose_recovery(report, links, _checks("verified", "failed", "not_run"), page())
    assert recovery is not None and (recovery.strategy, recovery.plan_step) == ("skip", 1)


@pytest.mark.parametrize("kind", ["covered", "url_changed", "value_mismatch", "error"])
def test_recovery_regenerates_otherwise(kind: str) -> None:
    report = read_report(request(last_executed_action_index=0, chain_failed_index=1, chain_failure_kind=kind), LINKS)
    now = page(el("1", name="First", value="Ada"), el("2", name="Last"), el("3", name="Email"))
    recovery = choose_recovery(report, LINKS, _checks("verified", "failed", "not_run"), now)
    assert recovery is not None and recovery.strategy == "regenerate"


def test_no_recovery_when_the_chain_ran_through_or_nothing_held() -> None:
    report = read_report(request(last_executed_action_index=2), LINKS)
    assert choose_recovery(report, LINKS, _checks("verified", "verified", "verified"), page()) is None
    assert choose_recovery(report, LINKS, _checks("failed", "failed", "failed"), page()) is None


# ---- each action verified on the page ------------------------------------------------------------


BEFORE = BeforeState.from_page(page(el("1", name="First"), el("2", name="Last"), el("5", "checkbox", "News")))


@pytest.mark.parametrize(
    ("after", "status"),
    [
        (page(el("1", name="First", value="Ada")), "verified"),
        (page(el("1", name="First", value="")), "failed"),
        (page(el("1", name="First", value="Bob")), "failed"),
        (page(el("17", name="First", value="Ada")), "verified"),  # re-rendered: found by role and name
        (page(el("1", "button", "Home")), "failed"),  # the id now names something else; no field
        (page(el("9", "link", "Home"), url="https://x.test/done"), "unproven"),
    ],
)
def test_a_field_is_judged_on_the_page_after_the_chain(after: PageState, status: str) -> None:
    check = check_link(0, parse_action('setValue("1", "Ada")'), Expect("textbox", "First"), BEFORE, after, read_back=False)
    assert check.status == status, check.reason


def test_a_field_the_commit_moved_away_counts_as_read_back_by_the_client() -> None:
    after = page(el("9", "link", "Home"), url="https://x.test/done")
    check = check_link(0, parse_action('setValue("1", "Ada")'), Expect("textbox", "First"), BEFORE, after, read_back=True)
    assert check.status == "verified"


def test_a_box_must_be_in_the_state_the_click_leaves() -> None:
    on = page(el("5", "checkbox", "News", states=frozenset({"checked"})))
    off = page(el("5", "checkbox", "News"))
    click = parse_action('click("5")')
    assert check_link(1, click, Expect("checkbox", "News"), BEFORE, on, read_back=False).status == "verified"
    assert check_link(1, click, Expect("checkbox", "News"), BEFORE, off, read_back=False).status == "failed"


OPEN_LIST = BeforeState.from_page(page(
    el("12", "combobox", "To", value="Miami", states=frozenset({"expanded", "focused"})),
    el("52", "option", "Miami International (MIA)"), el("13", name="Depart"),
))  # fmt: skip


@pytest.mark.parametrize(
    ("to", "status"),
    [
        (el("12", "combobox", "To", value="Miami (MIA)", states=frozenset({"collapsed"})), "verified"),  # the pick filled it
        (el("12", "combobox", "To", value="Miami", states=frozenset({"collapsed"})), "unproven"),  # closed by the blur alone?
    ],
)
def test_a_pick_whose_list_closed_is_judged_by_the_control_the_list_was_for(to: PageElement, status: str) -> None:
    after = page(to, el("13", name="Depart", value="12/20/2026"))
    check = check_link(0, parse_action('click("52")'), Expect("option", "Miami International (MIA)"), OPEN_LIST, after,
                       read_back=False, chained={"52", "13"})  # fmt: skip
    assert check.status == status, check.reason


def test_a_control_the_chain_itself_set_is_no_proof_of_the_pick() -> None:
    after = page(el("12", "combobox", "To", value="Orlando"), el("13", name="Depart", value="12/20/2026"))
    check = check_link(0, parse_action('click("52")'), Expect("option", "Miami International (MIA)"), OPEN_LIST, after,
                       read_back=False, chained={"52", "12"})  # fmt: skip
    assert check.status == "unproven"


def test_a_box_or_field_that_left_the_page_still_fails() -> None:
    after = page(el("1", name="First", value="Ada"))
    assert check_link(1, parse_action('click("5")'), Expect("checkbox", "News"), BEFORE, after, read_back=False).status == "failed"


def test_the_commit_is_measured_from_the_page_the_chain_left() -> None:
    predicted = predicted_before(BEFORE, [parse_action('setValue("1", "Ada")'), parse_action('click("5")')])
    elements = (predicted.skeleton or {})["elements"]
    assert elements["1"]["value"] == "Ada" and elements["5"]["checked"] is True
    assert BEFORE.skeleton is not None and "value" not in BEFORE.skeleton["elements"]["1"]  # the stored one is untouched


# ---- stored form and figures ----------------------------------------------------------------------


def test_a_stored_chain_round_trips_and_a_broken_one_is_none() -> None:
    link = ChainLink(0, LINKS[0].action, LINKS[0].text, "x", commit=False, plan_step=2, expect=Expect("textbox", "First"),
                     requires=(("1", "Ada", None), ("5", None, True)), attests=("c1",))  # fmt: skip
    assert stored_chain([link.stored()]) == [link]
    assert link.wire()["require_values"] == [{"target": "1", "value": "Ada"}, {"target": "5", "checked": True}]
    assert stored_chain([link.stored(), {"action": "nonsense("}]) == []


def test_chain_figures_count_round_trips_saved() -> None:
    def step(n: int, statuses: list[str] | None) -> TaskAction:
        verification = {"chain": [{"index": i, "status": s, "ran": s not in ("not_run",)} for i, s in enumerate(statuses)]} if statuses else None
        return TaskAction(tenant_id="t", task_id="x", step_index=n, thought="", action="a", actions=[{"action": "a"}] * 3, verification=verification)

    stats = chain_stats([step(0, ["verified", "failed", "not_run"]), step(1, ["verified"] * 3), step(2, None)])
    assert stats == {"sent": 3, "actions_sent": 9, "complete": 1, "partial": 1, "failed": 0, "actions_executed": 5, "round_trips_saved": 3}
