"""Size limits on what a request may carry, checked before any work is done."""

from __future__ import annotations

from agent.errors import StepwiseError
from app.schemas.interact import InteractRequest
from app.settings import Settings


class LimitExceeded(StepwiseError):
    status_code = 413
    code = "LIMIT_EXCEEDED"


def check_interact_limits(body: InteractRequest, settings: Settings) -> None:
    if body.dom is not None and len(body.dom) > settings.max_dom_chars:
        raise LimitExceeded(
            f"`dom` has {len(body.dom)} characters; the limit is {settings.max_dom_chars}",
            details={"field": "dom", "limit": "max_dom_chars", "value": settings.max_dom_chars, "actual": len(body.dom)},
        )
    if body.interactive_tree is not None and len(body.interactive_tree) > settings.max_tree_nodes:
        raise LimitExceeded(
            f"`interactiveTree` has {len(body.interactive_tree)} nodes; the limit is {settings.max_tree_nodes}",
            details={
                "field": "interactiveTree",
                "limit": "max_tree_nodes",
                "value": settings.max_tree_nodes,
                "actual": len(body.interactive_tree),
            },
        )
    if body.query is not None and len(body.query) > settings.max_query_chars:
        raise StepwiseError(
            f"`query` has {len(body.query)} characters; the limit is {settings.max_query_chars}",
            code="LIMIT_EXCEEDED",
            status_code=422,
            details={"field": "query", "limit": "max_query_chars", "value": settings.max_query_chars, "actual": len(body.query)},
        )
