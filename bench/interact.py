"""Server-side time per interact step (model time excluded), on SQLite.

Each simulated extension runs the three-page "Add a new patient named Jas" task (4
requests) over and over, in-process through the ASGI app, either with HTML pages padded to
~200 KB or with V3 trees of ~300 elements. Reported: median and p95 of the server time per
step (``metrics.serverMs``) with 1 client, and throughput with 20 concurrent clients.

    .venv/bin/python -m bench.interact [--runs 3] [--tasks 30] [--model none|scripted] [--out bench/results/interact.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
from tests.support.clinic import FORM_URL, LIST_URL, MENU_URL, form_page, list_page, menu_page  # noqa: E402

GOAL = 'Add a new patient named "Jas"'


def _padding(kb: int) -> str:
    rows = []
    n = 0
    while sum(len(r) for r in rows) < kb * 1024:
        rows.append(f'<tr><td class="c">Row {n}</td><td>Lorem ipsum dolor sit amet, consectetur adipiscing {n}</td><td><span>{n * 7}</span></td></tr>')
        n += 1
    return f'<section class="history"><table>{"".join(rows)}</table></section>'


def html_pages(kb: int = 200) -> list[tuple[str, dict[str, Any]]]:
    pad = _padding(kb - 2)
    return [
        (MENU_URL, {"dom": menu_page().replace("</main>", pad + "</main>")}),
        (FORM_URL, {"dom": form_page().replace("</main>", pad + "</main>")}),
        (FORM_URL, {"dom": form_page(name="Jas").replace("</main>", pad + "</main>")}),
        (LIST_URL, {"dom": list_page(saved="Jas").replace("</main>", pad + "</main>")}),
    ]


def v3_pages(nodes: int = 300) -> list[tuple[str, dict[str, Any]]]:
    filler = [{"i": f"f{n}", "r": "link", "n": f"Article {n}", "xy": [10, 40 + n]} for n in range(nodes - 4)]
    menu = [{"i": "1", "r": "link", "n": "Patients"}, {"i": "10", "r": "link", "n": "New patient"}, *filler]
    form = [{"i": "20", "r": "inp", "n": "Name", "v": ""}, {"i": "22", "r": "btn", "n": "Save"}, *filler]
    filled = [{"i": "20", "r": "inp", "n": "Name", "v": "Jas"}, {"i": "22", "r": "btn", "n": "Save"}, *filler]
    saved = [{"i": "30", "r": "link", "n": "New patient"}, *filler]
    return [
        (MENU_URL, {"interactiveTree": menu, "domMode": "semantic_v3"}),
        (FORM_URL, {"interactiveTree": form, "domMode": "semantic_v3"}),
        (FORM_URL, {"interactiveTree": filled, "domMode": "semantic_v3"}),
        (LIST_URL, {"interactiveTree": saved, "domMode": "semantic_v3", "success_messages": ["Patient Jas saved"], "hasSuccess": True}),
    ]


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


async def measure(pages: list[tuple[str, dict[str, Any]]], *, clients: int, tasks_per_client: int, model: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
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


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tasks", type=int, default=25, help="tasks per client")
    parser.add_argument("--model", choices=["none", "scripted"], default="none")
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/interact.json")
    args = parser.parse_args()

    results: dict[str, Any] = {"model": args.model, "cases": []}
    print(f"{'case':<22}{'clients':>8}{'median ms':>11}{'p95 ms':>9}{'steps/s':>9}")
    for name, pages in (("html-200KB", html_pages()), ("v3-300-nodes", v3_pages())):
        for clients, tasks in ((1, args.tasks), (20, max(2, args.tasks // 5))):
            runs = [await measure(pages, clients=clients, tasks_per_client=tasks, model=args.model) for _ in range(args.runs)]
            best = {
                "case": name,
                "clients": clients,
                "median_ms": statistics.median(r["median_ms"] for r in runs),
                "p95_ms": statistics.median(r["p95_ms"] for r in runs),
                "steps_per_s": statistics.median(r["steps_per_s"] for r in runs),
                "runs": runs,
            }
            results["cases"].append(best)
            print(f"{name:<22}{clients:>8}{best['median_ms']:>11}{best['p95_ms']:>9}{best['steps_per_s']:>9}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    print(f"saved {args.out}")


if __name__ == "__main__":
    asyncio.run(main())
