"""Heavy page work runs off the event loop, within a budget, on a bounded number of threads."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time

import pytest

from agent import offload
from agent.errors import InvalidPage, ServiceUnavailable


def _busy(seconds: float) -> str:
    """Pure-Python CPU work (holds the GIL between bytecodes, like page reading does)."""
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
    return threading.current_thread().name


async def test_the_loop_keeps_answering_while_a_page_is_read() -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.001)
            ticks += 1

    def busy_until_the_loop_ticked() -> str:
        """CPU work that lasts until the loop has ticked (or 5 s, if it cannot): however loaded
        the machine, it ends as soon as the loop showed it kept answering."""
        end = time.monotonic() + 5
        while ticks <= 10 and time.monotonic() < end:
            pass
        return threading.current_thread().name

    task = asyncio.create_task(ticker())
    thread = await offload.off_loop(busy_until_the_loop_ticked)
    task.cancel()
    assert thread.startswith("stepwise-page")
    assert ticks > 10  # on the loop, the ticker could not have run at all during the work


async def test_work_past_its_budget_is_refused_and_keeps_its_slot_until_it_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offload, "BUDGET_S", 0.05)
    release = threading.Event()
    with pytest.raises(InvalidPage) as refused:
        await offload.off_loop(release.wait, 5)
    assert refused.value.status_code == 422 and refused.value.details["budgetS"] == 0.05
    semaphore = offload._semaphore()
    assert semaphore._value == offload.SLOTS - 1  # the thread still runs: its slot is not free
    release.set()
    for _ in range(100):
        if semaphore._value == offload.SLOTS:
            break
        await asyncio.sleep(0.01)
    assert semaphore._value == offload.SLOTS


async def test_no_free_slot_in_time_is_a_503_and_starts_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(offload, "QUEUE_WAIT_S", 0.05)
    release = threading.Event()
    holders = [asyncio.create_task(offload.off_loop(release.wait, 5)) for _ in range(offload.SLOTS)]
    await asyncio.sleep(0.01)
    ran = threading.Event()
    with pytest.raises(ServiceUnavailable) as busy:
        await offload.off_loop(ran.set)
    assert busy.value.status_code == 503 and not ran.is_set()
    release.set()
    assert await asyncio.gather(*holders) == [True] * offload.SLOTS


async def test_an_error_in_the_work_reaches_the_caller() -> None:
    def broken() -> None:
        raise ValueError("unreadable")

    with pytest.raises(ValueError, match="unreadable"):
        await offload.off_loop(broken)
    assert offload._semaphore()._value == offload.SLOTS


async def test_ordinary_work_runs_inline_and_heavy_work_in_the_pool() -> None:
    here = threading.current_thread().name
    assert await offload.page_work(False, _busy, 0.0) == here
    assert (await offload.page_work(True, _busy, 0.0)).startswith("stepwise-page")


_REQUEST: contextvars.ContextVar[str] = contextvars.ContextVar("request", default="none")


async def test_work_in_the_pool_sees_the_callers_context() -> None:
    """Bound log ids and the request's secrets registry are context variables: a log line
    written in the pool must be tagged and masked like one written on the loop."""
    _REQUEST.set("req-1")
    assert await offload.off_loop(_REQUEST.get) == "req-1"
