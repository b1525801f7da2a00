"""A task's plan: ordered steps, each with a success criterion and, where it makes part of
the goal true, the goal-contract clause it is for. Both the deterministic policy and the
model planner produce this shape; it is stored on the task (``Task.plan``) as JSON. What
"done" means is not the plan's business: it is the task's contract (``verification.contract``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from planning.contingency import Contingency
from planning.subtask_model import SubTask

StepKind = Literal[
    "open",  # reach the place where the work happens (menu, section, "New …" form)
    "fill",  # type a value into a field
    "select",  # choose an option in a list/dropdown/radio group
    "check",
    "uncheck",
    "click",  # press a named control
    "submit",  # press the form's submit/save control
    "press",  # a key in a field
    "focus",
    "hover",
    "navigate",  # go to a URL
    "find",  # reveal something not yet visible (expand, scroll, search)
    "wait",  # let time pass, as the goal says ("wait 2 seconds")
    "suggest",  # type into a field, then choose the suggestion that fits (autocomplete)
    "other",
]
PlanStepStatus = Literal["pending", "in_progress", "completed", "failed", "skipped"]


class SuggestionPick(BaseModel):
    """Which of a field's suggestions a ``suggest`` step chooses: the one whose text meets
    every condition given (case aside), or — when the goal allows any ("an item starting
    with …") — the first of several that do."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    starts: str | None = Field(default=None, description="The suggestion starts with this")
    ends: str | None = Field(default=None, description="The suggestion ends with this")
    contains: str | None = Field(default=None, description="The suggestion contains this")
    equals: str | None = Field(default=None, description="The suggestion is exactly this item")
    any: bool = Field(default=False, description="Any suggestion that fits will do (the first is taken)")


class PlanStep(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int = Field(ge=0, description="Position in the plan, from 0")
    description: str = Field(description="What this step does, for a person")
    kind: StepKind = Field(default="other", description="The kind of step")
    target: str | None = Field(default=None, description="The element the step acts on, in words (its label)")
    value: str | None = Field(default=None, description="Text to type or option to choose, exactly as the user gave it")
    success_criterion: str = Field(description="What on the page shows this step worked")
    status: PlanStepStatus = "pending"
    attempts: int = Field(default=0, ge=0, description="Actions issued for this step so far")
    clause: str | None = Field(default=None, description="The goal-contract clause this step makes true, if any")
    reopened: int = Field(default=0, ge=0, description="Times the step was reopened because its clause did not hold")
    explored: list[str] = Field(
        default_factory=list, description="The exploring moves made for this step (a section or tab opened, a menu item hovered…), never made twice"
    )
    pick: SuggestionPick | None = Field(default=None, description="suggest: which suggestion to choose")


class Plan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    goal: str
    steps: list[PlanStep]
    current_step_index: int = 0
    source: Literal["policy", "model"] = "policy"
    version: int = Field(default=1, ge=1, description="Bumped when the plan is modified or regenerated")
    page_signatures: dict[str, list[str]] | None = Field(
        default=None, description="Signatures of the page the plan was made on (for re-planning)"
    )
    contingencies: list[Contingency] = Field(
        default_factory=list, description="The plan's own conditional branches (planning.contingency); the built-in ones always apply"
    )
    subtasks: list[SubTask] = Field(
        default_factory=list, description="A multi-part goal's sub-tasks over these steps (planning.subtasks); empty: a flat plan"
    )

    @model_validator(mode="before")
    @classmethod
    def _drop_retired_fields(cls, data: Any) -> Any:
        """Plans stored before the goal contract carried a ``completion`` criterion; what
        "done" means now lives in the task's contract."""
        if isinstance(data, dict) and "completion" in data:
            data = {k: v for k, v in data.items() if k != "completion"}
        return data

    @property
    def current(self) -> PlanStep | None:
        if 0 <= self.current_step_index < len(self.steps):
            return self.steps[self.current_step_index]
        return None

    @property
    def finished(self) -> bool:
        return all(step.status in ("completed", "skipped") for step in self.steps)
