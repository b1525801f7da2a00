"""The MiniWoB++ report of one task list under two models, and the flags that ask for it."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
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
        "| click-button | 2 / 2 | 2.0 / 2.0 | 100% / 50% | 0 / 0 | 0 / 0 | 0 / 5 | completed 2 "
        "| completed 1, needs_confirmation 1 |"
    )
    assert rows["| enter-text"] == (
        "| enter-text | 1 / 1 | 2.0 / 2.0 | 0% / 100% | 0 / 0 | 0 / 1 | 0 / 4 | MAX_STEPS_EXCEEDED 1 "
        "| LLM_UNAVAILABLE 1 |"
    )
    assert "| **overall** | 3 / 3 | 2.0 / 2.0 | 67% / 67% | 0 / 0 | 0 / 1 | 0 / 9 |" in text
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
        ["--chaining", "on", "--server", "http://127.0.0.1:9"],
        ["--compare-chaining", "--server", "http://127.0.0.1:9"],
        ["--compare-chaining", "--chaining", "off"],
        ["--compare-chaining", "--compare", "--model", "lying"],
        ["--chaining", "maybe"],
    ],
)
def test_flags_that_cannot_work_are_refused(argv: list[str], tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.txt"
    tasks.write_text("click-button\n")
    with pytest.raises(SystemExit) as exited:
        main(["--tasks", str(tasks), *argv])
    assert exited.value.code == 2


def test_compare_chaining_runs_the_same_tasks_with_chaining_on_then_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bench.miniwob import run

    started: list[dict[str, str]] = []

    @contextlib.contextmanager
    def fake_server(*, env: dict[str, str] | None = None) -> Iterator[SimpleNamespace]:
        started.append(dict(env or {}))
        yield SimpleNamespace(url="http://127.0.0.1:9", api_key="k")

    played: list[tuple[str, str]] = []

    def fake_play(args: Any, tasks: list[str], target: run.Target) -> list[EpisodeResult]:
        played.append((target.label, ",".join(tasks)))
        steps = 2 if "chaining on" in target.label else 6
        return [dataclasses.replace(episode(task, success=True, status="completed"), steps=steps) for task in tasks]

    monkeypatch.setattr(run, "local_server", fake_server)
    monkeypatch.setattr(run, "play", fake_play)
    tasks = tmp_path / "tasks.txt"
    tasks.write_text("login-user\nenter-password\n")
    assert main(["--tasks", str(tasks), "--compare-chaining", "--seeds", "2", "--out", str(tmp_path / "out")]) == 0

    assert [env["STEPWISE_CHAINING"] for env in started] == ["true", "false"]
    assert all(env["GEMINI_API_KEY"] == "" for env in started)
    assert [task_list for _, task_list in played] == ["login-user,enter-password"] * 2
    text = (tmp_path / "out" / "compare.md").read_text()
    assert "# MiniWoB++ — Stepwise with action chaining on / off" in text
    assert "| **overall** | 2 / 2 | 2.0 / 6.0 | 100% / 100% | 0 / 0 |" in text
    data = json.loads((tmp_path / "out" / "compare.json").read_text())
    assert data["models"] == ["chaining on", "chaining off"]
    assert data["overall"]["chaining off"]["mean_steps"] == 6.0
