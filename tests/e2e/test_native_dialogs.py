"""Native ``window.confirm()`` on real pages, through the reference client and the real server
(with no model, and pointed at a lying fake Gemini that claims success and proposes finish()):

* "Delete order 42" on a table whose row buttons ask ``confirm("Delete order 42? …")``: the
  client dismisses it and reports it; the server asks the user; resumed with confirm: true
  the click is re-sent with the accept instruction, the row is gone and the task completes
  with its contract proven; with confirm: false the row stays and the task fails;
* another layout and phrasing (cards, a "Remove member" link, "Are you sure you want to
  remove …?");
* "Click Reset settings" whose confirm would delete saved preferences the goal never asked
  to delete: never accepted, never completed;
* "Click Save" with a harmless "Save changes to your profile?": completed with exactly one
  automatic accept.

The pages record every answer their confirm() got (``window.__answers``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from client import RunResult, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

@pytest.fixture
def server(plain_or_lying_server: LocalServer) -> LocalServer:
    """Every case runs with no model and with a model that lies (tests/e2e/conftest.py)."""
    return plain_or_lying_server


async def _run(goal: str, url: str | None, page: Page, server: LocalServer, tmp_path: Path, **resume: Any) -> RunResult:
    return await run_task(goal, url, server=server.url, api_key=server.api_key, page=page, max_steps=10,
                          state_file=str(tmp_path / "state.json"), **resume)  # fmt: skip


def _story(result: RunResult) -> list[tuple[str, str, Any]]:
    return [(s.task_status, s.action, (s.observations or {}).get("nativeDialogs")) for s in result.steps]


async def _asked(goal: str, url: str, page: Page, server: LocalServer, tmp_path: Path) -> RunResult:
    asked = await _run(goal, url, page, server, tmp_path)
    assert asked.status == "needs_user_input", (asked.status, asked.error_code, asked.error, _story(asked))
    return asked


async def _answers(page: Page) -> Any:
    return await page.evaluate("() => window.__answers")


async def test_delete_order_asks_the_user_and_a_yes_deletes_the_row(page: Page, pages_url: str, server: LocalServer, tmp_path: Path) -> None:
    asked = await _asked("Delete order 42", pages_url + "/pages/native_orders.html", page, server, tmp_path)
    assert "Delete order 42? This cannot be undone." in (asked.error or "")  # the question quotes the page's words
    assert await _answers(page) == [["42", False]]  # the client dismissed it; nothing was deleted
    assert await page.locator("tr[data-order='42']").count() == 1
    resumed = await _run("Delete order 42", None, page, server, tmp_path, task_id=asked.task_id, session_id=asked.session_id, confirm=True)
    assert resumed.status == "completed", (resumed.status, resumed.error_code, resumed.error, _story(resumed))
    assert await _answers(page) == [["42", False], ["42", True]]  # accepted once, for the confirmed click only
    assert await page.locator("tr[data-order='42']").count() == 0
    assert await page.locator("tbody tr").count() == 2  # orders 41 and 43 untouched
    assert resumed.contract is not None and resumed.contract.get("satisfied") is True


async def test_delete_order_declined_keeps_the_row(page: Page, pages_url: str, server: LocalServer, tmp_path: Path) -> None:
    asked = await _asked("Delete order 42", pages_url + "/pages/native_orders.html", page, server, tmp_path)
    resumed = await _run("Delete order 42", None, page, server, tmp_path, task_id=asked.task_id, session_id=asked.session_id, confirm=False)
    assert resumed.status == "failed" and resumed.error_code == "USER_DECLINED", (resumed.status, resumed.error, _story(resumed))
    assert await _answers(page) == [["42", False]]
    assert await page.locator("tbody tr").count() == 3


async def test_remove_a_member_from_cards_asks_then_removes(page: Page, pages_url: str, server: LocalServer, tmp_path: Path) -> None:
    asked = await _asked("Remove Bob Smith", pages_url + "/pages/native_team.html", page, server, tmp_path)
    assert "remove Bob Smith from the team" in (asked.error or "")
    resumed = await _run("Remove Bob Smith", None, page, server, tmp_path, task_id=asked.task_id, session_id=asked.session_id, confirm=True)
    assert resumed.status == "completed", (resumed.status, resumed.error, _story(resumed))
    assert await _answers(page) == [["Bob Smith", False], ["Bob Smith", True]]
    assert await page.locator(".card").all_text_contents() and await page.locator(".card[data-name='Bob Smith']").count() == 0
    assert await page.locator(".card[data-name='Carol Diaz']").count() == 1


async def test_a_file_named_with_its_kind_in_a_table_of_bare_delete_buttons(page: Page, pages_url: str, server: LocalServer, tmp_path: Path) -> None:
    """Rows say "report.pdf", never "file report.pdf"; every button says only "Delete". The
    row that carries the name is the one asked about, and only its file goes."""
    goal = "Delete the file report.pdf"
    asked = await _asked(goal, pages_url + "/pages/native_files.html", page, server, tmp_path)
    assert "Permanently remove report.pdf?" in (asked.error or "")
    assert await _answers(page) == [["report.pdf", False]]
    resumed = await _run(goal, None, page, server, tmp_path, task_id=asked.task_id, session_id=asked.session_id, confirm=True)
    assert resumed.status == "completed", (resumed.status, resumed.error_code, resumed.error, _story(resumed))
    assert await _answers(page) == [["report.pdf", False], ["report.pdf", True]]
    assert await page.locator("#files tr").evaluate_all("rows => rows.map(r => r.dataset.name)") == ["budget.xlsx", "notes.txt"]


async def test_an_undoable_archive_of_a_project_tile_is_accepted_once_without_asking(page: Page, pages_url: str, server: LocalServer, tmp_path: Path) -> None:
    result = await _run("Archive project Gemini", pages_url + "/pages/native_projects.html", page, server, tmp_path)
    assert result.status == "completed", (result.status, result.error_code, result.error, _story(result))
    assert await _answers(page) == [["Gemini", False], ["Gemini", True]]  # dismissed, then accepted once on the re-send
    assert await page.locator(".tile").evaluate_all("tiles => tiles.map(t => t.dataset.name)") == ["Apollo", "Mercury"]


async def test_a_destructive_confirm_the_goal_does_not_ask_for_is_never_accepted(page: Page, pages_url: str, server: LocalServer, tmp_path: Path) -> None:
    result = await _run("Click Reset settings", pages_url + "/pages/native_settings.html", page, server, tmp_path)
    # The goal asks for the click, not for deleting the preferences: the user decides.
    assert result.status == "needs_user_input", (result.status, _story(result))
    assert "does not say" in str(result.steps[-1].thought), _story(result)
    answers = await _answers(page)
    assert answers == [False], answers  # raised once, never accepted, never clicked again
    assert await page.locator("#dark").is_checked()  # nothing was reset


async def test_a_harmless_confirm_of_the_goals_own_action_is_accepted_once(page: Page, pages_url: str, server: LocalServer, tmp_path: Path) -> None:
    result = await _run("Click Save", pages_url + "/pages/native_save.html", page, server, tmp_path)
    assert result.status == "completed", (result.status, result.error, _story(result))
    assert await _answers(page) == [False, True]  # dismissed, then one automatic accept
    assert await page.locator("#msg").text_content() == "Profile saved"
    accepted = [d for s in result.steps for d in (s.observations or {}).get("nativeDialogs") or [] if d["answered"] == "accepted"]
    assert len(accepted) == 1 and accepted[0]["action"] == result.steps[0].action


async def test_a_goal_that_is_the_controls_name_is_read_on_the_page_and_its_confirm_asked(page: Page, pages_url: str, server: LocalServer, tmp_path: Path) -> None:
    """"Cancel my Pro subscription" names the card's "Cancel subscription" link (the "Pro" of
    its "Pro plan"); its confirm says access is lost: asked, and a no cancels nothing."""
    asked = await _asked("Cancel my Pro subscription", pages_url + "/pages/native_billing.html", page, server, tmp_path)
    assert "You will lose access" in (asked.error or "")
    declined = await _run("Cancel my Pro subscription", None, page, server, tmp_path, task_id=asked.task_id, session_id=asked.session_id, confirm=False)
    assert declined.status == "failed" and declined.error_code == "USER_DECLINED", _story(declined)
    assert await _answers(page) == [False]
    assert await page.locator("#state").text_content() == "Active"


async def test_clear_the_filters_asks_when_its_confirm_erases_what_the_goal_did_not_name(page: Page, pages_url: str, server: LocalServer, tmp_path: Path) -> None:
    result = await _run("Clear the filters", pages_url + "/pages/native_filters.html", page, server, tmp_path)
    assert result.status == "needs_user_input", (result.status, result.error_code, _story(result))
    assert "does not say" in str(result.steps[-1].thought), _story(result)
    assert await _answers(page) == [False]
