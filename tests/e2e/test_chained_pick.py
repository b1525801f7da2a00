"""A model picks a suggestion and fills the next field in one chain (``click(option)`` then
``setValue(Depart)``), in real Chromium against a local server: the list closes on the pick
and takes the option with it, so the option's absence is no failure — the combobox now
showing the pick proves it. The chain holds, the date is never typed twice, and the search
runs with both values."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from bench.lying_model import generate_content_body
from bench.subtask_model import ScriptedGemini, blocks_of, element_for, worker_answer
from client import StabilityConfig, run_task
from client.local_server import LocalServer, local_server

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=150, network_idle_ms=100, max_wait_ms=2500)
OPTION = "Miami International (MIA)"
DATE = "12/20/2026"
GOAL = f"Find flights to Miami (MIA) on {DATE}"
PLAN = {
    "steps": [
        {"description": "Type the destination", "kind": "fill", "target": "To", "value": "Miami", "success_criterion": "To holds Miami"},
        {"description": "Choose the airport", "kind": "click", "target": OPTION, "value": None, "success_criterion": "the airport is chosen"},
        {"description": "Type the date", "kind": "fill", "target": "Depart", "value": DATE, "success_criterion": f"Depart holds {DATE}"},
        {"description": "Search", "kind": "submit", "target": "Search flights", "value": None, "success_criterion": "flights are shown"},
    ],
    "contract": [  # what a careful model says proves it: the pick, the date, the search
        {"kind": "activated", "target": {"name": OPTION, "role": "option"}, "action": "click", "effect": True, "description": f"{OPTION} was picked"},
        {"kind": "field_value", "target": {"name": "Depart", "role": "textbox"}, "value": DATE, "description": f"Depart holds {DATE}"},
        {"kind": "activated", "target": {"name": "Search flights", "role": "button"}, "action": "click", "effect": True,
         "description": "Search flights was pressed and the page reacted"},
    ],
    "needs_user_input": [],
    "subtasks": [],
}


class ChainingModel(ScriptedGemini):
    """The scripted worker of :mod:`bench.subtask_model`, which, when the suggestion is on
    the page, picks it and types the date in the same answer, as a competent model does."""

    def answer(self, body: Mapping[str, Any], prompt_bytes: int) -> dict[str, Any]:
        user = "".join(p.get("text", "") for c in body.get("contents", []) for p in c.get("parts", []))
        blocks = blocks_of(user)
        elements = blocks.get("elements", "")
        option, depart = element_for(elements, OPTION), element_for(elements, "Depart")
        if "current_step" not in blocks or option is None or depart is None:
            return super().answer(body, prompt_bytes)
        answer = worker_answer(blocks) | {
            "thought": f"Choose {OPTION} and type the date.", "action": f"click({json.dumps(option)})", "element_id": option,
            "chain": [{"action": f"setValue({json.dumps(depart)}, {json.dumps(DATE)})", "description": "Type the date"}],
        }  # fmt: skip
        return generate_content_body(json.dumps(answer), prompt_tokens=max(1, prompt_bytes // 4), model_version=self.model_version)


@pytest.fixture(scope="module")
def chaining_server(chromium: None) -> Iterator[LocalServer]:
    with ChainingModel(PLAN) as model, local_server(env=model.env()) as server:
        yield server


async def test_a_pick_whose_list_closes_holds_in_a_chain_and_the_next_field_is_typed_once(
    page: Page, pages_url: str, chaining_server: LocalServer, tmp_path: Path
) -> None:
    await page.goto(f"{pages_url}/pages/flight_search.html")
    result = await run_task(
        GOAL, None, server=chaining_server.url, api_key=chaining_server.api_key, page=page, stability=FAST,
        max_steps=10, state_file=str(tmp_path / "state.json"), tab_key="chained-pick",
    )  # fmt: skip
    trace = [(s.actions or s.action, s.verdict, (s.verification or {}).get("reason")) for s in result.steps]
    chained = next(s for s in result.steps if s.actions and s.actions[0].startswith("click("))
    assert chained.verdict == "success", trace
    checks = (chained.verification or {}).get("chain") or []
    assert [c["status"] for c in checks] == ["verified", "verified"], checks
    typed = [a for s in result.steps for a in (s.actions or [s.action]) if a.startswith("setValue") and DATE in a]
    assert len(typed) == 1, trace  # the date held: it is never typed again
    assert await page.evaluate("() => window.__searched") == {"to": "MIA", "depart": DATE}
    assert result.status == "completed", (result.error, result.contract)
