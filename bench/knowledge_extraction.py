"""Main-content extraction quality of knowledge ingestion, on the article-extraction benchmark.

    .venv/bin/python -m bench.knowledge_extraction [--data DIR] [--limit N] [--out FILE]

Runs ``knowledge.extract.extract_article_text`` — the same pre-pass, trafilatura and
markdown path that ingestion uses, then markdown → plain text — over every page of
``../shared/bench/article-extraction`` (Zyte's benchmark: ``html/*.html.gz`` and
``ground-truth.json``), and scores it with that benchmark's own ``evaluate.py`` (token
4-gram shingle F1, precision, recall; accuracy = exact token match). Pages are sorted by
id; the first half is the one extraction was tuned on, the second half is held out, and
both are reported beside the whole set and the published figures. Also prints the median
milliseconds per page; ``--compare`` runs plain trafilatura too, on the same machine.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import trafilatura

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from knowledge.extract import extract_article_text  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "bench" / "article-extraction"
PUBLISHED_F1 = {
    "trafilatura 2.0.0": 0.958,
    "Readability.js 0.6.0": 0.947,
    "readability-lxml 0.8.4.1": 0.922,
    "html2text 2025.4.15": 0.662,
}
TARGET_F1 = 0.95


@dataclass(frozen=True)
class Run:
    """Predicted article bodies and the time each page took, by page id."""

    predictions: dict[str, dict[str, str]]
    milliseconds: dict[str, float]


def load_scorer(data: Path) -> ModuleType:
    """The benchmark's own evaluate.py, so the figures are comparable with the published ones."""
    spec = importlib.util.spec_from_file_location("article_evaluate", data / "evaluate.py")
    if spec is None or spec.loader is None:
        raise FileNotFoundError(data / "evaluate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_ground_truth(data: Path) -> dict[str, dict[str, str]]:
    return json.loads((data / "ground-truth.json").read_text(encoding="utf-8"))


def page_html(data: Path, page_id: str) -> str:
    """The page as text; the benchmark's pages are stored UTF-8 encoded."""
    raw = gzip.decompress((data / "html" / f"{page_id}.html.gz").read_bytes())
    return raw.decode("utf-8", errors="replace")


Extractor = Callable[[str, str | None], str]


def plain_trafilatura(html: str, url: str | None) -> str:
    """trafilatura alone (plain text, no pre-pass): the reference measured on this machine."""
    return trafilatura.extract(html, url=url, include_comments=False) or ""


def run(
    data: Path,
    truth: dict[str, dict[str, str]],
    page_ids: list[str],
    extractor: Extractor = extract_article_text,
) -> Run:
    predictions: dict[str, dict[str, str]] = {}
    milliseconds: dict[str, float] = {}
    for page_id in page_ids:
        html = page_html(data, page_id)
        started = time.perf_counter()
        body = extractor(html, truth[page_id].get("url"))
        milliseconds[page_id] = (time.perf_counter() - started) * 1000
        predictions[page_id] = {"articleBody": body}
    return Run(predictions, milliseconds)


def score(
    scorer: ModuleType,
    truth: dict[str, dict[str, str]],
    predictions: dict[str, dict[str, str]],
    page_ids: list[str],
    *,
    n_bootstrap: int = 200,
) -> dict[str, float]:
    """F1/precision/recall/accuracy (with bootstrap std) over ``page_ids``."""
    metrics = scorer.evaluate(
        {page_id: truth[page_id] for page_id in page_ids},
        {page_id: predictions[page_id] for page_id in page_ids},
        n_bootstrap,
    )
    return {key: float(value) for key, value in metrics.items() if key != "tp_fp_fns"}


def halves(page_ids: list[str]) -> dict[str, list[str]]:
    ordered = sorted(page_ids)
    middle = len(ordered) // 2
    return {"tune (1st half)": ordered[:middle], "held out (2nd half)": ordered[middle:],
            "all": ordered}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--limit", type=int, default=0, help="only the first N pages (by id)")
    parser.add_argument("--n-bootstrap", type=int, default=200)
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    parser.add_argument(
        "--compare", action="store_true",
        help="also run plain trafilatura on this machine (F1 and ms/page side by side)",
    )
    args = parser.parse_args(argv)

    truth = load_ground_truth(args.data)
    page_ids = sorted(truth)[: args.limit or None]
    scorer = load_scorer(args.data)
    result = run(args.data, truth, page_ids)
    report: dict[str, object] = {"pages": len(page_ids)}
    print(f"{'':<22} {'pages':>5}  {'F1':<13}  {'precision':<13}  {'recall':<13}  {'accuracy':<13}")
    for name, ids in halves(page_ids).items():
        metrics = score(scorer, truth, result.predictions, ids, n_bootstrap=args.n_bootstrap)
        report[name] = metrics
        print(f"{name:<22} {len(ids):>5}  " + "  ".join(
            f"{metrics[key]:.3f} ± {metrics[key + '_std']:.3f}"
            for key in ("f1", "precision", "recall", "accuracy")
        ))
    for name, f1 in PUBLISHED_F1.items():
        print(f"  published {name:<28} F1 {f1:.3f}")
    median = statistics.median(result.milliseconds.values())
    report["median_ms_per_page"] = median
    print(f"median {median:.1f} ms/page (target F1 ≥ {TARGET_F1})")
    if args.compare:
        reference = run(args.data, truth, page_ids, plain_trafilatura)
        metrics = score(
            scorer, truth, reference.predictions, page_ids, n_bootstrap=args.n_bootstrap
        )
        reference_ms = statistics.median(reference.milliseconds.values())
        report["plain_trafilatura"] = {**metrics, "median_ms_per_page": reference_ms}
        print(f"plain trafilatura {trafilatura.__version__} here: F1 {metrics['f1']:.3f}, "
              f"median {reference_ms:.1f} ms/page")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
