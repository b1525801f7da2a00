"""Values a goal points at, read on the page through the API with no model: a table cell by
its row and column header, recorded as evidence; never typed as the goal's words."""

from __future__ import annotations

from typing import Any

from tests.integration.api.conftest import Api
from tests.integration.api.test_goal_contract import one_truth

URL = "https://crm.example/compose"
TABLE = "Contacts\nName · Email · Phone\nAna Silva · ana@x.io · 555-0101\nBob Stone · bob@x.io · 555-0199"


def form(to: str = "", sent: bool = False) -> list[dict[str, Any]]:
    tree: list[dict[str, Any]] = [{"i": "to", "r": "inp", "n": "To", "v": to, "ty": "email"}, {"i": "send", "r": "btn", "n": "Send"}]
    if sent:
        tree.append({"i": "ok", "r": "status", "n": "Message sent"})
    return tree


async def send(api: Api, tree: list[dict[str, Any]], ids: dict[str, str], goal: str | None = None, text: str = TABLE) -> dict[str, Any]:
    body: dict[str, Any] = {"url": URL, "interactiveTree": tree, "pageText": text, **ids}
    if goal:
        body["query"] = goal
    response = await api.interact(body)
    assert response.status_code == 200, response.text
    return one_truth(response.json())


async def test_a_table_cell_is_read_typed_and_proved_with_its_evidence(api: Api) -> None:
    first = await send(api, form(), {}, "Type Bob Stone's email into To and click Send")
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"] == 'setValue("to", "bob@x.io")'
    (clause, _send) = first["contract"]["clauses"]
    assert clause["read"]["value"] == "bob@x.io" and "Email" in clause["read"]["observation"]
    assert (await send(api, form("bob@x.io"), ids))["action"] == 'click("send")'
    done = await send(api, form("bob@x.io", sent=True), ids)
    assert done["status"] == "completed"


async def test_a_cell_the_page_does_not_show_for_certain_is_never_typed(api: Api) -> None:
    unclear = "Name · Email\nBob Stone · bob@x.io\nBob Stone · robert@x.io"
    first = await send(api, form(), {}, "Type the email of Bob Stone into To and click Send", text=unclear)
    assert first["status"] != "completed"
    assert not first["action"].startswith("setValue(")


async def test_the_value_beside_a_key_is_read_where_the_table_titles_no_column(api: Api) -> None:
    details = "Profile\nFirst name · Melodee\nLast name · Reynolds\nLanguage · Bengali"
    first = await send(api, form(), {}, "Enter the value of Last name into To and press Send", text=details)
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"] == 'setValue("to", "Reynolds")'
    assert "Last name" in first["contract"]["clauses"][0]["read"]["observation"]
    assert (await send(api, form("Reynolds"), ids, text=details))["action"] == 'click("send")'
    assert (await send(api, form("Reynolds", sent=True), ids, text=details))["status"] == "completed"
