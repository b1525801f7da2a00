"""A human solution carried out in Chromium: each step's element found as a screen reader
finds it (role and accessible name, exactly), then acted on as a person would."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Final

from playwright.async_api import FrameLocator, Locator, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from bench.gym.spec import Step

SETTLE_MS: Final = 250
APPEAR_S: Final = 5.0  # a person waits this long for an element to show (a debounced list, a late redirect)
FIELDS: Final = "xpath=following::*[self::input[not(@type='hidden')] or self::textarea or self::select or @contenteditable='true'][1]"


class StepNotFound(LookupError):
    """The element a step names is not on the page (or is not one element)."""


async def locate(page: Page, step: Step, *, appear_s: float = APPEAR_S) -> Locator:
    scope: Page | FrameLocator | Locator = page
    if step.frame is not None:
        scope = page.frame_locator(f"iframe[title={_css_string(step.frame)}]")
    if step.within is not None:
        scope = await _innermost(scope.get_by_role(step.within.role).filter(has_text=step.within.text), step, appear_s)  # type: ignore[arg-type]
    if step.label is not None:
        target = scope.get_by_text(step.label, exact=True).first.locator(FIELDS)
    else:
        target = scope.get_by_role(step.role, name=step.name, exact=True)  # type: ignore[arg-type]
    if step.nth is not None:
        return target.nth(step.nth)
    count = await _settled_count(target, appear_s)
    if count != 1:
        raise StepNotFound(f"{step.describe()}: {count} elements match" if count else f"{step.describe()}: not on the page")
    return target


async def _settled_count(target: Locator, appear_s: float) -> int:
    """How many elements match once one has appeared (or the wait is over)."""
    deadline = time.monotonic() + appear_s
    count = await target.count()
    while count == 0 and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        count = await target.count()
    return count


async def perform(page: Page, step: Step, root: Path, *, timeout_ms: float = 5000) -> None:
    target = await locate(page, step)
    match step.do:
        case "click":
            await target.click(timeout=timeout_ms)
        case "fill":
            await target.fill(step.value or "", timeout=timeout_ms)
        case "type":
            await target.click(timeout=timeout_ms)
            await target.press_sequentially(step.value or "", delay=40, timeout=timeout_ms)
        case "select":
            await target.select_option(label=step.value, timeout=timeout_ms)
        case "check":
            await target.check(timeout=timeout_ms)
        case "uncheck":
            await target.uncheck(timeout=timeout_ms)
        case "press":
            await target.press(step.key or "Enter", timeout=timeout_ms)
        case "upload":
            file = root / "files" / (step.file or "")
            await target.set_input_files(file if file.is_file() else root / (step.file or ""), timeout=timeout_ms)
        case "hover":
            await target.hover(timeout=timeout_ms)
    await settle(page)


async def settle(page: Page) -> None:
    try:
        await page.wait_for_load_state("load", timeout=5000)
    except PlaywrightTimeout:
        pass  # a page that never finishes loading is the site's to show, not a step's error
    await page.wait_for_timeout(SETTLE_MS)


async def _innermost(candidates: Locator, step: Step, appear_s: float) -> Locator:
    count = await _settled_count(candidates, appear_s)
    if count == 0:
        assert step.within is not None
        raise StepNotFound(f"{step.describe()}: no {step.within.role} with {step.within.text!r}")
    if count == 1:
        return candidates
    lengths = await candidates.evaluate_all("els => els.map(e => (e.innerText || e.textContent || '').length)")
    return candidates.nth(min(range(count), key=lambda i: lengths[i]))


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
