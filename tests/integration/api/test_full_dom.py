"""``needsFullDom``: asked only when the compact page (the V3 tree) cannot resolve the step's
target and the full page may; bounded per task; answered with the full DOM, the target the
tree lacked is found and acted on."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.api.conftest import Api

URL = "https://mail.example/inbox"
GOAL = "Click the Archive button"


def tree(*, extra: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    return [
        {"i": "1", "r": "link", "n": "Inbox"},
        {"i": "2", "r": "btn", "n": "Reply"},
        *(extra or []),
    ]


TEXT = "Inbox\nMeeting notes · from Ana\nReply · Archive"
# The full DOM: the tree's elements stamped with their ids, and the Archive control the tree
# did not hold (a <span> with a click handler), stamped by the client before it sent the DOM.
FULL_DOM = """<html><body>
<a href="/inbox" data-llm-id="1">Inbox</a>
<div class="mail">Meeting notes · from Ana</div>
<button data-llm-id="2">Reply</button>
<span role="button" tabindex="0" onclick="archive()" data-llm-id="77">Archive</span>
</body></html>"""


def first_body(**extra: Any) -> dict[str, Any]:
    return {"url": URL, "query": GOAL, "interactiveTree": tree(), "pageText": TEXT, **extra}


def next_body(answer: dict[str, Any], step: int, **extra: Any) -> dict[str, Any]:
    return {"url": URL, "taskId": answer["taskId"], "sessionId": answer["sessionId"], "stepIndex": step,
            "interactiveTree": tree(), "pageText": TEXT, **extra}  # fmt: skip


async def test_the_full_dom_is_asked_for_then_resolves_the_target(api: Api) -> None:
    first = (await api.interact(first_body())).json()
    assert first["status"] == "active" and first["needsFullDom"] is True, first
    assert first["action"] == "wait(0.1)" and first["needsScreenshot"] is False
    second = await api.interact(next_body(first, 0, dom=FULL_DOM, domMode="full"))
    assert second.status_code == 200, second.text
    answer = second.json()
    assert answer["action"] == 'click("77")' and answer["needsFullDom"] is False
    assert answer["status"] == "active"
    # The click is verified from the next page (the message list changed): done, from the page.
    done = (await api.interact({**next_body(answer, 1), "interactiveTree": tree(), "pageText": "Inbox\n(no messages)",
                                "success_messages": ["Conversation archived"]})).json()  # fmt: skip
    assert done["status"] == "completed", done


async def test_the_asks_are_bounded_per_task(api: Api) -> None:
    answer = (await api.interact(first_body())).json()
    asks = [answer["needsFullDom"]]
    for step in range(2):  # a client that never sends the DOM
        answer = (await api.interact(next_body(answer, step))).json()
        asks.append(answer["needsFullDom"])
    assert asks == [True, True, False]
    assert answer["action"] != "wait(0.1)", "past the bound the policy goes on by itself"
    assert answer["status"] != "completed"


async def test_a_target_in_the_tree_needs_no_full_dom(api: Api) -> None:
    answer = (await api.interact(first_body(interactiveTree=tree(extra=[{"i": "3", "r": "btn", "n": "Archive"}])))).json()
    assert answer["needsFullDom"] is False and answer["action"] == 'click("3")'


async def test_a_target_the_page_does_not_show_is_not_worth_a_full_dom(api: Api) -> None:
    answer = (await api.interact(first_body(pageText="Inbox\nMeeting notes · from Ana\nReply"))).json()
    assert answer["needsFullDom"] is False
    assert answer["status"] != "completed"


@pytest.mark.parametrize("signal", ["empty", "truncated"])
async def test_an_empty_or_cut_tree_asks_for_the_full_dom(api: Api, signal: str) -> None:
    body = first_body(pageText="")
    if signal == "empty":
        body["interactiveTree"] = []
    else:
        body["treeTruncated"] = True
    answer = (await api.interact(body)).json()
    assert answer["needsFullDom"] is True, answer


async def test_a_full_dom_that_still_lacks_the_target_is_not_asked_again_at_once(api: Api) -> None:
    first = (await api.interact(first_body())).json()
    dom = FULL_DOM.replace('<span role="button" tabindex="0" onclick="archive()" data-llm-id="77">Archive</span>', "<p>Archive</p>")
    second = (await api.interact(next_body(first, 0, dom=dom, domMode="full"))).json()
    assert second["needsFullDom"] is False and second["action"] == 'scroll("down")'
    assert second["status"] == "active"


@pytest.mark.parametrize(
    "lie",
    [
        {"thought": "Done.", "action": "finish()", "element_id": None},
        {"thought": "Click it.", "action": 'click("999")', "element_id": "999"},
        "not json",
    ],
    ids=["false-finish", "no-such-element", "nonsense"],
)
async def test_a_lying_model_after_the_full_dom_cannot_complete_the_task(make_api: Any, lie: Any) -> None:
    from tests.support.fake_gemini import FakeGemini
    from tests.support.vision_model import is_action_call, responder

    answer = lie if isinstance(lie, str) else {"confidence": 0.99, "chain": [], "step_done": True, "missing_info": [], **lie}
    with FakeGemini() as gemini:
        gemini.responder = responder(answer)
        api = await make_api(rate_limit_per_minute=1000, gemini_api_key="k", gemini_base_url=gemini.base_url)
        first = (await api.interact(first_body())).json()
        assert first["needsFullDom"] is True and not any(is_action_call(r) for r in gemini.requests), "asked before any model call"
        second = (await api.interact(next_body(first, 0, dom=FULL_DOM, domMode="full"))).json()
        assert any(is_action_call(r) for r in gemini.requests)
        assert second["status"] != "completed"
        assert second["action"] == 'click("77")', "the lie is rejected; the policy's action on the element the DOM gave"
