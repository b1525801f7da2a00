"""The chaining bench's figures: chains read from the client's step records, groups, targets,
and the cases (layouts, variants, phrasings) it asks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.chaining import CaseResult, ChainRun, cases, chain_runs, main
from bench.chaining_goals import PHRASINGS, goal
from bench.chaining_pages import LAYOUTS, Record, check, make_case
from bench.chaining_report import summarise, targets, write
from client import StepRecord


def result(mode: str, *, requests: int, success: bool, status: str = "completed", layout: str = "label", variant: str = "clean",
           chains: list[ChainRun] | None = None, changed: int = 0, code: str | None = None) -> CaseResult:  # fmt: skip
    return CaseResult(
        mode=mode, layout=layout, variant=variant, seed=0, phrasing="set", goal="Set A to b and press Submit",
        requests=requests, success=success, site_reason="", submissions=1, changed_target_actions=changed,
        stepwise_status=status, error_code=code, error=None, false_completion=status == "completed" and not success,
        actions=[], chains=chains or [],
    )  # fmt: skip


def test_a_chain_is_read_from_the_steps_the_client_ran() -> None:
    full = StepRecord(index=0, thought="", action='setValue("1", "Ada")', actions=['setValue("1", "Ada")', 'click("9")'], action_status="success")
    stopped = StepRecord(
        index=1, thought="", action='setValue("1", "Ada")', actions=['setValue("1", "Ada")', 'setValue("2", "L")', 'click("9")'],
        action_status="failure", action_error='click("9"): target changed: expected button \'Submit\', found button \'Delete\'',
    )  # fmt: skip
    single = StepRecord(index=2, thought="", action='click("9")', action_status="success")
    decided = StepRecord(index=3, thought="", action="finish()", actions=['setValue("1", "A")', "finish()"], action_status="terminal")
    bodies: list[dict[str, object]] = [{"query": "goal"}, {"lastActionStatus": "success"}, {"lastActionStatus": "failure"}, {}]
    runs = chain_runs([full, stopped, single, decided], bodies)
    assert [(r.length, r.executed, r.failed_index, r.full) for r in runs] == [(2, 2, None, True), (3, 2, 2, False)]
    # A client that reports the wire contract's chainPartialState is read from it.
    guarded = [*bodies[:2], {"lastActionStatus": "failure", "lastExecutedActionIndex": 0,
               "chainPartialState": {"executedActions": ['setValue("1", "Ada")'], "totalActionsInChain": 3, "failedIndex": 1, "failureKind": "target_missing"}}]  # fmt: skip
    runs = chain_runs([full, stopped], guarded)
    assert [(r.executed, r.failed_index, r.failure_kind) for r in runs] == [(2, None, None), (1, 1, "target_missing")]


def test_the_targets_compare_on_with_off_on_clean_pages(tmp_path: Path) -> None:
    runs = {
        "on": [
            result("on", requests=2, success=True, chains=[ChainRun(6, 6, None, None, None)]),
            result("on", requests=2, success=True, chains=[ChainRun(6, 3, 3, "target_changed", "x")]),
            result("on", requests=3, success=False, status="failed", variant="decoy", changed=0),
        ],
        "off": [
            result("off", requests=7, success=True),
            result("off", requests=7, success=False),  # a false completion
            result("off", requests=7, success=False, status="failed", variant="decoy", code="NO_VALID_ACTION"),
        ],
    }
    clean_on = summarise("clean", [r for r in runs["on"] if r.variant == "clean"])
    assert clean_on.full_chain_rate == 0.5 and clean_on.partial_failures_by_index == {3: 1}
    paths = write(tmp_path, runs, {"started": "t", "seeds": 1, "layouts": ["label"], "variants": ["clean", "decoy"], "phrasing": "set", "max_steps": 20, "server": "s"})
    data = json.loads(paths["json"].read_text())
    met = {row["target"]: row["met"] for row in data["targets"]}
    assert met["requests per 5-field form: ≤ 2 and ≥ 70 % fewer (median over successful cases, clean pages)"] is True  # 7 → 2
    assert met["success not lower with chaining (clean pages)"] is True
    assert met["full-chain success ≥ 95 % on clean pages"] is False  # 50 %
    assert met["actions executed on a changed target: 0"] is True
    assert met["false completions ≤ 1 % (chaining on)"] is True
    assert met["false completions ≤ 1 % (chaining off)"] is False  # 1 of 3
    assert data["groups"]["dirty · decoy"]["off"]["outcomes"] == {"NO_VALID_ACTION": 1}
    text = paths["markdown"].read_text()
    assert "| **clean, all layouts** | 2 / 2 | 2 / 7 | 2.00 / 7.00 | 2 / 7 | 100% / 50% |" in text
    assert "#3: 1/2 (target_changed 1)" in text
    assert text.count("FALSE COMPLETION") == 1 and "- off · clean · label · seed 0 · set: FALSE COMPLETION" in text


def test_no_chain_at_all_leaves_the_chain_target_open() -> None:
    table = {"clean, all layouts": {"on": summarise("c", [result("on", requests=7, success=True)]),
                                    "off": summarise("c", [result("off", requests=7, success=True)])}}  # fmt: skip
    rows = {what: met for what, _, met in targets(table)}
    assert rows["full-chain success ≥ 95 % on clean pages"] is None
    assert rows["requests per 5-field form: ≤ 2 and ≥ 70 % fewer (median over successful cases, clean pages)"] is False


def test_every_clean_layout_and_one_layout_per_dirty_seed() -> None:
    chosen = cases(list(LAYOUTS), ["clean", "decoy"], 5, None)
    clean = [(c.layout, p) for c, p in chosen if c.variant == "clean"]
    assert len(clean) == 5 * len(LAYOUTS) and {p for _, p in clean} == set(PHRASINGS)
    assert [c.layout for c, _ in chosen if c.variant == "decoy"] == list(LAYOUTS[:5])
    assert make_case("label", "clean", 2) == make_case("label", "clean", 2)
    assert make_case("label", "clean", 2).fields != make_case("label", "clean", 3).fields


@pytest.mark.parametrize("phrasing", list(PHRASINGS))
def test_every_goal_names_each_field_and_value_once(phrasing: str) -> None:
    case = make_case("extras", "clean", 4)
    text = goal(case, phrasing)
    for f in case.fields:
        assert text.count(f.value) == 1 and f.label.lower() in text.lower()
    assert case.country in text and "Subscribe to newsletter" in text and "ubmit" in text


def test_the_sites_check() -> None:
    case = make_case("extras", "clean", 0)
    good = case.expected()
    assert check(case, Record([good]))[0]
    assert not check(case, Record([]))[0]
    assert not check(case, Record([{**good, "middle": "Ada"}]))[0]
    assert not check(case, Record([{k: v for k, v in good.items() if k != "subscribe"}]))[0]
    assert not check(case, Record([good], {"changed_target": 1}))[0]
    assert check(case, Record([{k: f" {v} " for k, v in good.items()}]))[0]  # trimmed


def test_unknown_layouts_are_refused() -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--layouts", "label,nope"])
    assert exited.value.code == 2
