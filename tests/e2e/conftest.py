"""End-to-end fixtures: Debian's Chromium through Playwright, a real Stepwise server
subprocess on 127.0.0.1, the demo clinic app and the test pages.

One Chromium serves the whole session (each test gets a fresh context); Playwright objects
belong to the event loop that made them, so every e2e module runs its tests on the session
loop: ``pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page

from client import PageProbe, launch_browser, new_context
from client.demo_site import DemoSite, serve_demo_site
from client.local_server import LocalServer, local_server
from tests.e2e.support import ensure_chromium, serve_test_pages


@pytest.fixture(scope="session")
def chromium() -> None:
    reason = ensure_chromium()
    if reason is not None:
        pytest.skip(reason)


@pytest.fixture(scope="session")
def stepwise_server(chromium: None) -> Iterator[LocalServer]:
    """One server for the session, on a temporary SQLite database, no model key."""
    with local_server() as server:
        yield server


@dataclass
class Demo:
    url: str
    site: DemoSite


LYING_API_KEY = "fake-key-for-lying-model"


@pytest.fixture(scope="module", params=["plain", "lying"], ids=["server=plain", "server=lying"])
def plain_or_lying_server(request: pytest.FixtureRequest) -> Iterator[LocalServer]:
    """The real server: with no model, or pointed at a model that lies (bench.lying_model) —
    which must have been asked by the module's tests, or they did not test it."""
    if request.param == "plain":
        yield request.getfixturevalue("stepwise_server")
        return
    request.getfixturevalue("chromium")
    lying_model = pytest.importorskip("bench.lying_model")
    with lying_model.LyingGemini() as fake:
        with local_server(env={"GEMINI_API_KEY": LYING_API_KEY, "GEMINI_BASE_URL": fake.base_url}) as running:
            yield running
        assert fake.total_requests > 0, "the lying model was never asked: the cases did not test it"


@pytest.fixture
def demo() -> Iterator[Demo]:
    site = DemoSite()
    url, stop = serve_demo_site(0, site=site)
    yield Demo(url, site)
    stop()


@pytest.fixture(scope="session")
def pages_url() -> Iterator[str]:
    url, stop = serve_test_pages()
    yield url
    stop()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser(chromium: None) -> AsyncIterator[Browser]:
    async with launch_browser() as running:
        yield running


@pytest_asyncio.fixture(loop_scope="session")
async def page(browser: Browser) -> AsyncIterator[Page]:
    context = await new_context(browser)
    tab = await context.new_page()
    yield tab
    await context.close()


@pytest_asyncio.fixture(loop_scope="session")
async def probe(page: Page) -> PageProbe:
    installed = PageProbe(page)
    await installed.install()
    return installed
