"""The chaining bench's report: per layout (clean pages), per dirty variant, per phrasing and
overall, chaining on and off side by side; the issue-14 targets checked against the figures."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import mean, median
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.chaining import CaseResult


@dataclass(frozen=True)
class Summary:
    name: str
    cases: int
    requests_median: float
    requests_mean: float
    requests_median_success: float | None  # over the cases the site judged successful
    success_rate: float
    successes: int
    completed: int
    outcomes: dict[str, int]
    false_completions: int
    unreadable: int
    chains: int
    full_chains: int
    full_chain_rate: float | None
    partial_failures_by_index: dict[int, int]
    chain_failure_kinds: dict[str, int]
    changed_target_actions: int

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def summarise(name: str, results: Sequence[CaseResult]) -> Summary:
    chains = [c for r in results for c in r.chains]
    failed = Counter(c.failed_index for c in chains if c.failed_index is not None)
    requests = [r.requests for r in results]
    return Summary(
        name=name,
        cases=len(results),
        requests_median=float(median(requests)) if requests else 0.0,
        requests_mean=round(mean(requests), 2) if requests else 0.0,
        requests_median_success=float(median(won)) if (won := [r.requests for r in results if r.success]) else None,
        success_rate=round(sum(r.success for r in results) / len(results), 3) if results else 0.0,
        successes=sum(r.success for r in results),
        completed=sum(r.stepwise_status == "completed" for r in results),
        outcomes=dict(sorted(Counter(r.error_code or r.stepwise_status for r in results).items())),
        false_completions=sum(r.false_completion for r in results),
        unreadable=sum(r.error_code == "GOAL_NOT_UNDERSTOOD" for r in results),
        chains=len(chains),
        full_chains=sum(c.full for c in chains),
        full_chain_rate=round(sum(c.full for c in chains) / len(chains), 3) if chains else None,
        partial_failures_by_index=dict(sorted(failed.items())),
        chain_failure_kinds=dict(sorted(Counter(c.failure_kind or "unreported" for c in chains if not c.full).items())),
        changed_target_actions=sum(r.changed_target_actions for r in results),
    )


def groups(results: Sequence[CaseResult]) -> list[tuple[str, Callable[[CaseResult], bool]]]:
    layouts = list(dict.fromkeys(r.layout for r in results if r.variant == "clean"))
    variants = list(dict.fromkeys(r.variant for r in results if r.variant != "clean"))
    phrasings = list(dict.fromkeys(r.phrasing for r in results))
    out: list[tuple[str, Callable[[CaseResult], bool]]] = []
    out += [(f"clean · {lay}", lambda r, lay=lay: r.variant == "clean" and r.layout == lay) for lay in layouts]
    if layouts:
        out.append(("clean, all layouts", lambda r: r.variant == "clean"))
    out += [(f"dirty · {v}", lambda r, v=v: r.variant == v) for v in variants]
    out += [(f"phrasing · {p}", lambda r, p=p: r.phrasing == p) for p in phrasings]
    out.append(("overall", lambda r: True))
    return out


def targets(overall: Mapping[str, Mapping[str, Summary]]) -> list[tuple[str, str, bool | None]]:
    """Issue 14's targets: (what, measured, met — None when a mode is missing or no chain ran)."""
    clean = overall.get("clean, all layouts", {})
    every = overall.get("overall", {})
    on, off = clean.get("on"), clean.get("off")
    rows: list[tuple[str, str, bool | None]] = []
    if on and off:
        what = "requests per 5-field form: ≤ 2 and ≥ 70 % fewer (median over successful cases, clean pages)"
        if on.requests_median_success is None or off.requests_median_success is None:
            rows.append((what, f"no successful case (on {on.successes}, off {off.successes})", None))
        else:
            cut = 1 - on.requests_median_success / off.requests_median_success
            rows.append((what, f"off {off.requests_median_success:g} → on {on.requests_median_success:g} ({cut:.0%} fewer)",
                         on.requests_median_success <= 2 and cut >= 0.7))  # fmt: skip
        rows.append(("success not lower with chaining (clean pages)", f"on {on.success_rate:.0%} / off {off.success_rate:.0%}",
                     on.success_rate >= off.success_rate))  # fmt: skip
    if on:
        rate = "—" if on.full_chain_rate is None else f"{on.full_chain_rate:.0%}"
        rows.append(("full-chain success ≥ 95 % on clean pages", f"{rate} of {on.chains} chains",
                     None if on.full_chain_rate is None else on.full_chain_rate >= 0.95))  # fmt: skip
    changed = sum(s.changed_target_actions for s in every.values())
    rows.append(("actions executed on a changed target: 0", str(changed), changed == 0))
    for mode, s in every.items():
        rate = s.false_completions / s.cases if s.cases else 0.0
        rows.append((f"false completions ≤ 1 % (chaining {mode})", f"{s.false_completions}/{s.cases} ({rate:.1%})", rate <= 0.01))
    return rows


def _cells(values: Sequence[object]) -> str:
    return " / ".join(str(v) for v in values)


def _fmt_index(summary: Summary) -> str:
    at = ", ".join(f"#{i}: {n}/{summary.chains}" for i, n in summary.partial_failures_by_index.items())
    kinds = ", ".join(f"{k} {n}" for k, n in summary.chain_failure_kinds.items())
    return f"{at} ({kinds})" if at else "—"


def worst(runs: Mapping[str, Sequence[CaseResult]]) -> list[str]:
    """One line per case to look at: a false completion or an action on a changed target."""
    lines = []
    for mode, results in runs.items():
        for r in results:
            if r.false_completion or r.changed_target_actions:
                what = " + ".join(w for w, hit in (("FALSE COMPLETION", r.false_completion), (f"{r.changed_target_actions} on a changed target", r.changed_target_actions)) if hit)
                lines.append(f"- {mode} · {r.variant} · {r.layout} · seed {r.seed} · {r.phrasing}: {what} — site: {r.site_reason[:160]}")
    return lines


def markdown(table: Mapping[str, Mapping[str, Summary]], meta: dict[str, Any], cases_to_see: Sequence[str] = ()) -> str:
    modes = list(next(iter(table.values())).keys()) if table else []
    both = " / ".join(modes)
    lines = [
        "# Action chaining — on vs off (issue 14)",
        "",
        f"Server: {meta['server']} · seeds: {meta['seeds']} · layouts: {', '.join(meta['layouts'])} · "
        f"variants: {', '.join(meta['variants'])} · phrasing: {meta['phrasing']} · run at {meta['started']}",
        "",
        "## Targets",
        "",
        "| target | measured | met |",
        "|---|---|---|",
        *(f"| {what} | {got} | {'—' if met is None else 'yes' if met else '**no**'} |" for what, got, met in targets(table)),
        "",
        f"## By group (each cell reads {both})",
        "",
        "| group | cases | requests median | requests mean | requests median (successes) | site success | false compl. | unreadable goal | "
        "chains | full-chain success | chain stopped at index | changed-target actions | "
        + " | ".join(f"Stepwise status ({m})" for m in modes) + " |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|" + "---|" * len(modes),
    ]  # fmt: skip
    for name, by_mode in table.items():
        runs = [by_mode[m] for m in modes]
        cells = [
            _cells(r.cases for r in runs),
            _cells(f"{r.requests_median:g}" for r in runs),
            _cells(f"{r.requests_mean:.2f}" for r in runs),
            _cells("—" if r.requests_median_success is None else f"{r.requests_median_success:g}" for r in runs),
            _cells(f"{r.success_rate:.0%}" for r in runs),
            _cells(r.false_completions for r in runs),
            _cells(r.unreadable for r in runs),
            _cells(r.chains for r in runs),
            _cells("—" if r.full_chain_rate is None else f"{r.full_chain_rate:.0%}" for r in runs),
            _cells(_fmt_index(r) for r in runs),
            _cells(r.changed_target_actions for r in runs),
            *(", ".join(f"{k} {v}" for k, v in r.outcomes.items()) or "—" for r in runs),
        ]
        shown = f"**{name}**" if name in ("clean, all layouts", "overall") else name
        lines.append(f"| {shown} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Requests: POST /api/agent/interact calls per case (round trips). Site success: the fixture site's own "
        "check of the last submission (every field, nothing typed into an unasked field, no action on a changed "
        "target) — not Stepwise's status. False completion: Stepwise said completed and the site's check fails. "
        "Unreadable goal: GOAL_NOT_UNDERSTOOD (the phrasing is not read yet; counted as a failure). Chains: answers "
        "of two or more actions the client ran; full-chain success: chains that ran to their last action; "
        "chain stopped at index: where the others stopped, over all chains. Changed-target actions: counted by the "
        "page (a value meant for another field typed into a recycled row, a click on the Delete button that took "
        "Submit's place).",
        "",
    ]
    if cases_to_see:
        lines += ["## Cases to look at", "", *cases_to_see, ""]
    return "\n".join(lines)


def write(out: Path, runs: Mapping[str, Sequence[CaseResult]], meta: dict[str, Any]) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    everything = [r for results in runs.values() for r in results]
    table = {
        name: {mode: summarise(name, [r for r in results if keep(r)]) for mode, results in runs.items()}
        for name, keep in groups(everything)
    }
    paths = {"json": out / "results.json", "markdown": out / "results.md"}
    paths["json"].write_text(
        json.dumps(
            {
                "meta": meta,
                "modes": list(runs),
                "targets": [{"target": w, "measured": g, "met": m} for w, g, m in targets(table)],
                "groups": {name: {mode: s.to_json() for mode, s in by_mode.items()} for name, by_mode in table.items()},
                "cases": {mode: [r.to_json() for r in results] for mode, results in runs.items()},
            },
            indent=2,
        )
    )
    paths["markdown"].write_text(markdown(table, meta, worst(runs)))
    return paths
