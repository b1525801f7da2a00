"""More fixtures of the extension's e2e tests (registered by this folder's conftest.py, beside
``built_extension`` and ``extension_server`` defined there):

* ``ext_sites`` — the fixture sites of :mod:`tests.e2e.extension.sites` (reset per test);
* ``ext_unconfigured`` — a fresh Chromium profile with the built extension
  (:func:`tests.e2e.extension.harness.launch_extension`), closed and removed after the test;
* ``ext`` — the same, configured through its options page for ``extension_server``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from client.local_server import LocalServer
from tests.e2e.extension.harness import LoadedExtension, launch_extension
from tests.e2e.extension.sites import FixtureState, serve_fixture_sites


@dataclass
class Sites:
    url: str
    state: FixtureState


@pytest.fixture(scope="session")
def ext_sites_server() -> Iterator[Sites]:
    state = FixtureState()
    url, stop = serve_fixture_sites(state)
    yield Sites(url, state)
    stop()


@pytest.fixture
def ext_sites(ext_sites_server: Sites) -> Sites:
    ext_sites_server.state.reset()
    return ext_sites_server


@pytest_asyncio.fixture(loop_scope="session")
async def ext_unconfigured(built_extension: Path) -> AsyncIterator[LoadedExtension]:
    async with launch_extension(built_extension) as extension:
        yield extension


@pytest_asyncio.fixture(loop_scope="session")
async def ext(ext_unconfigured: LoadedExtension, extension_server: LocalServer) -> LoadedExtension:
    await ext_unconfigured.configure(extension_server.url, extension_server.api_key)
    return ext_unconfigured
