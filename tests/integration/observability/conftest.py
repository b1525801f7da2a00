"""Apps with observability wired, and the local fakes of LangFuse and Sentry.

``make_app`` starts ``app.main.create_app`` with its lifespan. Until ``create_app`` wires
``app.observability_setup.Observability`` itself, the fixture wires it the same way
(install before the first request, start after the store is up, stop at the end)."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.auth import issue_key
from app.main import create_app
from app.observability_setup import Observability
from app.settings import Settings
from cost import UsageService
from observability import Metrics, Tracer, shutdown_sentry
from storage import Store
from tests.support.fake_langfuse import FakeLangfuse
from tests.support.fake_sentry import FakeSentry


@dataclass
class ObservedApp:
    app: FastAPI
    client: httpx.AsyncClient
    key_a: str
    key_b: str

    @property
    def store(self) -> Store:
        store: Store = self.app.state.store
        return store

    @property
    def observability(self) -> Observability:
        obs: Observability = self.app.state.observability
        return obs

    @property
    def metrics(self) -> Metrics:
        return self.observability.metrics

    @property
    def tracer(self) -> Tracer:
        return self.observability.tracer

    @property
    def usage_service(self) -> UsageService:
        return self.observability.usage

    def headers(self, key: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {key or self.key_a}"}


AppFactory = Callable[..., Awaitable[ObservedApp]]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'stepwise.db'}"


@pytest.fixture
async def make_app(db_url: str) -> AsyncIterator[AppFactory]:
    started: list[tuple[Any, httpx.AsyncClient, Observability | None]] = []

    async def factory(
        configure: Callable[[FastAPI], None] | None = None, **overrides: Any
    ) -> ObservedApp:
        settings = Settings(
            env="test", database_url=overrides.pop("database_url", db_url), **overrides
        )
        app = create_app(settings)
        manual: Observability | None = None
        if getattr(app.state, "observability", None) is None:  # create_app does not wire it (yet)
            manual = Observability(settings)
            manual.install(app)
        if configure is not None:
            configure(app)
        lifespan = app.router.lifespan_context(app)
        await lifespan.__aenter__()
        if manual is not None:
            await manual.start(app, app.state.store)
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, raise_app_exceptions=False),
            base_url="http://stepwise.test",
        )
        started.append((lifespan, client, manual))
        key_a = (await issue_key(app.state.store, "tenant-a", "alice")).secret
        key_b = (await issue_key(app.state.store, "tenant-b", "bob")).secret
        return ObservedApp(app=app, client=client, key_a=key_a, key_b=key_b)

    yield factory
    for lifespan, client, manual in reversed(started):
        await client.aclose()
        if manual is not None:
            await manual.stop()
        await lifespan.__aexit__(None, None, None)
    shutdown_sentry()


@pytest.fixture
def fake_langfuse() -> Iterator[FakeLangfuse]:
    with FakeLangfuse() as server:
        yield server


@pytest.fixture
def fake_sentry() -> Iterator[FakeSentry]:
    with FakeSentry() as server:
        yield server


@pytest.fixture
def closed_port() -> int:
    """A loopback port nothing listens on (connections are refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port
