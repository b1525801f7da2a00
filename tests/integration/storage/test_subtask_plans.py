"""A hierarchical plan and its sub-tasks' states are stored with the task, on every backend,
and a later step's states replace the earlier ones atomically."""

from __future__ import annotations

from agent.policy import understand
from agent.subtasks import advance, attach
from planning import Plan
from storage import Store
from tests.integration.storage.builders import TENANT_A, TENANT_B, next_step, start_task
from verification import Contract, PageState

GOAL = "Search for Ana Silva, then open Ana Silva, then set the email to ana@x.org, then click Save"


def _plan() -> Plan:
    reading = understand(GOAL)
    page = PageState.from_v3([{"i": "1", "r": "inp", "n": "Search"}], url="https://records.example/")
    return attach(reading.plan, reading.contract, page, 0)


async def test_sub_tasks_and_their_states_round_trip(store: Store) -> None:
    plan = _plan()
    assert len(plan.subtasks) == 3
    stored = await start_task(store, plan=plan.model_dump(mode="json"))
    loaded = await store.tasks.get(TENANT_A, stored.id)
    assert loaded is not None and Plan.model_validate(loaded.plan) == plan
    assert await store.tasks.get(TENANT_B, stored.id) is None

    for step in plan.steps[:2]:
        step.status = "completed"
    page = PageState.from_v3([{"i": "5", "r": "link", "n": "Ana Silva"}], url="https://records.example/search")
    contract = understand(GOAL).contract
    held = contract.model_copy(update={"results": {c: contract.result(c).model_copy(update={"status": "holds"}) for c in ("c1", "c2")}})
    check = advance(plan, held, page, step=1, last=None)
    assert check is not None and check.completed == (0,)
    after = await store.finalize(next_step(stored, plan=check.plan.model_dump(mode="json")))
    again = await store.tasks.get(TENANT_A, after.id)
    assert again is not None
    states = [s.status for s in Plan.model_validate(again.plan).subtasks]
    assert states == ["completed", "active", "pending"]
    assert Plan.model_validate(again.plan).subtasks[0].verified_url == "https://records.example/search"
    assert isinstance(Plan.model_validate(again.plan).subtasks[1].checks, Contract)
