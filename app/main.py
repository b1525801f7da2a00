"""The FastAPI application: clients are made once, in lifespan, and reached through
dependencies. Routes are thin; the agent does the work."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import structlog
from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi_offline import FastAPIOffline

from agent import AgentConfig, AgentDeps
from agent.llm import GeminiGateway, LLMGateway, gateway_from_settings
from agent.llm.embedding import GatewayEmbedder
from agent.rag import LEARNING
from agent.sealing import Sealer, SecretKeyError, key_file_for, load_or_create_key
from agent.search import search_client_from_settings
from app.errors import install_error_handlers
from app.middleware import BodySizeLimitMiddleware, RequestContextMiddleware
from app.observability_setup import Observability
from app.routes import health, interact, knowledge, memory, sessions, tasks, vision
from app.schemas.examples import restore_examples
from app.schemas.grammar import ACTION_GRAMMAR
from app.settings import Settings, get_settings
from knowledge import CrawlDefaults, FetchPolicy, KnowledgeBase, KnowledgeLimits
from observability import configure_logging
from storage import Store, open_store, path_from_url

log = structlog.get_logger(__name__)

API_DESCRIPTION = f"""
The extension (or any client) sends the page and the user's goal to `POST /api/agent/interact`
and gets **one next action**. It executes it, then sends the page again with `taskId`, `sessionId`
and the answer's `stepIndex`: Stepwise verifies the action from what changed and answers the next
one, until `status` is no longer `active`. A task is `completed` only when its goal contract (the
`contract` clauses) holds on the page; when Stepwise cannot do or prove the goal it ends `failed`
(`failureCode`) or `needs_confirmation`.

**Actions.** {ACTION_GRAMMAR}. `actionDetails` carries the same action as data.

**Authentication.** `Authorization: Bearer <API key>`; keys are made with `stepwise keys create`.

**Errors.** Every non-2xx answer is `{{"error": {{"code", "message", "details"}}}}`; branch on `code`
(the `ErrorBody.code` enum lists every code; each route lists the ones it can answer with, with an
example). 429 and some 409s carry `Retry-After`.

**Retries.** A lost answer is never a second step: re-send a continuation with the same `stepIndex`
and the same page and the stored answer comes back (`replayed: true`); send an `Idempotency-Key`
header (a UUID per request, the same on its re-sends) and a re-sent first request gets its stored
answer (`Idempotent-Replayed: true`) instead of starting a second task.
"""


def build_store(settings: Settings) -> Store:
    return open_store(settings.database_url, settings.mongodb_uri, mongo_db_name=settings.mongodb_db)


def build_sealer(settings: Settings, backend: str) -> Sealer:
    """The key that seals tasks' secrets: ``STEPWISE_SECRET_KEY``; else, on SQLite, the key
    file beside the database (made at first start); on MongoDB a key must be configured
    (docs/decisions.md, "Where the secret key lives")."""
    if settings.secret_key is not None and settings.secret_key.get_secret_value():
        return Sealer(settings.secret_key.get_secret_value())
    if backend == "mongodb":
        raise SecretKeyError(
            "STEPWISE_SECRET_KEY must be set when MONGODB_URI is: tasks' secrets are sealed with it and it is "
            "never kept in the database it protects. Make one with `python -c 'from cryptography.fernet import "
            "Fernet; print(Fernet.generate_key().decode())'` and give every replica the same key"
        )
    path = path_from_url(settings.database_url)
    if path == ":memory:":
        return Sealer.ephemeral()  # the database dies with the process, and so does its key
    return Sealer(load_or_create_key(key_file_for(path)))


def build_knowledge(settings: Settings, store: Store, gateway: LLMGateway | None) -> KnowledgeBase:
    """The knowledge base: dense retrieval only when a Gemini key is set (and embeddings are
    not switched off); crawls fetch only public addresses plus the listed private hosts."""
    embedder = None
    if settings.knowledge_embeddings and isinstance(gateway, GeminiGateway):
        embedder = GatewayEmbedder(
            gateway, model=settings.knowledge_embedding_model, dimension=settings.knowledge_embedding_dimension
        )
    crawl = CrawlDefaults(
        policy=FetchPolicy(allow_private_hosts=frozenset(settings.knowledge_allow_private_hosts)),
        min_delay_s=settings.knowledge_crawl_min_delay_s,
        concurrency=settings.knowledge_crawl_concurrency,
    )
    return KnowledgeBase(
        store, embedder=embedder, crawl=crawl, limits=KnowledgeLimits(max_crawl_pages=settings.knowledge_crawl_max_pages)
    )


def create_app(settings: Settings | None = None, store: Store | None = None) -> FastAPI:
    """Build the app. ``store`` may be injected (tests); otherwise it comes from settings."""
    settings = settings or get_settings()
    configure_logging(settings.log_level, settings.log_format)
    obs = Observability(settings)  # metrics registry + Sentry, before FastAPI() (Sentry patches Starlette)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app_store = store or build_store(settings)
        sealer = build_sealer(settings, app_store.backend)  # before anything opens: a bad key stops the start
        await app_store.init()
        app.state.settings = settings
        app.state.store = app_store
        usage = await obs.start(app, app_store)  # tracer (LangFuse when keyed) + usage service
        gateway = gateway_from_settings(
            settings.gemini_api_key.get_secret_value() if settings.gemini_api_key else None,
            settings.gemini_model,
            settings.gemini_base_url,
            usage_sink=usage,
        )
        search = search_client_from_settings(
            settings.tavily_api_key.get_secret_value() if settings.tavily_api_key else None,
            settings.tavily_base_url,
        )
        kb = build_knowledge(settings, app_store, gateway)
        await kb.start()
        app.state.knowledge = kb
        app.state.agent_deps = AgentDeps(
            store=app_store,
            config=AgentConfig(
                max_steps=settings.max_steps,
                task_idle_minutes=settings.task_idle_minutes,
                chaining=settings.chaining,
                chain_max_actions=settings.chain_max_actions,
                subtasks=settings.subtasks,
                memory_skills=settings.memory_skills,
                memory_replay=settings.memory_replay,
                idempotency_ttl_seconds=settings.idempotency_ttl_hours * 3600,
                idempotency_lease_seconds=settings.idempotency_lease_seconds,
                vision=settings.vision,
                vision_max_width=settings.vision_max_width,
                screenshot_asks=settings.screenshot_asks,
                full_dom_asks=settings.full_dom_asks,
            ),
            gateway=gateway,
            search=search,
            tracer=obs.tracer,
            sealer=sealer,
            knowledge=kb,
            learn_tenants=frozenset(settings.knowledge_learn_tenants),
        )
        log.info(
            "app.started",
            database=app_store.backend,
            model="gemini" if gateway is not None else "deterministic",
            web_search=search is not None,
            embeddings=kb.embedder is not None,
            env=settings.env,
        )
        try:
            yield
        finally:
            await LEARNING.drain()
            await kb.stop()
            if gateway is not None:
                await gateway.aclose()
            if search is not None:
                await search.aclose()
            await obs.stop()
            if store is None:
                await app_store.close()
            log.info("app.stopped")

    app = FastAPIOffline(  # FastAPI whose /docs and /redoc assets come from a package, not a CDN
        title="Stepwise",
        version="0.1.0",
        summary="Backend for browser agents: the next action, verified from what changed on the page.",
        description=API_DESCRIPTION,
        lifespan=lifespan,
    )
    install_error_handlers(app)
    app.include_router(interact.router)
    app.include_router(sessions.router)
    app.include_router(tasks.router)
    app.include_router(knowledge.router)
    app.include_router(memory.router)
    app.include_router(vision.router)
    app.include_router(health.router)
    # Outermost first: request context wraps the body limit so a 413 is logged too.
    app.add_middleware(
        BodySizeLimitMiddleware,
        max_body_bytes=settings.max_body_bytes,
        # an upload: the file and its multipart envelope
        path_limits={"/api/knowledge/ingest": settings.knowledge_max_upload_bytes + 64 * 1024},
    )
    if settings.allowed_origins:  # the extension's own origin(s): chrome-extension://<id>
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.allowed_origins,
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "X-Request-ID", "Idempotency-Key"],
            expose_headers=["Retry-After", "X-Request-ID", "Idempotent-Replayed"],
            max_age=600,
        )
    app.add_middleware(RequestContextMiddleware)
    obs.install(app)  # /api/usage, /metrics, 500 handler, request latency (outermost)
    _keep_example_nulls(app)
    return app


def _keep_example_nulls(app: FastAPI) -> None:
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            restore_examples(generate())  # generate() caches the document in app.openapi_schema
        return app.openapi_schema or generate()

    app.openapi = openapi  # type: ignore[method-assign]
