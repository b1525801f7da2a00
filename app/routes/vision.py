"""The tenant's vision switch: may screenshots of its users' pages reach a model? Off until
the tenant turns it on (docs/vision.md)."""

from __future__ import annotations

from fastapi import APIRouter

from app.deps import Context, Deps, SettingsDep, StoreDep
from app.error_codes import AUTHENTICATED, JSON_BODY
from app.errors import error_responses
from app.json_body import JsonRoute
from app.settings import Settings
from app.schemas.vision import VisionSettingsIn, VisionSettingsOut
from storage import VisionSettings

router = APIRouter(prefix="/api/vision", tags=["vision"], route_class=JsonRoute)


@router.get(
    "/settings",
    response_model=VisionSettingsOut,
    responses=error_responses(*AUTHENTICATED),
    summary="The tenant's screenshot switch (off unless turned on)",
)
async def get_vision_settings(ctx: Context, store: StoreDep, settings: SettingsDep) -> VisionSettingsOut:
    return VisionSettingsOut.of(await store.vision_settings.get(ctx.tenant_id), server_enabled=_server_enabled(settings))


@router.put(
    "/settings",
    response_model=VisionSettingsOut,
    responses=error_responses(*AUTHENTICATED, *JSON_BODY),
    summary="Allow or forbid screenshots reaching the model for the tenant",
    description="A partial body: a switch left out keeps its value. The server's STEPWISE_VISION switch (and a "
    "configured model) may still keep images from every tenant: `serverEnabled` says so.",
)
async def put_vision_settings(body: VisionSettingsIn, ctx: Context, deps: Deps, store: StoreDep, settings: SettingsDep) -> VisionSettingsOut:
    current = await store.vision_settings.get(ctx.tenant_id)
    screenshots = (current is not None and current.screenshots) if body.screenshots is None else body.screenshots
    stored = VisionSettings(tenant_id=ctx.tenant_id, screenshots=screenshots, updated_at=deps.now())
    await store.vision_settings.put(stored)
    return VisionSettingsOut.of(stored, server_enabled=_server_enabled(settings))


def _server_enabled(settings: Settings) -> bool:
    return settings.vision and settings.model_enabled
