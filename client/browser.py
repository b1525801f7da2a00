"""Debian's Chromium, driven through Playwright (never a downloaded browser).

``async with launch_browser() as browser:`` starts ``/usr/bin/chromium`` headless with the
flags this machine needs (as root: ``--no-sandbox``; on a closed network the background
services are switched off, or Chromium floods refused connections).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Final

from playwright.async_api import Browser, BrowserContext, ViewportSize, async_playwright

CHROMIUM_PATH: Final[str] = "/usr/bin/chromium"
CHROMIUM_ARGS: Final[tuple[str, ...]] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
DEFAULT_VIEWPORT: Final[ViewportSize] = {"width": 1280, "height": 800}


class BrowserUnavailable(RuntimeError):
    """No Chromium binary to drive."""


def chromium_path() -> str:
    """``$STEPWISE_CHROMIUM`` or ``/usr/bin/chromium`` (install it with ``apt-get install chromium``)."""
    path = os.environ.get("STEPWISE_CHROMIUM") or CHROMIUM_PATH
    if not Path(path).exists() and shutil.which(path) is None:
        raise BrowserUnavailable(f"Chromium not found at {path!r}: install Debian's package (apt-get install -y chromium)")
    return path


@asynccontextmanager
async def launch_browser(
    *, headed: bool = False, slow_mo_ms: float | None = None, extra_args: Sequence[str] = ()
) -> AsyncIterator[Browser]:
    """A running Chromium; closed (with its Playwright driver) on exit. ``extra_args`` are
    added to the default flags (e.g. ``--host-resolver-rules=MAP *.test 127.0.0.1`` for a
    bench serving several host names from one loopback server)."""
    executable = chromium_path()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=executable,
            headless=not headed,
            args=[*CHROMIUM_ARGS, *extra_args],
            slow_mo=slow_mo_ms,
        )
        try:
            yield browser
        finally:
            await browser.close()


async def new_context(browser: Browser, *, viewport: ViewportSize | None = None) -> BrowserContext:
    """A fresh profile (no cookies, no storage) with the client's default viewport."""
    return await browser.new_context(viewport=viewport or DEFAULT_VIEWPORT)
