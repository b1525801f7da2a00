"""Native dialogs through the built extension (Debian's Chromium, headless, the real server with no
model), on the pages of tests/e2e/pages/native_*.html:

* "Delete order 42": the extension's main-world hook dismisses the page's confirm() and reports
  it; the server asks; the panel shows the question with the dialog's words and Yes / No. Yes →
  the click is re-sent accepting the dialog once, row 42 is gone, the task completes with the
  accepted click verified; No → row 42 stays and the task fails (USER_DECLINED);
* "Click Save" with a harmless "Save changes to your profile?": completed with exactly one
  automatic accept;
* an alert() raised during a click does not hang the task (answered OK, reported).

Playwright listens to the site's tab for dialogs: none may reach the browser (the hook answers
them all in the page); the pages record every answer their confirm() got (``window.__answers``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from playwright.async_api import Dialog, Page

from client.local_server import LocalServer
from tests.e2e.extension.support import Extension

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

TASK_TIMEOUT_MS = 60_000
FINAL = "#status[data-status]:not([data-status=idle]):not([data-status=running])"


async def _start(extension: Extension, server: LocalServer, url: str, goal: str) -> tuple[Page, int, Page, list[str]]:
    """The site in a tab, the panel driving it, the goal run; the dialogs that reached the browser (none expected)."""
    await extension.configure(server)
    site = await extension.context.new_page()
    reached: list[str] = []

    def on_dialog(dialog: Dialog) -> None:
        reached.append(f"{dialog.type}: {dialog.message}")
        asyncio.ensure_future(dialog.dismiss())

    site.on("dialog", on_dialog)
    await site.goto(url)
    tab_id = await extension.tab_id(url)
    panel = await extension.open_panel(tab_id)
    await panel.fill("textarea#goal", goal)
    await panel.click("button#run")
    await panel.wait_for_selector(FINAL, timeout=TASK_TIMEOUT_MS)
    return site, tab_id, panel, reached


async def _server_task(server: LocalServer, task_id: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.url, headers={"Authorization": f"Bearer {server.api_key}"}) as api:
        task: dict[str, Any] = (await api.get(f"/api/tasks/{task_id}")).json()
    return task


def _dialogs(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [dialog for step in record["steps"] for dialog in step.get("dialogs") or []]


async def _asked(extension: Extension, server: LocalServer, pages_url: str) -> tuple[Page, int, Page, list[str]]:
    site, tab_id, panel, reached = await _start(extension, server, pages_url + "/pages/native_orders.html", "Delete order 42")
    record = await extension.task(tab_id)
    assert await panel.get_attribute("#status", "data-status") == "needs_user_input", (record["status"], record.get("error"))
    assert await site.evaluate("() => window.__answers") == [["42", False]]  # dismissed by the hook: nothing deleted
    assert await site.locator("tr[data-order='42']").count() == 1
    # the panel quotes the dialog's words in the question, and shows the dismissed dialog in its step
    assert "Delete order 42? This cannot be undone." in await panel.inner_text("#question")
    assert await panel.locator("#question .question-dialog q.page-text").inner_text() == "Delete order 42? This cannot be undone."
    shown = panel.locator("li.step li.dialog[data-kind=confirm][data-answered=dismissed]")
    assert await shown.count() == 1 and "Delete order 42? This cannot be undone." in await shown.inner_text()
    assert [d["answered"] for d in _dialogs(record)] == ["dismissed"]
    assert _dialogs(record)[0]["action"] == record["steps"][0]["action"]  # the grammar text of the action that raised it
    return site, tab_id, panel, reached


async def test_delete_order_yes_in_the_panel_deletes_the_row(extension: Extension, extension_server: LocalServer, pages_url: str) -> None:
    site, tab_id, panel, reached = await _asked(extension, extension_server, pages_url)
    await panel.click("button#confirm-yes")
    await panel.wait_for_selector("#status:not([data-status=needs_user_input])", timeout=10_000)
    await panel.wait_for_selector(FINAL, timeout=TASK_TIMEOUT_MS)
    record = await extension.task(tab_id)
    assert record["status"] == "completed", (record["status"], record.get("error"), [s["action"] for s in record["steps"]])
    assert await site.evaluate("() => window.__answers") == [["42", False], ["42", True]]  # accepted once, for the confirmed click
    assert await site.locator("tr[data-order='42']").count() == 0
    assert await site.locator("tbody tr").count() == 2
    assert [d["answered"] for d in _dialogs(record)] == ["dismissed", "accepted"]
    assert await panel.locator("li.step li.dialog[data-answered=accepted]").count() == 1
    assert not await panel.locator("#question").is_visible()
    assert reached == []  # every dialog was answered in the page by the hook

    task = await _server_task(extension_server, record["taskId"])
    assert task["status"] == "completed"
    executed = [s for s in task["steps"] if str(s.get("action") or "") and not str(s["action"]).startswith(("finish(", "fail("))]
    # every executed step was verified from the page: the dismissed click as failed (the confirm
    # cancelled it), the accepted one as done
    assert [s["action"] for s in executed] == [record["steps"][0]["action"]] * 2, task["steps"]
    assert [(s.get("verification") or {}).get("success") for s in executed] == [False, True], task["steps"]


async def test_delete_order_no_in_the_panel_keeps_the_row(extension: Extension, extension_server: LocalServer, pages_url: str) -> None:
    site, tab_id, panel, reached = await _asked(extension, extension_server, pages_url)
    await panel.click("button#confirm-no")
    await panel.wait_for_selector("#status:not([data-status=needs_user_input])", timeout=10_000)
    await panel.wait_for_selector(FINAL, timeout=TASK_TIMEOUT_MS)
    record = await extension.task(tab_id)
    assert record["status"] == "failed" and record["errorCode"] == "USER_DECLINED", (record["status"], record.get("error"))
    assert await site.evaluate("() => window.__answers") == [["42", False]]
    assert await site.locator("tbody tr").count() == 3
    assert (await _server_task(extension_server, record["taskId"]))["status"] != "completed"
    assert reached == []


async def test_a_harmless_confirm_is_accepted_once(extension: Extension, extension_server: LocalServer, pages_url: str) -> None:
    site, tab_id, panel, reached = await _start(extension, extension_server, pages_url + "/pages/native_save.html", "Click Save")
    record = await extension.task(tab_id)
    assert record["status"] == "completed", (record["status"], record.get("error"), [s["action"] for s in record["steps"]])
    assert await site.evaluate("() => window.__answers") == [False, True]  # dismissed, then one automatic accept
    assert await site.locator("#msg").text_content() == "Profile saved"
    accepted = [d for d in _dialogs(record) if d["answered"] == "accepted"]
    assert len(accepted) == 1 and accepted[0]["kind"] == "confirm", _dialogs(record)
    assert reached == []


async def test_an_alert_during_a_click_does_not_hang_the_task(extension: Extension, extension_server: LocalServer, pages_url: str) -> None:
    site, tab_id, panel, reached = await _start(extension, extension_server, pages_url + "/pages/native_alert.html", "Click Subscribe")
    record = await extension.task(tab_id)
    assert record["status"] == "completed", (record["status"], record.get("error"), [s["action"] for s in record["steps"]])
    assert await site.evaluate("() => window.__alerts") == 1
    assert [(d["kind"], d["answered"]) for d in _dialogs(record)] == [("alert", "accepted")]
    assert "You are now subscribed" in await panel.inner_text("li.step li.dialog[data-kind=alert]")
    assert reached == []
