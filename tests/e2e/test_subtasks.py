"""A 4-part flow (search → open a record → edit 5 fields → save) through the reference client
in Chromium, against a local server and a scripted model that plans sub-tasks
(``bench.subtasks``): every sub-task verified on the page, a save whose effect does not show
blocks completion, and the worker's prompt stays flat where a flat plan's grows."""

from __future__ import annotations

from typing import Any

import pytest

from bench.subtask_model import ScriptedGemini
from bench.subtask_site import Layout
from bench.subtasks import Run, run_one, scripted_plan

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]


async def _run(kind: str, layout: Layout, browser: Any) -> Run:
    model = ScriptedGemini(scripted_plan(subtasks=kind != "flat")).start()
    try:
        return await run_one(kind, layout, model=model, subtasks=kind != "flat", drop="city" if kind == "hier-drop" else None, browser=browser, expected="-")
    finally:
        model.stop()


@pytest.mark.parametrize("layout", ["list", "table"])
async def test_every_sub_task_is_verified_and_the_record_is_really_saved(browser: Any, layout: Layout) -> None:
    run = await _run("hier", layout, browser)
    assert run.status == "completed", run
    assert run.stored, "the site holds every new value"
    assert [s["status"] for s in run.subtasks] == ["completed"] * 4
    assert all(s["evidence"] for s in run.subtasks)
    assert run.ratio is not None and run.ratio <= 1.3, run.worker_prompts


async def test_a_save_whose_effect_does_not_show_never_completes(browser: Any) -> None:
    run = await _run("hier-drop", "list", browser)
    assert run.status != "completed" and run.error_code == "SUBTASK_NOT_MET"
    assert [s["status"] for s in run.subtasks] == ["completed", "completed", "completed", "failed"]
    assert "Oslo" in (run.subtasks[-1]["failure"] or "")


async def test_a_flat_plans_worker_prompt_grows_where_the_sub_tasks_stays_flat(browser: Any) -> None:
    hier = await _run("hier", "list", browser)
    flat = await _run("flat", "list", browser)
    assert flat.status == "completed" and flat.subtasks == []
    sizes = [n for _, n, _ in flat.worker_prompts]
    assert sizes == sorted(sizes) and sizes[-1] > sizes[0], "each step adds its history line"
    # the last worker call acts on the same page (the edit form's Save) in both runs
    assert hier.worker_prompts[-1][1] < flat.worker_prompts[-1][1]
    assert hier.worker_prompts[-1][1] / hier.worker_prompts[0][1] < flat.worker_prompts[-1][1] / flat.worker_prompts[0][1]
