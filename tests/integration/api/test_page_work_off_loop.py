"""Every CPU-heavy read of the page runs in the page pool, never on the event loop thread:
reading the dom, classifying the goal, the context rules, the plan check and choosing the
action (on a 2 MB page each takes from 0.1 s to a second; on the loop, every other request
of the worker waits that long)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

import agent.nodes.action_generation
import agent.nodes.complexity_check
import agent.nodes.planning
import agent.reasoning.analysis
import agent.service
from tests.integration.api.conftest import Api

_HEAVY = [
    (agent.service, "_page_state"),
    (agent.nodes.complexity_check, "classify_complexity"),
    (agent.reasoning.analysis, "analyse_context"),
    (agent.nodes.planning, "check_plan"),
    (agent.nodes.action_generation, "refine_step"),
]


async def test_page_work_runs_in_the_page_pool(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: dict[str, set[str]] = {}

    def recorded(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            threads.setdefault(name, set()).add(threading.current_thread().name)
            return real(*args, **kwargs)

        return call

    for module, name in _HEAVY:
        monkeypatch.setattr(module, name, recorded(name, getattr(module, name)))
    dom = "<html><body><form><label>Name <input name=n></label><button>Save</button></form></body></html>"
    response = await api.interact({"url": "https://crm.example/new", "query": 'Type "Ann" into Name and click Save', "dom": dom})
    assert response.status_code == 200, response.text
    assert response.json()["action"].startswith("setValue(")
    assert set(threads) == {name for _, name in _HEAVY}
    loop_thread = threading.current_thread().name
    for name, seen in threads.items():
        assert seen and all(t.startswith("stepwise-page") for t in seen), (name, seen, loop_thread)
