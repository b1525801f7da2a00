"""The extension e2e tests' fixture sites and recorder, over HTTP with no browser: the pages
are served, the sites' servers record what really changed (the truth the tests read), and the
recorder keeps every interact body and ends the task at once."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.e2e.extension.harness import unverified_steps
from tests.e2e.extension.recorder import Recorder, serve_recorder
from tests.e2e.extension.sites import INITIAL_PREFS, FixtureState, serve_fixture_sites


@pytest.fixture
def sites() -> Iterator[tuple[str, FixtureState]]:
    state = FixtureState()
    url, stop = serve_fixture_sites(state)
    yield url, state
    stop()


@pytest.mark.parametrize("page", ["prefs.html", "people.html", "person.html", "frames.html", "frames_mixed.html", "frame_child.html"])
def test_the_pages_are_served(sites: tuple[str, FixtureState], page: str) -> None:
    url, _ = sites
    response = httpx.get(f"{url}/{page}")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert httpx.get(f"{url}/../sites.py").status_code == 404


def test_prefs_are_saved_and_recorded(sites: tuple[str, FixtureState]) -> None:
    url, state = sites
    assert httpx.get(f"{url}/api/prefs").json() == INITIAL_PREFS
    assert httpx.post(f"{url}/api/prefs", json={"language": "fr", "summary": True}).status_code == 200
    assert state.prefs == {"language": "fr", "summary": True, "sounds": True}
    assert state.saves("prefs_saved") == [{"language": "fr", "summary": True, "sounds": True}]
    state.reset()
    assert state.prefs == INITIAL_PREFS and state.events == []


def test_a_person_is_edited_once_and_recorded(sites: tuple[str, FixtureState]) -> None:
    url, state = sites
    people = httpx.get(f"{url}/api/people").json()
    turing = next(p for p in people if p["name"] == "Alan Turing")
    assert httpx.post(f"{url}/api/people/{turing['id']}", json={"team": "Sales"}).status_code == 200
    assert state.person("Alan Turing") == {**turing, "team": "Sales"}
    assert state.saves("person_saved") == [{**turing, "team": "Sales"}]
    assert httpx.get(f"{url}/api/people/99").status_code == 404
    assert httpx.post(f"{url}/api/people/99", json={"team": "Sales"}).status_code == 404


def test_the_recorder_keeps_bodies_and_fails_the_task() -> None:
    recorder = Recorder()
    url, stop = serve_recorder(recorder)
    try:
        answer = httpx.post(f"{url}/api/agent/interact", json={"url": "http://x/", "query": "goal"}).json()
        assert answer["status"] == "failed" and answer["action"].startswith("fail(")
        assert httpx.options(f"{url}/api/agent/interact").headers["access-control-allow-origin"] == "*"
        assert recorder.take() == [{"url": "http://x/", "query": "goal"}]
        assert recorder.take() == []
    finally:
        stop()


def test_unverified_steps_skips_the_final_answer() -> None:
    record = {
        "steps": [
            {"stepIndex": 0, "action": 'click("2")', "verification": {"success": True}},
            {"stepIndex": 1, "action": 'click("9")', "verification": {"success": False}},
            {"stepIndex": 2, "action": "wait(1)", "verification": None},
            {"stepIndex": 3, "action": "finish()", "verification": None},
        ]
    }
    assert unverified_steps(record) == [1, 2]
