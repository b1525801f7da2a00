"""``traced_node``: a LangGraph node wrapper for tracing and node-duration metrics."""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar, cast

from observability.summarize import summarize_mapping, summarize_value
from observability.tracing import current_trace

NodeFn = TypeVar("NodeFn", bound=Callable[..., Awaitable[Any]])


def traced_node(name: str, fn: NodeFn) -> NodeFn:
    """Wrap a LangGraph node: a span per run (state keys and small scalars in, the returned
    keys out) and its duration in ``stepwise_graph_node_duration_seconds``.

    The wrapper keeps ``fn``'s signature (``functools.wraps``), so LangGraph still injects
    ``runtime``/``config`` exactly as for ``fn``. Outside a trace it just calls ``fn``."""
    if not inspect.iscoroutinefunction(fn):
        raise TypeError(f"traced_node({name!r}) needs an async node function, got {fn!r}")

    @functools.wraps(fn)
    async def node(state: Any, *args: Any, **kwargs: Any) -> Any:
        handle = current_trace()
        if handle is None:
            return await fn(state, *args, **kwargs)
        started = time.perf_counter()
        outcome = "error"
        try:
            if handle.recording:
                inputs = (
                    summarize_mapping(state)
                    if isinstance(state, Mapping)
                    else summarize_value(state)
                )
                with handle.span(name, input_summary=inputs) as span:
                    update = await fn(state, *args, **kwargs)
                    span.set_output(
                        summarize_mapping(update)
                        if isinstance(update, Mapping)
                        else summarize_value(update)
                    )
            else:
                update = await fn(state, *args, **kwargs)
            outcome = "ok"
            return update
        finally:
            metrics = handle.metrics
            if metrics is not None:
                metrics.observe_node(name, time.perf_counter() - started, outcome)

    return cast(NodeFn, node)
