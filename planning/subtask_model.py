"""A sub-task of a hierarchical plan, as stored with the plan (see :mod:`planning.subtasks`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from verification.contract import Contract

SubTaskStatus = Literal["pending", "active", "completed", "failed"]


class SubTask(BaseModel):
    """One part of a hierarchical plan and where it stands (stored with the plan)."""

    model_config = ConfigDict(extra="forbid")

    index: int = Field(ge=0, description="Position among the sub-tasks, from 0")
    goal: str = Field(max_length=500, description="What this part achieves, for the worker and for people")
    first_step: int = Field(ge=0, description="Index of its first plan step")
    last_step: int = Field(ge=0, description="Index of its last plan step (inclusive)")
    inputs: list[str] = Field(default_factory=list, description="Names of earlier outputs this part needs")
    outputs: list[str] = Field(default_factory=list, description="What this part hands on ('record: Ana Silva')")
    clauses: list[str] = Field(default_factory=list, description="Task-contract clause ids its steps make true")
    checks: Contract = Field(default_factory=Contract, description="Its own conditions, checked on the page")
    budget: int = Field(default=4, ge=1, description="Most actions it may take")
    status: SubTaskStatus = "pending"
    actions_used: int = Field(default=0, ge=0, description="Actions issued while it was active")
    waits: int = Field(default=0, ge=0, description="Checks made after its steps were done, before it held")
    started_step: int | None = Field(default=None, description="The request (task step) it became active on")
    verified_step: int | None = Field(default=None, description="The request whose page showed it done")
    verified_url: str | None = Field(default=None, description="The page it was verified on")
    evidence: list[str] = Field(default_factory=list, description="What the page showed, per condition")
    failure: str | None = Field(default=None, description="Why it failed")

    @property
    def has_condition(self) -> bool:
        return bool(self.clauses or self.checks.clauses)

    def owns(self, step_index: int | None) -> bool:
        return step_index is not None and self.first_step <= step_index <= self.last_step


