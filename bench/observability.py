"""Observability overhead micro-benchmark: what tracing, node timing and usage recording
add to a request when LangFuse is off (the ``NoopTracer``) — and, for scale, when it is on.

    .venv/bin/python bench/observability.py [--calls N] [--repeats R] [--out bench/results/observability.json]

Each case awaits a trivial async graph node (or records one usage event) ``--calls`` times
in one event loop; the figure is the median over ``--repeats`` runs of the time per call,
minus nothing (the "direct" case is the baseline to subtract). The LangFuse case builds real
OTel spans in memory; export goes to a closed local port and never completes, so no
network time is measured (nothing leaves the machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import platform
import socket
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

import structlog

ROOT = Path(__file__).resolve().parents[1]
# First on the path, always: this script's own folder would otherwise shadow the
# ``observability`` package with this very file.
sys.path.insert(0, str(ROOT))

from agent.llm import CallContext, MemoryUsageSink, UsageEvent  # noqa: E402
from cost import UsageService  # noqa: E402
from observability import LangfuseTracer, Metrics, NoopTracer, Tracer, traced_node  # noqa: E402
from storage import Store, UsageLog  # noqa: E402

STATE: dict[str, Any] = {
    "query": "Save the new patient",
    "step_index": 3,
    "dom": "x" * 50_000,
    "page": object(),
}


async def node(state: dict[str, Any]) -> dict[str, Any]:
    return {"plan": ["a", "b"], "step_succeeded": True}


EVENT = UsageEvent(
    purpose="PLANNING",
    model="gemini-2.5-flash",
    input_tokens=12_000,
    output_tokens=300,
    cached_tokens=8_000,
    thinking_tokens=700,
    total_tokens=13_000,
    latency_ms=850,
    success=True,
    error_kind=None,
    ctx=CallContext(tenant_id="t", user_id="u", session_id="s", task_id="task"),
    occurred_at=datetime.now(UTC),
)


class NullUsageRepo:
    async def add(self, log: UsageLog) -> None:
        return None


class NullStore:
    usage = NullUsageRepo()


async def per_call_ns(calls: int, body: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter_ns()
    for _ in range(calls):
        await body()
    return (time.perf_counter_ns() - started) / calls


async def in_trace(tracer: Tracer, calls: int, body: Callable[[], Awaitable[Any]]) -> float:
    async with tracer.start_trace("interact-request-bench", task_id="bench"):
        return await per_call_ns(calls, body)


async def measure(calls: int, repeats: int) -> dict[str, float]:
    metrics = Metrics()
    noop = NoopTracer()
    noop_metrics = NoopTracer(metrics)
    wrapped = traced_node("planning", node)
    with socket.socket() as sock:  # a port nothing listens on: exports fail fast, locally
        sock.bind(("127.0.0.1", 0))
        closed_port = sock.getsockname()[1]
    langfuse = LangfuseTracer.connect(
        public_key="pk-lf-bench",
        secret_key="sk",
        host=f"http://127.0.0.1:{closed_port}",
        metrics=metrics,
        timeout_s=1,
        flush_interval_s=3600,
    )
    null_store = cast(Store, NullStore())
    memory_sink = MemoryUsageSink()
    usage_noop = UsageService(null_store, noop)
    usage_noop_metrics = UsageService(null_store, noop_metrics, metrics)

    async def start_noop_trace() -> None:
        async with noop.start_trace("interact-request-bench"):
            pass

    async def record_memory() -> None:
        await memory_sink.record(EVENT)
        memory_sink.events.clear()

    cases: dict[str, Callable[[], Awaitable[float]]] = {
        "node: direct call (baseline)": lambda: per_call_ns(calls, lambda: node(STATE)),
        "node: traced_node, no trace bound": lambda: per_call_ns(calls, lambda: wrapped(STATE)),
        "node: traced_node, NoopTracer": lambda: in_trace(noop, calls, lambda: wrapped(STATE)),
        "node: traced_node, NoopTracer + metrics": lambda: in_trace(
            noop_metrics, calls, lambda: wrapped(STATE)
        ),
        "node: traced_node, LangfuseTracer (in-memory spans)": lambda: in_trace(
            langfuse, calls // 10, lambda: wrapped(STATE)
        ),
        "trace: NoopTracer.start_trace enter+exit": lambda: per_call_ns(calls, start_noop_trace),
        "usage: MemoryUsageSink.record (baseline)": lambda: per_call_ns(calls, record_memory),
        "usage: UsageService.record, NoopTracer, null store": lambda: per_call_ns(
            calls, lambda: usage_noop.record(EVENT)
        ),
        "usage: UsageService.record, NoopTracer + metrics": lambda: per_call_ns(
            calls, lambda: usage_noop_metrics.record(EVENT)
        ),
    }
    results: dict[str, float] = {}
    for name, run in cases.items():
        await run()  # warm-up
        results[name] = statistics.median([await run() for _ in range(repeats)])
    await langfuse.aclose()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.ERROR))
    for noisy in ("opentelemetry", "langfuse"):  # the closed port's export failures
        logging.getLogger(noisy).setLevel(logging.CRITICAL)
    results = asyncio.run(measure(args.calls, args.repeats))
    width = max(len(name) for name in results)
    print(f"{'case'.ljust(width)}  µs/call")
    for name, ns in results.items():
        print(f"{name.ljust(width)}  {ns / 1000:8.2f}")
    baseline = results["node: direct call (baseline)"]
    print(
        f"\nNoopTracer overhead per node: {(results['node: traced_node, NoopTracer'] - baseline) / 1000:.2f} µs "
        f"(+metrics: {(results['node: traced_node, NoopTracer + metrics'] - baseline) / 1000:.2f} µs)"
    )
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(
            json.dumps(
                {
                    "python": platform.python_version(),
                    "machine": platform.machine(),
                    "calls": args.calls,
                    "repeats": args.repeats,
                    "us_per_call": {name: round(ns / 1000, 3) for name, ns in results.items()},
                },
                indent=2,
            )
            + "\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
