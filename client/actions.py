"""Execute one action of the Stepwise grammar on the page, by ``data-llm-id``.

Actions are parsed with the server's one grammar (:func:`verification.parse_action`).
Every element action first checks that the id exists (an :class:`ActionError` at once, not
a 30 s Playwright timeout) and then runs with a short explicit timeout; a Playwright
failure becomes an :class:`ActionError` whose message says why (covered, disabled, hidden…).
"""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Any, Final
from urllib.parse import quote_plus, urljoin

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator

from client.dialogs import running
from client.errors import ActionError
from client.input_values import SET_AS_VALUE, same_value, shaped
from verification import web_url
from verification.contract.values import parse_number
from client.snapshot import PageProbe
from verification import Action, ActionSyntaxError, format_action, parse_action

ACTION_TIMEOUT_MS: Final[int] = 3000
NAVIGATION_TIMEOUT_MS: Final[int] = 15000
MAX_WAIT_S: Final[float] = 30.0
TERMINAL: Final[frozenset[str]] = frozenset({"finish", "fail"})

_KEYS: Final[dict[str, str]] = {
    "enter": "Enter", "return": "Enter", "tab": "Tab", "escape": "Escape", "esc": "Escape",
    "space": "Space", "backspace": "Backspace", "delete": "Delete", "up": "ArrowUp", "down": "ArrowDown",
    "left": "ArrowLeft", "right": "ArrowRight", "arrowup": "ArrowUp", "arrowdown": "ArrowDown",
    "arrowleft": "ArrowLeft", "arrowright": "ArrowRight", "home": "Home", "end": "End",
    "pageup": "PageUp", "pagedown": "PageDown",
}
_DESCRIBE = """el => ({tag: el.tagName.toLowerCase(), type: (el.getAttribute('type') || '').toLowerCase(),
  editable: el.isContentEditable, role: (el.getAttribute('role') || '').toLowerCase(),
  multiple: el.tagName === 'SELECT' && el.multiple,
  min: el.getAttribute('min') || '', max: el.getAttribute('max') || '', step: el.getAttribute('step') || '',
  options: el.tagName === 'SELECT' ? Array.from(el.options).map(o => ({value: o.value, label: (o.label || o.text).trim(),
    selected: o.selected})) : []})"""
_ROLE = "el => window.__stepwise ? window.__stepwise.roleOf(el) : (el.getAttribute('role') || '')"
_SHOWN_VALUE = "el => window.__stepwise ? (window.__stepwise.valueOf(el) ?? null) : el.getAttribute('aria-valuenow')"
MAX_SLIDER_BATCHES: Final[int] = 12
MAX_SLIDER_KEYS: Final[int] = 1000
_SCROLL_INSIDE = """(el, dir) => {
  const before = [el.scrollLeft, el.scrollTop];
  if (dir === 'top') el.scrollTop = 0;
  else if (dir === 'bottom') el.scrollTop = el.scrollHeight;
  else el.scrollBy(({left: -0.8, right: 0.8}[dir] || 0) * el.clientWidth, ({up: -0.8, down: 0.8}[dir] || 0) * el.clientHeight);
  return before[0] !== el.scrollLeft || before[1] !== el.scrollTop;
}"""
_SCROLL = """(dir) => {
  const dx = {left: -0.8, right: 0.8}[dir] || 0, dy = {up: -0.8, down: 0.8}[dir] || 0;
  const moveWindow = () => {
    const before = [window.scrollX, window.scrollY];
    if (dir === 'top') window.scrollTo(0, 0);
    else if (dir === 'bottom') window.scrollTo(0, document.documentElement.scrollHeight);
    else window.scrollBy(dx * window.innerWidth, dy * window.innerHeight);
    return before[0] !== window.scrollX || before[1] !== window.scrollY;
  };
  if (moveWindow()) return 'window';
  let best = null, area = 0;
  for (const el of document.querySelectorAll('*')) {
    const st = getComputedStyle(el);
    if (!/(auto|scroll)/.test(st.overflowY + st.overflowX)) continue;
    if (el.scrollHeight <= el.clientHeight && el.scrollWidth <= el.clientWidth) continue;
    const a = el.clientWidth * el.clientHeight;
    if (a > area) { area = a; best = el; }
  }
  if (!best) return 'none';
  const before = [best.scrollLeft, best.scrollTop];
  if (dir === 'top') best.scrollTop = 0;
  else if (dir === 'bottom') best.scrollTop = best.scrollHeight;
  else best.scrollBy(dx * best.clientWidth, dy * best.clientHeight);
  return before[0] !== best.scrollLeft || before[1] !== best.scrollTop ? 'container' : 'none';
}"""


def to_action(action: Action | str) -> Action:
    if isinstance(action, Action):
        return action
    try:
        return parse_action(action)
    except ActionSyntaxError as exc:
        raise ActionError(f"not an action of the grammar: {exc}", code="BAD_ACTION") from exc


async def execute_action(probe: PageProbe, action: Action | str, *, timeout_ms: int = ACTION_TIMEOUT_MS) -> Action:
    """Run ``action`` on the probe's page. Raises :class:`ActionError`; returns the parsed action.
    ``finish()`` and ``fail()`` do nothing on the page: the loop ends the task on them."""
    parsed = to_action(action)
    try:
        with running(probe.page, format_action(parsed)):  # a native dialog it raises is reported as its (client.dialogs)
            await _dispatch(probe, parsed, timeout_ms)
    except ActionError:
        raise
    except PlaywrightError as exc:
        raise ActionError(f"{parsed.name} failed: {_reason(exc)}") from exc
    return parsed


async def _dispatch(probe: PageProbe, action: Action, timeout_ms: int) -> None:
    page = probe.page
    match action.name:
        case "click":
            await _element_call(await _locate(probe, action), "click", timeout_ms)
        case "hover":
            await _element_call(await _locate(probe, action), "hover", timeout_ms)
        case "setValue":
            await _set_value(await _locate(probe, action), action.value or "", timeout_ms)
        case "select":
            await _select(probe, await _locate(probe, action), action.value or "", timeout_ms)
        case "press":
            key = _KEYS.get((action.value or "").lower(), action.value or "")
            if action.target:
                await (await _locate(probe, action)).press(key, timeout=timeout_ms)
            else:
                await page.keyboard.press(key)
        case "scroll":
            if action.target and action.value:
                moved = await (await _locate(probe, action)).evaluate(_SCROLL_INSIDE, action.value, timeout=timeout_ms)
                if not moved:
                    raise ActionError(f"element {action.target} has nothing to scroll {action.value}", code="NOT_ACTIONABLE")
            elif action.target:
                await (await _locate(probe, action)).scroll_into_view_if_needed(timeout=timeout_ms)
            else:
                moved = await page.evaluate(_SCROLL, action.value or "down")
                if moved == "none":
                    raise ActionError(f"nothing to scroll {action.value or 'down'} on this page", code="NOT_ACTIONABLE")
        case "navigate":
            await _navigate(probe, urljoin(page.url, (action.value or "").strip()))
        case "googleSearch":
            await _navigate(probe, "https://www.google.com/search?q=" + quote_plus(action.value or ""))
        case "goBack":
            before = page.url
            try:
                await page.go_back(wait_until="domcontentloaded", timeout=NAVIGATION_TIMEOUT_MS)
            except PlaywrightError as exc:
                raise ActionError(f"goBack failed: {_reason(exc)}", code="NAVIGATION_FAILED") from exc
            if page.url == before:
                raise ActionError("goBack: there is no previous page in this tab", code="NAVIGATION_FAILED")
        case "wait":
            await asyncio.sleep(min(action.seconds if action.seconds is not None else 1.0, MAX_WAIT_S))
        case "finish" | "fail":
            return
        case _:
            raise ActionError(f"the client cannot execute {action.name}()", code="UNSUPPORTED")


async def _locate(probe: PageProbe, action: Action) -> Locator:
    assert action.target is not None
    return await probe.locate(action.target)


async def _element_call(locator: Locator, method: str, timeout_ms: int) -> None:
    try:
        await getattr(locator, method)(timeout=timeout_ms)
    except PlaywrightError as exc:
        raise ActionError(f"{method} failed: {_reason(exc)}") from exc


async def _describe(locator: Locator, timeout_ms: int) -> dict[str, Any]:
    described: dict[str, Any] = await locator.evaluate(_DESCRIBE, timeout=timeout_ms)
    return described


async def _set_value(locator: Locator, text: str, timeout_ms: int) -> None:
    """Put ``text`` into the field, in the shape its type takes (:mod:`client.input_values`).
    On a ``<select>`` it chooses that one option (a multi-select keeps only it)."""
    info = await _describe(locator, timeout_ms)
    if info["tag"] == "select":
        await _select_native(locator, info, text, timeout_ms, add=False)
        return
    if info["tag"] != "input" and await locator.evaluate(_ROLE, timeout=timeout_ms) == "slider":
        await _drive_slider(locator, text, timeout_ms)
        return
    kind = info["type"]
    if kind in ("checkbox", "radio"):
        await locator.set_checked(text.strip().lower() not in ("", "false", "0", "off", "no", "unchecked"), timeout=timeout_ms)
        return
    value = shaped(kind, text, low=info["min"], high=info["max"], step=info["step"]) if info["tag"] == "input" else text
    try:
        await locator.fill(value, timeout=timeout_ms)
    except PlaywrightError as exc:
        raise ActionError(f"setValue failed: {_reason(exc)}") from exc
    if info["tag"] == "input" and kind in SET_AS_VALUE:
        # Set as a value (input and change already fired): a value the input refused reads back otherwise.
        held = await locator.input_value(timeout=timeout_ms)
        if not same_value(kind, value, held):
            raise ActionError(f"setValue: the {kind} field did not take {value!r} (it holds {held!r})")
    else:
        await locator.dispatch_event("change", timeout=timeout_ms)
    await locator.evaluate("el => window.__stepwise && window.__stepwise.markTyped(el)", timeout=timeout_ms)


async def _drive_slider(locator: Locator, text: str, timeout_ms: int) -> None:
    """Move an ARIA or script-made slider to ``text`` with its arrow keys (Right/Up raise the
    value, Left/Down lower it, as WAI-ARIA and jQuery UI sliders agree), reading the value it
    shows after each batch: one key first, to learn its step, then as many as the distance
    needs, then single keys to settle. Refuses a value the slider cannot show."""
    target = parse_number(text)
    if target is None:
        raise ActionError(f"setValue: {text!r} is not a number a slider can take")

    async def current() -> Decimal:
        shown = await locator.evaluate(_SHOWN_VALUE, timeout=timeout_ms)
        number = parse_number(shown) if isinstance(shown, str) else None
        if number is None:
            raise ActionError("setValue: the slider shows no number to steer by (no aria-valuenow, no value beside it)")
        return number

    value = await current()
    step: Decimal | None = None
    for _ in range(MAX_SLIDER_BATCHES):
        if value == target:
            return
        key = "ArrowRight" if value < target else "ArrowLeft"
        presses = 1 if step is None else max(1, int(abs(target - value) / step))
        for _ in range(min(presses, MAX_SLIDER_KEYS)):
            await locator.press(key, timeout=timeout_ms)
        moved = await current()
        if moved == value:
            raise ActionError(f"setValue: the slider stops at {value}; it cannot reach {text!r}")
        if (value < target) != (moved < target) and moved != target:
            raise ActionError(f"setValue: the slider steps over {text!r} (from {value} to {moved})")
        step = step or abs(moved - value)
        value = moved
    raise ActionError(f"setValue: the slider did not reach {text!r} (it shows {value})")


async def _select(probe: PageProbe, locator: Locator, option: str, timeout_ms: int) -> None:
    info = await _describe(locator, timeout_ms)
    if info["tag"] == "select":
        await _select_native(locator, info, option, timeout_ms, add=True)
        return
    # A custom listbox/combobox: open it, then click the option with that text.
    await _element_call(locator, "click", timeout_ms)
    frame = probe.frame_of(await locator.get_attribute("data-llm-id", timeout=timeout_ms) or "")
    candidates = frame.get_by_role("option", name=option, exact=False)
    if await candidates.count() == 0:
        raise ActionError(f"no option {option!r} in this list", code="NOT_ACTIONABLE")
    await _element_call(candidates.first, "click", timeout_ms)


async def _select_native(locator: Locator, info: dict[str, Any], option: str, timeout_ms: int, *, add: bool) -> None:
    """Choose ``option`` (by label, value, or label case-folded). With ``add`` on a
    multi-select the options already selected stay selected, as a Ctrl-click leaves them
    (Playwright's ``select_option`` sets the whole selection, so it gets the union)."""
    options: list[dict[str, Any]] = info["options"]
    wanted = option.strip()
    index = next((i for i, o in enumerate(options) if o["label"] == wanted), None)
    if index is None:
        index = next((i for i, o in enumerate(options) if o["value"] == wanted), None)
    if index is None:
        folded = wanted.casefold()
        index = next((i for i, o in enumerate(options) if o["label"].casefold() == folded), None)
    if index is None:
        labels = ", ".join(repr(o["label"]) for o in options[:10])
        raise ActionError(f"no option {option!r} in this list (options: {labels})", code="NOT_ACTIONABLE")
    if add and info["multiple"]:
        chosen = sorted({i for i, o in enumerate(options) if o["selected"]} | {index})
        await locator.select_option(index=chosen, timeout=timeout_ms)
        return
    await locator.select_option(index=index, timeout=timeout_ms)


async def _navigate(probe: PageProbe, url: str) -> None:
    if web_url(url) is None:
        raise ActionError(f"navigate: refusing to open {url!r} (only http(s) URLs with a host)", code="BAD_ACTION")
    try:
        await probe.page.goto(url, wait_until="domcontentloaded", timeout=NAVIGATION_TIMEOUT_MS)
    except PlaywrightError as exc:
        raise ActionError(f"navigate to {url!r} failed: {_reason(exc)}", code="NAVIGATION_FAILED") from exc


def _reason(exc: BaseException) -> str:
    """The useful line of a Playwright error (its call log says why an element was refused)."""
    text = str(exc)
    lines = [line.strip(" -") for line in text.splitlines() if line.strip()]
    for line in reversed(lines):
        if "intercepts pointer events" in line:
            return "the element is covered by another element (" + line.split(" intercepts")[0] + ")"
    for needle, reason in (
        ("element is not enabled", "the element is disabled"),
        ("element is disabled", "the element is disabled"),
        ("element is not visible", "the element is not visible"),
        ("not attached to the DOM", "the element left the page"),
        ("element is not editable", "the element is not editable"),
        ("Element is not an <input>", "the element does not take text"),
    ):
        if any(needle in line for line in lines):
            return reason
    return lines[0][:300] if lines else type(exc).__name__
