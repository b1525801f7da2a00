"""Replay benchmark (issue 15): ``python -m bench.memory_replay [--tasks FILE] [--later N]
[--perturb KINDS] [--model none|lying] [--learn-model none|lying] [--out DIR] [--quick]``.

For every MiniWoB++ task of the list and the demo clinic ("Add a new patient named X"):

1. **learn** — 2 episodes (seeds 0 and 1) against a local server with replay on: two
   verified runs promote a recipe;
2. **later** — N episodes per regime on a copy of what was learned: *same instance* (the
   learning seeds again: MiniWoB randomises the page per seed) and *new instance* (fresh
   seeds; the demo: other names);
3. **baseline** — the later episodes' seeds with ``STEPWISE_MEMORY_REPLAY=false``:
   the policy alone;
4. **perturb** — on the tasks whose same-instance later episodes were all served as HIT and
   succeeded, the same instances again with each perturbation kind (seeded), each kind on
   its own copy of what was learned (a failed replay demotes a recipe for good).

The later, baseline and perturbed servers run with ``--model`` (default ``lying``: a local
fake Gemini that claims success everywhere, so any model call is counted and visible). The
learning server runs with ``--learn-model`` (default ``none``): with a model configured, a
flow's final step without a success message is verified by the model, a claim that no
recipe is learned from (see docs/benchmarks.md). Writes results.json and results.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from bench.lying_model import LyingGemini
from bench.memory_episodes import Episode, Spec, demo_episode, miniwob_episode
from bench.memory_perturb import KINDS, perturb_seed
from bench.memory_replay_report import write
from bench.miniwob.env import serve_html
from bench.miniwob.run import read_tasks
from client import StepwiseClient, launch_browser
from client.local_server import local_server, sqlite_url

REPO = Path(__file__).resolve().parents[1]
DEFAULT_TASKS = REPO.parent / "shared" / "bench" / "miniwob-dev.txt"
DEFAULT_OUT = REPO / "bench" / "results" / "memory-replay"
LEARN_SEEDS = (0, 1)
NEW_SEED_BASE = 100
QUICK_TASKS = ("click-button", "login-user", "enter-text", "click-tab")
_NO_MODEL = {"GEMINI_API_KEY": "", "STEPWISE_GEMINI_API_KEY": "", "GEMINI_BASE_URL": "", "TAVILY_API_KEY": "", "STEPWISE_TAVILY_API_KEY": ""}


def later_specs(tasks: Sequence[str], later: int, phase: str = "later", learn_seeds: Sequence[int] = LEARN_SEEDS) -> list[Spec]:
    """The later episodes: per task, ``later`` on the learning instances (cycled) and
    ``later`` on fresh ones."""
    specs = []
    for task in tasks:
        suite = "demo" if task == "demo" else "miniwob"
        specs += [Spec(suite, task, learn_seeds[i % len(learn_seeds)], phase, "same") for i in range(later)]
        specs += [Spec(suite, task, NEW_SEED_BASE + i, phase, "new") for i in range(later)]
    return specs


def learn_specs(tasks: Sequence[str], phase: str = "learn", learn_seeds: Sequence[int] = LEARN_SEEDS) -> list[Spec]:
    return [Spec("demo" if t == "demo" else "miniwob", t, s, phase, "learn") for t in tasks for s in learn_seeds]


def perturb_specs(tasks: Sequence[str], kind: str, base_seed: int, learn_seeds: Sequence[int] = LEARN_SEEDS) -> list[Spec]:
    """The perturbed episodes of one kind: the learning instances again, each perturbation
    seeded from (base seed, task, kind, instance)."""
    return [
        Spec("demo" if t == "demo" else "miniwob", t, s, "perturb", "same", kind, perturb_seed(base_seed, t, kind, s))
        for t in tasks
        for s in dict.fromkeys(learn_seeds)
    ]


@contextlib.contextmanager
def server(db: Path, *, model: str, replay: bool) -> Iterator[tuple[str, str, LyingGemini | None]]:
    """A local Stepwise on the SQLite file ``db`` (cwd: this worktree), its model ``none`` or
    the lying fake, replay on or off; yields (url, api key, fake)."""
    with contextlib.ExitStack() as stack:
        env = dict(_NO_MODEL)
        fake = None
        if model == "lying":
            fake = stack.enter_context(LyingGemini("lying"))
            env.update(fake.env())
        env["STEPWISE_MEMORY_REPLAY"] = "true" if replay else "false"
        local = stack.enter_context(local_server(database_url=sqlite_url(db), env=env, cwd=REPO))
        yield local.url, local.api_key, fake


def copy_db(source: Path, target: Path) -> Path:
    """A copy of a stopped server's SQLite database (with its -wal / -shm files)."""
    for path in source.parent.glob(source.name + "*"):
        shutil.copy2(path, target.parent / (target.name + path.name[len(source.name):]))
    return target


async def play(url: str, key: str, specs: Sequence[Spec], *, max_steps: int, quiet: bool) -> list[Episode]:
    base_url, stop_html = serve_html()
    episodes: list[Episode] = []
    try:
        async with StepwiseClient(url, key) as api, launch_browser() as browser:
            for spec in specs:
                if spec.suite == "demo":
                    episode = await demo_episode(browser, api, spec, max_steps=max_steps)
                else:
                    episode = await miniwob_episode(browser, api, base_url, spec, max_steps=max_steps)
                episodes.append(episode)
                if not quiet:
                    _print(episode)
    finally:
        stop_html()
    return episodes


def _print(e: Episode) -> None:
    replays = "".join({"HIT": "H", "MISS": "M", "FALLBACK": "F", "DISABLED": "-"}.get(a.replay or "", "?") for a in e.answers)
    flag = " FALSE-COMPLETION" if e.false_completion else ""
    print(f"{e.phase:<8} {e.kind:<8} {e.task:<22} seed {e.seed:<4} {'ok ' if e.success else 'NO '} {e.status:<10} "
          f"answers {len(e.answers):<2} [{replays}] model {e.model_calls}{flag}", flush=True)  # fmt: skip


def run(args: argparse.Namespace, tasks: list[str], log: Callable[[str], None]) -> dict[str, Any]:
    """Every phase; the episodes and what the model fakes counted."""
    episodes: list[Episode] = []
    requests: dict[str, dict[str, int]] = {}
    play_ = lambda url, key, specs: asyncio.run(play(url, key, specs, max_steps=args.max_steps, quiet=args.quiet))  # noqa: E731
    with tempfile.TemporaryDirectory(prefix="memory-replay-") as tmp:
        learned = Path(tmp) / "learned.db"
        log(f"== learn: {len(tasks)} tasks x seeds {args.learn_seeds} (model {args.learn_model}) ==")
        with server(learned, model=args.learn_model, replay=True) as (url, key, fake):
            episodes += play_(url, key, learn_specs(tasks, learn_seeds=args.learn_seeds))
            requests["learn"] = fake.requests if fake else {}
            recipes = learned_recipes(url, key)
        log(f"== later: {args.later} same + {args.later} new instances per task (model {args.model}) ==")
        with server(copy_db(learned, Path(tmp) / "later.db"), model=args.model, replay=True) as (url, key, fake):
            later = play_(url, key, later_specs(tasks, args.later, learn_seeds=args.learn_seeds))
            episodes += later
            requests["later"] = fake.requests if fake else {}
        if not args.no_baseline:
            log("== baseline: the same seeds, STEPWISE_MEMORY_REPLAY=false ==")
            with server(Path(tmp) / "baseline.db", model=args.model, replay=False) as (url, key, fake):
                episodes += play_(url, key, later_specs(tasks, args.later, "baseline", args.learn_seeds))
                requests["baseline"] = fake.requests if fake else {}
        hitting = hit_tasks(later)
        for kind in args.perturb:
            log(f"== perturb {kind}: {len(hitting)} tasks where replay hits ==")
            with server(copy_db(learned, Path(tmp) / f"perturb-{kind}.db"), model=args.model, replay=True) as (url, key, fake):
                episodes += play_(url, key, perturb_specs(hitting, kind, args.seed, args.learn_seeds))
                requests[f"perturb {kind}"] = fake.requests if fake else {}
    return {"episodes": episodes, "model_requests": requests, "hit_tasks": hitting, "recipes": recipes}


def learned_recipes(url: str, key: str) -> list[dict[str, Any]]:
    """What the learning phase left (GET /api/recipes): template, status, verified runs and
    each step's action and page fingerprint — why a task has no promoted recipe."""
    answer = httpx.get(f"{url}/api/recipes", params={"limit": 500}, headers={"Authorization": f"Bearer {key}"}, timeout=30)
    answer.raise_for_status()
    return [
        {"template": r["template"], "status": r["status"], "verifiedRuns": r["verifiedRuns"],
         "steps": [f"{s['action']}@{s['fingerprint'][:6]}" for s in r["steps"]]}
        for r in answer.json()["recipes"]
    ]  # fmt: skip


def hit_tasks(later: Sequence[Episode]) -> list[str]:
    """Tasks whose same-instance later episodes were all served fully as HIT and succeeded."""
    from bench.memory_replay_metrics import fully_hit

    tasks: dict[str, bool] = {}
    for e in later:
        if e.regime == "same":
            tasks[e.task] = tasks.get(e.task, True) and e.success and fully_hit(e)
    return [t for t, ok in tasks.items() if ok]


def _seeds(text: str) -> list[int]:
    try:
        seeds = [int(s) for s in text.split(",") if s.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"seeds are integers: {text}") from exc
    if len(seeds) < 2:
        raise argparse.ArgumentTypeError("two learning episodes at least (a recipe is promoted after 2 verified runs)")
    return seeds


def _kinds(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",") if k.strip() and k.strip() != "none"]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown kinds {unknown}; choose from {', '.join(KINDS)}")
    return kinds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.memory_replay", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=Path, default=DEFAULT_TASKS, help="MiniWoB task list (one name per line, # comments)")
    parser.add_argument("--no-demo", action="store_true", help="leave out the demo clinic")
    parser.add_argument("--later", type=int, default=3, help="later episodes per task and regime (same / new instance)")
    parser.add_argument("--perturb", type=_kinds, default=list(KINDS), help=f"comma-separated kinds ({','.join(KINDS)}) or none")
    parser.add_argument("--model", choices=("none", "lying"), default="lying", help="model of the later, baseline and perturbed servers")
    parser.add_argument("--learn-model", choices=("none", "lying"), default="none", help="model of the learning server")
    parser.add_argument("--learn-seeds", type=_seeds, default=list(LEARN_SEEDS),
                        help="seeds of the learning episodes, comma-separated (0,0: twice the same MiniWoB instance)")
    parser.add_argument("--seed", type=int, default=15, help="base seed of the perturbations")
    parser.add_argument("--max-steps", type=int, default=15)
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--quick", action="store_true", help=f"{', '.join(QUICK_TASKS)} and the demo, --later 2")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        tasks, args.later = list(QUICK_TASKS), min(args.later, 2)
    else:
        if not args.tasks.is_file():
            parser.error(f"no task list at {args.tasks}")
        tasks = read_tasks(args.tasks)
    if not args.no_demo:
        tasks.append("demo")
    started = datetime.now(UTC).isoformat(timespec="seconds")
    outcome = run(args, tasks, lambda line: print(line, file=sys.stderr, flush=True))
    meta = {
        "started": started,
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
        "tasks_file": "(quick)" if args.quick else str(args.tasks),
        "tasks": tasks,
        "later": args.later,
        "learn_seeds": list(args.learn_seeds),
        "new_seeds": [NEW_SEED_BASE + i for i in range(args.later)],
        "perturb": args.perturb,
        "perturb_seed": args.seed,
        "model": args.model,
        "learn_model": args.learn_model,
        "model_requests": outcome["model_requests"],
        "hit_tasks": outcome["hit_tasks"],
        "learned_recipes": outcome["recipes"],
    }
    paths = write(args.out, outcome["episodes"], meta)
    print(paths["markdown"].read_text())
    print("Wrote " + ", ".join(str(p) for p in paths.values()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
