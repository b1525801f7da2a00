"""Verification parsing/diff benchmark on real-world pages.

    .venv/bin/python bench/verification.py [--runs N] [--pages DIR] [--out bench/results/verification.json]

For every ``*.html`` page in the pages folder (default: ``../shared/bench/pages`` from the
repository root) it measures, as the median over ``--runs`` runs:

a. ``PageState.from_html`` — parse, elements, messages, semantic skeleton, DOM hash, text;
b. ``build_observation_list`` (which runs the skeleton diff) between the page and a
   mutated copy of it (one button's text changed and a toast added);

and the peak memory of (a) under ``tracemalloc`` as a multiple of the page's size in bytes.
Lexbor allocates through Python's raw allocator, so the parsed tree is part of that figure.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import selectolax
from selectolax.lexbor import LexborHTMLParser

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from verification import BeforeState, ClientObservations, PageState, build_observation_list  # noqa: E402

URL = "https://bench.example.com/page"
TOAST = '<div class="toast" role="status">Saved successfully</div>'
MID_RANGE_KB = (60.0, 150.0)  # "~100 KB pages"
LARGE_PAGE = "zz-synthetic-1mb.html"
TARGETS = {"parse_ms_100kb": 3.0, "parse_ms_1mb": 25.0, "diff_ms_100kb": 0.2, "memory_x": 20.0}


def mutate(html: str) -> str:
    """The page after a plausible action: the first button (else link) relabelled, a toast shown."""
    tree = LexborHTMLParser(html, scripting=True)
    target = tree.css_first("button") or tree.css_first("a[href]")
    if target is not None:
        target.inner_html = "Saved"
    body = tree.body
    if body is not None:
        body.insert_child(LexborHTMLParser(TOAST, is_fragment=True).css_first("div"))  # type: ignore[arg-type]
    return tree.html or html


def median_ms(fn: Callable[[], Any], runs: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def peak_memory(fn: Callable[[], Any]) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def measure(path: Path, runs: int) -> dict[str, Any]:
    html = path.read_text(encoding="utf-8", errors="replace")
    size = len(html.encode("utf-8", "surrogatepass"))
    page = PageState.from_html(html, url=URL)
    after = PageState.from_html(mutate(html), url=URL)
    before = BeforeState.from_page(page)
    client = ClientObservations(did_dom_mutate=True, did_network_occur=True)
    observed = build_observation_list(before, after, client)
    return {
        "page": path.name,
        "kb": round(size / 1024, 1),
        "elements": len(page.elements),
        "skeleton_elements": len(page.skeleton["elements"]),
        "parse_ms": round(median_ms(lambda: PageState.from_html(html, url=URL), runs), 3),
        "diff_ms": round(median_ms(lambda: build_observation_list(before, after, client), runs), 4),
        "memory_x": round(peak_memory(lambda: PageState.from_html(html, url=URL)) / size, 1),
        "observations": len(observed.observations),
        "meaningful": observed.meaningful_content_change,
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    mid = [r for r in rows if MID_RANGE_KB[0] <= r["kb"] <= MID_RANGE_KB[1]]
    large = [r for r in rows if r["page"] == LARGE_PAGE]

    def med(items: list[dict[str, Any]], key: str) -> float | None:
        return round(statistics.median(r[key] for r in items), 4) if items else None

    summary: dict[str, Any] = {
        "pages": len(rows),
        "mid_range_kb": list(MID_RANGE_KB),
        "mid_range_pages": [r["page"] for r in mid],
        "parse_ms_100kb": med(mid, "parse_ms"),
        "diff_ms_100kb": med(mid, "diff_ms"),
        "memory_x_100kb": med(mid, "memory_x"),
        "parse_ms_1mb": med(large, "parse_ms"),
        "diff_ms_1mb": med(large, "diff_ms"),
        "memory_x_1mb": med(large, "memory_x"),
        "parse_ms_all": med(rows, "parse_ms"),
        "memory_x_all": med(rows, "memory_x"),
    }
    checks: dict[str, float | None] = {
        "parse_ms_100kb": summary["parse_ms_100kb"],
        "parse_ms_1mb": summary["parse_ms_1mb"],
        "diff_ms_100kb": summary["diff_ms_100kb"],
        "memory_x": max(
            v for v in (summary["memory_x_100kb"], summary["memory_x_1mb"]) if v is not None
        ),
    }
    summary["targets"] = {
        name: {
            "target": TARGETS[name],
            "measured": value,
            "met": value is not None and value <= TARGETS[name],
        }
        for name, value in checks.items()
    }
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--runs", type=int, default=15, help="timed runs per page (median is reported)"
    )
    parser.add_argument("--pages", type=Path, default=ROOT.parent / "shared" / "bench" / "pages")
    parser.add_argument(
        "--out", type=Path, default=ROOT / "bench" / "results" / "verification.json"
    )
    args = parser.parse_args(argv)
    paths = sorted(args.pages.glob("*.html"))
    if not paths:
        print(f"no *.html pages in {args.pages}", file=sys.stderr)
        return 2

    rows = []
    print(f"{'page':32} {'KB':>7} {'elements':>8} {'ms a':>7} {'ms b':>7} {'mem×':>6}")
    for path in paths:
        row = measure(path, args.runs)
        rows.append(row)
        print(
            f"{row['page']:32} {row['kb']:7.1f} {row['elements']:8d} {row['parse_ms']:7.2f} "
            f"{row['diff_ms']:7.3f} {row['memory_x']:6.1f}"
        )
    summary = summarise(rows)
    print()
    print(
        f"~100 KB pages ({len(summary['mid_range_pages'])}, {MID_RANGE_KB[0]:.0f}–{MID_RANGE_KB[1]:.0f} KB), median:"
    )
    print(
        f"  a) PageState.from_html  {summary['parse_ms_100kb']} ms   b) diff + observations  "
        f"{summary['diff_ms_100kb']} ms   memory {summary['memory_x_100kb']}×"
    )
    print(f"1 MB synthetic page ({LARGE_PAGE}):")
    print(
        f"  a) PageState.from_html  {summary['parse_ms_1mb']} ms   b) diff + observations  "
        f"{summary['diff_ms_1mb']} ms   memory {summary['memory_x_1mb']}×"
    )
    for name, check in summary["targets"].items():
        status = "met" if check["met"] else "MISSED"
        print(f"  target {name:15} <= {check['target']:<6} measured {check['measured']}  {status}")

    result = {
        "environment": {
            "python": platform.python_version(),
            "selectolax": selectolax.__version__,
            "machine": platform.machine(),
            "cpus": __import__("os").cpu_count(),
            "runs": args.runs,
        },
        "summary": summary,
        "pages": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nsaved {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
