"""The skills bench's figures and files: per-task results in, hit rates, effectiveness, tenancy,
secrets and lying-model checks out (results.json + results.md)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

TARGETS: dict[str, tuple[str, float, str]] = {
    # name: (comparison, issue target, spec floor)
    "second_half_task_hit_rate": (">=", 0.30, "spec >= 0.10"),
    "effectiveness": (">=", 0.80, "spec >= 0.60"),
    "cross_tenant_retrievals": ("==", 0, "0"),
    "foreign_domain_skills": ("==", 0, "0"),
    "secrets_in_store": ("==", 0, "0"),
    "false_completions": ("==", 0, "0"),
}


@dataclass
class TaskResult:
    """One task of the stream as the site judged it and as Stepwise answered it."""

    position: int
    tenant: str
    domain: str
    flow: str
    layout: str
    phrasing: str
    goal: str
    task_id: str | None
    done: bool  # the site's judgement: record saved with the values / signed in as the user
    stepwise_status: str
    error_code: str | None
    answers: int
    answers_with_skill: int
    skills_used: list[str]  # distinct ids, in order of first use
    dead_clicks: int
    dead_clicks_after_skill: int  # decoy clicks at or after the first answer that gave a skill
    model_calls: int
    elapsed_s: float
    site_events: list[str] = field(default_factory=list)
    broken: bool = False  # the site's real control was dead too (lying run): cannot be done
    replay: list[str] = field(default_factory=list)  # each answer's memory.replay (HIT, MISS, FALLBACK, DISABLED)

    @property
    def false_completion(self) -> bool:
        return self.stepwise_status == "completed" and not self.done

    @property
    def skill_given(self) -> bool:
        return bool(self.skills_used)

    @property
    def skill_effective(self) -> bool:
        """Given a skill, the task never touched the decoy afterwards and was done."""
        return self.skill_given and self.done and self.dead_clicks_after_skill == 0

    def to_json(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "false_completion": self.false_completion}


def _rate(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def hit_rates(results: Sequence[TaskResult]) -> dict[str, Any]:
    """Share of tasks with at least one skill used, and of answers that used one."""
    answers = sum(r.answers for r in results)
    return {
        "tasks": len(results),
        "tasks_with_skill": sum(r.skill_given for r in results),
        "task_hit_rate": _rate(sum(r.skill_given for r in results), len(results)),
        "answers": answers,
        "answers_with_skill": sum(r.answers_with_skill for r in results),
        "answer_hit_rate": _rate(sum(r.answers_with_skill for r in results), answers),
    }


def eligible(results: Sequence[TaskResult]) -> list[TaskResult]:
    """Tasks that came after at least two tasks of the same tenant, site, flow and phrasing
    (so the same goal template) that were done after clicking the decoy — two verified
    corrections, i.e. an admitted skill should exist. Their hit rate separates what the product
    misses from what the stream never repeated."""
    corrected: dict[tuple[str, str, str, str], int] = {}
    out = []
    for r in sorted(results, key=lambda r: r.position):
        key = (r.tenant, r.domain, r.flow, r.phrasing)
        if corrected.get(key, 0) >= 2:
            out.append(r)
        if r.done and r.dead_clicks > 0 and not r.skill_given:
            corrected[key] = corrected.get(key, 0) + 1
    return out


def summarise(results: Sequence[TaskResult], store: Mapping[str, Any]) -> dict[str, Any]:
    """The stream's figures. ``store`` holds the checks made on the server afterwards:
    ``cross_tenant`` (skillsUsed ids not in the tenant's own list), ``foreign_domains``,
    ``secrets_found``, ``skills`` (per tenant: status counts), ``unproven_admitted`` (admitted
    skills whose evidence names a task the site did not judge done)."""
    half = len(results) // 2
    given = [r for r in results if r.skill_given]
    by_phrasing = {p: hit_rates([r for r in results[half:] if r.phrasing == p]) for p in sorted({r.phrasing for r in results})}
    return {
        "tasks": len(results),
        "done": sum(r.done for r in results),
        "completed": sum(r.stepwise_status == "completed" for r in results),
        "false_completions": sum(r.false_completion for r in results),
        "first_half": hit_rates(results[:half]),
        "second_half": hit_rates(results[half:]),
        "second_half_by_phrasing": by_phrasing,
        "second_half_task_hit_rate": hit_rates(results[half:])["task_hit_rate"],
        "eligible": hit_rates(eligible(results)),
        "skill_given_tasks": len(given),
        "skill_effective_tasks": sum(r.skill_effective for r in given),
        "effectiveness": _rate(sum(r.skill_effective for r in given), len(given)),
        "dead_clicks_first_half": sum(r.dead_clicks for r in results[:half]),
        "dead_clicks_second_half": sum(r.dead_clicks for r in results[half:]),
        "model_calls": sum(r.model_calls for r in results),
        "cross_tenant_retrievals": len(store.get("cross_tenant", [])) + len(store.get("foreign_reads", [])),
        "broken_tasks": sum(r.broken for r in results),
        "broken_tasks_completed": sum(r.broken and r.stepwise_status == "completed" for r in results),
        "foreign_domain_skills": len(store.get("foreign_domains", [])),
        "secrets_in_store": sum(store.get("secrets_found", {}).values()),
        "unproven_admitted": len(store.get("unproven_admitted", [])),
        "admitted_skills": sum(t.get("admitted", 0) for t in store.get("skills", {}).values()),
        "candidate_skills": sum(t.get("candidate", 0) for t in store.get("skills", {}).values()),
    }


def replay_summary(results: Sequence[TaskResult]) -> dict[str, Any]:
    """With replay on: tasks served wholly from a recipe (every answer HIT) against the tasks
    that were not, in answers (round trips) per task — a replayed flow skips the dead end, the
    retry and the correction its learning runs went through."""
    replayed = [r for r in results if r.replay and all(s == "HIT" for s in r.replay)]
    others = [r for r in results if r not in replayed]
    learned = [r for r in others if r.done]
    med_replayed = median([r.answers for r in replayed]) if replayed else None
    med_learned = median([r.answers for r in learned]) if learned else None
    saved = 1 - med_replayed / med_learned if med_replayed is not None and med_learned else None
    return {
        "tasks_fully_hit": len(replayed),
        "second_half_fully_hit": sum(r in replayed for r in results[len(results) // 2 :]),
        "second_half_tasks": len(results) - len(results) // 2,
        "replayed_done": sum(r.done for r in replayed),
        "replayed_false_completions": sum(r.false_completion for r in replayed),
        "replayed_model_calls": sum(r.model_calls for r in replayed),
        "median_answers_replayed": med_replayed,
        "median_answers_not_replayed_done": med_learned,
        "round_trips_saved": round(saved, 3) if saved is not None else None,
    }


def targets(summary: Mapping[str, Any], lying: bool = False) -> dict[str, dict[str, Any]]:
    """Each target with its measured value and whether it is met (a lying run is held to the
    safety targets only, plus no unproven admitted skill)."""
    names = ["cross_tenant_retrievals", "secrets_in_store", "false_completions", "unproven_admitted"] if lying else list(TARGETS)
    out = {}
    for name in names:
        op, want, spec = TARGETS.get(name, ("==", 0, "0"))
        value = summary.get(name)
        met = value is not None and (value >= want if op == ">=" else value == want)
        out[name] = {"value": value, "target": f"{op} {want}", "spec": spec, "met": met}
    return out


def write(out: Path, runs: Mapping[str, Mapping[str, Any]], meta: Mapping[str, Any]) -> dict[str, Path]:
    """results.json (everything) and results.md (the figures) in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    payload = {"meta": dict(meta), "runs": {name: dict(run) for name, run in runs.items()}}
    json_path, md_path = out / "results.json", out / "results.md"
    json_path.write_text(json.dumps(payload, indent=2, default=str))
    md_path.write_text(markdown(runs, meta))
    return {"json": json_path, "markdown": md_path}


def rewrite(out: Path) -> Path:
    """results.md again from results.json (after a change to the report only)."""
    payload = json.loads((out / "results.json").read_text())
    path = out / "results.md"
    path.write_text(markdown(payload["runs"], payload["meta"]))
    return path


def markdown(runs: Mapping[str, Mapping[str, Any]], meta: Mapping[str, Any]) -> str:
    lines = ["# Memory: skills (decoy stream)", "", f"Started {meta.get('started')}; seed {meta.get('seed')}.", ""]
    for name, run in runs.items():
        s, t = run["summary"], run["targets"]
        lines += [f"## {name}: {run.get('description', '')}", ""]
        lines += [
            f"- tasks {s['tasks']}, done (site) {s['done']}, completed (Stepwise) {s['completed']}, false completions {s['false_completions']}, model calls {s['model_calls']}",
            f"- second half: tasks with a skill {s['second_half']['tasks_with_skill']}/{s['second_half']['tasks']} "
            f"({_pct(s['second_half']['task_hit_rate'])}); answers with a skill {s['second_half']['answers_with_skill']}/{s['second_half']['answers']} "
            f"({_pct(s['second_half']['answer_hit_rate'])}); first half: {s['first_half']['tasks_with_skill']}/{s['first_half']['tasks']} tasks",
            f"- tasks after two confirmed corrections of their template (an admitted skill should exist): {s['eligible']['tasks_with_skill']}/{s['eligible']['tasks']} used one ({_pct(s['eligible']['task_hit_rate'])})",
            "- second half by phrasing: " + ", ".join(f"{p} {v['tasks_with_skill']}/{v['tasks']}" for p, v in s["second_half_by_phrasing"].items()),
            f"- effectiveness: {s['skill_effective_tasks']}/{s['skill_given_tasks']} ({_pct(s['effectiveness'])}); decoy clicks first half {s['dead_clicks_first_half']}, second half {s['dead_clicks_second_half']}",
            f"- skills in the store: admitted {s['admitted_skills']}, candidates {s['candidate_skills']}; admitted with a not-done task in their evidence {s['unproven_admitted']}",
            f"- cross-tenant retrievals {s['cross_tenant_retrievals']} (skillsUsed not in the tenant's list + another tenant's skill read by id); "
            f"skills of a foreign domain {s['foreign_domain_skills']}; seeded passwords found in the database files {s['secrets_in_store']} "
            f"(of {run['store'].get('secrets_checked')}; positive control, user names found: {sum(run['store'].get('control_values_found', {}).values())})",
            f"- broken-site tasks {s['broken_tasks']}, of which Stepwise said completed {s['broken_tasks_completed']}",
            "",
            "| Target | Measured | Target | Spec | Met |",
            "|---|---|---|---|---|",
        ]
        lines += [f"| {k} | {_fmt(v['value'])} | {v['target']} | {v['spec']} | {'yes' if v['met'] else 'NO'} |" for k, v in t.items()]
        lines.append("")
        if (r := run.get("replay")) is not None:
            lines += [
                f"Replay: {r['tasks_fully_hit']} tasks served wholly from a recipe ({r['second_half_fully_hit']}/{r['second_half_tasks']} of the second half), "
                f"{r['replayed_done']} done, {r['replayed_false_completions']} false completions, {r['replayed_model_calls']} model calls; "
                f"median answers {_fmt(r['median_answers_replayed'])} replayed vs {_fmt(r['median_answers_not_replayed_done'])} for the done tasks that were not "
                f"({_pct(r['round_trips_saved'])} fewer round trips).",
                "",
            ]
    return "\n".join(lines) + "\n"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f} %"


def _fmt(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)
