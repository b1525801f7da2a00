"""Replay of verified flows through the whole service: two proven runs promote a recipe; a
later task on a matching page is served from it with no model call, each step re-identified
and verified; a page that differs falls back for that step only; two candidates are a miss,
never a guess; a failed replay demotes the recipe."""

from __future__ import annotations

from typing import Any

from agent.llm import LLMError
from tests.integration.api.conftest import Api
from tests.integration.api.test_memory_skills import GOALS, PEOPLE, interact_as, run
from tests.support.memory_sites import Clinic, drive


def replays(answers: list[dict[str, Any]]) -> list[str]:
    return [(a.get("memory") or {}).get("replay", "") for a in answers]


class Tripwire:
    """A model gateway that records every call and fails it: a replayed step must make none."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def generate(self, purpose: str, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(purpose)
        raise LLMError("tripwire: no model call was expected", purpose=purpose)

    async def embed(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("EMBED")
        raise LLMError("tripwire")


async def learn(api: Api, runs: int = 2) -> None:
    for person in PEOPLE[:runs]:
        clinic, answers = await run(api, "nav", person, id_offset=len(person[0]))
        assert answers[-1]["status"] == "completed" and clinic.done(" ".join(person))


async def test_two_proven_runs_promote_a_recipe_served_later_with_no_model_call(api: Api) -> None:
    await learn(api, 1)
    recipes = await api.store.recipes.list("tenant-a")
    assert [(r.status, r.verified_runs) for r in recipes] == [("candidate", 1)]
    _, answers = await run(api, "nav", PEOPLE[1])
    assert answers[0]["memory"]["replay"] == "MISS" and "not promoted" in answers[0]["memory"]["missReason"]
    recipe = (await api.store.recipes.list("tenant-a"))[0]
    assert recipe.status == "promoted" and recipe.verified_runs == 2
    assert all(s["action"] != "wait" for s in recipe.steps)  # the dead end and the retry are not part of it
    assert "Ada" not in str(recipe.model_dump()) and "Grace" not in str(recipe.model_dump())

    tripwire = Tripwire()
    api.app.state.agent_deps.gateway = tripwire  # type: ignore[assignment]
    clinic, answers = await run(api, "nav", PEOPLE[2], id_offset=11, dead_first=False)
    assert clinic.done("Alan Turing") and answers[-1]["status"] == "completed"
    assert replays(answers) == ["HIT"] * len(answers)
    assert tripwire.calls == [] and all(a["usage"]["modelCalls"] == 0 for a in answers)
    assert "dead" not in clinic.clicks and len(answers) == 3  # the link, the form as one chain, done
    assert answers[-1]["memory"]["recipeId"] == recipe.id

    detail = (await api.client.get(f"/api/tasks/{answers[0]['taskId']}", headers=api.headers())).json()
    assert [s["memory"]["replay"] for s in detail["steps"]] == ["HIT"] * 3
    assert all(s["modelCalls"] == 0 for s in detail["steps"])


async def test_a_flow_verified_on_two_skeletons_is_served_on_both_and_on_no_other(api: Api) -> None:
    """A promotional box makes another page skeleton; the flow is the same. One verified run
    on each skeleton promotes the flow there, and nowhere else."""
    for person, banner in ((PEOPLE[0], "checkbox"), (PEOPLE[1], None)):
        clinic, answers = await run(api, "nav", person, banner=banner, id_offset=len(person[0]))
        assert answers[-1]["status"] == "completed" and clinic.done(" ".join(person))
    recipes = await api.store.recipes.list("tenant-a")
    assert sorted((r.status, r.verified_runs) for r in recipes) == [("promoted", 1), ("promoted", 1)]
    assert recipes[0].steps[0]["fingerprint"] != recipes[1].steps[0]["fingerprint"]

    tripwire = Tripwire()
    api.app.state.agent_deps.gateway = tripwire  # type: ignore[assignment]
    for person, banner in ((PEOPLE[2], "checkbox"), (PEOPLE[3], None)):
        clinic, answers = await run(api, "nav", person, banner=banner, id_offset=13, dead_first=False)
        assert clinic.done(" ".join(person)) and replays(answers) == ["HIT"] * len(answers)
    assert tripwire.calls == []
    clinic, answers = await run(api, "nav", ("Barbara", "Liskov"), banner="tab", id_offset=3)
    assert answers[0]["memory"]["replay"] == "MISS" and "fingerprint" in answers[0]["memory"]["missReason"]


async def test_a_page_that_differs_falls_back_for_that_step_only(api: Api) -> None:
    await learn(api)
    clinic, answers = await run(api, "nav", PEOPLE[2], overlay=True)
    assert clinic.done("Alan Turing") and answers[-1]["status"] == "completed"
    statuses = replays(answers)
    assert statuses[0] == "HIT" and statuses[1] == "FALLBACK" and "fingerprint" in answers[1]["memory"]["missReason"]
    assert "HIT" in statuses[2:-1]  # resumed once the notice was closed
    assert answers[-1]["memory"]["replay"] == "FALLBACK"


async def test_two_look_alike_targets_are_a_miss_never_a_guess(api: Api) -> None:
    await learn(api)
    clinic, answers = await run(api, "nav", PEOPLE[2], twin_save=True)
    assert "twin" not in [c for a, c in zip(replays(answers), clinic.clicks) if a == "HIT"]
    assert any("not re-identified" in ((a.get("memory") or {}).get("missReason") or "") or a["memory"]["replay"] == "FALLBACK" for a in answers[1:])
    if answers[-1]["status"] == "completed":
        assert clinic.done("Alan Turing")


async def test_a_replayed_step_that_fails_demotes_the_recipe(api: Api) -> None:
    await learn(api)
    clinic, answers = await run(api, "nav", PEOPLE[2], broken_live=True)
    assert answers[0]["memory"]["replay"] == "HIT" and not clinic.done("Alan Turing")
    assert answers[-1]["status"] != "completed"
    recipe = (await api.store.recipes.list("tenant-a"))[0]
    assert recipe.status == "demoted" and recipe.failed_runs >= 1
    clinic, later = await run(api, "nav", PEOPLE[3])
    assert "HIT" not in replays(later) and clinic.done("Edsger Dijkstra")  # the planner again (steered by the skill), never the demoted recipe
    assert later[0]["memory"]["missReason"] == "this goal's recipe was demoted after a replay failed"
    assert (await api.store.recipes.get("tenant-a", recipe.id)).verified_runs == 1  # type: ignore[union-attr]  # counted afresh


async def test_a_demoted_recipe_is_promoted_again_by_two_verified_runs_after_it_failed(api: Api) -> None:
    await learn(api)
    await run(api, "nav", PEOPLE[2], broken_live=True)
    for person in (PEOPLE[3], ("Barbara", "Liskov")):  # the planner, verified by the page, twice
        clinic, answers = await run(api, "nav", person)
        assert "HIT" not in replays(answers) and clinic.done(" ".join(person))
    recipe = (await api.store.recipes.list("tenant-a"))[0]
    assert (recipe.status, recipe.verified_runs, recipe.failed_runs) == ("promoted", 2, 1)
    clinic, answers = await run(api, "nav", ("Ken", "Thompson"), dead_first=False)
    assert clinic.done("Ken Thompson") and replays(answers) == ["HIT"] * len(answers)


async def test_a_replayed_step_is_held_to_the_change_it_made_when_recorded(api: Api) -> None:
    """The recorded link opened the form; now it only takes the focus (a widget that broke).
    The focus is not the change the recorded run proved: the step failed, the recipe is not
    followed blindly, and the task is not completed."""
    await learn(api)
    recipe = (await api.store.recipes.list("tenant-a"))[0]
    assert recipe.steps[0].get("changed") is True
    clinic, answers = await run(api, "nav", PEOPLE[2], broken_live=True, focusable=True)
    assert answers[0]["memory"]["replay"] == "HIT" and clinic.clicks[0] == "live"
    assert answers[1]["verification"]["success"] is False and answers[1]["memory"]["replay"] != "HIT"
    assert answers[-1]["status"] != "completed" and not clinic.done("Alan Turing")
    assert (await api.store.recipes.get("tenant-a", recipe.id)).status == "demoted"  # type: ignore[union-attr]


async def test_a_tenant_can_switch_replay_off(api: Api) -> None:
    await learn(api)
    response = await api.client.put("/api/memory/settings", json={"replay": False}, headers=api.headers())
    assert response.status_code == 200 and response.json()["replay"] is False
    _, answers = await run(api, "nav", PEOPLE[2])
    assert set(replays(answers)) == {"DISABLED"}
    _, other = await run(api, "nav", PEOPLE[3], key=api.key_b)  # another tenant: its own switch, no recipe
    assert other[0]["memory"]["replay"] == "MISS"


async def test_a_recipe_is_never_served_to_another_goal_or_tenant(api: Api) -> None:
    await learn(api)
    clinic = Clinic(layout="nav")
    answers = await drive(interact_as(api), clinic, "Click Help")
    assert answers[0]["memory"]["replay"] == "MISS"
    _, other = await run(api, "nav", PEOPLE[2], key=api.key_b)
    assert "HIT" not in replays(other)
    assert GOALS  # the phrasings are shared with the skills tests
