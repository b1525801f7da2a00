"""Fixtures of the extension's end-to-end tests: the built extension (extension/dist) loaded
unpacked into Debian's Chromium (headless, persistent context in a temporary profile) and a
local Stepwise server that allows the extension's origin (STEPWISE_EXTENSION_IDS).

Each test gets its own browser profile and closes it; nothing is left behind.
"""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import async_playwright

from client.local_server import LocalServer, local_server
from tests.e2e.extension.support import DIST, Extension, extension_id
from tests.e2e.support import CHROMIUM


@pytest.fixture(scope="session")
def built_extension(chromium: None) -> Path:
    if not (DIST / "manifest.json").is_file() or not (DIST / "background.js").is_file():
        pytest.fail("extension/dist is not built: run `make extension`")
    return DIST


@pytest.fixture(scope="session")
def extension_server(built_extension: Path) -> Iterator[LocalServer]:
    """A Stepwise server whose CORS allows this extension's origin."""
    with local_server(env={"STEPWISE_EXTENSION_IDS": extension_id()}) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="session")
async def extension(built_extension: Path) -> AsyncIterator[Extension]:
    with tempfile.TemporaryDirectory(prefix="stepwise-ext-profile-") as profile:
        async with async_playwright() as playwright:
            context = await playwright.chromium.launch_persistent_context(
                profile,
                executable_path=CHROMIUM,
                headless=True,
                args=[f"--disable-extensions-except={built_extension}", f"--load-extension={built_extension}"],
            )
            try:
                worker = context.service_workers[0] if context.service_workers else await context.wait_for_event(
                    "serviceworker", timeout=15_000
                )
                yield Extension(context=context, worker=worker, id=worker.url.split("/")[2])
            finally:
                await context.close()


# The fixtures of the other extension e2e tests (tasks, recovery, errors, security, parity):
# tests/e2e/extension/fixtures.py.
from tests.e2e.extension import fixtures as _more  # noqa: E402

ext_sites_server = _more.ext_sites_server
ext_sites = _more.ext_sites
ext_unconfigured = _more.ext_unconfigured
ext = _more.ext
