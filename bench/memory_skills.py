"""Skills, measured end to end on a decoy site: ``python -m bench.memory_skills [--tasks 60]
[--seed 1] [--runs main,heldout,lying,focusable] [--out DIR]``.

Each run starts its own local Stepwise server (SQLite in a temporary folder, skills on,
``STEPWISE_MEMORY_REPLAY=false`` so a recipe's replay cannot stand in for a skill), creates an
API key for each of 3 tenants, serves :mod:`bench.memory_decoy_site` under two host names and
plays a seeded stream (:mod:`bench.memory_skills_stream`) with the reference client
(``client.run_task``) in Chromium. Then it reads every tenant's ``GET /api/skills`` and the
raw database files. Runs:

* ``main`` — the tune phrasings, no model (the deterministic policy);
* ``heldout`` — the same stream shape in the held-out phrasing only;
* ``lying`` — the tune phrasings with ``bench.lying_model.LyingGemini("lying")`` as the model,
  every 3rd task on a broken site (its real control is dead too: nothing can succeed, the
  model still claims it did);
* ``replay`` — the ``main`` stream with replay of verified flows on too: round trips of the
  tasks served wholly from a recipe against those that were not;
* ``focusable`` — decoys that are plain focusable ``<button>`` elements: a click moves the
  focus, which alone does not prove that it opened the form the plan types into next (the
  step is corrected), nor that a sign-in submitted (the user is asked to confirm).

Writes results.json and results.md to ``--out`` (:mod:`bench.memory_skills_report`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import httpx

from bench.lying_model import FAKE_API_KEY, LyingGemini
from bench.memory_decoy_site import DOMAINS, Site, read_dead_clicks_js
from bench.memory_skills_report import TaskResult, replay_summary, summarise, targets, write
from bench.memory_skills_stream import PHRASING_SETS, TENANTS, StreamItem, stream
from client import InteractAnswer, StabilityConfig, StepwiseClient, launch_browser, new_context, run_task
from client.local_server import local_server, sqlite_url

REPO: Final = Path(__file__).resolve().parents[1]
DEFAULT_OUT: Final = REPO / "bench" / "results" / "memory-skills"
RUNS: Final = ("main", "heldout", "lying", "focusable", "replay")
HOST_RULES: Final = "--host-resolver-rules=MAP *.test 127.0.0.1"
_NO_MODEL: Final = {"GEMINI_API_KEY": "", "STEPWISE_GEMINI_API_KEY": "", "GEMINI_BASE_URL": "", "TAVILY_API_KEY": "", "STEPWISE_TAVILY_API_KEY": ""}
_MEMORY: Final = {"STEPWISE_MEMORY_SKILLS": "true", "STEPWISE_MEMORY_REPLAY": "false"}
STABILITY: Final = StabilityConfig(min_wait_ms=50, dom_quiet_ms=150, network_idle_ms=150, max_wait_ms=3000)


class RecordingClient(StepwiseClient):
    """The reference client's API client, keeping every answer of the current task with the
    wall-clock time it arrived (to tell decoy clicks before a skill from those after)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.answers: list[tuple[float, InteractAnswer]] = []

    async def interact(self, body: Mapping[str, Any]) -> InteractAnswer:
        answer = await super().interact(body)
        self.answers.append((time.time(), answer))
        return answer


def skills_of(answer: InteractAnswer) -> list[str]:
    return list((answer.get("memory") or {}).get("skillsUsed") or [])


def create_key(database_url: str, tenant: str, env: Mapping[str, str]) -> str:
    """An API key for ``tenant`` (``app.cli keys create``) in the server's database."""
    environment = {**os.environ, **env, "STEPWISE_DATABASE_URL": database_url}
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "keys", "create", "--tenant", tenant, "--user", f"{tenant}-user", "--name", "skills bench"],
        env=environment, cwd=REPO, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"keys create failed for {tenant}: {done.stderr[-500:]}")
    return lines[0]


async def play(browser: Any, api: RecordingClient, site: Site, port: int, item: StreamItem, max_steps: int) -> TaskResult:
    """Run one task in a fresh browser context; the site and the answers judge it."""
    task = item.task
    path = site.add(task)
    api.answers = []
    began = time.monotonic()
    context = await new_context(browser)
    try:
        page = await context.new_page()
        result = await run_task(item.goal, f"http://{task.domain}:{port}{path}", api=api, page=page, max_steps=max_steps,
                                stability=STABILITY, tab_key=f"skills-{task.token}")  # fmt: skip
        try:
            site.dead_clicks_seen(task.token, await page.evaluate(read_dead_clicks_js()))
        except Exception as exc:  # a closed or foreign page: no decoy log to read
            print(f"  (decoy log unreadable: {type(exc).__name__})", file=sys.stderr)
    finally:
        await context.close()
    record = site.record(task.token)
    used: list[str] = []
    first_skill_at = None
    for at, answer in api.answers:
        for skill in skills_of(answer):
            first_skill_at = at if first_skill_at is None else first_skill_at
            used += [skill] if skill not in used else []
    task_ids = {a.task_id for _, a in api.answers if a.task_id}
    return TaskResult(
        position=item.position, tenant=item.tenant, domain=task.domain, flow=task.flow, layout=task.words.layout,
        phrasing=item.phrasing, goal=item.goal, task_id=",".join(sorted(task_ids)) or None, done=record.done(task),
        stepwise_status=result.status, error_code=result.error_code, answers=len(api.answers),
        answers_with_skill=sum(bool(skills_of(a)) for _, a in api.answers), skills_used=used,
        dead_clicks=record.dead_clicks(), dead_clicks_after_skill=record.dead_clicks(first_skill_at) if first_skill_at else 0,
        model_calls=result.model_calls, elapsed_s=round(time.monotonic() - began, 2), site_events=record.kinds(), broken=task.broken,
        replay=[str((a.get("memory") or {}).get("replay") or "") for _, a in api.answers],
    )  # fmt: skip


def tenant_skills(url: str, key: str) -> list[dict[str, Any]]:
    response = httpx.get(f"{url}/api/skills", params={"limit": 500}, headers={"Authorization": f"Bearer {key}"}, timeout=10)
    response.raise_for_status()
    return list(response.json()["skills"])


def secrets_in_files(folder: Path, secrets: Sequence[str]) -> dict[str, int]:
    """Occurrences of each secret (UTF-8 bytes) in every file of the database folder
    (the database, its -wal and -shm), keyed by file name; only non-zero counts. The same
    count over the sign-in user names (typed values that are not secret, so stored with the
    goal) is the positive control: it shows the search can see what the store keeps."""
    found = {}
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.name.startswith("stepwise.db"):
            raw = path.read_bytes()
            count = sum(raw.count(s.encode()) for s in secrets)
            if count:
                found[path.name] = count
    return found


def foreign_reads(url: str, keys: Mapping[str, str], lists: Mapping[str, list[dict[str, Any]]]) -> list[dict[str, str]]:
    """Every skill fetched by id with every other tenant's key: anything but a 404 is a leak."""
    leaks = []
    for owner, skills in lists.items():
        for reader, key in keys.items():
            for skill in skills if reader != owner else []:
                status = httpx.get(f"{url}/api/skills/{skill['id']}", headers={"Authorization": f"Bearer {key}"}, timeout=10).status_code
                if status != 404:
                    leaks.append({"owner": owner, "reader": reader, "skill": skill["id"], "status": str(status)})
    return leaks


def store_checks(url: str, keys: Mapping[str, str], results: Sequence[TaskResult]) -> dict[str, Any]:
    """Tenancy and admission checks from every tenant's own skill list."""
    lists = {tenant: tenant_skills(url, key) for tenant, key in keys.items()}
    done_by_task = {tid: r.done for r in results if r.task_id for tid in r.task_id.split(",")}
    cross = [{"tenant": r.tenant, "position": r.position, "skill": s} for r in results for s in r.skills_used if s not in {k["id"] for k in lists[r.tenant]}]
    foreign = [{"tenant": t, "skill": k["id"], "domain": k["domain"]} for t, ks in lists.items() for k in ks if k["domain"] not in DOMAINS]
    unproven = []
    for tenant, skills in lists.items():
        mine = {tid for r in results if r.tenant == tenant and r.task_id for tid in r.task_id.split(",")}
        for skill in skills:
            bad = [e for e in skill["evidence"] if e not in mine or not done_by_task.get(e, False)]
            if skill["status"] == "admitted" and bad:
                unproven.append({"tenant": tenant, "skill": skill["id"], "evidence_not_done": bad})
    counts = {t: {"admitted": sum(k["status"] == "admitted" for k in ks), "candidate": sum(k["status"] == "candidate" for k in ks)} for t, ks in lists.items()}
    return {"cross_tenant": cross, "foreign_reads": foreign_reads(url, keys, lists), "foreign_domains": foreign, "unproven_admitted": unproven,
            "skills": counts, "lists": lists}  # fmt: skip


async def play_stream(items: Sequence[StreamItem], env: Mapping[str, str], site: Site, port: int, max_steps: int, quiet: bool) -> dict[str, Any]:
    """One server, three tenants, the stream in order; then the store checks."""
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="skills-bench-db-")))
        db_url = sqlite_url(folder / "stepwise.db")
        server = stack.enter_context(local_server(env=env, database_url=db_url, cwd=REPO))
        keys = {tenant: create_key(db_url, tenant, env) for tenant in TENANTS}
        results: list[TaskResult] = []
        clients = {t: RecordingClient(server.url, k) for t, k in keys.items()}
        async with launch_browser(extra_args=[HOST_RULES]) as browser:
            for item in items:
                done = await play(browser, clients[item.tenant], site, port, item, max_steps)
                results.append(done)
                if not quiet:
                    print(f"  {item.position:>3} {item.tenant} {done.domain:<13} {done.flow:<6} {item.phrasing} site {'ok ' if done.done else 'BAD'} "
                          f"{done.stepwise_status:<10} {done.error_code or '':<18} answers {done.answers:<2} skills {len(done.skills_used)} "
                          f"dead {done.dead_clicks}/{done.dead_clicks_after_skill} calls {done.model_calls}{' FALSE-COMPLETION' if done.false_completion else ''}", flush=True)  # fmt: skip
        for client in clients.values():
            await client.aclose()
        store = store_checks(server.url, keys, results)
        secrets = [i.secret for i in items if i.secret]
        store["secrets_found"] = secrets_in_files(folder, secrets)
        store["secrets_checked"] = len(secrets)
        store["control_values_found"] = secrets_in_files(folder, [i.task.values[0] for i in items if i.secret])
        store["server_log_secrets"] = sum(server.log_path.read_text(errors="replace").count(s) for s in secrets)
    return {"results": results, "store": store}


def run_one(name: str, args: argparse.Namespace, site: Site, port: int) -> dict[str, Any]:
    """Build the run's stream and environment, play it, and compute its figures."""
    env = {**_NO_MODEL, **_MEMORY}
    tasks, phrasings, focusable, description = args.tasks, PHRASING_SETS["tune"], False, "tune phrasings, no model"
    if name == "heldout":
        phrasings, description = PHRASING_SETS["heldout"], "held-out phrasing, no model"
    elif name == "focusable":
        tasks, focusable, description = args.focusable_tasks, True, "decoys are plain focusable <button>s, tune phrasings, no model"
    elif name == "replay":
        env, description = {**env, "STEPWISE_MEMORY_REPLAY": "true"}, "tune phrasings, no model, replay of verified flows on as well"
    elif name == "lying":
        tasks, description = args.lying_tasks, f"tune phrasings, LyingGemini('lying') as the model, every {args.lying_broken_every}-th task on a broken site"
    broken = args.lying_broken_every if name == "lying" else 0
    items = stream(tasks, args.seed, phrasings, habit=args.habit, focusable_decoy=focusable, broken_every=broken)
    with ExitStack() as stack:
        if name == "lying":
            fake = stack.enter_context(LyingGemini("lying"))
            env = {**env, "GEMINI_API_KEY": FAKE_API_KEY, "GEMINI_BASE_URL": fake.base_url}
        print(f"== memory-skills {name}: {description}, {tasks} tasks ==", file=sys.stderr, flush=True)
        played = asyncio.run(play_stream(items, env, site, port, args.max_steps, args.quiet))
    summary = summarise(played["results"], played["store"])
    store = {k: v for k, v in played["store"].items() if k != "lists"}
    store["skills_listed"] = played["store"]["lists"]
    return {
        "description": description,
        **({"replay": replay_summary(played["results"])} if name == "replay" else {}),
        "summary": summary,
        "targets": targets(summary, lying=name == "lying"),
        "store": store,
        "tasks": [r.to_json() for r in played["results"]],
    }


def _runs(value: str) -> list[str]:
    chosen = [v.strip() for v in value.split(",") if v.strip()]
    if not chosen or any(v not in RUNS for v in chosen):
        raise argparse.ArgumentTypeError(f"choose runs from {', '.join(RUNS)}")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.memory_skills", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=60, help="tasks in the main and held-out streams")
    parser.add_argument("--lying-tasks", type=int, default=30)
    parser.add_argument("--lying-broken-every", type=int, default=3, help="in the lying run, every k-th task cannot be done")
    parser.add_argument("--focusable-tasks", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--habit", type=float, default=0.8, help="probability a task uses its tenant's habitual phrasing")
    parser.add_argument("--runs", type=_runs, default=list(RUNS))
    parser.add_argument("--max-steps", type=int, default=20)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    site = Site()
    base, stop = site.serve()
    port = int(base.rsplit(":", 1)[1])
    try:
        runs = {name: run_one(name, args, site, port) for name in args.runs}
    finally:
        stop()
    meta = {
        "started": started, "finished": datetime.now(UTC).isoformat(timespec="seconds"), "seed": args.seed,
        "tasks": args.tasks, "lying_tasks": args.lying_tasks, "lying_broken_every": args.lying_broken_every, "focusable_tasks": args.focusable_tasks, "habit": args.habit,
        "tenants": list(TENANTS), "domains": list(DOMAINS), "max_steps": args.max_steps,
        "server": "local, SQLite, STEPWISE_MEMORY_SKILLS=true, STEPWISE_MEMORY_REPLAY=false (true in the replay run)",
    }  # fmt: skip
    paths = write(args.out, runs, meta)
    if not args.quiet:
        print(paths["markdown"].read_text())
    print("Wrote " + ", ".join(str(p) for p in paths.values()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
