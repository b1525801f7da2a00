"""Hybrid vision through the API, with the real google-genai client against the local fake
Gemini: the screenshot reaches the model as an inline image part (only for a tenant that
allowed it, only for a visual goal), the same screen is not sent twice, a visual goal
without a screenshot asks for one (bounded), and the usage records image tokens."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.integration.api.conftest import Api, ApiFactory
from tests.support.fake_gemini import FakeGemini, RecordedRequest
from tests.support.images import b64, other_layout, screenshot
from tests.support.vision_model import is_action_call, move, responder

URL = "https://tools.example/dashboard"
GOAL = "Click the gear icon in the top right corner"


def tree(*, title: str = "Dashboard") -> list[dict[str, Any]]:
    """A toolbar of icon-only buttons (no names: only their look and place tell them apart)."""
    return [
        {"i": "1", "r": "btn", "n": "", "xy": [996, 26], "box": [980, 10, 32, 32]},
        {"i": "2", "r": "btn", "n": "", "xy": [26, 26], "box": [10, 10, 32, 32]},
        {"i": "3", "r": "link", "n": "Reports", "xy": [140, 160], "box": [40, 140, 200, 40]},
        {"i": "4", "r": "heading", "n": title},
    ]


def body(title: str = "Dashboard", **extra: Any) -> dict[str, Any]:
    return {"url": URL, "interactiveTree": tree(title=title), "viewport": {"width": 1024, "height": 640}, **extra}


@pytest.fixture
async def gemini() -> AsyncIterator[FakeGemini]:
    with FakeGemini() as server:
        server.responder = responder(move('click("1")', "1"))
        yield server


async def _api(make_api: ApiFactory, gemini: FakeGemini, *, allow: bool | None = True) -> Api:
    api = await make_api(rate_limit_per_minute=1000, gemini_api_key="test-key", gemini_base_url=gemini.base_url)
    if allow is not None:
        answer = await api.client.put("/api/vision/settings", json={"screenshots": allow}, headers=api.headers())
        assert answer.status_code == 200 and answer.json()["screenshots"] is allow, answer.text
    return api


def action_calls(gemini: FakeGemini) -> list[RecordedRequest]:
    return [r for r in gemini.requests if is_action_call(r)]


async def test_the_screenshot_goes_to_the_model_as_an_image_part_with_its_mime_type(make_api: ApiFactory, gemini: FakeGemini) -> None:
    api = await _api(make_api, gemini)
    image = screenshot()
    first = await api.interact(body(query=GOAL, screenshot=b64(image), domMode="hybrid"))
    assert first.status_code == 200, first.text
    answer = first.json()
    assert answer["action"] == 'click("1")' and answer["decidedBy"] == "model"
    assert answer["needsScreenshot"] is False and answer["needsFullDom"] is False
    [call] = action_calls(gemini)
    assert call.inline_images == [("image/jpeg", image)]  # 1024 wide: sent as it came
    assert "element_positions" in call.user_text and "[1] box x=980 y=10 w=32 h=32" in call.user_text
    assert answer["usage"]["imageTokens"] == 1290
    rows = await api.store.usage.list_for_task("tenant-a", answer["taskId"])
    assert sum(r.image_tokens for r in rows) == 1290
    assert all(not r.inline_images for r in gemini.requests if not is_action_call(r)), "only the action call sees the page's picture"


async def test_a_wide_png_is_scaled_to_a_jpeg_of_1024_pixels(make_api: ApiFactory, gemini: FakeGemini) -> None:
    api = await _api(make_api, gemini)
    first = await api.interact(body(query=GOAL, screenshot=b64(screenshot(2048, 1280, fmt="PNG"))))
    assert first.status_code == 200, first.text
    [(mime, data)] = action_calls(gemini)[0].inline_images
    from PIL import Image
    import io

    assert mime == "image/jpeg" and Image.open(io.BytesIO(data)).size == (1024, 640)


async def test_the_same_screen_is_not_sent_twice_in_a_task(make_api: ApiFactory, gemini: FakeGemini) -> None:
    api = await _api(make_api, gemini)
    first = (await api.interact(body(query=GOAL, screenshot=b64(screenshot())))).json()
    # The click changed a heading; the client captures what looks like the same screen (other bytes: PNG, noise).
    again = await api.interact(body("Settings", taskId=first["taskId"], sessionId=first["sessionId"], stepIndex=0, screenshot=b64(screenshot(fmt="PNG", noise=2))))
    assert again.status_code == 200, again.text
    calls = action_calls(gemini)
    assert len(calls) == 2
    assert len(calls[0].inline_images) == 1 and calls[1].inline_images == []
    assert "not sent again" in calls[1].user_text
    assert again.json()["usage"]["imageTokens"] == 0
    # A changed screen is sent.
    third = await api.interact(body("Profile", taskId=first["taskId"], sessionId=first["sessionId"], stepIndex=1, screenshot=b64(other_layout())))
    assert third.status_code == 200, third.text
    assert len(action_calls(gemini)[2].inline_images) == 1


async def test_a_visual_goal_without_a_screenshot_asks_for_one_then_uses_it(make_api: ApiFactory, gemini: FakeGemini) -> None:
    api = await _api(make_api, gemini)
    first = (await api.interact(body(query=GOAL))).json()
    assert first["status"] == "active" and first["needsScreenshot"] is True
    assert first["action"] == "wait(0.1)" and first["actions"] is None
    assert action_calls(gemini) == [], "the model is not asked to choose blind"
    second = await api.interact(body(taskId=first["taskId"], sessionId=first["sessionId"], stepIndex=0, screenshot=b64(screenshot()), domMode="hybrid"))
    assert second.status_code == 200, second.text
    answer = second.json()
    assert answer["needsScreenshot"] is False and answer["action"] == 'click("1")'
    assert len(action_calls(gemini)[0].inline_images) == 1


async def test_the_asks_are_bounded_then_the_model_chooses_from_the_list(make_api: ApiFactory, gemini: FakeGemini) -> None:
    api = await _api(make_api, gemini)
    answer = (await api.interact(body(query=GOAL))).json()
    asks = [answer["needsScreenshot"]]
    for step in range(3):  # a client that never sends one
        answer = (await api.interact(body(taskId=answer["taskId"], sessionId=answer["sessionId"], stepIndex=step))).json()
        asks.append(answer["needsScreenshot"])
        if not answer["needsScreenshot"]:
            break
    assert asks == [True, True, False]
    assert answer["action"] == 'click("1")' and action_calls(gemini)[0].inline_images == []
    detail = (await api.client.get(f"/api/tasks/{answer['taskId']}", headers=api.headers())).json()
    assert detail["status"] == "active"


async def test_a_screenshot_hash_of_the_screen_already_sent_asks_for_nothing(make_api: ApiFactory, gemini: FakeGemini) -> None:
    from agent.vision import read_screenshot

    api = await _api(make_api, gemini)
    image = b64(screenshot())
    first = (await api.interact(body(query=GOAL, screenshot=image))).json()
    again = (await api.interact(body("Settings", taskId=first["taskId"], sessionId=first["sessionId"], stepIndex=0, screenshotHash=read_screenshot(image).phash))).json()
    assert again["needsScreenshot"] is False and again["action"] == 'click("1")'
    assert action_calls(gemini)[1].inline_images == []


@pytest.mark.parametrize("allow", [None, False])
async def test_a_tenant_that_has_not_allowed_screenshots_sends_no_image(make_api: ApiFactory, gemini: FakeGemini, allow: bool | None) -> None:
    api = await _api(make_api, gemini, allow=allow)
    settings = (await api.client.get("/api/vision/settings", headers=api.headers())).json()
    assert settings == {"screenshots": False, "serverEnabled": True}
    first = (await api.interact(body(query=GOAL, screenshot=b64(screenshot()), domMode="hybrid"))).json()
    assert first["needsScreenshot"] is False, "nothing is asked that could not be used"
    assert first["action"] == 'click("1")'
    assert all(not r.inline_images for r in gemini.requests)
    assert first["usage"]["imageTokens"] == 0


async def test_the_switch_is_per_tenant(make_api: ApiFactory, gemini: FakeGemini) -> None:
    api = await _api(make_api, gemini)  # tenant A allowed
    b = (await api.client.get("/api/vision/settings", headers=api.headers(api.key_b))).json()
    assert b["screenshots"] is False
    await api.interact(body(query=GOAL, screenshot=b64(screenshot())), key=api.key_b)
    assert all(not r.inline_images for r in gemini.requests)


async def test_a_text_goal_sends_no_image(make_api: ApiFactory, gemini: FakeGemini) -> None:
    gemini.responder = responder(move('click("3")', "3"))
    api = await _api(make_api, gemini)
    first = (await api.interact(body(query="Open Reports", screenshot=b64(screenshot())))).json()
    assert first["needsScreenshot"] is False
    assert all(not r.inline_images for r in gemini.requests)


async def test_a_screenshot_over_the_cap_is_413(make_api: ApiFactory, gemini: FakeGemini) -> None:
    api = await _api(make_api, gemini)
    big = "A" * 2_700_000  # ~2 MB decoded, over the 2 000 000 default... and under the body limit
    answer = await api.interact(body(query=GOAL, screenshot=big))
    assert answer.status_code == 413, answer.text
    error = answer.json()["error"]
    assert error["code"] == "LIMIT_EXCEEDED" and error["details"]["field"] == "screenshot"
    assert gemini.requests == []


@pytest.mark.parametrize("junk", ["not base64 at all!", b64(b"GIF89a not a screenshot"), b64(b"<html>hello</html>")])
async def test_a_screenshot_that_is_no_image_is_422(make_api: ApiFactory, gemini: FakeGemini, junk: str) -> None:
    api = await _api(make_api, gemini)
    answer = await api.interact(body(query=GOAL, screenshot=junk))
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "INVALID_PAGE" and error["details"]["field"] == "screenshot"
    assert gemini.requests == []


async def test_the_settings_body_is_strict(make_api: ApiFactory, gemini: FakeGemini) -> None:
    api = await _api(make_api, gemini, allow=None)
    for bad in ({"screenshots": "yes"}, {"other": True}):
        answer = await api.client.put("/api/vision/settings", json=bad, headers=api.headers())
        assert answer.status_code == 422, answer.text
    kept = await api.client.put("/api/vision/settings", json={}, headers=api.headers())
    assert kept.json()["screenshots"] is False


# --- a model that lies or answers nonsense while it is shown the screenshot ----------------


@pytest.mark.parametrize(
    "lie",
    [
        "this is not json at all",  # nonsense: repaired once, then the deterministic path
        move('click("99")', "99"),  # an element that is not on the page
        move("finish()", None, thought="Done: the settings are open."),  # claims the goal is done
        move('navigate("https://evil.example/steal")', None),  # off the task's site
    ],
    ids=["nonsense", "no-such-element", "false-finish", "off-site"],
)
async def test_a_lying_model_with_a_screenshot_never_gets_a_task_completed(make_api: ApiFactory, gemini: FakeGemini, lie: Any) -> None:
    gemini.responder = responder(lambda request: lie)
    api = await _api(make_api, gemini)
    answer = (await api.interact(body(query=GOAL, screenshot=b64(screenshot())))).json()
    assert len(action_calls(gemini)[0].inline_images) == 1, "the model did see the screenshot"
    assert answer["status"] != "completed" and answer["contract"]["satisfied"] is False
    assert "99" not in answer["action"] and "evil.example" not in answer["action"]
    assert not answer["action"].startswith("finish")


async def test_a_visual_goal_the_element_list_resolves_asks_for_no_screenshot(make_api: ApiFactory, gemini: FakeGemini) -> None:
    api = await _api(make_api, gemini)
    page = body(query="Click the trash icon")
    page["interactiveTree"] = [*tree(), {"i": "5", "r": "btn", "n": "Trash icon", "xy": [600, 26]}]  # an icon its label names
    first = (await api.interact(page)).json()
    assert first["needsScreenshot"] is False and first["action"] == 'click("5")'
    assert all(not r.inline_images for r in gemini.requests)
