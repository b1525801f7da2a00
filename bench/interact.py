"""Server-side time per interact step (model time excluded), on SQLite.

A simulated extension runs the three-page "Add a new patient named Jas" task (4 requests)
over and over, either with HTML pages padded to ~200 KB or with V3 trees of ~300 elements.
Reported: median and p95 of the server time per step (``metrics.serverMs``) for one client,
in process through the ASGI app; then steps per second for 20 concurrent clients against a
real ``stepwise serve`` process (see :mod:`bench.interact_load`).

    .venv/bin/python -m bench.interact [--runs 3] [--tasks 25] [--model none|scripted] [--workers N] [--knowledge-chunks 50000] [--out bench/results/interact.json]

With ``--knowledge-chunks N`` each case is measured again with N chunks in the client's
tenant (a fifth on the pages' site): the retrieval every request runs, against an empty one.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.auth import issue_key  # noqa: E402
from app.main import create_app  # noqa: E402
from app.serving import tune_gc  # noqa: E402
from app.settings import Settings  # noqa: E402
from bench import interact_load  # noqa: E402
from bench import knowledge_retrieval_speed as knowledge_speed  # noqa: E402
from bench.interact_pages import GOAL, html_pages, v3_pages  # noqa: E402
from knowledge.embeddings import HashingEmbedder  # noqa: E402
from storage import SqliteStore  # noqa: E402


async def _task(client: httpx.AsyncClient, headers: dict[str, str], pages: list[tuple[str, dict[str, Any]]], server_ms: list[float]) -> int:
    ids: dict[str, str] = {}
    steps = 0
    for url, payload in pages:
        body = {"url": url, **payload, **ids}
        if not ids:
            body["query"] = GOAL
        response = await client.post("/api/agent/interact", json=body, headers=headers)
        response.raise_for_status()
        answer = response.json()
        server_ms.append(answer["metrics"]["serverMs"])
        ids = {"taskId": answer["taskId"], "sessionId": answer["sessionId"]}
        steps += 1
    if answer["status"] != "completed":
        raise RuntimeError(f"the bench task did not complete: {answer['status']} {answer['action']}")
    return steps


_TEMPLATES: dict[int, Path] = {}  # chunks -> a filled database, copied for each run


async def _knowledge_template(chunks: int) -> Path:
    """A database holding ``chunks`` chunks for tenant bench-0, built once per process (and
    removed at its end)."""
    if chunks not in _TEMPLATES:
        root = Path(tempfile.mkdtemp(prefix="stepwise-bench-kb-"))
        atexit.register(shutil.rmtree, root, True)
        path = root / f"kb-{chunks}.db"
        store = SqliteStore.from_url(f"sqlite:///{path}")
        await store.init()
        try:
            await _fill_knowledge(store, "bench-0", chunks)
        finally:
            await store.close()
        _TEMPLATES[chunks] = path
    return _TEMPLATES[chunks]


async def _fill_knowledge(store: Any, tenant_id: str, chunks: int) -> None:
    """``chunks`` chunks for the client's tenant, a fifth of them on the bench pages' site, the
    rest on four other sites and tenant-wide (see bench/knowledge_retrieval_speed.py). Every
    chunk also carries one to three of the goal's words, so each request's BM25 ranks
    thousands of matching chunks: the costly case, not a search that finds nothing."""
    corpus = knowledge_speed.Corpus()
    sites = ["clinic.example", *knowledge_speed.DOMAINS[:4]]
    salt = ["add", "new", "patient", "patients", "named", "record", "form"]
    await knowledge_speed.fill(store, corpus, tenant_id, chunks, HashingEmbedder(dimension=8), sites, salt)


async def measure(
    pages: list[tuple[str, dict[str, Any]]], *, clients: int, tasks_per_client: int, model: str, knowledge_chunks: int = 0
) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        if knowledge_chunks:
            shutil.copyfile(await _knowledge_template(knowledge_chunks), f"{tmp}/bench.db")
        settings = Settings(env="test", database_url=f"sqlite:///{tmp}/bench.db", rate_limit_per_minute=10**9, log_level="WARNING")
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            tune_gc()  # as `stepwise serve` does once the app has started
            if model == "scripted":
                from tests.integration.api.test_scenarios import _model

                app.state.agent_deps.gateway = _model()
            store = app.state.store
            keys = [(await issue_key(store, f"bench-{n}", f"user-{n}")).secret for n in range(clients)]
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                await _task(client, {"Authorization": f"Bearer {keys[0]}"}, pages, [])  # warm-up
                server_ms: list[float] = []

                async def run_client(key: str) -> int:
                    return sum([await _task(client, {"Authorization": f"Bearer {key}"}, pages, server_ms) for _ in range(tasks_per_client)])

                started = time.perf_counter()
                steps = sum(await asyncio.gather(*(run_client(k) for k in keys)))
                wall = time.perf_counter() - started
    ordered = sorted(server_ms)
    return {
        "clients": clients,
        "steps": steps,
        "median_ms": round(statistics.median(ordered), 2),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
        "steps_per_s": round(steps / wall, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tasks", type=int, default=25, help="tasks of the single client per run")
    parser.add_argument("--model", choices=["none", "scripted"], default="none")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="server workers for the 20-client runs")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of one 20-client window")
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/interact.json")
    parser.add_argument(
        "--knowledge-chunks",
        type=int,
        default=0,
        help="also measure each case with this many knowledge chunks in the client's tenant (e.g. 50000)",
    )
    args = parser.parse_args()

    results: dict[str, Any] = {"model": args.model, "cases": []}
    print(f"{'case':<24}{'median ms':>10}{'p95 ms':>8}   (1 client, server time per step)")
    cases = [("html-200KB", html_pages(), 0), ("v3-300-nodes", v3_pages(), 0)]
    if args.knowledge_chunks:  # each case again, in the same run, with a knowledge base behind it
        cases += [(f"{name}+kb{args.knowledge_chunks // 1000}k", pages, args.knowledge_chunks) for name, pages, _ in cases]
    for name, pages, chunks in cases:
        runs = [
            asyncio.run(measure(pages, clients=1, tasks_per_client=args.tasks, model=args.model, knowledge_chunks=chunks))
            for _ in range(args.runs)
        ]
        case = {
            "case": name,
            "clients": 1,
            "median_ms": statistics.median(r["median_ms"] for r in runs),
            "p95_ms": statistics.median(r["p95_ms"] for r in runs),
            "runs": runs,
        }
        results["cases"].append(case)
        print(f"{name:<24}{case['median_ms']:>10}{case['p95_ms']:>8}")
    if args.model == "none":  # the server process has no scripted model to swap in
        print(f"{'case':<16}{'steps/s':>10}   (20 clients, `stepwise serve --workers {args.workers}`, per window)")
        for name, key in (("html-200KB", "html"), ("v3-300-nodes", "v3")):
            load = interact_load.measure(key, workers=args.workers, clients=20, seconds=args.seconds, runs=args.runs)
            results["cases"].append({**load, "case": name})
            each = ", ".join(str(w["steps_per_s"]) for w in load["runs"])
            print(f"{name:<16}{load['steps_per_s']:>10}   ({each})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
