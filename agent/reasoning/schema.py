"""The context analyser's answer: where the information a goal needs comes from."""

from __future__ import annotations

from typing import Literal, TypedDict

from pydantic import BaseModel, ConfigDict, Field, model_validator

Source = Literal["MEMORY", "PAGE", "WEB_SEARCH", "ASK_USER"]


class ContextAnalysis(BaseModel):
    """One context analysis. ``source`` is the primary source and always the first entry of
    ``required_sources``; ASK_USER anywhere in ``required_sources`` makes it the source."""

    model_config = ConfigDict(extra="forbid")

    source: Source = Field(
        description=(
            "Primary source: MEMORY (earlier chat messages give what is needed), PAGE (the page "
            "has it or the goal is a plain page action), WEB_SEARCH (outside information is "
            "needed), ASK_USER (a value only the user knows is missing)."
        )
    )
    required_sources: list[Source] = Field(
        default_factory=list,
        description="Every source the task needs, primary first, e.g. ['MEMORY', 'PAGE'].",
    )
    missing_information: list[str] = Field(
        default_factory=list,
        description=(
            "For ASK_USER: each value the user must give, short, e.g. 'the patient's name'. "
            "Else empty."
        ),
    )
    search_query: str | None = Field(
        default=None,
        description=(
            "For WEB_SEARCH: a short refined search query (keywords, not the user's sentence). "
            "Else null."
        ),
    )
    reason: str = Field(description="One or two sentences saying why this source was chosen.")

    @model_validator(mode="after")
    def _primary_first(self) -> ContextAnalysis:
        if "ASK_USER" in self.required_sources:
            self.source = "ASK_USER"
        ordered: list[Source] = [self.source]
        ordered.extend(s for s in self.required_sources if s not in ordered)
        self.required_sources = ordered
        return self

    @property
    def needs_user_input(self) -> bool:
        return self.source == "ASK_USER"

    @property
    def needs_web_search(self) -> bool:
        return "WEB_SEARCH" in self.required_sources


class NeedsUserInput(TypedDict):
    """The payload of a ``needs_user_input`` response."""

    message: str
    missing: list[str]
