"""What one request brings for the visual path, read once before the graph: whether images
may reach a model (server switch, a model, the tenant's opt-in), the screenshot decoded and
hashed, and what the client says about its page (mode, full DOM, a cut tree)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Final

import structlog

from agent.context import AgentDeps
from agent.errors import InvalidPage
from agent.inputs import PageInput
from agent.offload import page_work
from agent.vision.screenshot import Screenshot, ScreenshotInvalid, read_screenshot
from storage import StorageError

log = structlog.get_logger(__name__)

LOAD_TIMEOUT_S: Final = 2.0


@dataclass(frozen=True)
class VisionContext:
    """``allowed``: a screenshot may be sent to the model for this request."""

    allowed: bool = False
    screenshot: Screenshot | None = None
    client_hash: str | None = None  # the client's screenshotHash (a screen it did not upload again)
    client_mode: str | None = None  # domMode as sent
    full_dom_sent: bool = False  # this request carries the full DOM (domMode "full" with dom)
    tree_truncated: bool = False  # the client cut its V3 tree (node cap, viewport pruning)

    @property
    def screen_hash(self) -> str | None:
        """The hash of the screen this request shows: the uploaded one's, else the client's."""
        return self.screenshot.phash if self.screenshot is not None else self.client_hash


async def load_vision(*, tenant_id: str, page: PageInput, deps: AgentDeps) -> VisionContext:
    """The request's visual context. Images are allowed only with a model, the server's
    ``STEPWISE_VISION`` switch on and the tenant's screenshot switch on (off until the tenant
    turns it on). A screenshot is decoded only when it may be used; an unreadable one is a
    422 ``INVALID_PAGE`` (``details.field: "screenshot"``). A slow or failing settings read
    means a request without images, never a failed request."""
    base = VisionContext(
        client_hash=page.screenshot_hash,
        client_mode=page.mode,
        full_dom_sent=page.mode == "full" and page.dom is not None,
        tree_truncated=page.tree_truncated,
    )
    config = deps.config
    if not config.vision or deps.gateway is None:
        return base
    try:
        async with asyncio.timeout(LOAD_TIMEOUT_S):
            settings = await deps.store.vision_settings.get(tenant_id)
    except (TimeoutError, StorageError) as exc:
        log.warning("vision.settings_unavailable", error=type(exc).__name__)
        return base
    if settings is None or not settings.screenshots:
        if page.screenshot:
            log.info("vision.screenshot_dropped", reason="tenant has not allowed screenshots")
        return base
    shot = None
    if page.screenshot:
        try:
            shot = await page_work(True, read_screenshot, page.screenshot, max_width=config.vision_max_width)
        except ScreenshotInvalid as exc:
            raise InvalidPage(f"screenshot: {exc}", details={"field": "screenshot"}) from exc
    return VisionContext(
        allowed=True, screenshot=shot, client_hash=base.client_hash, client_mode=base.client_mode,
        full_dom_sent=base.full_dom_sent, tree_truncated=base.tree_truncated,
    )  # fmt: skip
