"""Throughput of a real Stepwise server process under 20 concurrent clients.

The server runs as `stepwise serve` (SQLite, no model) with N worker processes; the load
comes from this process with request bodies encoded once up front, so the measurement is
the server's work, not the load generator's JSON encoding.

    .venv/bin/python -m bench.interact_load [--workers 2] [--clients 20] [--seconds 8] [--runs 3] [--case v3|html|both]
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
import uvloop

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.http_load import Connection, Response  # noqa: E402
from bench.interact_pages import GOAL, html_pages, v3_pages  # noqa: E402
from client.local_server import free_port  # noqa: E402


async def _client(base: str, key: str, pages: list[tuple[str, dict[str, Any]]], deadline: float, lat: list[float]) -> int:
    """One simulated extension: the bench task again and again on one keep-alive connection."""
    connection = await Connection.open(base)
    head = connection.head("POST", "/api/agent/interact", {"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    # Everything but the task/session ids is encoded once.
    first_body = json.dumps({"url": pages[0][0], "query": GOAL, **pages[0][1]}).encode()
    later = [json.dumps({"url": url, **payload})[:-1].encode() for url, payload in pages[1:]]
    steps = 0
    try:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            answer = _ok(await connection.send(head, first_body))
            lat.append((time.perf_counter() - started) * 1000)
            steps += 1
            ids = f', "taskId": "{answer["taskId"]}", "sessionId": "{answer["sessionId"]}"}}'.encode()
            for body in later:
                started = time.perf_counter()
                answer = _ok(await connection.send(head, body + ids))
                lat.append((time.perf_counter() - started) * 1000)
                steps += 1
            if answer["status"] != "completed":
                raise RuntimeError(f"the bench task did not complete: {answer['status']} {answer['action']}")
    finally:
        await connection.close()
    return steps


def _ok(response: Response) -> dict[str, Any]:
    if response.status != 200:
        raise RuntimeError(f"HTTP {response.status}: {response.body[:300]!r}")
    answer: dict[str, Any] = json.loads(response.body)
    return answer


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


def _wait_ready(base: str, server: subprocess.Popen[bytes]) -> None:
    for _ in range(150):
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode}")
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError("the server did not become ready")


async def _window(base: str, keys: list[str], pages: list[tuple[str, dict[str, Any]]], seconds: float) -> dict[str, float]:
    lat: list[float] = []
    cpu, started = time.process_time(), time.perf_counter()
    deadline = started + seconds
    steps = sum(await asyncio.gather(*(_client(base, k, pages, deadline, lat) for k in keys)))
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    ordered = sorted(lat)
    return {
        "steps": steps,
        "steps_per_s": round(steps / wall, 1),
        "median_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
        "load_cpu_ms_per_step": round(cpu * 1000 / steps, 3),
    }


def measure(case: str, *, workers: int, clients: int, seconds: float, runs: int) -> dict[str, Any]:
    """One server per case; a warm-up, then ``runs`` measured windows of ``seconds`` each."""
    pages = v3_pages() if case == "v3" else html_pages()
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "STEPWISE_DATABASE_URL": f"sqlite:///{tmp}/load.db",
            "STEPWISE_RATE_LIMIT_PER_MINUTE": "100000000",
            "STEPWISE_LOG_LEVEL": "WARNING",
        }
        keys = _create_keys(env, clients)
        port = free_port()
        command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", str(workers)]
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_ready(base, server)

            async def run() -> list[dict[str, float]]:
                await _window(base, keys, pages, 1.5)  # warm-up: imports, caches, SQLite pages
                return [await _window(base, keys, pages, seconds) for _ in range(runs)]

            windows = uvloop.run(run())
        finally:
            server.terminate()
            server.wait(timeout=15)
    return {
        "case": case,
        "workers": workers,
        "clients": clients,
        "steps_per_s": statistics.median(w["steps_per_s"] for w in windows),
        "median_ms": statistics.median(w["median_ms"] for w in windows),
        "p95_ms": statistics.median(w["p95_ms"] for w in windows),
        "runs": windows,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=8.0, help="length of one measured window")
    parser.add_argument("--runs", type=int, default=3, help="measured windows per case (the median is reported)")
    parser.add_argument("--case", choices=["v3", "html", "both"], default="both")
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/interact_load.json")
    args = parser.parse_args()
    cases = ["v3", "html"] if args.case == "both" else [args.case]
    results = []
    for case in cases:
        result = measure(case, workers=args.workers, clients=args.clients, seconds=args.seconds, runs=args.runs)
        results.append(result)
        each = " / ".join(f"{w['steps_per_s']}" for w in result["runs"])
        load_cpu = statistics.median(w["load_cpu_ms_per_step"] for w in result["runs"])
        print(
            f"{case}: workers={args.workers} clients={args.clients} steps/s median {result['steps_per_s']} ({each}); "
            f"round trip median {result['median_ms']} ms, p95 {result['p95_ms']} ms; load generator {load_cpu} ms CPU/step"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
