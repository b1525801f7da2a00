"""One page script, one V3 tree: the reference client (``client.snapshot.PageProbe``) and the
extension's content script give EXACTLY the same ``interactiveTree`` (and title, viewport,
scroll position, page text) for the same page — each in a fresh tab of the same Chromium
profile and viewport, so the numbering starts the same. No normalisation: a difference is a
bug. Pages: the demo clinic (home, list, form), the two fixture sites, a page with a
same-origin iframe and an open shadow root, one with a cross-origin frame before a
same-origin one, and MiniWoB++ tasks (same seed in both tabs).

And the script itself: ``extension/dist/page_script.js`` is byte for byte the script the
Python client installs (``client.snapshot.PAGE_SCRIPT``) and the fragments joined."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from playwright.async_api import Page

from bench.miniwob.env import serve_html, start_episode
from client.snapshot import PAGE_SCRIPT, PageProbe
from tests.e2e.extension.fixtures import Sites
from tests.e2e.extension.harness import REPO, LoadedExtension, extension_snapshot
from tests.e2e.extension.support import DIST

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

Open = Callable[[Page], Awaitable[None]]


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


async def compare(ext: LoadedExtension, open_page: Open) -> dict[str, Any]:
    """Open the page in two fresh tabs; the client's snapshot of one, the extension's of the
    other; assert they are equal; returns the client's tree (for the caller's sanity checks)."""
    mine = await ext.context.new_page()
    await open_page(mine)
    await mine.bring_to_front()
    probe = PageProbe(mine)
    await probe.install()
    client = await probe.capture()

    theirs = await ext.context.new_page()
    await open_page(theirs)
    await theirs.bring_to_front()
    extension = await extension_snapshot(ext, await ext.tab_id(theirs))

    assert extension["viewport"] == client.viewport
    assert extension["title"] == client.title
    assert extension["scrollPosition"] == client.scroll_position
    different = [(a, b) for a, b in zip(client.tree, extension["tree"], strict=False) if a != b]
    assert not different and len(client.tree) == len(extension["tree"]), (
        f"{len(client.tree)} vs {len(extension['tree'])} nodes; first differences: {different[:3]}"
    )
    assert extension["text"] == client.text
    await mine.close()
    await theirs.close()
    return {"tree": client.tree}


def loaded(url: str, *, wait_for: str | None = None) -> Open:
    async def open_page(page: Page) -> None:
        await page.goto(url, wait_until="networkidle")
        if wait_for:
            await page.wait_for_selector(wait_for)

    return open_page


@pytest.mark.parametrize(("path", "wait_for"), [("/", None), ("/patients", "td"), ("/patients/new", "form")])
async def test_the_clinic(ext_unconfigured: LoadedExtension, demo: Any, path: str, wait_for: str | None) -> None:
    seen = await compare(ext_unconfigured, loaded(demo.url + path, wait_for=wait_for))
    assert seen["tree"]


@pytest.mark.parametrize(("path", "wait_for"), [("/prefs.html", None), ("/people.html", ".card")])
async def test_the_fixture_sites(ext_unconfigured: LoadedExtension, ext_sites: Sites, path: str, wait_for: str | None) -> None:
    seen = await compare(ext_unconfigured, loaded(ext_sites.url + path, wait_for=wait_for))
    assert seen["tree"]


async def test_a_same_origin_frame_and_a_shadow_root(ext_unconfigured: LoadedExtension, ext_sites: Sites) -> None:
    seen = await compare(ext_unconfigured, loaded(ext_sites.url + "/frames.html"))
    ids = [node["i"] for node in seen["tree"]]
    names = {node.get("n") for node in seen["tree"]}
    assert any(i.startswith("f1-") for i in ids), ids  # the frame's elements, prefixed
    assert {"Pay now", "Verify address"} <= names, names  # inside the frame; inside the shadow root


async def test_a_cross_origin_frame_before_a_same_origin_one(ext_unconfigured: LoadedExtension, ext_sites: Sites) -> None:
    seen = await compare(ext_unconfigured, loaded(ext_sites.url + "/frames_mixed.html"))
    assert sum(node.get("n") == "Pay now" for node in seen["tree"]) == 1  # the same-origin frame only


@pytest.mark.parametrize(("task", "seed"), [("click-checkboxes", 3), ("social-media", 1), ("book-flight", 2)])
async def test_miniwob(ext_unconfigured: LoadedExtension, miniwob_url: str, task: str, seed: int) -> None:
    async def open_page(page: Page) -> None:
        await start_episode(page, miniwob_url, task, seed, episode_ms=600_000)

    seen = await compare(ext_unconfigured, open_page)
    assert seen["tree"]
