"""MiniWoB++ benchmark: ``.venv/bin/python -m bench.miniwob.run [--tasks FILE] [--seeds N]
[--out DIR] [--server URL] [--model none|lying|nonsense|invalid|env] [--compare]
[--chaining on|off] [--compare-chaining]``.

Serves the ``miniwob`` package's html folder on 127.0.0.1, plays each task and seed with the
reference client against Stepwise (a local server on the embedded defaults unless
``--server`` is given; then the key is ``--api-key`` or ``$STEPWISE_API_KEY``) and writes
results.json, results.md and results.png to ``--out``.

``--model`` chooses the local server's model: ``none`` (no model key, the default),
``lying`` / ``nonsense`` / ``invalid`` (a broken fake Gemini on 127.0.0.1,
:class:`bench.lying_model.LyingGemini`) or ``env`` (whatever ``GEMINI_API_KEY`` the
environment holds). ``--compare`` runs the task list with no model, then with ``--model``
(``lying`` unless another broken model is named), and writes compare.json and compare.md.

``--chaining on|off`` starts the local server with ``STEPWISE_CHAINING=true|false`` (action
chains, issue 14; default: the server's own default). ``--compare-chaining`` runs the task list
with chaining on, then off, on the same seeds, and writes compare.json and compare.md
(requests per episode, success and false completions side by side).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.miniwob.env import serve_html
from bench.miniwob.harness import EpisodeResult, run_episode
from bench.lying_model import MODES, LyingGemini, Mode
from bench.miniwob.report import write, write_comparison
from bench.miniwob.suites import SUITES_FILE, load_suites
from bench.miniwob.suites_report import write_suites
from client import StepwiseClient, launch_browser
from client.local_server import local_server

REPO = Path(__file__).resolve().parents[2]
DEFAULT_TASKS = REPO.parent / "shared" / "bench" / "miniwob-dev.txt"
DEFAULT_OUT = REPO / "bench" / "results" / "miniwob"
MODEL_CHOICES = ("none", *MODES, "env")
_FAKES: dict[str, Mode] = {mode: mode for mode in MODES}
# A fake model must not switch on the real web search either.
_NO_PROVIDERS = {"TAVILY_API_KEY": "", "STEPWISE_TAVILY_API_KEY": ""}


def read_tasks(path: Path) -> list[str]:
    tasks = []
    for line in path.read_text().splitlines():
        name = line.split("#", 1)[0].strip()
        if name:
            tasks.append(name)
    return tasks


async def run_all(
    tasks: list[str],
    seeds: int,
    server: str,
    api_key: str,
    *,
    max_steps: int,
    episode_ms: int | None,
    quiet: bool,
) -> list[EpisodeResult]:
    base_url, stop_html = serve_html()
    episodes: list[EpisodeResult] = []
    try:
        with tempfile.TemporaryDirectory(prefix="miniwob-state-") as state_dir:
            async with StepwiseClient(server, api_key) as api, launch_browser() as browser:
                for task in tasks:
                    for seed in range(seeds):
                        episode = await run_episode(
                            browser,
                            api,
                            base_url,
                            task,
                            seed,
                            max_steps=max_steps,
                            episode_ms=episode_ms,
                            state_file=os.path.join(state_dir, "state.json"),
                        )
                        episodes.append(episode)
                        if not quiet:
                            flag = (
                                " FALSE-COMPLETION"
                                if episode.false_completion
                                else " MISSED-COMPLETION"
                                if episode.missed_completion
                                else ""
                            )
                            print(
                                f"{task:<24} seed {seed:<3} reward {episode.reward:+.2f} (raw {episode.raw_reward:+.0f}) "
                                f"{episode.stepwise_status:<9} {episode.error_code or '':<25} steps {episode.steps}{flag}",
                                flush=True,
                            )
    finally:
        stop_html()
    return episodes


@dataclass(frozen=True)
class Target:
    """A Stepwise server to play against, and what to call it in the report."""

    url: str
    api_key: str
    label: str
    model: str
    fake: LyingGemini | None = None


def model_description(model: str) -> str:
    return {
        "none": "no model key (deterministic path only)",
        "lying": "fake Gemini that answers every request with a schema-valid claim of success",
        "nonsense": "fake Gemini that answers schema-valid nonsense (ids on no page)",
        "invalid": "fake Gemini that answers text that is not JSON",
        "env": "the model key of the environment (GEMINI_API_KEY)",
        "server": "whatever the given server is configured with",
    }[model]


CHAINING_CHOICES = ("on", "off")


def start_local(stack: contextlib.ExitStack, model: str, chaining: str | None = None) -> Target:
    """A local Stepwise server whose model is ``model`` (a fake one is started first);
    ``chaining`` on/off sets STEPWISE_CHAINING (None: the server's default)."""
    chain_env = {} if chaining is None else {"STEPWISE_CHAINING": "true" if chaining == "on" else "false"}
    if model == "env":
        local = stack.enter_context(local_server(env=chain_env or None))
        return Target(local.url, local.api_key, "local (embedded defaults)", model)
    fake = None
    env = {"GEMINI_API_KEY": "", "STEPWISE_GEMINI_API_KEY": "", "GEMINI_BASE_URL": ""}
    mode = _FAKES.get(model)
    if mode is not None:
        fake = stack.enter_context(LyingGemini(mode))
        env = {**_NO_PROVIDERS, **fake.env()}
    local = stack.enter_context(local_server(env={**env, **chain_env}))
    label = "local (embedded defaults)" if chaining is None else f"local (embedded defaults, chaining {chaining})"
    return Target(local.url, local.api_key, label, model, fake)


def play(args: argparse.Namespace, tasks: list[str], target: Target) -> list[EpisodeResult]:
    return asyncio.run(
        run_all(
            tasks,
            args.seeds,
            target.url,
            target.api_key,
            max_steps=args.max_steps,
            episode_ms=args.episode_ms,
            quiet=args.quiet,
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.miniwob.run", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tasks",
        type=Path,
        default=DEFAULT_TASKS,
        help="task list (one name per line, # comments)",
    )
    parser.add_argument("--seeds", type=int, default=5, help="seeds per task (0 … N-1)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--server", help="Stepwise base URL (default: start a local one)")
    parser.add_argument("--api-key", default=os.environ.get("STEPWISE_API_KEY"))
    parser.add_argument("--max-steps", type=int, default=20)
    parser.add_argument(
        "--episode-ms",
        type=int,
        default=None,
        help="override each task's episode time limit (default: the task's own, usually 10 000 ms)",
    )
    parser.add_argument(
        "--model",
        choices=MODEL_CHOICES,
        default=None,
        help="the local server's model: none (default), a broken fake (lying, nonsense, invalid), "
        "or env (GEMINI_API_KEY of the environment)",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="run the tasks with no model, then with --model (default lying); "
        "write compare.md and compare.json",
    )
    parser.add_argument(
        "--chaining",
        choices=CHAINING_CHOICES,
        default=None,
        help="the local server's STEPWISE_CHAINING (action chains): on or off (default: the server's default)",
    )
    parser.add_argument(
        "--compare-chaining",
        action="store_true",
        help="run the tasks with chaining on, then off (same seeds, --model or none); write compare.md and compare.json",
    )
    parser.add_argument(
        "--suites",
        action="store_true",
        help="run the groups of bench/miniwob/suites.toml (development, wide tune half, wide held-out half) "
        "and write suites.md / suites.json, the groups side by side",
    )
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)

    if not args.tasks.is_file():
        parser.error(f"no task list at {args.tasks}")
    if args.server and (args.model not in (None, "env") or args.compare):
        parser.error("--model and --compare start their own local server: leave out --server")
    if args.server and (args.chaining or args.compare_chaining):
        parser.error("--chaining and --compare-chaining start their own local server: leave out --server")
    if args.compare and args.compare_chaining:
        parser.error("--compare and --compare-chaining are separate runs: choose one")
    if args.compare_chaining and args.chaining:
        parser.error("--compare-chaining runs both: leave out --chaining")
    if args.compare and args.model in ("none", "env"):
        parser.error("--compare runs no model against a broken one: --model lying|nonsense|invalid")
    tasks = read_tasks(args.tasks)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    if args.suites:
        if args.compare or args.server:
            parser.error("--suites runs its own local server with --model (default none)")
        return suites(args, started, args.model or "none")
    if args.compare_chaining:
        return compare_chaining(args, tasks, started, args.model or "none")
    if args.compare:
        return compare(args, tasks, started, args.model or "lying")
    with contextlib.ExitStack() as stack:
        if args.server:
            if not args.api_key:
                parser.error("--server needs --api-key or STEPWISE_API_KEY")
            target = Target(args.server, args.api_key, args.server, "server")
        else:
            target = start_local(stack, args.model or "none", args.chaining)
        episodes = play(args, tasks, target)
        requests = target.fake.requests if target.fake else None
    meta = _meta(
        args,
        started,
        server=target.label,
        model=target.model,
        model_description=model_description(target.model),
        model_requests=requests,
    )
    paths = write(args.out, episodes, meta)
    print(paths["markdown"].read_text())
    print("Wrote " + ", ".join(str(p) for p in paths.values()), file=sys.stderr)
    return 0


def _meta(args: argparse.Namespace, started: str, **described: Any) -> dict[str, Any]:
    """What a report says about its run: the server and model(s), then the run's settings."""
    return {
        **described,
        "seeds": args.seeds,
        "max_steps": args.max_steps,
        "started": started,
        "episode_limit": f"{args.episode_ms} ms (overridden)" if args.episode_ms else "each task's own",
        "tasks_file": str(args.tasks),
    }


def compare(args: argparse.Namespace, tasks: list[str], started: str, broken: str) -> int:
    """The task list with no model, then with the ``broken`` fake; one report of both."""
    runs: dict[str, list[EpisodeResult]] = {}
    requests: dict[str, dict[str, int]] = {}
    for model in ("none", broken):
        print(f"== model: {model} ==", file=sys.stderr, flush=True)
        with contextlib.ExitStack() as stack:
            target = start_local(stack, model)
            runs[model] = play(args, tasks, target)
            if target.fake is not None:
                requests[model] = target.fake.requests
    meta = _meta(
        args,
        started,
        server="local (embedded defaults)",
        models={model: model_description(model) for model in runs},
        model_requests=requests,
    )
    paths = write_comparison(args.out, runs, meta)
    print(paths["markdown"].read_text())
    print("Wrote " + ", ".join(str(p) for p in paths.values()), file=sys.stderr)
    return 0


def compare_chaining(args: argparse.Namespace, tasks: list[str], started: str, model: str) -> int:
    """The task list with chaining on, then off, on the same seeds; one report of both."""
    runs: dict[str, list[EpisodeResult]] = {}
    for chaining in CHAINING_CHOICES:
        label = f"chaining {chaining}"
        print(f"== {label} ==", file=sys.stderr, flush=True)
        with contextlib.ExitStack() as stack:
            runs[label] = play(args, tasks, start_local(stack, model, chaining))
    meta = _meta(
        args,
        started,
        title="MiniWoB++ — Stepwise with action chaining on / off",
        server="local (embedded defaults)",
        models={
            f"chaining {c}": f"STEPWISE_CHAINING={'true' if c == 'on' else 'false'}, {model_description(model)}"
            for c in CHAINING_CHOICES
        },
    )
    paths = write_comparison(args.out, runs, meta)
    print(paths["markdown"].read_text())
    print("Wrote " + ", ".join(str(p) for p in paths.values()), file=sys.stderr)
    return 0


def suites(args: argparse.Namespace, started: str, model: str) -> int:
    """Every group of suites.toml against one local server; one report, groups side by side."""
    chosen = load_suites()
    runs: dict[str, list[EpisodeResult]] = {}
    with contextlib.ExitStack() as stack:
        target = start_local(stack, model)
        for group in chosen.groups:
            print(f"== {group.name}: {len(group.tasks)} tasks ==", file=sys.stderr, flush=True)
            runs[group.name] = play(args, list(group.tasks), target)
    meta = _meta(args, started, server=target.label, model=model, model_description=model_description(model))
    meta["tasks_file"] = str(SUITES_FILE)
    paths = write_suites(args.out, runs, chosen.out_of_scope, meta)
    print(paths["markdown"].read_text())
    print("Wrote " + ", ".join(str(p) for p in paths.values()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
