"""CORS for the configured extension: ``STEPWISE_EXTENSION_IDS`` adds ``chrome-extension://<id>``
to the allowed origins, so the extension's pages and worker may call the API from the browser;
another extension or a web page is not allowed."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.settings import Settings

EXTENSION = "gfhhbdigibclbkcedjipkjbpfcadmeam"  # extension/static/manifest.json's key
OTHER = "abcdefghijklmnopabcdefghijklmnop"


def _preflight_headers(origin: str) -> dict[str, str]:
    return {
        "Origin": origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type,idempotency-key",
    }


async def test_a_preflight_from_the_configured_extension_is_allowed_and_from_another_is_not(make_api) -> None:  # type: ignore[no-untyped-def]
    api = await make_api(extension_ids=EXTENSION)
    allowed = await api.client.options("/api/agent/interact", headers=_preflight_headers(f"chrome-extension://{EXTENSION}"))
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == f"chrome-extension://{EXTENSION}"
    assert "idempotency-key" in allowed.headers["access-control-allow-headers"].lower()

    refused = await api.client.options("/api/agent/interact", headers=_preflight_headers(f"chrome-extension://{OTHER}"))
    assert refused.status_code == 400
    assert "access-control-allow-origin" not in refused.headers
    page = await api.client.get("/healthz", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in page.headers


async def test_without_extension_ids_no_origin_is_allowed(make_api) -> None:  # type: ignore[no-untyped-def]
    api = await make_api()
    response = await api.client.options("/api/agent/interact", headers=_preflight_headers(f"chrome-extension://{EXTENSION}"))
    assert "access-control-allow-origin" not in response.headers


def test_extension_ids_come_from_the_environment_and_join_the_cors_origins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STEPWISE_EXTENSION_IDS", f" {EXTENSION} , {OTHER}")
    settings = Settings(env="test", database_url="sqlite://", cors_origins="https://console.example/")
    assert settings.extension_ids == [EXTENSION, OTHER]
    assert settings.allowed_origins == ["https://console.example", f"chrome-extension://{EXTENSION}", f"chrome-extension://{OTHER}"]


def test_a_malformed_extension_id_is_refused_at_start() -> None:
    with pytest.raises(ValidationError, match="not a Chrome extension id"):
        Settings(env="test", database_url="sqlite://", extension_ids="chrome-extension://gfhhbdigibclbkcedjipkjbpfcadmeam")
