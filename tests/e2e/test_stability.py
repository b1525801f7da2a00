"""(c) The stability wait: it waits for a delayed toast, and it never hangs."""

from __future__ import annotations

import time

import pytest
from playwright.async_api import Page

from client import NetworkTracker, PageProbe, StabilityConfig, execute_action, wait_for_stability

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]


async def ids_of(page: Page, probe: PageProbe) -> dict[str, str]:
    await probe.capture()
    pairs = await page.eval_on_selector_all("[data-llm-id]", "els => els.map(e => [e.id, e.getAttribute('data-llm-id')])")
    return dict(pairs)


async def test_waits_for_a_delayed_toast(page: Page, probe: PageProbe, pages_url: str) -> None:
    await page.goto(f"{pages_url}/pages/delayed.html")
    tracker = NetworkTracker(page)
    ids = await ids_of(page, probe)

    await execute_action(probe, f'click("{ids["save"]}")')
    too_early = await probe.capture()  # what a client without the wait would send
    assert not too_early.has_success

    report = await wait_for_stability(probe, tracker, StabilityConfig())
    after = await probe.capture()
    assert report.stable
    assert 1200 <= report.waited_ms < 5000  # the fetch takes 1.2 s; the wait outlasted it
    assert after.has_success and after.successes == ["Saved"]
    tracker.close()


async def test_minimum_wait_on_a_quiet_page(page: Page, probe: PageProbe, pages_url: str) -> None:
    await page.goto(f"{pages_url}/pages/delayed.html")
    tracker = NetworkTracker(page)
    await probe.capture()
    await page.wait_for_timeout(600)
    report = await wait_for_stability(probe, tracker, StabilityConfig())
    # It waited the minimum, then stopped: far short of the maximum (5 s). The upper bound
    # leaves room for a loaded machine, where each probe of the page takes longer.
    assert report.stable and 500 <= report.waited_ms < 2000
    tracker.close()


@pytest.mark.parametrize("button", ["spin", "hang"])
async def test_never_waits_past_the_maximum(page: Page, probe: PageProbe, pages_url: str, button: str) -> None:
    """DOM that never settles, or a request that never ends: give up at max_wait_ms."""
    await page.goto(f"{pages_url}/pages/delayed.html")
    tracker = NetworkTracker(page)
    ids = await ids_of(page, probe)
    await execute_action(probe, f'click("{ids[button]}")')
    started = time.monotonic()
    report = await wait_for_stability(probe, tracker, StabilityConfig(min_wait_ms=200, max_wait_ms=1500))
    elapsed = time.monotonic() - started
    assert not report.stable
    # It gave up at the maximum instead of waiting on; the upper bound leaves room for a loaded
    # machine (each probe of the page is itself bounded to 1 s), not for a wait that hangs.
    assert 1.4 <= elapsed < 4.0
    if button == "hang":
        assert report.in_flight == 1
    else:
        # The spinning page mutates all the time: its quiet time is short — or, when the busy
        # page cannot even answer the probe in time, unreadable (None), which is not quiet either.
        assert report.dom_quiet_ms is None or report.dom_quiet_ms < 300
    tracker.close()


async def test_config_is_validated() -> None:
    with pytest.raises(ValueError):
        StabilityConfig(min_wait_ms=6000, max_wait_ms=5000)
    with pytest.raises(ValueError):
        StabilityConfig(dom_quiet_ms=-1)
