"""Sub-tasks through the API, no model: a multi-part goal gets its sub-tasks at planning,
they are stored with the task and shown in the task detail, and the answer's plan carries
them; a goal done on one page keeps a flat plan."""

from __future__ import annotations

from typing import Any

from tests.integration.api.conftest import Api

URL = "https://records.example/"
GOAL = "Search for Ana Silva, then open Ana Silva, then set the email to ana@x.org, then click Save"
SEARCH = [{"i": "1", "r": "inp", "n": "Search records"}, {"i": "2", "r": "btn", "n": "Search"}]


async def _start(api: Api, goal: str, tree: list[dict[str, Any]]) -> dict[str, Any]:
    response = await api.interact({"url": URL, "query": goal, "interactiveTree": tree})
    assert response.status_code == 200, response.text
    return response.json()


async def test_a_multi_part_goal_is_planned_as_sub_tasks_shown_in_the_task_detail(api: Api) -> None:
    first = await _start(api, GOAL, SEARCH)
    assert first["status"] == "active"
    parts = first["plan"]["subtasks"]
    assert [(p["firstStep"], p["lastStep"], p["status"]) for p in parts] == [(0, 1, "active"), (2, 2, "pending"), (3, 4, "pending")]
    detail = (await api.client.get(f"/api/tasks/{first['taskId']}", headers=api.headers())).json()
    shown = detail["plan"]["subtasks"]
    assert [p["status"] for p in shown] == ["active", "pending", "pending"]
    assert shown[0]["clauses"] and shown[0]["budget"] >= 4 and shown[0]["startedStep"] == 0
    assert {"goal", "inputs", "outputs", "checks", "actionsUsed", "evidence", "verifiedUrl", "failure"} <= set(shown[0])


async def test_a_goal_done_on_one_page_keeps_a_flat_plan(api: Api) -> None:
    form = [{"i": "1", "r": "inp", "n": "First name"}, {"i": "2", "r": "inp", "n": "Last name"}, {"i": "3", "r": "btn", "n": "Submit"}]
    first = await _start(api, "Type Ada into First name and Lovelace into Last name, then click Submit", form)
    assert first["plan"]["subtasks"] == []
