"""What a task remembers about its pictures and page requests (``Task.state["vision"]``):
the last screenshot sent to a model (its perceptual hash, for de-duplication) and how often
the client was asked for a screenshot or for the full DOM (both bounded per task)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class VisionState(BaseModel):
    model_config = ConfigDict(extra="ignore")

    last_hash: str | None = Field(default=None, description="pHash of the last screenshot a model was sent in this task")
    last_sent_step: int | None = Field(default=None, ge=0, description="The step at which it was sent")
    images_sent: int = Field(default=0, ge=0, description="Screenshots sent to a model")
    images_skipped: int = Field(default=0, ge=0, description="Screenshots not sent again: the same screen as the last one sent")
    screenshot_asks: int = Field(default=0, ge=0, description="Answers that asked the client for a screenshot")
    full_dom_asks: int = Field(default=0, ge=0, description="Answers that asked the client for the full DOM")

    @classmethod
    def from_task_state(cls, state: dict[str, Any]) -> VisionState:
        return cls.model_validate(state.get("vision") or {})

    def stored(self) -> dict[str, Any]:
        return self.model_dump(mode="json")
