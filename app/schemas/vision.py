"""Bodies of /api/vision/settings: the tenant's screenshot switch."""

from __future__ import annotations

from pydantic import ConfigDict, Field, StrictBool

from app.schemas.common import ApiModel, StrictApiModel
from storage import VisionSettings


class VisionSettingsOut(ApiModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"screenshots": True, "serverEnabled": True}]})

    screenshots: bool = Field(
        description="Whether screenshots the client sends may be shown to the model for this tenant's tasks (off until turned on)"
    )
    server_enabled: bool = Field(
        description="Whether this server sends screenshots to a model at all (STEPWISE_VISION and a configured model)"
    )

    @classmethod
    def of(cls, settings: VisionSettings | None, *, server_enabled: bool) -> VisionSettingsOut:
        return cls(screenshots=settings is not None and settings.screenshots, server_enabled=server_enabled)


class VisionSettingsIn(StrictApiModel):
    """A partial update: a switch left out (or null) keeps its value."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"screenshots": True}]})

    screenshots: StrictBool | None = Field(default=None, description="Allow screenshots to reach the model; left out: unchanged")
