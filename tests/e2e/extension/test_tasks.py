"""Tasks through the built extension, end to end: the options page configured through its
form, the goal typed into the side panel, Run clicked — on the demo clinic and on two
fixture sites of other layouts and phrasings (a one-page settings form with a select, a
checkbox and a toast; a search → record → edit flow over real navigations).

Each test proves three things: the panel says ``completed`` and every verdict it shows says
success; the server's own task record (GET /api/tasks/{taskId}) is completed with every
executed step verified; and the site's server recorded the change the goal asked for —
exactly once. And Stop in the panel ends a task before it acts again.

The side panel is screenshotted during the clinic task (after two steps are shown) into the
test's tmp dir; with ``STEPWISE_DOCS_SCREENSHOT=1`` the copy for the README is written to
``docs/images/extension-side-panel.png``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from client.local_server import LocalServer
from tests.e2e.extension.fixtures import Sites
from tests.e2e.extension.harness import REPO, LoadedExtension, Run, panel_steps, server_task, server_tasks, start, unverified_steps, wait_steps

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

DOCS_SCREENSHOT = REPO / "docs" / "images" / "extension-side-panel.png"


async def assert_completed(run: Run, server: LocalServer) -> dict[str, Any]:
    """The panel and the server agree the task completed with every step verified; returns
    the server's record."""
    final = await run.finish()
    steps = await panel_steps(run.panel)
    assert final == "completed", (final, await run.status_text(), [s.action for s in steps])
    task_id = await run.task_id()
    assert task_id is not None, "the panel's task record lost its taskId"
    record = server_task(server.url, server.api_key, task_id)
    assert record["status"] == "completed", record
    assert unverified_steps(record) == [], [(s["action"], s["verification"]) for s in record["steps"]]
    executed = [s for s in record["steps"] if not str(s["action"]).startswith(("finish(", "fail("))]
    shown = [s for s in steps if s.verdict_success is not None]
    assert executed, "nothing was done"
    assert len(shown) == len(executed), (shown, [s["action"] for s in executed])
    assert all(s.verdict_success == "true" for s in shown), shown
    assert all(s.verdict_tier for s in shown), shown
    assert [s for s in server_tasks(server.url, server.api_key) if s["taskId"] == task_id], "the task is not the tenant's"
    return record


async def test_the_clinic_demo(ext: LoadedExtension, extension_server: LocalServer, demo: Any, tmp_path: Path) -> None:
    run = await start(ext, demo.url + "/", "Add a new patient named Jas")
    await wait_steps(run.panel, 2)
    shot = tmp_path / "extension-side-panel.png"
    await run.panel.screenshot(path=str(shot), full_page=False)
    assert shot.stat().st_size > 5000
    if os.environ.get("STEPWISE_DOCS_SCREENSHOT") == "1":
        DOCS_SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, DOCS_SCREENSHOT)
    record = await assert_completed(run, extension_server)
    assert demo.site.names().count("Jas") == 1  # saved, once
    assert run.page.url == demo.url + "/patients"
    assert await run.page.locator("td", has_text="Jas").count() == 1
    assert any(str(s["action"]).startswith("setValue(") and '"Jas"' in str(s["action"]) for s in record["steps"])
    # the save answers after 0.6 s with the DOM quiet: the wait counted the request, no wait() was needed
    assert not [s["action"] for s in record["steps"] if str(s["action"]).startswith("wait(")], record["steps"]
    assert await run.panel.locator("#evidence").inner_text() != ""


async def test_a_settings_form_with_a_select_a_checkbox_and_a_toast(ext: LoadedExtension, extension_server: LocalServer, ext_sites: Sites) -> None:
    goal = 'Select "French" from Language, check Weekly summary email and click Save preferences'
    run = await start(ext, ext_sites.url + "/prefs.html", goal)
    await assert_completed(run, extension_server)
    assert ext_sites.state.saves("prefs_saved") == [{"language": "fr", "summary": True, "sounds": True}]
    assert await run.page.locator("#toast").inner_text() == "Preferences saved"


async def test_a_slow_save_is_waited_for_not_retried_or_waited_on_by_the_server(
    ext: LoadedExtension, extension_server: LocalServer, ext_sites: Sites
) -> None:
    """The save's POST takes 1.5 s while the DOM stays quiet: the stability wait counts the
    request in flight (chrome.webRequest), so the page sent after Save already shows the toast
    — no wait() step, no second click, one save, as many steps as with a fast backend."""
    ext_sites.state.save_delay_s = 1.5
    goal = 'Select "German" from Language, check Weekly summary email and click Save preferences'
    run = await start(ext, ext_sites.url + "/prefs.html", goal)
    record = await assert_completed(run, extension_server)
    actions = [str(s["action"]) for s in record["steps"]]
    assert not [a for a in actions if a.startswith("wait(")], actions
    assert ext_sites.state.saves("prefs_saved") == [{"language": "de", "summary": True, "sounds": True}]
    assert len(actions) <= 3, actions


async def test_a_search_then_an_edit_over_two_pages(ext: LoadedExtension, extension_server: LocalServer, ext_sites: Sites) -> None:
    goal = 'Search for "Alan", then edit Alan Turing and set his team to Sales'
    run = await start(ext, ext_sites.url + "/people.html", goal)
    await assert_completed(run, extension_server)
    assert ext_sites.state.saves("person_saved") == [{"id": 3, "name": "Alan Turing", "phone": "555-0122", "team": "Sales"}]
    assert ext_sites.state.person("Ada Lovelace") == {"id": 1, "name": "Ada Lovelace", "phone": "555-0100", "team": "Engineering"}
    assert run.page.url.startswith(ext_sites.url + "/people.html?saved=")


async def test_stop_from_the_panel_ends_the_task_before_the_save(ext: LoadedExtension, ext_sites: Sites) -> None:
    goal = 'Search for "Alan", then edit Alan Turing and set his team to Sales'
    run = await start(ext, ext_sites.url + "/people.html", goal)
    await wait_steps(run.panel, 1)
    await run.panel.click("#stop")
    assert await run.finish() == "stopped", await run.status_text()
    shown = len(await panel_steps(run.panel))
    await asyncio.sleep(1.5)  # nothing more happens
    assert len(await panel_steps(run.panel)) == shown
    assert ext_sites.state.saves("person_saved") == []
    assert await run.panel.is_enabled("#run") and not await run.panel.is_enabled("#stop")
