"""Size limits on what a request may carry, checked before any work is done."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from agent.errors import StepwiseError
from app.schemas.interact import InteractRequest
from app.settings import Settings


class LimitExceeded(StepwiseError):
    status_code = 413
    code = "LIMIT_EXCEEDED"


def check_raw_tree(request: Request, data: Any) -> None:
    """The node count of a raw body's ``interactiveTree``, before each node is validated (a
    100 000-node tree cost 85 MB of validation before the 3 000-node limit said no)."""
    tree = data.get("interactiveTree") if isinstance(data, dict) else None
    settings: Settings = request.app.state.settings
    if isinstance(tree, list) and len(tree) > settings.max_tree_nodes:
        raise _too_many_nodes(len(tree), settings.max_tree_nodes)


def _too_many_nodes(actual: int, limit: int) -> LimitExceeded:
    return LimitExceeded(
        f"`interactiveTree` has {actual} nodes; the limit is {limit}",
        details={"field": "interactiveTree", "limit": "max_tree_nodes", "value": limit, "actual": actual},
    )


def check_interact_limits(body: InteractRequest, settings: Settings) -> None:
    if body.dom is not None and len(body.dom) > settings.max_dom_chars:
        raise LimitExceeded(
            f"`dom` has {len(body.dom)} characters; the limit is {settings.max_dom_chars}",
            details={"field": "dom", "limit": "max_dom_chars", "value": settings.max_dom_chars, "actual": len(body.dom)},
        )
    if body.interactive_tree is not None and len(body.interactive_tree) > settings.max_tree_nodes:
        raise _too_many_nodes(len(body.interactive_tree), settings.max_tree_nodes)
    if body.screenshot is not None and (size := len(body.screenshot) * 3 // 4) > settings.max_screenshot_bytes:
        raise LimitExceeded(
            f"`screenshot` holds about {size} bytes; the limit is {settings.max_screenshot_bytes}",
            details={"field": "screenshot", "limit": "max_screenshot_bytes", "value": settings.max_screenshot_bytes, "actual": size},
        )
    if body.query is not None and len(body.query) > settings.max_query_chars:
        raise StepwiseError(
            f"`query` has {len(body.query)} characters; the limit is {settings.max_query_chars}",
            code="LIMIT_EXCEEDED",
            status_code=422,
            details={"field": "query", "limit": "max_query_chars", "value": settings.max_query_chars, "actual": len(body.query)},
        )
