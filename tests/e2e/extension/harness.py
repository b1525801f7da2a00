"""Driving the built extension (``extension/dist``) in Debian's Chromium, as a person would:
the options page filled and saved through its form, the goal typed into the side panel and
Run clicked — plus the handles a test needs to look behind the UI (the service worker, its
``chrome.storage.local``, a worker restart through CDP).

Used by the e2e tests of ``tests/e2e/extension/`` and by ``bench/extension.py``. The side
panel and options page are driven only through the DOM contract of docs/extension.md
(``textarea#goal``, ``button#run``, ``#status[data-status]``, ``ol#steps > li.step`` …).
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import httpx
from playwright.async_api import BrowserContext, Page, Playwright, Worker, async_playwright

from tests.e2e.extension.support import DIST, extension_id

REPO: Final[Path] = Path(__file__).resolve().parents[3]
CHROMIUM: Final[str] = "/usr/bin/chromium"
PANEL_VIEWPORT: Final[dict[str, int]] = {"width": 420, "height": 900}
PAGE_VIEWPORT: Final[dict[str, int]] = {"width": 1280, "height": 800}
# The panel's end states (the DOM contract): a task is over once #status shows one of them.
TERMINAL: Final[frozenset[str]] = frozenset(
    {"completed", "failed", "needs_user_input", "needs_confirmation", "error", "max_steps", "stopped"}
)
# No model: the deterministic policy only, no web search — the tests never reach the internet.
NO_MODEL_ENV: Final[dict[str, str]] = {
    "GEMINI_API_KEY": "", "STEPWISE_GEMINI_API_KEY": "", "GEMINI_BASE_URL": "", "TAVILY_API_KEY": "", "STEPWISE_TAVILY_API_KEY": "",
}  # fmt: skip


def built(dist: Path = DIST) -> str | None:
    """None when the built extension is there; else why not (the tests fail with it)."""
    needed = ("manifest.json", "background.js", "content.js", "page_script.js", "sidepanel.html", "options.html")
    missing = [name for name in needed if not (dist / name).is_file()]
    return f"extension/dist lacks {', '.join(missing)}: run `make extension`" if missing else None


@dataclass
class LoadedExtension:
    """The extension running in one Chromium profile (a persistent context)."""

    context: BrowserContext
    id: str

    @property
    def base(self) -> str:
        return f"chrome-extension://{self.id}"

    async def worker(self, timeout_s: float = 10.0) -> Worker:
        """The extension's live service worker (waiting for one to start after a restart)."""
        deadline = time.monotonic() + timeout_s
        while True:
            live = [w for w in self.context.service_workers if w.url.startswith(self.base)]
            if live:
                return live[-1]
            if time.monotonic() > deadline:
                raise TimeoutError(f"no service worker of {self.id} within {timeout_s:.0f} s")
            with contextlib.suppress(TimeoutError, Exception):
                await self.context.wait_for_event("serviceworker", timeout=500)

    async def evaluate(self, script: str, arg: Any = None) -> Any:
        """Run ``script`` (a function expression) in the service worker, where chrome.* lives."""
        worker = await self.worker()
        return await worker.evaluate(script, arg)

    async def tab_id(self, page: Page) -> int:
        """chrome.tabs' id of a Playwright page (matched by URL; the newest tab wins)."""
        found = await self.evaluate(
            "async (url) => (await chrome.tabs.query({})).filter((t) => t.url === url).map((t) => t.id)", page.url
        )
        if not found:
            raise LookupError(f"no tab shows {page.url}")
        return int(max(found))

    async def configure(self, server_url: str, api_key: str) -> None:
        """Fill and save the options page, as a person does."""
        options = await self.context.new_page()
        try:
            await options.goto(f"{self.base}/options.html")
            await options.fill("#server-url", server_url)
            await options.fill("#api-key", api_key)
            await options.click("#save")
            await options.locator("#saved").wait_for(state="visible", timeout=5000)
        finally:
            await options.close()

    async def open_panel(self, tab_id: int) -> Page:
        """The side panel for that tab, opened as a normal tab (``?tabId=``), 420×900."""
        panel = await self.context.new_page()
        await panel.set_viewport_size(PANEL_VIEWPORT)
        await panel.goto(f"{self.base}/sidepanel.html?tabId={tab_id}")
        return panel

    async def storage(self, key: str | None = None) -> Any:
        """``chrome.storage.local`` (everything, or one key)."""
        return await self.evaluate("async (key) => key ? (await chrome.storage.local.get(key))[key] : await chrome.storage.local.get(null)", key)

    async def task_record(self, tab_id: int) -> dict[str, Any] | None:
        """The worker's persisted state of the tab's task (``task_<tabId>``)."""
        record = await self.storage(f"task_{tab_id}")
        return record if isinstance(record, dict) else None

    async def restart_worker(self) -> None:
        """Stop the service worker the way Chrome does when it is idle (its target closed);
        it starts again, with fresh globals, when an extension page messages it."""
        old = await self.worker()
        cdp = await self.context.browser.new_browser_cdp_session() if self.context.browser else None
        if cdp is None:
            raise RuntimeError("no browser CDP session for a persistent context")
        try:
            targets = (await cdp.send("Target.getTargets"))["targetInfos"]
            workers = [t for t in targets if t["type"] == "service_worker" and t["url"].startswith(self.base)]
            if not workers:
                raise LookupError("the extension's service worker target is not there")
            for target in workers:
                await cdp.send("Target.closeTarget", {"targetId": target["targetId"]})
        finally:
            await cdp.detach()
        deadline = time.monotonic() + 5
        while old in self.context.service_workers and time.monotonic() < deadline:
            await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def launch_extension(dist: Path = DIST, *, playwright: Playwright | None = None) -> AsyncIterator[LoadedExtension]:
    """A fresh Chromium profile (a temporary user-data dir) with the unpacked extension loaded;
    closed and removed on exit."""
    reason = built(dist)
    if reason is not None:
        raise FileNotFoundError(reason)
    async with contextlib.AsyncExitStack() as stack:
        if playwright is None:
            playwright = await stack.enter_async_context(async_playwright())
        profile = stack.enter_context(tempfile.TemporaryDirectory(prefix="stepwise-ext-profile-"))
        context = await playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            headless=True,
            viewport=PAGE_VIEWPORT,
            args=[f"--disable-extensions-except={dist}", f"--load-extension={dist}", "--no-first-run", "--no-default-browser-check"],
        )
        stack.push_async_callback(context.close)
        extension = LoadedExtension(context=context, id=extension_id(dist / "manifest.json"))
        await extension.worker()
        yield extension


# -- the side panel ----------------------------------------------------------------------------


async def run_goal(panel: Page, goal: str) -> None:
    """Type the goal and click Run."""
    await panel.fill("#goal", goal)
    await panel.click("#run")


async def status(panel: Page) -> str:
    return str(await panel.get_attribute("#status", "data-status") or "")


async def wait_status(panel: Page, wanted: Iterable[str] = TERMINAL, timeout_s: float = 60.0) -> str:
    """Wait until ``#status[data-status]`` is one of ``wanted``; returns it."""
    states = sorted(set(wanted))
    selector = ", ".join(f'#status[data-status="{state}"]' for state in states)
    await panel.locator(selector).first.wait_for(state="attached", timeout=timeout_s * 1000)
    return await status(panel)


async def wait_steps(panel: Page, count: int, timeout_s: float = 60.0) -> None:
    """Wait until the panel shows at least ``count`` steps."""
    await panel.wait_for_function(
        "(n) => document.querySelectorAll('ol#steps > li.step').length >= n", arg=count, timeout=timeout_s * 1000
    )


@dataclass(frozen=True)
class PanelStep:
    """One ``li.step`` of the panel as a person reads it."""

    index: str
    thought: str
    action: str
    verdict_success: str | None  # data-success of .verdict ("true"/"false"); None when none is shown (yet)
    verdict_tier: str | None


async def panel_steps(panel: Page) -> list[PanelStep]:
    rows = await panel.eval_on_selector_all(
        "ol#steps > li.step",
        """(items) => items.map((li) => {
            const verdict = li.querySelector('.verdict');
            const text = (sel) => (li.querySelector(sel)?.textContent || '').trim();
            return {index: li.dataset.stepIndex ?? '', thought: text('.thought'), action: text('.action'),
                    success: verdict ? verdict.getAttribute('data-success') || null : null,
                    tier: verdict ? verdict.getAttribute('data-tier') || null : null};
        })""",
    )
    return [PanelStep(r["index"], r["thought"], r["action"], r["success"], r["tier"]) for r in rows]


# -- the server's record -------------------------------------------------------------------------


def server_task(server_url: str, api_key: str, task_id: str) -> dict[str, Any]:
    """GET /api/tasks/{taskId}: the task as the server recorded it."""
    response = httpx.get(f"{server_url}/api/tasks/{task_id}", headers={"Authorization": f"Bearer {api_key}"}, timeout=10)
    response.raise_for_status()
    data: dict[str, Any] = response.json()
    return data


def unverified_steps(record: dict[str, Any]) -> list[int]:
    """Step indexes of the task whose action was executed but has no verdict that says
    success. The answer that ended the task (``finish()`` / ``fail()``) executes nothing: the
    contract's clauses are its proof, so it is not counted."""
    bad: list[int] = []
    for step in record["steps"]:
        if str(step["action"]).startswith(("finish(", "fail(")):
            continue
        verdict = step.get("verification") or {}
        if verdict.get("success") is not True:
            bad.append(int(step["stepIndex"]))
    return bad


# -- one task, start to end --------------------------------------------------------------------


@dataclass
class Run:
    """A task started from the side panel: the tab it drives and the panel."""

    extension: LoadedExtension
    page: Page
    tab_id: int
    panel: Page

    async def task_id(self) -> str | None:
        record = await self.extension.task_record(self.tab_id)
        task_id = record.get("taskId") if record else None
        return task_id if isinstance(task_id, str) else None

    async def wait_task_id(self, timeout_s: float = 30.0) -> str:
        deadline = time.monotonic() + timeout_s
        while (task_id := await self.task_id()) is None:
            if time.monotonic() > deadline:
                raise TimeoutError("the extension stored no taskId")
            await asyncio.sleep(0.05)
        return task_id

    async def finish(self, timeout_s: float = 60.0) -> str:
        """Wait for the panel's end state; returns it."""
        return await wait_status(self.panel, TERMINAL, timeout_s)

    async def status_text(self) -> str:
        """What the panel says of the task's end: the status line and the evidence under it
        (the final thought, the proven clauses, or the error with its code)."""
        line = (await self.panel.text_content("#status") or "").strip()
        evidence = (await self.panel.inner_text("#evidence")).strip()
        return f"{line}\n{evidence}".strip()


async def start(extension: LoadedExtension, url: str, goal: str, *, run: bool = True) -> Run:
    """Open ``url`` in a new tab, the side panel for that tab, type the goal and (``run``) click Run."""
    page = await extension.context.new_page()
    await page.goto(url, wait_until="load")
    tab_id = await extension.tab_id(page)
    panel = await extension.open_panel(tab_id)
    await panel.fill("#goal", goal)
    if run:
        await panel.click("#run")
    return Run(extension, page, tab_id, panel)


def server_tasks(server_url: str, api_key: str) -> list[dict[str, Any]]:
    """GET /api/tasks: the tenant's newest tasks (the first page)."""
    response = httpx.get(f"{server_url}/api/tasks", params={"limit": 100}, headers={"Authorization": f"Bearer {api_key}"}, timeout=10)
    response.raise_for_status()
    tasks: list[dict[str, Any]] = response.json()["tasks"]
    return tasks

