"""The dynamic interrupt through the API, with the real google-genai client against the fake
Gemini server and the real tavily-python client against the fake Tavily server: a worker
that reports a missing value gets it looked up (knowledge base, web search) and is asked
again; what nothing gives is asked of the user, never invented."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tests.integration.api.conftest import Api, ApiFactory
from tests.support.fake_gemini import FakeGemini, FakeReply, RecordedRequest, http_error, ok
from tests.support.fake_tavily import TEST_API_KEY, FakeTavily, hit, results

URL = "https://suppliers.example/new"
GOAL = "Enter the VAT number of Acme GmbH into the VAT field, then click Submit"
VAT = "DE811907980"
TREE = [{"i": "1", "r": "inp", "n": "Company", "v": "Acme GmbH"}, {"i": "2", "r": "inp", "n": "VAT field"}, {"i": "3", "r": "btn", "n": "Submit"}]


def _blocks(text: str) -> dict[str, str]:
    return {m.group(2): m.group(3) for m in re.finditer(r'<<data-([0-9a-f]+) name="([^"]+)">>\n(.*?)\n<</data-\1>>', text, re.S)}


def _worker(request: RecordedRequest) -> dict[str, Any]:
    """Honest: types the VAT number only when a retrieved block states it."""
    blocks = _blocks(request.user_text)
    step = blocks.get("current_step", "")
    if "kind: click" in step:
        return {"thought": "Next.", "action": 'click("4")', "element_id": "4", "confidence": 0.9, "chain": [], "step_done": True, "missing_info": []}
    found = "".join(b for name, b in blocks.items() if name.startswith("retrieved_") or name in ("user_messages", "goal"))
    if (match := re.search(r"DE\d{9}", found)) is not None:
        return {"thought": "Type the VAT number found.", "action": f'setValue("2", "{match.group(0)}")', "element_id": "2", "confidence": 0.9,
                "chain": [], "step_done": True, "missing_info": []}  # fmt: skip
    return {"thought": "The VAT number is not given.", "action": "wait(1)", "element_id": None, "confidence": 0.9, "chain": [], "step_done": False,
            "missing_info": ["VAT number of Acme GmbH"]}  # fmt: skip


def _model(worker: Callable[[RecordedRequest], dict[str, Any]], *, next_first: bool = False) -> Callable[[RecordedRequest], FakeReply]:
    def respond(request: RecordedRequest) -> FakeReply:
        props = set(request.generation_config.get("responseJsonSchema", {}).get("properties", {}))
        if "step_done" in props:
            return ok(worker(request))
        if "solved" in props:
            return ok({"solved": True, "refined_query": None, "should_ask_user": False})
        if "required_sources" in props:
            return ok({"source": "PAGE", "required_sources": ["PAGE"], "missing_information": [], "search_query": None, "reason": "On the page."})
        if "steps" in props:
            steps = [{"description": "Type the VAT number", "kind": "fill", "target": "VAT field", "value": None, "success_criterion": "typed"},
                     {"description": "Submit", "kind": "submit", "target": "Submit", "value": None, "success_criterion": "sent"}]  # fmt: skip
            if next_first:
                steps.insert(0, {"description": "Go on", "kind": "click", "target": "Next", "value": None, "success_criterion": "next part"})
            return ok({"steps": steps, "contract": [], "needs_user_input": []})
        if "solved" in props:
            return ok({"solved": True, "refined_query": None, "should_ask_user": False})
        if "task_completed" in props:
            return ok({"action_succeeded": True, "task_completed": False, "confidence": 0.9, "reason": "It changed."})
        if "url_should_change" in props:
            return ok({"description": "Typed.", "url_should_change": None, "elements_to_appear": [], "success_text": None, "next_goal": None})
        if "approved" in props:
            return ok({"approved": True, "concerns": [], "alternative_action": None, "confidence": 0.9})
        return http_error(400, error_message="fake gemini: not scripted for this call")

    return respond


def _workers(gemini: FakeGemini) -> list[RecordedRequest]:
    return [r for r in gemini.requests if "step_done" in r.generation_config.get("responseJsonSchema", {}).get("properties", {})]


async def _start(api: Api) -> dict[str, Any]:
    response = await api.interact({"url": URL, "query": GOAL, "interactiveTree": TREE})
    assert response.status_code == 200, response.text
    return response.json()


async def test_a_missing_public_value_is_searched_then_the_worker_types_what_the_search_found(make_api: ApiFactory) -> None:
    with FakeGemini() as gemini, FakeTavily(api_key=TEST_API_KEY) as tavily:
        gemini.responder = _model(_worker)
        tavily.enqueue(results(hit("Acme GmbH — company register", "https://suppliers.example/acme", f"Acme GmbH, VAT number {VAT}, Berlin.")))
        api = await make_api(rate_limit_per_minute=1000, gemini_api_key="k", gemini_base_url=gemini.base_url,
                             tavily_api_key=TEST_API_KEY, tavily_base_url=tavily.base_url)  # fmt: skip
        first = await _start(api)
        assert first["action"] == f'setValue("2", "{VAT}")' and first["decidedBy"] == "model", first
        assert tavily.requests and "vat" in tavily.requests[0].body["query"].lower()
        asked = _workers(gemini)
        assert len(asked) == 2, "asked once, then again with what was found"
        assert "retrieved_search" not in _blocks(asked[0].user_text) and VAT in _blocks(asked[1].user_text)["retrieved_search"]
        detail = (await api.client.get(f"/api/tasks/{first['taskId']}", headers=api.headers())).json()
        assert detail["steps"][0]["action"] == f'setValue("2", "{VAT}")'


async def test_a_missing_value_in_the_knowledge_base_is_retrieved_for_it_without_a_search(make_api: ApiFactory) -> None:
    with FakeGemini() as gemini:
        gemini.responder = _model(_worker)
        api = await make_api(rate_limit_per_minute=1000, gemini_api_key="k", gemini_base_url=gemini.base_url)
        doc = f"# Supplier tax ids\n\nRegistered tax identifiers of our suppliers. Acme: VAT number {VAT}.\n"
        ingested = await api.client.post("/api/knowledge/ingest", headers=api.headers(),
                                          files={"file": ("tax.md", doc.encode(), "text/markdown")}, data={"url": "https://suppliers.example/docs/tax"})  # fmt: skip
        assert ingested.status_code in (200, 201, 202), ingested.text
        first = await _start(api)
        assert first["action"] == f'setValue("2", "{VAT}")', first
        asked = _workers(gemini)
        assert VAT in "".join(_blocks(r.user_text).get("retrieved_knowledge", "") + _blocks(r.user_text).get("knowledge", "") for r in asked)


async def test_a_value_nothing_gives_is_asked_and_the_reply_is_used_on_the_same_task(make_api: ApiFactory) -> None:
    with FakeGemini() as gemini:
        gemini.responder = _model(_worker)
        api = await make_api(rate_limit_per_minute=1000, gemini_api_key="k", gemini_base_url=gemini.base_url)
        asked = await _start(api)
        assert asked["status"] == "needs_user_input" and asked["action"] == ""
        assert asked["needsUserInput"]["missing"] == ["VAT number of Acme GmbH"]
        assert asked["taskId"] is None, "the first request creates no task (as any question before the work)"
        # the user answers in the same session; the worker reads it as data
        reply = await api.interact({"url": URL, "query": f"{GOAL}. The VAT number is {VAT}.", "sessionId": asked["sessionId"], "interactiveTree": TREE})
        assert reply.status_code == 200, reply.text
        assert reply.json()["action"] == f'setValue("2", "{VAT}")', reply.json()


async def test_a_running_task_asks_mid_flight_keeps_its_id_and_reads_the_reply(make_api: ApiFactory) -> None:
    goal = "Click Next, then enter the VAT number of Acme GmbH into the VAT field, then click Submit"
    first_page = [*TREE, {"i": "4", "r": "btn", "n": "Next"}]
    second_page = [*TREE, {"i": "5", "r": "btn", "n": "Back"}]
    with FakeGemini() as gemini:
        gemini.responder = _model(_worker, next_first=True)
        api = await make_api(rate_limit_per_minute=1000, gemini_api_key="k", gemini_base_url=gemini.base_url)
        first = (await api.interact({"url": URL, "query": goal, "interactiveTree": first_page})).json()
        assert first["action"] == 'click("4")', first
        asked = (await api.interact({"url": URL, "taskId": first["taskId"], "interactiveTree": second_page})).json()
        assert asked["status"] == "needs_user_input" and asked["taskId"] == first["taskId"] and asked["action"] == ""
        assert asked["needsUserInput"]["missing"] == ["VAT number of Acme GmbH"]
        detail = (await api.client.get(f"/api/tasks/{first['taskId']}", headers=api.headers())).json()
        assert detail["status"] == "active" and len(detail["steps"]) == 1, "nothing was sent or written for the question"
        reply = (await api.interact({"url": URL, "taskId": first["taskId"], "query": f"It is {VAT}", "interactiveTree": second_page})).json()
        assert reply["action"] == f'setValue("2", "{VAT}")', reply
        assert VAT in _blocks(_workers(gemini)[-1].user_text)["user_messages"]


async def test_every_required_source_reaches_the_planner(make_api: ApiFactory) -> None:
    """MEMORY with WEB_SEARCH: the search runs and the user's earlier messages go with it."""
    with FakeGemini() as gemini, FakeTavily(api_key=TEST_API_KEY) as tavily:
        base = _model(_worker)

        def respond(request: RecordedRequest) -> FakeReply:
            props = request.generation_config.get("responseJsonSchema", {}).get("properties", {})
            if "required_sources" in props and "solved" not in props:
                return ok({"source": "MEMORY", "required_sources": ["MEMORY", "WEB_SEARCH"], "missing_information": [], "search_query": "Acme GmbH VAT", "reason": "both"})
            return base(request)

        gemini.responder = respond
        tavily.corpus.append(hit("Acme GmbH", "https://suppliers.example/acme", f"Acme GmbH VAT number {VAT}."))
        api = await make_api(rate_limit_per_minute=1000, gemini_api_key="k", gemini_base_url=gemini.base_url,
                             tavily_api_key=TEST_API_KEY, tavily_base_url=tavily.base_url)  # fmt: skip
        said = await api.interact({"url": URL, "query": "Use the supplier form, I will give you the details", "interactiveTree": TREE})
        session = said.json()["sessionId"]
        await api.interact({"url": URL, "query": GOAL, "sessionId": session, "interactiveTree": TREE})
        planning = [r for r in gemini.requests if "steps" in r.generation_config.get("responseJsonSchema", {}).get("properties", {})][-1]
        blocks = _blocks(planning.user_text)
        assert VAT in blocks["web_search"] and "I will give you the details" in blocks["user_messages"]
        assert len(tavily.requests) >= 1
