"""Typed errors of the planning engines. Messages name the problem, never page text."""

from __future__ import annotations

from collections.abc import Sequence


class PlanningError(ValueError):
    """Base class: a model answer could not be turned into something the agent can use."""

    def __init__(self, message: str, reasons: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.reasons: tuple[str, ...] = tuple(reasons) or (message,)


class PlanInvalid(PlanningError):
    """A draft or a modification does not make a usable plan (no steps, too many steps,
    a modification with no steps). The agent falls back (deterministic plan, regenerate)."""


class RefinementInvalid(PlanningError):
    """A refined action cannot be sent to the browser (bad grammar, unknown or unusable
    element, unsafe URL). The agent retries or takes its deterministic path."""
