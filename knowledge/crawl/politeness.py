"""Per-host politeness: at most N requests in flight to a host, and request *starts* to it
spaced by at least max(Crawl-delay, min_delay_s); a 429/503 pushes the host's next start
back for everyone. "Host" is host[:port], the unit robots.txt rules apply to."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Final

MAX_CRAWL_DELAY_S: Final = 60.0  # a robots.txt asking for more is read as this


@dataclass
class _Host:
    connections: asyncio.Semaphore
    delay: float
    next_start: float = 0.0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class HostGate:
    def __init__(self, *, min_delay_s: float, max_connections: int) -> None:
        self._min_delay = max(0.0, min_delay_s)
        self._max_connections = max(1, max_connections)
        self._hosts: dict[str, _Host] = {}

    def set_crawl_delay(self, host: str, seconds: float | None) -> None:
        wanted = min(max(seconds or 0.0, 0.0), MAX_CRAWL_DELAY_S)
        self._host(host).delay = max(self._min_delay, wanted)

    def delay(self, host: str) -> float:
        return self._host(host).delay

    def defer(self, host: str, seconds: float) -> None:
        """No request to ``host`` starts in the next ``seconds`` (a server said to wait)."""
        state = self._host(host)
        state.next_start = max(state.next_start, asyncio.get_running_loop().time() + seconds)

    @asynccontextmanager
    async def slot(self, host: str) -> AsyncIterator[None]:
        """Hold a connection slot to ``host`` for the body of the ``async with``; entered
        only when the host's delay since the previous start has passed."""
        state = self._host(host)
        async with state.connections:
            async with state.lock:
                loop = asyncio.get_running_loop()
                wait = state.next_start - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                state.next_start = loop.time() + state.delay
            yield

    def _host(self, host: str) -> _Host:
        state = self._hosts.get(host)
        if state is None:
            state = _Host(asyncio.Semaphore(self._max_connections), self._min_delay)
            self._hosts[host] = state
        return state
