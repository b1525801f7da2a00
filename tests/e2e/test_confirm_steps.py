"""A destructive click the page answers with "are you sure?" — a confirmation page, a modal
dialog, other words — on a real page through the reference client and the real server (with
no model, and pointed at a fake Gemini that lies): the task never completes at the question;
the user is asked; a yes clicks the page's own confirmation and the task completes only when
the page shows the subscription cancelled; a no cancels nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from client import RunResult, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

GOAL = "Click Cancel subscription"
# The same wish as the control's name, with the plan it is in: read on the page (agent/named_controls.py).
NAMED_GOAL = "Cancel my Pro subscription"


@pytest.fixture
def server(plain_or_lying_server: LocalServer) -> LocalServer:
    """Every case runs with no model and with a model that lies (tests/e2e/conftest.py)."""
    return plain_or_lying_server


async def _run(url: str | None, page: Page, server: LocalServer, tmp_path: Path, goal: str = GOAL, **resume: Any) -> RunResult:
    return await run_task(goal, url, server=server.url, api_key=server.api_key, page=page, max_steps=8,
                          state_file=str(tmp_path / "state.json"), **resume)  # fmt: skip


def _story(result: RunResult) -> list[tuple[str, str]]:
    return [(s.task_status, s.action) for s in result.steps]


@pytest.mark.parametrize(("layout", "goal"), [("page", GOAL), ("modal", GOAL), ("wording", GOAL), ("page", NAMED_GOAL), ("modal", NAMED_GOAL)])
async def test_the_question_goes_to_the_user_and_a_yes_completes_it(page: Page, pages_url: str, server: LocalServer, tmp_path: Path, layout: str, goal: str) -> None:
    asked = await _run(f"{pages_url}/pages/confirm_steps.html?layout={layout}", page, server, tmp_path, goal)
    assert asked.status == "needs_user_input", (asked.status, asked.error_code, asked.error, _story(asked))
    assert await page.evaluate("() => window.__cancelled") is False  # the first click only asked
    resumed = await _run(None, page, server, tmp_path, goal, task_id=asked.task_id, session_id=asked.session_id, confirm=True)
    assert resumed.status == "completed", (resumed.status, resumed.error_code, resumed.error, _story(resumed))
    assert await page.evaluate("() => window.__cancelled") is True
    assert resumed.contract is not None and resumed.contract["satisfied"] is True


async def test_a_no_cancels_nothing(page: Page, pages_url: str, server: LocalServer, tmp_path: Path) -> None:
    asked = await _run(f"{pages_url}/pages/confirm_steps.html?layout=page", page, server, tmp_path)
    assert asked.status == "needs_user_input", (asked.status, asked.error_code, asked.error, _story(asked))
    declined = await _run(None, page, server, tmp_path, task_id=asked.task_id, session_id=asked.session_id, confirm=False)
    assert declined.status == "failed" and declined.error_code == "USER_DECLINED", (declined.status, declined.error_code)
    assert await page.evaluate("() => window.__cancelled") is False
