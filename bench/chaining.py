"""Action chaining, measured: ``.venv/bin/python -m bench.chaining [--seeds N] [--layouts a,b]
[--variants clean,rerender,late,decoy] [--modes on,off] [--out DIR]``.

Starts a local Stepwise server per mode (``STEPWISE_CHAINING=true`` / ``false``, no model key),
serves the fixture site of :mod:`bench.chaining_pages` on 127.0.0.1 and plays every
(variant, layout, seed) with the real reference client (``client.run_task``) in Chromium, the
same cases in both modes. The site judges each case from what was submitted and counts every
action on a changed target. Writes results.json and results.md to ``--out``
(:mod:`bench.chaining_report`).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from bench.chaining_goals import PHRASINGS, goal, phrasing_for
from bench.chaining_pages import LAYOUTS, VARIANTS, Case, Site, check, make_case
from bench.chaining_report import write
from client import InteractAnswer, RunResult, StabilityConfig, StepRecord, StepwiseClient, launch_browser, new_context, run_task
from client.local_server import local_server

REPO: Final = Path(__file__).resolve().parents[1]
DEFAULT_OUT: Final = REPO / "bench" / "results" / "chaining"
MODES: Final = ("on", "off")
# No model: the deterministic policy only, and no web search.
_NO_MODEL: Final = {"GEMINI_API_KEY": "", "STEPWISE_GEMINI_API_KEY": "", "GEMINI_BASE_URL": "", "TAVILY_API_KEY": "", "STEPWISE_TAVILY_API_KEY": ""}
STABILITY: Final = StabilityConfig(min_wait_ms=50, dom_quiet_ms=150, network_idle_ms=150, max_wait_ms=3000)


@dataclass
class ChainRun:
    """One chain the server sent and how far the client got with it."""

    length: int
    executed: int
    failed_index: int | None
    failure_kind: str | None
    error: str | None

    @property
    def full(self) -> bool:
        return self.failed_index is None and self.executed == self.length


@dataclass
class CaseResult:
    mode: str
    layout: str
    variant: str
    seed: int
    phrasing: str
    goal: str
    requests: int
    success: bool  # the site's own check
    site_reason: str
    submissions: int
    changed_target_actions: int
    stepwise_status: str
    error_code: str | None
    error: str | None
    false_completion: bool  # Stepwise said completed, the site's check fails
    actions: list[str]
    chains: list[ChainRun] = field(default_factory=list)
    elapsed_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class RecordingClient(StepwiseClient):
    """The reference client's API client, keeping every interact request body (what the client
    reported about the last chain) and answer (the chain the server sent) of the current case."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.exchanges: list[tuple[dict[str, Any], InteractAnswer]] = []

    async def interact(self, body: Mapping[str, Any]) -> InteractAnswer:
        answer = await super().interact(body)
        self.exchanges.append((dict(body), answer))
        return answer


def chain_runs(steps: Sequence[StepRecord], bodies: Sequence[Mapping[str, Any]]) -> list[ChainRun]:
    """The chains of a run (answers of two or more actions that the client executed), read from
    what the client reported on the next request (``chainPartialState``, wire contract), else
    from its step record. ``bodies[i]`` is the request that answered into ``steps[i]``."""
    runs = []
    for position, step in enumerate(steps):
        if len(step.actions) < 2 or step.action_status not in ("success", "failure"):
            continue
        report = bodies[position + 1] if position + 1 < len(bodies) else {}
        partial = report.get("chainPartialState") or {}
        failed = partial.get("failedIndex")
        kind = partial.get("failureKind")
        if failed is None and step.action_status == "failure":
            failed = _failed_index(step.actions, step.action_error or "", partial)
        executed = len(partial["executedActions"]) if "executedActions" in partial else len(step.actions) if failed is None else failed
        runs.append(ChainRun(len(step.actions), executed, failed, kind, step.action_error))
    return runs


def _failed_index(actions: Sequence[str], error: str, partial: Mapping[str, Any]) -> int:
    """A client that does not report failedIndex prefixes the chain's error with the action."""
    for index, action in enumerate(actions):
        if error.startswith(f"{action}:"):
            return index
    return len(partial.get("executedActions") or actions[:-1])


async def play_case(browser: Any, api: RecordingClient, site: Site, base: str, case: Case, mode: str, phrasing: str,
                    state_file: str, max_steps: int) -> CaseResult:  # fmt: skip
    text = goal(case, phrasing)
    path = site.add(case)
    context = await new_context(browser)
    began = time.monotonic()
    api.exchanges = []
    try:
        page = await context.new_page()
        result: RunResult = await run_task(
            text, f"{base}{path}", api=api, page=page, max_steps=max_steps, stability=STABILITY,
            state_file=state_file, tab_key=f"chain-{case.token}",
        )  # fmt: skip
        await asyncio.sleep(0.2)  # the page's last beacons
    finally:
        await context.close()
    record = site.record(case.token)
    success, reason = check(case, record)
    return CaseResult(
        mode=mode,
        layout=case.layout,
        variant=case.variant,
        seed=case.seed,
        phrasing=phrasing,
        goal=text,
        requests=len(result.steps),
        success=success,
        site_reason=reason,
        submissions=len(record.submissions),
        changed_target_actions=record.changed_target_actions,
        stepwise_status=result.status,
        error_code=result.error_code,
        error=result.error,
        false_completion=result.status == "completed" and not success,
        actions=[" → ".join(s.actions) if s.actions else s.action for s in result.steps],
        chains=chain_runs(result.steps, [body for body, _ in api.exchanges]),
        elapsed_s=round(time.monotonic() - began, 2),
    )


def cases(layouts: Sequence[str], variants: Sequence[str], seeds: int, phrasing: str | None) -> list[tuple[Case, str]]:
    """Clean pages: every layout × seed. A dirty variant: one layout per seed (cycling)."""
    out = []
    for variant in variants:
        for seed in range(seeds):
            for layout in layouts if variant == "clean" else [layouts[seed % len(layouts)]]:
                out.append((make_case(layout, variant, seed), phrasing or phrasing_for(seed)))
    return out


async def play_mode(mode: str, chosen: Sequence[tuple[Case, str]], site: Site, base: str, max_steps: int, quiet: bool) -> list[CaseResult]:
    env = {**_NO_MODEL, "STEPWISE_CHAINING": "true" if mode == "on" else "false"}
    results: list[CaseResult] = []
    with local_server(env=env) as server, tempfile.TemporaryDirectory(prefix="chaining-state-") as state:
        async with RecordingClient(server.url, server.api_key) as api, launch_browser() as browser:
            for case, phrasing in chosen:
                mine = dataclasses.replace(case, token=f"{mode}-{case.token}")
                done = await play_case(browser, api, site, base, mine, mode, phrasing, f"{state}/state.json", max_steps)
                results.append(done)
                if not quiet:
                    flag = " FALSE-COMPLETION" if done.false_completion else ""
                    print(
                        f"[{mode:>3}] {case.variant:<8} {case.layout:<11} seed {case.seed:<2} {phrasing:<12} "
                        f"requests {done.requests:<2} chains {len(done.chains)} site {'ok ' if done.success else 'BAD'} "
                        f"{done.stepwise_status:<18} {done.error_code or '':<20} changed-target {done.changed_target_actions}{flag}",
                        flush=True,
                    )
    return results


def _csv(value: str, allowed: Sequence[str], what: str) -> list[str]:
    chosen = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [v for v in chosen if v not in allowed]
    if unknown or not chosen:
        raise argparse.ArgumentTypeError(f"unknown {what}: {', '.join(unknown) or '(none)'}; choose from {', '.join(allowed)}")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.chaining", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=5, help="seeds per layout and variant (seed n is asked the n-th way)")
    parser.add_argument("--layouts", type=lambda v: _csv(v, LAYOUTS, "layout"), default=list(LAYOUTS))
    parser.add_argument("--variants", type=lambda v: _csv(v, VARIANTS, "variant"), default=list(VARIANTS))
    parser.add_argument("--modes", type=lambda v: _csv(v, MODES, "mode"), default=list(MODES))
    parser.add_argument("--phrasing", choices=list(PHRASINGS), default=None, help="ask every case this way (default: cycle by seed)")
    parser.add_argument("--max-steps", type=int, default=20)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    chosen = cases(args.layouts, args.variants, args.seeds, args.phrasing)
    site = Site()
    base, stop = site.serve()
    runs: dict[str, list[CaseResult]] = {}
    try:
        for mode in args.modes:
            print(f"== chaining {mode} ==", file=sys.stderr, flush=True)
            runs[mode] = asyncio.run(play_mode(mode, chosen, site, base, args.max_steps, args.quiet))
    finally:
        stop()
    meta = {
        "started": started,
        "seeds": args.seeds,
        "layouts": args.layouts,
        "variants": args.variants,
        "phrasing": args.phrasing or "cycled by seed: " + ", ".join(PHRASINGS),
        "max_steps": args.max_steps,
        "server": "local, no model key, STEPWISE_CHAINING=true|false",
    }
    paths = write(args.out, runs, meta)
    if not args.quiet:
        print(paths["markdown"].read_text())
    print("Wrote " + ", ".join(str(p) for p in paths.values()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
