"""The tenants' screenshot switch (``vision_settings``) on MongoDB: one document per tenant,
``_id`` = tenant_id."""

from __future__ import annotations

from typing import Any

from storage._common import to_utc
from storage.models import VisionSettings
from storage.mongo.errors import translated

VISION_SETTINGS = "vision_settings"


@translated
class MongoVisionSettings:
    def __init__(self, db: Any) -> None:
        self._db = db

    async def get(self, tenant_id: str) -> VisionSettings | None:
        doc = await self._db[VISION_SETTINGS].find_one({"_id": tenant_id})
        if doc is None:
            return None
        return VisionSettings(
            tenant_id=doc["tenant_id"], screenshots=bool(doc["screenshots"]), updated_at=to_utc(doc["updated_at"])
        )

    async def put(self, settings: VisionSettings) -> None:
        doc = {"tenant_id": settings.tenant_id, "screenshots": settings.screenshots, "updated_at": to_utc(settings.updated_at)}
        await self._db[VISION_SETTINGS].replace_one({"_id": settings.tenant_id}, doc, upsert=True)
