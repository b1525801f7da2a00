"""The OpenAPI document is worth reading offline: every property and parameter is described,
every example is valid against its own model (so a stale example fails), the interact
examples cover a new task, a continuation, a chain, each kind of answer and each error, and
the action grammar is documented where the action is."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

import app.errors
import app.routes.usage
import app.schemas.interact
import app.schemas.interact_answer
import app.schemas.tasks
from app.error_codes import ERROR_CODES
from app.main import create_app
from app.schemas.examples import REQUEST_EXAMPLES, RESPONSE_EXAMPLES
from app.schemas.grammar import ACTION_GRAMMAR
from app.schemas.interact import InteractRequest
from app.schemas.interact_answer import InteractResponse
from app.settings import Settings
from verification import parse_action
from verification.actions import ACTION_NAMES

DOC = create_app(Settings(env="test", database_url="sqlite://")).openapi()
SCHEMAS: dict[str, Any] = DOC["components"]["schemas"]
MODELS: dict[str, type[BaseModel]] = {
    name: member
    for module in (app.errors, app.routes.usage, app.schemas.interact, app.schemas.interact_answer, app.schemas.tasks)
    for name, member in vars(module).items()
    if inspect.isclass(member) and issubclass(member, BaseModel) and name in SCHEMAS
}


def _operations() -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, operations in DOC["paths"].items():
        for method, operation in operations.items():
            yield path, method, operation


def _model_of(schema: dict[str, Any]) -> type[BaseModel]:
    ref = schema.get("$ref") or next(branch["$ref"] for branch in schema.get("anyOf", []) if "$ref" in branch)
    return MODELS[ref.rsplit("/", 1)[1]]


def _examples() -> Iterator[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    """(where, direction, schema, example value) of every example in the document."""
    for path, method, operation in _operations():
        body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        for name, example in body.get("examples", {}).items():
            yield f"{method} {path} request {name}", "request", body["schema"], example["value"]
        for status, response in operation["responses"].items():
            content = response.get("content", {}).get("application/json", {})
            for name, example in content.get("examples", {}).items():
                yield f"{method} {path} {status} {name}", "response", content["schema"], example["value"]


EXAMPLES = list(_examples())


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_property_of_every_schema_is_described(name: str) -> None:
    schema = SCHEMAS[name]
    undescribed = [prop for prop, spec in schema.get("properties", {}).items() if not spec.get("description", "").strip()]
    assert not undescribed, f"{name}: {undescribed}"


def test_every_parameter_is_described() -> None:
    for path, method, operation in _operations():
        for parameter in operation.get("parameters", []):
            assert parameter.get("description", "").strip(), (method, path, parameter["name"])


def test_the_document_has_examples_to_check() -> None:
    assert len(EXAMPLES) > 40


@pytest.mark.parametrize(("where", "direction", "schema", "value"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_every_example_is_valid_against_its_own_model(where: str, direction: str, schema: dict[str, Any], value: dict[str, Any]) -> None:
    model = _model_of(schema)
    parsed = model.model_validate(value)  # a stale example (a renamed or newly required field) fails here
    if direction == "response":
        # exactly what the server would send: no field the model lacks, none it adds
        assert parsed.model_dump(mode="json", by_alias=True) == value, where
        if "error" in value:  # the code of an error example is one of the enum
            assert value["error"]["code"] in SCHEMAS["ErrorBody"]["properties"]["code"]["enum"], where
    else:
        known = {f.alias or n for n, f in model.model_fields.items()}
        assert set(value) <= known, (where, set(value) - known)  # unknown fields are ignored: an example must not rely on them


@pytest.mark.parametrize("name", sorted(RESPONSE_EXAMPLES))
def test_each_answer_example_is_exactly_what_the_server_sends(name: str) -> None:
    value = RESPONSE_EXAMPLES[name]["value"]
    assert InteractResponse.model_validate(value).model_dump(mode="json", by_alias=True) == value


def test_the_interact_examples_cover_each_kind_of_exchange() -> None:
    requests = {name: InteractRequest.model_validate(e["value"]) for name, e in REQUEST_EXAMPLES.items()}
    assert requests["newTask"].task_id is None and requests["newTask"].query
    assert requests["continuation"].task_id and requests["continuation"].step_index is not None
    chain = requests["chainContinuation"]
    assert chain.last_executed_action_index is not None and chain.chain_partial_state is not None
    answers = {name: InteractResponse.model_validate(e["value"]) for name, e in RESPONSE_EXAMPLES.items()}
    assert answers["nextAction"].action and answers["nextAction"].action_details is not None
    assert answers["continued"].verification is not None
    completed = answers["completed"]
    assert completed.status == "completed" and completed.contract is not None and completed.contract.satisfied
    assert answers["needsUserInput"].status == "needs_user_input" and answers["needsUserInput"].task_id is None
    assert answers["failed"].status == "failed" and answers["failed"].failure_code
    assert answers["idempotentReplay"].replayed


def test_each_answer_example_s_action_details_are_its_action() -> None:
    for name, example in RESPONSE_EXAMPLES.items():
        answer = InteractResponse.model_validate(example["value"])
        if answer.action:
            parsed = parse_action(answer.action)
            assert answer.action_details is not None, name
            assert (answer.action_details.name, answer.action_details.target, answer.action_details.value) == (parsed.name, parsed.target, parsed.value)


def test_interact_documents_every_error_it_can_answer_with_an_example() -> None:
    responses = DOC["paths"]["/api/agent/interact"]["post"]["responses"]
    documented = {name for r in responses.values() for name in r.get("content", {}).get("application/json", {}).get("examples", {})}
    for code in ("INVALID_JSON", "IDEMPOTENCY_KEY_INVALID", "UNAUTHORIZED", "TASK_NOT_FOUND", "SESSION_NOT_FOUND", "TASK_CONFLICT",
                 "TASK_FINISHED", "IDEMPOTENCY_KEY_IN_FLIGHT", "IDEMPOTENCY_KEY_REUSED", "PAYLOAD_TOO_LARGE", "LIMIT_EXCEEDED",
                 "VALIDATION_FAILED", "INVALID_PAGE", "RATE_LIMITED", "STORE_UNAVAILABLE", "MAX_STEPS_EXCEEDED"):  # fmt: skip
        assert code in documented, code
    assert set(documented) - set(RESPONSE_EXAMPLES) <= set(ERROR_CODES)


def test_the_action_grammar_is_documented_where_the_action_is() -> None:
    action = SCHEMAS["InteractResponse"]["properties"]["action"]["description"]
    for name in ACTION_NAMES:
        assert f"`{name}(" in ACTION_GRAMMAR, name
    assert ACTION_GRAMMAR in action and ACTION_GRAMMAR in DOC["info"]["description"]
    assert SCHEMAS["ActionDetailsOut"]["properties"]["name"]["enum"] == list(ACTION_NAMES)


def test_the_real_constraints_are_in_the_document() -> None:
    url = SCHEMAS["InteractRequest"]["properties"]["url"]
    assert (url["maxLength"], url["format"]) == (8192, "uri") and url["pattern"].startswith("^")
    usage = {p["name"]: p for p in DOC["paths"]["/api/usage"]["get"]["parameters"]}
    assert usage["from"]["schema"]["pattern"] and usage["from"]["schema"]["anyOf"][0]["maxLength"] == 64
    header = {p["name"]: p for p in DOC["paths"]["/api/agent/interact"]["post"]["parameters"]}["Idempotency-Key"]
    assert header["in"] == "header" and header["schema"]["maxLength"] >= 255
