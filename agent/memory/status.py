"""What memory did for one answer, and what a request loaded from it.

Every answer says whether its action came from memory (``memory`` in the answer and in
the task detail's steps): a step replayed from a recipe is ``HIT``; a task being replayed
whose step the planner decided is ``FALLBACK``; no recipe applied is ``MISS`` with the
reason; replay switched off is ``DISABLED``. ``skillsUsed`` lists the skills that steered
the step (a known dead end avoided).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from storage import Recipe

ReplayStatus = Literal["HIT", "MISS", "FALLBACK", "DISABLED"]


@dataclass(frozen=True)
class MemoryStatus:
    replay: ReplayStatus = "MISS"
    miss_reason: str | None = None
    skills_used: tuple[str, ...] = ()
    recipe_id: str | None = None
    recipe_step: int | None = None

    def wire(self) -> dict[str, Any]:
        """The answer's ``memory`` object (and the task detail's, per step)."""
        return {
            "replay": self.replay,
            "missReason": self.miss_reason,
            "skillsUsed": list(self.skills_used),
            "recipeId": self.recipe_id,
            "recipeStep": self.recipe_step,
        }

    @classmethod
    def from_wire(cls, data: dict[str, Any] | None) -> MemoryStatus | None:
        if not data:
            return None
        return cls(
            replay=data.get("replay", "MISS"),
            miss_reason=data.get("missReason"),
            skills_used=tuple(data.get("skillsUsed") or ()),
            recipe_id=data.get("recipeId"),
            recipe_step=data.get("recipeStep"),
        )


@dataclass(frozen=True)
class MemoryContext:
    """What one request loaded from memory (once, before the graph runs): the tenant's
    switches, the admitted skills that apply to this goal on this site, and the recipes
    of this site (only when replay may be used)."""

    domain: str | None = None
    skills_on: bool = False
    replay_on: bool = False
    skills: tuple[Any, ...] = ()  # agent.memory.skills.Applicable, best first
    recipes: tuple[Recipe, ...] = ()
    error: str | None = None  # loading failed: the request goes on without memory

    @property
    def replay_status_off(self) -> MemoryStatus:
        return MemoryStatus(replay="DISABLED", miss_reason="replay is switched off")


@dataclass
class RecallState:
    """A recipe being replayed in a task (``task.state["recall"]``): which recipe, the next
    of its steps to serve, and whether a step had to fall back to the planner."""

    recipe_id: str
    next_step: int = 0
    fallbacks: int = 0
    served: list[int] = field(default_factory=list)

    def rewound(self, recipe_step: int | None, verified: int) -> RecallState:
        """After a replayed chain from ``recipe_step`` of which only the first ``verified``
        actions ran and held (the client cut it short: an overlay, a page that changed under
        it), the recipe goes on from the first step that did not run — not after the whole
        chain, which would skip those steps for good."""
        if recipe_step is None or verified < 1 or recipe_step + verified >= self.next_step:
            return self
        resume = recipe_step + verified
        return RecallState(self.recipe_id, resume, self.fallbacks, [i for i in self.served if i < resume])

    def stored(self) -> dict[str, Any]:
        return {"recipe": self.recipe_id, "next": self.next_step, "fallbacks": self.fallbacks, "served": list(self.served)}

    @classmethod
    def from_stored(cls, data: Any) -> RecallState | None:
        if not isinstance(data, dict) or not isinstance(data.get("recipe"), str):
            return None
        return cls(
            recipe_id=data["recipe"],
            next_step=int(data.get("next") or 0),
            fallbacks=int(data.get("fallbacks") or 0),
            served=[int(i) for i in data.get("served") or []],
        )
