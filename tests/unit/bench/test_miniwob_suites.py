"""The --suites report: the wide list split in file order (tune half, held-out half), the
out-of-scope tasks with why, and the figures each group reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.miniwob.harness import EpisodeResult
from bench.miniwob.run import main
from bench.miniwob.suites import SHARED_BENCH, load_suites, read_task_list
from bench.miniwob.suites_report import group_row, markdown, task_rows
from tests.unit.bench.test_miniwob_compare import episode

WIDE = SHARED_BENCH / "miniwob-wide.txt"
pytestmark = pytest.mark.skipif(not WIDE.is_file(), reason="needs ../shared/bench")


def test_the_wide_list_is_split_in_file_order_into_two_halves_that_cover_it() -> None:
    suites = load_suites()
    groups = {g.name: g.tasks for g in suites.groups}
    wide = read_task_list(WIDE)
    assert list(groups)[:3] == ["dev", "wide-tune", "wide-holdout"]
    assert len(groups["wide-tune"]) == len(groups["wide-holdout"]) == len(wide) // 2
    assert list(groups["wide-tune"]) + list(groups["wide-holdout"]) == wide
    assert not set(groups["wide-tune"]) & set(groups["wide-holdout"])
    assert list(groups["dev"]) == read_task_list(SHARED_BENCH / "miniwob-dev.txt")


def test_the_unseen_group_is_on_neither_list() -> None:
    groups = {g.name: g.tasks for g in load_suites().groups}
    listed = set(read_task_list(WIDE)) | set(read_task_list(SHARED_BENCH / "miniwob-dev.txt"))
    assert groups["unseen"] and not set(groups["unseen"]) & listed


def test_the_fresh_group_shares_no_task_with_any_other_group() -> None:
    groups = {g.name: g.tasks for g in load_suites().groups}
    others = {task for name, tasks in groups.items() if name != "fresh" for task in tasks}
    assert groups["fresh"] and not set(groups["fresh"]) & others
    assert len(set(groups["fresh"])) == len(groups["fresh"])


def test_every_out_of_scope_task_is_on_the_wide_list_with_a_reason() -> None:
    suites = load_suites()
    wide = set(read_task_list(WIDE))
    assert suites.out_of_scope and set(suites.out_of_scope) <= wide
    assert all(len(why.split()) >= 3 for why in suites.out_of_scope.values())


def _run() -> list[EpisodeResult]:
    return [
        episode("click-menu", success=True, status="completed"),
        episode("click-menu", success=False, status="failed", code="NO_VALID_ACTION"),
        episode("copy-paste", success=False, status="completed"),  # a false completion, in scope
        episode("guess-number", success=False, status="failed", code="NEEDS_MODEL"),  # declined
        episode("terminal", success=False, status="failed", code="NO_VALID_ACTION"),  # not declined
        episode("terminal", success=False, status="completed"),  # out of scope, still a false completion
    ]


OUT = {"guess-number": "guessing", "terminal": "shell knowledge"}


def test_group_figures_separate_in_scope_success_from_false_completions_over_all() -> None:
    row = group_row("wide-tune", _run(), OUT)
    assert (row.tasks, row.in_scope_tasks, row.episodes) == (4, 2, 6)
    assert row.in_scope_success == round(1 / 3, 3)  # click-menu 1 of 2, copy-paste 0 of 1
    assert row.success == round(1 / 6, 3)
    assert (row.false_completions, row.false_rate) == (2, round(2 / 6, 3))
    assert (row.out_of_scope_episodes, row.declined_out_of_scope) == (3, 1)


def test_task_rows_say_scope_and_declines() -> None:
    rows = {r.task: r for r in task_rows(_run(), OUT)}
    assert rows["click-menu"].in_scope and rows["click-menu"].successes == 1
    assert not rows["guess-number"].in_scope and rows["guess-number"].declined == 1
    assert rows["terminal"].declined == 0 and rows["terminal"].false_completions == 1


def test_the_markdown_puts_the_groups_side_by_side() -> None:
    meta = {"server": "local", "model": "none", "seeds": 1, "max_steps": 20, "started": "now"}
    text = markdown({"dev": _run()[:2], "wide-tune": _run(), "wide-holdout": _run()[3:]}, OUT, meta)
    summary = text.split("\n## ")[0]
    assert all(f"| {name} |" in summary for name in ("dev", "wide-tune", "wide-holdout"))
    assert "## Out of scope without a model" in text and "**terminal** — shell knowledge" in text


def test_suites_refuse_a_remote_server_or_compare(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for extra in (["--compare"], ["--server", "http://127.0.0.1:9", "--api-key", "k"]):
        with pytest.raises(SystemExit):
            main(["--suites", "--out", str(tmp_path), *extra])
    assert "--suites" in capsys.readouterr().err
