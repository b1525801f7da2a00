"""Skills through the whole service, no model: a correction the page proved is learned,
admitted once a second task confirms it, then steers later tasks away from the dead end —
per tenant and per site only, never from a model's word, never with a secret."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.api.conftest import Api, ApiFactory
from tests.support.memory_sites import LAYOUTS, Clinic, SignIn, drive
from tests.support.scenario_model import ScenarioModel

GOALS = {
    "nav": 'Click "Add patient", type {first} into First name and {last} into Last name, then click Save',
    "sidebar": 'Click "New patient", then enter {first} in First name and {last} in Last name and press Save',
    "cards": 'Click "Create patient", type {first} into First name, type {last} into Last name, and click Save',
}
PEOPLE = [("Ada", "Lovelace"), ("Grace", "Hopper"), ("Alan", "Turing"), ("Edsger", "Dijkstra")]


def interact_as(api: Api, key: str | None = None) -> Any:
    async def call(body: dict[str, Any]) -> dict[str, Any]:
        response = await api.interact(body, key)
        assert response.status_code == 200, response.text
        return response.json()

    return call


async def run(api: Api, layout: str, person: tuple[str, str], *, key: str | None = None, **site: Any) -> tuple[Clinic, list[dict[str, Any]]]:
    clinic = Clinic(layout=layout, **site)
    goal = GOALS[layout].format(first=person[0], last=person[1])
    answers = await drive(interact_as(api, key), clinic, goal)
    return clinic, answers


@pytest.fixture
async def api(make_api: ApiFactory) -> Api:
    """Skills alone: with replay on, a third run would be a recipe's replay, not a steered plan."""
    return await make_api(rate_limit_per_minute=1000, memory_replay=False)


def used(answers: list[dict[str, Any]]) -> list[str]:
    return [s for a in answers for s in (a.get("memory") or {}).get("skillsUsed") or []]


@pytest.mark.parametrize("layout", LAYOUTS)
async def test_a_dead_button_that_takes_the_focus_is_corrected_and_learned(api: Api, layout: str) -> None:
    """A real <button> that does nothing still takes the focus: that is no proof the form
    opened, so the step is corrected (and learned) instead of the plan typing into fields
    that are not there."""
    first, answers = await run(api, layout, PEOPLE[0], focusable=True)
    assert first.clicks[0] == "dead" and "live" in first.clicks and first.done("Ada Lovelace")
    assert answers[-1]["status"] == "completed"
    second, _ = await run(api, layout, PEOPLE[1], focusable=True, id_offset=7)
    assert second.done("Grace Hopper")
    skills = await api.store.skills.list("tenant-a")
    assert len(skills) == 1 and skills[0].status == "admitted"
    third, answers = await run(api, layout, PEOPLE[2], focusable=True, id_offset=3)
    assert "dead" not in third.clicks and third.done("Alan Turing") and used(answers)


@pytest.mark.parametrize("layout", LAYOUTS)
async def test_a_confirmed_correction_steers_later_tasks_past_the_dead_end(api: Api, layout: str) -> None:
    first, answers = await run(api, layout, PEOPLE[0])
    assert first.clicks[:2] == ["dead", "dead"] and "live" in first.clicks and answers[-1]["status"] == "completed"
    skills = await api.store.skills.list("tenant-a")
    assert len(skills) == 1 and skills[0].status == "candidate" and skills[0].success_count == 1
    assert "Ada" not in str(skills[0].model_dump()) and "Lovelace" not in str(skills[0].model_dump())

    second, _ = await run(api, layout, PEOPLE[1], id_offset=7)  # re-rendered: other ids, same page
    assert second.clicks[0] == "dead"  # a candidate skill is never used
    skills = await api.store.skills.list("tenant-a")
    assert len(skills) == 1 and skills[0].status == "admitted" and skills[0].success_count == 2

    third, steered = await run(api, layout, PEOPLE[2], id_offset=3, dead_first=False)
    assert third.clicks[0] == "live" and "dead" not in third.clicks
    assert third.done("Alan Turing") and steered[-1]["status"] == "completed"
    assert used(steered) == [skills[0].id]
    assert len(steered) < len(answers)
    after = await api.store.skills.get("tenant-a", skills[0].id)
    assert after is not None and after.success_count == 3 and after.failure_count == 0


async def test_a_skill_stays_with_its_tenant_and_its_site(api: Api) -> None:
    for person in PEOPLE[:2]:
        await run(api, "nav", person)
    assert [s.status for s in await api.store.skills.list("tenant-a")] == ["admitted"]
    other_tenant, answers = await run(api, "nav", PEOPLE[2], key=api.key_b)
    assert other_tenant.clicks[0] == "dead" and used(answers) == []
    other_site, answers = await run(api, "nav", PEOPLE[3], origin="https://other-clinic.example")
    assert other_site.clicks[0] == "dead" and used(answers) == []
    theirs = await api.store.skills.list("tenant-b")  # tenant B learned its own candidate, nothing more
    assert [s.status for s in theirs] == ["candidate"] and theirs[0].id not in {s.id for s in await api.store.skills.list("tenant-a")}


async def test_a_skill_that_stops_working_falls_below_the_gate(api: Api) -> None:
    for person in PEOPLE[:2]:
        await run(api, "nav", person)
    skill = (await api.store.skills.list("tenant-a"))[0]

    class Broken(Clinic):  # the learned control now does nothing either; a third one works
        def apply(self, text: str) -> None:
            if self.state == "home" and text == f'click("{self._id("live")}")':
                self.clicks.append("live")
                return
            super().apply(text)

    clinic = Broken(layout="nav")
    answers = await drive(interact_as(api), clinic, GOALS["nav"].format(first="Alan", last="Turing"))
    assert used(answers)[:1] == [skill.id] and answers[-1]["status"] != "completed"
    judged = await api.store.skills.get("tenant-a", skill.id)
    assert judged is not None and judged.failure_count >= 1
    later, answers = await run(api, "nav", PEOPLE[3])
    assert used(answers) == [] and later.clicks[0] == "dead"  # 2/1 is under the 50 % gate


async def test_no_skill_is_learned_when_the_tenant_turns_skills_off(api: Api) -> None:
    response = await api.client.put("/api/memory/settings", json={"skills": False}, headers=api.headers())
    assert response.status_code == 200, response.text
    for person in PEOPLE[:3]:
        await run(api, "nav", person)
    assert await api.store.skills.list("tenant-a") == []


def _lying_model() -> ScenarioModel:
    """Claims every action worked and the task is done; proposes finish() from the start."""
    return ScenarioModel(
        {
            "CONTEXT_ANALYSIS": lambda s: {"source": "PAGE", "required_sources": ["PAGE"], "missing_information": [], "search_query": None, "reason": "On the page."},
            "PLANNING": lambda s: {"steps": [{"description": "Finish", "kind": "click", "target": "Save", "value": None, "success_criterion": "done"}], "contract": [], "needs_user_input": []},
            "ACTION_GENERATION": lambda s: {"thought": "Done already.", "action": "finish()", "element_id": None, "confidence": 0.99, "chain": [], "step_done": True, "missing_info": []},
            "VERIFICATION": lambda s: {"action_succeeded": True, "task_completed": True, "confidence": 0.99, "reason": "It worked, all done!"},
            "OUTCOME_PREDICTION": lambda s: {"description": "Done.", "url_should_change": None, "elements_to_appear": [], "success_text": None, "next_goal": None},
            "REPLANNING": lambda s: {"valid": True, "minor_modifications_only": True, "suggested_changes": [], "modified_steps": None},
            "CRITIC": lambda s: {"approved": True, "concerns": [], "alternative_action": None, "confidence": 0.99},
            "SELF_CORRECTION": lambda s: {"strategy": "ALTERNATIVE_SELECTOR", "action": "finish()", "reason": "It is done."},
        }
    )


async def test_a_lying_model_never_gets_a_skill_admitted_nor_a_false_completion(make_api: ApiFactory) -> None:
    api = await make_api(rate_limit_per_minute=1000)
    model = _lying_model()
    model.sink = api.app.state.usage_service
    api.app.state.agent_deps.gateway = model
    for person in PEOPLE:
        clinic, answers = await run(api, "nav", person)
        if answers[-1]["status"] == "completed":
            assert clinic.done(f"{person[0]} {person[1]}")
    assert [s for s in await api.store.skills.list("tenant-a") if s.status == "admitted"] == []


async def test_a_password_from_the_goal_is_never_stored_in_memory(make_api: ApiFactory, db_url: str) -> None:
    api = await make_api(rate_limit_per_minute=1000)  # skills and recipes both on
    secret = "Zq8#kT-secret-41"
    for offset, user in ((0, "nurse1"), (5, "nurse2"), (9, "nurse3")):
        site = SignIn(id_offset=offset)
        answers = await drive(interact_as(api), site, f'Type {user} into Username and "{secret}" into Password, then click "Sign in"')
        assert site.signed_in == user and answers[-1]["status"] == "completed"
    skills = await api.store.skills.list("tenant-a")
    assert [s.status for s in skills] == ["admitted"]
    assert [r.status for r in await api.store.recipes.list("tenant-a")] == ["promoted"]
    assert answers[0]["memory"]["replay"] == "HIT"  # the third sign-in replayed, password bound from its goal
    raw = open(db_url.removeprefix("sqlite:///"), "rb").read()
    assert secret.encode() not in raw
    for record in [*skills, *await api.store.recipes.list("tenant-a")]:
        assert secret not in str(record.model_dump())
