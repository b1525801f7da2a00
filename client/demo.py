"""``make demo``: the bundled clinic app, a local Stepwise on its embedded defaults, and
"Add a new patient named Jas" run to completion in headless Chromium, step by step."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time

from client.demo_site.server import serve_demo_site
from client.run_cli import run_command

DEMO_GOAL = "Add a new patient named Jas"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="stepwise demo", description=__doc__)
    parser.add_argument("--goal", default=DEMO_GOAL)
    parser.add_argument("--headed", action="store_true")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    url, stop = serve_demo_site(0)
    try:
        print(f"Demo clinic app on {url}", file=sys.stderr)
        status = asyncio.run(run_command(args.goal, f"{url}/", headed=args.headed))
    finally:
        stop()
    print(f"Demo {'finished' if status == 0 else 'failed'} in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
