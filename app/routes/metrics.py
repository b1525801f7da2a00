"""Prometheus scrape endpoint.

Unauthenticated by design (scrapers rarely carry API keys): expose it only on a private
network, e.g. block ``/metrics`` at the public load balancer and scrape the pods directly.
It shows label values such as route templates, model names and task statuses, never ids."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from observability import Metrics

router = APIRouter(tags=["observability"])


@router.get(
    "/metrics",
    summary="Prometheus metrics (text exposition format); scrape from a private network only",
    response_class=Response,
    responses={
        200: {"content": {"text/plain": {}}, "description": "Metrics in Prometheus text format"}
    },
)
async def metrics(request: Request) -> Response:
    registry: Metrics = request.app.state.metrics
    body, content_type = registry.render(request.headers.get("accept"))
    return Response(content=body, headers={"Content-Type": content_type})
