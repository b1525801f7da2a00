"""The MiniWoB++ environment as the package ships it: its ``html/`` folder served on
127.0.0.1, episodes started and scored with the environment's own JavaScript.

What the shipped ``core/core.js`` (miniwob 1.x) provides, and the harness uses:

* ``Math.seedrandom(seed)`` — seeds the task generator (as the package's own Selenium
  driver does before each episode);
* ``core.EPISODE_MAX_TIME`` — the episode time limit in ms (10 000 unless the task sets it);
* ``core.startEpisodeReal()`` — hides the START cover, generates the problem, starts the timer;
* ``WOB_TASK_READY`` — false while a task is still setting itself up;
* ``core.getUtterance()`` — the instruction (text; a few tasks return ``{utterance, fields}``);
* ``WOB_DONE_GLOBAL``, ``WOB_REWARD_GLOBAL`` (time-discounted), ``WOB_RAW_REWARD_GLOBAL``,
  ``WOB_REWARD_REASON`` — set by ``core.endEpisode(reward)``; a time-out gives -1.
"""

from __future__ import annotations

import asyncio
import importlib.resources
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any

from playwright.async_api import Page

from client.serving import serve_in_thread

_READ_REWARD = """() => ({done: WOB_DONE_GLOBAL, reward: WOB_REWARD_GLOBAL, raw: WOB_RAW_REWARD_GLOBAL,
  reason: WOB_REWARD_REASON === null || WOB_REWARD_REASON === undefined ? null : String(WOB_REWARD_REASON)})"""


def html_root() -> Path:
    """The package's ``html/`` folder (``miniwob/html/miniwob/<task>.html`` lives under it)."""
    root = Path(str(importlib.resources.files("miniwob").joinpath("html")))
    if not (root / "core" / "core.js").is_file():
        raise FileNotFoundError(f"no MiniWoB html folder at {root}")
    return root


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


def serve_html(root: Path | None = None) -> tuple[str, Callable[[], None]]:
    """Serve the html folder on a free loopback port (MiniWoB refuses file:// for some tasks)."""
    return serve_in_thread(partial(_QuietHandler, directory=str(root or html_root())), name="miniwob-html")


@dataclass(frozen=True)
class Reward:
    done: bool
    reward: float  # time-discounted, as the environment reports it
    raw: float  # without the time discount
    reason: str | None

    @property
    def success(self) -> bool:
        return self.done and self.raw > 0


async def start_episode(
    page: Page, base_url: str, task: str, seed: int, *, episode_ms: int | None = None
) -> str:
    """Open the task, seed it, start an episode; returns the utterance (the goal)."""
    await page.goto(f"{base_url}/miniwob/{task}.html", wait_until="load")
    await page.wait_for_function(
        "() => typeof core !== 'undefined' && core.cover_div !== null", timeout=10_000
    )
    await page.evaluate("(seed) => Math.seedrandom(seed)", seed)
    if episode_ms is not None:
        await page.evaluate("(ms) => { core.EPISODE_MAX_TIME = ms; }", episode_ms)
    await page.evaluate("() => core.startEpisodeReal()")
    for _ in range(40):
        if await page.evaluate("() => WOB_TASK_READY"):
            break
        await asyncio.sleep(0.05)
    else:
        raise RuntimeError(f"{task}: the task did not become ready")
    utterance = await page.evaluate("() => core.getUtterance()")
    if isinstance(utterance, dict):
        utterance = utterance.get("utterance", "")
    return " ".join(str(utterance).split())


async def episode_limit_ms(page: Page) -> int:
    return int(await page.evaluate("() => core.EPISODE_MAX_TIME"))


async def read_reward(page: Page) -> Reward:
    data = await page.evaluate(_READ_REWARD)
    return Reward(
        done=bool(data["done"]),
        reward=float(data["reward"]),
        raw=float(data["raw"]),
        reason=data["reason"],
    )
