"""Secrets stay secret (issue 12): a password the goal gives is typed by the extension and
appears nowhere else in plain text — not in the database file, the task detail or list,
the session's messages, the log, the LangFuse payloads or a model's prompt — while the
interact answer (and its replay) carries the real value, so the task still works.
"""

from __future__ import annotations

import io
import json
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet

from tests.integration.api.conftest import Api, ApiFactory
from tests.support.fake_gemini import FakeGemini, FakeReply, RecordedRequest, http_error, ok
from tests.support.fake_langfuse import FakeLangfuse

URL = "https://portal.example/login"
SECRET = "Quokka-hunter7"
GOALS = [
    f'Log in as alice with password "{SECRET}"',
    f"Sign in with username alice and password {SECRET}",
    f"sign in as alice, password {SECRET}",
    f"Log in as alice with password '{SECRET}'",
]


def login_tree(user: str = "", typed: str = "", *, layout: str = "form") -> list[dict[str, Any]]:
    """A login form; ``typed`` is what the client reports for the password field after the
    agent typed it (the page script sends a password only when the agent typed it)."""
    password = {"i": "2", "r": "inp", "n": "Password", "ty": "password", "v": typed}
    if layout == "header":  # a site search box first, an e-mail for the user, "Sign in"
        search = {"i": "s1", "r": "search", "n": "Search the site", "v": ""}
        return [search, {"i": "1", "r": "inp", "n": "Email", "ty": "email", "v": user}, password, {"i": "3", "r": "btn", "n": "Sign in"}]
    return [{"i": "1", "r": "inp", "n": "Username", "v": user}, password, {"i": "3", "r": "btn", "n": "Log in"}]


def welcome_tree() -> list[dict[str, Any]]:
    return [{"i": "9", "r": "heading", "n": "Welcome, alice"}, {"i": "10", "r": "btn", "n": "Log out"}]


_EXECUTED = ("action", "actionDetails", "requireValues")  # what the client executes or checks the page against


def shown(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without what the client executes — the action, and each chained action
    with the values its guard re-reads: everything left is shown or stored, and masked."""
    out = {k: v for k, v in answer.items() if k not in ("action", "actionDetails")}
    if answer.get("actions"):
        out["actions"] = [{k: v for k, v in item.items() if k not in _EXECUTED} for item in answer["actions"]]
    return out


def _no_secret(where: str, text: str | bytes, secret: str = SECRET) -> None:
    found = secret.encode() in text if isinstance(text, bytes) else secret in text
    assert not found, f"the secret is in plain text in {where}"


async def _login(api: Api, goal: str, layout: str = "form", user: str = "alice", secret: str = SECRET) -> list[dict[str, Any]]:
    """Run the login; return every answer. The request that got the password is re-sent
    once (its answer was "lost"): the replay must carry the real value too."""
    answers: list[dict[str, Any]] = []
    first = (await api.interact({"url": URL, "query": goal, "interactiveTree": login_tree(layout=layout)})).json()
    answers.append(first)
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    pages = [login_tree(user, layout=layout), login_tree(user, secret, layout=layout), welcome_tree()]
    previous = first
    for page in pages:
        body = {"url": URL, "interactiveTree": page, "lastActionStatus": "success", "stepIndex": previous["stepIndex"], **ids}
        response = await api.interact(body)
        assert response.status_code == 200, response.text
        answer = response.json()
        answers.append(answer)
        if answer["action"].startswith('setValue("2"'):
            replay = await api.interact(body)
            assert replay.status_code == 200 and replay.json()["replayed"] is True
            assert replay.json()["action"] == answer["action"], "the replayed answer carries the real value"
            answers.append(replay.json())
        previous = answer
        if answer["status"] != "active":
            break
    return answers


async def _everything_stored(api: Api, task_id: str, session_id: str) -> str:
    headers = api.headers()
    parts = [
        (await api.client.get(f"/api/tasks/{task_id}", headers=headers)).text,
        (await api.client.get("/api/tasks", headers=headers)).text,
        (await api.client.get(f"/api/sessions/{session_id}/messages", headers=headers)).text,
        (await api.client.get(f"/api/sessions/{session_id}/tasks", headers=headers)).text,
    ]
    return "\n".join(parts)


def _database_bytes(db_url: str) -> bytes:
    path = Path(db_url.removeprefix("sqlite:///"))
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*") if not p.name.endswith(".secret-key"))


@pytest.fixture
def langfuse() -> Iterator[FakeLangfuse]:
    with FakeLangfuse() as server:
        yield server


@pytest.mark.parametrize("goal", GOALS)
async def test_a_password_is_typed_and_appears_nowhere_else(
    langfuse: FakeLangfuse, make_api: ApiFactory, db_url: str, goal: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = io.StringIO()  # the app's log lines (structlog writes to the stderr of its start)
    monkeypatch.setattr(sys, "stderr", log)
    if True:
        api = await make_api(
            rate_limit_per_minute=1000,
            langfuse_public_key=langfuse.public_key,
            langfuse_secret_key="sk-lf-test",
            langfuse_host=langfuse.url,
        )
        answers = await _login(api, goal)
        task_id, session_id = answers[0]["taskId"], answers[0]["sessionId"]
        assert answers[-1]["status"] == "completed", answers[-1]
        typed = [a for a in answers if a["action"] == f'setValue("2", "{SECRET}")']
        assert len(typed) == 2 and typed[1]["replayed"], "the interact answer and its replay carry the real value"
        for answer in answers:  # everything else in the answers is masked
            for key, value in shown(answer).items():
                _no_secret(f"an interact answer's {key}", json.dumps(value))

        stored = await _everything_stored(api, task_id, session_id)
        _no_secret("the task detail / list / messages", stored)
        assert "[secret:1]" in stored  # shown as its placeholder, not dropped
        detail = (await api.client.get(f"/api/tasks/{task_id}", headers=api.headers())).json()
        assert detail["query"] == goal.replace(SECRET, "[secret:1]")

        api.app.state.agent_deps.tracer.flush()
        langfuse.wait_for(lambda f: len(f.spans) > 10)
        for request in langfuse.requests:
            _no_secret(f"a LangFuse payload ({request.path})", request.body)
    _no_secret("the database file", _database_bytes(db_url))
    _no_secret("the log", log.getvalue())
    assert "[secret:1]" in log.getvalue()  # the log still says what was typed where
    key_file = Path(db_url.removeprefix("sqlite:///") + ".secret-key")
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


async def test_a_login_on_another_layout_also_keeps_the_secret(api: Api, db_url: str) -> None:
    answers = await _login(api, f'Sign in with email "alice@portal.example" and password "{SECRET}"', layout="header", user="alice@portal.example")
    assert answers[-1]["status"] == "completed"
    assert any(a["action"] == f'setValue("2", "{SECRET}")' for a in answers)
    _no_secret("the task detail / list / messages", await _everything_stored(api, answers[0]["taskId"], answers[0]["sessionId"]))
    _no_secret("the database file", _database_bytes(db_url))


@pytest.mark.parametrize("secret", ['pa"ss\\W0rd', "p@ss w0rd 'quoted'", "naïve-Paßwort-9"])
async def test_a_password_with_quotes_backslashes_spaces_or_accents_is_kept_as_well(api: Api, db_url: str, secret: str) -> None:
    quote = "'" if '"' in secret else '"'
    answers = await _login(api, f"Log in as alice with password {quote}{secret}{quote}", secret=secret)
    assert answers[-1]["status"] == "completed", answers[-1]
    assert any(a["action"] == f'setValue("2", {json.dumps(secret, ensure_ascii=False)})' for a in answers)
    stored = await _everything_stored(api, answers[0]["taskId"], answers[0]["sessionId"])
    for form in (secret, json.dumps(secret)[1:-1], repr(secret)[1:-1]):
        _no_secret("the task detail / list / messages", stored, form)
        _no_secret("the database file", _database_bytes(db_url), form)


async def test_a_value_typed_into_a_password_field_is_a_secret_even_when_the_goal_does_not_say_so(api: Api, db_url: str) -> None:
    goal = 'Type "Zebra-77-Moon" into Password and click Log in'
    first = (await api.interact({"url": URL, "query": goal, "interactiveTree": login_tree()})).json()
    assert first["action"] == 'setValue("2", "Zebra-77-Moon")'
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    await api.interact({"url": URL, "interactiveTree": login_tree("", "Zebra-77-Moon"), "stepIndex": first["stepIndex"], **ids})
    stored = await _everything_stored(api, ids["taskId"], ids["sessionId"])
    _no_secret("the task detail / list / messages", stored, "Zebra-77-Moon")
    _no_secret("the database file", _database_bytes(db_url), "Zebra-77-Moon")


async def test_a_page_without_a_password_field_never_completes_and_says_nothing(api: Api, db_url: str) -> None:
    """The goal's secret has nowhere to go: the task ends failed (or asks), never completed,
    and the secret is still nowhere in plain text."""
    page = [{"i": "1", "r": "inp", "n": "Username", "v": ""}, {"i": "3", "r": "btn", "n": "Log in"}]
    answer = (await api.interact({"url": URL, "query": GOALS[0], "interactiveTree": page})).json()
    ids = {"taskId": answer["taskId"], "sessionId": answer["sessionId"]}
    for _ in range(6):
        if answer["status"] != "active":
            break
        page = [{"i": "1", "r": "inp", "n": "Username", "v": "alice"}, {"i": "3", "r": "btn", "n": "Log in"}]
        answer = (await api.interact({"url": URL, "interactiveTree": page, "stepIndex": answer["stepIndex"], "lastActionStatus": "success", **ids})).json()
        assert SECRET not in answer["action"]
    assert answer["status"] in ("failed", "needs_confirmation"), answer
    _no_secret("the task detail / list / messages", await _everything_stored(api, ids["taskId"], ids["sessionId"]))
    _no_secret("the database file", _database_bytes(db_url))


@pytest.mark.parametrize(
    "refusal, reason",
    [
        ([{"i": "8", "r": "alert", "n": "Wrong username or password"}], "Wrong username or password"),
        ([{"i": "8", "r": "status", "n": "Those details did not work"}], "sign-in was refused"),  # no error words known
        ([], "sign-in was refused"),  # nothing said at all: the password emptied, the form still there
    ],
)
async def test_a_refused_sign_in_fails_at_once_with_the_pages_reason(api: Api, refusal: list[dict[str, Any]], reason: str) -> None:
    first = (await api.interact({"url": URL, "query": GOALS[0], "interactiveTree": login_tree()})).json()
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    answers = [first]
    for page in [login_tree("alice"), login_tree("alice", SECRET), [*login_tree("alice", ""), *refusal]]:
        answers.append((await api.interact({"url": URL, "interactiveTree": page, "stepIndex": answers[-1]["stepIndex"], "lastActionStatus": "success", **ids})).json())
    assert [a["status"] for a in answers] == ["active", "active", "active", "failed"], [a["action"] for a in answers]
    assert answers[-1]["failureCode"] == "NO_RECOVERY" and reason in answers[-1]["thought"]


async def test_a_rotated_key_fails_the_task_with_a_reason_never_a_crash(make_api: ApiFactory) -> None:
    first_api = await make_api(rate_limit_per_minute=1000, secret_key=Fernet.generate_key().decode())
    first = (await first_api.interact({"url": URL, "query": GOALS[0], "interactiveTree": login_tree()})).json()
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}

    rotated = await make_api(rate_limit_per_minute=1000, secret_key=Fernet.generate_key().decode())
    response = await rotated.interact({"url": URL, "interactiveTree": login_tree("alice"), "stepIndex": first["stepIndex"], **ids}, key=first_api.key_a)
    assert response.status_code == 409, response.text
    assert response.json()["error"]["code"] == "SECRETS_UNREADABLE"
    detail = (await rotated.client.get(f"/api/tasks/{ids['taskId']}", headers=rotated.headers(first_api.key_a))).json()
    assert detail["status"] == "failed" and detail["failureCode"] == "SECRETS_UNREADABLE"


async def test_an_invalid_key_stops_the_start(make_api: ApiFactory) -> None:
    with pytest.raises(ValueError, match="Fernet key"):
        await make_api(secret_key="not-a-key")


# --- the model path: the model only ever sees a placeholder -------------------------------

_ACTION_KEYS = {"thought", "action", "element_id"}


def _answers(action: dict[str, Any]) -> Any:
    def respond(request: RecordedRequest) -> FakeReply:
        props = set(request.generation_config.get("responseJsonSchema", {}).get("properties", {}))
        if _ACTION_KEYS <= props:
            return ok(action)
        if {"source", "required_sources"} <= props:
            return ok({"source": "PAGE", "required_sources": ["PAGE"], "missing_information": [], "search_query": None, "reason": "On the page."})
        if {"action_succeeded", "task_completed"} <= props:
            return ok({"action_succeeded": True, "task_completed": False, "confidence": 0.6, "reason": "It changed."})
        if "url_should_change" in props:
            return ok({"description": "Typed.", "url_should_change": None, "elements_to_appear": [], "success_text": None, "next_goal": None})
        if "approved" in props:
            return ok({"approved": True, "concerns": [], "alternative_action": None, "confidence": 0.9})
        return http_error(400, error_message="fake gemini: not scripted for this call")

    return respond


async def _with_model(make_api: ApiFactory, gemini: FakeGemini, action: dict[str, Any]) -> Api:
    gemini.responder = _answers(action)
    return await make_api(rate_limit_per_minute=1000, gemini_api_key="test-key", gemini_base_url=gemini.base_url)


async def _first_step(api: Api, goal: str) -> dict[str, Any]:
    response = await api.interact({"url": URL, "query": goal, "interactiveTree": login_tree()})
    assert response.status_code == 200, response.text
    return response.json()


async def test_the_model_types_the_password_by_its_placeholder_and_never_sees_it(make_api: ApiFactory, db_url: str) -> None:
    with FakeGemini() as gemini:
        move = {"thought": "Type the password [secret:1].", "action": 'setValue("2", "[secret:1]")', "element_id": "2", "confidence": 0.9, "chain": [], "step_done": True, "missing_info": []}
        api = await _with_model(make_api, gemini, move)
        second = await _first_step(api, GOALS[0])
        assert gemini.requests, "the model was asked"
        for request in gemini.requests:
            _no_secret("a prompt the model received", request.raw)
        assert any("[secret:1]" in r.user_text for r in gemini.requests), "the model sees the placeholder"
        assert second["decidedBy"] == "model"
        assert second["action"] == f'setValue("2", "{SECRET}")', "the server put the real value in for the client"
        assert SECRET not in second["thought"]
    _no_secret("the database file", _database_bytes(db_url))


@pytest.mark.parametrize(
    "lie",
    [
        {"action": 'setValue("1", "[secret:1]")', "element_id": "1"},  # the placeholder into the username box
        {"action": 'setValue("1", "x [secret:1]")', "element_id": "1"},
        {"action": 'navigate("https://portal.example/?p=[secret:1]")', "element_id": None},
    ],
)
async def test_a_lying_model_cannot_send_the_secret_anywhere_but_its_field(make_api: ApiFactory, lie: dict[str, Any]) -> None:
    with FakeGemini() as gemini:
        move = {"thought": "Leak it.", "chain": [], "confidence": 0.99, "step_done": True, "missing_info": [], **lie}
        api = await _with_model(make_api, gemini, move)
        first = await _first_step(api, GOALS[0])
        assert SECRET not in json.dumps(shown(first))
        # The policy's own chain may type it, into the password field only.
        assert [a["action"] for a in first["actions"] or [] if SECRET in a["action"]] in ([], [f'setValue("2", "{SECRET}")'])
        # Rejected: the policy's own step is sent instead.
        assert first["action"] == 'setValue("1", "alice")' and first["decidedBy"] == "policy", first
        for request in gemini.requests:
            _no_secret("a prompt the model received", request.raw)


@pytest.mark.parametrize("word", ["finish", "fail"])
async def test_a_model_that_puts_the_placeholder_in_a_message_shows_only_the_placeholder(make_api: ApiFactory, db_url: str, word: str) -> None:
    """The placeholder in a thought, a finish() or a fail() is never filled in: that text
    is shown to the user and stored, not typed."""
    with FakeGemini() as gemini:
        move = {"thought": "Your password is [secret:1]", "action": f'{word}("Your password is [secret:1]")', "element_id": None, "confidence": 0.99, "chain": [], "step_done": True, "missing_info": []}
        api = await _with_model(make_api, gemini, move)
        first = await _first_step(api, GOALS[0])
        ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
        answers = [first]
        if first["status"] == "active":
            body = {"url": URL, "interactiveTree": login_tree("alice"), "lastActionStatus": "success", "stepIndex": first["stepIndex"], **ids}
            answers.append((await api.interact(body)).json())
        for answer in answers:
            if not answer["action"].startswith("setValue"):
                _no_secret("an answer", json.dumps(answer))
            assert answer["status"] != "completed"
        if word == "fail":  # a model may give up; its words stay placeholders
            assert first["status"] == "failed" and first["action"] == 'fail("Your password is [secret:1]")'
        stored = await _everything_stored(api, ids["taskId"], ids["sessionId"])
        _no_secret("the task detail / list / messages", stored)
        for request in gemini.requests:
            _no_secret("a prompt the model received", request.raw)
    _no_secret("the database file", _database_bytes(db_url))
