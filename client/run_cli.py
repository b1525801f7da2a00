"""``stepwise run "<goal>" --url URL [--server URL] [--headed] [--max-steps N]``.

Without ``--server`` a local Stepwise is started for the run (SQLite at
``$STEPWISE_DATABASE_URL`` or ``./data/stepwise.db``, so the task's record outlives the run).
With ``--server``, the key is ``api_key`` or ``$STEPWISE_API_KEY``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from playwright.async_api import Error as PlaywrightError

from client.browser import BrowserUnavailable
from client.local_server import LocalServerError, local_server, sqlite_url
from client.loop import run_task
from client.progress import ProgressPrinter


async def run_command(
    goal: str,
    url: str,
    server: str | None = None,
    api_key: str | None = None,
    headed: bool = False,
    max_steps: int = 30,
    quiet: bool = False,
    mask: Callable[[str], str] = str,
) -> int:
    """Run one goal in a real Chromium through Stepwise; 0 when it finished, 1 otherwise.
    ``mask`` is applied to every line printed (the goal's secrets as placeholders)."""
    out = sys.stdout
    database_url: str | None = None
    with contextlib.ExitStack() as stack:
        local = server is None
        if local:
            database_url = os.environ.get("STEPWISE_DATABASE_URL") or sqlite_url(Path("data/stepwise.db"))
            print("Starting a local Stepwise server …", file=out, flush=True)
            try:
                started = await asyncio.to_thread(stack.enter_context, local_server(database_url=database_url))
            except LocalServerError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 1
            server, api_key = started.url, started.api_key
        else:
            api_key = api_key or os.environ.get("STEPWISE_API_KEY")
            if not api_key:
                print("error: --server needs an API key (STEPWISE_API_KEY)", file=sys.stderr)
                return 1
        assert server is not None
        print(mask(f"Goal: {goal!r}\nPage: {url}\nServer: {server}{' (local)' if local else ''}"), file=out, flush=True)
        printer = ProgressPrinter(out, quiet=quiet, mask=mask)
        began = time.monotonic()
        try:
            result = await run_task(goal, url, server=server, api_key=api_key, headed=headed, max_steps=max_steps, on_step=printer)
        except (BrowserUnavailable, PlaywrightError) as exc:
            first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            hint = " (--headed needs a display: set DISPLAY or use xvfb-run)" if headed and not os.environ.get("DISPLAY") else ""
            print(f"error: cannot start Chromium: {first_line}{hint}", file=sys.stderr)
            return 1
        printer.summary(result, time.monotonic() - began)
        if result.task_id:
            print(f"Task record: GET {server}/api/tasks/{result.task_id}  (Authorization: Bearer <key>)", file=out)
            if local:
                print(
                    f"  The local server has stopped; the record is kept in {database_url}. Read it with "
                    "`stepwise serve` on that database and a key from `stepwise keys create --tenant local --user local`.",
                    file=out,
                )
        return 0 if result.ok else 1
