"""Retrieval quality, isolation, freshness and ingestion speed of the knowledge base.

    python -m bench.knowledge_quality [--pages 300] [--json out.json]

1. **Quality**: the fixture knowledge base (bench/knowledge_corpus/) is ingested through
   ``Ingestor`` into a temporary SQLite store (tenant and domains from manifest.json); every
   question runs through ``Retriever.retrieve`` (limit 10) with its tenant and domains.
   Recall@5 and MRR@10 per split (tune = first half by id, holdout = the rest), per format
   and per tag; a hit is a chunk of the question's gold source containing ``answer_contains``.
   Run lexical only and with the deterministic hashing embedder (dense + RRF).
2. **Isolation**: every returned chunk of another tenant, or with domains outside the
   question's allowed domains, is a leak (must be 0); isolation questions must not return
   their forbidden source at all.
3. **Freshness**: 36 phase-1/phase-2 page pairs (bench/knowledge_corpus/freshness.py):
   phase 1 ingested, then ``ingest_interaction``; the fresh chunk must be returned and its
   superseded twin never.
4. **Throughput**: HTML pages served on 127.0.0.1, fetched with plain httpx (the SSRF-safe
   fetcher is another branch) and ingested, 4 at a time; pages/s and median ms per stage.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import structlog

from bench.knowledge_corpus.freshness import DOMAIN as FRESH_DOMAIN
from bench.knowledge_corpus.freshness import pairs as freshness_pairs
from knowledge.embeddings import Embedder, HashingEmbedder
from knowledge.ingest import Ingestor
from knowledge import retrieve as retrieve_module
from knowledge.retrieve import RetrievedChunk, Retriever
from storage import SqliteStore

CORPUS = Path(__file__).resolve().parent / "knowledge_corpus"
FORMATS = {".html": "html", ".md": "markdown", ".txt": "txt", ".json": "json", ".csv": "csv",
           ".pdf": "pdf", ".docx": "docx"}


# -- metrics (pure; tests/unit/bench/test_knowledge_quality.py) ------------------------


def first_hit(ranked: Sequence[bool]) -> int | None:
    """1-based rank of the first relevant result, or None."""
    return next((i for i, relevant in enumerate(ranked, start=1) if relevant), None)


def recall_at(ranks: Sequence[int | None], k: int) -> float:
    """Share of questions whose first relevant result is within the top ``k``."""
    return sum(1 for r in ranks if r is not None and r <= k) / len(ranks) if ranks else 0.0


def mrr_at(ranks: Sequence[int | None], k: int) -> float:
    """Mean reciprocal rank, counting only ranks ≤ ``k``."""
    return sum(1.0 / r for r in ranks if r is not None and r <= k) / len(ranks) if ranks else 0.0


def contains(text: str, needle: str) -> bool:
    """Whitespace- and case-insensitive substring (PDF text wraps lines anywhere)."""
    return " ".join(needle.split()).lower() in " ".join(text.split()).lower()


# -- corpus --------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    tenant: str
    domains: list[str] | None
    answer_contains: str | None
    source: str | None
    forbidden_source: str | None
    tags: list[str]


@dataclass(frozen=True)
class DocMeta:
    tenant: str
    domains: list[str]
    format: str


def load_manifest() -> list[dict[str, Any]]:
    return list(json.loads((CORPUS / "manifest.json").read_text())["documents"])


def load_questions() -> list[Question]:
    rows = [json.loads(line) for line in (CORPUS / "questions.jsonl").read_text().splitlines() if line]
    return [
        Question(
            id=r["id"], question=r["question"], tenant=r["tenant"], domains=r["domains"],
            answer_contains=r.get("answer_contains"), source=r.get("source"),
            forbidden_source=r.get("forbidden_source"), tags=r.get("tags", []),
        )
        for r in sorted(rows, key=lambda r: r["id"])
    ]


def split_of(questions: Sequence[Question]) -> dict[str, str]:
    """tune = the first half by id, holdout = the rest."""
    half = (len(questions) + 1) // 2
    return {q.id: ("tune" if i < half else "holdout") for i, q in enumerate(questions)}


async def ingest_corpus(ingestor: Ingestor) -> tuple[dict[str, DocMeta], dict[str, str]]:
    """Ingest every manifest document; returns document id → meta, and source → format."""
    docs: dict[str, DocMeta] = {}
    formats: dict[str, str] = {}
    for entry in load_manifest():
        path = CORPUS / entry["file"]
        outcome = await ingestor.ingest_bytes(
            tenant_id=entry["tenant"], data=path.read_bytes(), source=entry["source"],
            source_kind=entry["source_kind"], filename=path.name, domains=entry["domains"],
        )
        fmt = FORMATS[path.suffix]
        docs[outcome.document_id] = DocMeta(entry["tenant"], entry["domains"], fmt)
        formats[entry["source"]] = fmt
    return docs, formats


def leaks(q: Question, chunks: Sequence[RetrievedChunk], docs: dict[str, DocMeta]) -> tuple[int, int]:
    """(chunks of another tenant, chunks outside the allowed domains)."""
    tenant = domain = 0
    for chunk in chunks:
        meta = docs.get(chunk.document_id)
        if meta is None or meta.tenant != q.tenant:
            tenant += 1
        elif q.domains is not None and meta.domains and not set(meta.domains) & set(q.domains):
            domain += 1
    return tenant, domain


async def run_quality(embedder: Embedder | None, tmp: Path) -> dict[str, Any]:
    store = SqliteStore.from_url(f"sqlite:///{tmp}/quality-{embedder is not None}.db")
    await store.init()
    try:
        docs, formats = await ingest_corpus(Ingestor(store.knowledge, embedder))
        retriever = Retriever(store.knowledge, embedder, limit=10)
        questions = load_questions()
        splits = split_of(questions)
        ranks: dict[str, list[int | None]] = defaultdict(list)
        tenant_leaks = domain_leaks = forbidden = 0
        misses: list[str] = []
        for q in questions:
            result = await retriever.retrieve(tenant_id=q.tenant, query=q.question, allowed_domains=q.domains)
            t, d = leaks(q, result.chunks, docs)
            tenant_leaks, domain_leaks = tenant_leaks + t, domain_leaks + d
            if q.answer_contains is None:
                forbidden += sum(1 for c in result.chunks if c.source == q.forbidden_source)
                continue
            answer = q.answer_contains
            rank = first_hit([c.source == q.source and contains(c.text, answer) for c in result.chunks])
            for group in ("all", splits[q.id], f"format:{formats[q.source or '']}", *(f"tag:{t}" for t in q.tags)):
                ranks[group].append(rank)
            if rank is None or rank > 5:
                misses.append(f"{q.id} [{splits[q.id]}] rank={rank} {q.question!r} → {answer!r}")
        return {
            "groups": {g: {"n": len(r), "recall@5": recall_at(r, 5), "mrr@10": mrr_at(r, 10)} for g, r in ranks.items()},
            "tenant_leaks": tenant_leaks, "domain_leaks": domain_leaks, "forbidden_hits": forbidden,
            "isolation_questions": sum(1 for q in questions if q.answer_contains is None),
            "misses": misses,
        }
    finally:
        await store.close()


async def run_freshness(embedder: Embedder | None, tmp: Path) -> dict[str, Any]:
    store = SqliteStore.from_url(f"sqlite:///{tmp}/freshness-{embedder is not None}.db")
    await store.init()
    try:
        ingestor = Ingestor(store.knowledge, embedder)
        retriever = Retriever(store.knowledge, embedder, limit=5)
        cases = freshness_pairs()
        for pair in cases:
            await ingestor.ingest_bytes(tenant_id="fresh", data=pair.phase1_html.encode(), source=pair.url,
                                        source_kind="url", domains=[FRESH_DOMAIN])
            await ingestor.ingest_interaction(tenant_id="fresh", url=pair.url, html=pair.phase2_html,
                                              trigger_action=pair.trigger_action)
        fresh_first = stale_seen = 0
        failures: list[str] = []
        for pair in cases:
            result = await retriever.retrieve(tenant_id="fresh", query=pair.query, allowed_domains=[FRESH_DOMAIN])
            own = [c for c in result.chunks if c.source == pair.url]
            fresh = first_hit([contains(c.text, pair.fresh) for c in own])
            stale = first_hit([contains(c.text, pair.stale) for c in own])
            stale_seen += stale is not None
            ok = fresh is not None and (stale is None or fresh < stale)
            fresh_first += ok
            if not ok or stale is not None:
                failures.append(f"{pair.layout} {pair.url}: fresh={fresh} stale={stale}")
        return {"pairs": len(cases), "fresh_outranks": fresh_first, "stale_returned": stale_seen,
                "failures": failures}
    finally:
        await store.close()


# -- throughput ----------------------------------------------------------------------


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 — stdlib signature
        return


@contextmanager
def serve_directory(root: Path) -> Iterator[str]:
    """A static site on 127.0.0.1 (random port) for as long as the block runs."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def write_site(root: Path, pages: int) -> list[str]:
    """``pages`` distinct HTML pages made from the corpus's HTML layouts."""
    templates = [p.read_text() for p in sorted((CORPUS / "docs").glob("*.html"))]
    names = []
    for i in range(pages):
        html = templates[i % len(templates)].replace(
            "</h1>", f"</h1><p>Revision {i}: this copy of the page is number {i} of the site.</p>", 1
        )
        name = f"page-{i:04d}.html"
        (root / name).write_text(html)
        names.append(name)
    return names


async def run_throughput(tmp: Path, pages: int, concurrency: int = 4) -> dict[str, Any]:
    site = tmp / "site"
    site.mkdir()
    names = write_site(site, pages)
    store = SqliteStore.from_url(f"sqlite:///{tmp}/speed.db")
    await store.init()
    stages: dict[str, list[float]] = defaultdict(list)
    gate = asyncio.Semaphore(concurrency)
    try:
        ingestor = Ingestor(store.knowledge)
        with serve_directory(site) as base:
            async with httpx.AsyncClient(base_url=base) as client:

                async def one(name: str) -> None:
                    async with gate:
                        started = time.perf_counter()
                        response = await client.get(f"/{name}")
                        response.raise_for_status()
                        stages["fetch"].append((time.perf_counter() - started) * 1000)
                        outcome = await ingestor.ingest_bytes(
                            tenant_id="speed", data=response.content, source=f"https://speed.test/{name}",
                            source_kind="url", media_type="text/html", domains=["speed.test"],
                        )
                        for stage, ms in outcome.timings_ms.items():
                            stages[stage].append(ms)
                        stages["total"].append((time.perf_counter() - started) * 1000)

                started = time.perf_counter()
                await asyncio.gather(*(one(n) for n in names))
                elapsed = time.perf_counter() - started
        return {"pages": pages, "concurrency": concurrency, "seconds": elapsed, "pages_per_s": pages / elapsed,
                "median_ms": {k: statistics.median(v) for k, v in stages.items() if k != "embed"}}
    finally:
        await store.close()


# -- report --------------------------------------------------------------------------


def _print_quality(name: str, result: dict[str, Any]) -> None:
    print(f"\n## Retrieval quality — {name}")
    print(f"{'group':<20} {'n':>4} {'Recall@5':>9} {'MRR@10':>7}")
    for group in sorted(result["groups"], key=lambda g: (g != "all", g.split(":")[0], g)):
        g = result["groups"][group]
        print(f"{group:<20} {g['n']:>4} {g['recall@5']:>9.3f} {g['mrr@10']:>7.3f}")
    print(f"isolation: {result['isolation_questions']} questions; tenant leaks {result['tenant_leaks']}, "
          f"domain leaks {result['domain_leaks']}, forbidden-source hits {result['forbidden_hits']}")
    for miss in result["misses"]:
        print(f"  miss {miss}")


async def main_async(pages: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        report = {
            "lexical": await run_quality(None, tmp),
            "hybrid_hashing": await run_quality(HashingEmbedder(256), tmp),
            "freshness": await run_freshness(None, tmp),
            "freshness_hybrid": await run_freshness(HashingEmbedder(256), tmp),
            "throughput": await run_throughput(tmp, pages),
        }
    _print_quality("lexical only", report["lexical"])
    _print_quality("lexical + hashing embedder (RRF)", report["hybrid_hashing"])
    for key, name in (("freshness", "lexical"), ("freshness_hybrid", "lexical + hashing embedder")):
        fresh = report[key]
        print(f"\n## Freshness ({name}): {fresh['fresh_outranks']}/{fresh['pairs']} pairs fresh first; "
              f"superseded returned {fresh['stale_returned']} times")
        for failure in fresh["failures"]:
            print(f"  {failure}")
    speed = report["throughput"]
    medians = ", ".join(f"{k} {v:.1f}" for k, v in speed["median_ms"].items())
    print(f"\n## Ingestion: {speed['pages']} HTML pages from 127.0.0.1 (httpx, {speed['concurrency']} at a time) "
          f"in {speed['seconds']:.2f}s = {speed['pages_per_s']:.1f} pages/s; median ms: {medians}")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=300, help="HTML pages for the throughput run")
    parser.add_argument("--json", type=Path, help="also write the report here")
    parser.add_argument("--hidden-factor", type=float,
                        help="what-if: override knowledge.retrieve.HIDDEN_FACTOR (the hidden down-rank)")
    args = parser.parse_args()
    if args.hidden_factor is not None:
        retrieve_module.HIDDEN_FACTOR = args.hidden_factor
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    report = asyncio.run(main_async(args.pages))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
