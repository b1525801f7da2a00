"""``python -m bench.audit [--only NAME …] [--out FILE]``: the hardening audit's figures, re-run."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.audit import checks, crash, fuzz, hostile

AUDITS: dict[str, Callable[[], Any]] = {
    "nesting": hostile.deep_nesting,
    "heavy_pages": hostile.heavy_pages,
    "silent_clients": hostile.silent_clients,
    "isolation": checks.isolation,
    "race_1_worker": lambda: checks.race(workers=1),
    "race_2_workers": lambda: checks.race(workers=2),
    "shared_rate_limit": checks.shared_rate_limit,
    "kill_cycles": crash.kill_cycles,
    "schemathesis": fuzz.schemathesis,
}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.audit", description=__doc__)
    parser.add_argument("--only", nargs="*", choices=sorted(AUDITS), help="Run only these audits")
    parser.add_argument("--out", type=Path, default=Path("bench/results/audit.json"))
    args = parser.parse_args()
    results: dict[str, Any] = {}
    for name in args.only or list(AUDITS):
        started = time.monotonic()
        results[name] = AUDITS[name]()
        print(f"{name} ({time.monotonic() - started:.0f} s): {json.dumps(results[name])}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
