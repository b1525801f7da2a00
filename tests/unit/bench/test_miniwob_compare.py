"""The MiniWoB++ report of one task list under two models, and the flags that ask for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.miniwob.harness import EpisodeResult
from bench.miniwob.report import markdown, per_task, summarise, write_comparison
from bench.miniwob.run import main


def episode(
    task: str, *, success: bool, status: str, calls: int = 0, code: str | None = None
) -> EpisodeResult:
    return EpisodeResult(
        task=task,
        seed=0,
        utterance="Click on the button.",
        done=True,
        reward=0.9 if success else -1.0,
        raw_reward=1.0 if success else -1.0,
        reward_reason=None,
        success=success,
        stepwise_status=status,
        error_code=code,
        error=None,
        steps=2,
        actions=['click("1")', "finish()"],
        model_calls=calls,
        input_tokens=100 * calls,
        output_tokens=10 * calls,
        server_ms_per_step=5.0,
        client_ms_per_step=20.0,
        false_completion=status == "completed" and not success,
        missed_completion=success and status != "completed",
        episode_limit_ms=10_000,
        elapsed_s=1.0,
    )


META: dict[str, Any] = {
    "server": "local (embedded defaults)",
    "models": {"none": "no model key", "lying": "fake Gemini that lies"},
    "model_requests": {"lying": {"VERIFICATION": 3, "PLANNING": 1}},
    "seeds": 2,
    "max_steps": 10,
    "started": "2026-01-01T00:00:00+00:00",
    "episode_limit": "each task's own",
    "tasks_file": "tasks.txt",
}


def test_the_comparison_puts_both_models_side_by_side(tmp_path: Path) -> None:
    runs = {
        "none": [
            episode("click-button", success=True, status="completed"),
            episode("click-button", success=True, status="completed"),
            episode("enter-text", success=False, status="failed", code="MAX_STEPS_EXCEEDED"),
        ],
        "lying": [
            episode("click-button", success=True, status="completed", calls=2),
            episode("click-button", success=False, status="needs_confirmation", calls=3),
            episode("enter-text", success=True, status="failed", calls=4, code="LLM_UNAVAILABLE"),
        ],
    }
    paths = write_comparison(tmp_path, runs, META)

    text = paths["markdown"].read_text()
    assert "Stepwise with model none / lying" in text
    rows = {line.split(" | ")[0]: line for line in text.splitlines() if line.startswith("| ")}
    assert rows["| click-button"] == (
        "| click-button | 2 / 2 | 100% / 50% | 0 / 0 | 0 / 0 | 0 / 5 | completed 2 "
        "| completed 1, needs_confirmation 1 |"
    )
    assert rows["| enter-text"] == (
        "| enter-text | 1 / 1 | 0% / 100% | 0 / 0 | 0 / 1 | 0 / 4 | MAX_STEPS_EXCEEDED 1 "
        "| LLM_UNAVAILABLE 1 |"
    )
    assert "| **overall** | 3 / 3 | 67% / 67% | 0 / 0 | 0 / 1 | 0 / 9 |" in text
    assert "by purpose: PLANNING 1, VERIFICATION 3." in text

    data = json.loads(paths["json"].read_text())
    assert data["models"] == ["none", "lying"]
    assert [row["name"] for row in data["tasks"]] == ["click-button", "enter-text"]
    assert data["tasks"][0]["lying"]["success_rate"] == 0.5
    assert data["overall"]["lying"]["missed_completions"] == 1
    assert data["overall"]["none"]["model_calls"] == 0
    assert len(data["episodes"]["lying"]) == 3


def test_the_single_run_report_names_a_broken_model_only() -> None:
    episodes = [episode("click-button", success=True, status="completed")]
    meta = {k: v for k, v in META.items() if k != "models"}
    plain = markdown(per_task(episodes), summarise("overall", episodes), {**meta, "model": "none"})
    lying = markdown(per_task(episodes), summarise("overall", episodes), {**meta, "model": "lying"})
    assert "model:" not in plain and "Server: local (embedded defaults) · seeds per task" in plain
    assert "· model: lying ·" in lying


@pytest.mark.parametrize(
    "argv",
    [
        ["--compare", "--model", "none"],
        ["--compare", "--model", "env"],
        ["--compare", "--server", "http://127.0.0.1:9"],
        ["--model", "lying", "--server", "http://127.0.0.1:9"],
        ["--model", "truthful"],
    ],
)
def test_flags_that_cannot_work_are_refused(argv: list[str], tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.txt"
    tasks.write_text("click-button\n")
    with pytest.raises(SystemExit) as exited:
        main(["--tasks", str(tasks), *argv])
    assert exited.value.code == 2
