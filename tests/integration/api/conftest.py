from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.auth import issue_key
from app.main import create_app
from app.settings import Settings
from storage import Store


@dataclass
class Api:
    """An app instance with its HTTP client and two tenants' keys."""

    app: FastAPI
    client: httpx.AsyncClient
    key_a: str
    key_b: str

    @property
    def store(self) -> Store:
        store: Store = self.app.state.store
        return store

    def headers(self, key: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {key or self.key_a}"}

    async def interact(self, body: dict[str, Any], key: str | None = None) -> httpx.Response:
        return await self.client.post("/api/agent/interact", json=body, headers=self.headers(key))

    def set_clock(self, clock: Callable[[], datetime]) -> None:
        self.app.state.agent_deps.clock = clock


ApiFactory = Callable[..., Awaitable[Api]]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'stepwise.db'}"


@pytest.fixture
async def make_api(db_url: str) -> AsyncIterator[ApiFactory]:
    """Start app instances (several may share one database file)."""
    stack: list[tuple[Any, httpx.AsyncClient]] = []

    async def factory(**overrides: Any) -> Api:
        settings = Settings(env="test", database_url=overrides.pop("database_url", db_url), **overrides)
        app = create_app(settings)
        lifespan = app.router.lifespan_context(app)
        await lifespan.__aenter__()
        client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://stepwise.test")
        stack.append((lifespan, client))
        store: Store = app.state.store
        key_a = (await issue_key(store, "tenant-a", "alice")).secret
        key_b = (await issue_key(store, "tenant-b", "bob")).secret
        return Api(app=app, client=client, key_a=key_a, key_b=key_b)

    yield factory
    for lifespan, client in reversed(stack):
        await client.aclose()
        await lifespan.__aexit__(None, None, None)


@pytest.fixture
async def api(make_api: ApiFactory) -> Api:
    return await make_api(rate_limit_per_minute=1000)
