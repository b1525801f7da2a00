"""CPU-heavy page work, off the event loop and within a time budget.

Reading a 2 MB ``dom`` with thousands of controls, and checking a plan against it, costs
hundreds of milliseconds to seconds of pure Python. Run on the event loop, that time is
taken from every other request of the worker — ``/healthz`` included. Here it runs in a small
per-process thread pool instead: the loop keeps its turn (the interpreter hands the GIL
over every few milliseconds), and a page that takes longer than the budget is refused
(422 ``INVALID_PAGE``) rather than awaited.

Handing work to a thread and back costs two context switches — nothing on an idle machine,
milliseconds on a loaded one — so a page of ordinary size (up to 1,000 elements, a ``dom`` up to
512 KB: a few milliseconds of work) is read inline; only heavier pages go to the pool.

A thread cannot be stopped: work past its budget runs on to its end in the background, and
keeps its slot until then, so a burst of heavy pages queues for the slots (503 when none
frees up in time) instead of multiplying threads.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, ParamSpec, TypeVar

from agent.errors import InvalidPage, ServiceUnavailable
from verification import PageState

P = ParamSpec("P")
T = TypeVar("T")

SLOTS: Final = 2
BUDGET_S: Final = 10.0  # a page that takes longer to read is refused
QUEUE_WAIT_S: Final = 10.0  # how long a request waits for a free slot before a 503
INLINE_ELEMENTS: Final = 1000  # pages with at most this many elements are read inline
INLINE_DOM_BYTES: Final = 512 * 1024

_executor = ThreadPoolExecutor(max_workers=SLOTS, thread_name_prefix="stepwise-page")
_slots: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}


def _semaphore() -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    semaphore = _slots.get(loop)
    if semaphore is None:
        for stale in [known for known in _slots if known.is_closed()]:
            del _slots[stale]
        semaphore = _slots[loop] = asyncio.Semaphore(SLOTS)
    return semaphore


def _finished(semaphore: asyncio.Semaphore, future: asyncio.Future[object]) -> None:
    semaphore.release()
    if not future.cancelled():
        future.exception()  # retrieved: work that outran its budget may fail unobserved


async def off_loop(work: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """``work(*args, **kwargs)`` in the page pool; InvalidPage past :data:`BUDGET_S`,
    ServiceUnavailable when no slot frees up within :data:`QUEUE_WAIT_S`."""
    semaphore = _semaphore()
    try:
        await asyncio.wait_for(semaphore.acquire(), QUEUE_WAIT_S)
    except TimeoutError:
        raise ServiceUnavailable(
            "Every page reader of this worker is busy with heavy pages; retry shortly",
            details={"retryAfterSeconds": int(QUEUE_WAIT_S)},
        ) from None
    loop = asyncio.get_running_loop()
    # The caller's context goes with the work: its bound log ids and the request's secrets
    # registry, so a log line written in the pool is tagged and masked like one on the loop.
    context = contextvars.copy_context()
    future = loop.run_in_executor(_executor, functools.partial(context.run, work, *args, **kwargs))
    future.add_done_callback(functools.partial(_finished, semaphore))
    try:
        return await asyncio.wait_for(asyncio.shield(future), BUDGET_S)
    except TimeoutError:
        raise InvalidPage(
            f"The page took longer than {BUDGET_S:.0f} s to read; send the V3 interactiveTree, or a smaller dom",
            details={"budgetS": BUDGET_S},
        ) from None


def heavy(page: PageState) -> bool:
    """Whether reading ``page`` again (matching, checking) is worth a thread."""
    return len(page.elements) > INLINE_ELEMENTS


async def page_work(is_heavy: bool, work: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """``work`` inline for an ordinary page, in the page pool (:func:`off_loop`) for a heavy one."""
    if not is_heavy:
        return work(*args, **kwargs)
    return await off_loop(work, *args, **kwargs)
