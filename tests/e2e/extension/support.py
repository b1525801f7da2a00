"""Helpers of the extension's end-to-end tests: where the built extension is, its id, and a
handle on a loaded extension (its service worker, options page, side panel, task records)."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import BrowserContext, Page, Worker

from client.local_server import LocalServer

DIST = Path(__file__).resolve().parents[3] / "extension" / "dist"


def extension_id(manifest: Path = DIST / "manifest.json") -> str:
    """The id Chrome gives the extension: the manifest's public key, SHA-256, first 32 hex digits as a-p."""
    key = base64.b64decode(json.loads(manifest.read_text(encoding="utf-8"))["key"])
    return "".join(chr(ord("a") + int(digit, 16)) for digit in hashlib.sha256(key).hexdigest()[:32])


@dataclass
class Extension:
    context: BrowserContext
    worker: Worker
    id: str

    @property
    def base(self) -> str:
        return f"chrome-extension://{self.id}"

    async def sw(self) -> Worker:
        """The service worker now (a restarted worker is a new one)."""
        for worker in self.context.service_workers:
            if worker.url.startswith(self.base):
                self.worker = worker
                return worker
        self.worker = await self.context.wait_for_event("serviceworker", timeout=15_000)
        return self.worker

    async def configure(self, server: LocalServer) -> Page:
        """Fill and save the options page as a person would; returns that page."""
        options = await self.context.new_page()
        await options.goto(f"{self.base}/options.html")
        await options.fill("#server-url", server.url)
        await options.fill("#api-key", server.api_key)
        await options.click("#save")
        await options.wait_for_selector("#saved:not([hidden])")
        return options

    async def tab_id(self, url_prefix: str) -> int:
        """chrome.tabs id of the tab whose URL starts with ``url_prefix``."""
        worker = await self.sw()
        found: Any = await worker.evaluate(
            "async (prefix) => (await chrome.tabs.query({})).filter((t) => (t.url || '').startsWith(prefix)).map((t) => t.id)",
            url_prefix,
        )
        assert found, f"no tab at {url_prefix}"
        return int(found[0])

    async def open_panel(self, tab_id: int) -> Page:
        """The side panel opened as a normal tab, driving ``tab_id``."""
        panel = await self.context.new_page()
        await panel.goto(f"{self.base}/sidepanel.html?tabId={tab_id}")
        return panel

    async def task(self, tab_id: int) -> dict[str, Any]:
        worker = await self.sw()
        record: dict[str, Any] = await worker.evaluate(
            "async (key) => (await chrome.storage.local.get(key))[key] || null", f"task_{tab_id}"
        )
        return record
