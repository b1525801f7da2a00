"""The chain's report (chainPartialState always; failedIndex/failureKind/skippedIndexes) and the
guards' comparisons, without a browser; and the request schema that carries the report."""

from __future__ import annotations

from typing import Any

import pytest

from app.routes.interact import _to_input
from app.schemas.interact import InteractRequest
from client.chain import ChainItem, ChainOutcome
from client.chain_guards import Expect, Reading, check_readback, check_required, check_target, holds, same_page


def test_a_completed_chain_reports_its_state_without_a_failure() -> None:
    outcome = ChainOutcome(total=2, executed=['click("1")', 'click("2")'], last_executed_index=1)
    assert outcome.completed
    assert outcome.report() == {
        "lastActionStatus": "success",
        "lastExecutedActionIndex": 1,
        "chainPartialState": {"executedActions": ['click("1")', 'click("2")'], "totalActionsInChain": 2, "skippedIndexes": []},
    }


def test_a_stopped_chain_says_where_and_why() -> None:
    outcome = ChainOutcome(total=4, executed=['setValue("1", "a")'], last_executed_index=0)
    outcome.skipped_failures.append((1, 'click("7"): no element'))
    outcome.stop(2, "target_changed", "click(\"9\"): target changed: expected button 'Submit', found button 'Delete'")
    report = outcome.report()
    assert report["lastActionStatus"] == "failure" and report["lastExecutedActionIndex"] == 0
    assert report["lastActionError"].startswith('click("9"): target changed')
    assert report["chainPartialState"] == {
        "executedActions": ['setValue("1", "a")'], "totalActionsInChain": 4,
        "failedIndex": 2, "failureKind": "target_changed", "skippedIndexes": [1],
    }


def test_a_chain_stopped_at_its_first_action_has_no_last_executed_index() -> None:
    report = ChainOutcome(total=3).stop(0, "value_mismatch", "x").report()
    assert "lastExecutedActionIndex" not in report
    assert report["chainPartialState"]["failedIndex"] == 0 and report["chainPartialState"]["executedActions"] == []


def test_chain_item_reads_the_wire() -> None:
    item = ChainItem.from_wire({
        "index": 5, "action": 'click("9")', "canFail": False, "commit": True,
        "expect": {"role": "button", "name": "Submit"},
        "requireValues": [{"target": "1", "value": "Ada"}, {"target": "2", "value": " Lovelace "}],
    }, 0)
    assert item.index == 5 and item.commit and item.expect == Expect("button", "Submit")
    assert item.require_values == (("1", "Ada"), ("2", " Lovelace "))
    boxes = ChainItem.from_wire({"action": 'click("9")', "requireValues": [{"target": "6", "checked": True}, {"target": "7", "checked": False}]}, 0)
    assert boxes.require_values == (("6", "true"), ("7", "false"))
    assert check_required(boxes.require_values, {"6": reading(role="checkbox", checked=True), "7": reading(role="checkbox", checked=False)}) is None
    assert check_required(boxes.require_values, {"6": reading(role="checkbox", checked=False), "7": reading(role="checkbox", checked=False)}) is not None
    bare = ChainItem.from_wire({"action": "wait(1)", "expect": None}, 3)
    assert bare.index == 3 and bare.expect is None and bare.require_values == () and not bare.commit


def reading(**kwargs: Any) -> Reading:
    return Reading(exists=True, perceivable=True, **kwargs)


@pytest.mark.parametrize(("found", "expect", "kind"), [
    (Reading(exists=False), Expect("button", "Submit"), "target_missing"),
    (Reading(exists=True, perceivable=False, role="textbox", name="Promo"), Expect("textbox", "Promo"), "target_missing"),
    (reading(role="button", name="Submit", covered=True), Expect("button", "Submit"), "covered"),
    (reading(role="button", name="Delete account"), Expect("button", "Submit"), "target_changed"),
    (reading(role="link", name="Submit"), Expect("button", "Submit"), "target_changed"),
    (reading(role="button", name="  submit "), Expect("btn", "Submit"), None),  # V3 code, case, spacing
    (reading(role="textbox", name="Fax"), None, None),  # no expect: only there, shown, uncovered
    (reading(role="textbox", name="Fax"), Expect("textbox", ""), None),
])
def test_target_guard(found: Reading, expect: Expect | None, kind: str | None) -> None:
    failure = check_target("9", found, expect)
    assert (failure.kind if failure else None) == kind


@pytest.mark.parametrize(("found", "wanted", "kept"), [
    (reading(role="textbox", value="Ada"), " Ada ", True),
    (reading(role="textbox", value="(555) 123-4567"), "5551234567", False),
    (reading(role="textbox", value="SPRIN"), "SPRING2026", False),
    (reading(role="combobox", value="France", selected=(("fr", "France"),)), "France", True),
    (reading(role="combobox", value="France", selected=(("fr", "France"),)), "fr", True),
    (reading(role="combobox", value="France", selected=(("fr", "France"),)), "france", True),
    (reading(role="combobox", value="Japan", selected=(("jp", "Japan"),)), "France", False),
    (reading(role="listbox", value="Red, Blue", selected=(("r", "Red"), ("b", "Blue"))), "Blue", True),
    (reading(role="checkbox", checked=True), "true", True),
    (reading(role="checkbox", checked=False), "true", False),
    (reading(role="checkbox", checked=False), "off", True),
    (reading(role="textbox", ty="date", value="2016-12-02"), "Dec 2, 2016", True),
    (reading(role="textbox", ty="date", value="2016-12-03"), "Dec 2, 2016", False),
    (reading(role="spinbutton", ty="number", value="1200"), "1,200", True),
    (reading(role="slider", value="50"), "50.0", True),
    (reading(role="combobox", text="Medium"), "Medium", True),  # a custom list box shows its choice
    (reading(role="button", name="x"), "anything", False),  # nothing to read: not proven
    (reading(role="textbox", value="a" * 1999 + "…"), "a" * 2500, True),  # the page script's cut
])
def test_value_read_back(found: Reading, wanted: str, kept: bool) -> None:
    assert holds(found, wanted) is kept
    failure = check_readback("3", found, wanted)
    assert (failure is None) is kept and (failure is None or failure.kind == "value_mismatch")


def test_required_values_name_the_field_that_lost_its_value() -> None:
    readings = {"1": reading(role="textbox", name="First name", value=""), "2": reading(role="textbox", value="Lovelace")}
    failure = check_required([("2", "Lovelace"), ("1", "Ada")], readings)
    assert failure is not None and failure.kind == "required_value_mismatch"
    assert "'First name' should hold 'Ada', it holds ''" in failure.message
    assert check_required([("2", "Lovelace")], readings) is None
    gone = check_required([("7", "x")], {"7": Reading(exists=False)})
    assert gone is not None and gone.kind == "required_value_mismatch"


def test_same_page_ignores_only_the_fragment() -> None:
    assert same_page("https://a.test/form?x=1", "https://a.test/form?x=1#step2")
    assert not same_page("https://a.test/form?x=1", "https://a.test/form?x=2")
    assert not same_page("https://a.test/form", "https://a.test/done")


def test_the_request_carries_the_chain_report_to_the_interact_input() -> None:
    body = InteractRequest.model_validate({
        "url": "https://a.test/form", "taskId": "t1", "interactiveTree": [],
        "lastActionStatus": "failure", "lastExecutedActionIndex": 1,
        "chainPartialState": {"executedActions": ["a", "b"], "totalActionsInChain": 5,
                              "failedIndex": 3, "failureKind": "covered", "skippedIndexes": [2]},
    })
    given = _to_input(body)
    assert given.chain_failed_index == 3 and given.chain_failure_kind == "covered" and given.chain_skipped == (2,)
    assert given.chain_executed_actions == ("a", "b") and given.chain_total_actions == 5
    done = _to_input(InteractRequest.model_validate({
        "url": "https://a.test/form", "taskId": "t1", "interactiveTree": [],
        "chainPartialState": {"executedActions": ["a"], "totalActionsInChain": 1},
    }))
    assert done.chain_failed_index is None and done.chain_failure_kind is None and done.chain_skipped == ()


def test_an_unknown_failure_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="failureKind"):
        InteractRequest.model_validate({
            "url": "https://a.test/", "taskId": "t1", "interactiveTree": [],
            "chainPartialState": {"totalActionsInChain": 2, "failedIndex": 0, "failureKind": "oops"},
        })
