"""The memory API: list, filter, read and forget the tenant's skills and recipes; the
tenant's memory switches. Records are seeded through the store."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from app.schemas.memory import MemorySettingsIn, MemorySettingsOut, RecipeOut, SkillOut
from storage import Recipe, Skill, utcnow
from tests.integration.api.conftest import Api

A, B = "tenant-a", "tenant-b"


async def seed_skill(api: Api, id: str, domain: str = "emr.example", tenant: str = A, task: str = "t1") -> Skill:
    skill = Skill(
        id=id,
        tenant_id=tenant,
        domain=domain,
        goal="Add patient {v1}",
        failed_state={"action": "click", "target": {"role": "button", "name": "Save"}, "error_type": "NO_CHANGE"},
        successful_action={"action": "click", "target": {"role": "button", "name": "Save patient"}},
    )
    return await api.store.skills.learn(skill, task, utcnow())


async def seed_recipe(api: Api, id: str, domain: str = "emr.example", tenant: str = A, **fields: Any) -> Recipe:
    recipe = Recipe(
        id=id,
        tenant_id=tenant,
        domain=domain,
        template="Add patient {v1}",
        variables=["v1"],
        steps=[
            {"fingerprint": "0123456789abcdef", "action": "setValue", "target": {"role": "textbox", "name": "Name"},
             "value": {"var": "v1"}, "chain": False},
            {"fingerprint": "0123456789abcdef", "action": "click", "target": {"role": "button", "name": "Save"},
             "value": None, "chain": True},
        ],
        **fields,
    )
    return await api.store.recipes.record_run(recipe, "t1", utcnow())


def error_code(response: Any) -> str:
    return str(response.json()["error"]["code"])


async def test_skills_list_filter_page_and_get(api: Api) -> None:
    await seed_skill(api, "s1", "a.example")
    await seed_skill(api, "s2", "b.example")
    await seed_skill(api, "s3", "a.example")
    await api.store.skills.set_status(A, "s3", "admitted")
    await seed_skill(api, "theirs", "a.example", tenant=B)

    body = (await api.client.get("/api/skills", headers=api.headers())).json()
    assert [s["id"] for s in body["skills"]] == ["s3", "s2", "s1"] and body["total"] == 3
    first = body["skills"][2]
    assert first["successCount"] == 1 and first["evidence"] == ["t1"] and first["status"] == "candidate"
    assert first["failedState"]["errorType"] == "NO_CHANGE"
    assert first["successfulAction"]["target"] == {"role": "button", "name": "Save patient"}

    only_a = (await api.client.get("/api/skills", params={"domain": "a.example"}, headers=api.headers())).json()
    assert [s["id"] for s in only_a["skills"]] == ["s3", "s1"] and only_a["total"] == 2
    admitted = (await api.client.get("/api/skills", params={"status": "admitted"}, headers=api.headers())).json()
    assert [s["id"] for s in admitted["skills"]] == ["s3"]
    page = (await api.client.get("/api/skills", params={"limit": 1, "offset": 1}, headers=api.headers())).json()
    assert [s["id"] for s in page["skills"]] == ["s2"] and page["total"] == 3

    one = await api.client.get("/api/skills/s1", headers=api.headers())
    assert one.status_code == 200 and one.json() == first
    missing = await api.client.get("/api/skills/nope", headers=api.headers())
    assert missing.status_code == 404 and error_code(missing) == "SKILL_NOT_FOUND"
    assert missing.json()["error"]["details"] == {"skillId": "nope"}


async def test_skills_delete_one_and_by_domain(api: Api) -> None:
    for n, domain in enumerate(["a.example", "a.example", "b.example", "c.example"]):
        await seed_skill(api, f"s{n}", domain)
    await seed_skill(api, "theirs", "a.example", tenant=B)
    gone = await api.client.delete("/api/skills/s0", headers=api.headers())
    assert gone.status_code == 204 and gone.content == b""
    again = await api.client.delete("/api/skills/s0", headers=api.headers())
    assert again.status_code == 404 and error_code(again) == "SKILL_NOT_FOUND"
    by_domain = await api.client.delete("/api/skills", params={"domain": "a.example"}, headers=api.headers())
    assert by_domain.status_code == 200 and by_domain.json() == {"deleted": 1}
    everything = await api.client.delete("/api/skills", headers=api.headers())
    assert everything.json() == {"deleted": 2}
    assert await api.store.skills.count(A) == 0
    assert await api.store.skills.count(B) == 1


async def test_recipes_list_get_and_delete(api: Api) -> None:
    await seed_recipe(api, "r1", "a.example")
    await seed_recipe(api, "r2", "b.example", status="promoted")
    await seed_recipe(api, "theirs", "a.example", tenant=B)
    body = (await api.client.get("/api/recipes", headers=api.headers())).json()
    assert [r["id"] for r in body["recipes"]] == ["r2", "r1"] and body["total"] == 2
    promoted = (await api.client.get("/api/recipes", params={"status": "promoted"}, headers=api.headers())).json()
    assert [r["id"] for r in promoted["recipes"]] == ["r2"] and promoted["total"] == 1
    only_a = (await api.client.get("/api/recipes", params={"domain": "a.example"}, headers=api.headers())).json()
    assert [r["id"] for r in only_a["recipes"]] == ["r1"]

    one = (await api.client.get("/api/recipes/r1", headers=api.headers())).json()
    assert one["template"] == "Add patient {v1}" and one["variables"] == ["v1"]
    assert (one["verifiedRuns"], one["failedRuns"], one["replays"], one["status"]) == (1, 0, 0, "candidate")
    assert one["steps"][0] == {
        "fingerprint": "0123456789abcdef", "action": "setValue",
        "target": {"role": "textbox", "name": "Name"}, "value": {"var": "v1"},
    }
    assert one["steps"][1]["value"] is None

    missing = await api.client.get("/api/recipes/nope", headers=api.headers())
    assert missing.status_code == 404 and error_code(missing) == "RECIPE_NOT_FOUND"
    assert (await api.client.delete("/api/recipes/r1", headers=api.headers())).status_code == 204
    again = await api.client.delete("/api/recipes/r1", headers=api.headers())
    assert again.status_code == 404 and error_code(again) == "RECIPE_NOT_FOUND"
    assert (await api.client.delete("/api/recipes", params={"domain": "b.example"}, headers=api.headers())).json() == {"deleted": 1}
    assert (await api.client.delete("/api/recipes", headers=api.headers())).json() == {"deleted": 0}
    assert await api.store.recipes.count(B) == 1


async def test_a_recipe_step_shows_only_variable_references_or_literal_text(api: Api) -> None:
    await seed_recipe(api, "r1")
    stored = await api.store.recipes.get(A, "r1")
    assert stored is not None
    odd = stored.model_copy(update={"steps": [{"fingerprint": "f", "action": "setValue", "target": None,
                                               "value": {"var": "v1", "typed": "hunter2"}, "chain": False}]})
    await api.store.recipes.upsert(odd)
    step = (await api.client.get("/api/recipes/r1", headers=api.headers())).json()["steps"][0]
    assert step["value"] == {"var": "v1"} and step["target"] is None


async def test_tenant_b_cannot_see_or_delete_tenant_a_records(api: Api) -> None:
    await seed_skill(api, "s1")
    await seed_recipe(api, "r1")
    b = api.headers(api.key_b)
    assert (await api.client.get("/api/skills", headers=b)).json() == {"skills": [], "total": 0}
    assert (await api.client.get("/api/recipes", headers=b)).json() == {"recipes": [], "total": 0}
    assert error_code(await api.client.get("/api/skills/s1", headers=b)) == "SKILL_NOT_FOUND"
    assert error_code(await api.client.get("/api/recipes/r1", headers=b)) == "RECIPE_NOT_FOUND"
    assert (await api.client.delete("/api/skills/s1", headers=b)).status_code == 404
    assert (await api.client.delete("/api/recipes/r1", headers=b)).status_code == 404
    assert (await api.client.delete("/api/skills", headers=b)).json() == {"deleted": 0}
    assert (await api.client.delete("/api/recipes", params={"domain": "emr.example"}, headers=b)).json() == {"deleted": 0}
    assert await api.store.skills.get(A, "s1") is not None
    assert await api.store.recipes.get(A, "r1") is not None


async def test_settings_default_on_partial_put_and_per_tenant(api: Api) -> None:
    got = await api.client.get("/api/memory/settings", headers=api.headers())
    assert got.status_code == 200 and got.json() == {"skills": True, "replay": True}
    put = await api.client.put("/api/memory/settings", json={"replay": False}, headers=api.headers())
    assert put.status_code == 200 and put.json() == {"skills": True, "replay": False}
    put = await api.client.put("/api/memory/settings", json={"skills": False}, headers=api.headers())
    assert put.json() == {"skills": False, "replay": False}
    assert (await api.client.put("/api/memory/settings", json={}, headers=api.headers())).json() == {"skills": False, "replay": False}
    assert (await api.client.get("/api/memory/settings", headers=api.headers())).json() == {"skills": False, "replay": False}
    assert (await api.client.get("/api/memory/settings", headers=api.headers(api.key_b))).json() == {"skills": True, "replay": True}
    stored = await api.store.memory_settings.get(A)
    assert stored is not None and (stored.skills, stored.replay) == (False, False)


@pytest.mark.parametrize("body", [{"skills": "yes"}, {"replay": 1}, {"other": True}, [True], "on"])
async def test_a_bad_settings_body_is_422(api: Api, body: Any) -> None:
    response = await api.client.put("/api/memory/settings", json=body, headers=api.headers())
    assert response.status_code == 422 and error_code(response) == "VALIDATION_FAILED"
    assert (await api.client.get("/api/memory/settings", headers=api.headers())).json() == {"skills": True, "replay": True}


async def test_a_settings_body_that_is_not_json_is_400(api: Api) -> None:
    response = await api.client.put(
        "/api/memory/settings", content=b"{nope", headers={**api.headers(), "content-type": "application/json"}
    )
    assert response.status_code == 400 and error_code(response) == "INVALID_JSON"


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "/api/skills"), ("get", "/api/skills/s1"), ("delete", "/api/skills/s1"), ("delete", "/api/skills"),
     ("get", "/api/recipes"), ("get", "/api/recipes/r1"), ("delete", "/api/recipes/r1"), ("delete", "/api/recipes"),
     ("get", "/api/memory/settings"), ("put", "/api/memory/settings"),
     ("get", "/api/vision/settings"), ("put", "/api/vision/settings")],
)
async def test_every_route_needs_a_key(api: Api, method: str, path: str) -> None:
    response = await api.client.request(method, path, json={} if method == "put" else None)
    assert response.status_code == 401 and error_code(response) == "UNAUTHORIZED"


@pytest.mark.parametrize(
    "params",
    [{"limit": 0}, {"limit": 501}, {"limit": "x"}, {"offset": -1}, {"status": "promoted"}, {"domain": ""}],
)
async def test_bad_skill_queries_are_422(api: Api, params: dict[str, Any]) -> None:
    response = await api.client.get("/api/skills", params=params, headers=api.headers())
    assert response.status_code == 422 and error_code(response) == "VALIDATION_FAILED"


async def test_limit_500_is_allowed_and_a_bad_recipe_status_is_422(api: Api) -> None:
    assert (await api.client.get("/api/recipes", params={"limit": 500}, headers=api.headers())).status_code == 200
    bad = await api.client.get("/api/recipes", params={"status": "admitted"}, headers=api.headers())
    assert bad.status_code == 422


@pytest.mark.parametrize("model", [SkillOut, RecipeOut, MemorySettingsOut, MemorySettingsIn])
def test_schema_examples_are_what_the_model_sends(model: type[BaseModel]) -> None:
    [example] = model.model_config["json_schema_extra"]["examples"]  # type: ignore[index]
    assert model.model_validate(example).model_dump(mode="json", by_alias=True, exclude_unset=True) == example
