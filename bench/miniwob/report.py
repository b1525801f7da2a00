"""Aggregate MiniWoB++ episodes per task and overall; write JSON, Markdown and a PNG chart."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import mean
from typing import Any

from bench.miniwob.harness import EpisodeResult


@dataclass(frozen=True)
class Summary:
    name: str
    episodes: int
    success_rate: float
    mean_reward: float
    mean_raw_reward: float
    mean_steps: float
    model_calls: int
    input_tokens: int
    output_tokens: int
    server_ms_per_step: float | None
    false_completions: int
    missed_completions: int
    outcomes: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def summarise(name: str, episodes: Sequence[EpisodeResult]) -> Summary:
    server = [e.server_ms_per_step for e in episodes if e.server_ms_per_step is not None]
    outcomes = Counter(e.error_code or e.stepwise_status for e in episodes)
    return Summary(
        name=name,
        episodes=len(episodes),
        success_rate=round(sum(e.success for e in episodes) / len(episodes), 3)
        if episodes
        else 0.0,
        mean_reward=round(mean(e.reward for e in episodes), 3) if episodes else 0.0,
        mean_raw_reward=round(mean(e.raw_reward for e in episodes), 3) if episodes else 0.0,
        mean_steps=round(mean(e.steps for e in episodes), 2) if episodes else 0.0,
        model_calls=sum(e.model_calls for e in episodes),
        input_tokens=sum(e.input_tokens for e in episodes),
        output_tokens=sum(e.output_tokens for e in episodes),
        server_ms_per_step=round(mean(server), 2) if server else None,
        false_completions=sum(e.false_completion for e in episodes),
        missed_completions=sum(e.missed_completion for e in episodes),
        outcomes=dict(sorted(outcomes.items())),
    )


def per_task(episodes: Sequence[EpisodeResult]) -> list[Summary]:
    tasks = list(dict.fromkeys(e.task for e in episodes))
    return [summarise(task, [e for e in episodes if e.task == task]) for task in tasks]


def markdown(tasks: Sequence[Summary], overall: Summary, meta: dict[str, Any]) -> str:
    shown = meta.get("model", "none") not in ("none", "server")
    model = f" · model: {meta['model']}" if shown else ""
    lines = [
        "# MiniWoB++ — Stepwise reference client",
        "",
        f"Server: {meta['server']}{model} · seeds per task: {meta['seeds']} · episode limit: {meta['episode_limit']} · "
        f"max steps: {meta['max_steps']} · run at {meta['started']}",
        "",
        "| task | episodes | success | mean reward | mean raw | steps | model calls | tokens in/out | server ms/step | false compl. | missed compl. | outcomes |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in [*tasks, overall]:
        name = f"**{row.name}**" if row is overall else row.name
        server = f"{row.server_ms_per_step:.1f}" if row.server_ms_per_step is not None else "—"
        outcomes = ", ".join(f"{k} {v}" for k, v in row.outcomes.items())
        lines.append(
            f"| {name} | {row.episodes} | {row.success_rate:.0%} | {row.mean_reward:+.2f} | {row.mean_raw_reward:+.2f} | "
            f"{row.mean_steps:.1f} | {row.model_calls} | {row.input_tokens}/{row.output_tokens} | {server} | "
            f"{row.false_completions} | {row.missed_completions} | {outcomes} |"
        )
    lines += [
        "",
        "Success: the episode ended with raw reward > 0. False completion: Stepwise finished but the "
        "reward is ≤ 0. Missed completion: the episode had succeeded but Stepwise did not finish.",
        "",
    ]
    return "\n".join(lines)


def chart(tasks: Sequence[Summary], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [t.name for t in tasks]
    fig, ax = plt.subplots(figsize=(max(6.0, 0.55 * len(names) + 2), 4.2))
    xs = range(len(names))
    ax.bar(
        [x - 0.2 for x in xs],
        [t.success_rate for t in tasks],
        width=0.4,
        label="success rate",
        color="#124e78",
    )
    ax.bar(
        [x + 0.2 for x in xs],
        [t.mean_raw_reward for t in tasks],
        width=0.4,
        label="mean raw reward",
        color="#f0a202",
    )
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names, rotation=45, ha="right", fontsize=8)
    ax.set_ylim(-1.05, 1.05)
    ax.set_title("MiniWoB++ with Stepwise (reference client)")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write(out: Path, episodes: Sequence[EpisodeResult], meta: dict[str, Any]) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    tasks = per_task(episodes)
    overall = summarise("overall", episodes)
    paths = {
        "json": out / "results.json",
        "markdown": out / "results.md",
        "chart": out / "results.png",
    }
    paths["json"].write_text(
        json.dumps(
            {
                "meta": meta,
                "overall": overall.to_json(),
                "tasks": [t.to_json() for t in tasks],
                "episodes": [e.to_json() for e in episodes],
            },
            indent=2,
        )
    )
    paths["markdown"].write_text(markdown(tasks, overall, meta))
    if tasks:
        chart(tasks, paths["chart"])
    return paths


# --- the same task list under several models, side by side -------------------------------


def _cells(values: Sequence[object]) -> str:
    return " / ".join(str(v) for v in values)


def compare_markdown(
    tasks: Sequence[Mapping[str, Summary]], overall: Mapping[str, Summary], meta: dict[str, Any]
) -> str:
    labels = list(overall)
    both = " / ".join(labels)
    lines = [
        f"# {meta.get('title') or f'MiniWoB++ — Stepwise with model {both}'}",
        "",
        f"Server: {meta['server']} · seeds per task: {meta['seeds']} · "
        f"episode limit: {meta['episode_limit']} · max steps: {meta['max_steps']} · "
        f"run at {meta['started']}",
        "",
        *(f"- **{label}**: {meta['models'][label]}" for label in labels),
        "",
        f"Each cell reads {both}.",
        "",
        "| task | episodes | requests/episode | success | false compl. | missed compl. | model calls | "
        + " | ".join(f"outcomes ({label})" for label in labels)
        + " |",
        "|---|---:|---:|---:|---:|---:|---:|" + "---|" * len(labels),
    ]
    for rows in [*tasks, overall]:
        runs = [rows[label] for label in labels]
        name = f"**{runs[0].name}**" if rows is overall else runs[0].name
        outcomes = [", ".join(f"{k} {v}" for k, v in r.outcomes.items()) or "—" for r in runs]
        cells = [
            _cells(r.episodes for r in runs),
            _cells(f"{r.mean_steps:.1f}" for r in runs),
            _cells(f"{r.success_rate:.0%}" for r in runs),
            _cells(r.false_completions for r in runs),
            _cells(r.missed_completions for r in runs),
            _cells(r.model_calls for r in runs),
            *outcomes,
        ]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    requests = meta.get("model_requests") or {}
    for label, counts in requests.items():
        listed = ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items())) or "none"
        lines += ["", f"Requests the {label} model answered, by purpose: {listed}."]
    lines += [
        "",
        "Requests/episode: interact requests (round trips) per episode, mean. "
        "Success: the episode ended with raw reward > 0. False completion: Stepwise finished "
        "but the reward is ≤ 0 — what a lying model tries to cause. Missed completion: the episode had "
        "succeeded but Stepwise did not finish. Model calls: as Stepwise reported them.",
        "",
    ]
    return "\n".join(lines)


def write_comparison(
    out: Path, runs: Mapping[str, Sequence[EpisodeResult]], meta: dict[str, Any]
) -> dict[str, Path]:
    """One report for the same task list run under each model of ``runs`` (label →
    episodes, in column order): compare.json and compare.md."""
    out.mkdir(parents=True, exist_ok=True)
    names = list(dict.fromkeys(e.task for episodes in runs.values() for e in episodes))
    tasks = [
        {
            label: summarise(name, [e for e in episodes if e.task == name])
            for label, episodes in runs.items()
        }
        for name in names
    ]
    overall = {label: summarise("overall", episodes) for label, episodes in runs.items()}
    paths = {"json": out / "compare.json", "markdown": out / "compare.md"}
    paths["json"].write_text(
        json.dumps(
            {
                "meta": meta,
                "models": list(runs),
                "overall": {label: s.to_json() for label, s in overall.items()},
                "tasks": [
                    {"name": name, **{label: s.to_json() for label, s in row.items()}}
                    for name, row in zip(names, tasks, strict=True)
                ],
                "episodes": {
                    label: [e.to_json() for e in episodes] for label, episodes in runs.items()
                },
            },
            indent=2,
        )
    )
    paths["markdown"].write_text(compare_markdown(tasks, overall, meta))
    return paths
