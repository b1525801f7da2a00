"""results.json and results.md of the replay bench (see :mod:`bench.memory_replay_metrics`
for what each figure means)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.memory_episodes import Episode
from bench.memory_replay_metrics import (
    Reference,
    figures,
    miss_reasons,
    overlay_check,
    reduction,
    wrong_events,
)


def _select(episodes: Sequence[Episode], **wanted: str) -> list[Episode]:
    return [e for e in episodes if all(getattr(e, k) == v for k, v in wanted.items())]


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f} %"


def _num(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def references(episodes: Sequence[Episode]) -> dict[tuple[str, int], Reference]:
    """The clean later runs (and learning runs) that succeeded, by (task, instance seed)."""
    refs: dict[tuple[str, int], Reference] = {}
    for e in episodes:
        if e.phase in ("later", "learn") and e.kind == "none" and e.success:
            refs.setdefault((e.task, e.seed), Reference.of(e))
    return refs


def perturbation_rows(episodes: Sequence[Episode]) -> list[dict[str, Any]]:
    refs = references(episodes)
    rows = []
    for kind in dict.fromkeys(e.kind for e in episodes if e.phase == "perturb"):
        chosen = _select(episodes, phase="perturb", kind=kind)
        hit_wrong = all_wrong = unjudged = 0
        for e in chosen:
            ref = refs.get((e.task, e.seed))
            if ref is None:
                unjudged += 1
                continue
            for a in e.answers:
                wrong = len(wrong_events(a, ref))
                all_wrong += wrong
                hit_wrong += wrong if a.replay == "HIT" else 0
        checks = [overlay_check(e) for e in chosen] if kind == "overlay" else []
        seen = [c for c in checks if c.seen]
        rows.append({
            "kind": kind,
            "figures": figures(chosen).to_json(),
            "wrong_element_hit": hit_wrong,
            "wrong_element_all": all_wrong,
            "unjudged": unjudged,
            "swapped": sum(bool(e.layer.get("swapped")) for e in chosen),
            "overlay_seen": len(seen) if kind == "overlay" else None,
            "overlay_fallback_only_there": sum(c.fallback_only_there for c in seen) if kind == "overlay" else None,
            "overlay_resumed": sum(c.resumed for c in seen) if kind == "overlay" else None,
            "miss_reasons": dict(miss_reasons(chosen).most_common(6)),
            "per_task": {t: figures(_select(chosen, task=t)).to_json() for t in dict.fromkeys(e.task for e in chosen)},
        })  # fmt: skip
    return rows


def summary(episodes: Sequence[Episode]) -> dict[str, Any]:
    out: dict[str, Any] = {"learn": figures(_select(episodes, phase="learn")).to_json()}
    for regime in ("same", "new"):
        replay = figures(_select(episodes, phase="later", regime=regime))
        baseline = figures(_select(episodes, phase="baseline", regime=regime))
        out[regime] = {
            "replay": replay.to_json(),
            "baseline": baseline.to_json(),
            "round_trip_reduction_vs_baseline": reduction(replay.answers_per_episode, baseline.answers_per_episode),
            "round_trip_reduction_vs_learn": reduction(replay.answers_per_episode, figures(_select(episodes, phase="learn")).answers_per_episode),
        }  # fmt: skip
    both = figures(_select(episodes, phase="later"))
    base_both = figures([e for e in episodes if e.phase == "baseline" and e.regime != "learn"])
    out["overall"] = {"replay": both.to_json(), "baseline": base_both.to_json(),
                      "round_trip_reduction_vs_baseline": reduction(both.answers_per_episode, base_both.answers_per_episode)}  # fmt: skip
    return out


def per_task(episodes: Sequence[Episode]) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for task in dict.fromkeys(e.task for e in episodes):
        row: dict[str, Any] = {"learn": figures(_select(episodes, phase="learn", task=task)).to_json()}
        for regime in ("same", "new"):
            row[regime] = {
                "replay": figures(_select(episodes, phase="later", task=task, regime=regime)).to_json(),
                "baseline": figures(_select(episodes, phase="baseline", task=task, regime=regime)).to_json(),
            }
        row["miss_reasons"] = dict(miss_reasons(_select(episodes, phase="later", task=task)).most_common(3))
        rows[task] = row
    return rows


def write(out: Path, episodes: Sequence[Episode], meta: dict[str, Any]) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    data = {
        "meta": meta,
        "summary": summary(episodes),
        "per_task": per_task(episodes),
        "perturbations": perturbation_rows(episodes),
        "miss_reasons_later": dict(miss_reasons(_select(episodes, phase="later")).most_common()),
        "episodes": [e.to_json() for e in episodes],
    }
    paths = {"json": out / "results.json", "markdown": out / "results.md"}
    paths["json"].write_text(json.dumps(data, indent=1, default=str))
    paths["markdown"].write_text(markdown(data))
    return paths


def _fig_cells(f: dict[str, Any]) -> str:
    return (f"{f['episodes']} | {_pct(f['success'])} | {f['false_completions']} | {_pct(f['fully_hit'])} | {_pct(f['hit_answers'])} | "
            f"{f['model_calls_in_hit']} ({f['model_calls_in_hit_after_planner']}) | {_num(f['model_calls_per_episode'])} | {_num(f['answers_per_episode'])}")  # fmt: skip


HEAD = "| episodes | success | false compl. | fully HIT | HIT answers | model calls in HIT (after a planner step) | model calls / ep. | answers / ep. |"


def markdown(data: dict[str, Any]) -> str:
    meta, s = data["meta"], data["summary"]
    lines = [
        "# Memory: replay and perturbations",
        "",
        f"Started {meta['started']}, finished {meta['finished']}. Tasks: {len(meta['tasks'])} ({meta['tasks_file']} + demo). "
        f"Learning seeds {meta['learn_seeds']} (model `{meta['learn_model']}`); later: {meta['later']} per regime, "
        f"same instance = learning seeds, new instance = seeds {meta['new_seeds']}; later / baseline / perturbed servers: model `{meta['model']}`.",
        "",
        "## Later episodes, replay on vs the policy alone (same seeds)",
        "",
        "| run " + HEAD,
        "|---" * 9 + "|",
        f"| learning runs | {_fig_cells(s['learn'])} |",
    ]
    for regime, label in (("same", "same instance"), ("new", "new instance"), ("overall", "both regimes")):
        lines.append(f"| replay, {label} | {_fig_cells(s[regime]['replay'])} |")
        lines.append(f"| baseline, {label} | {_fig_cells(s[regime]['baseline'])} |")
    lines += ["", "Round trips (answers per episode) saved by replay:", ""]
    for regime in ("same", "new"):
        lines.append(f"- {regime} instance: {_pct(s[regime]['round_trip_reduction_vs_baseline'])} fewer than the baseline on the same seeds, "
                     f"{_pct(s[regime]['round_trip_reduction_vs_learn'])} fewer than the learning runs")  # fmt: skip
    lines.append(f"- both regimes: {_pct(s['overall']['round_trip_reduction_vs_baseline'])} fewer than the baseline")
    lines += ["", "## Per task (later episodes)", "",
              "| task | same: fully HIT | same: success replay / base | same: answers replay / base / learn | new: fully HIT | new: success replay / base | new: answers replay / base | main miss reason |",
              "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for task, row in data["per_task"].items():
        sr, sb, nr, nb = row["same"]["replay"], row["same"]["baseline"], row["new"]["replay"], row["new"]["baseline"]
        reason = next(iter(row["miss_reasons"]), "")
        lines.append(
            f"| {task} | {_pct(sr['fully_hit'])} | {_pct(sr['success'])} / {_pct(sb['success'])} | "
            f"{_num(sr['answers_per_episode'], 1)} / {_num(sb['answers_per_episode'], 1)} / {_num(row['learn']['answers_per_episode'], 1)} | "
            f"{_pct(nr['fully_hit'])} | {_pct(nr['success'])} / {_pct(nb['success'])} | {_num(nr['answers_per_episode'], 1)} / {_num(nb['answers_per_episode'], 1)} | {reason} |"
        )
    lines += ["", "## Why action answers were not served from memory (later episodes)", "", "| count | status: reason |", "|---|---|"]
    lines += [f"| {n} | {reason} |" for reason, n in data["miss_reasons_later"].items()]
    lines += ["", "## Perturbations (same instances, tasks where replay hits: " + ", ".join(meta["hit_tasks"]) + ")", "",
              "| kind | episodes | success | fully HIT | HIT answers | model calls in HIT (after a planner step) | wrong-element (HIT) | wrong-element (all) | notes |",
              "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for row in data["perturbations"]:
        f = row["figures"]
        notes = []
        if row["kind"] == "swap":
            notes.append(f"a pair swapped in {row['swapped']} episodes")
        if row["kind"] == "overlay":
            notes.append(f"overlay seen in {row['overlay_seen']}; fallback only at it: {row['overlay_fallback_only_there']}; HIT resumed: {row['overlay_resumed']}")
        if row["unjudged"]:
            notes.append(f"{row['unjudged']} episodes without a clean reference")
        lines.append(f"| {row['kind']} | {f['episodes']} | {_pct(f['success'])} | {_pct(f['fully_hit'])} | {_pct(f['hit_answers'])} | "
                     f"{f['model_calls_in_hit']} ({f['model_calls_in_hit_after_planner']}) | {row['wrong_element_hit']} | {row['wrong_element_all']} | {'; '.join(notes)} |")  # fmt: skip
    for row in data["perturbations"]:
        if row["miss_reasons"]:
            lines.append("")
            lines.append(f"{row['kind']}: " + "; ".join(f"{n}× {r}" for r, n in row["miss_reasons"].items()))
    lines += ["", "## Recipes after the learning runs", "", "| status | verified runs | template | steps (action@fingerprint) |", "|---|---|---|---|"]
    lines += [f"| {r['status']} | {r['verifiedRuns']} | {r['template']} | {', '.join(r['steps'])} |" for r in meta.get("learned_recipes", [])]
    lines += ["", "## Model requests (the fake's count, by purpose)", ""]
    lines += [f"- {phase}: {json.dumps(counts)}" for phase, counts in meta["model_requests"].items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.memory_replay_report DIR``: results.md again from DIR/results.json."""
    import argparse

    parser = argparse.ArgumentParser(prog="bench.memory_replay_report", description=main.__doc__)
    parser.add_argument("out", type=Path, help="the folder of results.json")
    args = parser.parse_args(argv)
    data = json.loads((args.out / "results.json").read_text())
    write(args.out, [Episode.from_json(e) for e in data["episodes"]], data["meta"])
    print((args.out / "results.md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
