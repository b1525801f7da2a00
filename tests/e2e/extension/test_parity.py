"""One page script, one V3 tree: for the same page, the FIRST interact request the Python
reference client builds (``client.run_task``) and the first the extension builds (its worker's
capture of the tab, from Run in the side panel) are EXACTLY equal — the ``interactiveTree``,
title, viewport, scroll position, page text, messages and goal — each in a fresh tab of the
same Chromium profile and viewport, so the numbering starts the same. Both talk to a recorder
(:mod:`tests.e2e.extension.recorder`) that ends the task at its first answer. No
normalisation: a difference is a bug. Pages: the demo clinic (home, list, form), the two fixture sites, a page with a
same-origin iframe and an open shadow root, one with a cross-origin frame before a
same-origin one, and MiniWoB++ tasks (same seed in both tabs).

And the script itself: ``extension/dist/page_script.js`` is byte for byte the script the
Python client installs (``client.snapshot.PAGE_SCRIPT``) and the fragments joined."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Page

from bench.miniwob.env import serve_html, start_episode
from client import run_task
from client.snapshot import PAGE_SCRIPT
from tests.e2e.extension.fixtures import Sites
from tests.e2e.extension.harness import REPO, LoadedExtension, launch_extension, run_goal, wait_status
from tests.e2e.extension.recorder import Recorder, serve_recorder
from tests.e2e.extension.support import DIST

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

Open = Callable[[Page], Awaitable[None]]
GOAL = "Click the Save button"
RECORDER = Recorder()


async def test_the_built_page_script_is_the_clients() -> None:
    built = (DIST / "page_script.js").read_bytes()
    assert built == PAGE_SCRIPT.encode("utf-8")
    folder = REPO / "client" / "page_script"
    parts = json.loads((folder / "parts.json").read_text(encoding="utf-8"))
    names = parts if isinstance(parts, list) else parts["parts"]
    joined = "(() => {\n" + "\n".join((folder / name).read_text(encoding="utf-8") for name in names) + "})();\n"
    assert built == joined.encode("utf-8"), "extension/dist/page_script.js is not the fragments joined: run `make extension`"


@pytest.fixture(scope="module")
def miniwob_url() -> Iterator[str]:
    pytest.importorskip("miniwob", reason="the miniwob package is not installed")
    url, stop = serve_html()
    yield url
    stop()


@pytest.fixture(scope="module")
def recorder_url() -> Iterator[str]:
    url, stop = serve_recorder(RECORDER)
    yield url
    stop()


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def parity_ext(built_extension: Path, recorder_url: str) -> AsyncIterator[LoadedExtension]:
    """One profile for the module, its server the recorder (every task ends at its first answer)."""
    async with launch_extension(built_extension) as extension:
        await extension.configure(recorder_url, "sk-recorded")
        yield extension


async def compare(ext: LoadedExtension, recorder_url: str, open_page: Open, tmp_path: Path) -> list[dict[str, Any]]:
    """Open the page in two fresh tabs of the same profile; the first request the Python client
    builds for one and the first the extension builds for the other must be equal, whole (the
    V3 tree, title, viewport, scroll position, page text, messages, the goal); returns the tree."""
    RECORDER.take()
    mine = await ext.context.new_page()
    await open_page(mine)
    await mine.bring_to_front()
    result = await run_task(GOAL, None, server=recorder_url, api_key="sk-recorded", page=mine, state_file=str(tmp_path / "state.json"))
    assert result.status == "failed", (result.status, result.error)
    [client] = RECORDER.take()

    theirs = await ext.context.new_page()
    await open_page(theirs)
    await theirs.bring_to_front()
    tab_id = await ext.tab_id(theirs)
    panel = await ext.open_panel(tab_id)
    await run_goal(panel, GOAL)
    assert await wait_status(panel) == "failed"
    [extension] = RECORDER.take()

    different = [(a, b) for a, b in zip(client["interactiveTree"], extension["interactiveTree"], strict=False) if a != b]
    assert not different and len(client["interactiveTree"]) == len(extension["interactiveTree"]), (
        f"{len(client['interactiveTree'])} vs {len(extension['interactiveTree'])} nodes; first differences: {different[:3]}"
    )
    assert extension == client, {key: (client.get(key), extension.get(key)) for key in {*client, *extension} if client.get(key) != extension.get(key)}
    for page in (mine, theirs, panel):
        await page.close()
    tree: list[dict[str, Any]] = client["interactiveTree"]
    return tree


def loaded(url: str, *, wait_for: str | None = None) -> Open:
    async def open_page(page: Page) -> None:
        await page.goto(url, wait_until="networkidle")
        if wait_for:
            await page.wait_for_selector(wait_for)

    return open_page


@pytest.mark.parametrize(("path", "wait_for"), [("/", None), ("/patients", "td"), ("/patients/new", "form")])
async def test_the_clinic(parity_ext: LoadedExtension, recorder_url: str, demo: Any, path: str, wait_for: str | None, tmp_path: Path) -> None:
    assert await compare(parity_ext, recorder_url, loaded(demo.url + path, wait_for=wait_for), tmp_path)


@pytest.mark.parametrize(("path", "wait_for"), [("/prefs.html", None), ("/people.html", ".card")])
async def test_the_fixture_sites(
    parity_ext: LoadedExtension, recorder_url: str, ext_sites: Sites, path: str, wait_for: str | None, tmp_path: Path
) -> None:
    assert await compare(parity_ext, recorder_url, loaded(ext_sites.url + path, wait_for=wait_for), tmp_path)


async def test_a_same_origin_frame_and_a_shadow_root(parity_ext: LoadedExtension, recorder_url: str, ext_sites: Sites, tmp_path: Path) -> None:
    tree = await compare(parity_ext, recorder_url, loaded(ext_sites.url + "/frames.html"), tmp_path)
    ids = [node["i"] for node in tree]
    names = {node.get("n") for node in tree}
    assert any(i.startswith("f1-") for i in ids), ids  # the frame's elements, prefixed
    assert {"Pay now", "Verify address"} <= names, names  # inside the frame; inside the shadow root


async def test_a_cross_origin_frame_before_a_same_origin_one(parity_ext: LoadedExtension, recorder_url: str, ext_sites: Sites, tmp_path: Path) -> None:
    tree = await compare(parity_ext, recorder_url, loaded(ext_sites.url + "/frames_mixed.html"), tmp_path)
    assert [node["f"] for node in tree if node.get("n") == "Pay now"] == [1]  # the same-origin frame only, numbered 1


@pytest.mark.parametrize(("task", "seed"), [("click-checkboxes", 3), ("social-media", 1), ("book-flight", 2)])
async def test_miniwob(parity_ext: LoadedExtension, recorder_url: str, miniwob_url: str, task: str, seed: int, tmp_path: Path) -> None:
    async def open_page(page: Page) -> None:
        await start_episode(page, miniwob_url, task, seed, episode_ms=600_000)

    assert await compare(parity_ext, recorder_url, open_page, tmp_path)
