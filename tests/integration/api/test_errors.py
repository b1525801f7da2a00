"""Bad input gets a clear, typed error in one shape and changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator

from tests.integration.api.conftest import Api
from tests.support.pages import save_form, v3_tree

URL = "https://clinic.example/"


def assert_error_shape(body: dict, code: str) -> dict:  # type: ignore[type-arg]
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code
    assert body["error"]["message"]
    return body["error"]


async def test_missing_key_is_401(api: Api) -> None:
    response = await api.client.post("/api/agent/interact", json={"url": URL, "query": "click Save", "dom": save_form()})
    assert response.status_code == 401
    assert_error_shape(response.json(), "UNAUTHORIZED")


async def test_invalid_key_is_401(api: Api) -> None:
    response = await api.interact({"url": URL, "query": "click Save", "dom": save_form()}, key="sw_not-a-real-key")
    assert response.status_code == 401
    assert_error_shape(response.json(), "UNAUTHORIZED")


async def test_revoked_key_is_401(api: Api) -> None:
    keys = await api.store.api_keys.list("tenant-a")
    await api.store.api_keys.revoke("tenant-a", keys[0].id, keys[0].created_at)
    response = await api.interact({"url": URL, "query": "click Save", "dom": save_form()})
    assert response.status_code == 401


async def test_malformed_json_is_400(api: Api) -> None:
    response = await api.client.post(
        "/api/agent/interact",
        content=b'{"url": "https://x", "query": ',
        headers={**api.headers(), "content-type": "application/json"},
    )
    assert response.status_code == 400
    assert_error_shape(response.json(), "INVALID_JSON")


async def test_invalid_field_is_422_with_its_path(api: Api) -> None:
    tree = v3_tree()
    tree[2] = {"r": "inp", "n": "Name"}  # no id
    response = await api.interact({"url": URL, "query": "click Save", "interactiveTree": tree})
    assert response.status_code == 422
    error = assert_error_shape(response.json(), "VALIDATION_FAILED")
    assert error["details"]["errors"][0]["field"] == "interactiveTree[2].i"


async def test_new_task_without_goal_is_422(api: Api) -> None:
    response = await api.interact({"url": URL, "dom": save_form()})
    assert response.status_code == 422
    assert "query" in response.json()["error"]["message"]


async def test_request_without_any_page_is_422(api: Api) -> None:
    response = await api.interact({"url": URL, "query": "click Save"})
    assert response.status_code == 422
    assert "interactiveTree" in response.json()["error"]["message"]


async def test_non_http_url_is_422(api: Api) -> None:
    response = await api.interact({"url": "javascript:alert(1)", "query": "click Save", "dom": save_form()})
    assert response.status_code == 422
    assert response.json()["error"]["details"]["errors"][0]["field"] == "url"


async def test_dom_over_the_limit_is_413_naming_the_limit(make_api) -> None:  # type: ignore[no-untyped-def]
    api = await make_api(max_dom_chars=5_000)
    response = await api.interact({"url": URL, "query": "click Save", "dom": save_form() + " " * 6_000})
    assert response.status_code == 413
    error = assert_error_shape(response.json(), "LIMIT_EXCEEDED")
    assert error["details"]["limit"] == "max_dom_chars"
    assert error["details"]["value"] == 5_000
    assert await api.store.sessions.list("tenant-a", "alice") == []


async def test_tree_over_the_limit_is_413(make_api) -> None:  # type: ignore[no-untyped-def]
    api = await make_api(max_tree_nodes=3)
    response = await api.interact({"url": URL, "query": "click Save", "interactiveTree": v3_tree()})
    assert response.status_code == 413
    assert response.json()["error"]["details"]["limit"] == "max_tree_nodes"


async def test_query_over_the_limit_is_422(make_api) -> None:  # type: ignore[no-untyped-def]
    api = await make_api(max_query_chars=20)
    response = await api.interact({"url": URL, "query": "click the Save button right now please", "dom": save_form()})
    assert response.status_code == 422
    assert response.json()["error"]["details"]["limit"] == "max_query_chars"


async def test_streamed_body_over_the_limit_is_413_whatever_content_length_says(make_api) -> None:  # type: ignore[no-untyped-def]
    api = await make_api(max_body_bytes=10_000)

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"url": "https://x.example", "query": "click Save", "dom": "'
        for _ in range(50):
            yield b"x" * 1_000
        yield b'"}'

    response = await api.client.post(
        "/api/agent/interact",
        content=chunks(),
        headers={**api.headers(), "content-type": "application/json"},
    )
    assert response.status_code == 413
    error = assert_error_shape(response.json(), "PAYLOAD_TOO_LARGE")
    assert error["details"] == {"limit": "max_body_bytes", "value": 10_000}


async def test_unknown_route_uses_the_error_shape(api: Api) -> None:
    response = await api.client.get("/api/nothing-here", headers=api.headers())
    assert response.status_code == 404
    assert_error_shape(response.json(), "NOT_FOUND")


async def test_malformed_v3_state_is_422(api: Api) -> None:
    tree = v3_tree(extra=[{"i": "9", "r": "btn", "n": "Odd", "xy": [1, 2, 3]}])
    response = await api.interact({"url": URL, "query": "click Save", "interactiveTree": tree})
    assert response.status_code == 422
    assert response.json()["error"]["details"]["errors"][0]["field"].startswith("interactiveTree[5].xy")


async def test_a_page_that_cannot_be_read_is_422_naming_the_node(api: Api) -> None:
    tree = v3_tree(extra=[{"i": "3", "r": "btn", "n": "Again"}])  # "3" is already the Name field
    response = await api.interact({"url": URL, "query": "click Save", "interactiveTree": tree})
    assert response.status_code == 422
    error = assert_error_shape(response.json(), "INVALID_PAGE")
    assert error["details"] == {"field": "interactiveTree[5].i"}
    assert "duplicate element id '3'" in error["message"]


async def test_health_and_readiness(api: Api) -> None:
    assert (await api.client.get("/healthz")).json() == {"status": "ok"}
    ready = await api.client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "database": "sqlite"}


async def test_openapi_documents_the_error_shape(api: Api) -> None:
    spec = (await api.client.get("/openapi.json")).json()
    responses = spec["paths"]["/api/agent/interact"]["post"]["responses"]
    for status in ("401", "404", "409", "413", "422", "429"):
        assert status in responses
    assert "ErrorResponse" in spec["components"]["schemas"]


def _nested(levels: int) -> dict:  # type: ignore[type-arg]
    value: dict = {"leaf": 1}  # type: ignore[type-arg]
    for _ in range(levels):
        value = {"x": value}
    return value


async def test_free_form_json_nested_past_any_real_page_is_422_and_changes_nothing(api: Api) -> None:
    for field, body in [
        ("interactiveTree[5].scr", {"interactiveTree": v3_tree(extra=[{"i": "9", "r": "btn", "n": "Odd", "scr": _nested(900)}])}),
        ("lastActionError", {"interactiveTree": v3_tree(), "lastActionError": _nested(900)}),
    ]:
        response = await api.interact({"url": URL, "query": "click Save", **body})
        assert response.status_code == 422, response.text
        error = assert_error_shape(response.json(), "VALIDATION_FAILED")
        assert any(e["field"].startswith(field) and "nested deeper than" in e["message"] for e in error["details"]["errors"])
    shallow = await api.interact({"url": URL, "query": "click Save", "interactiveTree": v3_tree(), "lastActionError": _nested(3)})
    assert shallow.status_code == 200, shallow.text


async def test_a_page_url_the_browser_would_not_read_as_a_web_page_is_422(api: Api) -> None:
    for url in ["file:///etc/passwd", "http://", "javascript:alert(1)", "data:text/html,hi", "about:blank", "https://"]:
        response = await api.interact({"url": url, "query": "click Save", "dom": save_form()})
        assert response.status_code == 422, (url, response.text)
        assert assert_error_shape(response.json(), "VALIDATION_FAILED")["details"]["errors"][0]["field"] == "url"


async def test_a_body_that_is_not_sent_as_json_is_415(api: Api) -> None:
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        response = await api.client.post(
            "/api/agent/interact", content=b'{"url": "https://a.example/"}', headers={**api.headers(), "Content-Type": content_type}
        )
        assert response.status_code == 415, (content_type, response.text)
        assert "application/json" in assert_error_shape(response.json(), "UNSUPPORTED_MEDIA_TYPE")["message"]
    charset = await api.client.post(
        "/api/agent/interact",
        content=b'{"url": "https://clinic.example/", "query": "click Save", "interactiveTree": []}',
        headers={**api.headers(), "Content-Type": "application/json; charset=utf-8"},
    )
    assert charset.status_code != 415


async def test_random_bytes_sent_as_json_are_the_documented_400(api: Api) -> None:
    response = await api.client.post(
        "/api/agent/interact", content=bytes(range(256)) * 4, headers={**api.headers(), "Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert_error_shape(response.json(), "INVALID_JSON")


async def test_json_with_bytes_that_are_not_utf8_is_the_documented_400(api: Api) -> None:
    for body in (b'{"url": "\xff\xfe"}', b"\xff\xfe{", b"\xef\xbb\xbf{}" + b"\x80"):
        response = await api.client.post("/api/agent/interact", content=body, headers={**api.headers(), "Content-Type": "application/json"})
        assert response.status_code == 400, (body, response.text)
        assert_error_shape(response.json(), "INVALID_JSON")


async def test_the_extension_origin_is_allowed_by_cors_and_others_are_not(make_api) -> None:  # type: ignore[no-untyped-def]
    origin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop"
    api = await make_api(cors_origins=f"{origin}, https://console.example/")
    preflight = await api.client.options(
        "/api/agent/interact",
        headers={"Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"},
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] == origin
    allowed = await api.client.get("/healthz", headers={"Origin": "https://console.example"})
    assert allowed.headers.get("access-control-allow-origin") == "https://console.example"
    other = await api.client.get("/healthz", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in other.headers


async def test_a_tree_over_the_limit_is_refused_before_its_nodes_are_validated(make_api) -> None:  # type: ignore[no-untyped-def]
    api = await make_api(max_tree_nodes=100)
    malformed = [{"i": str(n), "xy": [1, 2, 3]} for n in range(101)]  # every node invalid: validation never ran
    response = await api.interact({"url": URL, "query": "click Save", "interactiveTree": malformed})
    assert response.status_code == 413, response.text
    assert assert_error_shape(response.json(), "LIMIT_EXCEEDED")["details"] == {
        "field": "interactiveTree", "limit": "max_tree_nodes", "value": 100, "actual": 101,
    }  # fmt: skip


async def test_the_api_docs_load_with_no_internet(api: Api) -> None:
    page = await api.client.get("/docs")
    assert page.status_code == 200 and "cdn.jsdelivr.net" not in page.text and "unpkg.com" not in page.text
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        assert f"/static-offline-docs/{asset}" in page.text
        served = await api.client.get(f"/static-offline-docs/{asset}")
        assert served.status_code == 200 and len(served.content) > 10_000
    redoc = await api.client.get("/redoc")
    assert redoc.status_code == 200 and "/static-offline-docs/redoc.standalone.js" in redoc.text


async def test_read_routes_are_rate_limited_too(make_api) -> None:  # type: ignore[no-untyped-def]
    api = await make_api(api_rate_limit_per_minute=3)
    answers = [await api.client.get("/api/tasks", headers=api.headers()) for _ in range(4)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    error = assert_error_shape(answers[-1].json(), "RATE_LIMITED")
    assert error["details"]["limit"] == 3 and int(answers[-1].headers["Retry-After"]) >= 1
    assert (await api.client.get("/api/tasks", headers=api.headers(api.key_b))).status_code == 200  # per user
