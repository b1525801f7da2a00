"""The extension against the Python reference client, measured in the same run:
``python -m bench.extension [--runs N] [--tasks clinic,prefs,people] [--out DIR]``.

Starts one local Stepwise server (no model: the deterministic policy; memory off, so run N does
the same work as run 1; its CORS allows the extension's id), serves the demo clinic and the extension's fixture sites
(:mod:`tests.e2e.extension.sites`), and loads the BUILT extension (``extension/dist``) into
Debian's Chromium. Each task is played N times through each client, alternating (extension,
client, extension, client …) so both see the same machine load:

* **extension** — the goal typed into the side panel (opened as a tab for the target tab),
  Run clicked; the wall time runs from the click to the panel's end state;
* **client** — :func:`client.run_task` on a tab of the same Chromium profile, already on the
  page; the wall time is the call.

Both use their default stability settings (the extension's ≥ 500 ms quiet; the client's
``StabilityConfig()``). A run counts as a success only when the status is ``completed`` AND
the site's own record shows the change (once). Steps are the server's answers for the task
(GET /api/tasks/{id}). Prints a table and writes results.json / results.md to ``--out``
(default bench/results/extension, git-ignored).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from client import run_task
from client.demo_site import DemoSite, serve_demo_site
from client.local_server import LocalServer, local_server
from tests.e2e.extension.sites import FixtureState, serve_fixture_sites
from tests.e2e.extension.harness import NO_MODEL_ENV, LoadedExtension, built, extension_id, launch_extension, server_task, start

REPO: Final = Path(__file__).resolve().parents[1]
DEFAULT_OUT: Final = REPO / "bench" / "results" / "extension"
MAX_STEPS: Final = 20
TIMEOUT_S: Final = 120.0
# Every run does the same work: no recipe replay, no skills learnt from earlier runs.
NO_MEMORY_ENV: Final = {"STEPWISE_MEMORY_REPLAY": "false", "STEPWISE_MEMORY_SKILLS": "false"}


@dataclass(frozen=True)
class BenchTask:
    """A goal on a page, and how the site's own record tells it was done (once)."""

    name: str
    path: str
    goal: str
    site: str  # "clinic" or "fixtures"
    done: Callable[[DemoSite, FixtureState], bool]


TASKS: Final[tuple[BenchTask, ...]] = (
    BenchTask("clinic", "/", "Add a new patient named Jas", "clinic", lambda clinic, _: clinic.names().count("Jas") == 1),
    BenchTask(
        "prefs", "/prefs.html", 'Select "French" from Language, check Weekly summary email and click Save preferences', "fixtures",
        lambda _, sites: sites.saves("prefs_saved") == [{"language": "fr", "summary": True, "sounds": True}],
    ),
    BenchTask(
        "people", "/people.html", 'Search for "Alan", then edit Alan Turing and set his team to Sales', "fixtures",
        lambda _, sites: [p["team"] for p in sites.saves("person_saved")] == ["Sales"],
    ),
)  # fmt: skip


@dataclass
class Measure:
    task: str
    client: str  # "extension" or "python"
    run: int
    status: str
    done: bool  # the site's record shows the change
    steps: int  # the server's answers for the task
    wall_s: float

    @property
    def success(self) -> bool:
        return self.status == "completed" and self.done


class Sites:
    """The clinic (a fresh one per run) and the fixture sites (reset per run)."""

    def __init__(self) -> None:
        self.fixtures = FixtureState()
        self.fixtures_url, self._stop_fixtures = serve_fixture_sites(self.fixtures)
        self.clinic = DemoSite()
        self.clinic_url, self._stop_clinic = serve_demo_site(0, site=self.clinic)

    def fresh(self, task: BenchTask) -> str:
        """Reset the task's site; returns the URL the task starts on."""
        if task.site == "clinic":
            self._stop_clinic()
            self.clinic = DemoSite()
            self.clinic_url, self._stop_clinic = serve_demo_site(0, site=self.clinic)
            return self.clinic_url + task.path
        self.fixtures.reset()
        return self.fixtures_url + task.path

    def close(self) -> None:
        self._stop_clinic()
        self._stop_fixtures()


async def through_extension(ext: LoadedExtension, server: LocalServer, sites: Sites, task: BenchTask, run: int) -> Measure:
    url = sites.fresh(task)
    started_run = await start(ext, url, task.goal, run=False)
    began = time.monotonic()
    await started_run.panel.click("#run")
    status = await started_run.finish(timeout_s=TIMEOUT_S)
    wall = time.monotonic() - began
    task_id = await started_run.task_id()
    steps = len(server_task(server.url, server.api_key, task_id)["steps"]) if task_id else 0
    done = task.done(sites.clinic, sites.fixtures)
    await started_run.panel.close()
    await started_run.page.close()
    return Measure(task.name, "extension", run, status, done, steps, wall)


async def through_client(ext: LoadedExtension, server: LocalServer, sites: Sites, task: BenchTask, run: int, tmp: Path) -> Measure:
    url = sites.fresh(task)
    page = await ext.context.new_page()
    await page.goto(url, wait_until="load")
    began = time.monotonic()
    result = await run_task(
        task.goal, None, server=server.url, api_key=server.api_key, page=page, max_steps=MAX_STEPS,
        state_file=str(tmp / "state.json"), tab_key=f"{task.name}-{run}",
    )  # fmt: skip
    wall = time.monotonic() - began
    steps = len(server_task(server.url, server.api_key, result.task_id)["steps"]) if result.task_id else 0
    done = task.done(sites.clinic, sites.fixtures)
    await page.close()
    return Measure(task.name, "python", run, result.status, done, steps, wall)


def summarise(measures: Sequence[Measure], tasks: Sequence[BenchTask]) -> list[dict[str, object]]:
    """Per task: runs, successes, median steps and wall time per client, and the ratio of the
    medians (extension / client)."""
    rows: list[dict[str, object]] = []
    for task in tasks:
        row: dict[str, object] = {"task": task.name, "goal": task.goal}
        for client in ("extension", "python"):
            mine = [m for m in measures if m.task == task.name and m.client == client]
            row[f"{client}_runs"] = len(mine)
            row[f"{client}_ok"] = sum(m.success for m in mine)
            row[f"{client}_steps"] = statistics.median(m.steps for m in mine) if mine else None
            row[f"{client}_wall_s"] = round(statistics.median(m.wall_s for m in mine), 2) if mine else None
            per_step = [m.wall_s / m.steps for m in mine if m.steps]
            row[f"{client}_s_per_step"] = round(statistics.median(per_step), 2) if per_step else None
        ext_wall, py_wall = row["extension_wall_s"], row["python_wall_s"]
        row["ratio"] = round(ext_wall / py_wall, 2) if isinstance(ext_wall, float) and isinstance(py_wall, float) and py_wall else None
        rows.append(row)
    return rows


def table(rows: Sequence[dict[str, object]]) -> str:
    lines = [
        "| task | runs (ext / py) | completed + proven (ext / py) | median steps (ext / py) | median wall s (ext / py) | ratio ext/py | median s per step (ext / py) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['task']} | {r['extension_runs']} / {r['python_runs']} | {r['extension_ok']} / {r['python_ok']} | "
            f"{r['extension_steps']} / {r['python_steps']} | {r['extension_wall_s']} / {r['python_wall_s']} | {r['ratio']} | "
            f"{r['extension_s_per_step']} / {r['python_s_per_step']} |"
        )
    return "\n".join(lines)


async def bench(runs: int, tasks: Sequence[BenchTask], out: Path) -> list[dict[str, object]]:
    reason = built()
    if reason is not None:
        raise SystemExit(reason)
    measures: list[Measure] = []
    sites = Sites()
    out.mkdir(parents=True, exist_ok=True)
    scratch = tempfile.TemporaryDirectory(prefix="stepwise-bench-ext-")
    tmp = Path(scratch.name)
    try:
        with local_server(env={**NO_MODEL_ENV, **NO_MEMORY_ENV, "STEPWISE_EXTENSION_IDS": extension_id()}) as server:
            async with launch_extension() as ext:
                await ext.configure(server.url, server.api_key)
                for task in tasks:
                    for run in range(runs):
                        for measure in (
                            await through_extension(ext, server, sites, task, run),
                            await through_client(ext, server, sites, task, run, tmp),
                        ):
                            measures.append(measure)
                            print(f"{measure.task:8} {measure.client:9} run {run}: {measure.status} done={measure.done} "
                                  f"steps={measure.steps} {measure.wall_s:.2f} s", flush=True)  # fmt: skip
    finally:
        sites.close()
        scratch.cleanup()
    rows = summarise(measures, tasks)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    (out / "results.json").write_text(json.dumps({"at": stamp, "runs": runs, "summary": rows, "measures": [asdict(m) for m in measures]}, indent=2))
    (out / "results.md").write_text(f"# The extension vs the Python client ({stamp}, N={runs})\n\n{table(rows)}\n")
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.extension", description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=3, help="runs per task and client (default 3)")
    parser.add_argument("--tasks", default=",".join(t.name for t in TASKS), help="comma-separated: " + ", ".join(t.name for t in TASKS))
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where results.json / results.md go")
    args = parser.parse_args(argv)
    wanted = [name.strip() for name in args.tasks.split(",") if name.strip()]
    unknown = sorted(set(wanted) - {t.name for t in TASKS})
    if unknown or args.runs < 1:
        parser.error(f"unknown tasks {unknown}" if unknown else "--runs must be >= 1")
    tasks = [t for t in TASKS if t.name in wanted]
    rows = asyncio.run(bench(args.runs, tasks, args.out))
    print()
    print(table(rows))
    print(f"\nwritten to {args.out}")
    return 0 if all(r["extension_ok"] == r["extension_runs"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
