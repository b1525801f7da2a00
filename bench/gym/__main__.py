"""The gym of realistic sites (bench/sites/README.md).

    python -m bench.gym check bench/sites/bank [more sites…] [--goal ID …]
    python -m bench.gym run bench/sites/* [--models none,oracle,noisy,lying] [--split tune|heldout|all]
    python -m bench.gym report OUTCOMES.json [more…] [--out DIR]   # tables and chart of earlier runs, together
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bench.gym.spec import SiteFormatError, load_site


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.gym", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="replay every human solution and compare the site's log with its expected events")
    check.add_argument("sites", nargs="+", type=Path)
    check.add_argument("--goal", action="append", default=None, help="only this goal id (repeatable)")
    run = commands.add_parser("run", help="every goal x every model through a real Stepwise server")
    run.add_argument("sites", nargs="+", type=Path)
    run.add_argument("--models", default="none,oracle,noisy,lying")
    run.add_argument("--split", choices=("tune", "heldout", "all"), default="all")
    run.add_argument("--goal", action="append", default=None, help="only this goal id (repeatable)")
    run.add_argument("--seed", type=int, default=0, help="the noisy model's seed")
    run.add_argument("--max-steps", type=int, default=25)
    run.add_argument("--jobs", type=int, default=3, help="goals run side by side (each in its own browser context)")
    run.add_argument("--out", type=Path, default=Path("bench/results/gym"))
    report = commands.add_parser("report", help="the tables and the chart of runs' outcomes.json files, together")
    report.add_argument("outcomes", nargs="+", type=Path)
    report.add_argument("--out", type=Path, default=Path("bench/results/gym"))
    args = parser.parse_args(argv)
    if args.command == "report":
        from bench.gym.run import report_files

        return report_files(args.outcomes, args.out)
    try:
        sites = [load_site(folder) for folder in args.sites]
    except SiteFormatError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.command == "check":
        from bench.gym.check import check_site, report

        failed = 0
        for site in sites:
            results = asyncio.run(check_site(site, only=set(args.goal) if args.goal else None))
            print(report(site, results), flush=True)
            failed += sum(not r.ok for r in results)
        return 1 if failed else 0
    from bench.gym.run import main as run_main

    return run_main(sites, args)


if __name__ == "__main__":
    sys.exit(main())
