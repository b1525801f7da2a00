"""Throughput of a real Stepwise server process under 20 concurrent clients.

The server runs as `stepwise serve` (SQLite, no model) with N worker processes; the load
comes from this process with request bodies encoded once up front, so the measurement is
the server's work, not the load generator's JSON encoding.

    .venv/bin/python -m bench.interact_load [--workers 2] [--clients 20] [--seconds 10] [--case v3|html]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.interact import GOAL, html_pages, v3_pages  # noqa: E402
from client.local_server import free_port  # noqa: E402


def _encoded(pages: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    return [(url, payload) for url, payload in pages]


async def _client(base: str, key: str, pages: list[tuple[str, dict[str, Any]]], deadline: float, lat: list[float]) -> int:
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    # Everything but the task/session ids is encoded once.
    first_body = json.dumps({"url": pages[0][0], "query": GOAL, **pages[0][1]}).encode()
    later = [json.dumps({"url": url, **payload})[:-1].encode() for url, payload in pages[1:]]
    steps = 0
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            answer = (await client.post("/api/agent/interact", content=first_body, headers=headers)).json()
            lat.append((time.perf_counter() - started) * 1000)
            steps += 1
            ids = f', "taskId": "{answer["taskId"]}", "sessionId": "{answer["sessionId"]}"}}'.encode()
            for body in later:
                started = time.perf_counter()
                response = await client.post("/api/agent/interact", content=body + ids, headers=headers)
                response.raise_for_status()
                lat.append((time.perf_counter() - started) * 1000)
                steps += 1
            if response.json()["status"] != "completed":
                raise RuntimeError("the bench task did not complete")
    return steps


_KEYS_SCRIPT = """
import asyncio, sys
from app.auth import issue_key
from app.settings import Settings
from storage import open_store
async def main(n):
    store = open_store(Settings().database_url)
    await store.init()
    for i in range(n):
        print((await issue_key(store, f"bench-{i}", "user")).secret)
    await store.close()
asyncio.run(main(int(sys.argv[1])))
"""


def _create_keys(env: dict[str, str], count: int) -> list[str]:
    done = subprocess.run([sys.executable, "-c", _KEYS_SCRIPT, str(count)], env=env, capture_output=True, text=True, check=True)
    return done.stdout.split()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--case", choices=["v3", "html"], default="v3")
    args = parser.parse_args()
    pages = v3_pages() if args.case == "v3" else html_pages()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "STEPWISE_DATABASE_URL": f"sqlite:///{tmp}/load.db", "STEPWISE_RATE_LIMIT_PER_MINUTE": "100000000", "STEPWISE_LOG_LEVEL": "WARNING"}
        keys = _create_keys(env, args.clients)
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", str(args.workers)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.2)
            lat: list[float] = []

            async def run() -> int:
                warm = time.perf_counter() + 1.0
                await asyncio.gather(*(_client(base, k, pages, warm, []) for k in keys[:2]))
                deadline = time.perf_counter() + args.seconds
                return sum(await asyncio.gather(*(_client(base, k, pages, deadline, lat) for k in keys)))

            started = time.perf_counter()
            steps = asyncio.run(run())
            wall = time.perf_counter() - started
        finally:
            server.terminate()
            server.wait(timeout=10)
    ordered = sorted(lat)
    print(
        f"{args.case}: workers={args.workers} clients={args.clients} steps={steps} "
        f"steps/s={steps / wall:.1f} median={statistics.median(ordered):.1f} ms p95={ordered[int(0.95 * (len(ordered) - 1))]:.1f} ms (round trip)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
