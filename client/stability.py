"""The stability wait: after an action, wait until the page has settled before capturing it.

Contract (spec § "Stability Wait"): always wait ``min_wait_ms``; then return as soon as the
DOM has been quiet for ``dom_quiet_ms`` (no MutationObserver record) **and** the network has
been idle for ``network_idle_ms`` (no request in flight, counted from Playwright's
request / requestfinished / requestfailed events); give up at ``max_wait_ms`` and capture
anyway. Every page read has its own deadline, so the wait never hangs.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Final

from playwright.async_api import Page, Request, Response

from client.snapshot import PageProbe

POLL_S: Final[float] = 0.05


@dataclass(frozen=True)
class StabilityConfig:
    min_wait_ms: int = 500
    dom_quiet_ms: int = 300
    network_idle_ms: int = 500
    max_wait_ms: int = 5000

    def __post_init__(self) -> None:
        if min(self.min_wait_ms, self.dom_quiet_ms, self.network_idle_ms, self.max_wait_ms) < 0:
            raise ValueError("stability times must be >= 0 ms")
        if self.max_wait_ms < self.min_wait_ms:
            raise ValueError("max_wait_ms must be >= min_wait_ms")


# Between the actions of one chain: the page only needs to take the previous input.
CHAIN_GAP: Final[StabilityConfig] = StabilityConfig(min_wait_ms=100, dom_quiet_ms=100, network_idle_ms=200, max_wait_ms=2000)


@dataclass(frozen=True)
class StabilityReport:
    stable: bool
    waited_ms: float
    dom_quiet_ms: float | None
    network_idle_ms: float
    in_flight: int


class NetworkTracker:
    """Counts the tab's requests in flight and remembers when the network was last busy.

    A request is in flight from its ``request`` event to ``requestfinished``/``requestfailed``.
    Chromium never finishes a response whose body the page does not read (``await fetch(u)``
    without ``.json()``), so a request that has had its response for ``RESPONDED_GRACE_S``
    no longer counts.
    """

    RESPONDED_GRACE_S: Final[float] = 1.0

    def __init__(self, page: Page) -> None:
        self.page = page
        self._in_flight: dict[Request, float | None] = {}  # request -> when its response came
        self._last_activity = time.monotonic()
        self._seen = 0
        page.on("request", self._on_request)
        page.on("response", self._on_response)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_done)

    def _on_request(self, request: Request) -> None:
        if request.url.startswith("data:"):
            return
        self._in_flight[request] = None
        self._seen += 1
        self._last_activity = time.monotonic()

    def _on_response(self, response: Response) -> None:
        if response.request in self._in_flight:
            self._in_flight[response.request] = time.monotonic()
            self._last_activity = time.monotonic()

    def _on_done(self, request: Request) -> None:
        if self._in_flight.pop(request, False) is not False:
            self._last_activity = time.monotonic()

    @property
    def in_flight(self) -> int:
        now = time.monotonic()
        return sum(1 for responded in self._in_flight.values() if responded is None or now - responded < self.RESPONDED_GRACE_S)

    @property
    def seen(self) -> int:
        """Requests started so far (compare two readings to know whether any happened)."""
        return self._seen

    def idle_ms(self) -> float:
        if self.in_flight:
            return 0.0
        return (time.monotonic() - self._last_activity) * 1000

    def close(self) -> None:
        self.page.remove_listener("request", self._on_request)
        self.page.remove_listener("response", self._on_response)
        self.page.remove_listener("requestfinished", self._on_done)
        self.page.remove_listener("requestfailed", self._on_done)
        self._in_flight.clear()


async def wait_for_stability(probe: PageProbe, network: NetworkTracker, config: StabilityConfig | None = None) -> StabilityReport:
    """Wait as the contract says; returns how it went (``stable=False`` when ``max_wait_ms`` hit)."""
    config = config or StabilityConfig()
    started = time.monotonic()
    deadline = started + config.max_wait_ms / 1000
    await asyncio.sleep(config.min_wait_ms / 1000)
    quiet: float | None = None
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        try:
            quiet = await asyncio.wait_for(probe.dom_quiet_ms(), timeout=max(remaining, 0.01))
        except TimeoutError:
            quiet = None
        idle = network.idle_ms()
        if quiet is not None and quiet >= config.dom_quiet_ms and idle >= config.network_idle_ms:
            return StabilityReport(True, _ms_since(started), quiet, idle, network.in_flight)
        await asyncio.sleep(min(POLL_S, max(deadline - time.monotonic(), 0)))
    return StabilityReport(False, _ms_since(started), quiet, network.idle_ms(), network.in_flight)


def _ms_since(started: float) -> float:
    return (time.monotonic() - started) * 1000
