"""The interact examples of /openapi.json are what the service really answers: sent to it,
the example requests get answers of the examples' shape, action, status and contract (the
wording of thoughts and observations may change without the example going stale)."""

from __future__ import annotations

from typing import Any

from app.schemas.examples import REQUEST_EXAMPLES, RESPONSE_EXAMPLES, SESSION, TASK
from tests.integration.api.conftest import Api

SAME = ("action", "actionDetails", "status", "stepIndex", "decidedBy", "failureCode", "replayed", "usage", "memory")


def _clauses(answer: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(c["kind"], c["mode"], c["status"]) for c in (answer["contract"] or {}).get("clauses", [])]


def same_answer(real: dict[str, Any], example: dict[str, Any]) -> None:
    assert real.keys() == example.keys()
    for key in SAME:
        assert real[key] == example[key], key
    assert _clauses(real) == _clauses(example)
    assert (real["verification"] or {}).get("success") == (example["verification"] or {}).get("success")


def with_ids(body: dict[str, Any], ids: dict[str, str]) -> dict[str, Any]:
    return {k: ids.get(v, v) if k in ("taskId", "sessionId") else v for k, v in body.items()}


async def test_the_served_document_keeps_the_examples_as_written(api: Api) -> None:
    doc = (await api.client.get("/openapi.json")).json()
    answers = doc["paths"]["/api/agent/interact"]["post"]["responses"]["200"]["content"]["application/json"]["examples"]
    assert answers["needsUserInput"]["value"]["taskId"] is None  # not dropped as a null
    assert answers == RESPONSE_EXAMPLES


async def test_the_example_requests_get_the_example_answers(api: Api) -> None:
    first = (await api.interact(REQUEST_EXAMPLES["newTask"]["value"])).json()
    same_answer(first, RESPONSE_EXAMPLES["nextAction"]["value"])
    ids = {TASK: first["taskId"], SESSION: first["sessionId"]}
    second = (await api.interact(with_ids(REQUEST_EXAMPLES["continuation"]["value"], ids))).json()
    same_answer(second, RESPONSE_EXAMPLES["continued"]["value"])
