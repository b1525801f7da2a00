"""The ``--suites`` report: each group's tasks (in or out of scope), then the groups side by
side — success over in-scope tasks and over all, false completions over all episodes, the
out-of-scope tasks declined honestly, and server time per step."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from statistics import median
from typing import Any

from bench.miniwob.harness import EpisodeResult
from bench.miniwob.suites import declined


@dataclass(frozen=True)
class TaskRow:
    task: str
    in_scope: bool
    episodes: int
    successes: int
    false_completions: int
    declined: int
    mean_steps: float
    server_ms: float | None  # median over episodes of each episode's mean server ms per step


@dataclass(frozen=True)
class GroupRow:
    group: str
    tasks: int
    in_scope_tasks: int
    episodes: int
    in_scope_success: float
    success: float
    false_completions: int
    false_rate: float
    out_of_scope_episodes: int
    declined_out_of_scope: int
    server_ms: float | None


def _server(episodes: Sequence[EpisodeResult]) -> float | None:
    values = [e.server_ms_per_step for e in episodes if e.server_ms_per_step is not None]
    return round(median(values), 1) if values else None


def task_rows(episodes: Sequence[EpisodeResult], out_of_scope: Mapping[str, str]) -> list[TaskRow]:
    rows = []
    for task in dict.fromkeys(e.task for e in episodes):
        mine = [e for e in episodes if e.task == task]
        rows.append(
            TaskRow(
                task=task,
                in_scope=task not in out_of_scope,
                episodes=len(mine),
                successes=sum(e.success for e in mine),
                false_completions=sum(e.false_completion for e in mine),
                declined=sum(declined(e) for e in mine),
                mean_steps=round(sum(e.steps for e in mine) / len(mine), 1),
                server_ms=_server(mine),
            )
        )
    return rows


def group_row(name: str, episodes: Sequence[EpisodeResult], out_of_scope: Mapping[str, str]) -> GroupRow:
    inside = [e for e in episodes if e.task not in out_of_scope]
    outside = [e for e in episodes if e.task in out_of_scope]
    false = sum(e.false_completion for e in episodes)
    return GroupRow(
        group=name,
        tasks=len({e.task for e in episodes}),
        in_scope_tasks=len({e.task for e in inside}),
        episodes=len(episodes),
        in_scope_success=round(sum(e.success for e in inside) / len(inside), 3) if inside else 0.0,
        success=round(sum(e.success for e in episodes) / len(episodes), 3) if episodes else 0.0,
        false_completions=false,
        false_rate=round(false / len(episodes), 3) if episodes else 0.0,
        out_of_scope_episodes=len(outside),
        declined_out_of_scope=sum(declined(e) for e in outside),
        server_ms=_server(episodes),
    )


def _ms(value: float | None) -> str:
    return f"{value:.1f}" if value is not None else "—"


def markdown(runs: Mapping[str, Sequence[EpisodeResult]], out_of_scope: Mapping[str, str], meta: Mapping[str, Any]) -> str:
    groups = [group_row(name, episodes, out_of_scope) for name, episodes in runs.items()]
    lines = [
        "# MiniWoB++ — development, tuning and held-out tasks",
        "",
        f"Server: {meta['server']} · model: {meta['model']} · seeds per task: {meta['seeds']} · "
        f"max steps: {meta['max_steps']} · run at {meta['started']}",
        "",
        "| group | tasks (in scope) | episodes | success, in scope | success, all | false completions | declined (out of scope) | server ms/step |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for g in groups:
        lines.append(
            f"| {g.group} | {g.tasks} ({g.in_scope_tasks}) | {g.episodes} | {g.in_scope_success:.0%} | {g.success:.0%} | "
            f"{g.false_completions} ({g.false_rate:.1%}) | {g.declined_out_of_scope}/{g.out_of_scope_episodes} | {_ms(g.server_ms)} |"
        )
    for name, episodes in runs.items():
        lines += ["", f"## {name}", "", "| task | scope | episodes | success | false compl. | declined | steps | server ms/step |", "|---|---|---:|---:|---:|---:|---:|---:|"]
        for row in task_rows(episodes, out_of_scope):
            scope = "in" if row.in_scope else "out"
            lines.append(
                f"| {row.task} | {scope} | {row.episodes} | {row.successes / row.episodes:.0%} | {row.false_completions} | "
                f"{row.declined} | {row.mean_steps:.1f} | {_ms(row.server_ms)} |"
            )
    lines += ["", "## Out of scope without a model", ""]
    lines += [f"- **{task}** — {why}" for task, why in out_of_scope.items()]
    lines += [
        "",
        "Success: the episode ended with raw reward > 0. False completion: Stepwise said completed but the reward "
        "is ≤ 0 (counted over all tasks, in scope or not). Declined: failed at once with NEEDS_MODEL or "
        "GOAL_NOT_UNDERSTOOD. Server ms/step: the median over episodes of each episode's mean.",
        "",
    ]
    return "\n".join(lines)


def write_suites(
    out: Path, runs: Mapping[str, Sequence[EpisodeResult]], out_of_scope: Mapping[str, str], meta: Mapping[str, Any]
) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "suites.json", "markdown": out / "suites.md"}
    body = {
        "meta": dict(meta),
        "out_of_scope": dict(out_of_scope),
        "groups": [asdict(group_row(name, episodes, out_of_scope)) for name, episodes in runs.items()],
        "tasks": {name: [asdict(r) for r in task_rows(episodes, out_of_scope)] for name, episodes in runs.items()},
        "episodes": {name: [e.to_json() for e in episodes] for name, episodes in runs.items()},
    }
    paths["json"].write_text(json.dumps(body, indent=2))
    paths["markdown"].write_text(markdown(runs, out_of_scope, meta))
    return paths
