"""The tenants' screenshot switch (``vision_settings``) on SQLite."""

from __future__ import annotations

from storage.models import VisionSettings
from storage.sqlite.codec import Table
from storage.sqlite.connection import SqliteDatabase

VISION_SETTINGS = Table("vision_settings", VisionSettings)


class SqliteVisionSettings:
    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def get(self, tenant_id: str) -> VisionSettings | None:
        row = await self._db.fetch_one(
            f"SELECT {VISION_SETTINGS.select} FROM vision_settings WHERE tenant_id = ?", (tenant_id,)
        )
        return None if row is None else VISION_SETTINGS.from_row(row)

    async def put(self, settings: VisionSettings) -> None:
        await self._db.execute(
            f"{VISION_SETTINGS.insert_sql} ON CONFLICT (tenant_id) DO UPDATE SET"
            " screenshots = excluded.screenshots, updated_at = excluded.updated_at",
            VISION_SETTINGS.to_row(settings),
        )
