"""``python -m bench.gym check SITE…``: every doable goal's human solution replayed in
Chromium, and the site's own log compared with the goal's expected events. A broken site or
a wrong expectation makes every other figure of the gym meaningless, so this runs first."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Final

from playwright.async_api import Browser, Page
from playwright.async_api import Error as PlaywrightError

from bench.gym.events import difference
from bench.gym.server import GymServer
from bench.gym.spec import Event, Goal, Site, Step
from bench.gym.steps import StepNotFound, perform, settle
from client.browser import launch_browser, new_context

QUIET_S: Final = 0.8
MAX_WAIT_S: Final = 6.0


@dataclass(frozen=True)
class Replay:
    goal: Goal
    ok: bool
    detail: str


async def wait_for_events(server: GymServer, *, quiet_s: float = QUIET_S, max_wait_s: float = MAX_WAIT_S) -> list[Event]:
    """The log once it has stopped growing for ``quiet_s`` (keep-alive posts, debounced saves)."""
    deadline, seen, since = time.monotonic() + max_wait_s, -1, time.monotonic()
    while time.monotonic() < deadline:
        count = len(server.events())
        if count != seen:
            seen, since = count, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            break
        await asyncio.sleep(0.1)
    return server.events()


async def run_steps(page: Page, site: Site, steps: tuple[Step, ...]) -> None:
    for index, step in enumerate(steps):
        try:
            await perform(page, step, site.root)
        except (StepNotFound, PlaywrightError) as exc:
            raise StepFailed(index, step, str(exc).splitlines()[0]) from exc


class StepFailed(RuntimeError):
    def __init__(self, index: int, step: Step, why: str) -> None:
        super().__init__(f"step {index + 1} ({step.describe()}): {why}")


async def prepare(page: Page, site: Site, server: GymServer, goal: Goal) -> None:
    """The goal's start page, its setup done, and an empty log."""
    await page.goto(server.url(goal.start))
    await settle(page)
    if goal.setup:
        try:
            await run_steps(page, site, goal.setup)
        except StepFailed as exc:
            raise StepFailed(0, goal.setup[0], f"setup: {exc}") from exc
        await wait_for_events(server, quiet_s=0.4)
    server.clear()


async def replay(site: Site, server: GymServer, browser: Browser, goal: Goal) -> Replay:
    context = await new_context(browser)
    try:
        page = await context.new_page()
        page.on("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
        await prepare(page, site, server, goal)
        await run_steps(page, site, goal.steps)
        logged = await wait_for_events(server)
    except StepFailed as exc:
        return Replay(goal, False, str(exc))
    finally:
        await context.close()
    gap = difference(goal.expect, logged)
    return Replay(goal, not gap, gap)


async def check_site(site: Site, *, only: set[str] | None = None) -> list[Replay]:
    results: list[Replay] = []
    with GymServer(site.www) as server:
        async with launch_browser() as browser:
            for goal in site.goals:
                if goal.doable and (only is None or goal.id in only):
                    results.append(await replay(site, server, browser, goal))
    return results


def report(site: Site, results: list[Replay]) -> str:
    lines = [f"{'PASS' if r.ok else 'FAIL'} {site.key}/{r.goal.id}" + ("" if r.ok else f": {r.detail}") for r in results]
    doable = [g for g in site.goals if g.doable]
    splits = {s: sum(1 for g in site.goals if g.split == s) for s in ("tune", "heldout")}
    lines.append(
        f"{site.key}: {sum(r.ok for r in results)}/{len(results)} solutions log exactly their expected events "
        f"({len(doable)} doable, {len(site.goals) - len(doable)} undoable; tune {splits['tune']}, held-out {splits['heldout']})"
    )
    return "\n".join(lines)
