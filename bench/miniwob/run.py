"""MiniWoB++ benchmark: ``.venv/bin/python -m bench.miniwob.run [--tasks FILE] [--seeds N]
[--out DIR] [--server URL]``.

Serves the ``miniwob`` package's html folder on 127.0.0.1, plays each task and seed with the
reference client against Stepwise (a local server on the embedded defaults unless
``--server`` is given; then the key is ``--api-key`` or ``$STEPWISE_API_KEY``) and writes
results.json, results.md and results.png to ``--out``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from bench.miniwob.env import serve_html
from bench.miniwob.harness import EpisodeResult, run_episode
from bench.miniwob.report import write
from client import StepwiseClient, launch_browser
from client.local_server import local_server

REPO = Path(__file__).resolve().parents[2]
DEFAULT_TASKS = REPO.parent / "shared" / "bench" / "miniwob-dev.txt"
DEFAULT_OUT = REPO / "bench" / "results" / "miniwob"


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
    parser.add_argument("--max-steps", type=int, default=10)
    parser.add_argument(
        "--episode-ms",
        type=int,
        default=None,
        help="override each task's episode time limit (default: the task's own, usually 10 000 ms)",
    )
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)

    if not args.tasks.is_file():
        parser.error(f"no task list at {args.tasks}")
    tasks = read_tasks(args.tasks)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    with contextlib.ExitStack() as stack:
        if args.server:
            if not args.api_key:
                parser.error("--server needs --api-key or STEPWISE_API_KEY")
            server, key, label = args.server, args.api_key, args.server
        else:
            local = stack.enter_context(local_server())
            server, key, label = local.url, local.api_key, "local (embedded defaults)"
        episodes = asyncio.run(
            run_all(
                tasks,
                args.seeds,
                server,
                key,
                max_steps=args.max_steps,
                episode_ms=args.episode_ms,
                quiet=args.quiet,
            )
        )
    meta = {
        "server": label,
        "seeds": args.seeds,
        "max_steps": args.max_steps,
        "started": started,
        "episode_limit": f"{args.episode_ms} ms (overridden)"
        if args.episode_ms
        else "each task's own",
        "tasks_file": str(args.tasks),
    }
    paths = write(args.out, episodes, meta)
    print(paths["markdown"].read_text())
    print("Wrote " + ", ".join(str(p) for p in paths.values()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
