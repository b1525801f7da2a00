"""Wiring of metrics, error reporting, tracing and the usage service into the app.

``create_app`` makes one ``Observability`` (metrics registry + Sentry, before the FastAPI
object exists), ``install``s it on the app (routes, middleware, last-resort error
handler), and the lifespan ``start``s / ``stop``s the parts that own connections and
threads (LangFuse tracer, usage service). See docs/observability.md.
"""

from __future__ import annotations

import time

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import error_response
from app.routes import metrics as metrics_routes
from app.routes import usage as usage_routes
from app.settings import Settings
from cost import UsageService
from observability import Metrics, NoopTracer, Tracer, build_tracer, init_sentry, shutdown_sentry
from observability.metrics import UNMATCHED_ROUTE
from storage import Store

log = structlog.get_logger(__name__)


class Observability:
    """Everything observability-related one app instance owns."""

    def __init__(self, settings: Settings, *, metrics: Metrics | None = None) -> None:
        self.settings = settings
        self.metrics = metrics or Metrics()
        # Sentry patches Starlette classes at init: it must run before the app is built.
        self.sentry_enabled = init_sentry(settings, expected_errors=(RequestValidationError,))
        self.tracer: Tracer = NoopTracer(self.metrics)
        self._usage: UsageService | None = None

    @property
    def usage(self) -> UsageService:
        """The gateway's usage sink (available once ``start`` ran)."""
        if self._usage is None:
            raise RuntimeError("Observability.start() has not run (it is called from the lifespan)")
        return self._usage

    def install(self, app: FastAPI) -> None:
        """Routes (/api/usage, /metrics), the request-latency middleware (outermost: call
        this after the other ``add_middleware`` calls) and the handler that answers an
        unhandled error with the app's error shape."""
        app.state.metrics = self.metrics
        app.state.observability = self
        app.include_router(usage_routes.router)
        app.include_router(metrics_routes.router)
        app.add_exception_handler(Exception, unhandled_error_handler)
        app.add_middleware(RequestMetricsMiddleware, metrics=self.metrics)

    async def start(self, app: FastAPI, store: Store) -> UsageService:
        """Lifespan start: the tracer (LangFuse when keyed) and the usage service."""
        self.tracer = build_tracer(self.settings, self.metrics)
        self._usage = UsageService(store, self.tracer, self.metrics)
        app.state.tracer = self.tracer
        app.state.usage_service = self._usage
        log.info(
            "observability.started",
            langfuse=self.tracer.enabled,
            sentry=self.sentry_enabled,
        )
        return self._usage

    async def stop(self) -> None:
        """Lifespan end: flush and close LangFuse, flush and detach Sentry."""
        await self.tracer.aclose()
        if self.sentry_enabled:
            shutdown_sentry()


async def unhandled_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """A bug reached the edge: answer 500 in the error shape. Starlette re-raises the
    exception after this response, so Sentry still captures it (once)."""
    log.error("http.unhandled_error", error_type=type(exc).__name__, path=request.url.path)
    return error_response(500, "INTERNAL_ERROR", "Internal server error; it has been reported")


def route_template(scope: Scope) -> str:
    """The matched route's path template (``/api/tasks/{task_id}``), never the raw path;
    ``<unmatched>`` for 404s, so label cardinality stays bounded."""
    effective = scope.get("fastapi", {}).get("effective_route_context")
    path = getattr(effective, "path", None) or getattr(scope.get("route"), "path", None)
    return path if isinstance(path, str) and path else UNMATCHED_ROUTE


class RequestMetricsMiddleware:
    """``stepwise_http_request_duration_seconds{method,route,status}`` for every request.

    Pure ASGI (no BaseHTTPMiddleware): the router writes the matched route into the shared
    ``scope``, read here after the response. An exception escaping the app counts as 500."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_with_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_with_status)
        finally:
            self.metrics.observe_request(
                scope.get("method", ""),
                route_template(scope),
                status,
                time.perf_counter() - started,
            )
