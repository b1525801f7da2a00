"""A task's plan: ordered steps, each with a success criterion, and the evidence that
shows the whole goal is done. Both the deterministic policy and the model planner
produce this shape; it is stored on the task (``Task.plan``) as JSON."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

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
    "other",
]
PlanStepStatus = Literal["pending", "in_progress", "completed", "failed", "skipped"]


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


class CompletionCriterion(BaseModel):
    """Evidence that the whole goal is done (checked against the page, never prose)."""

    model_config = ConfigDict(extra="forbid")

    success_words: list[str] = Field(
        default_factory=list,
        description="Words a new success message or the page should show, e.g. the saved record's name",
    )
    url_contains: str | None = Field(default=None, description="A URL fragment the final page should have")
    values_visible: list[str] = Field(default_factory=list, description="Values that should be visible on the final page")
    final_action_suffices: bool = Field(
        default=False,
        description="True when the goal is an action with no lasting visible result (e.g. a click that only "
        "triggers something): the verified final step is the evidence",
    )


class Plan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    goal: str
    steps: list[PlanStep]
    current_step_index: int = 0
    source: Literal["policy", "model"] = "policy"
    version: int = Field(default=1, ge=1, description="Bumped when the plan is modified or regenerated")
    completion: CompletionCriterion = Field(default_factory=CompletionCriterion)
    page_signatures: dict[str, list[str]] | None = Field(
        default=None, description="Signatures of the page the plan was made on (for re-planning)"
    )

    @property
    def current(self) -> PlanStep | None:
        if 0 <= self.current_step_index < len(self.steps):
            return self.steps[self.current_step_index]
        return None

    @property
    def finished(self) -> bool:
        return all(step.status in ("completed", "skipped") for step in self.steps)
