"""The overlay bench's figures (results.json, results.md) from its runs: ``baseline/<model>``
(no overlays) and ``overlays/<model>`` on the same episodes.

Definitions (each from the page or the fake model's counters, never from Stepwise's prose):

* **success** — MiniWoB: the environment's raw reward > 0; clinic: exactly the named patient
  was added. Split into the tune seeds and the held-out seeds.
* **overlays shown / dismissed** — from the overlay layer's own log in the page.
* **extra requests per overlay** — Σ(requests with overlays − requests in the baseline, same
  episode) / Σ overlays shown; also contingency answers per overlay shown.
* **traps** — clicks on a control the overlay's text names, or the Delete key while an
  overlay is up (the layer records them); must be 0.
* **in the way** — overlays shown before the episode's last action (or dismissed, or in an
  episode that failed); one that came up after the last action blocked nothing.
* **resolved before a correction-model call** — overlays in the way whose contingency answer
  came before the episode's first SELF_CORRECTION call (counted at the fake model), / overlays
  in the way. Without a model no correction-model call exists: it reads as the share of
  overlays in the way that a contingency answered.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.1f} %)" if d else "–"


def summary(episodes: list[dict[str, Any]], tune_seeds: dict[str, int]) -> dict[str, Any]:
    def success(rows: list[dict[str, Any]]) -> tuple[int, int]:
        return sum(1 for r in rows if r["success"]), len(rows)

    tune = [e for e in episodes if e["seed"] < tune_seeds.get(e["site"], 0)]
    held = [e for e in episodes if e["seed"] >= tune_seeds.get(e["site"], 0)]
    by_site: dict[str, tuple[int, int]] = {site: success([e for e in episodes if e["site"] == site]) for site in sorted({e["site"] for e in episodes})}
    layouts: Counter[str] = Counter(layout for e in episodes for layout in e["layouts"])
    failed_layouts: Counter[str] = Counter(layout for e in episodes if not e["success"] for layout in e["layouts"])
    return {
        "episodes": len(episodes),
        "success": success(episodes),
        "tune": success(tune),
        "held_out": success(held),
        "by_site": by_site,
        "requests": sum(e["requests"] for e in episodes),
        "shown": sum(e["shown"] for e in episodes),
        "dismissed": sum(e["dismissed"] for e in episodes),
        "in_the_way": sum(e["in_the_way"] for e in episodes),
        "contingency_answers": sum(len(e["contingency_steps"]) for e in episodes),
        "traps": sum(len(e["traps"]) for e in episodes),
        "false_completions": sum(1 for e in episodes if e["false_completion"]),
        "layouts_shown": dict(layouts),
        "layouts_in_failed_episodes": dict(failed_layouts),
        "correction_model_calls": sum(e["model_calls"].get("SELF_CORRECTION", 0) for e in episodes),
        "model_calls": sum(sum(e["model_calls"].values()) for e in episodes),
        "resolved_before_correction_model": _resolved(episodes),
        "failed": [f"{e['site']}:{e['task']} seed {e['seed']} ({e['status']} {e['error_code'] or ''}, layouts {e['layouts']})" for e in episodes if not e["success"]],
    }


def _resolved(episodes: list[dict[str, Any]]) -> tuple[int, int]:
    resolved = shown = 0
    for e in episodes:
        if not e["in_the_way"]:
            continue
        shown += e["in_the_way"]
        first = min(e["correction_steps"]) if e["correction_steps"] else None
        before = [s for s in e["contingency_steps"] if first is None or s < first]
        resolved += min(len(before), e["in_the_way"])
    return resolved, shown


def extra_requests(base: list[dict[str, Any]], over: list[dict[str, Any]]) -> dict[str, Any]:
    """Requests the overlays cost, per overlay shown, on the same episodes."""
    key = lambda e: (e["site"], e["task"], e["seed"])  # noqa: E731
    by_key = {key(e): e for e in base}
    pairs = [(by_key[key(e)], e) for e in over if key(e) in by_key]
    both = [(b, o) for b, o in pairs if b["success"] and o["success"]]  # a failed episode's requests say nothing
    shown = sum(o["shown"] for _, o in both)
    extra = sum(o["requests"] - b["requests"] for b, o in both)
    return {"episodes": len(both), "shown": shown, "extra": extra, "per_overlay": round(extra / shown, 2) if shown else None}


def write(out: Path, runs: dict[str, list[dict[str, Any]]], meta: dict[str, Any]) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    tune = {"miniwob": int(meta.get("tune_seeds", 0)), "clinic": int(meta.get("tune_clinic", meta.get("tune_seeds", 0)))}
    summaries = {name: summary(rows, tune) for name, rows in runs.items()}
    extras = {
        model: extra_requests(runs[f"baseline/{model}"], runs[f"overlays/{model}"])
        for model in ("none", "lying")
        if f"baseline/{model}" in runs and f"overlays/{model}" in runs
    }
    (out / "results.json").write_text(json.dumps({"meta": meta, "summaries": summaries, "extra_requests": extras, "runs": runs}, indent=2))
    lines = ["# Overlay bench", "", f"Seeds {meta['seeds']} per MiniWoB task, {meta['clinic']} clinic episodes; tune: MiniWoB seeds < {tune['miniwob']}, "
             f"clinic seeds < {tune['clinic']} (the rest held out), episode limit {meta['episode_ms']} ms, max {meta['max_steps']} steps.", "",
             "| run | success | tune | held-out | miniwob | clinic | overlays shown | in the way | dismissed | contingency answers | traps | false completions | correction-model calls | resolved before correction model |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for name, s in summaries.items():
        site = s["by_site"]
        lines.append(
            f"| {name} | {_pct(*s['success'])} | {_pct(*s['tune'])} | {_pct(*s['held_out'])} | {_pct(*site.get('miniwob', (0, 0)))} | "
            f"{_pct(*site.get('clinic', (0, 0)))} | {s['shown']} | {s['in_the_way']} | {s['dismissed']} | {s['contingency_answers']} | {s['traps']} | "
            f"{s['false_completions']} | {s['correction_model_calls']} | {_pct(*s['resolved_before_correction_model']) if name.startswith('overlays') else '–'} |"
        )
    lines += ["", "Extra requests per overlay (episodes that succeeded in both runs):", ""]
    for model, x in extras.items():
        lines.append(f"- model {model}: {x['extra']} extra requests for {x['shown']} overlays in {x['episodes']} episodes → **{x['per_overlay']}** per overlay")
    for name, s in summaries.items():
        if s["failed"]:
            lines += ["", f"Failed in {name}:", "", *[f"- {f}" for f in s["failed"]]]
        lines += ["", f"Layouts shown in {name}: {s['layouts_shown']}; in failed episodes: {s['layouts_in_failed_episodes']}"] if s["layouts_shown"] else []
    md = out / "results.md"
    md.write_text("\n".join(lines) + "\n")
    return {"json": out / "results.json", "markdown": md}


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.overlays_report DIR [--tune-seeds N] [--tune-clinic N]``: write the
    report again from DIR/results.json (another tune / held-out split, no re-run)."""
    import argparse

    parser = argparse.ArgumentParser(prog="bench.overlays_report")
    parser.add_argument("out", type=Path)
    parser.add_argument("--tune-seeds", type=int, default=None)
    parser.add_argument("--tune-clinic", type=int, default=None)
    args = parser.parse_args(argv)
    data = json.loads((args.out / "results.json").read_text())
    meta = data["meta"]
    if args.tune_seeds is not None:
        meta["tune_seeds"] = args.tune_seeds
    if args.tune_clinic is not None:
        meta["tune_clinic"] = args.tune_clinic
    print(write(args.out, data["runs"], meta)["markdown"].read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
