"""What the chain guards cost per action (docs/client.md "Chain guards").

    .venv/bin/python bench/chain_guards.py [--runs N] [--out FILE]

In a real headless Chromium, on tests/e2e/pages/chain.html (served through a Playwright route,
no network), it runs the same 6-action chain (five fields — four setValue and a select — then a
guarded Submit carrying ``requireValues`` for all five) ``--runs`` times with the guards on and
``--runs`` times with them bypassed (``run_chain(guards=False)``), reloading the page between
runs. It reports, as medians:

a. the time of each guard call (``guard_before`` + ``guard_after`` of one action, measured
   around the calls themselves) — the guards' own cost per action;
b. the whole chain's wall time, on and off, and their difference divided by 6 — the cost per
   action as a user waits for it (the settle between actions included, so noisier).

Timing only: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playwright.async_api import Page, Route  # noqa: E402

import client.chain as chain_module  # noqa: E402
from client import NetworkTracker, PageProbe, launch_browser, new_context  # noqa: E402
from client.chain import ChainItem, run_chain  # noqa: E402
from client.chain_guards import Expect  # noqa: E402

URL = "http://bench.test/chain.html"
PAGE = ROOT / "tests" / "e2e" / "pages" / "chain.html"
FIELDS = (("first", "First name", "Ada"), ("last", "Last name", "Lovelace"), ("email", "Email", "ada@example.com"),
          ("phone", "Phone", "555 0100"), ("country", "Country", "France"))


async def _ids(page: Page, probe: PageProbe) -> dict[str, str]:
    await page.goto(URL)
    await probe.capture()
    pairs = await page.eval_on_selector_all("[data-llm-id]", "els => els.map(e => [e.id, e.getAttribute('data-llm-id')])")
    return {html_id: llm_id for html_id, llm_id in pairs if html_id}


def _chain(ids: dict[str, str]) -> list[ChainItem]:
    items = []
    for index, (key, name, value) in enumerate(FIELDS):
        verb, role = ("select", "combobox") if key == "country" else ("setValue", "textbox")
        items.append(ChainItem(action=f'{verb}("{ids[key]}", "{value}")', index=index, expect=Expect(role, name)))
    required = tuple((ids[key], value) for key, _name, value in FIELDS)
    items.append(ChainItem(action=f'click("{ids["submit"]}")', index=5, expect=Expect("button", "Submit"),
                           require_values=required, commit=True))
    return items


def _timed(calls: list[float], function: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await function(*args, **kwargs)
        finally:
            calls.append((time.perf_counter() - started) * 1000)
    return wrapper


async def measure(runs: int) -> dict[str, Any]:
    html = PAGE.read_text(encoding="utf-8")

    async def serve(route: Route) -> None:
        await route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)

    before_calls: list[float] = []
    after_calls: list[float] = []
    chain_module.guard_before = _timed(before_calls, chain_module.guard_before)  # type: ignore[assignment]
    chain_module.guard_after = _timed(after_calls, chain_module.guard_after)  # type: ignore[assignment]
    walls: dict[bool, list[float]] = {True: [], False: []}
    per_action: list[float] = []
    async with launch_browser() as browser:
        context = await new_context(browser)
        await context.route("http://bench.test/**", serve)
        page = await context.new_page()
        probe = PageProbe(page)
        await probe.install()
        network = NetworkTracker(page)
        for run in range(runs * 2):
            guards = run % 2 == 0  # interleaved, so drift in the machine's load hits both alike
            items = _chain(await _ids(page, probe))
            before_calls.clear()
            after_calls.clear()
            started = time.perf_counter()
            outcome = await run_chain(probe, network, items, guards=guards)
            walls[guards].append((time.perf_counter() - started) * 1000)
            if not outcome.completed:
                raise RuntimeError(f"the bench chain did not complete: {outcome.report()}")
            if guards:
                # One before-guard per action; one after-guard per setValue/select (the first five).
                per_action.extend(b + (after_calls[i] if i < len(after_calls) else 0.0) for i, b in enumerate(before_calls))
        network.close()
        await context.close()
    on, off = statistics.median(walls[True]), statistics.median(walls[False])
    return {
        "runs": runs,
        "actions_per_chain": 6,
        "guard_ms_per_action_median": round(statistics.median(per_action), 2),
        "guard_ms_per_action_p90": round(statistics.quantiles(per_action, n=10)[-1], 2) if len(per_action) >= 10 else None,
        "chain_ms_median_guards_on": round(on, 1),
        "chain_ms_median_guards_off": round(off, 1),
        "wall_ms_per_action_difference": round((on - off) / 6, 2),
        "python": platform.python_version(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    result = asyncio.run(measure(args.runs))
    text = json.dumps(result, indent=2)
    print(text)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
