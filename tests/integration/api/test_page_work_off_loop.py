"""Every CPU-heavy read of a heavy page runs in the page pool, never on the event loop thread:
reading the dom, classifying the goal, the context rules, the plan check and choosing the
action (on a 2 MB page each takes from 0.1 s to a second; on the loop, every other request
of the worker waits that long). An ordinary page is read inline (a thread hand-off would
cost more than the work)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest

import agent.advance
import agent.nodes.complexity_check
import agent.nodes.planning
import agent.reasoning.analysis
import agent.service
from agent import offload
from tests.integration.api.conftest import Api

_HEAVY = [
    (agent.service, "_page_state"),
    (agent.nodes.complexity_check, "classify_complexity"),
    (agent.reasoning.analysis, "analyse_context"),
    (agent.nodes.planning, "check_plan"),
    (agent.advance, "refine_step"),
]


def _record(monkeypatch: pytest.MonkeyPatch) -> dict[str, set[str]]:
    threads: dict[str, set[str]] = {}

    def recorded(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            threads.setdefault(name, set()).add(threading.current_thread().name)
            return real(*args, **kwargs)

        return call

    for module, name in _HEAVY:
        monkeypatch.setattr(module, name, recorded(name, getattr(module, name)))
    return threads


def _page(rows: int) -> str:
    links = "".join(f'<li><a href="/c/{i}">Contact {i}</a></li>' for i in range(rows))
    return f"<html><body><ul>{links}</ul><form><label>Name <input name=n></label><button>Save</button></form></body></html>"


async def _ask(api: Api, dom: str) -> None:
    response = await api.interact({"url": "https://crm.example/new", "query": 'Type "Ann" into Name and click Save', "dom": dom})
    assert response.status_code == 200, response.text
    assert response.json()["action"].startswith("setValue(")


async def test_a_heavy_page_is_read_in_the_page_pool(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    threads = _record(monkeypatch)
    await _ask(api, _page(rows=1500) + " " * (offload.INLINE_DOM_BYTES + 1))
    assert set(threads) == {name for _, name in _HEAVY}
    for name, seen in threads.items():
        assert seen and all(t.startswith("stepwise-page") for t in seen), (name, seen)


async def test_an_ordinary_page_is_read_inline(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    threads = _record(monkeypatch)
    await _ask(api, _page(rows=20))
    assert set(threads) == {name for _, name in _HEAVY}
    assert all(seen == {threading.current_thread().name} for seen in threads.values()), threads
